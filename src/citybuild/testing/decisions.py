"""Checks of a game's action numbering (``GameSpec.decisions``) against its legal moves.

``check_decisions(state)`` proves at one position what the move builder promises: every legal
move's sequence leads through the options to that move, and every path through the options ends
in a legal move, once each. Where the moves are few enough to walk every path it walks them all
(and compares the game's options with those derived from the listing); elsewhere it follows
``samples`` random paths and the sequences of ``samples`` legal moves drawn by index. At a chance
state it checks that the chance steps give every outcome with its exact probability (walking
every path of small events) or, for big ones, that sampled steps make possible outcomes.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

from citybuild.core.actions import Decisions, Steps, decisions
from citybuild.core.engine import Engine
from citybuild.core.game import State

WALK_LIMIT = 2000
"""Positions with at most this many legal moves are walked in full."""
CHANCE_WALK_LIMIT = 5000
"""Chance events whose tree of steps has at most this many nodes are walked in full."""


class DecisionsError(AssertionError):
    """The action numbering broke a promise; the message says where."""


def _fail(state: State, message: str) -> DecisionsError:
    return DecisionsError(f"{state.game.name} at {state.notation()!r}: {message}")


def _walk(numbering: Decisions, engine: Engine, player: int, limit: int) -> list[tuple[Steps, Any]]:
    """Every complete path through the options, with its move (at most ``limit`` + 1 paths)."""
    found: list[tuple[Steps, Any]] = []
    stack: list[Steps] = [()]
    while stack and len(found) <= limit:
        chosen = stack.pop()
        options = numbering.options(engine, player, chosen)
        if any(not 0 <= a < numbering.size for a in options):
            raise DecisionsError(f"options {options} leave the action space 0-{numbering.size - 1}")
        if not options:
            found.append((chosen, numbering.move(engine, player, chosen)))
        stack.extend((*chosen, a) for a in reversed(options))
    return found


def _follow(numbering: Decisions, engine: Engine, player: int, move: Any, state: State) -> None:
    """The steps of ``move`` lead through the options to ``move``."""
    steps = numbering.steps(engine, player, move)
    for depth, step in enumerate(steps):
        options = numbering.options(engine, player, steps[:depth])
        if step not in options:
            raise _fail(state, f"P{player}'s move {move} is {list(steps)}, but {step} is not an option after {depth}")
    if numbering.options(engine, player, steps):
        raise _fail(state, f"P{player}'s move {move} ({list(steps)}) offers further options")
    if numbering.move(engine, player, steps) != move:
        raise _fail(state, f"{list(steps)} builds {numbering.move(engine, player, steps)}, not {move}")


def check_decisions(state: State, samples: int = 20, rng: random.Random | None = None) -> int:
    """Check the numbering at ``state`` for every player to act (or its chance event); the number
    of moves or outcomes checked. Raises ``DecisionsError``."""
    rng = rng or random.Random(0)
    numbering = decisions(state.game)
    engine = state.thaw()
    if state.is_over:
        return 0
    if state.is_chance:
        return _check_chance(state, numbering, engine, samples, rng)
    checked = 0
    for player in state.to_act:
        legal = state.legal_moves(player)
        if len(legal) <= WALK_LIMIT:
            paths = _walk(numbering, engine, player, len(legal))
            moves = [m for _, m in paths]
            counts = Counter(moves)
            twice = [m for m, n in counts.items() if n > 1]
            if twice:
                raise _fail(state, f"P{player}'s move {twice[0]} is reached by two paths")
            if set(moves) != set(legal) or len(moves) != len(legal):
                extra = [m for m in moves if m not in set(legal)]
                missing = [m for m in legal if m not in counts]
                raise _fail(state, f"P{player}: paths reach {extra[:3]} (illegal) and miss {missing[:3]}")
            trie: dict[Steps, set[int]] = {}
            for move in legal:
                steps = numbering.steps(engine, player, move)
                trie.setdefault(steps, set())
                for depth in range(len(steps)):
                    trie.setdefault(steps[:depth], set()).add(steps[depth])
            for prefix, following in trie.items():  # the game's options are those the listing gives
                if numbering.options(engine, player, prefix) != tuple(sorted(following)):
                    raise _fail(state, f"after {list(prefix)}: options differ from the listing's {sorted(following)}")
            for move in legal[:: max(1, len(legal) // samples)]:
                _follow(numbering, engine, player, move, state)
            checked += len(legal)
            continue
        for _ in range(samples):
            move = legal[int(rng.random() * len(legal))]
            _follow(numbering, engine, player, move, state)
            chosen: Steps = ()
            while options := numbering.options(engine, player, chosen):
                chosen += (options[int(rng.random() * len(options))],)
            built = numbering.move(engine, player, chosen)
            if not engine.is_legal(built, player):
                raise _fail(state, f"the path {list(chosen)} builds the illegal move {built}")
            checked += 2
    return checked


def _chance_tree(numbering: Decisions, engine: Engine) -> dict[Any, Fraction] | None:
    """Every outcome the chance steps reach, with its probability; None past ``CHANCE_WALK_LIMIT``
    nodes (a roll of many dice, drawn die by die, has too many paths to walk)."""
    reached: dict[Any, Fraction] = {}
    stack: list[tuple[Steps, Fraction]] = [((), Fraction(1))]
    nodes = 0
    while stack:
        nodes += 1
        if nodes > CHANCE_WALK_LIMIT:
            return None
        chosen, p = stack.pop()
        options = numbering.chance_options(engine, chosen)
        if not options:
            outcome = numbering.outcome(engine, chosen)
            reached[outcome] = reached.get(outcome, Fraction(0)) + p
            continue
        if sum(q for _, q in options) != 1 or any(q <= 0 for _, q in options):
            raise DecisionsError(f"chance options after {list(chosen)} are not a distribution: {options}")
        if any(not 0 <= a < numbering.chance_size for a, _ in options):
            raise DecisionsError(f"chance options {options} leave the chance ids 0-{numbering.chance_size - 1}")
        stack.extend(((*chosen, a), p * q) for a, q in options)
    return reached


def _check_chance(state: State, numbering: Decisions, engine: Engine, samples: int, rng: random.Random) -> int:
    reached = _chance_tree(numbering, engine)
    if reached is not None:
        outcomes = state.chance_outcomes()
        if reached != dict(outcomes):
            raise _fail(state, "the chance steps do not give the chance outcomes with their probabilities")
        for outcome, _ in outcomes:
            _follow_outcome(numbering, engine, outcome, state)
        return len(outcomes)
    for _ in range(samples):
        steps = numbering.sample_steps(engine, rng)
        outcome = numbering.outcome(engine, steps)
        if not engine.is_outcome(outcome):
            raise _fail(state, f"the chance steps {list(steps)} make {outcome}, which cannot happen")
        _follow_outcome(numbering, engine, outcome, state)
    return samples


def _follow_outcome(numbering: Decisions, engine: Engine, outcome: Any, state: State) -> None:
    steps = numbering.outcome_steps(engine, outcome)
    for depth, step in enumerate(steps):
        options = dict(numbering.chance_options(engine, steps[:depth]))
        if not options.get(step):
            raise _fail(state, f"outcome {outcome} is {list(steps)}, but {step} is not a chance option after {depth}")
    if numbering.chance_options(engine, steps) or numbering.outcome(engine, steps) != outcome:
        raise _fail(state, f"the chance steps {list(steps)} do not end in {outcome}")
