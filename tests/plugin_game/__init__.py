"""A tiny game plugin used to prove that the test kit works on games citybuild does not ship.

``race``: players take turns moving a pawn towards a goal, either stepping 1 or 2 squares or, a
limited number of times, rolling a die (a chance event). The first to reach the goal wins. The same
code is the worked example of docs/guide/plugins.md.
"""

from citybuild.plugin import GameSpec

from .race import PRESETS, Die, RaceGame, RaceState, RaceView, Roll, Step

SPEC = GameSpec(
    name="race",
    title="Dice race",
    presets=PRESETS,
    min_players=2,
    max_players=3,
    default_players=2,
    make=lambda preset, rules, players: RaceGame(preset=preset, rules=rules, players=players),
    state=RaceState,
    view=RaceView,
    moves=(Step, Roll),
    outcomes=(Die,),
)
