"""What one Manhattan player may know: everything but other players' hands (and, under hidden
selection, other players' choices until everyone has chosen)."""

from __future__ import annotations

from typing import Any

import attrs

from citybuild.core.decide import View
from citybuild.core.errors import InvalidStateError
from citybuild.core.tower import Tower
from citybuild.games.manhattan.state import ManhattanState

Counts = tuple[int, ...]


@attrs.frozen
class ManhattanView(View):
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
        """Raise ``InvalidStateError`` if this view could not come from a real position (for views
        read from JSON): consistent sizes, the viewer's own hand only, counts in range."""
        n = len(self.hand_sizes)
        problems = []
        if not (2 <= n <= 4 and 0 <= self.player < n and len(self.hands) == n and len(self.points) == n):
            problems.append("players, hands and points disagree in size")
        elif any((h is None) != (p != self.player) for p, h in enumerate(self.hands)):
            problems.append(f"a view shows exactly its own player's hand (P{self.player})")
        else:
            own = self.hands[self.player]
            if (
                own is None
                or len(own) != 9
                or any(not 0 <= c <= 5 for c in own)
                or sum(own) != self.hand_sizes[self.player]
            ):
                problems.append("the viewer's hand must be 9 counts of 0-5 adding up to its hand size")
            if any(not 0 <= size <= 4 for size in self.hand_sizes):
                problems.append("hands hold 0 to 4 cards")
            if not 0 <= self.draw_size <= 45 or len(self.discard) != 9 or any(not 0 <= c <= 5 for c in self.discard):
                problems.append("the draw pile and the discards must fit in the 45-card deck")
            elif self.draw_size + sum(self.discard) + sum(self.hand_sizes) != 45:
                problems.append("draw pile, discards and hands must add up to 45 cards")
        colours = len(self.supply)
        if len(self.towers) != 54:
            problems.append("the board has 54 lots")
        elif any(not (0 <= p.colour < colours and 1 <= p.size <= 4) for tower in self.towers for p in tower):
            problems.append(f"tower pieces have colours 0-{colours - 1} and sizes 1-4")
        if not 2 <= colours <= 4 or len(self.chosen) != colours or len(self.box) != colours:
            problems.append("supply, chosen and box need one entry per colour")
        elif any(len(c) != 4 for c in (*self.supply, *self.box)) or any(
            not (c is None or c == "?" or (isinstance(c, tuple) and len(c) == 4)) for c in self.chosen
        ):
            problems.append("supplies, selections and boxes are 4 counts (sizes 1-4)")
        if problems:
            raise InvalidStateError("; ".join(problems), "MAN-COMP-3")

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
