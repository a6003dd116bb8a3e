"""The game protocol: a loaded game (rules + player count) and the state every game follows."""

from __future__ import annotations

import abc
import random
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from citybuild.core import chance
from citybuild.core.errors import IllegalMoveError, RulesError
from citybuild.core.notation import move_words as move_words  # re-exported: the parse helpers' old home
from citybuild.core.notation import parse_fields as parse_fields
from citybuild.core.notation import parse_int as parse_int
from citybuild.core.notation import split_fields as split_fields
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.verdict import Verdict, Violation


@attrs.frozen
class Game(abc.ABC):
    """A game under one rule set for a fixed number of players: the factory of its states."""

    name: ClassVar[str]
    move_types: ClassVar[tuple[type, ...]] = ()
    """Every move and chance-outcome class of the game (used by the JSON converter)."""

    preset: str
    rules: Any
    players: int

    @abc.abstractmethod
    def initial_state(self) -> State:
        """The position before anyone acts (a chance state when the game opens with a deal)."""

    @abc.abstractmethod
    def parse_move(self, text: str) -> Any:
        """A move or chance outcome from its notation; raises ``NotationError``."""

    @abc.abstractmethod
    def parse_state(self, text: str) -> State:
        """A position from its notation; raises ``NotationError`` or ``InvalidStateError``."""


