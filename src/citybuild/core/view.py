"""The base of every game's view classes: a view lists its player's legal moves from itself alone."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from citybuild.core.determinize import LEGAL_MOVES_SEED, determinize
from citybuild.core.errors import RulesError


class View:
    """What a game's view classes inherit: ``legal_moves()`` from the view alone.

    A view class is a frozen attrs class with a ``player`` field (who looks) and a ``game`` field
    (the game whose rules the view is read under); the position behind it is whatever the game's
    ``determinize`` hook makes of it."""

    __slots__ = ()

    player: int
    game: Any

    def legal_moves(self) -> Sequence[Any]:
        """The viewer's legal moves, equal to ``state.legal_moves(player)`` on the real position
        (none when the viewer is not to act)."""
        game = self.game
        if game is None:
            raise RulesError(
                f"this {type(self).__name__} names no game (it was built by hand or read from an old "
                "document), so its rules are unknown; build views with state.view(player)"
            )
        state = determinize(game, self, random.Random(LEGAL_MOVES_SEED))
        return state.legal_moves(self.player)
