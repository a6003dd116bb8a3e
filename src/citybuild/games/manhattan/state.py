"""Manhattan positions: the frozen snapshot of a ``ManhattanEngine``, with scores, views and text.

The rules of play are in ``engine``; refusals are explained in ``explain``.
"""

from __future__ import annotations

from typing import Any, cast

import attrs
from attrs import evolve as replace

from citybuild.core import position
from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.tuples import bumped, replaced
from citybuild.core.verdict import Violation
from citybuild.games.manhattan import explain, scoring
from citybuild.games.manhattan.engine import PHASES, ManhattanEngine
from citybuild.games.manhattan.facts import PositionFacts
from citybuild.games.manhattan.moves import Build
from citybuild.games.manhattan.position import SECRET, ManhattanPosition, shown_selections

__all__ = ["PHASES", "ManhattanState"]

Counts = tuple[int, ...]


@attrs.frozen(slots=False)
class ManhattanState(ManhattanPosition, PositionFacts, State):
    """A Manhattan position (its fields: ``ManhattanPosition``; what follows from them:
    ``PositionFacts``), frozen."""

    engine = ManhattanEngine
    turn_rule = "MAN-ROUND-2"
    end_rule = "MAN-END-1"
    chance_rule = "MAN-RAND-1"

    # --- the engine's answers -----------------------------------------------------------
    def legal_builds(self, player: int) -> tuple[Build, ...]:
        """Every legal build for ``player`` now (MAN-BUILD-2..4), ignoring whose turn it is."""
        return cast(ManhattanEngine, self._engine()).legal_builds(player)

    def _violations(self, move: Any, player: int) -> list[Violation]:
        return explain.violations(cast(ManhattanEngine, self._engine()), move, player)

    # --- scores, views, text -------------------------------------------------------------
    def round_score(self) -> ScoreSheet:
        """What the board would score if the round ended now, item by item (MAN-SCORE)."""
        return ScoreSheet(self.players, tuple(scoring.round_items(self.towers, self.rules, self.players, self.round)))

    def scores(self) -> ScoreSheet:
        sheet = ScoreSheet(self.players, self.ledger)
        if sheet.totals != self.points:  # a hand-written position: carry the difference
            carried = tuple(
                ScoreItem(p, "carried", self.points[p] - sheet.totals[p], "points before this position")
                for p in range(self.players)
                if self.points[p] != sheet.totals[p]
            )
            sheet = sheet.with_items(carried)
        if not self.is_over:
            return sheet
        winners, tiebreak, counts = scoring.break_ties(self.points, self.towers, self.rules, self.players)
        return attrs.evolve(sheet, winners=winners, tiebreak=tiebreak, tiebreak_counts=counts)

    def hidden_variants(self, player: int) -> tuple[ManhattanState, ...]:
        """Positions that differ from this one only in what ``player`` cannot see: the baseline of
        the declaration (a card of another hand exchanged with one of the draw pile) and, while
        selections are secret, another colour's selection with one piece exchanged for a piece of
        another size from its supply. The test kit checks that ``view(player)`` is the same for all
        of them (DESIGN principle 6)."""
        out = cast(list[ManhattanState], position.hidden_variants(self, player, ManhattanPosition))
        _, shown = shown_selections(self, player)
        for colour, (chosen, seen) in enumerate(zip(self.chosen, shown, strict=True)):
            if chosen is None or seen != SECRET:
                continue
            supply = self.supply[colour]
            pair = next(((a, b) for a in range(4) if chosen[a] for b in range(4) if supply[b] and b != a), None)
            if pair is not None:
                a, b = pair
                out.append(
                    replace(
                        self,
                        chosen=replaced(self.chosen, colour, bumped(bumped(chosen, a, -1), b)),
                        supply=replaced(self.supply, colour, bumped(bumped(supply, b, -1), a)),
                    )
                )
        return tuple(out)
