"""Every worked example of rules/skyline.md §9, one test each, and the statistical check of SKY-RAND-2."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from skyline_support import game, pos

from citybuild.core import chance
from citybuild.games.skyline import Abandon, Build, Demolish, EndTurn, Reroll, Roll, TakeDistrict, TakeYard


def skyline_text(state, player):  # type: ignore[no-untyped-def]
    from citybuild.games.skyline.notation import skyline_text as text

    return text(state.skylines[player])


# Example 1 -- SKY-SETUP-1, SKY-SETUP-2, SKY-SETUP-3, SKY-SETUP-4
def test_example_1_setup_three_players() -> None:
    s = game(3).initial_state()
    assert [skyline_text(s, p) for p in range(3)] == ["1:O[GF]", "1:B[GF]", "1:P[GF]"]
    assert s.district == (1, 1, 1) and s.yard == (21, 27, 6)
    assert s.round == 1 and s.to_act == (0,) and s.phase == "take"
    assert s.active == () and s.rolling == (0, 0, 0)  # SKY-SETUP-1: the district dice are unrolled


# Example 2 -- SKY-SETUP-3, SKY-SETUP-4
@pytest.mark.parametrize(
    ("players", "skylines", "yard"),
    [(2, ["1:O[GF]", "1:B[GF]"], (22, 27, 6)), (4, ["1:O[GF]", "1:B[GF]", "1:P[GF]", "-"], (21, 27, 6))],
)
def test_example_2_setup_two_and_four_players(players: int, skylines: list[str], yard: tuple[int, ...]) -> None:
    s = game(players).initial_state()
    assert [skyline_text(s, p) for p in range(players)] == skylines
    assert s.yard == yard and s.district == (1, 1, 1)


# Example 3 -- SKY-TURN-2
def test_example_3_taking_from_the_yard() -> None:
    s = pos("yard=22.27.6 district=1.1.1 sky=1:O[GF]/1:B[GF]")
    assert s.yard[2] == 6
    after = s.play(TakeYard(("PH", "PH", "PH")))
    assert after.yard[2] == 3 and after.rolling == (0, 0, 3) and after.is_chance
    none = pos("yard=23.27.0 district=1.1.7 sky=1:O[GF]/-")
    for types in (("PH", "GF", "GF"), ("PH", "PH", "UF"), ("PH", "PH", "PH")):
        verdict = none.check(TakeYard(types))
        assert not verdict.ok and verdict.codes == ("not-in-yard",) and verdict.rules == ("SKY-TURN-2",)
    two = s.check(TakeYard(("GF", "UF")))
    assert two.codes == ("wrong-take-size",) and "not 2" in str(two)


# Example 4 -- SKY-TURN-2, SKY-TURN-3
def test_example_4_taking_the_district() -> None:
    s = pos("yard=21.25.6 district=1.3.1 sky=1:O[GF]/1:B[GF]/1:P[GF]", players=3)
    after = s.play(TakeDistrict())
    assert after.district == (1, 1, 1) and after.yard == (20, 24, 5)
    assert after.is_chance and after.rolling == (1, 3, 1)  # 5 dice rolled: 1 GF, 3 UF, 1 PH
    assert all(sum(1 for d in o.dice) == 5 for o, _ in after.chance_outcomes())


# Example 5 -- SKY-BUILD-2, SKY-BUILD-3, SKY-BUILD-5
def test_example_5_orange_heights() -> None:
    s = pos("phase=resolve active=PHO,UFO sky=1:O[GF]/-")
    refused = s.check(Build(("PH", "O"), 1))
    assert refused.codes == ("bad-height",) and refused.rules == ("SKY-BUILD-3",)
    s = s.play(Build(("UF", "O"), 1))
    assert skyline_text(s, 0) == "1:O[GF.UF]"
    yard = s.yard
    s2 = s.play(Build(("PH", "O"), 1))
    assert skyline_text(s2, 0) == "1:O3" and s2.scores().total(0) == 9
    assert s2.yard == (yard[0] + 1, yard[1] + 1, yard[2] + 1)  # GF, UF and PH return to the yard


# Example 6 -- SKY-BUILD-3, SKY-BUILD-4
def test_example_6_blue_rules() -> None:
    s = pos("phase=resolve active=PHB sky=1:B[GF]/-").play(Build(("PH", "B"), 1))
    assert skyline_text(s, 0) == "1:B2"
    assert s.skylines[0].points == 4
    tall = pos("phase=resolve active=UFB,PHB sky=1:B[GF.UF.UF]/-")
    assert tall.check(Build(("UF", "B"), 1)).codes == ("bad-height",)
    done = tall.play(Build(("PH", "B"), 1))
    assert skyline_text(done, 0) == "1:B4" and done.skylines[0].points == 16
    mismatch = pos("phase=resolve active=UFB sky=1:O[GF]/-").check(Build(("UF", "B"), 1))
    assert mismatch.codes == ("colour-mismatch",) and mismatch.rules == ("SKY-BUILD-4",)


# Example 7 -- SKY-BUILD-1, SKY-BUILD-2, SKY-BUILD-3, SKY-BUILD-4
def test_example_7_purple_rules() -> None:
    s = pos("phase=resolve active=UFP,UFP sky=1:P[GF]/-").play(Build(("UF", "P"), 1))
    assert skyline_text(s, 0) == "1:P2" and s.skylines[0].points == 4
    no_purple = s.check(Build(("UF", "P"), None))
    assert no_purple.codes == ("floor-needs-building",) and no_purple.rules == ("SKY-BUILD-2",)
    on_tile = s.check(Build(("UF", "P"), 1))
    assert on_tile.codes == ("building-completed",) and on_tile.rules == ("SKY-BUILD-4",)
    assert not [m for m in s.legal_moves() if isinstance(m, Build)]


# Example 8 -- SKY-BUILD-2, SKY-ABANDON-1, SKY-DEMOLISH-1
def test_example_8_blank_penthouse() -> None:
    s = pos("phase=resolve active=PHX district=1.1.1 sky=1:O[GF]/-")
    assert s.check(Build(("PH", "X"), 1)).codes == ("blank-face",)
    abandoned = s.play(Abandon(("PH", "X")))
    assert abandoned.district == (1, 1, 2)
    demolished = s.play(Demolish(("PH", "X"), 1))
    assert demolished.yard == (s.yard[0] + 1, s.yard[1], s.yard[2] + 1)
    assert demolished.skylines[0].buildings == ()


# Example 9 -- SKY-DEMOLISH-2, SKY-TURN-4, SKY-TURN-8
def test_example_9_demolish_needs_a_target() -> None:
    s = pos("phase=resolve active=GFO,UFB,PHX sky=-/1:B[GF]")
    assert s.check(Demolish(("GF", "O"), 1)).codes == ("no-buildings",)
    assert set(s.legal_moves()) == {
        Build(("GF", "O"), None),
        Abandon(("GF", "O")),
        Abandon(("UF", "B")),
        Abandon(("PH", "X")),
    }
    assert len(s.legal_moves()) == 4
    assert s.check(Reroll([("UF", "B")])).codes == ("must-resolve",)
    assert s.check(EndTurn()).codes == ("must-resolve",)


# Example 10 -- SKY-DEMOLISH-1, SKY-SCORE-3
def test_example_10_demolish_a_completed_building() -> None:
    s = pos("phase=resolve active=UFP sky=1:B4,2:P2/-")
    assert s.scores().total(0) == 20
    after = s.play(Demolish(("UF", "P"), 1))
    assert after.scores().total(0) == 4 and after.yard[1] == s.yard[1] + 1
    strict = pos("phase=resolve active=UFP sky=1:B4,2:P2/-", demolish_completed_allowed=False)
    verdict = strict.check(Demolish(("UF", "P"), 1))
    assert verdict.codes == ("completed-protected",) and verdict.rules == ("SKY-DEMOLISH-1",)


# Example 11 -- SKY-TURN-4, SKY-TURN-5, SKY-TURN-6
def test_example_11_resolve_before_reroll() -> None:
    s = pos("phase=resolve active=GFP,UFB,PHX district=1.1.1 sky=1:O[GF]/-")
    assert s.check(Reroll([("UF", "B")])).codes == ("must-resolve",)
    assert s.check(EndTurn()).rules == ("SKY-TURN-4",)
    s = s.play(Build(("GF", "P"), None))
    rerolled = s.play(Reroll([("UF", "B")]))
    assert rerolled.is_chance and rerolled.active == (("PH", "X"),) and rerolled.rolling == (0, 1, 0)
    assert s.check(Reroll([])).codes == ("empty-reroll",)
    assert s.check(Reroll([("UF", "B"), ("PH", "X")])).ok
    ended = s.play(EndTurn())
    assert ended.yard == (s.yard[0], s.yard[1] + 1, s.yard[2] + 1) and ended.district == s.district
    again = rerolled.play(Roll([("UF", "P")]))
    assert again.check(Reroll([("PH", "X")])).codes == ("must-resolve",)
    assert again.check(EndTurn()).codes == ("must-resolve",)


# Example 12 -- SKY-SCORE-1, SKY-SCORE-4
def test_example_12_tie_breaks() -> None:
    text = "phase=over round=9 turn=1 sky=1:P2,2:B2/1:P2,2:P[GF],3:P[GF],4:P[GF],5:P[GF]"
    default = pos(text)
    sheet = default.scores()
    assert sheet.totals == (8, 8) and default.winners() == (0,) and sheet.tiebreak == "most_completed"
    counted = pos(text, tiebreak_counts_converted_lowrise=True)
    assert counted.winners() == (1,) and counted.scores().tiebreak == "most_completed"
    shared = pos("phase=over round=9 turn=1 sky=1:O3/1:O3")
    assert shared.winners() == (0, 1) and shared.scores().tiebreak == "shared"


# Statistical check -- SKY-RAND-2, SKY-COMP-4
@pytest.mark.parametrize(("kind", "faces"), [("GF", "PBO"), ("UF", "PBO"), ("PH", "XBO")])
def test_face_frequencies_over_60000_rolls(kind: str, faces: str) -> None:
    rolling = {"GF": "1.0.0", "UF": "0.1.0", "PH": "0.0.1"}[kind]
    s = pos(f"phase=roll roll={rolling} sky=-/-")
    outcomes = s.chance_outcomes()
    rng = random.Random(2012)
    counts = Counter(chance.sample(outcomes, rng).dice[0][1] for _ in range(60_000))
    for face, expected in zip(faces, (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)), strict=True):
        assert abs(counts[face] / 60_000 - float(expected)) <= 0.01, (face, counts)
