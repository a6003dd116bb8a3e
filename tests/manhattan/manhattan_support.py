"""Shared helpers for the Manhattan rules tests (tests/manhattan).

Everything here is written from rules/manhattan.md, not from the engine: the rotation tables of
MAN-CARD-1, the scoring of §6 and the tie-break chain of MAN-END-3 are re-implemented so the
tests can compare the engine against an independent reading of the reference.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import citybuild as cb
from citybuild.core.chance import sample
from citybuild.games.manhattan import Build, Draw, Forfeit, Pass, Redraw, Select

CITIES = ("Syd", "Man", "Fra", "HK", "SP", "Cai")  # MAN-COMP-1, index 0-5
COLOURS = "ABCD"
SIZES = (1, 2, 3, 4)
PIECES = {1: 11, 2: 6, 3: 4, 4: 3}  # MAN-COMP-2
SIDES = "SWNE"  # MAN-SETUP-2: S=0, W=1, N=2, E=3

# MAN-CARD-1, copied from the reference tables.
ROT = {
    "S": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "W": (2, 5, 8, 1, 4, 7, 0, 3, 6),
    "N": (8, 7, 6, 5, 4, 3, 2, 1, 0),
    "E": (6, 3, 0, 7, 4, 1, 8, 5, 2),
}
NEED = {
    "S": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "W": (6, 3, 0, 7, 4, 1, 8, 5, 2),
    "N": (8, 7, 6, 5, 4, 3, 2, 1, 0),
    "E": (2, 5, 8, 1, 4, 7, 0, 3, 6),
}
DEFAULT_SIDES = {2: "SN", 3: "SWN", 4: "SWNE"}

Tower = Sequence[Any]  # bottom-to-top pieces with .colour and .size


# --- games and positions ---------------------------------------------------------------------
@cache
def _load(players: int, preset: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return cb.load("manhattan", players=players, preset=preset, **dict(options))


def game(players: int = 4, preset: str = "standard", **options: Any) -> Any:
    """A loaded game (cached per player count, preset and hashable options)."""
    frozen = tuple(sorted(options.items()))
    if all(_hashable(v) for _, v in frozen):
        return _load(players, preset, frozen)
    return cb.load("manhattan", players=players, preset=preset, **options)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def pos(text: str, players: int | None = None, preset: str = "standard", **options: Any) -> Any:
    """A position from notation; the player count is read from the ``manhattan/<n>`` header."""
    if players is None:
        players = int(text.split()[0].split("/")[1])
    return game(players, preset, **options).parse_state(text)


def seat_position(
    players: int, seat: int, hand: str, chosen: str | None = None, preset: str = "standard", **options: Any
) -> Any:
    """Round 1, building, ``seat`` to move holding ``hand``; the others hold other cards."""
    hands = []
    spare = [k for k in range(9) if str(k) not in hand]
    for p in range(players):
        hands.append(hand if p == seat else str(spare.pop(0)) * 4)
    colours = players * game(players, preset, **options).rules.colours_per_player[players]
    if chosen is None:
        chosen = "/".join(["1"] * colours)
    return build_pos(hands="/".join(hands), chosen=chosen, turn=seat, players=players, preset=preset, **options)


def build_pos(
    towers: str = "-",
    hands: str = "0123/4567/8012/3456",
    chosen: str = "1/1/1/1",
    turn: int = 0,
    round_no: int = 1,
    players: int = 4,
    preset: str = "standard",
    extra: str = "",
    **options: Any,
) -> Any:
    """A building-phase position written in the notation."""
    points = "/".join("0" * players)
    text = (
        f"manhattan/{players} round={round_no} phase=build turn={turn} towers={towers} hands={hands} "
        f"chosen={chosen} points={points} {extra}"
    ).strip()
    return pos(text, players, preset, **options)


def city_lot(city: str, lot: int) -> int:
    return CITIES.index(city) * 9 + lot


def tower(state: Any, city: str, lot: int) -> str:
    """A tower in the reference's bottom-to-top notation, e.g. ``'B3A3'`` ('' = empty lot)."""
    return "".join(f"{COLOURS[p.colour]}{p.size}" for p in state.towers[city_lot(city, lot)])


def height(state: Any, city: str, lot: int) -> int:
    return sum(p.size for p in state.towers[city_lot(city, lot)])


def owner(state: Any, city: str, lot: int) -> str | None:
    t = state.towers[city_lot(city, lot)]
    return COLOURS[t[-1].colour] if t else None


