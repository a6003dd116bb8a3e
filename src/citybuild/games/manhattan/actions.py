"""Manhattan's moves as short sequences of decisions, over 69 fixed action ids (stable across
versions: ``tests/test_numbering.py`` pins them).

========  ===========================  ==============================================
ids       meaning                      used by
========  ===========================  ==============================================
0-8       card k (lot index k)         a build's first decision
9-14      city (Syd Man Fra HK SP Cai)  a build's second decision
15-30     piece: colour c, size s      a build's third: 15 + 4c + (s - 1)
31-39     redraw card k                ``Redraw(k)``, one decision
40-55     forfeit colour c, size s     ``Forfeit(c, s)``: 40 + 4c + (s - 1)
56        pass                         ``Pass()``
57-68     count n (0-11)               a selection: per colour of the player (ascending),
                                       per size 1-4, how many pieces of that size
========  ===========================  ==============================================

A build is card, then city, then piece (3 decisions); a selection is 4 counts per colour (4 or
8 decisions; the last count of a colour is often forced, and is still asked). A chance event
(one card drawn) is one step: chance id k is ``Draw(k)``, with probability n_k / N.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from citybuild.core.actions import Decisions, Steps
from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError
from citybuild.games.manhattan.engine import DRAWS, ManhattanEngine
from citybuild.games.manhattan.moves import Build, Draw, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import CITY_CODES, COLOUR_LETTERS, PIECES_PER_SIZE, SIZES
from citybuild.games.manhattan.selections import pieces_to_take, splits_freely

CARD, CITY, PIECE, REDRAW, FORFEIT, PASS, COUNT = 0, 9, 15, 31, 40, 56, 57
MAX_COUNT = max(PIECES_PER_SIZE)
"""No colour has more than 11 pieces of one size (MAN-COMP-2), so counts run 0-11."""

NAMES: tuple[str, ...] = (
    *(f"card {k}" for k in range(9)),
    *(f"city {code}" for code in CITY_CODES),
    *(f"piece {c}{s}" for c in COLOUR_LETTERS for s in SIZES),
    *(f"redraw {k}" for k in range(9)),
    *(f"forfeit {c}{s}" for c in COLOUR_LETTERS for s in SIZES),
    "pass",
    *(f"count {n}" for n in range(MAX_COUNT + 1)),
)
CHANCE_NAMES: tuple[str, ...] = tuple(f"draw {k}" for k in range(9))


def _piece(colour: int, size: int) -> int:
    return 4 * colour + size - 1


class ManhattanDecisions(Decisions):
    """Builds as card, city, piece; selections as counts per size; fallbacks as one decision."""

    names = NAMES
    chance_names = CHANCE_NAMES
    max_steps = 8

    def steps(self, engine: Engine, player: int, move: Any) -> Steps:
        kind = type(move)
        if kind is Build:
            return (CARD + move.card, CITY + move.city, PIECE + _piece(move.colour, move.size))
        if kind is Redraw:
            return (REDRAW + move.card,)
        if kind is Forfeit:
            return (FORFEIT + _piece(move.colour, move.size),)
        if kind is Pass:
            return (PASS,)
        if kind is Select:
            out: list[int] = []
            for colour in self._colours(engine, player):
                sizes = move.sizes(colour) or ()
                out.extend(COUNT + sizes.count(s) for s in SIZES)
            return tuple(out)
        raise RulesError(f"{move!r} is not a Manhattan move")

    def outcome_steps(self, engine: Engine, outcome: Any) -> Steps:
        return (outcome.card,)

    def chance_options(self, engine: Engine, chosen: Steps) -> tuple[tuple[int, Fraction], ...]:
        if chosen:
            return ()
        return tuple((draw.card, p) for draw, p in engine.chance_outcomes())

    def outcome(self, engine: Engine, chosen: Steps) -> Draw:
        return DRAWS[chosen[0]]

    def longest_game(self) -> int:
        """The deal; per round, every selection and, per piece, a build and its draw, after up to
        ``redraw_limit`` redraws (each with its draw), a forfeit, and a pass by every other seat."""
        rules, n = self.game.rules, self.game.players
        rounds = rules.total_rounds(n)
        pieces = 2 * rules.pieces_per_round[n]  # per colour-holder, at most two colours' worth
        per_piece = 4 + 2 * rules.redraw_limit + 1 + n
        return int(4 * n + rounds * n * (8 + pieces * per_piece))

    @staticmethod
    def _colours(engine: Engine, player: int) -> tuple[int, ...]:
        assert isinstance(engine, ManhattanEngine)
        return engine.colours(player)

    # --- options ----------------------------------------------------------------------------
    def options(self, engine: Engine, player: int, chosen: Steps) -> Steps:
        assert isinstance(engine, ManhattanEngine)
        if engine.phase == "select":
            return self._count_options(engine, player, chosen)
        builds = self._builds(engine, player)
        if not builds:
            if chosen:
                return ()
            return tuple(sorted(self.steps(engine, player, m)[0] for m in engine.fallbacks(player)))
        depth = len(chosen)
        if depth == 0:
            return tuple(sorted({CARD + b.card for b in builds}))
        card = chosen[0] - CARD
        if depth == 1:
            return tuple(sorted({CITY + b.city for b in builds if b.card == card}))
        if depth == 2:
            city = chosen[1] - CITY
            return tuple(
                sorted({PIECE + _piece(b.colour, b.size) for b in builds if b.card == card and b.city == city})
            )
        return ()

    def _builds(self, engine: ManhattanEngine, player: int) -> tuple[Build, ...]:
        """``engine.legal_builds(player)``, remembered for the next decision of the same move: the
        memo holds the (immutable) fields it was worked out from and checks them by identity."""
        memo = self.__dict__.get("_memo")
        key = (engine.towers, engine.hands, engine.chosen, engine.phase, player)
        if memo is not None and all(a is b for a, b in zip(memo[0], key, strict=True)):
            return memo[1]  # type: ignore[no-any-return]
        builds = engine.legal_builds(player)
        self.__dict__["_memo"] = (key, builds)
        return builds

    def _count_options(self, engine: ManhattanEngine, player: int, chosen: Steps) -> Steps:
        """MAN-ROUND-1 as counts: each colour takes min(per round, its supply) pieces, or with
        ``two_colour_split="free"`` both colours together take min(2 x per round, their supply)."""
        colours = engine.colours(player)
        if len(chosen) >= 4 * len(colours):
            return ()
        per_round = engine.per_round
        supplies = [engine.supply[c] for c in colours]
        counts = [a - COUNT for a in chosen]
        step = len(counts)
        which, size = divmod(step, 4)
        if splits_freely(engine.game.rules, colours):
            wanted = pieces_to_take(per_round, *supplies)
            taken = sum(counts)
            later = sum(supplies[which][size + 1 :]) + sum(sum(s) for s in supplies[which + 1 :])
        else:
            wanted = pieces_to_take(per_round, supplies[which])
            taken = sum(counts[4 * which :])
            later = sum(supplies[which][size + 1 :])
        low = max(0, wanted - taken - later)
        high = min(supplies[which][size], wanted - taken)
        return tuple(COUNT + n for n in range(low, high + 1))

    # --- the completed move -------------------------------------------------------------------
    def move(self, engine: Engine, player: int, chosen: Steps) -> Any:
        assert isinstance(engine, ManhattanEngine)
        if engine.phase == "select":
            picks = []
            for i, colour in enumerate(engine.colours(player)):
                counts = [a - COUNT for a in chosen[4 * i : 4 * i + 4]]
                picks.append((colour, tuple(s for s, n in zip(SIZES, counts, strict=True) for _ in range(n))))
            return Select.trusted(tuple(picks))
        first = chosen[0]
        if first < CITY:
            piece = chosen[2] - PIECE
            return Build(first - CARD, chosen[1] - CITY, piece // 4, piece % 4 + 1)
        if first < FORFEIT:
            return Redraw(first - REDRAW)
        if first < PASS:
            return Forfeit((first - FORFEIT) // 4, (first - FORFEIT) % 4 + 1)
        return Pass()
