"""The flow of the rounds: the end of an action and the next actor (URB-ROUND-4), the end of the
game (URB-END-2..5, URB-RAND-6), phase 3's passing and drawing (URB-ROUND-5..8, with the reshuffle),
phase 1's New Hand tokens (URB-ROUND-1), and the forced steps of the setup's draws, all played at
once so that a position is always a decision, a chance event or the end."""

from __future__ import annotations

from citybuild.core.tuples import bumped, merged, replaced
from citybuild.games.urbanization.draft import Draft
from citybuild.games.urbanization.exhaustion import Exhaustion
from citybuild.games.urbanization.resolution import Actions
from citybuild.games.urbanization.rules import HAND_SIZE


class Rounds(Actions, Draft, Exhaustion):
    """From one action to the next, from one round to the next, and the setup's forced steps."""

    def continue_action(self) -> None:
        """After the actor's decisions: draw the tiles owed, then end the action."""
        if self.owed and self.open_stack():
            return
        self.owed = 0
        self.check_end()
        if not self.start_contribution():
            self.next_actor()

    def check_end(self) -> None:
        """URB-END-2..4: the second exhaustion, or a player with every resource in the city."""
        triggered = self.exhaustion == 2
        if not triggered:  # a loop, not any(): this runs at the end of every action
            for s, r in zip(self.supply, self.reserve, strict=True):
                if s == 0 and r == 0:
                    triggered = True
                    break
        self.ending = (self.ending or triggered) if self.game.rules.end_trigger_latches else triggered

    def next_actor(self) -> None:
        """The next player in turn order resolves; after the last, the game ends or phase 3 comes."""
        if self.ending and self.game.rules.end_timing == "immediate":  # URB-END-5
            self._game_over()
            return
        nxt = (self.turn + 1) % self.game.players
        if nxt != self.first:
            self.turn = self.actor = nxt
            self.start_action()
            return
        if self.ending or self.round >= self.game.rules.max_rounds:  # URB-END-5, URB-RAND-6
            self._game_over()
            return
        self._prepare()

    def _game_over(self) -> None:
        self.phase = "over"
        self.pending = ""
        self.owed = 0

    def _prepare(self) -> None:
        """URB-ROUND-5..7: pass the piles left, new buildings join the deck, draw back to 4."""
        n = self.game.players
        self.passed = self.hands
        self.hands = tuple(self.hands[(p - 1) % n] for p in range(n))
        self.first = (self.first + 1) % n
        new_cards = [self.stacks[i][-1].tile for i in self.sites]
        if self.game.rules.new_card_insertion == "shuffle_into_draw":
            self.draw = merged(self.draw, new_cards)
        else:
            self.discard = merged(self.discard, new_cards)
        self.sites = ()
        self.phase = "draw"
        self.turn = self.first
        self.owed = 1
        self.settle()

    def _start_round(self) -> None:
        self.round += 1
        self.phase = "newhand"
        self.used = (0,) * self.game.players
        self.turn = self.first
        self.owed = 0

    def may_renew(self, player: int) -> bool:
        """URB-ROUND-1: ``player`` has a New Hand token left and has not spent this round's limit."""
        return self.newhand[player] > 0 and self.used[player] < self.game.rules.new_hand_per_round

    def renew(self, player: int) -> None:
        """URB-ROUND-1: ``player`` spends a New Hand token: the hand is discarded and 4 cards drawn."""
        self.discard = merged(self.discard, self.hands[player])
        self.hands = replaced(self.hands, player, ())
        self.newhand = bumped(self.newhand, player, -1)
        self.used = bumped(self.used, player, 1)
        self.owed = HAND_SIZE
        self.settle()

    def next_renewal(self) -> None:
        """The next player in turn order decides on a New Hand; after the last, phase 2 (URB-ROUND-2)."""
        nxt = (self.turn + 1) % self.game.players
        if nxt == self.first:
            self.phase = "choose"  # URB-ROUND-2
        else:
            self.turn = nxt

    def settle(self) -> None:
        """Play the forced steps until a decision, a chance event or the end."""
        while True:
            phase = self.phase
            if phase in ("deal", "draw", "newhand"):
                if self.owed:
                    if not self.draw and self.discard:  # URB-ROUND-8: reshuffle
                        self.draw, self.discard = self.discard, ()
                    if self.draw:
                        return
                    self.owed = 0
                if phase == "newhand":
                    if self.may_renew(self.turn):
                        return
                    self.next_renewal()
                    continue
                nxt = (self.turn + 1) % self.game.players
                if nxt == self.first:
                    self._start_round()
                    continue
                self.turn = nxt
                self.owed = HAND_SIZE if phase == "deal" else 1
                continue
            if phase == "discard":
                if self.owed and self.draw:
                    return
                self.owed = 0
                self.phase = "characters"
                self.turn = 0
                return
            if phase == "items":
                if self.owed and self.open_stack():
                    return
                self.owed = 0  # URB-GAIN-3: a shortfall is lost
                if self.turn + 1 < self.game.players:
                    self.turn += 1
                    self.give_items(self.turn)
                    continue
                self.phase = "first"
                self.turn = 0
                return
            return
