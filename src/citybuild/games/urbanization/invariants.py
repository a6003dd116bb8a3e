"""What every Urbanization position satisfies (URB-COMP-7 and the flow of the rules), checked on
hand-written positions and positions read from JSON. Each broken invariant is an
``InvalidStateError`` naming the invariant and its rule."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from citybuild.core.errors import InvalidStateError
from citybuild.games.urbanization.components import (
    cards_in_play,
    characters_in_box,
    reserve_left,
    resources_in_city,
    tiles_out_of_stacks,
)
from citybuild.games.urbanization.engine import UrbanizationEngine
from citybuild.games.urbanization.exhaustion import contribution_can_be_due
from citybuild.games.urbanization.position import PENDING, PHASES, SETUP_PHASES
from citybuild.games.urbanization.rules import (
    CARDS,
    HAND_SIZE,
    NEW_HAND_TOKENS,
    START_TILES,
    TILES,
    TOKEN_CELLS,
    card_name,
    tile_name,
)

if TYPE_CHECKING:
    from citybuild.games.urbanization.state import UrbanizationState


REACH = 64
"""How far from (0, 0) a building or token can be: the 51 tiles added to the 3x3 square (and a
token next to them) reach at most 54 cells out."""


def _fail(message: str, rule: str) -> InvalidStateError:
    return InvalidStateError(message, rule)


def _engine(state: UrbanizationState) -> UrbanizationEngine:
    """An engine reading ``state``'s fields in place, to ask the rules (it writes nothing)."""
    engine = UrbanizationEngine.__new__(UrbanizationEngine)
    engine.__dict__ = state.__dict__
    return engine


def validate(state: UrbanizationState) -> None:
    """Raise ``InvalidStateError`` naming the first broken invariant."""
    n = state.players
    _shapes(state, n)
    _bounds(state)
    _city(state, n)
    _tiles(state)
    _cards(state)
    _resources(state, n)
    _characters(state, n)
    _flow(state, n)


def _shapes(state: UrbanizationState, n: int) -> None:
    per_player = {
        "reserve": state.reserve, "supply": state.supply, "boxed": state.boxed, "sp": state.sp,
        "tiles": state.tiles, "newhand": state.newhand, "used": state.used, "hands": state.hands,
        "selections": state.selections, "tableau": state.tableau, "chars": state.chars, "draft": state.draft,
        "passed": state.passed, "passed_characters": state.passed_characters, "given": state.given,
    }  # fmt: skip
    for name, values in per_player.items():
        if len(values) != n:
            raise _fail(f"{name} has {len(values)} entries for {n} players", "URB-COMP-6")
    if len(state.tokens) != 12 or len(state.pool) != 9:
        raise _fail("12 tokens and 9 character-type counts are expected", "URB-COMP-2")
    if state.phase not in PHASES or state.pending not in PENDING:
        raise _fail(f"unknown phase {state.phase!r} or pending decision {state.pending!r}", "URB-COMP-6")
    for name in ("turn", "actor", "first"):
        if not 0 <= getattr(state, name) < n:
            raise _fail(f"{name} {getattr(state, name)} is not a seat", "URB-COMP-6")
    if any(v < 0 for v in (*state.sp, *state.supply, *state.reserve, *state.boxed, *state.given, state.owed)):
        raise _fail("SP, resources, gifts and draws owed are never negative", "URB-GAIN-4")


BOUNDS = {"round": 999, "owed": 99, "draws_left": TILES, "exhaustion": 2}
"""The largest value of each count; the notation reader refuses the same (``parse_int`` bounds)."""
PER_PLAYER_BOUNDS = {
    "reserve": 10**6, "supply": 10**6, "boxed": 10**6, "sp": 10**4,
    "newhand": NEW_HAND_TOKENS, "used": NEW_HAND_TOKENS, "given": TILES,
}  # fmt: skip
SORTED_SETS = {"tiles": TILES, "hands": CARDS, "tableau": CARDS, "passed": CARDS}
"""Per-player collections of distinct items, kept in order (as the notation writes and reads them)."""
SORTED_PILES = {"draw": CARDS, "discard": CARDS, "stack": TILES, "second": TILES}


