"""Moves as short sequences of small decisions, over a fixed numbering of actions.

Learning frameworks (OpenSpiel, PettingZoo) need every move as an integer from a fixed-size action
space, with a mask of the legal ones; a user interface needs the same thing: click a card, then a
city, then a piece. Our move lists are large or open-ended (every multiset of dice as a reroll,
every selection of pieces), so each game numbers the *decisions* a move is made of instead: a
move is the sequence of action ids that builds it, and each id means one fixed thing whatever the
position (Manhattan's id 3 is always "card 3"). Chance events are numbered the same way, each step
with its probability given the steps before it, so that a framework can draw them one by one.

A game declares its numbering with a ``Decisions`` subclass (``GameSpec.decisions``). The least it
writes is the numbering itself: ``steps(engine, player, move)``, the ids of a legal move, and
``outcome_steps(engine, outcome)`` for chance outcomes, with a name for each id. The rest (the
options after a prefix, the move a complete sequence stands for) then comes from the legal moves,
listed once per question; games with big lists write ``options`` and ``move`` (and the chance
pair) directly, and the test kit checks that they agree with the listing.

Contract: no legal move's sequence is a prefix of another's, every prefix of a legal move's
sequence has the next id among its options, and every option leads on to a legal move.
"""

from __future__ import annotations

import abc
import functools
import random
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.errors import IllegalMoveError, RulesError

if TYPE_CHECKING:
    from citybuild.core.engine import Engine
    from citybuild.core.game import Game, State

Steps = tuple[int, ...]


