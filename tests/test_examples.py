"""Every script in examples/ runs to completion with plain ``python``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


def test_there_are_examples() -> None:
    assert {p.name for p in EXAMPLES} >= {"app_loop.py", "referee_in_pytest.py", "records.py"}


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=script.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip()
