"""Urbanization positions: the frozen snapshot of an ``UrbanizationEngine``, with refusals, scores,
views and text. The rules of play are in ``engine``; refusals are explained in ``explain``.

The fields are the engine's (see its docstring for the flow of a game). Cards are numbered 0-71
(a Building card by its tile, colour * 20 + number - 1; letters A-L are 60-71), tiles 0-59,
character types 0-8 (colour * 3 + action), seats 0 to n - 1 clockwise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

import attrs

from citybuild.core.board import Board
from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.verdict import Violation
from citybuild.games.urbanization import explain, scoring
from citybuild.games.urbanization.components import resources_in_city
from citybuild.games.urbanization.engine import UrbanizationEngine
from citybuild.games.urbanization.parts import OfGame
from citybuild.games.urbanization.position import PHASES, Building, Cell, Floor, UrbanizationPosition

__all__ = ["PHASES", "Building", "Floor", "UrbanizationState", "city_board"]


@lru_cache(maxsize=4096)
def city_board(cells: tuple[Cell, ...]) -> Board:
    """The city as a core ``Board``: the buildings' cells with their orthogonal adjacency as a
    networkx graph (URB-COMP-3); cell index i is building i."""
    return Board(cells)


@attrs.frozen(slots=False)
class UrbanizationState(UrbanizationPosition, OfGame, State):
    """An Urbanization position (its fields: ``UrbanizationPosition``), frozen."""

    engine = UrbanizationEngine
    turn_rule = "URB-ROUND-2"
    end_rule = "URB-END-5"
    chance_rule = "URB-RAND-5"

    @property
    def board(self) -> Board:
        """The city as a core grid ``Board`` (networkx adjacency); index i is building i."""
        return city_board(self.cells)

    def _engine_view(self) -> UrbanizationEngine:
        return cast(UrbanizationEngine, self._engine())

    def building_at(self, cell: Cell) -> Building | None:
        """The tile stack on ``cell`` (bottom to top), or None."""
        return self.stacks[self.cells.index(cell)] if cell in self.cells else None

    def destinations(self) -> tuple[Cell, ...]:
        """Where the token of the Urbanize being resolved may go (URB-URBANIZE-3)."""
        return self._engine_view().destinations() if self.pending == "token" else ()

    def resources_in_city(self, player: int) -> int:
        """URB-COMP-4: the resources ``player`` has on buildings (as many as each owned building is tall)."""
        return resources_in_city(self.stacks, player)

    def _violations(self, move: Any, player: int) -> list[Violation]:
        return explain.violations(self._engine_view(), move, player)

    def _not_an_outcome(self, move: Any) -> Violation:
        """A chance outcome that cannot happen, described by the pending event (a layout has 9!
        outcomes: they are never listed for a refusal)."""
        phase = self.phase
        if phase == "layout":
            return Violation("not-an-outcome", "URB-RAND-1", f"{move} is not a layout: the 9 starting tiles, each once")
        if phase == "first":
            return Violation("not-an-outcome", "URB-RAND-5", f"{move} is not a seat of this game")
        if phase == "characters":
            what = f"{self._engine_view().characters_dealt()} character types"
            return Violation("not-an-outcome", "URB-RAND-4", f"{move} is not a deal of {what} left in the box, sorted")
        if phase in ("items", "resolve"):
            return Violation("not-an-outcome", "URB-RAND-2", f"{move} is not a tile of the stack being drawn")
        return Violation("not-an-outcome", "URB-RAND-3", f"{move} is not a card of the draw pile")

    def _malformed_rule(self, move: Any, field: str) -> str:
        if field in ("card", "tile"):
            return "URB-COMP-2"
        if field in ("x", "y"):
            return "URB-COMP-3"
        return super()._malformed_rule(move, field)

    # --- scores, views, text ----------------------------------------------------------------------
    def scores(self) -> ScoreSheet:
        """The final score if the game ended now, item by item (URB-SCORE-1..5); winners once over."""
        return scoring.score_sheet(self, final=self.is_over)

    def hidden_variants(self, player: int) -> tuple[UrbanizationState, ...]:
        from citybuild.games.urbanization.view import hidden_variants

        return hidden_variants(self, player)

    def validate(self) -> None:
        from citybuild.games.urbanization.invariants import validate

        validate(self)

    def view(self, player: int) -> Any:
        from citybuild.games.urbanization.view import view_of

        return view_of(self, player)

    def notation(self) -> str:
        from citybuild.games.urbanization.notation import state_text

        return state_text(self)
