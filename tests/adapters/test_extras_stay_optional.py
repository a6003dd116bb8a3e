"""``import citybuild`` (and the move builder, and the adapters package) never imports an extra."""

from __future__ import annotations

import subprocess
import sys


def test_importing_citybuild_imports_no_framework() -> None:
    code = (
        "import sys, citybuild, citybuild.adapters, citybuild.adapters.stepper, citybuild.core.decisions\n"
        "import citybuild as cb\n"
        "cb.load('manhattan').initial_state()\n"
        "loaded = {'pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'numpy'} & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
