"""Urbanization (published as Ginkgopolis, Xavier Georges, 2012): cards and tiles grow a city whose
coloured districts score by majority.

Declared here and registered under the ``citybuild.games`` entry point ``urbanization``.
"""

from citybuild.core.registry import GameSpec
from citybuild.games.urbanization import choices, invariants, notation, picture, terminal
from citybuild.games.urbanization.actions import UrbanizationDecisions
from citybuild.games.urbanization.determinize import determinize_view
from citybuild.games.urbanization.encoding import UrbanizationEncoder
from citybuild.games.urbanization.evaluate import evaluate
from citybuild.games.urbanization.game import UrbanizationGame
from citybuild.games.urbanization.moves import (
    Deal,
    Done,
    DrawCard,
    DrawTile,
    FirstPlayer,
    Give,
    Keep,
    Layout,
    NewHand,
    Pick,
    Select,
    Take,
    Token,
)
from citybuild.games.urbanization.rules import PRESETS, Rules
from citybuild.games.urbanization.state import UrbanizationState
from citybuild.games.urbanization.view import UrbanizationView

SPEC = GameSpec(
    game=UrbanizationGame,
    title="Urbanization",
    presets=PRESETS,
    min_players=2,
    max_players=5,
    default_players=3,
    state=UrbanizationState,
    notation=notation.state_text,
    validate=invariants.validate,
    view=UrbanizationView,
    hidden_variants=UrbanizationState.hidden_variants,
    validate_view=UrbanizationView.validate,
    render=picture.render,
    board_text=terminal.board_text,
    announce=terminal.announce,
    private_moves=(Give,),
    revealed=terminal.revealed,
    decisions=UrbanizationDecisions,
    encoder=UrbanizationEncoder,
    determinize=determinize_view,
    evaluate=evaluate,
    choices=choices.choices,
)

__all__ = [
    "SPEC",
    "Deal",
    "Done",
    "DrawCard",
    "DrawTile",
    "FirstPlayer",
    "Give",
    "Keep",
    "Layout",
    "NewHand",
    "Pick",
    "Rules",
    "Select",
    "Take",
    "Token",
    "UrbanizationGame",
    "UrbanizationState",
    "UrbanizationView",
]
