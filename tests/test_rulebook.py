"""The rules references shipped in the package: byte-identical to the specification."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "rules"
PACKAGED = ROOT / "src" / "citybuild" / "rulebook"
GAMES = ("manhattan", "skyline", "urbanization")


@pytest.mark.parametrize("game", GAMES)
def test_packaged_copy_is_the_specification(game: str) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"the rules references are not at {SHARED} (CI has them at ../shared/rules)")
    assert (PACKAGED / f"{game}.md").read_bytes() == (SHARED / f"{game}.md").read_bytes()
