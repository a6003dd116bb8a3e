"""The tile stacks and their exhaustion (URB-GAIN-3, URB-END-1, URB-END-2): tiles are drawn from
the original stack until its draws run out (the first exhaustion), then, once every player has had
the chance to give tiles to a second stack (the contribution step), from that second stack until it
empties (the second exhaustion, which ends the game).

``contribute_due`` is the contribution step owed: set by the first exhaustion during an action, it
closes the stacks until that action ends, and the step then opens (``start_contribution``)."""

from __future__ import annotations

from citybuild.core.tuples import bumped, inserted, removed, replaced
from citybuild.games.urbanization.parts import EnginePart


def contribution_can_be_due(exhaustion: int, phase: str) -> bool:
    """URB-END-1: the contribution step is owed only after the first exhaustion, while the action
    that caused it resolves."""
    return exhaustion == 1 and phase == "resolve"


class Exhaustion(EnginePart):
    """Drawing tiles, the two exhaustions, and the contribution step."""

    def open_stack(self) -> tuple[int, ...] | None:
        """The stack tiles are drawn from now (URB-GAIN-3), or None when none can be drawn."""
        if self.exhaustion == 0:
            return self.stack
        if self.exhaustion == 1 and not self.contribute_due and self.second:
            return self.second
        return None

    def draw_tile(self, tile: int) -> None:
        """The player ``turn`` draws ``tile`` from the open stack."""
        p = self.turn
        self.tiles = replaced(self.tiles, p, inserted(self.tiles[p], tile))
        self.owed -= 1
        if self.exhaustion == 0:
            self.stack = removed(self.stack, tile)
            self.draws_left -= 1
            if self.draws_left == 0:  # URB-END-1: the first exhaustion; the rest of the gain is lost
                self.exhaustion = 1
                self.contribute_due = contribution_can_be_due(self.exhaustion, self.phase)
                self.owed = 0
        else:
            self.second = removed(self.second, tile)
            if not self.second:  # URB-END-2: the second exhaustion
                self.exhaustion = 2
                self.owed = 0
        if self.phase == "items":
            self.settle()
        else:
            self.continue_action()

    def start_contribution(self) -> bool:
        """At the end of an action: open the contribution step if it is due and the game goes on
        (URB-END-1); whether it opened."""
        if not self.contribute_due:
            return False
        self.contribute_due = False
        if self.ending:
            return False
        self.phase = "contribute"
        self.actor = self.turn
        self.turn = self.first
        if not self.tiles[self.turn]:
            self.next_contributor()
        return True

    def give(self, player: int, tile: int) -> None:
        """URB-END-1: ``player`` gives ``tile`` to the second stack for 1 SP."""
        self.tiles = replaced(self.tiles, player, removed(self.tiles[player], tile))
        self.second = inserted(self.second, tile)
        self.given = bumped(self.given, player, 1)
        self.sp = bumped(self.sp, player, 1)
        if not self.tiles[player]:
            self.next_contributor()

    def next_contributor(self) -> None:
        """The next player holding tiles gives; after the last, the round resumes after the actor."""
        n = self.game.players
        nxt = (self.turn + 1) % n
        while nxt != self.first and not self.tiles[nxt]:
            nxt = (nxt + 1) % n
        if nxt != self.first:
            self.turn = nxt
            return
        if not self.second:  # nobody gave a tile: the second exhaustion at once
            self.exhaustion = 2
        self.check_end()
        self.phase = "resolve"
        self.turn = self.actor
        self.next_actor()