class State(abc.ABC):
    """A frozen position. Subclasses implement the ``_`` methods; the bookkeeping is shared here.

    Every public method validates its input and never changes the state: ``play`` returns a
    new state or raises.
    """

    __slots__ = ()

    turn_rule: ClassVar[str] = ""
    """Rule ID cited when someone acts out of turn."""
    chance_rule: ClassVar[str] = ""
    """Rule ID cited when a chance outcome is refused (the game's randomness rule; ``turn_rule``
    when a game names none)."""
    end_rule: ClassVar[str] = ""
    """Rule ID cited when someone acts after the end."""

    game: Game

    # --- what subclasses provide -------------------------------------------------------
    @property
    @abc.abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Players who must decide now: () at chance states and once the game is over."""

    @property
    @abc.abstractmethod
    def is_chance(self) -> bool: ...

    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Every outcome of the pending chance event with its exact probability; () elsewhere."""
        return ()

    def _is_outcome(self, outcome: Any) -> bool:
        """Whether ``outcome`` is a possible outcome of the pending chance event (games may speed this up)."""
        return any(outcome == o for o, _ in self.chance_outcomes())

    def _not_an_outcome(self, move: Any) -> Violation:
        """The refusal of a chance outcome that cannot happen. It names a few outcomes; games
        whose events have very many (big dice rolls) override it to describe them instead."""
        outcomes = self.chance_outcomes()
        listed = ", ".join(str(o) for o, _ in outcomes[:10]) + (
            f" and {len(outcomes) - 10} more" if len(outcomes) > 10 else ""
        )
        return Violation(
            "not-an-outcome",
            self.chance_rule or self.turn_rule,
            f"{move} is not an outcome of the pending chance event ({listed})",
        )

    @abc.abstractmethod
    def _legal_moves(self, player: int) -> tuple[Any, ...]: ...

    @abc.abstractmethod
    def _violations(self, move: Any, player: int) -> list[Violation]: ...

    @abc.abstractmethod
    def _apply(self, move: Any, player: int) -> State: ...

    @abc.abstractmethod
    def _apply_outcome(self, outcome: Any) -> State: ...

    @abc.abstractmethod
    def scores(self) -> ScoreSheet:
        """Points so far, item by item; when the game is over, with winners and tie-break."""

    @abc.abstractmethod
    def view(self, player: int) -> Any:
        """What ``player`` may know of this position."""

    @abc.abstractmethod
    def notation(self) -> str: ...

    def validate(self) -> None:  # noqa: B027 - an optional hook: games without invariants keep it
        """Raise ``InvalidStateError`` naming the first broken invariant (conservation of pieces,
        cards or dice, tower ownership, phase consistency). Positions reached by legal play
        always pass; a hand-written one may not."""

    # --- shared bookkeeping --------------------------------------------------------------
    def winners(self) -> tuple[int, ...]:
        """Winners after the tie-break; () while the game is not over."""
        return self.scores().winners if self.is_over else ()

    def require_player(self, player: Any) -> int:
        """``player`` if it is a seat of this game; otherwise ``RulesError`` naming it."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise RulesError(f"there is no player {player!r} in a {self.game.players}-player game")
        return player

    def legal_moves(self, player: int | None = None) -> tuple[Any, ...]:
        """Every legal move for ``player`` (at a chance state: every outcome). A player who is not
        to act has none; a value that is not a player raises ``RulesError``."""
        if player is not None:
            self.require_player(player)
        if self.is_chance:
            # No player acts at a chance state: the outcomes are "legal" only for whoever drives chance.
            return () if player is not None else tuple(outcome for outcome, _ in self.chance_outcomes())
        if self.is_over:
            return ()
        to_act = self.to_act
        if player is None:
            if len(to_act) != 1:
                return ()
            player = to_act[0]
        if player not in to_act:
            return ()
        return self._legal_moves(player)

    def random_move(self, rng: random.Random, player: int | None = None) -> Any:
        """A legal move for ``player`` drawn uniformly at random, or at a chance state an outcome
        drawn with its probability. Uses only ``rng.random()``, so a seed gives the same choice on
        every Python. Games may override it with a faster sampler of the same distribution."""
        if self.is_chance:
            return chance.sample(self.chance_outcomes(), rng)
        moves = self.legal_moves(player)
        if not moves:
            if self.is_over:
                reason = "the game is over; nobody has a move"
            elif player is None:
                reason = f"several players act now ({', '.join(f'P{p}' for p in self.to_act)}); name the player"
            else:
                reason = f"P{player} is not to act"
            raise IllegalMoveError(Verdict((Violation("no-move", self.turn_rule, reason),)), None)
        return moves[int(rng.random() * len(moves))]

    def random_step(self, rng: random.Random) -> State:
        """One step of random play: a random player among those to act (when several act at
        once), then ``random_move`` for them (at a chance state, an outcome)."""
        to_act = self.to_act
        player = to_act[int(rng.random() * len(to_act))] if len(to_act) > 1 else None
        return self.play(self.random_move(rng, player), player)

    def playout(self, rng: random.Random) -> tuple[State, int]:
        """Random play to the end: the final state and the number of steps taken.

        Games may override it with a faster path, which must give exactly the same final state
        and step count for the same generator (citybuild's own games test that they do)."""
        state: State = self
        steps = 0
        while not state.is_over:
            state = state.random_step(rng)
            steps += 1
        return state, steps

    def _coerce(self, move: Any) -> Any:
        if isinstance(move, str):
            return self.game.parse_move(move)
        return move

    def check(self, move: Any, player: int | None = None) -> Verdict:
        """Whether ``move`` may be played now by ``player``, with every reason if not."""
        move = self._coerce(move)
        return Verdict(tuple(self._who_and_what(move, player)[1]))

    def _who_and_what(self, move: Any, player: int | None) -> tuple[int, list[Violation]]:
        if self.is_over:
            return -1, [Violation("game-over", self.end_rule, "the game is over; no move can be played")]
        if self.is_chance:
            if player is not None:
                return -1, [
                    Violation(
                        "chance-state",
                        self.chance_rule or self.turn_rule,
                        f"no player acts now (a chance event is pending), not P{player}",
                    )
                ]
            if not self._is_outcome(move):
                return -1, [self._not_an_outcome(move)]
            return -1, []
        to_act = self.to_act
        if player is None:
            if len(to_act) != 1:
                who = ", ".join(f"P{p}" for p in to_act)
                return -1, [
                    Violation("player-required", self.turn_rule, f"several players act now ({who}); name the player")
                ]
            player = to_act[0]
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            return -1, [
                Violation(
                    "no-such-player",
                    self.turn_rule,
                    f"there is no player {player!r} in a {self.game.players}-player game",
                )
            ]
        if player not in to_act:
            who = ", ".join(f"P{p}" for p in to_act)
            return player, [Violation("not-to-act", self.turn_rule, f"P{player} is not to act; {who} is")]
        return player, self._violations(move, player)

    def play(self, move: Any, player: int | None = None) -> State:
        """The state after ``move``; raises ``IllegalMoveError`` (and changes nothing) if illegal."""
        move = self._coerce(move)
        who, violations = self._who_and_what(move, player)
        if violations:
            raise IllegalMoveError(Verdict(tuple(violations)), move)
        if self.is_chance:
            return self._apply_outcome(move)
        return self._apply(move, who)

    def __str__(self) -> str:
        return self.notation()