def _bounds(state: UrbanizationState) -> None:
    """Every count and every item within what the notation can write and read back, so a position
    read from JSON passes exactly the checks that the same position read from its notation does."""
    for name, high in BOUNDS.items():
        if not 0 <= getattr(state, name) <= high:
            raise _fail(f"{name} {getattr(state, name)} is not between 0 and {high}", "URB-COMP-6")
    for name, high in PER_PLAYER_BOUNDS.items():
        bad = next((v for v in getattr(state, name) if not 0 <= v <= high), None)
        if bad is not None:
            raise _fail(f"{name} {bad} is not between 0 and {high}", "URB-COMP-6")
    if any(not 0 <= c <= 27 for c in state.pool):
        raise _fail("a character type has 0 to 27 copies in the box", "URB-CHAR-1")
    collections = [(name, high, items) for name, high in SORTED_SETS.items() for items in getattr(state, name)]
    collections += [(name, high, getattr(state, name)) for name, high in SORTED_PILES.items()]
    for name, high, items in collections:
        bad = next((item for item in items if not 0 <= item < high), None)
        if bad is not None:
            raise _fail(f"{name} holds {bad}, not one of 0 to {high - 1}", "URB-COMP-6")
        if list(items) != sorted(set(items)):
            raise _fail(f"{name} lists {list(items)}: distinct items in order", "URB-COMP-6")
    for name in ("chars", "draft"):
        if any(list(kinds) != sorted(kinds) for kinds in getattr(state, name)):
            raise _fail(f"{name} lists character types in order", "URB-COMP-6")


def _city(state: UrbanizationState, n: int) -> None:
    cells = state.cells
    if len(set(cells)) != len(cells) or len(state.stacks) != len(cells):
        raise _fail("each city cell holds one building", "URB-COMP-3")
    for cell, stack in zip(cells, state.stacks, strict=True):
        if not stack:
            raise _fail(f"the building on {cell} has no tile", "URB-COMP-3")
        if any(f.owner is not None for f in stack[:-1]):
            raise _fail(f"the building on {cell}: only the top tile's player owns it", "URB-COMP-7")
        owner = stack[-1].owner
        if owner is not None and not 0 <= owner < n:
            raise _fail(f"the building on {cell} is owned by P{owner}, not a seat", "URB-COMP-3")
    if any(not 0 <= i < len(cells) for i in state.sites) or list(state.sites) != sorted(set(state.sites)):
        raise _fail("Construction Sites name buildings, each once", "URB-ROUND-6")
    placed = [c for c in state.tokens if c is not None]
    far = next((c for c in (*cells, *placed) if max(abs(c[0]), abs(c[1])) > REACH), None)
    if far is not None:
        raise _fail(
            f"cell {far} is farther than {REACH} from the centre; the city grows one cell per tile", "URB-COMP-3"
        )
    if len(set(placed)) != len(placed):
        raise _fail("two tokens share a cell", "URB-COMP-3")
    if state.phase == "layout" and state.tokens != TOKEN_CELLS:
        raise _fail("before the layout the tokens stand in their starting places, A to L", "URB-SETUP-2")
    moving = cells[-1] if state.pending == "token" and cells else None
    if state.pending == "token" and moving not in state.tokens:
        raise _fail("a token waits to move off the newest building, so one stands there", "URB-URBANIZE-3")
    for letter, spot in enumerate(state.tokens):
        if spot is not None and spot in cells and spot != moving:
            raise _fail(f"token {chr(65 + letter)} stands on the building on {spot}", "URB-URBANIZE-3")


