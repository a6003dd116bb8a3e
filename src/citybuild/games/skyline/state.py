"""Skyline positions: the frozen snapshot of a ``SkylineEngine``, with scores, views and text.

The rules of play are in ``engine``; refusals are explained in ``explain``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.verdict import Violation
from citybuild.games.skyline import explain, latest, scoring
from citybuild.games.skyline.engine import SkylineEngine
from citybuild.games.skyline.position import SkylinePosition
from citybuild.games.skyline.rules import TYPES, Rules
from citybuild.games.skyline.table import tile_supply


@attrs.frozen(slots=False)
class SkylineState(SkylinePosition, State):
    """A Skyline position (its fields: ``SkylinePosition``), frozen."""

    engine = SkylineEngine
    turn_rule = "SKY-TURN-1"
    end_rule = "SKY-END-1"
    chance_rule = "SKY-RAND-1"

    if TYPE_CHECKING:  # the core's rules and players, typed for this game
        rules: Rules
        players: int

    @property
    def must_resolve(self) -> bool:
        """SKY-TURN-4: a die must be resolved before Reroll or EndTurn."""
        return self.phase == "resolve"

    def tile_supply(self) -> tuple[int, ...] | None:
        """SKY-COMP-5: tiles left per height 1-6 with a finite supply; None when unlimited."""
        return tile_supply(self.rules, [s.buildings for s in self.skylines], self.short)

    def _engine(self) -> SkylineEngine:
        """An engine at this position for questions only: the one that made this state, if it is
        the latest (``latest``), else a new one reading the state's tuples."""
        return latest.engine_of(self)

    def thaw(self) -> SkylineEngine:
        return latest.engine_of(self).copy()

    def _engine_to_play(self) -> SkylineEngine:
        """``play``'s engine: the kept one, moved on rather than copied (``latest``)."""
        return latest.taken(self)

    def _not_an_outcome(self, move: Any) -> Violation:
        """A roll that cannot happen, described by the dice rolled rather than by listing every
        outcome (a big roll has hundreds of thousands)."""
        rolling = ", ".join(f"{n} {t}" for t, n in zip(TYPES, self.rolling, strict=True) if n)
        return Violation(
            "not-an-outcome",
            "SKY-RAND-2",
            f"{move} is not an outcome of the pending roll of {rolling}: name each rolled die once, "
            "with one of its faces",
        )

    def _malformed_rule(self, move: Any, field: str) -> str:
        """SKY-COMP-6 defines building ids; SKY-TURN-8 names dice by type and face."""
        if field in ("target", "building"):
            return "SKY-COMP-6"
        if field in ("die", "dice", "types"):
            return "SKY-TURN-8"
        return super()._malformed_rule(move, field)

    def _violations(self, move: Any, player: int) -> list[Violation]:
        return explain.violations(self._engine(), move, player)

    # --- scores, views, text -------------------------------------------------------------
    def scores(self) -> ScoreSheet:
        """Completed buildings so far; once the game is over, the final score (SKY-SCORE-1..4)."""
        if self.is_over:
            return self.final_scores()
        return ScoreSheet(self.players, tuple(scoring.items(self.skylines, final=False)))

    def final_scores(self) -> ScoreSheet:
        """The score if the game ended now: lone purple ground floors become height-1 tiles,
        other unfinished buildings score 0, winners after the tie-break (SKY-SCORE-1..4)."""
        items = tuple(scoring.items(self.skylines, final=True))
        sheet = ScoreSheet(self.players, items)
        winners, tiebreak, counts = scoring.break_ties(sheet.totals, self.skylines, self.rules)
        return attrs.evolve(sheet, winners=winners, tiebreak=tiebreak, tiebreak_counts=counts)
