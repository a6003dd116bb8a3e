"""Hypothesis properties of Skyline on random positions of both presets and 2-4 players."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st
from skyline_support import DICE, FACE_TABLE, dice_in_play, expected_probability, game, pos

from citybuild.core import chance
from citybuild.games.skyline import Abandon, Build, Demolish, Reroll, TakeYard
from citybuild.games.skyline.state import SkylineState

CONFIGS = st.tuples(st.sampled_from(["standard", "all-nine-rounds"]), st.integers(2, 4), st.integers(0, 10_000))


def kind_first_move(state: SkylineState, rng: random.Random) -> object:
    """A random legal move, drawing the kind of move first: this keeps the district and the rolls
    small (uniform play mostly rerolls and abandons), so whole games stay fast."""
    moves = state.legal_moves()
    kinds: dict[type, list[object]] = {}
    for m in moves:
        kinds.setdefault(type(m), []).append(m)
    group = list(kinds.values())[int(rng.random() * len(kinds))]
    return group[int(rng.random() * len(group))]


def walk(preset: str, players: int, seed: int) -> list[SkylineState]:
    """Every state of one whole random game."""
    rng = random.Random(seed)
    state = game(players, preset).initial_state()
    states = [state]
    while not state.is_over:
        if state.is_chance:
            state = state.play(chance.sample(state.chance_outcomes(), rng))
        else:
            state = state.play(kind_first_move(state, rng))
        states.append(state)
    return states


# SKY-END-1, SKY-COMP-2, SKY-TURN-9: whole games end, with the 60 dice conserved at every step
@settings(max_examples=12, deadline=None)
@given(CONFIGS)
def test_random_games_end_and_conserve_dice(config: tuple[str, int, int]) -> None:
    states = walk(*config)
    last = states[-1]
    assert last.is_over and last.round <= 9 and last.winners()
    for s in states:
        assert dice_in_play(s) == DICE
        if not s.is_over and not s.is_chance:
            assert s.legal_moves()
    assert set(last.winners()) <= set(range(config[1]))


# SKY-END-1, SKY-END-2: uniform random play (random_move) runs to the end and replays from its seed
@settings(max_examples=6, deadline=None)
@given(CONFIGS)
def test_uniform_random_playouts_end(config: tuple[str, int, int]) -> None:
    preset, players, seed = config
    final, steps = play_uniform(game(players, preset).initial_state(), random.Random(seed))
    assert final.is_over and final.round <= 9 and dice_in_play(final) == DICE
    assert play_uniform(game(players, preset).initial_state(), random.Random(seed)) == (final, steps)


def play_uniform(state: SkylineState, rng: random.Random) -> tuple[SkylineState, int]:
    steps = 0
    while not state.is_over:
        state = state.play(state.random_move(rng))
        steps += 1
    return state, steps


# DESIGN 4, SKY-TURN-8: legal_moves() and check() agree; refused candidates change nothing
@settings(max_examples=10, deadline=None)
@given(CONFIGS)
def test_legal_moves_and_check_agree(config: tuple[str, int, int]) -> None:
    for s in walk(*config)[::7]:
        if s.is_chance or s.is_over:
            continue
        legal = s.legal_moves()
        assert len(set(legal)) == len(legal)
        for m in legal[:: max(1, len(legal) // 15)]:
            assert s.check(m).ok, (s.notation(), m)
        before = s.notation()
        candidates = [TakeYard(("GF", "UF", "PH")), TakeYard(("PH", "PH", "PH"))]
        for kind in ("GF", "UF", "PH"):
            for face in "PBOX":
                die = (kind, face)
                candidates += [Build(die, None), Abandon(die), Reroll([die])]
                candidates += [Build(die, i) for i in range(1, 5)] + [Demolish(die, i) for i in range(1, 5)]
        for m in candidates:
            verdict = s.check(m)
            assert verdict.ok == (m in legal), (s.notation(), m, verdict)
            if not verdict.ok:
                assert all(v.code and v.rule.startswith("SKY-") and v.message for v in verdict.violations)
                try:
                    s.play(m)
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"{m} was refused by check() but accepted by play()")
                assert s.notation() == before


# DESIGN 7: positions and moves round-trip through their notation
@settings(max_examples=10, deadline=None)
@given(CONFIGS)
def test_notation_round_trips(config: tuple[str, int, int]) -> None:
    g = game(config[1], config[0])
    for s in walk(*config)[::3]:
        assert g.parse_state(s.notation()) == s
        s.validate()
        for m in s.legal_moves()[:40]:
            assert g.parse_move(str(m)) == m
            assert eval(repr(m), vars(__import__("citybuild.games.skyline", fromlist=["*"]))) == m


# SKY-RAND-2: outcome probabilities are exact, sum to 1 and match the face table
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 3))
def test_roll_probabilities_are_exact(gf: int, uf: int, ph: int) -> None:
    if gf + uf + ph == 0:
        return
    s = game().parse_state(f"skyline/2 phase=roll roll={gf}.{uf}.{ph} sky=-/-")
    outcomes = s.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert len({o for o, _ in outcomes}) == len(outcomes)
    for outcome, p in outcomes:
        assert p == expected_probability(list(outcome.dice))
        assert all(d[1] in FACE_TABLE[d[0]] for d in outcome.dice)


# Same seed and choices, same game; random_move is the move legal_moves() would pick
@settings(max_examples=8, deadline=None)
@given(CONFIGS)
def test_same_seed_same_game_and_random_move(config: tuple[str, int, int]) -> None:
    assert walk(*config) == walk(*config)
    g = game(config[1], config[0])
    rng_a, rng_b = random.Random(config[2]), random.Random(config[2])
    s = g.initial_state()
    for _ in range(150):
        if s.is_over:
            break
        if s.is_chance:
            s = s.play(s.random_move(rng_a))
            rng_b.setstate(rng_a.getstate())
            continue
        m = s.random_move(rng_a)
        moves = s.legal_moves()
        assert moves[int(rng_b.random() * len(moves))] == m
        s = s.play(m)


def stepped(state: Any, rng: random.Random) -> tuple[Any, int]:
    """Random play to the end through the public snapshot API, one checked ``random_step`` at a time."""
    steps = 0
    while not state.is_over:
        state = state.random_step(rng)
        steps += 1
    return state, steps


# The engine's in-place playout (moves applied by index) plays exactly the game that stepping
# through the public API plays (random_move, then a checked play of the move's value)
OPTION_MIXES = st.fixed_dictionaries(
    {},
    optional={
        "fallback_only": st.booleans(),
        "reroll_all_remaining": st.booleans(),
        "demolish_completed_allowed": st.booleans(),
        "finite_tile_supply": st.booleans(),
        "tile_counts": st.sampled_from([{1: 1, 2: 2, 3: 1, 4: 1, 5: 0, 6: 1}, {h: 0 for h in range(1, 7)}]),
        "blue_min_height": st.integers(2, 4),
        "yard_take": st.sampled_from([1, 2, 3, 5, 60]),
        "end_trigger_latches": st.booleans(),
        "rounds": st.integers(1, 12),
        "faces": st.sampled_from(
            [{"GF": "PBOXXX", "UF": "PPBBOO", "PH": "BOXXXX"}, {"GF": "OOOOOO", "UF": "OOOOOX", "PH": "OOOOOO"}]
        ),
    },
)


@settings(max_examples=100, deadline=None)
@given(
    preset=st.sampled_from(["standard", "all-nine-rounds"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    options=OPTION_MIXES,
    warmup=st.integers(0, 300),
)
def test_skyline_playout_is_the_stepped_game(
    preset: str, players: int, seed: int, options: dict[str, Any], warmup: int
) -> None:
    """``playout`` on the engine gives the same final state and step count as stepping through
    ``random_step``, from any point of a game, under any mix of options."""
    state: SkylineState = game(players, preset, **options).initial_state()
    rng = random.Random(seed)
    for _ in range(warmup):  # start from any point of a game, not only the beginning
        if state.is_over:
            break
        state = cast(SkylineState, state.random_step(rng))
    fast, fast_steps = state.playout(random.Random(seed + 1))
    slow, slow_steps = stepped(state, random.Random(seed + 1))
    assert fast == slow and fast_steps == slow_steps
    assert fast.is_over and fast.scores() == slow.scores()
    fast.validate()


# SKY-COMP-5, SKY-END-2: the engine's finite supply (short tiles) and unlatched trigger, from a rich position
def test_skyline_playout_keeps_short_tiles_and_the_unlatched_trigger() -> None:
    state = pos(
        "skyline/2 round=8 turn=1 phase=resolve trigger=1 active=GFO,UFO,UFO,PHB,PHO "
        "sky=1:O6,2:O3,3:B[GF.UF],4:O[GF.UF.UF.UF]/1:O6,2:B2,3:P[GF],4:O[GF.UF.UF],5:O4 short=0.1.1.0.0.1",
        finite_tile_supply=True,
        tile_counts={1: 0, 2: 0, 3: 0, 4: 1, 5: 0, 6: 1},
        end_trigger_latches=False,
    )
    changed = 0
    for seed in range(150):
        fast, steps = state.playout(random.Random(seed))
        assert (fast, steps) == stepped(state, random.Random(seed))
        fast.validate()
        changed += fast.short != state.short
    assert changed  # the playouts did complete and demolish buildings without tiles
