"""The test kit: hypothesis strategies and the ``check_game`` conformance run, for our tests and yours.

Needs hypothesis (``pip install ".[test]"``).

Examples:
    >>> from citybuild.testing import check_game
    >>> report = check_game("manhattan", presets=["standard"], players=[2])
"""

from citybuild.testing.candidates import illegal_candidates, well_formed
from citybuild.testing.conformance import CheckReport, ConformanceError, check_game
from citybuild.testing.strategies import games, illegal_moves, legal_moves, play_random, plays, states

__all__ = [
    "CheckReport",
    "ConformanceError",
    "check_game",
    "games",
    "illegal_candidates",
    "illegal_moves",
    "legal_moves",
    "play_random",
    "plays",
    "states",
    "well_formed",
]
