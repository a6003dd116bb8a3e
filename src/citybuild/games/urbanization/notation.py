"""Urbanization's text notation for moves and whole positions (documented in docs/games/urbanization.md).

A position is one line of ``key=value`` fields after an ``urbanization/<players>`` header::

    urbanization/2 phase=choose city=1,1:R1.Y5.R7+P1x3 supply=2/0 hands=R7/E

Cards are named by their tile (``R7``) or letter (``E``), tiles ``R7``, characters by colour and
action (``BE``: a blue Exploit character). Per-player fields hold one entry per player separated by
``/``; lists inside an entry are joined by ``.``; ``-`` is an empty list or nothing. A building is
``x,y:`` its tiles bottom to top, ``+P<seat>x<resources>`` if owned, and ``!`` if it is a
Construction Site; buildings are separated by ``;``. Omitted fields take their start-of-game values
(the canonical test city, tokens on their starting cells, 2 New Hand tokens, nothing in hand); the
reserve, the character box, the draw pile (or, when the draw pile is given, the discard pile) and the
tile stack default to whatever the other fields leave, so a test writes a position in a line or two.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.errors import InvalidStateError, NotationError
from citybuild.core.notation import excerpt, parse_fields, parse_int, split_fields
from citybuild.games.urbanization.components import (
    cards_in_play,
    characters_in_box,
    draws_allowed,
    reserve_left,
    resources_in_city,
    tiles_out_of_stacks,
)
from citybuild.games.urbanization.moves import (
    Select,
)
from citybuild.games.urbanization.position import PENDING, PHASES, Building, Cell, Floor
from citybuild.games.urbanization.rules import (
    CANONICAL_CITY,
    LETTERS,
    NEW_HAND_TOKENS,
    START_CELLS,
    TILES,
    TOKEN_CELLS,
    card_name,
    character_name,
    tile_name,
)
from citybuild.games.urbanization.state import UrbanizationState
from citybuild.games.urbanization.words import (
    cell_text,
    list_text,
    read_card,
    read_cell,
    read_kind,
    read_list,
    read_tile,
)

if TYPE_CHECKING:
    from citybuild.games.urbanization.game import UrbanizationGame
    from citybuild.games.urbanization.view import UrbanizationView

_BUILDING = re.compile(r"(?P<cell>[^:]+):(?P<tiles>[^+!]*)(?:\+P(?P<owner>[0-9]+)x(?P<res>[0-9]+))?(?P<site>!)?")

KEYS = (
    "round", "phase", "turn", "actor", "pending", "owed", "first", "city", "tokens", "reserve", "supply", "boxed",
    "sp", "tiles", "newhand", "used", "hands", "sel", "tableau", "chars", "draft", "passed", "cpassed", "given",
    "pool", "draw", "discard", "stack", "left", "second", "exhaustion", "due", "ending",
)  # fmt: skip


def _building(cells: tuple[Cell, ...], stacks: tuple[Building, ...], sites: tuple[int, ...], i: int) -> str:
    stack = stacks[i]
    text = f"{cell_text(cells[i])}:" + ".".join(tile_name(f.tile) for f in stack)
    if stack[-1].owner is not None:
        text += f"+P{stack[-1].owner}x{len(stack)}"
    return text + ("!" if i in sites else "")


def _selection(sel: Select | None) -> str:
    if sel is None:
        return "-"
    return card_name(sel.card) + ("" if sel.tile is None else "+" + tile_name(sel.tile))


def state_text(state: UrbanizationState) -> str:
    """The whole position on one line; ``parse_state`` reads it back to an equal state."""
    n = state.players

    def per(values: Any, show: Any = str) -> str:
        return "/".join(show(v) for v in values)

    city, tokens = _city_and_tokens(state)
    fields = [
        f"urbanization/{n}",
        f"round={state.round}",
        f"phase={state.phase}",
        f"turn={state.turn}",
        f"actor={state.actor}",
        f"pending={state.pending or '-'}",
        f"owed={state.owed}",
        f"first={state.first}",
        f"city={city}",
        f"tokens={tokens}",
        f"reserve={per(state.reserve)}",
        f"supply={per(state.supply)}",
        f"boxed={per(state.boxed)}",
        f"sp={per(state.sp)}",
        f"tiles={per(state.tiles, lambda t: list_text(t, tile_name))}",
        f"newhand={per(state.newhand)}",
        f"used={per(state.used)}",
        f"hands={per(state.hands, lambda h: list_text(h, card_name))}",
        f"sel={per(state.selections, _selection)}",
        f"tableau={per(state.tableau, lambda h: list_text(h, card_name))}",
        f"chars={per(state.chars, lambda h: list_text(h, character_name))}",
        f"draft={per(state.draft, lambda h: list_text(h, character_name))}",
        f"passed={per(state.passed, lambda h: list_text(h, card_name))}",
        f"cpassed={per(state.passed_characters, lambda h: list_text(h, character_name))}",
        f"given={per(state.given)}",
        f"pool={'.'.join(str(c) for c in state.pool)}",
        f"draw={list_text(state.draw, card_name)}",
        f"discard={list_text(state.discard, card_name)}",
        f"stack={list_text(state.stack, tile_name)}",
        f"left={state.draws_left}",
        f"second={list_text(state.second, tile_name)}",
        f"exhaustion={state.exhaustion}",
        f"due={int(state.contribute_due)}",
        f"ending={int(state.ending)}",
    ]
    return " ".join(fields)


def _read_city(text: str) -> tuple[tuple[Cell, ...], tuple[Building, ...], tuple[int, ...]]:
    where = "city"
    if text == "-":
        return (), (), ()
    cells: list[Cell] = []
    stacks: list[Building] = []
    sites: list[int] = []
    for entry in text.split(";"):
        match = _BUILDING.fullmatch(entry)
        if not match or not match.group("tiles"):
            raise NotationError(
                f"expected a building x,y:TILES[+P<seat>x<resources>][!] (e.g. 0,0:B2.B7+P1x2), got {excerpt(entry)}",
                where,
            )
        cell = read_cell(match.group("cell"), where)
        tiles = [read_tile(t, where) for t in match.group("tiles").split(".")]
        owner = None
        if match.group("owner") is not None:
            owner = parse_int(match.group("owner"), where + " owner", 0, 4)
            resources = parse_int(match.group("res"), where + " resources", 0, 60)
            if resources != len(tiles):
                raise InvalidStateError(
                    f"the building on {cell_text(cell)} is {len(tiles)} tiles tall but carries {resources} resources; "
                    "an owned building carries as many of its owner's resources as its height",
                    "URB-COMP-7",
                )
        floors = (*(Floor(t) for t in tiles[:-1]), Floor(tiles[-1], owner))
        if match.group("site"):
            sites.append(len(cells))
        cells.append(cell)
        stacks.append(floors)
    return tuple(cells), tuple(stacks), tuple(sites)


def _canonical_city() -> tuple[tuple[Cell, ...], tuple[Building, ...]]:
    return START_CELLS, tuple((Floor(read_tile(t, "city")),) for t in CANONICAL_CITY)


def _read_tokens(text: str, cells: tuple[Cell, ...]) -> tuple[Cell | None, ...]:
    """Tokens given as LETTER:x,y or LETTER:- (left the game); a token not given is on its starting
    cell, or out of the game if a building of the written city stands there."""
    tokens: list[Cell | None] = [c if c not in cells else None for c in TOKEN_CELLS]
    seen: set[str] = set()
    for entry in text.split(";") if text else ():
        letter, colon, place = entry.partition(":")
        if not colon or letter not in LETTERS or len(letter) != 1:
            raise NotationError(f"expected a token LETTER:x,y or LETTER:- (e.g. D:3,1), got {excerpt(entry)}", "tokens")
        if letter in seen:
            raise NotationError(f"token {letter} is given twice", "tokens")
        seen.add(letter)
        tokens[LETTERS.index(letter)] = None if place == "-" else read_cell(place, "tokens")
    return tuple(tokens)


@attrs.frozen
class _Fields:
    """The ``key=value`` fields of a position's text, each read with the default of an omitted one."""

    values: dict[str, str]
    players: int

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def number(self, key: str, default: int, low: int = 0, high: int = 10**6) -> int:
        return parse_int(self.values[key], key, low, high) if key in self.values else default

    def per_int(self, key: str, default: int, low: int = 0, high: int = 10**6) -> tuple[int, ...]:
        if key not in self.values:
            return (default,) * self.players
        return tuple(parse_int(v, key, low, high) for v in split_fields(self.values[key], self.players, key))

    def per_list(self, key: str, reader: Any) -> tuple[tuple[int, ...], ...]:
        if key not in self.values:
            return ((),) * self.players
        return tuple(read_list(v, reader, key) for v in split_fields(self.values[key], self.players, key))

    def listed(self, key: str, reader: Any) -> tuple[int, ...]:
        return read_list(self.values[key], reader, key) if key in self.values else ()


