"""The docs' Rules pages (``tools/docs_rules.py``): the references reworded for a reader of the site,
an anchor per rule, and every rule ID on any page linked to its rule (never inside fenced code)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from citybuild import rulebook

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import docs_rules  # noqa: E402


def test_source_files_are_named_in_words() -> None:
    sample = (
        "- the French rules sheet (`sources/manhattan-fr.txt`);\n"
        "- **MAN-COMP-4** The hand size is **4** "
        "[published; source: sources/manhattan-fr.txt, sources/manhattan-de.txt].\n"
        "The main source is the English rules summary in `sources/skyline.txt`. Where the two disagree, "
        "sources/skyline.txt governs."
    )
    assert docs_rules.for_readers(sample) == (
        "- the French rules sheet;\n"
        "- **MAN-COMP-4** The hand size is **4** [published; source: the French rules sheet, "
        "the German rules description].\n"
        "The main source is the English rules summary. Where the two disagree, the English rules summary governs."
    )


def test_notes_to_the_developers_are_reworded() -> None:
    sample = (
        "- **[default]**: an engine decision where no source speaks.\n"
        "Cards with the same k are interchangeable, so the engine stores the draw pile as counts per k.\n"
        "## 11. Worked examples (each is a unit test)\n"
        "Every rule below has an ID (`SKY-<SECTION>-<n>`). Tests and error messages cite these IDs."
    )
    assert docs_rules.for_readers(sample) == (
        "- **[default]**: a citybuild decision where no source speaks.\n"
        "Cards with the same k are interchangeable, so citybuild stores the draw pile as counts per k.\n"
        "## 11. Worked examples (each is checked by citybuild's tests)\n"
        "Every rule below has an ID (`SKY-<SECTION>-<n>`). Error messages cite these IDs."
    )


@pytest.mark.parametrize("game", rulebook.GAMES)
def test_rules_page_anchors_every_rule_and_cites_no_file(game: str) -> None:
    page = docs_rules.rules_page(game)
    assert "sources/" not in page and "the engine" not in page.lower() and "unit test" not in page
    for rule_id in rulebook.rule_ids(game):  # e.g. MAN-BUILD-4 -> <a id="man-build-4">
        assert f'- <a id="{rule_id.lower()}"></a>**{rule_id}** ' in page


def test_ids_in_prose_tables_and_code_spans_are_linked() -> None:
    sample = (
        "Takeovers follow MAN-BUILD-4 and `SKY-END-2`.\n"  # MAN-BUILD-4, SKY-END-2
        "| `takeover_compare` | Takeover reference (URB-SETUP-3). |\n"  # URB-SETUP-3
        "Not rules: MAN-BUILD-99, `MAN-CARD-1/2` and [a link MAN-BUILD-5](x.md)."
    )
    assert docs_rules.link_rule_ids(sample, "games/manhattan.md") == (
        "Takeovers follow [MAN-BUILD-4](../rules/manhattan.md#man-build-4) and "
        "[`SKY-END-2`](../rules/skyline.md#sky-end-2).\n"
        "| `takeover_compare` | Takeover reference ([URB-SETUP-3](../rules/urbanization.md#urb-setup-3)). |\n"
        "Not rules: MAN-BUILD-99, `MAN-CARD-1/2` and [a link MAN-BUILD-5](x.md)."
    )


def test_fenced_code_is_untouched() -> None:
    sample = "```console\n$ citybuild rules manhattan MAN-BUILD-4\nMAN-BUILD-4\n```\n"
    sample += "  ~~~\n  SKY-END-2 in `code`\n  ~~~\nMAN-BUILD-4"
    linked = docs_rules.link_rule_ids(sample, "index.md")
    assert linked.rsplit("\n", 1) == [sample.rsplit("\n", 1)[0], "[MAN-BUILD-4](rules/manhattan.md#man-build-4)"]


def test_a_rule_is_not_linked_to_itself_where_it_is_defined() -> None:  # MAN-BUILD-4, MAN-BUILD-5
    line = '- <a id="man-build-4"></a>**MAN-BUILD-4** Legality, see MAN-BUILD-5.'
    assert docs_rules.link_rule_ids(line, "rules/manhattan.md") == (
        '- <a id="man-build-4"></a>**MAN-BUILD-4** Legality, see [MAN-BUILD-5](manhattan.md#man-build-5).'
    )


def test_the_references_lists_render_in_python_markdown() -> None:
    text = "Sources:\n- one\n  more of one\n- two\n\n- item\n  - nested under item\n  Text in the item:\n  - its list\n"
    assert docs_rules.for_python_markdown(text) == (
        "Sources:\n\n- one\n    more of one\n- two\n\n- item\n    - nested under item\n    Text in the item:\n\n"
        "    - its list\n"
    )