def _tiles(state: UrbanizationState) -> None:
    where = tiles_out_of_stacks(state.phase, state.stacks, state.tiles, state.selections)
    where.update(state.stack)
    where.update(state.second)
    bad = [t for t in range(TILES) if where[t] != 1] + [t for t in where if not 0 <= t < TILES]
    if bad:
        t = bad[0]
        shown = tile_name(t) if 0 <= t < TILES else repr(t)
        raise _fail(f"tile {shown} appears {where[t]} times; the 60 tiles are each somewhere once", "URB-COMP-1")
    if state.phase == "layout" and (state.cells or any(t in state.stack for t in START_TILES)):
        raise _fail("before the layout the city is empty and the starting tiles are not in the stack", "URB-SETUP-1")


def _cards(state: UrbanizationState) -> None:
    where: Counter[int] = Counter()
    circulating: list[int] = []
    for hand in state.hands:
        circulating.extend(hand)
    circulating.extend(s.card for s in state.selections if s is not None)
    circulating.extend(state.draw)
    circulating.extend(state.discard)
    where.update(circulating)
    for tableau in state.tableau:
        where.update(tableau)
    bad = [c for c in where if not 0 <= c < CARDS or where[c] > 1]
    if bad:
        c = bad[0]
        shown = card_name(c) if 0 <= c < CARDS else repr(c)
        raise _fail(f"card {shown} appears {where[c]} times; the 72 cards are each somewhere once", "URB-COMP-2")
    covered = {f.tile for s in state.stacks for f in s[:-1]}
    for tableau in state.tableau:
        if any(c >= TILES for c in tableau):
            raise _fail("Urbanization cards never enter a tableau", "URB-CARD-3")
        uncovered = next((c for c in tableau if c not in covered), None)
        if uncovered is not None:
            raise _fail(
                f"card {card_name(uncovered)} is in a tableau, so its tile was built over in the city",
                "URB-CONSTRUCT-1",
            )
    in_play = cards_in_play(state.phase, state.stacks, state.sites)
    if state.phase == "layout":
        if state.discard:
            raise _fail("before the layout no card is in the discard pile", "URB-SETUP-4")
        if set(circulating) != in_play:
            raise _fail("before the layout the deck is the 12 letters and the 9 starting cards", "URB-SETUP-4")
        return
    tops = {c for c in in_play if c < TILES}
    letters = in_play - tops
    building_cards = {c for c in circulating if c < TILES}
    if building_cards != tops:
        stray = sorted(building_cards - tops) or sorted(tops - building_cards)
        raise _fail(
            f"card {card_name(stray[0])}: the Building cards in play are exactly those of the top tiles of "
            "buildings that are not Construction Sites",
            "URB-COMP-7",
        )
    if not letters <= set(circulating):
        raise _fail("the 12 Urbanization cards are always in play", "URB-CARD-3")


def _resources(state: UrbanizationState, n: int) -> None:
    total = state.game.resources
    for p in range(n):
        city = resources_in_city(state.stacks, p)
        if state.reserve[p] != reserve_left(total, state.supply[p], state.boxed[p], city):
            have = state.reserve[p] + state.supply[p] + state.boxed[p] + city
            raise _fail(
                f"P{p} has {have} resources (reserve {state.reserve[p]}, supply {state.supply[p]}, city {city}, "
                f"box {state.boxed[p]}), not {total}",
                "URB-COMP-4",
            )


