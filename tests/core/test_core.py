"""The shared core on its own: verdicts, score sheets, chance, rules validation and the registry
(towers, boards, scoring hooks and multisets have their own test modules)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core import chance
from citybuild.core.rules import int_between, one_of, per_player_count
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.verdict import Verdict, Violation, refuse
from citybuild.games import manhattan


def test_verdict_is_legal_without_violations() -> None:
    legal = Verdict()
    assert legal.ok and bool(legal) and str(legal) == "legal"
    bad = refuse("card-not-in-hand", "MAN-BUILD-2", "P0 holds no 3-card")
    assert not bad.ok and not bad
    assert bad.codes == ("card-not-in-hand",) and bad.rules == ("MAN-BUILD-2",)
    assert str(bad) == "illegal: P0 holds no 3-card [MAN-BUILD-2]"
    assert Verdict((Violation("a", "X-Y-1", "m"),)) == Verdict((Violation("a", "X-Y-1", "m"),))


def test_illegal_move_error_quotes_move_index_and_reasons() -> None:
    verdict = refuse("takeover-too-small", "MAN-BUILD-4", "needs 3")
    error = cb.IllegalMoveError(verdict, "build 4 Syd A1", index=12)
    assert isinstance(error, ValueError) and error.verdict is verdict and error.index == 12
    assert "move 12" in str(error) and "build 4 Syd A1" in str(error) and "MAN-BUILD-4" in str(error)
    assert str(cb.NotationError("bad", "$.moves[3].card")) == "$.moves[3].card: bad"
    assert "(MAN-COMP-3)" in str(cb.InvalidStateError("44 cards", "MAN-COMP-3"))
    for kind in (cb.RulesError, cb.IllegalMoveError, cb.NotationError, cb.InvalidStateError):
        assert issubclass(kind, cb.CitybuildError) and issubclass(kind, ValueError)


def test_score_sheet_totals_categories_and_text() -> None:
    sheet = ScoreSheet(
        3,
        (
            ScoreItem(0, "tallest", 3, "Syd4", "MAN-SCORE-2"),
            ScoreItem(1, "towers", 2, "two towers", "MAN-SCORE-4"),
            ScoreItem(0, "towers", 1, "one tower", "MAN-SCORE-4"),
        ),
        winners=(0,),
    )
    assert sheet.totals == (4, 2, 0) and sheet.total(1) == 2
    assert sheet.by_category(0) == {"tallest": 3, "towers": 1}
    assert sheet.of(category="towers") == (sheet.items[1], sheet.items[2])
    text = str(sheet)
    assert "P0: tallest 3 + towers 1 = 4" in text and "P2: nothing = 0" in text and "winners: P0" in text


@given(st.lists(st.integers(0, 6), min_size=1, max_size=9).filter(any))
def test_from_counts_is_exact_and_sums_to_one(counts: list[int]) -> None:
    outcomes = chance.from_counts(counts)
    assert sum(p for _, p in outcomes) == 1
    for k, p in outcomes:
        assert p == Fraction(counts[k], sum(counts))


def test_from_counts_of_an_empty_pile_is_an_invalid_state() -> None:
    with pytest.raises(cb.InvalidStateError):
        chance.from_counts([0, 0, 0])


def test_multiset_roll_matches_the_multinomial_law() -> None:
    faces = {"PH": {"X": Fraction(1, 2), "B": Fraction(1, 3), "O": Fraction(1, 6)}}
    outcomes = dict(chance.multiset_roll({"PH": 3}, faces))
    assert sum(outcomes.values()) == 1
    assert len(outcomes) == 10  # multisets of size 3 over 3 faces
    assert outcomes[(("PH", "O"), ("PH", "X"), ("PH", "X"))] == Fraction(1, 8)


@settings(max_examples=30)
@given(st.integers(0, 2**64))
def test_sample_depends_only_on_the_seed(seed: int) -> None:
    outcomes = ((0, Fraction(1, 3)), (1, Fraction(1, 6)), (2, Fraction(1, 2)))
    first = [chance.sample(outcomes, random.Random(seed)) for _ in range(5)]
    random.seed(seed + 1)  # the global generator is never used
    assert first == [chance.sample(outcomes, random.Random(seed)) for _ in range(5)]


def test_sample_follows_the_probabilities() -> None:
    outcomes = (("a", Fraction(1, 3)), ("b", Fraction(1, 6)), ("c", Fraction(1, 2)))
    rng = random.Random(2026)
    draws = [chance.sample(outcomes, rng) for _ in range(30_000)]
    for name, p in outcomes:
        assert abs(draws.count(name) / len(draws) - float(p)) < 0.01


def test_sample_compares_exactly_at_the_boundary() -> None:
    class Fixed(random.Random):
        def random(self) -> float:
            return 0.5

    # u = 1/2 exactly is not below the first cumulative 1/2, so the second outcome is drawn
    assert chance.sample((("low", Fraction(1, 2)), ("high", Fraction(1, 2))), Fixed()) == "high"


def test_rules_validators_name_the_field() -> None:
    @attrs.frozen
    class Demo:
        mode: str = attrs.field(default="a", validator=one_of("a", "b"))
        count: int = attrs.field(default=1, validator=int_between(0, 3))
        per: dict[int, int] = attrs.field(factory=lambda: {2: 1}, validator=per_player_count((2,), 1, 2))

    with pytest.raises(cb.RulesError, match="mode='c'"):
        Demo(mode="c")
    with pytest.raises(cb.RulesError, match="count=True"):
        Demo(count=True)  # type: ignore[arg-type]
    with pytest.raises(cb.RulesError, match="per="):
        Demo(per={2: 5})


def test_registry_lists_loads_and_refuses() -> None:
    assert "manhattan" in cb.games()
    assert callable(cb.games)  # the citybuild.games subpackage must not shadow the function
    assert cb.presets("manhattan") == ("standard", "four-rounds", "all-pieces")
    game = cb.load("manhattan")
    assert (game.name, game.preset, game.players) == ("manhattan", "standard", 4)
    with pytest.raises(cb.RulesError, match="unknown game 'monopoly'"):
        cb.load("monopoly")
    with pytest.raises(cb.RulesError, match="unknown preset 'fast'"):
        cb.load("manhattan", preset="fast")
    with pytest.raises(cb.RulesError, match="takes 2 to 4 players, not 5"):
        cb.load("manhattan", players=5)
    with pytest.raises(cb.RulesError, match="unknown option 'speed'"):
        cb.load("manhattan", speed=2)


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda: cb.load(["manhattan"]), "a game name must be a string, not ['manhattan']"),  # type: ignore[arg-type]
        (lambda: cb.load({"name": 1}), "a game name must be a string, not {'name': 1}"),  # type: ignore[arg-type]
        (lambda: cb.presets(None), "a game name must be a string, not None"),  # type: ignore[arg-type]
        (lambda: cb.load("manhattan", preset=["standard"]), "a preset name must be a string, not ['standard']"),  # type: ignore[arg-type]
        (lambda: cb.load("manhattan", preset={}), "a preset name must be a string, not {}"),  # type: ignore[arg-type]
    ],
)
def test_registry_refuses_unhashable_names_and_presets(call: Any, says: str) -> None:
    with pytest.raises(cb.RulesError) as err:
        call()
    assert says in str(err.value)


@attrs.frozen
class DemoCopy(manhattan.ManhattanGame):
    name: ClassVar[str] = "demo-copy"


def test_register_and_unregister_a_plugin_at_run_time() -> None:
    spec = cb.GameSpec(
        game=DemoCopy,
        title="Manhattan under another name",
        presets={"standard": cb.load("manhattan").rules},
        min_players=2,
        max_players=4,
        default_players=2,
        state=manhattan.ManhattanState,
        view=manhattan.ManhattanView,
    )
    cb.register(spec)
    try:
        assert "demo-copy" in cb.games()
        assert cb.load("demo-copy").players == 2
    finally:
        cb.unregister("demo-copy")
    assert "demo-copy" not in cb.games()


@settings(max_examples=50)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=9).filter(any), st.integers(0, 2**32))
def test_sample_counts_agrees_with_sample_over_from_counts(counts: list[int], seed: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert chance.sample_counts(counts, a) == chance.sample(chance.from_counts(counts), b)


def test_games_is_both_the_function_and_the_subpackage() -> None:
    import importlib

    module = importlib.import_module("citybuild.games.manhattan")
    import citybuild.games.manhattan as by_import_as  # the form that a plain function would break

    assert by_import_as is module
    assert cb.games() == tuple(sorted(cb.games())) and "manhattan" in cb.games()


def test_no_player_has_legal_moves_at_a_chance_state() -> None:
    state = cb.load("manhattan", players=2).initial_state()
    assert state.is_chance and len(state.legal_moves()) == 9
    assert state.legal_moves(0) == () and state.legal_moves(1) == ()
    assert not state.check(state.legal_moves()[0], player=0).ok


def test_a_refused_chance_outcome_lists_the_outcomes_briefly() -> None:
    from citybuild.games.manhattan import Build

    verdict = cb.load("manhattan", players=2).initial_state().check(Build(0, 0, 0, 1))
    assert verdict.codes == ("not-an-outcome",)
    assert "draw 0" in str(verdict) and len(str(verdict)) < 300


def test_rules_are_immutable_and_states_hashable() -> None:
    # DESIGN principle 3: rules are frozen values; a preset cannot be changed through a game
    for name in cb.games():
        game = cb.load(name)
        for field, value in game.rules.options().items():
            if isinstance(value, dict):
                with pytest.raises(TypeError):
                    value[next(iter(value))] = 0
                with pytest.raises(TypeError):
                    value.clear()
                assert getattr(cb.load(name).rules, field) == value
        state = game.initial_state()
        assert hash(state) == hash(cb.load(name).initial_state())
        assert len({state, cb.load(name).initial_state()}) == 1


def test_the_plugin_module_is_all_a_game_author_imports() -> None:
    """``citybuild.plugin`` re-exports every name it lists, and the toy plugin game imports
    nothing else from citybuild (no deep paths)."""
    import ast
    import pathlib

    import citybuild.plugin as plugin

    assert all(hasattr(plugin, name) for name in plugin.__all__)
    for name in ("Game", "State", "GameSpec", "Verdict", "Violation", "ScoreItem", "ScoreSheet", "RulesBase"):
        assert name in plugin.__all__
    toy = pathlib.Path(__file__).parent.parent / "plugin_game.py"
    assert len(toy.read_text(encoding="utf-8").splitlines()) <= 150  # the whole game, each thing written once
    for source in (toy,):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("citybuild"):
                assert node.module == "citybuild.plugin", f"{source.name} imports from {node.module}"
            if isinstance(node, ast.Import):
                assert not any(alias.name.startswith("citybuild") for alias in node.names), source.name


def test_check_and_play_read_text_and_refuse_what_they_cannot_read() -> None:
    state = cb.Match("manhattan", seed=1).state  # P0 selects: the one player to act
    assert state.check(str(state.legal_moves()[0])).ok  # notation text is read, player omitted
    assert not state.check("build 4 Syd A1").ok  # readable but illegal: a verdict
    for call in (state.check, state.play):
        with pytest.raises(cb.NotationError, match="unknown move 'gibberish'"):
            call("gibberish")


def test_check_needs_the_player_when_several_act_at_once() -> None:  # URB-ROUND-2: secret selections
    match = cb.Match(cb.load("urbanization", players=3), seed=1)
    while len(match.state.to_act) < 2:
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    state = match.state
    move = state.legal_moves(state.to_act[0])[0]
    assert state.check(move, state.to_act[0]).ok
    assert [v.code for v in state.check(move).violations] == ["player-required"]
