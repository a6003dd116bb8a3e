"""The ``race`` toy game: players take turns moving a pawn towards a goal, stepping 1 or 2 squares
or, a limited number of times, rolling a die (a chance event); the first to reach the goal wins.
Rules, moves, state, notation, scoring and the GameSpec in one small module, the worked example of
docs/guide/plugins.md."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from citybuild.plugin import (
    Engine,
    Game,
    GameSpec,
    InvalidStateError,
    NotationError,
    RulesBase,
    ScoreItem,
    ScoreSheet,
    State,
    View,
    int_between,
    parse_int,
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
class Step:
    squares: int

    def __str__(self) -> str:
        return f"step {self.squares}"


@attrs.frozen
class Roll:
    def __str__(self) -> str:
        return "roll"


@attrs.frozen
class Die:
    """Chance outcome: the die shows ``face``."""

    face: int

    def __str__(self) -> str:
        return f"die {self.face}"


@attrs.frozen
class RaceView(View):
    """Everything is public in a race: a player's view is the whole position, plus who looks (and
    the game, so that bots can list its moves and rebuild the position from it)."""

    player: int
    turn: int
    rolling: bool
    pawns: tuple[int, ...]
    rolls_left: tuple[int, ...]
    game: Any = attrs.field(default=None, kw_only=True, repr=False)

    def notation(self) -> str:
        return f"race@P{self.player} turn={self.turn} pawns={'/'.join(map(str, self.pawns))}"

    def __str__(self) -> str:
        return self.notation()


@attrs.define(slots=False, eq=False, repr=False)
class RacePosition:
    """The fields of a race position: the engine's attributes and the state's fields, declared once."""

    game: RaceGame
    turn: int
    pawns: tuple[int, ...]
    rolls_left: tuple[int, ...]
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
        if not self.is_chance:
            return ()
        faces = self.rules.faces
        return tuple((Die(f), Fraction(1, faces)) for f in range(1, faces + 1))

    def legal_moves(self, player: int) -> tuple[Any, ...]:
        steps: tuple[Any, ...] = tuple(Step(n) for n in range(1, self.rules.max_step + 1))
        return (*steps, Roll()) if self.rolls_left[player] else steps

    def apply(self, move: Any, player: int) -> None:
        if isinstance(move, Roll):
            self.rolls_left = tuple(n - 1 if i == player else n for i, n in enumerate(self.rolls_left))
            self.rolling = True
        else:
            self._advance(player, move.squares)

    def apply_outcome(self, outcome: Any) -> None:
        self._advance(self.turn, outcome.face)

    def _advance(self, player: int, squares: int) -> None:
        self.pawns = tuple(p + squares if i == player else p for i, p in enumerate(self.pawns))
        self.rolling = False
        self.turn = (player + 1) % self.game.players


@attrs.frozen(slots=False)
class RaceState(RacePosition, State):
    """A race position: the snapshot of a ``RaceEngine``, with refusals, scores, view and text."""

    engine = RaceEngine
    turn_rule = "RACE-TURN"
    end_rule = "RACE-END"

    def scores(self) -> ScoreSheet:
        items = tuple(ScoreItem(p, "distance", d, f"pawn on square {d}", "RACE-END") for p, d in enumerate(self.pawns))
        sheet = ScoreSheet(self.game.players, items)
        if not self.is_over:
            return sheet
        winners = tuple(p for p, d in enumerate(self.pawns) if d >= self.rules.goal)
        return attrs.evolve(sheet, winners=winners)

    def view(self, player: int) -> RaceView:
        return RaceView(player, self.turn, self.rolling, self.pawns, self.rolls_left, game=self.game)

    def notation(self) -> str:
        roll = " rolling" if self.rolling else ""
        pawns = "/".join(map(str, self.pawns))
        left = "/".join(map(str, self.rolls_left))
        return f"race/{self.game.players} turn={self.turn} pawns={pawns} rolls={left}{roll}"

    def validate(self) -> None:
        n = self.game.players
        if len(self.pawns) != n or len(self.rolls_left) != n or not 0 <= self.turn < n:
            raise InvalidStateError("one pawn and one roll count per player, and a seat to move", "RACE-TURN")
        if sum(1 for p in self.pawns if p >= self.rules.goal) > 1:
            raise InvalidStateError("only one pawn can reach the goal", "RACE-END")
        if any(not 0 <= r <= self.rules.rolls for r in self.rolls_left):
            raise InvalidStateError(f"each player has 0 to {self.rules.rolls} rolls left", "RACE-3")


@attrs.frozen
class RaceGame(Game):
    name: ClassVar[str] = "race"
    moves: ClassVar[tuple[type, ...]] = (Step, Roll)
    outcomes: ClassVar[tuple[type, ...]] = (Die,)

    def initial_state(self) -> RaceState:
        n = self.players
        return RaceState(self, 0, (0,) * n, (self.rules.rolls,) * n)

    def parse_move(self, text: str) -> Any:
        words = text.split() if isinstance(text, str) else []
        if words == ["roll"]:
            return Roll()
        if len(words) == 2 and words[0] in ("step", "die"):
            number = parse_int(words[1], f"move {text!r}", 1, 9)
            return Step(number) if words[0] == "step" else Die(number)
        raise NotationError(f"expected 'step N', 'roll' or 'die N', got {text!r}", "move")

    def parse_state(self, text: str) -> RaceState:
        n = self.players
        found = re.fullmatch(rf"race/{n} turn=(\S+) pawns=(\S+) rolls=(\S+)( rolling)?", text.strip())
        if not found:
            raise NotationError(f"expected 'race/{n} turn=T pawns=A/B rolls=X/Y [rolling]', got {text!r}", "position")
        # parse_int, not int(): it reads only ASCII digits ('٣' is not 3) and refuses huge numbers.
        pawns = tuple(parse_int(p, "pawns", 0) for p in found.group(2).split("/"))
        rolls = tuple(parse_int(r, "rolls", 0) for r in found.group(3).split("/"))
        state = RaceState(self, parse_int(found.group(1), "turn", 0), pawns, rolls, bool(found.group(4)))
        state.validate()
        return state


SPEC = GameSpec(
    game=RaceGame,
    title="Dice race",
    presets=PRESETS,
    min_players=2,
    max_players=3,
    state=RaceState,
    view=RaceView,
)
