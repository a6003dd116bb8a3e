"""The characters (URB-SETUP-7, URB-SETUP-8): dealt seat by seat, drafted or kept as dealt, then
the starting items they give."""

from __future__ import annotations

from citybuild.core.tuples import bumped, inserted, merged, removed, replaced
from citybuild.games.urbanization.gains import RESOURCE, SP, Gains


class Draft(Gains):
    """The characters' deal, the draft and the starting items."""

    def characters_dealt(self) -> int:
        """URB-SETUP-7: the characters dealt to each seat: 4 to draft from, or 3 to keep."""
        return 4 if self.game.rules.character_mode == "draft" else 3

    def deal_characters(self, kinds: tuple[int, ...]) -> None:
        """The seat ``turn`` is dealt ``kinds`` from the box; after the last seat, the draft or the items."""
        p = self.turn
        pool = self.pool
        for kind in kinds:
            pool = bumped(pool, kind, -1)
        self.pool = pool
        if self.game.rules.character_mode == "draft":
            self.draft = replaced(self.draft, p, kinds)
        else:
            self.chars = replaced(self.chars, p, kinds)
        if p + 1 < self.game.players:
            self.turn = p + 1
            return
        if self.game.rules.character_mode == "draft":
            self.phase = "draft"
        else:
            self.start_items()

    def pick(self, player: int, kind: int) -> None:
        """URB-SETUP-7: keep ``kind``; once all have picked, pass the rest left, or box the last cards."""
        self.draft = replaced(self.draft, player, removed(self.draft[player], kind))
        self.chars = replaced(self.chars, player, inserted(self.chars[player], kind))
        sizes = {len(d) for d in self.draft}
        if len(sizes) > 1:
            return
        if len(self.chars[0]) >= 3:  # URB-SETUP-7: the last card goes to the box
            pool = self.pool
            for hand in self.draft:
                for left in hand:
                    pool = bumped(pool, left, 1)
            self.pool = pool
            self.draft = ((),) * self.game.players
            self.start_items()
        else:  # pass the rest to the left (seat p + 1), and remember what was passed (URB-RAND-5)
            n = self.game.players
            self.passed_characters = tuple(
                merged(mine, hand) for mine, hand in zip(self.passed_characters, self.draft, strict=True)
            )
            self.draft = tuple(self.draft[(p - 1) % n] for p in range(n))

    def start_items(self) -> None:
        """The starting items, seat by seat from seat 0."""
        self.phase = "items"
        self.turn = 0
        self.give_items(0)
        self.settle()

    def give_items(self, p: int) -> None:
        """URB-SETUP-8: the starting items of ``p``'s characters (URB-CHAR-2)."""
        start = self.game.characters.start
        for kind in self.chars[p]:
            res, sp, tiles = start[kind]
            self.gain(p, RESOURCE, res)
            self.gain(p, SP, sp)
            self.owed += tiles
