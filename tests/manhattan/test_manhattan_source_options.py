"""Two rule options that the source texts allow and no preset uses (rules/manhattan.md §9):
``takeover_compare="any_colour"`` (MAN-BUILD-4, the German description read literally) and
``two_colour_split="free"`` (MAN-ROUND-1, the French sheet's 8 pieces per 2-player round)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from manhattan_support import build_pos, floors, game, owner, play_game, pos, spec_legal_builds, tower

import citybuild as cb
from citybuild.games.manhattan import Select


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


# --- two_colour_split="free" (MAN-ROUND-1) -------------------------------------------------------
SELECT_2P = "manhattan/2 round=1 phase=select turn=0 hands=0123/4567"


def spec_free_selections(first: tuple[int, ...], second: tuple[int, ...], per_round: int) -> set[Select]:
    """MAN-ROUND-1 with "free": every pair of multisets, each within its colour's supply, with
    2 x per_round pieces in all (or every piece left)."""
    wanted = min(2 * per_round, sum(first) + sum(second))

    def counts(supply: tuple[int, ...]) -> list[tuple[int, ...]]:
        return list(itertools.product(*(range(n + 1) for n in supply)))

    def sizes(c: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s for s, n in zip((1, 2, 3, 4), c, strict=True) for _ in range(n))

    return {
        Select(((0, sizes(a)), (2, sizes(b))))
        for a in counts(first)
        for b in counts(second)
        if sum(a) + sum(b) == wanted
    }


def test_free_split_offers_every_split_of_eight_pieces() -> None:
    # MAN-ROUND-1: the French sheet's "8 pieces" per 2-player round, split any way between A and C.
    free = pos(SELECT_2P, two_colour_split="free")
    per_colour = pos(SELECT_2P)
    legal = free.legal_moves()
    assert len(set(legal)) == len(legal) == len(spec_free_selections((11, 6, 4, 3), (11, 6, 4, 3), 4))
    assert set(legal) == spec_free_selections((11, 6, 4, 3), (11, 6, 4, 3), 4)
    assert set(per_colour.legal_moves()) < set(legal)  # 4 + 4 is one of the splits
    for text in ("select A11112222 C-", "select A- C13333444", "select A1 C1111111", "select A1234 C1234"):
        assert free.check(text).ok, text
    assert not per_colour.check("select A11112222 C-").ok


def test_free_split_counts_the_pieces_of_both_colours() -> None:
    # MAN-ROUND-1: 8 in all, not 4 of each; a colour's sizes must still be in its own supply.
    free = pos(SELECT_2P, two_colour_split="free")
    verdict = free.check("select A1111 C111")
    assert [(v.code, v.rule) for v in verdict.violations] == [("wrong-count", "MAN-ROUND-1")]
    assert verdict.violations[0].message == "A and C must select exactly 8 pieces in all, split any way, not 7"
    verdict = free.check("select A44443 C111")
    assert [(v.code, v.rule) for v in verdict.violations] == [("not-in-supply", "MAN-ROUND-1")]
    assert verdict.violations[0].message == "A selects 4 pieces of size 4 but has 3 in supply"
    assert [v.message for v in pos(SELECT_2P).check("select A1111 C111").violations] == [
        "C must select exactly 4 pieces, not 3"
    ]
    assert not free.check("select A11112222").ok  # both colours are named, '-' for none


def test_free_split_builds_from_the_chosen_split() -> None:
    # MAN-ROUND-1/2/3: the split decides which colour builds; turns still alternate, 8 each.
    state = pos(SELECT_2P, two_colour_split="free").play("select A11112222 C-")
    assert state.chosen[0] == (4, 4, 0, 0) and state.chosen[2] == (0, 0, 0, 0)
    assert state.supply[0] == (7, 2, 4, 3) and state.supply[2] == (11, 6, 4, 3)
    assert state.game.parse_state(state.notation()) == state
    state = state.play("select B1 D1111111")
    assert state.phase == "build" and state.unplaced(0) == state.unplaced(1) == 8
    assert not any(m.colour == 2 for m in state.legal_moves())  # C selected nothing this round


def test_free_split_with_a_short_supply() -> None:
    # MAN-ROUND-1: each colour gives at most what its supply holds; with fewer than 8 pieces left
    # in all, the player selects all of them. A keeps 2 pieces (the rest is in the box).
    short_a = f"{SELECT_2P} box=9.6.4.3/0.0.0.0/0.0.0.0/0.0.0.0"
    free = pos(short_a, two_colour_split="free")
    assert free.supply[0] == (2, 0, 0, 0)
    assert set(free.legal_moves()) == spec_free_selections((2, 0, 0, 0), (11, 6, 4, 3), 4)
    assert {len(m.sizes(0) or ()) for m in free.legal_moves()} == {0, 1, 2}
    # Both colours short: 3 + 2 pieces left, so the only selection is all five, in both modes.
    both = f"{SELECT_2P} box=10.5.3.3/0.0.0.0/11.4.4.3/0.0.0.0"
    for split in ("per_colour", "free"):
        state = pos(both, two_colour_split=split)
        assert [str(m) for m in state.legal_moves()] == ["select A123 C22"]
    assert pos(both, two_colour_split="free").check("select A12 C22").violations[0].message == (
        "A and C must select exactly 5 pieces in all, split any way, not 4"
    )


def test_free_split_random_selection_is_every_legal_selection_once() -> None:
    # random_move finds selections[int(rng.random() * count)] without listing them: walking the
    # unit interval in steps of 1/count meets every legal selection once, in the legal order.
    class Stepper(random.Random):
        def __init__(self, count: int) -> None:
            super().__init__(0)
            self.count, self.i = count, 0

        def random(self) -> float:
            self.i += 1
            return (self.i - 0.5) / self.count

    for text in (SELECT_2P, f"{SELECT_2P} box=8.4.3.1/0.0.0.0/9.5.3.3/0.0.0.0"):
        state = pos(text, two_colour_split="free")
        legal = state.legal_moves()
        rng = Stepper(len(legal))
        assert [state.random_move(rng) for _ in legal] == list(legal)


def test_free_split_random_selection_is_uniform() -> None:
    state = pos(f"{SELECT_2P} box=8.4.3.1/0.0.0.0/9.5.3.3/0.0.0.0", two_colour_split="free")
    legal = state.legal_moves()
    rng = random.Random(5)
    draws = 40 * len(legal)
    counts = dict.fromkeys(legal, 0)
    for _ in range(draws):
        counts[state.random_move(rng)] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    df = len(legal) - 1  # chi-square: mean df, sd sqrt(2 df); 5 sd is far in the tail
    assert chi2 < df + 5 * (2 * df) ** 0.5, chi2


@pytest.mark.parametrize(("players", "preset"), [(2, "all-pieces"), (3, "standard"), (4, "standard")])
def test_free_split_changes_nothing_for_one_colour(players: int, preset: str) -> None:
    # MAN-ROUND-1: the option is about two-colour players; one-colour games are the same game.
    free, base = game(players, preset, two_colour_split="free"), game(players, preset)
    assert play_game(free, seed=4).final.notation() == play_game(base, seed=4).final.notation()
    fast = free.initial_state().playout(random.Random(8))[0]
    assert fast.notation() == base.initial_state().playout(random.Random(8))[0].notation()


def test_free_split_until_supply_empty_places_every_piece() -> None:
    # MAN-ROUND-6: two colours, 8 pieces per round in any split: after 48 / 8 = 6 rounds every
    # supply is empty and the game ends.
    g = game(2, "all-pieces", colours_per_player={2: 2, 3: 1, 4: 1}, two_colour_split="free")
    log = play_game(g, seed=2)
    assert log.rounds == 6 and not any(any(s) for s in log.final.supply)
    assert all(len(log.turns_in(r)) == 16 for r in range(1, 7))


def test_free_split_hidden_selection_hides_the_split() -> None:
    # MAN-ROUND-1 with selection="simultaneous_hidden": the other player sees neither colour's pick.
    text = SELECT_2P
    one = pos(text, two_colour_split="free", selection="simultaneous_hidden").play("select A11112222 C-", 0)
    two = pos(text, two_colour_split="free", selection="simultaneous_hidden").play("select A1234 C1234", 0)
    assert one.view(1) == two.view(1) and one.view(1).chosen[0] == one.view(1).chosen[2] == "?"
    assert one.view(0) != two.view(0)
