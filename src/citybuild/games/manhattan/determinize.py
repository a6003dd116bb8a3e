"""Manhattan positions consistent with a player's view (DESIGN principle 9).

A view hides other players' hands (their sizes are shown), the make-up of the draw pile (its size
is shown) and, under ``selection="simultaneous_hidden"``, the pieces other players have already
selected this round (their colours show supply plus selection). The unseen cards are the 45 minus
the viewer's hand and the discards; they are dealt to the other hands and the draw pile as a
shuffle would (``core.position.deal``), each unseen card equally likely to be anywhere (the
posterior of a random deal given the view, ignoring what opponents' choices might suggest). Each
hidden selection is drawn uniformly among the selections that player could have made, by the
engine's own ``random_move``.
"""

from __future__ import annotations

import random
from typing import cast

from citybuild.core.errors import RulesError
from citybuild.core.position import COUNTS, deal, public_values
from citybuild.games.manhattan.engine import ManhattanEngine
from citybuild.games.manhattan.position import SECRET
from citybuild.games.manhattan.rules import CARDS_PER_LOT
from citybuild.games.manhattan.state import ManhattanState
from citybuild.games.manhattan.view import ManhattanView


def determinize(view: ManhattanView, rng: random.Random) -> ManhattanState:
    """A position whose ``view(view.player)`` is ``view``, hidden facts drawn uniformly (only
    ``rng.random()`` is used)."""
    game = view.game
    me = view.player
    own = view.hands[me]
    if own is None:
        raise RulesError(f"a view of P{me} must show P{me}'s own hand")
    unseen = [CARDS_PER_LOT - own[k] - view.discard[k] for k in range(9)]
    others = [p for p in range(len(view.hands)) if p != me]
    dealt, draw = deal(unseen, [view.hand_sizes[p] for p in others], COUNTS, rng)
    hands = list(view.hands)
    for other, hand in zip(others, dealt, strict=True):
        hands[other] = hand
    hidden = [colour for colour, counts in enumerate(view.chosen) if counts == SECRET]
    state = ManhattanState(
        game=game,
        **public_values(view),
        hands=tuple(h for h in hands if h is not None),
        draw=draw,
        supply=view.supply,
        chosen=tuple(None if isinstance(counts, str) else counts for counts in view.chosen),
    )
    if not hidden:
        return state
    # Hidden selections: each player who has chosen chooses again, uniformly, from the supply
    # the view shows (supply plus selection); the engine keeps the turn, as the real one did.
    engine = cast(ManhattanEngine, state.thaw())
    for player in sorted({game.rules.player_of(colour, game.players) for colour in hidden}):
        engine.apply(engine.random_move(rng, player), player)
    return cast(ManhattanState, engine.freeze())
