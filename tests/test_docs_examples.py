"""Every ```python block in docs/ and README.md runs, page by page in one namespace per page,
so the documented examples cannot rot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*ROOT.glob("docs/**/*.md"), ROOT / "README.md"])
BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run(page: Path) -> None:
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for number, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8")), 1):
        code = compile(block, f"{page.relative_to(ROOT)} block {number}", "exec")
        exec(code, namespace)
