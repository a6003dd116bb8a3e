"""Fast random playouts for Manhattan: the same game as ``State.playout``, several times faster.

Bots (Monte Carlo search) and rule-variant studies play thousands of random games. The generic
playout builds a new frozen state and re-checks every move. This kernel plays the common steps
(card draws, open selections, builds found by ``ManhattanState.random_move``'s sampler) on
mutable lists, consuming the generator exactly as the generic playout does, and hands every
other step (no legal build, hidden selection) to the reference engine. Scoring is the engine's
own. The result, final state, score ledger and step count, is identical to the generic playout
for the same generator; ``tests/properties`` checks that on random seeds, presets and options.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from citybuild.core import chance
from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreItem
from citybuild.core.tower import Piece, Tower
from citybuild.games.manhattan import scoring
from citybuild.games.manhattan.rules import HAND_SIZE, SIZES
from citybuild.games.manhattan.state import BUILD_TRIES, ManhattanState, selectable_multisets, takeover_gap

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame


class _Table:
    """A Manhattan position as mutable lists, for the duration of one playout."""

    def __init__(self, state: ManhattanState) -> None:
        self.game: ManhattanGame = state.game
        self.rules = state.rules
        self.n = state.players
        self.round = state.round
        self.phase = state.phase
        self.turn = state.turn
        self.towers: list[Tower] = list(state.towers)
        self.hands = [list(h) for h in state.hands]
        self.draw = list(state.draw)
        self.discard = list(state.discard)
        self.supply = [list(s) for s in state.supply]
        self.chosen: list[list[int] | None] = [None if c is None else list(c) for c in state.chosen]
        self.box = [list(b) for b in state.box]
        self.points = list(state.points)
        self.redraws = state.redraws
        self.passes = state.passes
        self.ledger: list[ScoreItem] = list(state.ledger)

    def freeze(self) -> ManhattanState:
        return ManhattanState(
            game=self.game,
            round=self.round,
            phase=self.phase,
            turn=self.turn,
            towers=tuple(self.towers),
            hands=tuple(tuple(h) for h in self.hands),
            draw=tuple(self.draw),
            discard=tuple(self.discard),
            supply=tuple(tuple(s) for s in self.supply),
            chosen=tuple(None if c is None else tuple(c) for c in self.chosen),
            box=tuple(tuple(b) for b in self.box),
            points=tuple(self.points),
            redraws=self.redraws,
            passes=self.passes,
            ledger=tuple(self.ledger),
        )

    # --- the effects, as in ManhattanState (MAN-ROUND, MAN-CARD-3, MAN-SCORE) ------------------
    def unplaced(self, player: int) -> int:
        return sum(sum(c) for c in (self.chosen[col] for col in self.game.colour_table[player]) if c)

    def reshuffle_if_empty(self) -> None:
        if not any(self.draw):
            self.draw, self.discard = self.discard, [0] * 9

    def drawn(self, k: int) -> None:
        player = self.turn
        self.hands[player][k] += 1
        self.draw[k] -= 1
        if self.rules.reshuffle == "eager" and self.phase != "deal":
            self.reshuffle_if_empty()
        if self.phase == "deal":
            if sum(self.hands[player]) < HAND_SIZE:
                return
            if player + 1 < self.n:
                self.turn = player + 1
            else:
                self.phase, self.turn = "select", 0
        elif self.phase == "redraw":
            self.phase = "build"
        else:
            self.next_turn(player)

    def selected(self, player: int, picks: list[tuple[int, tuple[int, ...]]]) -> None:
        for colour, sizes in picks:
            counts = [sizes.count(s) for s in SIZES]
            self.chosen[colour] = counts
            self.supply[colour] = [a - b for a, b in zip(self.supply[colour], counts, strict=True)]
        start = (self.round - 1) % self.n
        following = (player + 1) % self.n
        if following == start:
            self.next_turn(start - 1)
        else:
            self.turn = following

    def built(self, k: int, city: int, colour: int, size: int) -> None:
        player = self.turn
        index = city * 9 + self.game.lot_table[colour][k]
        self.towers[index] = (*self.towers[index], Piece(colour, size))
        self.hands[player][k] -= 1
        self.discard[k] += 1
        chosen = self.chosen[colour]
        assert chosen is not None
        chosen[size - 1] -= 1
        self.phase, self.redraws, self.passes = "draw", 0, 0
        self.reshuffle_if_empty()

    def next_turn(self, after: int) -> None:
        for step in range(1, self.n + 1):
            player = (after + step) % self.n
            if self.unplaced(player):
                self.phase, self.turn, self.redraws = "build", player, 0
                return
        self.end_round()

    def end_round(self) -> None:
        items = scoring.round_items(self.towers, self.rules, self.n, self.round)
        for item in items:
            self.points[item.player] += item.points
        self.ledger.extend(items)
        self.chosen = [None] * len(self.chosen)
        self.redraws = self.passes = 0
        if self.rules.rounds == "until_supply_empty":
            last = not any(any(s) for s in self.supply)
        else:
            last = self.round >= self.rules.total_rounds(self.n)
        if last:
            self.phase, self.turn = "over", 0
        else:
            self.phase, self.turn, self.round = "select", self.round % self.n, self.round + 1

    # --- one random step, consuming the generator as ManhattanState.random_move does ------------
    def try_build(self, rng: random.Random) -> bool:
        player = self.turn
        hand = self.hands[player]
        cards = [k for k in range(9) if hand[k]]
        pieces = [
            (colour, s)
            for colour in self.game.colour_table[player]
            for s in SIZES
            if (self.chosen[colour] or (0, 0, 0, 0))[s - 1]
        ]
        merged = self.rules.two_colour_legality == "merged"
        compare = self.rules.takeover_compare
        lots = self.game.lot_table
        for _ in range(BUILD_TRIES):
            k = cards[int(rng.random() * len(cards))]
            city = int(rng.random() * 6)
            colour, size = pieces[int(rng.random() * len(pieces))]
            tower = self.towers[city * 9 + lots[colour][k]]
            if not tower:
                need = 0
            elif merged:
                need = takeover_gap(tower, player, compare, self.n)
            else:
                need = takeover_gap(tower, colour, compare, 0)
            if size >= need:
                self.built(k, city, colour, size)
                return True
        return False


def playout(state: ManhattanState, rng: random.Random) -> tuple[State, int]:
    """Random play to the end from ``state``; the same result as the generic ``State.playout``."""
    table = _Table(state)
    sequential = table.rules.selection == "sequential_open"
    steps = 0
    while table.phase != "over":
        phase = table.phase
        if phase in ("deal", "draw", "redraw"):
            table.drawn(chance.sample_counts(table.draw, rng))
        elif phase == "select" and sequential:
            per_round = table.rules.pieces_per_round[table.n]
            picks = []
            for colour in table.game.colour_table[table.turn]:
                options = selectable_multisets(tuple(table.supply[colour]), per_round)
                picks.append((colour, options[int(rng.random() * len(options))]))
            table.selected(table.turn, picks)
        elif phase == "build" and table.try_build(rng):
            pass
        else:
            # A rare step (no legal build found by sampling, or hidden selection): the reference
            # engine decides, from the point the sampler stopped, exactly as the generic path would.
            frozen = table.freeze()
            after = frozen.play(State.random_move(frozen, rng)) if phase == "build" else frozen.random_step(rng)
            table = _Table(cast(ManhattanState, after))
        steps += 1
    return table.freeze(), steps
