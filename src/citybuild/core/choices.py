"""Moves as a newcomer chooses them: the part of the picture a move is played on, and its words.

A game may declare ``GameSpec.choices``, a function ``choices(view, moves)`` that answers, for each
of the legal ``moves`` of the view's player, a ``Choice``: the ``part`` of the picture the move
targets (the ``data-part`` attribute its picture gives that element: a lot, a die, a cell), or
None where the board cannot show it (end the turn, reroll), its ``path``, the words of the move
as one or more steps of a choice (``("Reroll some dice", "2 dice: ...")``), and how a log tells
it. A browser client highlights the parts and offers the paths as labelled buttons, without
knowing any rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs


@attrs.frozen
class Choice:
    """Where a move is played on the picture (None: nowhere) and its words, step by step."""

    part: str | None
    path: tuple[str, ...]
    told: str | None = None
    """How a log tells the move once made (None: the path's steps joined), for words that only
    fit a button (``End my turn``)."""

    @property
    def words(self) -> str:
        """The move in words, as a log tells it."""
        return self.told if self.told is not None else ": ".join(self.path)


def choices_of(view: Any, moves: Sequence[Any]) -> list[Choice]:
    """The choices of ``moves`` (legal moves of ``view``'s player) by the view's game's hook;
    without a hook, each move in its notation, as one step with no part."""
    hook = getattr(getattr(view, "game", None), "spec", None)
    declared = getattr(hook, "choices", None)
    if declared is None:
        return [Choice(None, (str(move),)) for move in moves]
    made: list[Choice] = declared(view, moves)
    return made


def move_words(view: Any, move: Any) -> str:
    """A legal move of ``view``'s player in words, as a log tells it (``Choice.words``)."""
    return choices_of(view, [move])[0].words
