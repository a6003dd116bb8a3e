"""Fuzzing of move objects: moves built by hand with fields of any type, from any player, at every
kind of state (openings, chance states, decisions, the end). ``check`` always answers with a
verdict, ``play`` refuses with ``IllegalMoveError`` (or plays a move that ``check`` accepts), and
nothing changes the state."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from fuzz_support import CONFIGS, config_id, corpus, fuzz_settings, game_of
from hypothesis import given
from hypothesis import strategies as st

from citybuild.core.errors import IllegalMoveError, RulesError
from citybuild.core.game import State

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.integers(-3, 12),
    st.floats(allow_nan=True),
    st.just(1.0),
    st.text(max_size=6),
    st.sampled_from(["Syd", "GF", "P", "GFO", ("GF", "O"), ["GF", "O"], ("UF",), ("XX", "Q")]),
    st.tuples(st.integers(-1, 5), st.integers(-1, 5)),
    st.lists(st.integers(0, 5), max_size=4),
    st.tuples(
        st.tuples(st.integers(-1, 4), st.tuples(st.integers(0, 5))),
    ),
    st.just(object()),
    st.just(()),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
PLAYERS = st.one_of(st.none(), st.integers(-2, 6), st.booleans(), st.just(0.0), st.just("0"), st.just(1.0))


def hand_made(move_type: type, values: list[Any]) -> Any:
    """An instance of ``move_type`` with the given field values, bypassing converters (as a user
    can with ``object.__new__`` or a subclass): the fields hold exactly what they were given."""
    fields = attrs.fields(move_type)
    move = object.__new__(move_type)
    for field, value in zip(fields, values, strict=False):
        object.__setattr__(move, field.name, value)
    return move


@st.composite
def odd_moves(draw: st.DrawFn, state: State) -> Any:
    kind = draw(st.sampled_from(state.game.move_types))
    values = [draw(ODD_VALUES) for _ in attrs.fields(kind)]
    if draw(st.booleans()):
        try:  # through the class's own converters, as a careless caller would
            return kind(*values)
        except Exception:
            pass
    return hand_made(kind, values)


def assert_refused_or_agreed(state: State, move: Any, player: Any) -> None:
    before = (state.notation(), state)
    try:
        verdict = state.check(move, player)
    except RulesError:
        raise AssertionError(f"check({move!r}, {player!r}) raised instead of answering") from None
    assert all(v.code and v.rule and v.message for v in verdict.violations)
    try:
        after = state.play(move, player)
    except IllegalMoveError as refused:
        assert not verdict.ok and refused.verdict == verdict
    else:
        assert verdict.ok, f"play accepted {move!r} for {player!r}, which check refuses: {verdict}"
        assert isinstance(after, State)
    assert (state.notation(), state) == before


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@fuzz_settings(60)
@given(data=st.data())
def test_moves_with_fields_of_any_type_are_refused_with_a_verdict(config: tuple[str, str, int], data: Any) -> None:
    states, _ = corpus(config)
    state = data.draw(st.sampled_from(states))
    move = data.draw(odd_moves(state))
    player = data.draw(PLAYERS)
    assert_refused_or_agreed(state, move, player)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@fuzz_settings(30)
@given(data=st.data())
def test_real_moves_from_any_player_at_any_state(config: tuple[str, str, int], data: Any) -> None:
    """Legal moves of one position tried at another, by any player, or with no player named."""
    states, texts = corpus(config)
    state = data.draw(st.sampled_from(states))
    move = game_of(config).parse_move(data.draw(st.sampled_from(texts)))
    assert_refused_or_agreed(state, move, data.draw(PLAYERS))


@pytest.mark.parametrize("value", [None, 1.5, "Syd", ("GF", "O"), ["GF", "O"], 10**30, -1, True])
def test_known_holes_stay_closed(value: Any) -> None:
    """The issue's examples: wrong-typed fields are a verdict naming the field, never a TypeError."""
    from citybuild.games.manhattan import Build as ManhattanBuild
    from citybuild.games.skyline import Build as SkylineBuild
    from citybuild.games.skyline import TakeYard

    manhattan = game_of(("manhattan", "standard", 4)).initial_state()
    skyline = game_of(("skyline", "standard", 2)).initial_state()
    for state, move in (
        (manhattan, hand_made(ManhattanBuild, [1, value, 0, 1])),
        (manhattan, hand_made(ManhattanBuild, [value, 0, 0, 1])),
        (skyline, hand_made(SkylineBuild, [(["GF"], "P"), value])),
        (skyline, hand_made(TakeYard, [(1, 2, 3)])),
        (skyline.play("take district"), hand_made(TakeYard, [(value,)])),
    ):
        assert_refused_or_agreed(state, move, None)
