"""The base of the engine's parts. ``UrbanizationEngine`` is one class made of mixins, one per idea,
each in the module named after it (``city``, ``gains``, ``construction``, ``actions``, ``draft``,
``exhaustion``, ``rounds``, ``outcomes``); this base gives every part the game's rules and declares,
for the type checker only, the steps of the round flow that earlier parts hand on to (an action
ends in the flow, and the flow starts the next action, so the loop closes there)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citybuild.games.urbanization.position import UrbanizationPosition
from citybuild.games.urbanization.rules import Rules

if TYPE_CHECKING:
    from citybuild.games.urbanization.game import UrbanizationGame


class OfGame:
    """The rules and the player count, read off a position's game (by the engine and the state alike)."""

    if TYPE_CHECKING:
        game: UrbanizationGame

    if TYPE_CHECKING:  # the core's rules and players, typed for this game
        rules: Rules
        players: int


class EnginePart(OfGame, UrbanizationPosition):
    """What every part of the engine reads: the fields, the rules and the player count."""

    if TYPE_CHECKING:  # written in rounds.py

        def continue_action(self) -> None: ...

        def check_end(self) -> None: ...

        def next_actor(self) -> None: ...

        def settle(self) -> None: ...
