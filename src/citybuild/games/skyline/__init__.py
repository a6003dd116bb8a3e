"""Skyline (David Short, 2012): push-your-luck dice, building purple, blue and orange skylines.

Declared here and registered under the ``citybuild.games`` entry point ``skyline``.
"""

from citybuild.core.registry import GameSpec
from citybuild.games.skyline import choices, invariants, notation, picture, terminal
from citybuild.games.skyline.actions import SkylineDecisions
from citybuild.games.skyline.encoding import SkylineEncoder
from citybuild.games.skyline.evaluate import evaluate
from citybuild.games.skyline.game import SkylineGame
from citybuild.games.skyline.moves import (
    Abandon,
    Build,
    Demolish,
    EndTurn,
    Reroll,
    Roll,
    TakeDistrict,
    TakeYard,
)
from citybuild.games.skyline.rules import PRESETS, Rules
from citybuild.games.skyline.state import SkylineState
from citybuild.games.skyline.view import SkylineView

SPEC = GameSpec(
    game=SkylineGame,
    title="Skyline",
    presets=PRESETS,
    min_players=2,
    max_players=4,
    default_players=2,
    state=SkylineState,
    notation=notation.state_text,
    validate=invariants.validate,
    view=SkylineView,
    validate_view=SkylineView.validate,
    render=picture.render,
    board_text=terminal.board_text,
    announce=terminal.announce,
    decisions=SkylineDecisions,
    encoder=SkylineEncoder,
    evaluate=evaluate,
    margin_scale=8.0,  # a tile is worth 9 to 36 points: a narrower scale makes the search shy of risk
    choices=choices.choices,
)

__all__ = [
    "SPEC",
    "Abandon",
    "Build",
    "Demolish",
    "EndTurn",
    "Reroll",
    "Roll",
    "Rules",
    "SkylineGame",
    "SkylineState",
    "SkylineView",
    "TakeDistrict",
    "TakeYard",
]
