"""The resolution of a selection (URB-ROUND-4): the card is revealed and its action resolved up to
the first decision inside it: an Exploit (URB-EXPLOIT-1..4), an Urbanize (URB-URBANIZE-1..6) or a
Construct (``construction``), or an Exploit in place of a selection no longer legal (URB-CONSTRUCT-3)."""

from __future__ import annotations

from citybuild.core.tuples import bumped, inserted, replaced
from citybuild.games.urbanization.city import neighbours
from citybuild.games.urbanization.construction import Construction
from citybuild.games.urbanization.gains import EXPLOIT, URBANIZE
from citybuild.games.urbanization.position import Floor
from citybuild.games.urbanization.rules import NUMBERS, TILES


class Actions(Construction):
    """Starting the actor's action, and the Exploit and the Urbanize."""

    def start_action(self) -> None:
        """Reveal the actor's selection and resolve it up to its first decision (URB-ROUND-4)."""
        p = self.turn
        move = self.selections[p]
        assert move is not None
        self.selections = replaced(self.selections, p, None)
        card, tile = move.card, move.tile
        if tile is not None and not self.can_select(p, card, tile):
            # URB-CONSTRUCT-3: the tile returns; the card resolves as an Exploit.
            self.tiles = replaced(self.tiles, p, inserted(self.tiles[p], tile))
            tile = None
        if tile is None:
            self.discard = inserted(self.discard, card)  # URB-EXPLOIT-4
            if card >= TILES:
                self.fire(p, EXPLOIT)
                self.pending = "take"  # URB-EXPLOIT-1: chosen now, at resolution
                return
            i = self.building_of(card)
            if i >= 0:  # URB-EXPLOIT-2 (a hand-written position may name no building)
                self.gain(p, card // NUMBERS, len(self.stacks[i]))
            self.fire(p, EXPLOIT)
            self.continue_action()
        elif card >= TILES:
            self._urbanize(p, card, tile)
        else:
            self.construct(p, card, tile)

    def _urbanize(self, p: int, card: int, tile: int) -> None:
        """URB-URBANIZE-2..6."""
        cell = self.tokens[card - TILES]
        assert cell is not None
        self.cells = (*self.cells, cell)
        self.stacks = (*self.stacks, (Floor(tile, p),))
        self.sites = (*self.sites, len(self.cells) - 1)
        self.supply = bumped(self.supply, p, -1)
        utilize_bonus = self.game.rules.utilize_triggers_exploit_bonus
        for stack in neighbours(self.cells, self.stacks, cell):
            self.gain(p, stack[-1].tile // NUMBERS, len(stack))
            if utilize_bonus:
                self.fire(p, EXPLOIT)
        self.fire(p, URBANIZE)
        self.discard = inserted(self.discard, card)
        choices = self.destinations()
        if len(choices) > 1:
            self.pending = "token"  # URB-URBANIZE-3: chosen now, at resolution
            return
        self.move_token(choices[0] if choices else None)
        self.continue_action()
