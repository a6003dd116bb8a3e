"""What one Manhattan player may know: everything but other players' hands (and, under hidden
selection, other players' choices until everyone has chosen)."""

from __future__ import annotations

from typing import Any

import attrs

from citybuild.core.svg import Pictured
from citybuild.core.tower import Tower
from citybuild.core.view import View
from citybuild.games.manhattan.state import ManhattanState

Counts = tuple[int, ...]


@attrs.frozen
class ManhattanView(View, Pictured):
    """A player's view. Other hands are ``None`` (with their sizes in ``hand_sizes``); the draw
    pile shows only its size, since its make-up would reveal the hidden hands. ``game`` is the
    game whose rules the view is read under (so that ``legal_moves()`` and
    ``game.determinize(view, rng)`` know them)."""

    player: int
    round: int
    phase: str
    turn: int
    to_act: tuple[int, ...]
    towers: tuple[Tower, ...]
    hands: tuple[Counts | None, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    discard: Counts
    supply: tuple[Counts, ...]
    chosen: tuple[Counts | str | None, ...]
    box: tuple[Counts, ...]
    points: tuple[int, ...]
    redraws: int
    passes: int = 0
    game: Any = attrs.field(default=None, kw_only=True, repr=False)

    def notation(self) -> str:
        from citybuild.games.manhattan.notation import view_text

        return view_text(self)

    def validate(self) -> None:
        """Raise ``InvalidStateError`` if no position could give this view (for views read from
        JSON): the invariants of a position that hold under every option, on what the view shows."""
        from citybuild.games.manhattan.invariants import validate_view

        validate_view(self)

    def __str__(self) -> str:
        return self.notation()


def view_of(state: ManhattanState, player: int) -> ManhattanView:
    rules = state.rules
    n = state.players
    state.require_player(player)
    supply = list(state.supply)
    chosen: list[Counts | str | None] = list(state.chosen)
    if state.phase == "select" and rules.selection == "simultaneous_hidden":
        mine = rules.colours_of(player, n)
        for colour, counts in enumerate(state.chosen):
            if colour not in mine and counts is not None:
                supply[colour] = tuple(a + b for a, b in zip(state.supply[colour], counts, strict=True))
                chosen[colour] = "?"
    return ManhattanView(
        player=player,
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        to_act=state.to_act,
        towers=state.towers,
        hands=tuple(h if p == player else None for p, h in enumerate(state.hands)),
        hand_sizes=tuple(sum(h) for h in state.hands),
        draw_size=sum(state.draw),
        discard=state.discard,
        supply=tuple(supply),
        chosen=tuple(chosen),
        box=state.box,
        points=state.points,
        redraws=state.redraws,
        passes=state.passes,
        game=state.game,
    )
