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
from attrs import evolve as replace

from citybuild.core import position
from citybuild.core.board import Board
from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.tuples import bumped, inserted, removed, replaced
from citybuild.core.verdict import Violation
from citybuild.games.urbanization import explain, scoring
from citybuild.games.urbanization.components import resources_in_city
from citybuild.games.urbanization.engine import UrbanizationEngine
from citybuild.games.urbanization.moves import Select
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
        """Positions that differ from ``self`` only in what ``player`` cannot see (DESIGN principle
        6): the baseline of the declaration (a card of another hand exchanged with one of the draw
        pile) and, for each other player, a tile of their supply exchanged with one of the stack, one
        SP more, their secret selection exchanged with a card of their hand, and during the draft a kept
        character exchanged with one in the box."""
        out = cast(list[UrbanizationState], position.hidden_variants(self, player, UrbanizationPosition))
        stack = self.stack if self.exhaustion == 0 else self.second
        for q in range(self.players):
            if q == player:
                continue
            hand = self.hands[q]
            tiles = self.tiles[q]
            pair = next(((a, b) for a in tiles for b in stack if a != b), None)
            if pair is not None:
                a, b = pair
                new_tiles = replaced(self.tiles, q, inserted(removed(tiles, a), b))
                if self.exhaustion == 0:
                    out.append(replace(self, tiles=new_tiles, stack=inserted(removed(stack, b), a)))
                else:
                    out.append(replace(self, tiles=new_tiles, second=inserted(removed(stack, b), a)))
            if self.phase != "over":  # the screens are lifted at the end
                out.append(replace(self, sp=bumped(self.sp, q, 1)))
            chosen = self.selections[q]
            if chosen is not None and hand:
                other = hand[0]
                tiles_back = (
                    replaced(self.tiles, q, inserted(tiles, chosen.tile)) if chosen.tile is not None else self.tiles
                )
                out.append(
                    replace(
                        self,
                        selections=replaced(self.selections, q, Select(other)),
                        hands=replaced(self.hands, q, inserted(removed(hand, other), chosen.card)),
                        tiles=tiles_back,
                    )
                )
            if self.phase == "draft" and self.chars[q]:
                kept = self.chars[q][0]
                boxed = next((k for k in range(9) if self.pool[k] and k != kept), None)
                if boxed is not None:
                    chars = replaced(self.chars, q, inserted(removed(self.chars[q], kept), boxed))
                    pool = bumped(bumped(self.pool, kept, 1), boxed, -1)
                    out.append(replace(self, chars=chars, pool=pool))
        return tuple(out)
