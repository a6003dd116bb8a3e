"""Manhattan (Andreas Seyfarth, 1994/2017): tower stacking in six 3x3 cities.

Declared here and registered under the ``citybuild.games`` entry point ``manhattan``.
"""

from citybuild.core.registry import GameSpec
from citybuild.games.manhattan import choices, invariants, notation, picture, terminal
from citybuild.games.manhattan.actions import ManhattanDecisions
from citybuild.games.manhattan.determinize import determinize
from citybuild.games.manhattan.encoding import ManhattanEncoder
from citybuild.games.manhattan.evaluate import evaluate
from citybuild.games.manhattan.game import ManhattanGame
from citybuild.games.manhattan.moves import Build, Draw, Forfeit, Pass, Redraw, Select
from citybuild.games.manhattan.rules import PRESETS, Rules
from citybuild.games.manhattan.state import ManhattanState
from citybuild.games.manhattan.view import ManhattanView

SPEC = GameSpec(
    game=ManhattanGame,
    title="Manhattan",
    presets=PRESETS,
    min_players=2,
    max_players=4,
    default_players=4,
    state=ManhattanState,
    notation=notation.state_text,
    validate=invariants.validate,
    view=ManhattanView,
    hidden_variants=ManhattanState.hidden_variants,
    validate_view=ManhattanView.validate,
    render=picture.render,
    board_text=terminal.board_text,
    announce=terminal.announce,
    revealed=terminal.revealed,
    public_scores=True,
    decisions=ManhattanDecisions,
    encoder=ManhattanEncoder,
    determinize=determinize,
    evaluate=evaluate,
    choices=choices.choices,
)

__all__ = [
    "SPEC",
    "Build",
    "Draw",
    "Forfeit",
    "ManhattanGame",
    "ManhattanState",
    "ManhattanView",
    "Pass",
    "Redraw",
    "Rules",
    "Select",
]
