"""``random``: a legal move drawn uniformly, the baseline every other bot must beat."""

from __future__ import annotations

import random
from typing import Any

import attrs

from citybuild.bots.base import check_rng, require_moves


@attrs.frozen
class RandomBot:
    """Uniform over the viewer's legal moves (one ``rng.random()`` per choice)."""

    label = "random"

    def choose(self, view: Any, rng: random.Random) -> Any:
        moves = require_moves(view)
        return moves[int(check_rng(rng).random() * len(moves))]
