"""The rules references shipped in the package: byte-identical to the specification, read rule by rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citybuild import rulebook
from citybuild.cli import main
from citybuild.core.errors import NotationError, RulesError
from citybuild.core.registry import spec

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "rules"
PACKAGED = ROOT / "src" / "citybuild" / "rulebook"
GAMES = ("manhattan", "skyline", "urbanization")


@pytest.mark.parametrize("game", GAMES)
def test_packaged_copy_is_the_specification(game: str) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"the rules references are not at {SHARED} (CI has them at ../shared/rules)")
    assert (PACKAGED / f"{game}.md").read_bytes() == (SHARED / f"{game}.md").read_bytes()


@pytest.mark.parametrize("game", GAMES)
def test_every_defined_id_is_found_in_order(game: str) -> None:
    defined = re.findall(r"^- \*\*([A-Z]{3}-[A-Z]+-\d+)\*\*", rulebook.text(game), re.M)
    assert defined and rulebook.rule_ids(game) == tuple(defined)
    assert all(rulebook.rule_text(game, rule_id) for rule_id in defined)


def test_text_is_the_packaged_reference() -> None:
    assert rulebook.text("skyline") == (PACKAGED / "skyline.md").read_text(encoding="utf-8")


def test_man_build_4_with_its_list_and_closing_paragraph() -> None:  # MAN-BUILD-4
    body = rulebook.rule_text("manhattan", "man-build-4")
    assert body.startswith("**Legality.** The move is legal iff one of these holds:\n- the lot is empty; or\n")
    assert body.endswith("\n\nFloors of c placed earlier count wherever they sit in the stack.")
    assert "MAN-BUILD-5" not in body


def test_man_build_5_is_one_line() -> None:  # MAN-BUILD-5
    assert rulebook.rule_text("manhattan", "MAN-BUILD-5") == (
        "After placing, c owns the tower. Towers have **no height limit** [published]."
    )


def test_sky_end_2_joins_its_continuation_lines() -> None:  # SKY-END-2
    body = rulebook.rule_text("skyline", "SKY-END-2")
    assert body.splitlines()[1].startswith("The game then ends at the end of the current round")
    assert body.endswith("demolishing that building later does not cancel it.")


def test_urb_setup_3_stops_before_the_next_rule() -> None:  # URB-SETUP-3
    body = rulebook.rule_text("urbanization", "URB-SETUP-3")
    assert body.startswith("**Tile stack**: the other 51 tiles.") and body.endswith("(`small_game_removed_tiles=6`).")


def test_a_mention_is_not_a_definition() -> None:  # MAN-END-3 is cited in the preset table before its bullet
    ids = rulebook.rule_ids("manhattan")
    assert ids.index("MAN-END-3") > ids.index("MAN-BUILD-4") and len(set(ids)) == len(ids)


def test_unknown_id_names_the_pattern_and_close_ids() -> None:
    with pytest.raises(NotationError, match=r"MAN-<SECTION>-<n>.*MAN-BUILD-4"):
        rulebook.rule_text("manhattan", "MAN-BILD-4")
    with pytest.raises(NotationError, match="SKY-<SECTION>-<n>"):
        rulebook.rule_text("skyline", "MAN-BUILD-4")


def test_unknown_game_gets_the_registry_error() -> None:
    with pytest.raises(RulesError) as caught:
        rulebook.rule_ids("chess")
    with pytest.raises(RulesError) as expected:
        spec("chess")
    assert str(caught.value) == str(expected.value)


def test_cli_prints_one_rule(capsys: pytest.CaptureFixture[str]) -> None:  # MAN-BUILD-4
    assert main(["rules", "manhattan", "man-build-4"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("MAN-BUILD-4\n  Legality. The move is legal iff one of these holds:\n")
    assert "**" not in out and out.endswith("\n  Floors of c placed earlier count wherever they sit in the stack.\n")


def test_cli_unknown_rule_id_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "skyline", "SKY-ENDD-2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("citybuild: error: unknown rule ID 'SKY-ENDD-2' for skyline") and "SKY-END-2" in err


def test_cli_rules_without_an_id_still_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "urbanization"]) == 0
    assert "options of preset 'standard':" in capsys.readouterr().out


def test_cli_names_the_sources_in_words(capsys: pytest.CaptureFixture[str]) -> None:  # MAN-BUILD-4
    assert main(["rules", "manhattan", "MAN-BUILD-4"]) == 0
    out = capsys.readouterr().out
    assert "sources/" not in out and "the French rules sheet" in out and "the German rules description" in out
