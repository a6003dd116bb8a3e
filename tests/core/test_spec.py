"""A loaded game carries its GameSpec (DESIGN principle 8): the core reads hooks there, never by
name, so a game keeps working once its spec is unregistered, and equal games from different
specs keep their own hooks."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import citybuild as cb
from citybuild.core.actions import Decisions, MoveBuilder, decisions
from citybuild.core.engine import Engine
from citybuild.core.svg import picture
from plugin_game import SPEC as RACE
from plugin_game import Die, RaceGame, Roll, Rules, Step


class RaceNumbering(Decisions):
    names = ("step 1", "step 2", "step 3", "roll")
    chance_names = tuple(f"die {f}" for f in range(1, 7))

    def steps(self, engine: Engine, player: int, move: Any) -> tuple[int, ...]:
        return (3,) if isinstance(move, Roll) else (move.squares - 1,)

    def outcome_steps(self, engine: Engine, outcome: Any) -> tuple[int, ...]:
        return (outcome.face - 1,)


def _drawn(position: Any, options: Any) -> str:
    return f"<svg><title>{position.notation()}</title></svg>"


def test_a_game_keeps_working_after_its_spec_is_unregistered() -> None:
    cb.register(attrs.evolve(RACE, decisions=RaceNumbering, render=_drawn))
    try:
        game = cb.load("race", players=2)
    finally:
        cb.unregister("race")
    assert "race" not in cb.games()
    state = game.initial_state()
    assert state.check(Step(1)).ok and not state.check(Step(3)).ok  # it checks
    state = state.play(Roll())  # it plays
    assert state.is_chance and state.play(Die(4)).pawns == (4, 0)
    state = state.play(Die(2)).play(Step(2))
    view = state.view(1)  # it views and determinizes
    assert view.legal_moves() == state.legal_moves(1)
    assert game.determinize(view, random.Random(1)) == state
    assert picture(state) == state._repr_svg_() == f"<svg><title>{state.notation()}</title></svg>"  # it pictures
    assert picture(view) == f"<svg><title>{view.notation()}</title></svg>"
    builder = MoveBuilder.start(state).choose(3)  # it numbers actions
    assert builder.done and builder.move == Roll() and decisions(game).names[3] == "roll"
    assert cb.Match(game, seed=1).play("step 1").pawns == (1, 0)
    for written in (state, view, game):  # written by name: reading them back needs the game registered
        assert '"name": "race"' in cb.to_json(written)


def test_equal_games_from_different_specs_keep_their_own_hooks() -> None:
    numbered = attrs.evolve(RACE, decisions=RaceNumbering).load()
    plain = RACE.load()
    assert numbered == plain and numbered.spec is not plain.spec
    assert decisions(numbered).names[3] == "roll"
    with pytest.raises(cb.RulesError, match="declares no decisions hook"):
        decisions(plain)


def test_a_spec_reads_name_moves_and_outcomes_from_its_game_class_and_defaults_players() -> None:
    assert (RACE.name, RACE.moves, RACE.outcomes) == ("race", (Step, Roll), (Die,))
    assert RaceGame.move_types == (Step, Roll, Die)
    assert RACE.load(3).spec is RACE
    assert RACE.default_players == RACE.min_players == 2 and RACE.load().players == 2  # the fewest, undeclared
    assert attrs.evolve(RACE, default_players=3).load().players == 3


def test_a_game_built_without_its_spec_says_how_to_build_one() -> None:
    game = RaceGame("standard", Rules(), 2)
    assert game == RACE.load() and game.initial_state().legal_moves() == (Step(1), Step(2), Roll())
    with pytest.raises(cb.RulesError, match="built without its GameSpec"):
        _ = game.spec


def test_documents_are_read_under_the_spec_registered_now() -> None:
    """JSON names its game, so reading finds the spec registered under that name at the time,
    never one remembered from an earlier registration."""
    text = cb.to_json(RACE.load().initial_state())
    for spec in (RACE, attrs.evolve(RACE, decisions=RaceNumbering)):
        cb.register(spec)
        try:
            assert cb.from_json(text).game.spec is spec
        finally:
            cb.unregister("race")


def test_a_game_that_writes_no_refusals_cites_its_turn_rule() -> None:
    """``State._violations`` defaults to the engine's verdict, so a plugin may leave it out."""
    state = RACE.load().initial_state()
    (violation,) = state.check(Step(3)).violations
    assert (violation.code, violation.rule) == ("not-legal-now", "RACE-TURN")
    assert violation.message == "step 3 is not a legal move now"
    with pytest.raises(cb.IllegalMoveError) as refused:
        state.play(Step(3))
    assert refused.value.verdict.violations == (violation,)
