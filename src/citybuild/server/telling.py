"""What a seat is told in words: the latest steps as it saw them, and whether it may undo.

Both are worked out from the room's match and kept in the room, so an answer tells each step once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citybuild.core.choices import move_words
from citybuild.match import Match
from citybuild.sighting import secret_steps, seen_by_all, undo_refusal
from citybuild.terminal.story import story_lines

if TYPE_CHECKING:
    from citybuild.server.room import Room


LOG_STEPS = 80
"""How many of the latest steps an answer's ``log`` tells."""


def log_lines(room: Room, seat: int | None) -> list[str]:
    """The latest steps as the seat saw them (a spectator: what every seat saw), told as the
    terminal tells them: round headers, moves, score items as they are earned. Each step is told
    once and kept, until an undo takes it back."""
    match = room.match
    history = match.history
    viewers = [seat] if seat is not None else list(range(match.game.players))
    told = room.told.setdefault(seat, [])
    kept = next((i for i, (entry, _) in enumerate(told) if i >= len(history) or entry is not history[i]), len(told))
    del told[kept:]
    secret = secret_steps(match.states, history) if len(told) < len(history) else []
    for index in range(len(told), len(history)):
        lines = story_lines(match, index, viewers, stop=index + 1, secret=secret)
        told.append((history[index], [line.strip() for line in _in_words(match, index, lines, viewers, secret)]))
    return [line for _, lines in told[-LOG_STEPS:] for line in lines]


def _in_words(match: Match, index: int, lines: list[str], viewers: list[int], secret: list[bool]) -> list[str]:
    """The story's lines of step ``index`` with its move told in words (``core.choices``), where
    the viewers see the whole move: ``P1: Build with the blue upper floor ... (build UFB 1)``.
    A move seen by its kind only (a secret choice) stays as the story tells it."""
    entry = match.history[index]
    before = match.states[index]
    if entry.player is None or seen_by_all(before, entry.move, entry.player, viewers, secret[index]) != entry.move:
        return lines
    plain = f"  {'P' + str(entry.player):<6} {entry.move}"
    if plain not in lines:
        return lines
    words = move_words(before.view(entry.player), entry.move)
    return [f"P{entry.player}: {words} ({entry.move})" if line == plain else line for line in lines]


def undo_refusal_of(room: Room, seat: int) -> str | None:
    """``undo_refusal`` for the seat, worked out once per step of the match."""
    history = room.match.history
    last = history[-1] if history else None
    known = room.undo_answer.get(seat)
    if known is not None and known[0] == len(history) and known[1] is last:
        return known[2]
    refusal = undo_refusal(room.match, seat)
    room.undo_answer[seat] = (len(history), last, refusal)
    return refusal
