"""Manhattan's rules, written once: who acts, legal moves, their effects, draws and the end.

Cards are counts per lot index k (MAN-COMP-3), pieces counts per size 1-4, towers 54 stacks
(city * 9 + lot). Every attribute holds an immutable value; a move rebinds the ones it changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from citybuild.core import chance
from citybuild.core.engine import Engine
from citybuild.core.tower import Piece, Tower
from citybuild.core.tuples import added, bumped, is_index, replaced
from citybuild.games.manhattan import scoring
from citybuild.games.manhattan.facts import PositionFacts
from citybuild.games.manhattan.moves import Build, Draw, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.position import ManhattanPosition
from citybuild.games.manhattan.rules import HAND_SIZE, SIZES
from citybuild.games.manhattan.selections import all_selections, random_selection, selection_set, splits_freely
from citybuild.games.manhattan.takeover import takeover_gap, takeover_side

Counts = tuple[int, ...]
BUILD_TRIES = 16
"""Candidates ``random_move`` draws before it lists every build."""
PHASES = ("deal", "select", "build", "draw", "redraw", "over")
NO_PIECES: Counts = (0, 0, 0, 0)


@lru_cache(maxsize=4096)
def _cards_in(hand: Counts) -> tuple[int, ...]:
    """The cards (lot indices) a hand holds at least one of."""
    return tuple(k for k in range(9) if hand[k])


@lru_cache(maxsize=1024)
def _piece_kinds(colour: int, chosen: Counts | None) -> tuple[tuple[int, int], ...]:
    """(colour, size) for each size ``colour`` has an unplaced selected piece of: the pieces
    ``random_move`` draws from. Cached: a colour's unplaced counts take few values."""
    return tuple((colour, s) for s in SIZES if chosen and chosen[s - 1])


@lru_cache(maxsize=1024)
def _sizes_by_need(chosen: Counts) -> tuple[int, ...]:
    """For the unplaced pieces ``chosen`` (counts per size), indexed by the smallest size a build
    needs (0 to 94: a takeover gap is at most the floors of a player's two colours, 2 x 47), the
    sizes that will do, as a bit mask (bit s - 1 for size s)."""
    return tuple(sum(1 << (s - 1) for s in SIZES if chosen[s - 1] and s >= need) for need in range(95))


@lru_cache(maxsize=8192)
def _draw_outcomes(pile: Counts) -> tuple[tuple[Draw, Fraction], ...]:
    """MAN-RAND-1 for a draw pile, as Draw outcomes; cached, as piles recur between positions."""
    return tuple((DRAWS[k], p) for k, p in chance.draw_from_counts(pile))


DRAWS = tuple(Draw(k) for k in range(9))
# Every possible Build value, made once: legal-move lists reuse them instead of allocating.
BUILDS = tuple(
    tuple(tuple(tuple(Build(k, city, colour, size) for size in SIZES) for colour in range(4)) for city in range(6))
    for k in range(9)
)
BUILD_SETS = tuple(
    tuple(
        tuple(tuple(tuple(row[s] for s in range(4) if mask >> s & 1) for mask in range(16)) for row in by_colour)
        for by_colour in by_city
    )
    for by_city in BUILDS
)
"""``BUILD_SETS[k][city][colour][mask]``: the builds of the sizes in ``mask`` (see ``_sizes_by_need``)."""
PASS = Pass()
PIECES = tuple(tuple(Piece(colour, size) for size in SIZES) for colour in range(4))
"""``PIECES[colour][size - 1]``: every piece value, made once, as builds are."""