def parse_state(game: UrbanizationGame, text: str) -> UrbanizationState:
    """A position from its text (see the module docstring); ``NotationError`` for text that cannot
    be read, ``InvalidStateError`` for a position that breaks an invariant of the game."""
    n = game.players
    f = _Fields(parse_fields(text, f"urbanization/{n}", KEYS), n)
    phase = f.values.get("phase", "choose")
    if phase not in PHASES:
        raise NotationError(f"unknown phase {excerpt(phase)}; phases are {', '.join(PHASES)}", "phase")
    pending = f.values.get("pending", "-")
    pending = "" if pending == "-" else pending
    if pending not in PENDING:
        raise NotationError(f"unknown pending decision {excerpt(pending)}; expected take, token or -", "pending")
    first = f.number("first", 0, 0, n - 1)
    turn = f.number("turn", first, 0, n - 1)
    board = _board_fields(f)
    people = _player_fields(game, f, board["stacks"])
    piles = _pile_fields(game, f, phase, board, people)
    try:
        state = UrbanizationState(
            game=game,
            round=f.number("round", 1, 0, 999),
            phase=phase,
            turn=turn,
            actor=f.number("actor", turn, 0, n - 1),
            pending=pending,
            owed=f.number("owed", 0, 0, 99),
            first=first,
            **board,
            **people,
            **piles,
            contribute_due=f.number("due", 0, 0, 1) == 1,
            ending=f.number("ending", 0, 0, 1) == 1,
        )
    except (TypeError, ValueError) as exc:  # pragma: no cover - every field was read above
        raise NotationError(f"cannot build the position: {exc}") from exc
    state.validate()
    return state


