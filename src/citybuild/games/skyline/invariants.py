"""Skyline's invariants: what every position reached by legal play satisfies.

``validate(state)`` checks a position that comes from outside (notation, JSON, code) and raises
``InvalidStateError`` naming the first broken invariant and its rule. ``validate_view(view)`` runs
the same helpers on a player's view under every option at once (a view does not carry the rules),
so that a view read from JSON is one some position could give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citybuild.core.errors import InvalidStateError
from citybuild.games.skyline.building import Column, Skyline, Tile
from citybuild.games.skyline.moves import dice_text, die_rank
from citybuild.games.skyline.offers import completed_heights
from citybuild.games.skyline.position import PHASES
from citybuild.games.skyline.rules import COLOUR_NAMES, COLOURS, DICE_TOTAL, FACES, MAX_HEIGHT, PLAYER_COUNTS, TYPES
from citybuild.games.skyline.rules import Rules as _Rules
from citybuild.games.skyline.scoring import building_text

if TYPE_CHECKING:
    from citybuild.games.skyline.state import SkylineState
    from citybuild.games.skyline.view import SkylineView

MAX_ROUNDS = 99
"""The most rounds any option plays (``rounds`` is 1 to 99, SKY-END-1)."""
NEW_PER_TURN = sum(DICE_TOTAL)
"""At most this many buildings start in one turn: each new one takes a die (SKY-BUILD-1)."""
_WIDEST = _Rules(blue_min_height=2)
"""The rules under which every completed height of every option is possible (for views)."""
_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
_FACES = frozenset(FACES)
_COLOURS = frozenset(COLOURS)


def _is_int(value: Any) -> bool:
    return type(value) is int


# --- shapes --------------------------------------------------------------------------------------
def check_fields(pos: SkylineState | SkylineView) -> None:
    """The shape of each field (a position or view built in code or read from JSON may have any
    values): ints, a bool trigger, counts of the right length, dice, skylines of buildings."""
    for name in ("round", "turn"):
        value = getattr(pos, name)
        if not _is_int(value):
            raise InvalidStateError(f"{name} must be an int, not {value!r}", "SKY-TURN-1")
    if type(pos.trigger) is not bool:
        raise InvalidStateError(f"trigger must be True or False, not {pos.trigger!r}", "SKY-END-2")
    for name in ("yard", "district", "rolling"):
        counts = getattr(pos, name)
        if not (type(counts) is tuple and len(counts) == 3 and all(_is_int(c) for c in counts)):
            raise InvalidStateError(f"{name} must be 3 int counts (GF, UF, PH), not {counts!r}", "SKY-COMP-6")
    short = pos.short
    if not (type(short) is tuple and len(short) == MAX_HEIGHT and all(_is_int(c) for c in short)):
        raise InvalidStateError(
            f"short must be {MAX_HEIGHT} int counts (one per height 1 to {MAX_HEIGHT}), not {short!r}", "SKY-COMP-5"
        )
    if any(c < 0 for c in short):
        raise InvalidStateError(f"short counts buildings, so none is negative: {short!r}", "SKY-COMP-5")
    if type(pos.active) is not tuple or not all(
        type(d) is tuple and len(d) == 2 and d[0] in TYPES and type(d[1]) is str and d[1] in _FACES for d in pos.active
    ):
        raise InvalidStateError(f"active must be dice (type, face), not {pos.active!r}", "SKY-TURN-8")
    if list(pos.active) != sorted(pos.active, key=die_rank):
        raise InvalidStateError(f"the active dice {dice_text(pos.active)} are not in canonical order", "SKY-TURN-8")
    if type(pos.skylines) is not tuple or not all(type(s) is Skyline for s in pos.skylines):
        raise InvalidStateError(f"skylines must be a tuple of Skyline, not {pos.skylines!r}", "SKY-COMP-6")
    for player, skyline in enumerate(pos.skylines):
        if not _is_int(skyline.next_id):
            raise InvalidStateError(f"P{player}'s next id must be an int, not {skyline.next_id!r}", "SKY-COMP-6")
        if type(skyline.buildings) is not tuple:
            raise InvalidStateError(f"P{player}'s buildings must be a tuple, not {skyline.buildings!r}", "SKY-COMP-6")
        for b in skyline.buildings:
            if type(b) not in (Column, Tile) or not _is_int(b.id) or type(b.colour) is not str:
                raise InvalidStateError(f"P{player}'s building {b!r} needs an int id and a colour", "SKY-COMP-6")
            if type(b) is Tile and not _is_int(b.height):
                raise InvalidStateError(f"P{player}'s building {b!r} needs an int height", "SKY-BUILD-3")
            if type(b) is Column and not (type(b.pieces) is tuple and all(p in TYPES for p in b.pieces)):
                raise InvalidStateError(f"P{player}'s building {b!r} has floors other than GF, UF, PH", "SKY-COMP-2")


def check_seats(pos: SkylineState | SkylineView, players: int, rounds: int) -> None:
    """SKY-COMP-6, SKY-END-1, SKY-TURN-1/2: a skyline per player, a round of the game, a seat to act."""
    if len(pos.skylines) != players:
        raise InvalidStateError(f"{len(pos.skylines)} skylines for {players} players", "SKY-COMP-6")
    if not 1 <= pos.round <= rounds:
        raise InvalidStateError(f"round {pos.round} is outside rounds 1 to {rounds}", "SKY-END-1")
    if not 0 <= pos.turn < players:
        raise InvalidStateError(f"turn {pos.turn} names no seat of {players}", "SKY-TURN-1")
    if pos.phase not in PHASES:
        raise InvalidStateError(f"unknown phase {pos.phase!r}", "SKY-TURN-2")


# --- the dice ------------------------------------------------------------------------------------
def dice_zones(pos: SkylineState | SkylineView) -> dict[str, tuple[int, ...]]:
    """Where the dice are, per zone, counted per type (GF, UF, PH)."""
    built = [0, 0, 0]
    for skyline in pos.skylines:
        for b in skyline.buildings:
            if type(b) is Column:
                for piece in b.pieces:
                    built[_TYPE_INDEX[piece]] += 1
    active = [0, 0, 0]
    for kind, _ in pos.active:
        active[_TYPE_INDEX[kind]] += 1
    return {
        "yard": pos.yard,
        "district": pos.district,
        "rolling": pos.rolling,
        "active": tuple(active),
        "buildings": tuple(built),
    }


def check_dice(pos: SkylineState | SkylineView, faces: Any) -> None:
    """SKY-COMP-2/4: the 60 dice (25 GF, 28 UF, 7 PH) are all somewhere, once, and active dice show
    faces of their type (``faces`` per type; None to accept any face, for a view)."""
    zones = dice_zones(pos)
    for name, counts in zones.items():
        for index, count in enumerate(counts):
            if count < 0:
                raise InvalidStateError(f"the {name} holds {count} {TYPES[index]} dice", "SKY-COMP-2")
    if faces is not None:
        for kind, face in pos.active:
            if face not in faces[kind]:
                raise InvalidStateError(
                    f"an active {kind} die shows {face!r}, which is not one of its faces {faces[kind]!r}",
                    "SKY-COMP-4",
                )
    for index, t in enumerate(TYPES):
        total = sum(c[index] for c in zones.values())
        if total != DICE_TOTAL[index]:
            where = ", ".join(f"{name} {c[index]}" for name, c in zones.items())
            more = "more" if total > DICE_TOTAL[index] else "fewer"
            raise InvalidStateError(
                f"{total} {t} dice in the position ({where}): {more} than the {DICE_TOTAL[index]} that exist",
                "SKY-COMP-2",
            )


# --- the buildings -------------------------------------------------------------------------------
def check_skyline(player: int, skyline: Skyline, rules: _Rules, round_no: int) -> None:
    """SKY-COMP-6, SKY-BUILD-1/3/5: ids unique, in order and below the next id (which only grows,
    by at most a die's worth of buildings a turn); columns stand on a ground floor with upper
    floors above and no penthouse; completed buildings have a height their colour completes at."""
    if not 1 <= skyline.next_id <= 2 + NEW_PER_TURN * round_no:
        raise InvalidStateError(
            f"P{player}'s next building id {skyline.next_id} cannot be: ids start at 1, and by round {round_no} "
            f"at most {1 + NEW_PER_TURN * round_no} have been given",
            "SKY-COMP-6",
        )
    ids = [b.id for b in skyline.buildings]
    if len(set(ids)) != len(ids) or ids != sorted(ids):
        raise InvalidStateError(f"P{player}'s building ids {ids} are not unique and in order", "SKY-COMP-6")
    for b in skyline.buildings:
        if b.colour not in _COLOURS:
            raise InvalidStateError(f"P{player}'s building {b!r} has no colour P, B or O", "SKY-COMP-3")
        name = f"P{player}'s building {building_text(b)}"
        if not 1 <= b.id < skyline.next_id:
            raise InvalidStateError(
                f"{name} has id {b.id}, but ids run from 1 to next id {skyline.next_id} - 1", "SKY-COMP-6"
            )
        colour = COLOUR_NAMES[b.colour]
        heights = completed_heights(b.colour, rules.blue_min_height)
        if type(b) is Tile:
            if b.height not in heights:
                raise InvalidStateError(
                    f"{name}: a completed {colour} building has height {heights.start} to {heights.stop - 1}, "
                    f"not {b.height}",
                    "SKY-BUILD-3",
                )
            continue
        assert type(b) is Column
        pieces = b.pieces
        if not pieces:
            raise InvalidStateError(f"{name} has no floors", "SKY-BUILD-1")
        if pieces[0] != "GF":
            raise InvalidStateError(
                f"{name} stands on {pieces[0]}; every building starts with a ground floor", "SKY-BUILD-1"
            )
        if "GF" in pieces[1:]:
            raise InvalidStateError(f"{name} has a ground floor above the bottom", "SKY-BUILD-1")
        if "PH" in pieces[:-1]:
            raise InvalidStateError(f"{name} has a penthouse under another floor", "SKY-BUILD-5")
        if "PH" in pieces:
            raise InvalidStateError(f"{name} ends in a penthouse, which completes a building at once", "SKY-BUILD-5")
        tallest = 1 if b.colour == "P" else heights.stop - 2  # UF floors stop one below the highest completion
        if b.height > tallest:
            raise InvalidStateError(
                f"{name} is {b.height} high: an unfinished {colour} building is at most {tallest} high, "
                "so a die sits on a completed building",
                "SKY-BUILD-5",
            )


# --- the turn and the end ------------------------------------------------------------------------
def check_phase(pos: SkylineState | SkylineView) -> None:
    """SKY-TURN-3/6/7: dice roll only in phase roll, active dice only while a turn resolves them."""
    phase = pos.phase
    rolling, active = any(pos.rolling), bool(pos.active)
    if phase == "roll" and not rolling:
        raise InvalidStateError("phase roll needs dice to roll (field roll)", "SKY-TURN-3")
    if phase != "roll" and rolling:
        raise InvalidStateError(f"dice are being rolled only in phase roll, not {phase}", "SKY-TURN-3")
    if phase in ("resolve", "continue") and not active:
        raise InvalidStateError(f"phase {phase} needs active dice; with none the turn has ended", "SKY-TURN-7")
    if phase in ("take", "over") and active:
        raise InvalidStateError(f"no dice are active in phase {phase}: unused dice go back to the yard", "SKY-TURN-6")
    if pos.trigger and phase == "take" and pos.turn == 0:
        raise InvalidStateError("a set trigger ends the game at the end of its round; no new round starts", "SKY-END-2")
    if phase == "over" and pos.turn != len(pos.skylines) - 1:
        raise InvalidStateError(
            f"the game ends after the last seat's turn (turn {len(pos.skylines) - 1}), so phase over with turn "
            f"{pos.turn} cannot happen",
            "SKY-END-1",
        )


def check_end(state: SkylineState) -> None:
    """SKY-END-1..3: the end trigger follows the six-floor rule, and the game ends when it says."""
    rules = state.rules
    six = any(type(b) is Tile and b.height == MAX_HEIGHT for s in state.skylines for b in s.buildings)
    if state.trigger and not rules.six_floor_ends_game:
        raise InvalidStateError("the end trigger is set, but six_floor_ends_game is False", "SKY-END-3")
    if six and rules.six_floor_ends_game and not state.trigger:
        raise InvalidStateError("a six-floor building stands but the end trigger is not set", "SKY-END-2")
    if state.trigger and not rules.end_trigger_latches and not six:
        raise InvalidStateError("the end trigger does not latch, and no six-floor building stands", "SKY-END-2")
    if state.phase == "over" and not state.trigger and state.round < rules.rounds:
        raise InvalidStateError(
            f"the game is over in round {state.round} of {rules.rounds} without the end trigger: it ends at the "
            f"end of round {rules.rounds} (SKY-END-1) or of the round in which the trigger is set",
            "SKY-END-2",
        )


def check_tiles(state: SkylineState) -> None:
    """SKY-COMP-5: with a finite supply, tiles in play plus tiles left make the supply."""
    supply = state.tile_supply()
    if supply is None:
        if any(state.short):
            raise InvalidStateError("tile shortages need finite_tile_supply=True", "SKY-COMP-5")
        return
    for h in range(MAX_HEIGHT):
        if state.short[h] and supply[h]:
            raise InvalidStateError(
                f"{state.short[h]} height-{h + 1} buildings lack a tile while {supply[h]} are left", "SKY-COMP-5"
            )
        if supply[h] < 0:
            raise InvalidStateError(
                f"more height-{h + 1} tiles in play than the supply of {state.rules.tile_counts[h + 1]} "
                "(record shortages in short)",
                "SKY-COMP-5",
            )


# --- a position and a view -----------------------------------------------------------------------
def validate(state: SkylineState) -> None:
    """Raise ``InvalidStateError`` naming the first broken invariant of a position."""
    rules = state.rules
    check_fields(state)
    check_seats(state, state.players, rules.rounds)
    check_dice(state, rules.faces)
    for player, skyline in enumerate(state.skylines):
        check_skyline(player, skyline, rules, state.round)
    check_phase(state)
    check_end(state)
    check_tiles(state)


def validate_view(view: SkylineView) -> None:
    """Raise ``InvalidStateError`` if no position could give this view (for views read from JSON):
    the checks of ``validate`` that hold under every option, and the players to act."""
    players = len(view.skylines) if type(view.skylines) is tuple else 0
    if players not in PLAYER_COUNTS or not _is_int(view.player) or not 0 <= view.player < players:
        raise InvalidStateError(f"a view of {players} skylines cannot belong to player {view.player!r}", "SKY-COMP-1")
    check_fields(view)
    check_seats(view, players, MAX_ROUNDS)
    check_dice(view, None)
    for player, skyline in enumerate(view.skylines):
        check_skyline(player, skyline, _WIDEST, view.round)
    check_phase(view)
    expected = () if view.phase in ("roll", "over") else (view.turn,)
    if view.to_act != expected:
        raise InvalidStateError(f"to_act {view.to_act!r} does not fit phase {view.phase}", "SKY-TURN-1")
