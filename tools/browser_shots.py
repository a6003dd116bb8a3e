"""Copy the browser tutorial's screenshots from the newcomer test's artifacts into the docs, small.

``tests/server/test_newcomer_browser.py`` saves a screenshot of each phase of a whole game of each
title into ``tests/artifacts/newcomer/``; this script copies the ones the tutorial
(``docs/guide/browser-tutorial.md``) shows into ``docs/guide/browser/``, narrowed to 900 pixels
and reduced to a palette of 256 colours (a few tens of kilobytes each)::

    PYTHONPATH=src python -m pytest tests/server/test_newcomer_browser.py
    python tools/browser_shots.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "tests" / "artifacts" / "newcomer"
OUT = ROOT / "docs" / "guide" / "browser"
WIDTH = 900
CHOSEN = {
    "lobby.png": "skyline-01-lobby.png",
    "skyline-take.png": "skyline-02-take.png",
    "skyline-yard.png": "skyline-03-take-picked.png",
    "skyline-dice.png": "skyline-04-resolve.png",
    "skyline-reroll.png": "skyline-06-continue.png",
    "skyline-scoring.png": "skyline-08-scoring.png",
    "manhattan-select.png": "manhattan-02-select-to-act-p.png",
    "manhattan-lot.png": "manhattan-04-build-to-act-p-picked.png",
    "manhattan-scoring.png": "manhattan-05-scoring.png",
    "urbanization-card.png": "urbanization-05-choose-to-act-p-picked.png",
    "urbanization-token.png": "urbanization-06-resolve-to-act-p.png",
    "urbanization-over.png": "urbanization-07-game-over.png",
}
"""The docs' name of each screenshot, and the artifact it is made from."""


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, source in CHOSEN.items():
        shot = Image.open(SHOTS / source).convert("RGB")
        small = shot.resize((WIDTH, round(shot.height * WIDTH / shot.width)), Image.Resampling.LANCZOS)
        small.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(OUT / name, optimize=True)
    total = sum((OUT / name).stat().st_size for name in CHOSEN)
    print(f"{len(CHOSEN)} screenshots in {OUT.relative_to(ROOT)}, {total // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