class ManhattanEngine(ManhattanPosition, PositionFacts, Engine):
    """A Manhattan position and its rules."""

    answers_from_fields = True  # who acts, chance and the end are read off the fields

    # --- legality of one build ------------------------------------------------------------
    def need(self, tower: Tower, colour: int, player: int) -> int:
        """Smallest piece size ``colour`` needs to build on ``tower`` (0 = any size) (MAN-BUILD-4/7)."""
        if not tower:
            return 0
        game = self.game
        me, merge = takeover_side(game.rules, game.players, colour, player)
        return takeover_gap(tower, me, game.rules.takeover_compare, merge)

    # --- who acts, chance, the end ---------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "build":
            return (self.turn,)
        if phase == "select":
            if self.game.rules.selection == "simultaneous_hidden":
                chosen, table = self.chosen, self.game.colour_table
                return tuple(p for p in range(self.game.players) if chosen[table[p][0]] is None)
            return (self.turn,)
        return ()

    @property
    def is_chance(self) -> bool:
        return self.phase in ("deal", "draw", "redraw")

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> tuple[tuple[Draw, Fraction], ...]:
        """MAN-RAND-1: a draw yields k with probability n_k / N from the draw pile."""
        return _draw_outcomes(self.draw) if self.is_chance else ()

    def is_outcome(self, outcome: Any) -> bool:
        return type(outcome) is Draw and is_index(outcome.card, 9) and self.draw[outcome.card] > 0

    def sample_outcome(self, rng: random.Random) -> Draw:
        return DRAWS[chance.sample_counts(self.draw, rng)]

    # --- legal moves -----------------------------------------------------------------------
    def legal_builds(self, player: int) -> tuple[Build, ...]:
        """Every legal build for ``player`` now (MAN-BUILD-2..4), ignoring whose turn it is."""
        if self.phase != "build":
            return ()
        cards = _cards_in(self.hands[player])
        game = self.game
        compare = game.rules.takeover_compare
        towers = self.towers
        out: list[Build] = []
        for colour in game.colour_table[player]:
            chosen = self.chosen[colour]
            if not chosen:
                continue
            by_need = _sizes_by_need(chosen)
            if not by_need[0]:
                continue
            me, merge = takeover_side(game.rules, game.players, colour, player)
            lots = game.lot_table[colour]
            for k in cards:
                sets = BUILD_SETS[k]
                for city, tower in enumerate(towers[lots[k] :: 9]):  # the card's lot in each city
                    mask = by_need[takeover_gap(tower, me, compare, merge)] if tower else by_need[0]
                    if mask:
                        out += sets[city][colour][mask]
        return tuple(out)

    def selections(self, player: int) -> tuple[Select, ...]:
        """MAN-ROUND-1: every selection ``player`` may make."""
        return all_selections(*self._selecting(player))

    def _selecting(self, player: int) -> tuple[tuple[tuple[int, Counts], ...], int, bool]:
        """What ``player``'s selections follow from: their colours' supplies, the pieces per
        round, and whether the colours split freely (``all_selections``' arguments)."""
        colours = self.colours(player)
        supplies = tuple((c, self.supply[c]) for c in colours)
        return supplies, self.per_round, splits_freely(self.game.rules, colours)

    def fallbacks(self, player: int) -> tuple[Redraw | Forfeit | Pass, ...]:
        """MAN-BUILD-8: the moves allowed when no build is legal."""
        rules = self.game.rules
        policy = rules.no_legal_move
        if policy == "pass_keep_piece":
            return (PASS,)
        if policy == "redraw_then_forfeit" and self.redraws < rules.redraw_limit:
            return tuple(Redraw(k) for k in range(9) if self.hands[player][k])
        return tuple(
            Forfeit(colour, s)
            for colour in self.colours(player)
            for s in SIZES
            if (self.chosen[colour] or NO_PIECES)[s - 1]
        )

    def legal_moves(self, player: int) -> Sequence[Any]:
        if self.phase == "select":
            return self.selections(player)
        builds = self.legal_builds(player)
        return builds if builds else self.fallbacks(player)

    def is_legal(self, move: Any, player: int) -> bool:
        kind = type(move)
        if kind is Build:
            return self.phase == "build" and self._can_build(move, player)
        if kind is Select:
            if not (
                self.phase == "select"
                and all(type(c) is int and all(type(s) is int for s in sizes) for c, sizes in move.picks)
            ):
                return False
            try:  # one of ``selections(player)``, looked up in their set
                return move in selection_set(*self._selecting(player))
            except TypeError:  # an unhashable part is no selection
                return False
        if kind is Redraw or kind is Forfeit or kind is Pass:
            fields = (move.card,) if kind is Redraw else (move.colour, move.size) if kind is Forfeit else ()
            return (
                self.phase == "build"
                and all(type(v) is int for v in fields)
                and not self.legal_builds(player)
                and move in self.fallbacks(player)
            )
        return False

    def _can_build(self, move: Build, player: int) -> bool:
        """MAN-BUILD-2..4 for one build, strict about types."""
        k, city, colour, size = move.card, move.city, move.colour, move.size
        if not (
            type(k) is int
            and type(city) is int
            and type(colour) is int
            and type(size) is int
            and 0 <= k < 9
            and 0 <= city < 6
            and 1 <= size <= 4
            and colour in self.game.colour_table[player]
            and self.hands[player][k]
        ):
            return False
        chosen = self.chosen[colour]
        if not chosen or not chosen[size - 1]:
            return False
        return size >= self.need(self.towers[city * 9 + self.game.lot_table[colour][k]], colour, player)

    # --- random play -------------------------------------------------------------------------
    def random_move(self, rng: random.Random, player: int) -> Any:
        """Uniform over the legal moves without listing every build: draw a (card, city, piece)
        candidate uniformly and keep it if legal. Each legal build is one candidate, so accepted
        candidates are uniform; after a few misses the full list decides, which keeps the result
        exactly uniform. A selection picks each colour's multiset uniformly (with
        ``two_colour_split="free"``, one selection of the whole list uniformly, found without
        making the list)."""
        if self.phase == "select":
            colours = self.colours(player)
            supplies = tuple((c, self.supply[c]) for c in colours)
            return random_selection(rng, supplies, self.per_round, splits_freely(self.game.rules, colours))
        game = self.game
        rules, n = game.rules, game.players
        compare = rules.takeover_compare
        cards = _cards_in(self.hands[player])
        chosen = self.chosen
        colours = game.colour_table[player]
        pieces = _piece_kinds(colours[0], chosen[colours[0]])
        for colour in colours[1:]:
            pieces += _piece_kinds(colour, chosen[colour])
        lots = game.lot_table
        towers = self.towers
        draw = rng.random
        n_cards, n_pieces = len(cards), len(pieces)
        for _ in range(BUILD_TRIES):
            k = cards[int(draw() * n_cards)]
            city = int(draw() * 6)
            colour, size = pieces[int(draw() * n_pieces)]
            tower = towers[city * 9 + lots[colour][k]]
            if tower:
                me, merge = takeover_side(rules, n, colour, player)
                if size < takeover_gap(tower, me, compare, merge):
                    continue
            return BUILDS[k][city][colour][size - 1]
        return super().random_move(rng, player)

    def random_step(self, rng: random.Random) -> Any:
        """``Engine.random_step`` with the common cases first: a draw, or the one player to act."""
        phase = self.phase
        if phase == "draw" or phase == "deal" or phase == "redraw":
            outcome = DRAWS[chance.sample_counts(self.draw, rng)]
            self.apply_outcome(outcome)
            return outcome
        if phase == "build" or self.game.rules.selection == "sequential_open":
            move = self.random_move(rng, self.turn)
            self.apply(move, self.turn)
            return move
        return super().random_step(rng)

    def playout(self, rng: random.Random) -> int:
        steps = 0
        while self.phase != "over":
            self.random_step(rng)
            steps += 1
        return steps

    # --- effects -------------------------------------------------------------------------------
    def apply(self, move: Any, player: int) -> None:
        kind = type(move)
        if kind is Build:
            self._build(move, player)
        elif kind is Select:
            self._select(move, player)
        elif kind is Redraw:
            self.hands = replaced(self.hands, player, bumped(self.hands[player], move.card, -1))
            self.discard = bumped(self.discard, move.card, 1)
            self.redraws += 1
            self.phase = "redraw"
            self._reshuffle_if_empty()
        elif kind is Forfeit:
            chosen = self.chosen[move.colour] or NO_PIECES
            self.chosen = replaced(self.chosen, move.colour, bumped(chosen, move.size - 1, -1))
            self.box = replaced(self.box, move.colour, bumped(self.box[move.colour], move.size - 1, 1))
            self.redraws = 0
            self._next_turn(player)
        else:
            self._pass(player)

    def _select(self, move: Select, player: int) -> None:
        chosen = list(self.chosen)
        supply = list(self.supply)
        for colour, sizes in move.picks:
            counts = (sizes.count(1), sizes.count(2), sizes.count(3), sizes.count(4))
            chosen[colour] = counts
            s = supply[colour]
            supply[colour] = (s[0] - counts[0], s[1] - counts[1], s[2] - counts[2], s[3] - counts[3])
        self.chosen = tuple(chosen)
        self.supply = tuple(supply)
        start = self.start_player
        if self.game.rules.selection == "simultaneous_hidden":
            if not self.to_act:
                self._next_turn(start - 1)
            return
        following = (player + 1) % self.game.players
        if following == start:
            self._next_turn(start - 1)
        else:
            self.turn = following

    def _build(self, move: Build, player: int) -> None:
        card, colour, size = move.card, move.colour, move.size
        index = move.city * 9 + self.game.lot_table[colour][card]
        towers = list(self.towers)  # a list edit: twice as fast as replaced() on 54 lots
        towers[index] = (*towers[index], PIECES[colour][size - 1])
        self.towers = tuple(towers)
        # Edits, not cached answers: a cache hit runs fewer instructions but reads memory far
        # from the rest of the step, and costs more time than the edit (measured on playouts).
        self.hands = replaced(self.hands, player, bumped(self.hands[player], card, -1))
        self.discard = bumped(self.discard, card, 1)
        self.chosen = replaced(self.chosen, colour, bumped(self.chosen[colour] or NO_PIECES, size - 1, -1))
        self.phase = "draw"
        self.redraws = self.passes = 0
        self._reshuffle_if_empty()

    def _pass(self, player: int) -> None:
        """MAN-BUILD-8 ``pass_keep_piece``: the player passes and keeps the piece for a later turn.

        Engine decision: when everyone still holding pieces has passed in a row, nobody can ever
        build them this round, so the round ends and those pieces go to the box, unplaced and
        unscored, as a forfeit would. Returning them to the supply instead could repeat the stall
        every round and, with ``rounds="until_supply_empty"``, never end the game."""
        self.passes += 1
        holders = sum(1 for p in range(self.game.players) if self.unplaced(p))
        if self.passes < holders:
            self._next_turn(player)
            return
        box = list(self.box)
        for colour, counts in enumerate(self.chosen):
            if counts:
                box[colour] = added(box[colour], counts)
        self.box = tuple(box)
        self.chosen = (NO_PIECES,) * len(self.chosen)
        self._end_round()

    def _reshuffle_if_empty(self) -> None:
        """MAN-CARD-3: when the draw pile is empty at a draw, every discard returns to it."""
        if not any(self.draw):
            self.draw, self.discard = self.discard, (0,) * 9

    def apply_outcome(self, outcome: Any) -> None:
        k = outcome.card
        player = self.turn
        hand = bumped(self.hands[player], k, 1)
        self.hands = replaced(self.hands, player, hand)
        self.draw = bumped(self.draw, k, -1)
        phase = self.phase
        if phase == "deal":
            if sum(hand) < HAND_SIZE:
                return
            if player + 1 < self.game.players:
                self.turn = player + 1
            else:
                self.phase, self.turn = "select", 0
            return
        if self.game.rules.reshuffle == "eager":
            self._reshuffle_if_empty()
        if phase == "redraw":
            self.phase = "build"
        else:
            self._next_turn(player)

    def _next_turn(self, after: int) -> None:
        """MAN-ROUND-2: the next seat with unplaced selected pieces builds; with none, the round ends."""
        n = self.game.players
        for step in range(1, n + 1):
            player = (after + step) % n
            if self.unplaced(player):
                self.phase, self.turn, self.redraws = "build", player, 0
                return
        self._end_round()

    def _end_round(self) -> None:
        """MAN-ROUND-4..6, MAN-SCORE: score the board, then start the next round or end the game."""
        rules, n = self.game.rules, self.game.players
        items = scoring.round_items(self.towers, rules, n, self.round)
        points = list(self.points)
        for item in items:
            points[item.player] += item.points
        self.points = tuple(points)
        self.ledger = self.ledger + tuple(items)
        self.chosen = (None,) * len(self.chosen)
        self.redraws = self.passes = 0
        if rules.rounds == "until_supply_empty":
            last = not any(any(s) for s in self.supply)
        else:
            last = self.round >= rules.total_rounds(n)
        if last:
            self.phase, self.turn = "over", 0
        else:
            self.phase, self.turn, self.round = "select", self.round % n, self.round + 1