def _board_fields(f: _Fields) -> dict[str, Any]:
    """The city: its cells, buildings and sites (the starting city when none is written), and the tokens."""
    if "city" in f:
        cells, stacks, sites = _read_city(f.values["city"])
    else:
        (cells, stacks), sites = _canonical_city(), ()
    return {"cells": cells, "stacks": stacks, "sites": sites, "tokens": _read_tokens(f.values.get("tokens", ""), cells)}


def _player_fields(game: UrbanizationGame, f: _Fields, stacks: Any) -> dict[str, Any]:
    """Each player's items, cards, choices and characters; a reserve not written is what the
    resources elsewhere leave, a pool not written the characters no one holds."""
    n = game.players
    supply = f.per_int("supply", 0)
    boxed = f.per_int("boxed", 0)
    selections: tuple[Select | None, ...] = (None,) * n
    if "sel" in f:
        selections = tuple(_read_selection(v) for v in split_fields(f.values["sel"], n, "sel"))
    chars = f.per_list("chars", read_kind)
    draft = f.per_list("draft", read_kind)
    if "reserve" in f:
        reserve = f.per_int("reserve", 0)
    else:
        reserve = tuple(
            reserve_left(game.resources, supply[p], boxed[p], resources_in_city(stacks, p)) for p in range(n)
        )
    return {
        "reserve": reserve,
        "supply": supply,
        "boxed": boxed,
        "sp": f.per_int("sp", 0, 0, 10**4),
        "tiles": f.per_list("tiles", read_tile),
        "newhand": f.per_int("newhand", NEW_HAND_TOKENS, 0, NEW_HAND_TOKENS),
        "used": f.per_int("used", 0, 0, NEW_HAND_TOKENS),
        "hands": f.per_list("hands", read_card),
        "selections": selections,
        "tableau": f.per_list("tableau", read_card),
        "chars": chars,
        "draft": draft,
        "pool": _read_pool(f) if "pool" in f else characters_in_box(game.characters.copies, (*chars, *draft)),
        "passed": f.per_list("passed", read_card),
        "passed_characters": f.per_list("cpassed", read_kind),
        "given": f.per_int("given", 0, 0, TILES),
    }


