"""A position declared once with each field's visibility: the view class, ``view_of``, the baseline
hidden variants, the deal of ``determinize`` and the view check all follow from the declaration."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core import position
from citybuild.core.errors import InvalidStateError
from citybuild.core.position import COUNTS, SORTED, Hidden, Owned, PositionView, Public, deal, hidden, owned


@attrs.define(slots=False)
class CardPosition:
    game: Any
    round: int
    hands: tuple[tuple[int, ...], ...] = attrs.field(metadata=owned(items=SORTED, size="hand_sizes", pool="deck"))
    deck: tuple[int, ...] = attrs.field(metadata=hidden(items=SORTED, size="deck_size"))
    box: tuple[int, ...] = attrs.field(metadata=hidden())


class CardView(PositionView, position=CardPosition):
    """A toy view: its fields come from ``CardPosition``."""


@attrs.frozen
class FakeState:
    """Just what ``view_of`` reads of a state."""

    round: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    box: tuple[int, ...]
    to_act: tuple[int, ...] = (0,)
    game: Any = None

    def require_player(self, player: int) -> int:
        return player


def test_a_view_class_gets_one_field_per_visible_fact_in_declaration_order() -> None:
    names = [field.name for field in attrs.fields(CardView)]
    assert names == ["player", "round", "hands", "hand_sizes", "deck_size", "to_act", "game"]


def test_view_of_shows_own_entries_sizes_and_nothing_hidden() -> None:
    state = FakeState(round=3, hands=((1, 4), (2,), (5, 6, 7)), deck=(8, 9), box=(10,))
    view = position.view_of(state, 1, CardView)  # type: ignore[arg-type]
    assert view == CardView(player=1, round=3, hands=(None, (2,), None), hand_sizes=(2, 1, 3), deck_size=2, to_act=(0,))
    assert not hasattr(view, "deck") and not hasattr(view, "box")


def test_every_game_declares_each_field_once_and_its_view_holds_exactly_the_public_ones() -> None:
    for name in cb.games():
        state = cb.load(name).initial_state()
        declared = position.declared(type(state.view(0)).position)
        fields = {f.name for f in attrs.fields(type(state.view(0)))}
        for field, seen in declared:
            if isinstance(seen, Public):
                assert field.name in fields, (name, field.name)
            elif isinstance(seen, Hidden):
                assert field.name not in fields, (name, field.name)
            elif isinstance(seen, Owned):
                assert field.name in fields and (seen.size is None or seen.size in fields), (name, field.name)
        assert position.has_secrets(type(state.view(0)).position) == (name != "skyline")


def played(game: str, seed: int, steps: int) -> Any:
    """A 3-player position of ``game`` after up to ``steps`` random steps from ``seed``."""
    rng = random.Random(seed)
    state = cb.load(game, players=3).initial_state()
    for _ in range(steps):
        if state.is_over:
            break
        state = state.random_step(rng)
    return state


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(cb.games()), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_the_baseline_variants_change_only_what_a_player_cannot_see(game: str, seed: int, steps: int) -> None:
    state = played(game, seed, steps)
    view_class = type(state.view(0))
    for player in range(3):
        variants = position.hidden_variants(state, player, view_class.position)
        for variant in variants:
            assert variant != state
            assert variant.view(player) == state.view(player)


@given(
    unseen=st.lists(st.integers(0, 8), max_size=20),
    cut=st.lists(st.integers(0, 5), max_size=4),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_deal_of_sorted_items_keeps_every_item_and_gives_each_entry_its_size(
    unseen: list[int], cut: list[int], seed: int
) -> None:
    assume(sum(cut) <= len(unseen))
    sizes = cut
    entries, rest = deal(unseen, sizes, SORTED, random.Random(seed))
    assert [len(e) for e in entries] == sizes
    assert all(list(e) == sorted(e) for e in entries) and list(rest) == sorted(rest)
    assert Counter(x for e in (*entries, rest) for x in e) == Counter(unseen)


@given(counts=st.lists(st.integers(0, 4), min_size=3, max_size=9), seed=st.integers(0, 2**32 - 1))
def test_a_deal_of_counts_conserves_every_kind(counts: list[int], seed: int) -> None:
    total = sum(counts)
    sizes = [total // 3, total // 4]
    entries, rest = deal(counts, sizes, COUNTS, random.Random(seed))
    assert [sum(e) for e in entries] == sizes
    assert [sum(column) for column in zip(*entries, rest, strict=True)] == counts


@given(counts=st.lists(st.integers(-1, 4), min_size=1, max_size=9), sizes=st.lists(st.integers(0, 6), max_size=4))
def test_the_first_deal_is_the_deal_every_draw_of_zero_gives(counts: list[int], sizes: list[int]) -> None:
    """A view is checked against the position ``FIRST_DRAWS`` deals; its shortcut deals what the
    card-by-card draws of a generator that always says 0.0 deal (a fresh one takes the long way)."""

    def dealt(rng: random.Random) -> Any:
        try:
            return deal(counts, sizes, COUNTS, rng)
        except InvalidStateError:
            return "refused"

    drawn = dealt(position.FirstDraws(0))
    assume(drawn == "refused" or min(counts) >= 0)  # a negative count is no pile: both refuse it later
    assert dealt(position.FIRST_DRAWS) == drawn


def test_a_deal_is_uniform() -> None:
    """Three distinct cards, one dealt: each card comes out about a third of the time."""
    seen = Counter(deal([1, 2, 3], [1], SORTED, random.Random(seed))[0][0] for seed in range(3000))
    assert set(seen) == {(1,), (2,), (3,)}
    assert all(900 < n < 1100 for n in seen.values())


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(cb.games()),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 150),
    player=st.integers(0, 2),
)
def test_a_position_gives_exactly_its_views(game: str, seed: int, steps: int, player: int) -> None:
    """``gives`` (the view check's comparison, with no view built) agrees with building the view
    and comparing it, for the honest view and for a view with one field changed."""
    state = played(game, seed, steps)
    view = state.view(player)
    assert position.gives(state, view)
    for name in [f.name for f in attrs.fields(type(view)) if f.name not in ("player", "game")]:
        for value in (None, (), 0, "?", (0, 1)):
            changed = attrs.evolve(view, **{name: value})
            assert position.gives(state, changed) == (state.view(player) == changed), name


@pytest.mark.parametrize("name", ["manhattan", "urbanization"])
def test_a_view_that_shows_another_players_hand_is_refused(name: str) -> None:
    state = cb.load(name, players=3).initial_state()
    rng = random.Random(4)
    while state.is_chance or state.phase in ("layout", "deal"):
        state = state.random_step(rng)
    view = state.view(0)
    peeking = attrs.evolve(view, hands=tuple(state.hands))
    with pytest.raises(InvalidStateError):
        peeking.validate()
    view.validate()  # the honest view passes
