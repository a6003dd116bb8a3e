"""``import citybuild`` (and the move builder, the adapters package and the command line) never imports
an extra: no learning framework, and none of the server's web framework."""

from __future__ import annotations

import subprocess
import sys


def test_importing_citybuild_imports_no_framework() -> None:
    code = (
        "import sys, citybuild, citybuild.adapters, citybuild.adapters.stepper, citybuild.core.actions\n"
        "import citybuild.cli\n"
        "import citybuild as cb\n"
        "cb.load('manhattan').initial_state()\n"
        "frameworks = {'pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'numpy'}\n"
        "web = {'fastapi', 'starlette', 'uvicorn', 'pydantic', 'httpx', 'httpx2', 'anyio'}\n"
        "loaded = (frameworks | web) & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