def _characters(state: UrbanizationState, n: int) -> None:
    held = (*state.chars, *state.draft)
    unknown = next((kind for kinds in held for kind in kinds if not 0 <= kind < 9), None)
    if unknown is not None:
        raise _fail(f"character type {unknown} does not exist", "URB-CHAR-1")
    if state.pool != characters_in_box(state.game.characters.copies, held) or any(c < 0 for c in state.pool):
        raise _fail("the characters in tableaus, draft hands and the box are the data file's copies", "URB-CHAR-1")
    if any(len(c) > 3 for c in state.chars):
        raise _fail("a player has at most 3 characters", "URB-SETUP-7")
    passed = state.passed_characters
    if any(len(p) > 5 or list(p) != sorted(p) or not all(0 <= k < 9 for k in p) for p in passed):
        raise _fail("a player passes at most 3 then 2 characters in the draft, noted in order", "URB-RAND-5")
    if any(passed) and state.rules.character_mode != "draft":
        raise _fail("characters are passed only in a draft", "URB-RAND-5")
    if state.phase in ("layout", "discard") and (any(state.chars) or any(state.draft)):
        raise _fail("characters are dealt after the initial discard, not before", "URB-SETUP-7")
    if state.phase == "characters":
        for p in range(n):
            if bool(state.chars[p] or state.draft[p]) != (p < state.turn):
                raise _fail(f"characters are dealt seat by seat: P{p} holds some only once dealt", "URB-SETUP-7")


def _flow(state: UrbanizationState, n: int) -> None:
    rules = state.rules
    phase = state.phase
    setup = phase in SETUP_PHASES
    if setup != (state.round == 0) and phase != "over":
        raise _fail(f"round {state.round} does not fit phase {phase} (setup is round 0)", "URB-COMP-6")
    if state.round > rules.max_rounds:
        raise _fail(f"round {state.round} is past max_rounds={rules.max_rounds}", "URB-RAND-6")
    if state.pending and phase != "resolve":
        raise _fail("a decision inside an action is pending only while it resolves", "URB-ROUND-4")
    for p in range(n):
        if state.newhand[p] + state.used[p] > NEW_HAND_TOKENS or state.used[p] > rules.new_hand_per_round:
            raise _fail(f"P{p} has used more New Hand tokens than allowed", "URB-ROUND-1")
    if any(s is not None for s in state.selections) and phase not in ("choose", "resolve", "contribute", "over"):
        raise _fail("selections exist only from phase 2 until they resolve", "URB-ROUND-2")
    if phase in ("resolve", "contribute"):
        done = (state.actor - state.first) % n
        for k in range(n):
            p = (state.first + k) % n
            if (state.selections[p] is None) != (k <= done):
                raise _fail(f"P{p}'s selection does not fit resolution in turn order", "URB-ROUND-4")
        if phase == "resolve" and state.turn != state.actor:
            raise _fail("the player resolving is the actor", "URB-ROUND-4")
    if state.exhaustion == 0:
        if not 0 < state.draws_left <= len(state.stack) or state.second or any(state.given):
            raise _fail("before the first exhaustion tiles are left to draw and no tile was given", "URB-END-1")
    elif state.draws_left != 0 or len(state.second) > sum(state.given):
        raise _fail("after the first exhaustion the original stack is closed", "URB-END-1")
    _owed(state, n)
    if state.exhaustion == 2 and (state.second or not state.ending):
        raise _fail("the second exhaustion empties the second stack and triggers the end", "URB-END-2")
    if state.contribute_due and not contribution_can_be_due(state.exhaustion, phase):
        raise _fail("a contribution step is due only after the first exhaustion, during an action", "URB-END-1")
    if phase == "contribute" and (state.exhaustion != 1 or state.ending):
        raise _fail("the contribution step follows the first exhaustion, before the end", "URB-END-1")
    if any(len(hand) > HAND_SIZE for hand in state.hands):
        raise _fail(f"no hand holds more than {HAND_SIZE} cards", "URB-ROUND-7")
    if phase == "deal":
        dealing = (state.turn - state.first) % n
        for k in range(n):
            p = (state.first + k) % n
            held = len(state.hands[p])
            dealt = HAND_SIZE if k < dealing else HAND_SIZE - state.owed if k == dealing else 0
            if held != dealt and (k >= dealing or state.draw or state.discard):  # short only if cards ran out
                cards = "card" if held == 1 else "cards"
                raise _fail(f"P{p} holds {held} {cards} where the deal in turn order gives {dealt}", "URB-SETUP-10")
    if phase in SETUP_PHASES and phase != "deal" and any(state.hands):
        raise _fail(f"no cards are dealt to the players before the deal (phase {phase})", "URB-SETUP-10")
    if phase != "over":
        _next_step(state)


