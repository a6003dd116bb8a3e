"""Manhattan positions: the frozen state, who acts, legality with reasons, and the effects of moves."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core import chance
from citybuild.core.frozen import replace
from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.tower import Piece, Tower, floors_by_colour
from citybuild.core.verdict import Violation
from citybuild.games.manhattan import scoring
from citybuild.games.manhattan.moves import Build, Draw, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import CITY_CODES, COLOUR_LETTERS, HAND_SIZE, SIZES, Rules

if TYPE_CHECKING:
    from citybuild.games.manhattan.game import ManhattanGame

Counts = tuple[int, ...]
BUILD_TRIES = 16
"""Candidates ``random_move`` draws before it lists every build (the playout kernel follows it)."""
PHASES = ("deal", "select", "build", "draw", "redraw", "over")


@lru_cache(maxsize=65536)
def takeover_gap(tower: Tower, me: int, compare: str, merge_players: int) -> int:
    """Smallest piece ``me`` needs to build on ``tower`` (MAN-BUILD-4); 0 when any size will do.

    ``me`` is a colour, or with ``merge_players`` = n a player whose colours count as one
    (MAN-BUILD-7 ``merged``). Cached: towers are immutable and recur from state to state.
    """

    def side(colour: int) -> int:
        return colour % merge_players if merge_players else colour

    top = side(tower[-1].colour)
    if top == me:
        return 0
    floors: dict[int, int] = {}
    for piece in tower:
        key = side(piece.colour)
        floors[key] = floors.get(key, 0) + piece.size
    mine = floors.pop(me, 0)
    target = floors[top] if compare == "owner" else max(floors.values())
    return max(target - mine, 0)


@lru_cache(maxsize=4096)
def _selections(supplies: tuple[tuple[int, Counts], ...], per_round: int) -> tuple[Select, ...]:
    """Every Select for colours with these supplies (MAN-ROUND-1); cached, supplies recur."""
    per_colour = [[(colour, sizes) for sizes in selectable_multisets(supply, per_round)] for colour, supply in supplies]
    if len(per_colour) == 1:
        return tuple(Select.trusted((pick,)) for pick in per_colour[0])
    return tuple(Select.trusted((a, b)) for a in per_colour[0] for b in per_colour[1])


@lru_cache(maxsize=4096)
def selectable_multisets(supply: Counts, per_round: int) -> tuple[tuple[int, ...], ...]:
    """Every sorted multiset of min(per_round, pieces left) sizes that the supply can give."""
    wanted = min(per_round, sum(supply))
    ones, twos, threes, fours = supply
    out = []
    for n1 in range(min(ones, wanted) + 1):
        for n2 in range(min(twos, wanted - n1) + 1):
            for n3 in range(min(threes, wanted - n1 - n2) + 1):
                n4 = wanted - n1 - n2 - n3
                if n4 <= fours:
                    out.append((1,) * n1 + (2,) * n2 + (3,) * n3 + (4,) * n4)
    return tuple(out)


@lru_cache(maxsize=8192)
def _draw_outcomes(pile: Counts) -> tuple[tuple[Draw, Fraction], ...]:
    return tuple((_DRAWS[k], p) for k, p in chance.draw_from_counts(pile))


_DRAWS = tuple(Draw(k) for k in range(9))
# Every possible Build value, made once: legal-move lists reuse them instead of allocating.
_BUILDS = tuple(
    tuple(tuple(tuple(Build(k, city, colour, size) for size in SIZES) for colour in range(4)) for city in range(6))
    for k in range(9)
)


def _index(value: Any, size: int) -> bool:
    """A real int (not a bool or a float that compares equal) in range(size)."""
    return type(value) is int and 0 <= value < size


def _sort_key(value: Any) -> tuple[int, Any]:
    """Sorts ints first, then anything else by its repr, so that bad input can still be shown."""
    return (0, value) if type(value) is int else (1, repr(value))


def _bump(counts: Counts, index: int, by: int) -> Counts:
    return (*counts[:index], counts[index] + by, *counts[index + 1 :])


def _put(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


@attrs.frozen(slots=True)
class ManhattanState(State):
    """A Manhattan position. Cards are stored as counts per lot index k (MAN-COMP-3), pieces as
    counts per size 1-4, towers as 54 stacks (city * 9 + lot).

    ``turn`` is the player to act (or, at a chance state, the player who is drawing).
    ``ledger`` is the itemised history of points; it is not part of equality (a position
    written in notation carries earlier points as one item per player).
    """

    turn_rule = "MAN-ROUND-2"
    end_rule = "MAN-END-1"
    chance_rule = "MAN-RAND-1"

    game: ManhattanGame
    round: int
    phase: str
    turn: int
    towers: tuple[Tower, ...]
    hands: tuple[Counts, ...]
    draw: Counts
    discard: Counts
    supply: tuple[Counts, ...]
    chosen: tuple[Counts | None, ...]
    box: tuple[Counts, ...]
    points: tuple[int, ...]
    redraws: int = 0
    passes: int = 0
    ledger: tuple[ScoreItem, ...] = attrs.field(default=(), eq=False, repr=False)

    # --- derived facts -------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def start_player(self) -> int:
        """MAN-ROUND-5: the round-r start player is seat (r - 1) mod n."""
        return (self.round - 1) % self.players

    def colours(self, player: int) -> tuple[int, ...]:
        return self.game.colour_table[player]

    def unplaced(self, player: int) -> int:
        return sum(sum(c) for c in (self.chosen[col] for col in self.colours(player)) if c)

    def target_lot(self, card: int, colour: int) -> int:
        """The lot (0-8) a card names for this colour's holder (MAN-CARD-1/2)."""
        return self.game.lot_table[colour][card]

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase in ("select", "build"):
            if self.phase == "select" and self.rules.selection == "simultaneous_hidden":
                return tuple(p for p in range(self.players) if self.chosen[self.colours(p)[0]] is None)
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
        if not self.is_chance:
            return ()
        return _draw_outcomes(self.draw)

    def _is_outcome(self, outcome: Any) -> bool:
        return type(outcome) is Draw and _index(outcome.card, 9) and self.draw[outcome.card] > 0

    # --- legality ------------------------------------------------------------------------
    def _takeover_gap(self, tower: Tower, colour: int, player: int) -> int:
        """Smallest piece size ``colour`` needs to build on ``tower`` (0 = any size) (MAN-BUILD-4/7)."""
        if not tower:
            return 0
        rules = self.rules
        if rules.two_colour_legality == "merged":
            return takeover_gap(tower, player, rules.takeover_compare, self.players)
        return takeover_gap(tower, colour, rules.takeover_compare, 0)

    def legal_builds(self, player: int) -> tuple[Build, ...]:
        """Every legal build for ``player`` now (MAN-BUILD-2..4), ignoring whose turn it is."""
        if self.phase != "build":
            return ()
        hand = self.hands[player]
        cards = [k for k in range(9) if hand[k]]
        out: list[Build] = []
        for colour in self.colours(player):
            chosen = self.chosen[colour]
            if not chosen:
                continue
            sizes = [s for s in SIZES if chosen[s - 1]]
            if not sizes:
                continue
            for k in cards:
                lot = self.target_lot(k, colour)
                for city in range(6):
                    need = self._takeover_gap(self.towers[city * 9 + lot], colour, player)
                    out.extend(_BUILDS[k][city][colour][s - 1] for s in sizes if s >= need)
        return tuple(out)

    def has_legal_build(self, player: int) -> bool:
        return bool(self.legal_builds(player))

    def _selections(self, player: int) -> tuple[Select, ...]:
        per_round = self.rules.pieces_per_round[self.players]
        return _selections(tuple((c, self.supply[c]) for c in self.colours(player)), per_round)

    def _fallbacks(self, player: int) -> tuple[Redraw | Forfeit | Pass, ...]:
        """MAN-BUILD-8: the moves allowed when no build is legal."""
        policy = self.rules.no_legal_move
        if policy == "pass_keep_piece":
            return (Pass(),)
        if policy == "redraw_then_forfeit" and self.redraws < self.rules.redraw_limit:
            return tuple(Redraw(k) for k in range(9) if self.hands[player][k])
        return tuple(
            Forfeit(colour, s)
            for colour in self.colours(player)
            for s in SIZES
            if (self.chosen[colour] or (0, 0, 0, 0))[s - 1]
        )

    def random_move(self, rng: random.Random, player: int | None = None) -> Any:
        """Uniform over the legal moves, like the generic sampler, but without listing every build:
        draw a (card, city, piece) candidate uniformly and keep it if legal. Each legal build is one
        candidate, so accepted candidates are uniform; after a few misses (or with no legal build)
        the full list decides, which keeps the result exactly uniform. A selection picks each
        colour's multiset uniformly, and a draw samples the pile's counts directly."""
        if player is not None:
            self.require_player(player)
        if self.is_chance:
            return _DRAWS[chance.sample_counts(self.draw, rng)]
        if self.phase == "select" and ((player is None and len(self.to_act) == 1) or player in self.to_act):
            # Select moves are the product of one multiset per colour: pick each uniformly.
            per_round = self.rules.pieces_per_round[self.players]
            picks = []
            for colour in self.colours(self.to_act[0] if player is None else player):
                options = selectable_multisets(self.supply[colour], per_round)
                picks.append((colour, options[int(rng.random() * len(options))]))
            return Select.trusted(tuple(picks))
        if self.phase == "build" and player in (None, self.turn):
            hand = self.hands[self.turn]
            cards = [k for k in range(9) if hand[k]]
            pieces = [
                (colour, s)
                for colour in self.colours(self.turn)
                for s in SIZES
                if (self.chosen[colour] or (0, 0, 0, 0))[s - 1]
            ]
            for _ in range(BUILD_TRIES):
                k = cards[int(rng.random() * len(cards))]
                city = int(rng.random() * 6)
                colour, size = pieces[int(rng.random() * len(pieces))]
                tower = self.towers[city * 9 + self.game.lot_table[colour][k]]
                if size >= self._takeover_gap(tower, colour, self.turn):
                    return _BUILDS[k][city][colour][size - 1]
        return super().random_move(rng, player)

    def playout(self, rng: random.Random) -> tuple[State, int]:
        """Random play to the end, on the fast kernel of ``manhattan.playout``: the same final
        state, ledger and step count as the generic ``State.playout`` for the same generator."""
        from citybuild.games.manhattan.playout import playout

        return playout(self, rng)

    def _legal_moves(self, player: int) -> tuple[Any, ...]:
        if self.phase == "select":
            return self._selections(player)
        builds = self.legal_builds(player)
        return builds if builds else self._fallbacks(player)

    def _violations(self, move: Any, player: int) -> list[Violation]:
        if isinstance(move, Select):
            return self._select_violations(move, player)
        if isinstance(move, Build):
            return self._build_violations(move, player)
        if isinstance(move, Redraw | Forfeit | Pass):
            return self._fallback_violations(move, player)
        return [Violation("not-a-move", "MAN-ROUND-2", f"{move!r} is not a Manhattan move")]

    def _wrong_phase(self, move: Any, wanted: str) -> list[Violation]:
        if self.phase == wanted:
            return []
        if self.phase == "select":
            return [
                Violation("wrong-phase", "MAN-ROUND-1", f"{move} is not allowed during selection; select pieces first")
            ]
        return [
            Violation(
                "wrong-phase", "MAN-ROUND-1", f"{move} is not allowed now: pieces are selected once, before building"
            )
        ]

    def _select_violations(self, move: Select, player: int) -> list[Violation]:
        out = self._wrong_phase(move, "select")
        if out:
            return out
        colours = self.colours(player)
        picked = tuple(c for c, _ in move.picks)
        if picked != colours or not all(type(c) is int for c in picked):
            mine = ", ".join(COLOUR_LETTERS[c] for c in colours)
            return [Violation("wrong-colours", "MAN-ROUND-1", f"{move} must name exactly P{player}'s colours ({mine})")]
        for colour, sizes in move.picks:
            letter = COLOUR_LETTERS[colour]
            supply = self.supply[colour]
            wanted = min(self.rules.pieces_per_round[self.players], sum(supply))
            if len(sizes) != wanted:
                out.append(
                    Violation(
                        "wrong-count", "MAN-ROUND-1", f"{letter} must select exactly {wanted} pieces, not {len(sizes)}"
                    )
                )
            if not all(type(s) is int for s in sizes):
                out.append(Violation("no-such-size", "MAN-COMP-2", f"piece sizes are whole numbers, not {sizes!r}"))
                continue
            for s in sorted(set(sizes)):
                if not (type(s) is int and s in SIZES):
                    out.append(Violation("no-such-size", "MAN-COMP-2", f"pieces have 1 to 4 floors, not {s!r}"))
                elif sizes.count(s) > supply[s - 1]:
                    out.append(
                        Violation(
                            "not-in-supply",
                            "MAN-ROUND-1",
                            f"{letter} selects {sizes.count(s)} pieces of size {s} but has {supply[s - 1]} in supply",
                        )
                    )
        return out

    def _build_violations(self, move: Build, player: int) -> list[Violation]:
        out = self._wrong_phase(move, "build")
        if out:
            return out
        k, city, colour, size = move.card, move.city, move.colour, move.size
        if not _index(k, 9):
            out.append(Violation("no-such-card", "MAN-COMP-3", f"cards show lot 0 to 8, not {k!r}"))
        elif not self.hands[player][k]:
            hand = "".join(str(c) * n for c, n in enumerate(self.hands[player]))
            out.append(Violation("card-not-in-hand", "MAN-BUILD-2", f"P{player} holds no {k}-card (hand {hand})"))
        if not _index(city, 6):
            out.append(
                Violation("no-such-city", "MAN-COMP-1", f"cities are 0 to 5 ({', '.join(CITY_CODES)}), not {city!r}")
            )
        if not (_index(colour, 4) and colour in self.colours(player)):
            mine = ", ".join(COLOUR_LETTERS[c] for c in self.colours(player))
            named = COLOUR_LETTERS[colour] if _index(colour, 4) else repr(colour)
            out.append(Violation("not-your-colour", "MAN-BUILD-2", f"P{player} plays {mine}, not {named}"))
        elif not (type(size) is int and size in SIZES):
            out.append(Violation("no-such-size", "MAN-COMP-2", f"pieces have 1 to 4 floors, not {size!r}"))
        elif not (self.chosen[colour] or (0, 0, 0, 0))[size - 1]:
            unplaced = self.chosen[colour] or (0, 0, 0, 0)
            left = "".join(str(s) * n for s, n in zip(SIZES, unplaced, strict=True)) or "none"
            out.append(
                Violation(
                    "piece-not-selected",
                    "MAN-BUILD-3",
                    f"{COLOUR_LETTERS[colour]} has no unplaced selected piece of size {size} (left: {left})",
                )
            )
        if out:
            return out
        lot = self.target_lot(k, colour)
        tower = self.towers[city * 9 + lot]
        need = self._takeover_gap(tower, colour, player)
        if size < need:
            top = tower[-1].colour
            floors = floors_by_colour(tower)
            out.append(
                Violation(
                    "takeover-too-small",
                    "MAN-BUILD-4",
                    f"{CITY_CODES[city]}{lot} is owned by {COLOUR_LETTERS[top]} with {floors[top]} floors; "
                    f"{COLOUR_LETTERS[colour]} would have {floors.get(colour, 0)} + {size} = "
                    f"{floors.get(colour, 0) + size}, and needs a piece of at least {need}",
                )
            )
        return out

    def _fallback_violations(self, move: Redraw | Forfeit | Pass, player: int) -> list[Violation]:
        out = self._wrong_phase(move, "build")
        if out:
            return out
        if self.has_legal_build(player):
            return [Violation("must-build", "MAN-BUILD-8", f"P{player} has a legal build, and every turn builds")]
        fields = (
            (move.card,) if isinstance(move, Redraw) else (move.colour, move.size) if isinstance(move, Forfeit) else ()
        )
        if not all(type(v) is int for v in fields):
            return [
                Violation("not-a-move", "MAN-BUILD-8", f"{move!r} names a card, colour or size that is not a number")
            ]
        allowed = self._fallbacks(player)
        if move in allowed:
            return []
        policy = self.rules.no_legal_move
        if isinstance(move, Redraw):
            if policy != "redraw_then_forfeit":
                return [Violation("no-redraw", "MAN-BUILD-8", f"no_legal_move={policy!r} allows no redraw")]
            if self.redraws >= self.rules.redraw_limit:
                return [Violation("redraw-limit", "MAN-BUILD-8", f"{self.redraws} redraws made; now forfeit a piece")]
            return [Violation("card-not-in-hand", "MAN-BUILD-8", f"P{player} holds no {move.card}-card to redraw")]
        if isinstance(move, Forfeit):
            if policy == "pass_keep_piece":
                return [Violation("no-forfeit", "MAN-BUILD-8", "no_legal_move='pass_keep_piece' passes instead")]
            if policy == "redraw_then_forfeit" and self.redraws < self.rules.redraw_limit:
                return [
                    Violation(
                        "redraw-first",
                        "MAN-BUILD-8",
                        f"redraw first ({self.redraws} of {self.rules.redraw_limit} made)",
                    )
                ]
            return [
                Violation("piece-not-selected", "MAN-BUILD-8", f"{move} names no unplaced selected piece of P{player}")
            ]
        return [Violation("no-pass", "MAN-BUILD-8", f"passing is not allowed under no_legal_move={policy!r}")]

    # --- effects -------------------------------------------------------------------------
    def _apply(self, move: Any, player: int) -> ManhattanState:
        if isinstance(move, Select):
            return self._apply_select(move, player)
        if isinstance(move, Build):
            return self._apply_build(move, player)
        if isinstance(move, Redraw):
            return replace(
                self,
                hands=_put(self.hands, player, _bump(self.hands[player], move.card, -1)),
                discard=_bump(self.discard, move.card, 1),
                redraws=self.redraws + 1,
                phase="redraw",
            )._reshuffle_if_empty()
        if isinstance(move, Forfeit):
            chosen = self.chosen[move.colour]
            assert chosen is not None
            state = replace(
                self,
                chosen=_put(self.chosen, move.colour, _bump(chosen, move.size - 1, -1)),
                box=_put(self.box, move.colour, _bump(self.box[move.colour], move.size - 1, 1)),
                redraws=0,
            )
            return state._next_turn(player)
        return self._apply_pass(player)

    def _apply_select(self, move: Select, player: int) -> ManhattanState:
        chosen = list(self.chosen)
        supply = list(self.supply)
        for colour, sizes in move.picks:
            counts = tuple(sizes.count(s) for s in SIZES)
            chosen[colour] = counts
            supply[colour] = tuple(a - b for a, b in zip(supply[colour], counts, strict=True))
        state = replace(self, chosen=tuple(chosen), supply=tuple(supply))
        if self.rules.selection == "simultaneous_hidden":
            if state.to_act:
                return state
            return state._next_turn(self.start_player - 1)
        following = (player + 1) % self.players
        if following == self.start_player:
            return state._next_turn(self.start_player - 1)
        return replace(state, turn=following)

    def _apply_build(self, move: Build, player: int) -> ManhattanState:
        index = move.city * 9 + self.target_lot(move.card, move.colour)
        chosen = self.chosen[move.colour]
        assert chosen is not None
        return replace(
            self,
            towers=_put(self.towers, index, (*self.towers[index], Piece(move.colour, move.size))),
            hands=_put(self.hands, player, _bump(self.hands[player], move.card, -1)),
            discard=_bump(self.discard, move.card, 1),
            chosen=_put(self.chosen, move.colour, _bump(chosen, move.size - 1, -1)),
            phase="draw",
            redraws=0,
            passes=0,
        )._reshuffle_if_empty()

    def _apply_pass(self, player: int) -> ManhattanState:
        """MAN-BUILD-8 ``pass_keep_piece``: the player passes and keeps the piece for a later turn.

        Engine decision: when everyone still holding pieces has passed in a row, nobody can ever
        build them this round, so the round ends and those pieces go to the box, unplaced and
        unscored, as a forfeit would. Returning them to the supply instead could repeat the stall
        every round and, with ``rounds="until_supply_empty"``, never end the game."""
        state = replace(self, passes=self.passes + 1)
        holders = sum(1 for p in range(self.players) if self.unplaced(p))
        if state.passes >= holders:
            box = list(self.box)
            for colour, counts in enumerate(self.chosen):
                if counts:
                    box[colour] = tuple(a + b for a, b in zip(box[colour], counts, strict=True))
            state = replace(state, box=tuple(box), chosen=tuple((0, 0, 0, 0) for _ in self.chosen))
            return state._end_round()
        return state._next_turn(player)

    def _reshuffle_if_empty(self) -> ManhattanState:
        """MAN-CARD-3: when the draw pile is empty at a draw, every discard returns to it."""
        if sum(self.draw) == 0:
            return replace(self, draw=self.discard, discard=(0,) * 9)
        return self

    def _apply_outcome(self, outcome: Any) -> ManhattanState:
        k = outcome.card
        player = self.turn
        state = replace(
            self, hands=_put(self.hands, player, _bump(self.hands[player], k, 1)), draw=_bump(self.draw, k, -1)
        )
        if self.rules.reshuffle == "eager" and self.phase != "deal":
            state = state._reshuffle_if_empty()
        if self.phase == "deal":
            if sum(state.hands[player]) < HAND_SIZE:
                return state
            if player + 1 < self.players:
                return replace(state, turn=player + 1)
            return replace(state, phase="select", turn=0)
        if self.phase == "redraw":
            return replace(state, phase="build")
        return state._next_turn(player)

    def _next_turn(self, after: int) -> ManhattanState:
        """MAN-ROUND-2: the next seat with unplaced selected pieces builds; with none, the round ends."""
        for step in range(1, self.players + 1):
            player = (after + step) % self.players
            if self.unplaced(player):
                return replace(self, phase="build", turn=player, redraws=0)
        return self._end_round()

    def _end_round(self) -> ManhattanState:
        """MAN-ROUND-4..6, MAN-SCORE: score the board, then start the next round or end the game."""
        items = scoring.round_items(self.towers, self.rules, self.players, self.round)
        points = list(self.points)
        for item in items:
            points[item.player] += item.points
        state = replace(
            self,
            ledger=self.ledger + tuple(items),
            points=tuple(points),
            chosen=(None,) * len(self.chosen),
            redraws=0,
            passes=0,
        )
        if self._last_round(state):
            return replace(state, phase="over", turn=0)
        return replace(state, round=self.round + 1, phase="select", turn=self.round % self.players)

    def _last_round(self, state: ManhattanState) -> bool:
        if self.rules.rounds == "until_supply_empty":
            return not any(sum(s) for s in state.supply)
        return self.round >= self.rules.total_rounds(self.players)

    # --- scores, views, text -------------------------------------------------------------
    def round_score(self) -> ScoreSheet:
        """What the board would score if the round ended now, item by item (MAN-SCORE)."""
        return ScoreSheet(self.players, tuple(scoring.round_items(self.towers, self.rules, self.players, self.round)))

    def scores(self) -> ScoreSheet:
        sheet = ScoreSheet(self.players, self.ledger)
        if sheet.totals != self.points:  # a hand-written position: carry the difference
            carried = tuple(
                ScoreItem(p, "carried", self.points[p] - sheet.totals[p], "points before this position")
                for p in range(self.players)
                if self.points[p] != sheet.totals[p]
            )
            sheet = sheet.with_items(carried)
        if not self.is_over:
            return sheet
        winners, tiebreak = scoring.break_ties(self.points, self.towers, self.rules, self.players)
        return attrs.evolve(sheet, winners=winners, tiebreak=tiebreak)

    def hidden_variants(self, player: int) -> tuple[ManhattanState, ...]:
        """Positions that differ from this one only in what ``player`` cannot see: for each other
        player, one card of their hand exchanged with a different card of the draw pile. The test
        kit checks that ``view(player)`` is the same for all of them (DESIGN principle 6)."""
        out = []
        pile = [k for k in range(9) if self.draw[k]]
        for other in range(self.players):
            hand = self.hands[other]
            held = [k for k in range(9) if hand[k]]
            swap = next(((give, take) for give in held for take in pile if give != take), None)
            if other == player or swap is None:
                continue
            give, take = swap
            new_hand = _bump(_bump(hand, give, -1), take, 1)
            out.append(
                replace(
                    self,
                    hands=_put(self.hands, other, new_hand),
                    draw=_bump(_bump(self.draw, take, -1), give, 1),
                )
            )
        return tuple(out)

    def validate(self) -> None:
        from citybuild.games.manhattan.invariants import validate

        validate(self)

    def view(self, player: int) -> Any:
        from citybuild.games.manhattan.view import view_of

        return view_of(self, player)

    def notation(self) -> str:
        from citybuild.games.manhattan.notation import state_text

        return state_text(self)
