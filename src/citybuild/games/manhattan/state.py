"""Manhattan positions: the frozen snapshot of a ``ManhattanEngine``, with scores, views and text.

The rules of play are in ``engine``; refusals are explained in ``explain``.
"""

from __future__ import annotations

from typing import Any, cast

import attrs
from attrs import evolve as replace

from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.tuples import bumped, replaced
from citybuild.core.verdict import Violation
from citybuild.games.manhattan import explain, scoring
from citybuild.games.manhattan.engine import PHASES, ManhattanEngine
from citybuild.games.manhattan.facts import PositionFacts
from citybuild.games.manhattan.moves import Build
from citybuild.games.manhattan.position import ManhattanPosition

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
        winners, tiebreak = scoring.break_ties(self.points, self.towers, self.rules, self.players)
        return attrs.evolve(sheet, winners=winners, tiebreak=tiebreak)

    def hidden_variants(self, player: int) -> tuple[ManhattanState, ...]:
        """Positions that differ from this one only in what ``player`` cannot see: for each other
        player, one card of their hand exchanged with a different card of the draw pile. The test
        kit checks that ``view(player)`` is the same for all of them (DESIGN principle 6)."""
        out = []
        pile = [k for k in range(9) if self.draw[k]]
        for other in range(self.players):
            hand = self.hands[other]
            held = [k for k in range(9) if hand[k]]
            swap = next(((give, take) for give in held for take in pile if give != take), None)
            if other == player or swap is None:
                continue
            give, take = swap
            new_hand = bumped(bumped(hand, give, -1), take, 1)
            out.append(
                replace(
                    self,
                    hands=replaced(self.hands, other, new_hand),
                    draw=bumped(bumped(self.draw, take, -1), give, 1),
                )
            )
        return tuple(out)

    def validate(self) -> None:
        from citybuild.games.manhattan.invariants import validate

        validate(self)

    def view(self, player: int) -> Any:
        from citybuild.games.manhattan.view import view_of

        return view_of(self, player)

    def notation(self) -> str:
        from citybuild.games.manhattan.notation import state_text

        return state_text(self)