def _next_step(state: UrbanizationState) -> None:
    """A position not over waits for a chance event that can happen or for players who can move."""
    phase = state.phase
    engine = _engine(state)
    if engine.is_chance:
        if not engine.chance_outcomes_exist():
            raise _fail(f"phase {phase} waits for a draw from an empty pile or stack", "URB-RAND-3")
        return
    to_act = engine.to_act
    if not to_act:
        raise _fail(f"nobody is to act in phase {phase} and nothing is drawn", "URB-COMP-6")
    for p in to_act:
        if not engine.legal_moves(p):
            raise _fail(f"P{p} is to act in phase {phase} with no legal move", "URB-ROUND-2")
    if phase == "choose" and any(not h for p, h in enumerate(state.hands) if state.selections[p] is None):
        raise _fail("every player choosing holds a card", "URB-ROUND-2")
    if phase == "draft" and len({len(d) + len(c) for d, c in zip(state.draft, state.chars, strict=True)}) != 1:
        raise _fail("draft hands and kept characters add up alike for every player", "URB-SETUP-7")


def _owed(state: UrbanizationState, n: int) -> None:
    """What is still to draw fits the phase: cards in the setup discard, the deal, a New Hand and
    phase 3 (where the players after the one drawing have not drawn yet); tiles for starting items
    and during an action; nothing elsewhere."""
    phase, owed, turn = state.phase, state.owed, state.turn
    hands = state.hands
    if phase == "discard":
        due = state.rules.initial_discard(n)
        if not 0 < owed <= due or owed + len(state.discard) != due:
            raise _fail(f"the initial discard lays {due} cards: {len(state.discard)} laid, {owed} owed", "URB-SETUP-4")
    elif phase == "deal":
        if not 0 < owed <= HAND_SIZE:
            raise _fail(f"a deal owes 1 to {HAND_SIZE} cards, not {owed}", "URB-SETUP-10")
    elif phase == "newhand":
        if owed > HAND_SIZE or (owed and len(hands[turn]) + owed != HAND_SIZE):
            raise _fail(f"a New Hand draws back to {HAND_SIZE} cards", "URB-ROUND-1")
        if not owed and not _engine(state).may_renew(turn):
            raise _fail(f"P{turn} is asked about a New Hand token they cannot use", "URB-ROUND-1")
        if any(not hand for p, hand in enumerate(hands) if p != turn or not owed):
            raise _fail("every player holds cards when phase 2 comes", "URB-ROUND-2")
    elif phase == "draw":
        drawing = (turn - state.first) % n
        if owed != 1:
            raise _fail(f"in phase 3 each player draws 1 card, not {owed}", "URB-ROUND-7")
        waiting = [(state.first + k) % n for k in range(drawing, n)]
        for p in waiting:
            if len(hands[p]) + 1 > HAND_SIZE:
                raise _fail(f"P{p} has not drawn yet in phase 3 and already holds {HAND_SIZE} cards", "URB-ROUND-7")
        drawn = [p for p in range(n) if p not in waiting]
        empty = sum(1 for p in waiting if not hands[p])
        if any(not hands[p] for p in drawn) or empty > len(state.draw) + len(state.discard):
            raise _fail("every player holds cards when phase 2 comes", "URB-ROUND-2")
    elif phase == "items":
        start = state.game.characters.start
        most = sum(start[kind][2] for kind in state.chars[turn])
        if not 0 < owed <= most:
            raise _fail(f"P{turn}'s characters give {most} starting tiles; {owed} are owed", "URB-SETUP-8")
    elif phase != "resolve" and owed:
        raise _fail(f"nothing is drawn in phase {phase}, yet {owed} are owed", "URB-COMP-6")