def _pile_fields(
    game: UrbanizationGame, f: _Fields, phase: str, board: dict[str, Any], people: dict[str, Any]
) -> dict[str, Any]:
    """The stacks of tiles and the piles of cards; those not written hold what is nowhere else."""
    stacks, sites = board["stacks"], board["sites"]
    tiles, hands, selections = people["tiles"], people["hands"], people["selections"]
    second = f.listed("second", read_tile)
    exhaustion = f.number("exhaustion", 0, 0, 2)
    discard = f.listed("discard", read_card)
    if "stack" in f:
        stack = f.listed("stack", read_tile)
    else:
        elsewhere = tiles_out_of_stacks(phase, stacks, tiles, selections)
        stack = tuple(t for t in range(TILES) if t not in elsewhere and t not in second)
    in_play = _in_play(phase, stacks, sites, hands, selections)
    built_over = tuple(c for t in people["tableau"] for c in t)
    if "draw" in f:
        draw = f.listed("draw", read_card)
        if "discard" not in f:  # the cards in play left over are face up
            discard = tuple(c for c in in_play if c not in built_over and c not in draw)
    else:
        draw = tuple(c for c in in_play if c not in discard and c not in built_over)
    default_left = draws_allowed(stack, game.rules.removed_tiles(game.players)) if exhaustion == 0 else 0
    return {
        "second": second,
        "exhaustion": exhaustion,
        "discard": discard,
        "stack": stack,
        "draw": draw,
        "draws_left": f.number("left", default_left, 0, TILES),
    }


def _read_pool(f: _Fields) -> tuple[int, ...]:
    counts = f.values["pool"].split(".")
    if len(counts) != 9:
        raise NotationError(f"expected 9 counts of characters in the box, got {excerpt(f.values['pool'])}", "pool")
    return tuple(parse_int(c, "pool", 0, 27) for c in counts)


def _read_selection(text: str) -> Select | None:
    if text == "-":
        return None
    card, plus, tile = text.partition("+")
    return Select(read_card(card, "sel"), read_tile(tile, "sel") if plus else None)


def _in_play(
    phase: str,
    stacks: tuple[Building, ...],
    sites: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
    selections: tuple[Select | None, ...],
) -> tuple[int, ...]:
    """The cards in play (URB-COMP-7) in no hand or selection: those a draw or discard pile left out
    of the text holds."""
    held = {c for h in hands for c in h} | {s.card for s in selections if s is not None}
    return tuple(sorted(cards_in_play(phase, stacks, sites) - held))


# --- views -------------------------------------------------------------------------------------------
def _city_and_tokens(position: Any) -> tuple[str, str]:
    """The ``city`` and ``tokens`` fields of a position or a view."""
    cells, stacks, sites = position.cells, position.stacks, position.sites
    city = ";".join(_building(cells, stacks, sites, i) for i in range(len(cells))) or "-"
    return city, ";".join(
        f"{LETTERS[i]}:{cell_text(c) if c is not None else '-'}" for i, c in enumerate(position.tokens)
    )


def view_text(view: UrbanizationView) -> str:
    """A view on one line: the position's notation as its player sees it (``?`` for what is hidden)."""

    def per(values: Any, show: Any = str) -> str:
        return "/".join("?" if v is None else show(v) for v in values)

    city, tokens = _city_and_tokens(view)
    selections = [
        _selection(view.selection) if p == view.player else ("?" if view.chosen[p] else "-")
        for p in range(view.players)
    ]
    fields = [
        f"urbanization/{view.players}@P{view.player}",
        f"round={view.round}",
        f"phase={view.phase}",
        f"turn={view.turn}",
        f"actor={view.actor}",
        f"pending={view.pending or '-'}",
        f"owed={view.owed}",
        f"first={view.first}",
        f"city={city}",
        f"tokens={tokens}",
        f"reserve={per(view.reserve)}",
        f"supply={per(view.supply)}",
        f"boxed={per(view.boxed)}",
        f"sp={per(view.sp)}",
        f"tiles={per(view.tiles, lambda t: list_text(t, tile_name))}",
        f"newhand={per(view.newhand)}",
        f"used={per(view.used)}",
        f"hands={per(view.hands, lambda h: list_text(h, card_name))}",
        f"sizes={per(view.hand_sizes)}",
        f"sel={'/'.join(selections)}",
        f"tableau={per(view.tableau, lambda h: list_text(h, card_name))}",
        f"chars={per(view.chars, lambda h: list_text(h, character_name))}",
        f"draft={list_text(view.draft, character_name)}",
        f"passed={list_text(view.passed, card_name)}",
        f"cpassed={list_text(view.passed_characters, character_name)}",
        f"given={per(view.given)}",
        f"draw={view.draw_size}",
        f"discard={list_text(view.discard, card_name)}",
        f"left={view.draws_left}",
        f"second={view.second_size}",
        f"exhaustion={view.exhaustion}",
        f"due={int(view.contribute_due)}",
        f"ending={int(view.ending)}",
    ]
    return " ".join(fields)
