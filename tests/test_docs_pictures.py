"""The docs' pictures and spec tables are what the code makes now: every picture a page shows is
drawn by ``tools/docs_pictures.py`` (the MkDocs hook that draws them before each build), each is a
valid SVG, and every game page's spec table is the one measured from random games today."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import citybuild as cb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import docs_pictures  # noqa: E402

PICTURE = re.compile(r"\]\((?:\.\./)?pictures/([\w.-]+\.svg)\)")


@pytest.fixture(scope="module")
def drawn() -> dict[str, str]:
    return dict(docs_pictures.pictures())


def test_every_picture_the_docs_show_is_drawn(drawn: dict[str, str]) -> None:
    shown = {name for page in ROOT.glob("docs/**/*.md") for name in PICTURE.findall(page.read_text())}
    assert shown and shown <= set(drawn), sorted(shown - set(drawn))
    assert set(drawn) <= shown, f"drawn but never shown: {sorted(set(drawn) - shown)}"
    for svg in drawn.values():
        assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"


def test_every_game_page_opens_with_a_picture_and_its_spec_table() -> None:
    for game in ("manhattan", "skyline", "urbanization"):
        text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
        head = text.split("\n## ", 1)[0]
        assert re.search(rf"!\[[^]]*\]\(\.\./pictures/{game}-[\w-]+\.svg\)", head), game
        found = docs_pictures.TABLE.search(head)
        assert found and found.group(2) == game
        assert found.group(3) == docs_pictures.spec_table(game), f"run: python tools/docs_pictures.py --tables ({game})"


def test_every_game_page_lists_each_option_as_citybuild_rules_describes_it() -> None:
    for game in ("manhattan", "skyline", "urbanization"):
        text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
        found = docs_pictures.OPTIONS.search(text)
        assert found and found.group(2) == game
        rerun = f"run: python tools/docs_pictures.py --tables ({game})"
        assert found.group(3) == docs_pictures.options_table(game), rerun
        for info in cb.load(game).rules.describe():
            assert f"| `{info.name}` |" in found.group(3) and info.meaning


def test_the_docs_build_draws_the_pictures(tmp_path: Path) -> None:
    assert "tools/docs_pictures.py" in (ROOT / "mkdocs.yml").read_text()
    docs_pictures.on_pre_build({"docs_dir": str(tmp_path)})
    made = sorted(p.name for p in (tmp_path / "pictures").iterdir())
    assert made == sorted([*dict(docs_pictures.pictures()), *dict(docs_pictures.pages())])
    linked = "".join(page.read_text() for page in ROOT.glob("docs/**/*.md"))
    assert all(f"pictures/{name})" in linked for name in dict(docs_pictures.pages()))
