"""Determinisation (DESIGN principle 9): a full position consistent with one player's view, what
the player cannot see drawn at random, so that a bot decides from its view alone.

What is drawn, and how:

- the cards in play that the viewer cannot see (others' hands and secret selections, the draw
  pile) are dealt uniformly (``core.position.deal``): others' hands and selections get as many
  as the view says, the draw pile the rest;
- a secret selection of another player is that card played alone (always legal; which card and
  whether a tile goes with it cannot be known);
- the tiles the viewer cannot see fill the stacks to their public sizes, uniformly; each tile left
  goes to one of the other players, each equally likely (how many tiles another player holds is
  hidden, URB-RAND-5);
- during the draft, the characters the viewer cannot see fill the others' kept characters and draft
  hands to their sizes and the box, uniformly, except that the characters the viewer passed (and
  does not hold again) are among the others' (URB-RAND-5);
- another player's SP is hidden and unbounded, so no uniform draw exists: the position gives them
  the viewer's own SP (a neutral guess), and ``passed`` only the viewer's own cards.

The position's ``view(player)`` equals the view, and the viewer's legal moves are the real ones.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import InvalidStateError
from citybuild.core.position import SORTED, deal, public_values
from citybuild.games.urbanization.moves import Select
from citybuild.games.urbanization.rules import CARDS, START_TILES, TILES
from citybuild.games.urbanization.state import UrbanizationState

if TYPE_CHECKING:
    from citybuild.games.urbanization.game import UrbanizationGame
    from citybuild.games.urbanization.view import UrbanizationView


def determinize(game: UrbanizationGame, view: UrbanizationView, rng: random.Random) -> UrbanizationState:
    """A position of ``game`` whose ``view(view.player)`` is ``view`` (see the module docstring)."""
    n, me = view.players, view.player
    if n != game.players:
        raise InvalidStateError(f"a {n}-player view does not belong to a {game.players}-player game", "URB-COMP-5")
    others = [q for q in range(n) if q != me]
    hands, selections, draw = _cards(view, others, rng)
    tiles, stack, second = _tiles(game, view, others, rng)
    chars, draft, pool = _characters(game, view, others, rng)
    own_sp = view.sp[me] or 0
    return UrbanizationState(
        game=game,
        **public_values(view),
        sp=tuple(own_sp if s is None else s for s in view.sp),
        tiles=tiles,
        hands=hands,
        selections=selections,
        chars=chars,
        draft=draft,
        pool=pool,
        passed=tuple(view.passed if q == me else () for q in range(n)),
        passed_characters=tuple(view.passed_characters if q == me else () for q in range(n)),
        draw=draw,
        stack=stack,
        second=second,
    )


def _cards(view: UrbanizationView, others: list[int], rng: random.Random) -> tuple[Any, Any, tuple[int, ...]]:
    """Others' hands and secret selections and the draw pile, dealt from the cards the viewer cannot see."""
    me = view.player
    own_hand = view.hands[me] or ()
    own_selection = view.selection
    if view.phase == "layout":
        circulating = {t for t in START_TILES} | set(range(TILES, CARDS))
    else:
        circulating = {s[-1].tile for i, s in enumerate(view.stacks) if i not in view.sites} | set(range(TILES, CARDS))
    seen = set(own_hand) | set(view.discard) | ({own_selection.card} if own_selection is not None else set())
    dealt, rest = deal(circulating - seen, [view.hand_sizes[q] for q in others], SORTED, rng)
    choosers = [q for q in others if view.chosen[q]]
    picks, draw = deal(rest, [1] * len(choosers), SORTED, rng)
    hands: list[tuple[int, ...]] = [()] * view.players
    selections: list[Select | None] = [None] * view.players
    hands[me] = own_hand
    selections[me] = own_selection
    for q, hand in zip(others, dealt, strict=True):
        hands[q] = hand
    for q, (card,) in zip(choosers, picks, strict=True):
        selections[q] = Select(card)
    return tuple(hands), tuple(selections), draw


def _tiles(
    game: UrbanizationGame, view: UrbanizationView, others: list[int], rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """Others' tiles, the stack and the second stack, from the tiles the viewer cannot see."""
    n, me = view.players, view.player
    own_tiles = view.tiles[me] or ()
    own_selection = view.selection
    placed = {f.tile for s in view.stacks for f in s}
    if view.phase == "layout":
        placed |= set(START_TILES)
    used = (
        placed | set(own_tiles) | ({own_selection.tile} if own_selection and own_selection.tile is not None else set())
    )
    hidden_tiles = [t for t in range(TILES) if t not in used]
    stack_size = view.draws_left + game.rules.removed_tiles(n) if view.exhaustion == 0 else game.rules.removed_tiles(n)
    stack_size = min(stack_size, len(hidden_tiles))
    second_size = min(view.second_size, len(hidden_tiles) - stack_size)
    (stack, second), held = deal(hidden_tiles, [stack_size, second_size], SORTED, rng)
    tiles: list[list[int]] = [[] for _ in range(n)]
    tiles[me] = list(own_tiles)
    for tile in held:  # how many tiles another player holds is hidden: each goes to anyone
        tiles[others[int(rng.random() * len(others))]].append(tile)
    return tuple(tuple(sorted(t)) for t in tiles), stack, second


def _characters(
    game: UrbanizationGame, view: UrbanizationView, others: list[int], rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Others' kept characters and draft hands during the draft, and the box."""
    me = view.player
    chars: list[tuple[int, ...]] = [c if c is not None else () for c in view.chars]
    draft: list[tuple[int, ...]] = [()] * view.players
    draft[me] = view.draft
    pool = list(game.characters.copies)
    if game.rules.character_mode == "draft" and view.phase in ("characters", "draft"):
        box = [k for k in range(9) for _ in range(pool[k])]
        for k in (*chars[me], *view.draft):
            box.remove(k)
        if view.phase == "characters":  # seats before ``turn`` hold 4 dealt cards, none kept yet
            sizes = {q: (4 if q < view.turn else 0, 0) for q in others}
        else:  # those still to pick hold one card more than those who have picked
            biggest = len(view.draft) + (0 if me in view.to_act else 1)
            total = len(chars[me]) + len(view.draft)
            sizes = {q: (biggest - (q not in view.to_act), total - biggest + (q not in view.to_act)) for q in others}
        # URB-RAND-5: what the viewer passed and does not hold again is held by the others.
        owed = list((Counter(view.passed_characters) - Counter((*chars[me], *view.draft))).elements())
        for k in owed:
            box.remove(k)
        slots = [n for pair in sizes.values() for n in pair]
        if len(owed) > sum(slots):
            raise InvalidStateError("the viewer passed more characters than the others hold", "URB-RAND-5")
        (filler,), _ = deal(box, [sum(slots) - len(owed)], SORTED, rng)
        hands_of, _ = deal([*owed, *filler], slots, SORTED, rng)
        for i, q in enumerate(sizes):
            draft[q], chars[q] = hands_of[2 * i], hands_of[2 * i + 1]
    for hand in (*chars, *draft):
        for k in hand:
            pool[k] -= 1
    return tuple(chars), tuple(draft), tuple(pool)


def determinize_view(view: UrbanizationView, rng: random.Random) -> UrbanizationState:
    """The ``GameSpec.determinize`` hook: ``determinize`` for the game the view names."""
    return determinize(view.game, view, rng)
