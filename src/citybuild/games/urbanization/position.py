"""The fields of an Urbanization position: what an ``UrbanizationEngine`` changes in place and an
``UrbanizationState`` freezes, and the small types they hold (cells, floors, buildings)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from citybuild.core.position import SORTED, by_rule, hidden, owned
from citybuild.games.urbanization.moves import Select

if TYPE_CHECKING:
    from citybuild.games.urbanization.game import UrbanizationGame

Cell = tuple[int, int]

SETUP_PHASES = ("layout", "discard", "characters", "draft", "items", "first", "deal")
ROUND_PHASES = ("newhand", "choose", "resolve", "contribute", "draw")
PHASES = (*SETUP_PHASES, *ROUND_PHASES, "over")
"""The values of ``phase``, in the order a game meets them (the engine's docstring tells the flow)."""
PENDING = ("", "take", "token")
"""The values of ``pending``: no decision, take a resource or a tile, move a token."""
CARD_PHASES = frozenset(("discard", "deal", "newhand", "draw"))
"""The phases in which ``owed`` counts cards to draw."""
TILE_PHASES = frozenset(("items", "resolve"))
"""The phases in which ``owed`` counts tiles to draw."""


class Floor(NamedTuple):
    """One tile of a building: the tile and, for the top tile of an owned building, its owner.
    A core ``Stackable`` piece (one storey), so ``core.tower`` reads buildings of floors."""

    tile: int
    owner: int | None = None

    @property
    def size(self) -> int:
        return 1


Building = tuple[Floor, ...]


def shown_selections(position: Any, player: int) -> tuple[Select | None, tuple[bool, ...]]:
    """URB-RAND-5: a player sees their own secret selection, and only whether others have chosen."""
    return position.selections[player], tuple(s is not None for s in position.selections)


def shown_characters(position: Any, player: int) -> tuple[tuple[tuple[int, ...] | None, ...]]:
    """URB-RAND-5: the characters others keep are hidden during the draft and public after it."""
    drafting = position.phase == "draft"
    return (tuple(c if p == player or not drafting else None for p, c in enumerate(position.chars)),)


def shown_sp(position: Any, player: int) -> tuple[tuple[int | None, ...]]:
    """URB-RAND-5: SP stay behind each player's screen; once the game is over the screens are
    lifted for the final score (URB-SCORE-1), which everyone is told."""
    over = position.phase == "over"
    return (tuple(sp if p == player or over else None for p, sp in enumerate(position.sp)),)


def own_entry(name: str) -> Any:
    """The rule of a per-player field only its owner ever sees, and others not even its size."""
    return lambda position, player: (getattr(position, name)[player],)


@attrs.define(slots=False, eq=False, repr=False)
class UrbanizationPosition:
    """The fields of an Urbanization position (URB-COMP-6): an engine's attributes, a state's fields.

    Cards are numbered 0-71 (a Building card by its tile, colour * 20 + number - 1; letters A-L are
    60-71), tiles 0-59, character types 0-8 (colour * 3 + action), seats 0 to n - 1 clockwise.
    ``sites`` are the indices of Construction Sites, ``pool`` the characters in the box per type,
    ``passed`` the cards each player passed at the last pass, ``draws_left`` the draws the original
    stack still allows (URB-SETUP-3), ``given`` the tiles each player gave to the second stack.
    """

    game: UrbanizationGame
    round: int
    phase: str
    turn: int
    actor: int
    pending: str
    owed: int
    first: int
    cells: tuple[Cell, ...]
    stacks: tuple[Building, ...]
    sites: tuple[int, ...]
    tokens: tuple[Cell | None, ...]
    reserve: tuple[int, ...]
    supply: tuple[int, ...]
    boxed: tuple[int, ...]
    sp: tuple[int, ...] = attrs.field(metadata=by_rule(shown_sp, sp=tuple[int | None, ...]))
    """Hidden and unbounded (URB-RAND-5): not even its size is shown, until the end."""
    tiles: tuple[tuple[int, ...], ...] = attrs.field(metadata=owned(items=SORTED))
    newhand: tuple[int, ...]
    used: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...] = attrs.field(metadata=owned(items=SORTED, size="hand_sizes", pool="draw"))
    selections: tuple[Select | None, ...] = attrs.field(
        metadata=by_rule(shown_selections, selection=Select | None, chosen=tuple[bool, ...])
    )
    tableau: tuple[tuple[int, ...], ...]
    chars: tuple[tuple[int, ...], ...] = attrs.field(
        metadata=by_rule(shown_characters, chars=tuple[tuple[int, ...] | None, ...])
    )
    draft: tuple[tuple[int, ...], ...] = attrs.field(metadata=by_rule(own_entry("draft"), draft=tuple[int, ...]))
    pool: tuple[int, ...] = attrs.field(metadata=hidden())
    passed: tuple[tuple[int, ...], ...] = attrs.field(metadata=by_rule(own_entry("passed"), passed=tuple[int, ...]))
    passed_characters: tuple[tuple[int, ...], ...] = attrs.field(
        metadata=by_rule(own_entry("passed_characters"), passed_characters=tuple[int, ...])
    )
    """URB-RAND-5: the characters each player passed on in the draft, which their view remembers."""
    draw: tuple[int, ...] = attrs.field(metadata=hidden(items=SORTED, size="draw_size"))
    discard: tuple[int, ...]
    stack: tuple[int, ...] = attrs.field(metadata=hidden(items=SORTED))
    draws_left: int
    second: tuple[int, ...] = attrs.field(metadata=hidden(items=SORTED, size="second_size"))
    given: tuple[int, ...]
    exhaustion: int
    contribute_due: bool
    ending: bool
