"""The ``race`` toy game: pawns race to a goal by steps of 1 or 2 squares or, a few times, by a roll
of the die (a chance event); the first there wins. The whole game in one module, each thing written
once: the worked example of docs/guide/plugins.md."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import attrs

from citybuild.plugin import (
    Engine,
    Game,
    GameSpec,
    InvalidStateError,
    PositionView,
    RulesBase,
    ScoreItem,
    ScoreSheet,
    State,
    Worded,
    int_between,
)


@attrs.frozen(kw_only=True)
class Rules(RulesBase):
    """RACE-1: the goal square; RACE-2: the longest step; RACE-3: rolls per player; RACE-4: die faces."""

    goal: int = attrs.field(default=10, validator=int_between(3, 50))
    max_step: int = attrs.field(default=2, validator=int_between(1, 3))
    rolls: int = attrs.field(default=2, validator=int_between(0, 9))
    faces: int = attrs.field(default=6, validator=int_between(2, 6))


PRESETS = {"standard": Rules(), "sprint": Rules(goal=5, rolls=1)}


@attrs.frozen
class Step(Worded):
    """RACE-2: move the pawn this many squares (``step 2``)."""

    squares: int


@attrs.frozen
class Roll(Worded):
    """RACE-3: roll the die instead (``roll``), a chance event."""


@attrs.frozen
class Die(Worded):
    """RACE-4: the die shows ``face`` (``die 5``), and the pawn moves that many squares."""

    face: int


@attrs.define(slots=False, eq=False, repr=False)
class RacePosition:
    """The fields of a race position, declared once: the engine's attributes, the state's fields,
    the view's (everything is public) and the notation's (``race/2 turn=0 pawns=0/0 rolls=2/2``)."""

    game: RaceGame
    turn: int
    pawns: tuple[int, ...]
    rolls: tuple[int, ...]
    rolling: bool = False


class RaceEngine(RacePosition, Engine):
    """The rules of a race, once: who acts, the legal moves, their effects and the die."""

    @property
    def is_over(self) -> bool:
        return max(self.pawns) >= self.rules.goal

    @property
    def is_chance(self) -> bool:
        return self.rolling and not self.is_over

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over or self.rolling else (self.turn,)

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        faces = self.rules.faces
        return tuple((Die(f), Fraction(1, faces)) for f in range(1, faces + 1)) if self.is_chance else ()

    def legal_moves(self, player: int) -> tuple[Any, ...]:
        steps: tuple[Any, ...] = tuple(Step(n) for n in range(1, self.rules.max_step + 1))
        return (*steps, Roll()) if self.rolls[player] else steps

    def apply(self, move: Any, player: int) -> None:
        if isinstance(move, Roll):
            self.rolls = tuple(n - (i == player) for i, n in enumerate(self.rolls))
            self.rolling = True
        else:
            self.advance(player, move.squares)

    def apply_outcome(self, outcome: Any) -> None:
        self.advance(self.turn, outcome.face)

    def advance(self, player: int, squares: int) -> None:
        self.pawns = tuple(p + squares * (i == player) for i, p in enumerate(self.pawns))
        self.rolling = False
        self.turn = (player + 1) % self.game.players


@attrs.frozen(slots=False)
class RaceState(RacePosition, State):
    """A race position: the snapshot of a ``RaceEngine``, with its scores and invariants."""

    engine = RaceEngine
    turn_rule = "RACE-TURN"
    end_rule = "RACE-END"

    def scores(self) -> ScoreSheet:
        items = tuple(ScoreItem(p, "distance", d, f"pawn on square {d}", "RACE-END") for p, d in enumerate(self.pawns))
        winners = tuple(p for p, d in enumerate(self.pawns) if d >= self.rules.goal) if self.is_over else ()
        return ScoreSheet(self.game.players, items, winners=winners)

    def validate(self) -> None:
        n = self.game.players
        if len(self.pawns) != n or len(self.rolls) != n or not 0 <= self.turn < n:
            raise InvalidStateError("one pawn and one roll count per player, and a seat to move", "RACE-TURN")
        if sum(1 for p in self.pawns if p >= self.rules.goal) > 1 or min(self.pawns) < 0:
            raise InvalidStateError("pawns stand on squares from 0, and only one can reach the goal", "RACE-END")
        if any(not 0 <= r <= self.rules.rolls for r in self.rolls):
            raise InvalidStateError(f"each player has 0 to {self.rules.rolls} rolls left", "RACE-3")


class RaceView(PositionView, position=RacePosition):
    """What a player sees: the whole position (nothing is hidden), who looks and the game."""


@attrs.frozen
class RaceGame(Game):
    name: ClassVar[str] = "race"
    moves: ClassVar[tuple[type, ...]] = (Step, Roll)
    outcomes: ClassVar[tuple[type, ...]] = (Die,)

    def initial_state(self) -> RaceState:
        n = self.players
        return RaceState(self, 0, (0,) * n, (self.rules.rolls,) * n)


SPEC = GameSpec(
    game=RaceGame, title="Dice race", presets=PRESETS, min_players=2, max_players=3, state=RaceState, view=RaceView
)