def floors(state: Any, city: str, lot: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in state.towers[city_lot(city, lot)]:
        out[COLOURS[p.colour]] = out.get(COLOURS[p.colour], 0) + p.size
    return out


def hand_text(state: Any, player: int) -> str:
    return "".join(str(k) * n for k, n in enumerate(state.hands[player]))


def card_totals(state: Any) -> tuple[int, int, int]:
    """(draw pile, discard pile, cards in hands)."""
    return sum(state.draw), sum(state.discard), sum(sum(h) for h in state.hands)


def resolve(state: Any, card: int | None = None) -> Any:
    """Resolve a pending draw with ``card`` (or the lowest lot index the draw pile holds)."""
    assert state.is_chance, "no chance event pending"
    outcomes = [o for o, _ in state.chance_outcomes()]
    if card is None:
        return state.play(outcomes[0])
    return state.play(Draw(card))


def build(state: Any, text: str, draw: int | None = None) -> Any:
    """Play a build (or any move) and resolve the following draw, if there is one."""
    state = state.play(text)
    if state.is_chance:
        state = resolve(state, draw)
    return state


def changed_lots(before: Any, after: Any) -> list[tuple[str, int]]:
    return [(CITIES[i // 9], i % 9) for i in range(54) if tuple(before.towers[i]) != tuple(after.towers[i])]


def target_of(state: Any, move: Any) -> tuple[str, int]:
    """The (city, lot) that a build move places its piece on, found by playing it."""
    changed = changed_lots(state, state.play(move))
    assert len(changed) == 1, changed
    return changed[0]


def violation_rules(state: Any, move: Any, player: int | None = None) -> list[str]:
    return [v.rule for v in state.check(move, player).violations]


def unchanged_after_refusal(state: Any, move: Any, player: int | None = None) -> Any:
    """Play a refused move: it must raise IllegalMoveError and leave the state as it was."""
    before = state.notation()
    try:
        state.play(move, player)
    except cb.IllegalMoveError as exc:
        assert state.notation() == before
        return exc
    raise AssertionError(f"{move} was accepted")


# --- independent scoring and tie-break (rules §6, MAN-END-3) ---------------------------------
def spec_round_points(towers: Sequence[Tower], players: int, pts: dict[str, int] | None = None) -> list[int]:
    """The reference's ``score_round`` per colour, summed per player (colour c belongs to c % n)."""
    pts = pts or {"tallest": 3, "majority": 2, "tower": 1}
    per_player = [0] * players
    built = [t for t in towers if t]
    for t in built:
        per_player[t[-1].colour % players] += pts["tower"]
    if built:
        h = max(sum(p.size for p in t) for t in built)
        top = [t for t in built if sum(p.size for p in t) == h]
        if len(top) == 1:
            per_player[top[0][-1].colour % players] += pts["tallest"]
    for city in range(6):
        cnt = Counter(t[-1].colour for t in towers[city * 9 : city * 9 + 9] if t)
        if cnt:
            best = max(cnt.values())
            lead = [c for c, n in cnt.items() if n == best]
            if len(lead) == 1:
                per_player[lead[0] % players] += pts["majority"]
    return per_player


def spec_winners(points: Sequence[int], towers: Sequence[Tower], players: int) -> tuple[int, ...]:
    """MAN-END-2/3 with the 2017 chain."""
    best = max(points)
    tied = [p for p in range(players) if points[p] == best]
    if len(tied) == 1:
        return tuple(tied)
    built = [t for t in towers if t]
    if built:
        h = max(sum(p.size for p in t) for t in built)
        top = [t for t in built if sum(p.size for p in t) == h]
        if len(top) == 1 and top[0][-1].colour % players in tied:
            return (top[0][-1].colour % players,)
    majorities = [0] * players
    for city in range(6):
        cnt = Counter(t[-1].colour for t in towers[city * 9 : city * 9 + 9] if t)
        if cnt:
            best_n = max(cnt.values())
            lead = [c for c, n in cnt.items() if n == best_n]
            if len(lead) == 1:
                majorities[lead[0] % players] += 1
    most = max(majorities[p] for p in tied)
    return tuple(p for p in tied if majorities[p] == most)


# --- independent legality (MAN-BUILD-2/3/4/7, MAN-CARD-1/2) ---------------------------------
def colour_side(rules: Any, colour: int, players: int) -> str:
    """The side a colour reads its cards from, under shared_side seating (MAN-SETUP-2)."""
    return rules.sides[players][colour % players]


def spec_legal_builds(state: Any, compare: str | None = None) -> set[tuple[int, int, int, int]]:
    """Every legal (card, city, colour, size) for the player to act, per the reference; only for
    ``shared_side`` seating (the reference does not say where an own-side colour sits).
    ``compare`` overrides ``takeover_compare``."""
    rules = state.rules
    compare = compare or rules.takeover_compare
    n = state.players
    player = state.to_act[0]
    colours = [player + i * n for i in range(rules.colours_per_player[n])]
    out: set[tuple[int, int, int, int]] = set()
    for colour in colours:
        chosen = state.chosen[colour] or (0, 0, 0, 0)
        side = "S" if rules.card_orientation == "fixed" else colour_side(rules, colour, n)
        for k in range(9):
            if not state.hands[player][k]:
                continue
            lot = ROT[side][k]
            for city in range(6):
                t = state.towers[city * 9 + lot]
                for s in SIZES:
                    if chosen[s - 1] and _spec_may_build(t, colour, s, rules, n, compare):
                        out.add((k, city, colour, s))
    return out


def _spec_may_build(t: Tower, colour: int, size: int, rules: Any, players: int, compare: str) -> bool:
    if not t:
        return True
    top = t[-1].colour
    if rules.two_colour_legality == "merged":
        unit: Callable[[int], int] = lambda c: c % players  # noqa: E731
    else:
        unit = lambda c: c  # noqa: E731
    if unit(top) == unit(colour):
        return True
    fl: dict[int, int] = {}
    for p in t:
        fl[unit(p.colour)] = fl.get(unit(p.colour), 0) + p.size
    mine = fl.pop(unit(colour), 0)
    if compare == "any_colour":  # reaching any one colour already there is enough
        return any(mine + size >= f for f in fl.values())
    ref = fl[unit(top)] if compare == "owner" else max(fl.values())
    return mine + size >= ref


# --- whole games -----------------------------------------------------------------------------
@dataclass
class Turn:
    round: int
    player: int
    move: Any


@dataclass
class GameLog:
    """What happened in one played game."""

    final: Any
    turns: list[Turn] = field(default_factory=list)  # builds and forfeits (a forfeit ends a turn)
    redraws: int = 0
    passes: int = 0
    select_order: dict[int, list[int]] = field(default_factory=dict)  # round -> players in selection order
    first_builder: dict[int, int] = field(default_factory=dict)
    round_points: dict[int, tuple[int, ...]] = field(default_factory=dict)  # points won in each round
    round_boards: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # board at each round's scoring
    states: int = 0

    def turns_in(self, round_no: int, player: int | None = None) -> list[Turn]:
        return [t for t in self.turns if t.round == round_no and (player is None or t.player == player)]

    @property
    def rounds(self) -> int:
        return max(t.round for t in self.turns)


def play_game(
    g: Any,
    seed: int,
    choose: Callable[[Any, tuple[Any, ...], random.Random], Any] | None = None,
    on_state: Callable[[Any], None] | None = None,
    max_steps: int = 20000,
) -> GameLog:
    """Play a whole game: chance outcomes with ``citybuild.core.chance.sample`` and a seeded
    ``random.Random``, moves picked by ``choose`` (default: uniformly among the legal moves)."""
    rng = random.Random(seed)
    state = g.initial_state()
    log = GameLog(final=state)
    for _ in range(max_steps):
        if on_state is not None:
            on_state(state)
        log.states += 1
        if state.is_over:
            log.final = state
            return log
        if state.is_chance:
            nxt = state.play(sample(state.chance_outcomes(), rng))
        else:
            player = state.to_act[0]
            moves = state.legal_moves(player)
            move = choose(state, moves, rng) if choose else rng.choice(moves)
            if isinstance(move, Select):
                log.select_order.setdefault(state.round, []).append(player)
            elif isinstance(move, Build | Forfeit):
                log.first_builder.setdefault(state.round, player)
                log.turns.append(Turn(state.round, player, move))
            elif isinstance(move, Redraw):
                log.redraws += 1
            elif isinstance(move, Pass):
                log.passes += 1
            nxt = state.play(move, player)
        if nxt.is_over or nxt.round != state.round:
            log.round_points[state.round] = tuple(b - a for a, b in zip(state.points, nxt.points, strict=True))
            log.round_boards[state.round] = tuple(tuple(t) for t in nxt.towers)
        state = nxt
    raise AssertionError("the game did not end")


def pieces_on_board(state: Any, colour: int) -> int:
    return sum(1 for t in state.towers for p in t if p.colour == colour)


def count_builds(turns: Iterable[Turn]) -> int:
    return sum(1 for t in turns if isinstance(t.move, Build))
