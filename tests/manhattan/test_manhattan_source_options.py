"""Two rule options that the source texts allow and no preset uses (rules/manhattan.md §9):
``takeover_compare="any_colour"`` (MAN-BUILD-4, the German description read literally) and
``two_colour_split="free"`` (MAN-ROUND-1, the French sheet's 8 pieces per 2-player round)."""

from __future__ import annotations

from typing import Any

import pytest
from manhattan_support import build_pos, floors, owner, spec_legal_builds, tower

import citybuild as cb


def sizes_of(state: Any, city: str) -> set[int]:
    """Sizes of the legal builds in ``city`` (positions below offer one lot per city)."""
    return {m.size for m in state.legal_moves() if m.city == ("Syd", "Man", "Fra", "HK", "SP", "Cai").index(city)}


# --- takeover_compare="any_colour" (MAN-BUILD-4/6) -------------------------------------------
def test_any_colour_needs_to_reach_one_colour_only() -> None:
    # MAN-BUILD-4: Syd4 = [B1, C3] (B built 1, C took over with 3 >= 1). A (S) holds 4-cards.
    sizes = {}
    for compare in ("owner", "max_other", "any_colour"):
        state = build_pos(
            towers="Syd4:B1C3", hands="4444/0000/1111/2222", chosen="1234/1/1/1", takeover_compare=compare
        )
        sizes[compare] = sizes_of(state, "Syd")
        assert sizes_of(state, "Man") == {1, 2, 3, 4}  # an empty lot takes any size
        assert {(m.card, m.city, m.colour, m.size) for m in state.legal_moves()} == spec_legal_builds(state)
    # owner / max_other: A needs C's 3 floors; any_colour: B's 1 floor is "a colour already there".
    assert sizes == {"owner": {3, 4}, "max_other": {3, 4}, "any_colour": {1, 2, 3, 4}}


def test_any_colour_takeover_leaves_a_tower_whose_owner_is_not_the_tallest_colour() -> None:
    # MAN-BUILD-4/5/6: the only option that changes what is legal in play.
    state = build_pos(
        towers="Syd4:B1C3", hands="4444/0000/1111/2222", chosen="1234/1/1/1", takeover_compare="any_colour"
    )
    after = state.play("build 4 Syd A1")
    assert tower(after, "Syd", 4) == "B1C3A1" and owner(after, "Syd", 4) == "A"
    assert floors(after, "Syd", 4) == {"A": 1, "B": 1, "C": 3}
    after.validate()  # the invariant any_colour keeps: the owner has reached some other colour
    again = after.game.parse_state(after.notation())
    assert again == after
    # Such a tower is refused by the default rules, whose owner always has the most floors.
    build_pos(towers="Syd4:B1C3A1", takeover_compare="any_colour").validate()
    with pytest.raises(cb.InvalidStateError, match="owned by A with 1 floors but C has 3 there") as info:
        build_pos(towers="Syd4:B1C3A1")
    assert info.value.rule == "MAN-BUILD-6"


def test_any_colour_own_lower_floors_count() -> None:
    # MAN-BUILD-4 ("own lower floors count"): HK0 = [A1, B3, C4]; A has 1 there. Under any_colour
    # A reaches B's 3 with a 2; under owner A must reach C's 4 with a 3.
    for compare, legal in (("owner", {3, 4}), ("any_colour", {2, 3, 4})):
        state = build_pos(
            towers="HK0:A1B3C4", hands="0000/1111/2222/3333", chosen="1234/1/1/1", takeover_compare=compare
        )
        assert sizes_of(state, "HK") == legal


def test_any_colour_refusal_names_the_colour_to_reach() -> None:
    # MAN-BUILD-4: Syd4 = [B2, C3]; A plays a 1 but must reach B's 2 at least.
    state = build_pos(
        towers="Syd4:B2C3", hands="4444/0000/1111/2222", chosen="1234/1/1/1", takeover_compare="any_colour"
    )
    verdict = state.check("build 4 Syd A1")
    assert [(v.code, v.rule) for v in verdict.violations] == [("takeover-too-small", "MAN-BUILD-4")]
    assert verdict.violations[0].message == (
        "Syd4 is owned by C with 3 floors and the fewest floors of another colour there are B's 2; "
        "A would have 0 + 1 = 1, and needs a piece of at least 2"
    )
    assert state.check("build 4 Syd A2").ok
    # When the owner is the colour with the fewest floors, the message is the owner's.
    state = build_pos(towers="Syd4:B4C4", hands="4444/0000/1111/2222", chosen="1/1/1/1", takeover_compare="any_colour")
    assert state.check("build 4 Syd A1").violations[0].message == (
        "Syd4 is owned by C with 4 floors; A would have 0 + 1 = 1, and needs a piece of at least 4"
    )


def test_any_colour_with_merged_legality_compares_players() -> None:
    # MAN-BUILD-4 with MAN-BUILD-7: 2 players, P0 = A and C, P1 = B and D. Syd4 = [A1, B3].
    # per_colour: C has 0 and reaches A's 1 with a 1. merged: P0 has 1 and must reach P1's 3.
    per_colour = build_pos(
        towers="Syd4:A1B3", hands="4444/0000", chosen="-/1/1234/1", players=2, takeover_compare="any_colour"
    )
    assert sizes_of(per_colour, "Syd") == {1, 2, 3, 4}
    merged = build_pos(
        towers="Syd4:A1B3",
        hands="4444/0000",
        chosen="-/1/1234/1",
        players=2,
        takeover_compare="any_colour",
        two_colour_legality="merged",
    )
    assert sizes_of(merged, "Syd") == {2, 3, 4}
    assert merged.check("build 4 Syd C1").violations[0].message == (
        "Syd4 is owned by P1 with 3 floors; P0 would have 1 + 1 = 2, and needs a piece of at least 2"
    )


@pytest.mark.parametrize("merged", [False, True])
def test_any_colour_validate_refuses_towers_that_no_takeover_reaches(merged: bool) -> None:
    # MAN-BUILD-6: under any_colour the owner need not have the most floors, but it has reached at
    # least one other colour (or player): [C4, B1] (B 1 < C 4, nothing else there) stays refused.
    legality = {"two_colour_legality": "merged"} if merged else {}
    with pytest.raises(cb.InvalidStateError, match="every other one more") as info:
        build_pos(towers="Syd4:C4B1", takeover_compare="any_colour", **legality)
    assert info.value.rule == ("MAN-BUILD-7" if merged else "MAN-BUILD-6")
