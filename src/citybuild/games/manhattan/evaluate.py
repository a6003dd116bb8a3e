"""What a Manhattan position is worth to each player, for bots that look ahead.

Points so far, plus what the board promises: the board is scored at the end of this round and of
every later round (MAN-ROUND-4), so each player's share of the current round score (tallest tower,
city majorities, towers owned: MAN-SCORE) is counted for this round in full and for later rounds
at a discount, since towers change hands.
"""

from __future__ import annotations

from typing import cast

from citybuild.core.engine import Engine
from citybuild.games.manhattan.engine import ManhattanEngine
from citybuild.games.manhattan.scoring import round_points

FUTURE_ROUNDS = 0.5
"""What a point of the current board is worth at each later round's scoring."""


def evaluate(engine: Engine) -> tuple[float, ...]:
    """Per player: points so far plus the board's points at stake in the scorings still to come."""
    position = cast(ManhattanEngine, engine)
    points = position.points
    if position.phase == "over":
        return tuple(float(p) for p in points)
    game = position.game
    rules, players = game.rules, game.players
    board = round_points(position.towers, rules, players)
    later = max(0, rules.total_rounds(players) - position.round)
    weight = 1.0 + FUTURE_ROUNDS * later
    return tuple(points[p] + weight * board[p] for p in range(players))
