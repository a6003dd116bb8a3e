"""Views as fixed-size vectors of numbers, for learning frameworks (observation tensors).

A game that wants its views read by neural networks declares an ``encoder`` hook
(``GameSpec.encoder``): for a loaded game, an ``Encoder`` whose ``size`` is fixed and whose
``encode(view)`` gives that many floats. It reads only the view, so an encoding can hold nothing
its player may not know.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import RulesError

if TYPE_CHECKING:
    from citybuild.core.game import Game


class Encoder(abc.ABC):
    """A game's fixed-size encoding of its views (one instance per loaded game)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """How many numbers ``encode`` gives, for every view of this game."""

    @abc.abstractmethod
    def encode(self, view: Any) -> Sequence[float]:
        """The view as ``size`` numbers (counts and 0/1 flags, not scaled)."""


def encoder(game: Game) -> Encoder:
    """The game's view encoder (``GameSpec.encoder``); ``RulesError`` for a game that declares none."""
    from citybuild.core.actions import loaded

    hook = loaded(game).spec.encoder
    if hook is None:
        raise RulesError(f"{game.name} declares no encoder hook, so its views have no tensor form")
    return hook(game)