class Decisions(abc.ABC):
    """A game's numbering of its decisions and chance steps (one instance per loaded game).

    ``names`` gives every action id its fixed meaning (its length is the size of the action
    space); ``chance_names`` the same for chance steps. ``max_steps`` bounds the decisions of
    one move in ordinary play (fixed-size encodings of a move in progress keep that many)."""

    names: tuple[str, ...] = ()
    """The meaning of each action id, by id."""
    chance_names: tuple[str, ...] = ()
    """The meaning of each chance step id, by id."""
    max_steps: int = 1
    """The most decisions one move takes in ordinary play (a longer one is still legal)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def size(self) -> int:
        """How many action ids there are."""
        return len(self.names)

    @property
    def chance_size(self) -> int:
        return len(self.chance_names)

    def longest_game(self) -> int:
        """An upper bound on the decisions and chance steps of a whole game (frameworks ask for
        one); games override this generous default with a bound worked out from their rules."""
        return 1_000_000

    # --- what a game must write ----------------------------------------------------------------
    @abc.abstractmethod
    def steps(self, engine: Engine, player: int, move: Any) -> Steps:
        """The action ids of ``move``, a legal move of ``player`` (who is to act)."""

    def outcome_steps(self, engine: Engine, outcome: Any) -> Steps:
        """The chance step ids of ``outcome``, an outcome of the pending chance event."""
        raise NotImplementedError(f"{self.game.name} numbers no chance outcomes")

    # --- derived from the listing (games with big lists write these directly) --------------------
    def options(self, engine: Engine, player: int, chosen: Steps) -> Steps:
        """The ids that may follow ``chosen``, ascending; () when ``chosen`` is a whole move."""
        depth = len(chosen)
        found: set[int] = set()
        for move in engine.legal_moves(player):
            steps = self.steps(engine, player, move)
            if steps[:depth] == chosen and len(steps) > depth:
                found.add(steps[depth])
        return tuple(sorted(found))

    def move(self, engine: Engine, player: int, chosen: Steps) -> Any:
        """The legal move whose steps are ``chosen``; ``RulesError`` if there is none."""
        for move in engine.legal_moves(player):
            if self.steps(engine, player, move) == chosen:
                return move
        raise RulesError(f"the decisions {list(chosen)} make no legal move of P{player}")

    def chance_options(self, engine: Engine, chosen: Steps) -> tuple[tuple[int, Fraction], ...]:
        """The chance step ids that may follow ``chosen``, ascending, each with its probability
        given ``chosen`` (they add up to 1); () when ``chosen`` is a whole outcome."""
        depth = len(chosen)
        weights: dict[int, Fraction] = {}
        for outcome, p in engine.chance_outcomes():
            steps = self.outcome_steps(engine, outcome)
            if steps[:depth] == chosen and len(steps) > depth:
                weights[steps[depth]] = weights.get(steps[depth], Fraction(0)) + p
        total = sum(weights.values(), Fraction(0))
        return tuple((step, weights[step] / total) for step in sorted(weights))

    def outcome(self, engine: Engine, chosen: Steps) -> Any:
        """The outcome whose chance steps are ``chosen``; ``RulesError`` if there is none."""
        for outcome, _ in engine.chance_outcomes():
            if self.outcome_steps(engine, outcome) == chosen:
                return outcome
        raise RulesError(f"the chance steps {list(chosen)} make no outcome of the pending event")

    # --- shared helpers ------------------------------------------------------------------------
    def name(self, action: int) -> str:
        """The meaning of ``action``; ``RulesError`` for an id outside the action space."""
        if type(action) is not int or not 0 <= action < len(self.names):
            raise RulesError(f"{self.game.name} numbers its actions 0 to {len(self.names) - 1}, not {action!r}")
        return self.names[action]

    def sample_steps(self, engine: Engine, rng: random.Random) -> Steps:
        """The chance steps of one outcome, drawn step by step with their probabilities."""
        chosen: Steps = ()
        while options := self.chance_options(engine, chosen):
            roll, total = rng.random(), Fraction(0)
            pick = options[-1][0]
            for step, p in options:
                total += p
                if roll < total:
                    pick = step
                    break
            chosen += (pick,)
        return chosen


def decisions(game: Game) -> Decisions:
    """The game's numbering of its decisions (``GameSpec.decisions``); ``RulesError`` for a game
    that declares none."""
    hook = loaded(game).spec.decisions
    if hook is None:
        raise RulesError(f"{game.name} declares no decisions hook, so its moves have no action numbering")
    return _numbering(hook, game)


def loaded(game: Any) -> Game:
    """``game`` if it is a loaded game; otherwise ``RulesError`` (for ``None``, a name, a state)."""
    from citybuild.core.game import Game

    if not isinstance(game, Game):
        raise RulesError(f"expected a loaded game (citybuild.load(...)), not {game!r}")
    return game


@functools.lru_cache(maxsize=64)
def _numbering(hook: Callable[[Game], Decisions], game: Game) -> Decisions:
    """One numbering per hook and game: games may build tables of names once, and a builder asks
    at every decision. Keyed by the hook too, since equal games may come from different specs."""
    return hook(game)


def _position(source: Any) -> State:
    """The position behind a state or a view (a view's hidden parts drawn by its game: a
    player's own decisions depend only on what that player sees)."""
    from citybuild.core.game import State

    if isinstance(source, State):
        return source
    game = getattr(source, "game", None)
    determinize = getattr(game, "determinize", None)
    if determinize is None:
        raise RulesError(f"a move builder starts from a state or a view that names its game, not {source!r}")
    state: State = determinize(source, random.Random(0))
    return state


@attrs.frozen
class Option:
    """One choice offered by a ``MoveBuilder``: its action id and what it means."""

    action: int
    name: str

    def __str__(self) -> str:
        return self.name


@attrs.frozen
class MoveBuilder:
    """A move of ``player`` made one decision at a time (for user interfaces and adapters).

    ``MoveBuilder.start(state_or_view)`` begins; ``options`` are the choices now;
    ``choose(action)`` returns the builder one decision further; when ``done``, ``move`` is the
    completed legal move. Builders never change: ``back()`` is the builder one decision earlier.
    """

    state: State
    player: int
    chosen: Steps = ()

    @classmethod
    def start(cls, source: Any, player: int | None = None) -> MoveBuilder:
        """A builder for ``player`` (who must be to act; may be omitted when one player is) at a
        state, or at a view (then for the viewer)."""
        state = _position(source)
        viewer = None if source is state else getattr(source, "player", None)
        if player is None:
            player = viewer
        elif viewer is not None and player != viewer:
            raise RulesError(f"a view of P{viewer} builds P{viewer}'s moves, not P{player}'s")
        to_act = state.to_act
        if player is None:
            if len(to_act) != 1:
                who = ", ".join(f"P{p}" for p in to_act) or "nobody"
                raise RulesError(f"name the player whose move to build ({who} to act)")
            player = to_act[0]
        state.require_player(player)
        if player not in to_act:
            raise RulesError(f"P{player} is not to act, so has no move to build")
        return cls(state, player)

    @property
    def decisions(self) -> Decisions:
        return decisions(self.state.game)

    @property
    def actions(self) -> Steps:
        """The action ids that may be chosen now, ascending (none once the move is complete)."""
        return self.decisions.options(self.state.thaw(), self.player, self.chosen)

    @property
    def options(self) -> tuple[Option, ...]:
        names = self.decisions.names
        return tuple(Option(a, names[a]) for a in self.actions)

    @property
    def done(self) -> bool:
        return not self.actions

    def choose(self, action: int) -> MoveBuilder:
        """This builder one decision further; ``RulesError`` naming the options if ``action`` is not one."""
        actions = self.actions
        if type(action) is not int or action not in actions:
            offered = ", ".join(f"{a} ({self.decisions.names[a]})" for a in actions) or "none: the move is complete"
            raise RulesError(f"action {action!r} is not an option now; the options are {offered}")
        return attrs.evolve(self, chosen=(*self.chosen, action))

    def back(self) -> MoveBuilder:
        """The builder one decision earlier (itself at the start)."""
        return attrs.evolve(self, chosen=self.chosen[:-1])

    @property
    def move(self) -> Any:
        """The completed move; ``RulesError`` while decisions remain."""
        if not self.done:
            raise RulesError(f"the move is not complete: {len(self.actions)} options remain")
        return self.decisions.move(self.state.thaw(), self.player, self.chosen)

    @classmethod
    def of(cls, state: State, move: Any, player: int | None = None) -> MoveBuilder:
        """The completed builder of a legal ``move`` (its ``chosen`` are the move's action ids);
        ``IllegalMoveError`` if the move is not legal for the player now."""
        builder = cls.start(state, player)
        verdict = builder.state.check(move, builder.player)
        if not verdict:
            raise IllegalMoveError(verdict, move)
        return attrs.evolve(builder, chosen=builder.decisions.steps(builder.state.thaw(), builder.player, move))

    def __str__(self) -> str:
        names = self.decisions.names
        return f"P{self.player}: " + (", ".join(names[a] for a in self.chosen) or "(nothing chosen)")


def action_names(game: Game) -> tuple[str, ...]:
    """The meaning of each of ``game``'s action ids."""
    return decisions(game).names


def steps_of(state: State, move: Any, player: int | None = None) -> Steps:
    """The action ids of a legal ``move`` at ``state``."""
    return MoveBuilder.of(state, move, player).chosen
