"""The bots: they play every game and preset, decide from views only (so they cannot cheat),
are reproducible from their generator, and are loaded by name or text."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.bots import GreedyBot, IsmctsBot, RandomBot, from_text, play_game
from citybuild.bots.ismcts import Node
from citybuild.testing.strategies import states

FAST_ISMCTS = "ismcts:12:rollout_depth=2"
BOTS = ("random", "greedy", FAST_ISMCTS)

CONFIGS = [
    *(("manhattan", preset, n, {}) for preset in cb.presets("manhattan") for n in (2, 3, 4)),
    ("manhattan", "standard", 3, {"selection": "simultaneous_hidden"}),
    ("manhattan", "standard", 2, {"selection": "simultaneous_hidden", "two_colour_split": "free"}),
    ("manhattan", "standard", 4, {"no_legal_move": "pass_keep_piece"}),
    *(("skyline", preset, n, {}) for preset in cb.presets("skyline") for n in (2, 3, 4)),
    *(("urbanization", "standard", n, {}) for n in (2, 3, 5)),
    ("urbanization", "standard", 3, {"character_mode": "random", "end_timing": "immediate"}),
]


@pytest.mark.parametrize(("name", "preset", "players", "options"), CONFIGS)
def test_every_bot_plays_every_game_and_preset_to_the_end(
    name: str, preset: str, players: int, options: dict[str, Any]
) -> None:
    game = cb.load(name, players=players, preset=preset, **options)
    if name == "manhattan":  # one round keeps the test quick; the bots see no difference
        game = cb.load(name, players=players, preset=preset, rounds={2: 1, 3: 1, 4: 1}, **options)
    seats = [BOTS[seat % len(BOTS)] for seat in range(players)]
    match = play_game(game, seats, seed=players)
    assert match.state.is_over
    assert cb.replay(match.record()).state == match.state


@st.composite
def decisions(draw: st.DrawFn) -> tuple[cb.State, int]:
    """A position of a game with hidden information where someone is to act, and that player."""
    name, options = draw(
        st.sampled_from([("manhattan", {}), ("manhattan", {"selection": "simultaneous_hidden"}), ("urbanization", {})])
    )
    game = cb.load(name, players=draw(st.integers(2, 4)), **options)
    state = draw(states(game, max_steps=250))
    while state.is_chance:  # a decision: resolve pending draws with the position's own sampler
        state = state.random_step(random.Random(0))
    player = draw(st.sampled_from(state.to_act)) if state.to_act else 0
    return state, player


@settings(max_examples=25, deadline=None)
@given(decisions(), st.integers(0, 2**32 - 1), st.sampled_from(BOTS))
def test_two_positions_with_the_same_view_get_the_same_choice(
    decision: tuple[cb.State, int], seed: int, bot_text: str
) -> None:
    """No cheating: a position with other hidden cards and choices but the same view gets the
    same move for the same seed."""
    state, player = decision
    assume(not state.is_over)
    view = state.view(player)
    other = state.game.determinize(view, random.Random(seed + 1))
    assert other.view(player) == view
    bot = from_text(bot_text)
    first = bot.choose(view, random.Random(seed))
    assert bot.choose(other.view(player), random.Random(seed)) == first
    assert first in state.legal_moves(player) and first in other.legal_moves(player)


def test_bots_refuse_a_state() -> None:
    state = cb.Match(cb.load("skyline"), seed=1).state
    for bot in (RandomBot(), GreedyBot(), IsmctsBot(iterations=5)):
        with pytest.raises(cb.RulesError, match="never from a state"):
            bot.choose(state, random.Random(0))
        with pytest.raises(cb.RulesError, match=r"random\.Random"):
            bot.choose(state.view(0), 7)  # type: ignore[arg-type]
    with pytest.raises(cb.RulesError, match="no move to choose"):
        RandomBot().choose(state.view(1), random.Random(0))


def test_loading_bots_by_name_and_text() -> None:
    assert set(cb.bots.names()) >= {"random", "greedy", "ismcts"}
    assert cb.bots.load("ismcts", iterations=200) == IsmctsBot(iterations=200)
    assert from_text("ismcts:1000") == IsmctsBot(iterations=1000)
    assert from_text("ismcts:iterations=50:rollout_depth=none:exploration=0.5") == IsmctsBot(
        iterations=50, rollout_depth=None, exploration=0.5
    )
    assert from_text("ismcts:time=0.5").label == "ismcts:1000"
    assert from_text("ismcts:iterations=none:time=0.5").label == "ismcts:time=0.5"
    assert from_text("greedy") == GreedyBot() and from_text("random").label == "random"
    for bad, message in [
        ("minimax", "unknown bot"),
        ("greedy:3", "takes no bare value"),
        ("ismcts:lots", "not a number"),
        ("ismcts:0", "integer of at least 1"),
        ("ismcts:exploration=-1", "number of 0 or more"),
        ("ismcts:time=" + "9" * 400, "positive number"),  # an int no float holds: was an OverflowError
        ("ismcts:exploration=" + "1" * 400, "number of 0 or more"),
        ("ismcts:temperature=1e999", "positive number"),
        ("ismcts:temperature=0", "positive number"),
        ("ismcts:iterations=none", "iterations or time"),
        ("ismcts:depth=3", "unexpected keyword"),
        ("", "expected a bot"),
    ]:
        with pytest.raises(cb.RulesError, match=message):
            from_text(bad)


def test_ismcts_decides_simultaneous_secret_choices() -> None:
    game = cb.load("manhattan", players=3, selection="simultaneous_hidden")
    state = cb.Match(game, seed=3).state
    assert len(state.to_act) == 3
    bot = IsmctsBot(iterations=40, rollout_depth=2)
    for player in state.to_act:
        move = bot.choose(state.view(player), random.Random(player))
        assert move in state.legal_moves(player)
    root = bot.search(state.view(1), random.Random(0))
    assert root.joint and {key[0] for key in root.stats} == {0, 1, 2}
    assert all(stat.real <= stat.visits for stat in root.stats.values())


def test_ismcts_counts_the_others_simultaneous_choices_as_chance_when_told() -> None:
    """By default (``others_as_chance``) the node after a joint decision is keyed by the searcher's
    own choice alone (the others' choices are not observed: they vary like chance); without it,
    by the whole joint choice, so the tree splits on every combination."""
    state = cb.Match(cb.load("manhattan", players=3, selection="simultaneous_hidden"), seed=3).state
    view = state.view(1)
    mine = {move for move in state.legal_moves(1)}
    split = IsmctsBot(iterations=200, others_as_chance=False).search(view, random.Random(0))
    chance = IsmctsBot(iterations=200).search(view, random.Random(0))
    assert all(len(key) == 3 for key in split.children)
    assert len(chance.children) <= len(mine) < len(split.children)
    assert all(len(key) == 1 and key[0] in mine for key in chance.children)
    most = max(child.visits for child in chance.children.values())
    assert most > 2 * max(child.visits for child in split.children.values())  # the visits pool on own choices
    assert not from_text("ismcts:10:others_as_chance=false").others_as_chance
    with pytest.raises(cb.RulesError):
        IsmctsBot(others_as_chance=1)  # type: ignore[arg-type]


def test_ismcts_can_model_the_others_as_players_of_the_evaluation() -> None:
    """With ``model_opponents`` the other players' moves in the tree are the ones the evaluation
    values most for them (no search statistics of their own): the same iterations reach deeper."""
    match = cb.Match(cb.load("skyline", players=3), seed=4)
    greedy = from_text("greedy")
    rng = random.Random(1)
    for _ in range(12):
        state = match.state
        match.play(greedy.choose(state.view(state.to_act[0]), rng), state.to_act[0])
    state = match.state
    me = state.to_act[0]
    plain = IsmctsBot(iterations=300).search(state.view(me), random.Random(0))
    modelled = IsmctsBot(iterations=300, model_opponents=True).search(state.view(me), random.Random(0))

    def nodes(node: Node) -> list[Node]:
        return [node] + [n for child in node.children.values() for n in nodes(child)]

    def depth(node: Node) -> int:
        return 1 + max((depth(child) for child in node.children.values()), default=0)

    assert depth(modelled) > depth(plain)
    searched = sum(s.real for n in nodes(plain) for s in n.stats.values())
    assert sum(s.real for n in nodes(modelled) for s in n.stats.values()) < searched  # only its own moves
    move = IsmctsBot(iterations=300, model_opponents=True).choose(state.view(me), random.Random(0))
    assert move in state.legal_moves(me)
    simultaneous = cb.Match(cb.load("manhattan", players=3, selection="simultaneous_hidden"), seed=3).state
    root = IsmctsBot(iterations=100, model_opponents=True).search(simultaneous.view(1), random.Random(0))
    assert {key[0] for key in root.stats if root.stats[key].real} == {1}  # only the searcher's own are searched
    assert all(len(key) == 1 for key in root.children)  # keyed by the searcher's choice alone


def test_ismcts_with_a_time_budget() -> None:
    state = cb.Match(cb.load("skyline"), seed=2).state
    bot = IsmctsBot(iterations=None, time=0.05)
    assert bot.choose(state.view(0), random.Random(1)) in state.legal_moves(0)


def test_ismcts_is_reproducible_from_its_generator() -> None:
    match = cb.Match(cb.load("manhattan", players=4), seed=6)
    view = match.state.view(match.state.to_act[0])
    bot = IsmctsBot(iterations=60)
    assert bot.choose(view, random.Random(4)) == bot.choose(view, random.Random(4))


def test_the_reward_scale_is_the_games_unless_the_bot_sets_its_own() -> None:
    """A game's moves are worth different numbers of points: the search reads a gain through the
    game's ``margin_scale`` unless told a ``temperature``, and the tree shows it."""
    skyline, manhattan = cb.load("skyline", players=4), cb.load("manhattan")
    assert skyline.spec.margin_scale != manhattan.spec.margin_scale
    assert IsmctsBot().settled(skyline).temperature == skyline.spec.margin_scale
    assert IsmctsBot().settled(manhattan).temperature == manhattan.spec.margin_scale
    assert IsmctsBot(temperature=5.0).settled(skyline).temperature == 5.0
    view = cb.Match(skyline, seed=3).state.view(0)
    own = IsmctsBot(iterations=80).search(view, random.Random(2))
    told = IsmctsBot(iterations=80, temperature=skyline.spec.margin_scale).search(view, random.Random(2))
    other = IsmctsBot(iterations=80, temperature=3.0).search(view, random.Random(2))

    def totals(root: Node) -> dict[Any, tuple[float, float]]:
        return {key: (stat.visits, stat.total) for key, stat in root.stats.items()}

    assert totals(own) == totals(told) != totals(other)
    with pytest.raises(ValueError):
        attrs.evolve(skyline.spec, margin_scale=0)


def test_greedy_completes_a_building_when_it_can() -> None:
    game = cb.load("skyline", players=2)
    state = game.parse_state(
        "skyline/2 round=9 turn=0 phase=resolve trigger=0 yard=21.25.5 district=1.1.1 active=PHO,GFP "
        "sky=1:O[GF.UF.UF]/1:B[GF] next=2/2"
    )
    assert GreedyBot().choose(state.view(0), random.Random(0)) == game.parse_move("build PHO 1")


def test_the_search_stops_only_when_the_choice_is_decided() -> None:
    from citybuild.bots.ismcts import Stat, _decided

    root = Node()
    root.stats = {"a": Stat(40, 20.0, 50, 38), "b": Stat(12, 5.0, 50, 10), "c": Stat(3, 1.0, 50, 1)}
    assert _decided(root, 0, 27) and not _decided(root, 0, 28)
    joint = Node()
    joint.joint = True
    joint.stats = {(0, "a"): Stat(5, 2.0, 9, 5), (1, "x"): Stat(50, 9.0, 60, 50), (0, "b"): Stat(2, 1.0, 9, 2)}
    assert _decided(joint, 0, 2) and not _decided(joint, 0, 3)  # only the deciding player's moves count
