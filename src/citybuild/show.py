"""``citybuild show``: a position, a JSON state or view, or a record at a move as an SVG picture
(the whole record as an HTML page is ``citybuild.replay_page``'s).

What is shown comes from one argument: the name of a file (JSON written by ``citybuild.to_json``:
a state, a view or a game record; or a position in notation) or a position's notation itself
(``manhattan/2 round=1 phase=build ...``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.errors import NotationError
from citybuild.core.game import State
from citybuild.core.registry import load
from citybuild.core.svg import picture
from citybuild.core.text import plural
from citybuild.match import replay
from citybuild.record import GameRecord
from citybuild.serialize import from_json
from citybuild.sighting import secret_steps, seen_step

if TYPE_CHECKING:
    from citybuild.match import Entry

_HEADER = re.compile(r"([a-z][a-z0-9_-]*)/([0-9]{1,2})(@P[0-9]+)?(\s|$)")


@attrs.frozen
class Shown:
    """What one picture shows: the position (a state or a view) and the step that led to it: the
    move, its player (None: chance), the state it was taken at, and whether it was secret
    (``citybuild.sighting``), so that a seat's picture says of it only what the seat may see."""

    position: Any
    last_move: Any = None
    last_player: int | None = None
    title: str = ""
    before: State | None = None
    secret: bool = False
    marked: Shown | None = None
    """The last player move, when chance came after it: what the picture highlights."""

    def seen_by(self, player: int | None) -> Any:
        """The last step as ``player`` sees it (None: in full), or None when they see nothing of it."""
        if self.before is None or self.last_move is None:
            return self.last_move
        return seen_step(self.before, self.last_move, self.last_player, player, self.secret)


def header_game(text: str) -> str | None:
    """The game named by a position's header (``manhattan/2 ...``), or None."""
    found = _HEADER.match(text.strip())
    return found.group(1) if found else None


def read_position(text: str, preset: str = "standard", options: dict[str, Any] | None = None) -> State:
    """A state from its notation; the game and player count are read from the header."""
    found = _HEADER.match(text.strip())
    if not found:
        raise NotationError(
            "expected a JSON document or a position such as 'manhattan/2 round=1 ...' (the game/players header first)",
            "position",
        )
    if found.group(3):
        raise NotationError("a view's notation cannot be read back; show the position or a JSON view", "position")
    game = load(found.group(1), players=int(found.group(2)), preset=preset, **(options or {}))
    return game.parse_state(text.strip())


def read(source: str, preset: str = "standard", options: dict[str, Any] | None = None) -> Any:
    """A state, a view or a ``GameRecord`` from JSON text, or a state from position notation."""
    stripped = source.lstrip()
    if stripped.startswith("{"):
        return from_json(source)
    return read_position(source, preset, options)


def at_move(record: GameRecord, move: int | None) -> Shown:
    """The position of ``record`` after ``move`` steps (every move and chance outcome counts; 0 is
    the start, None the end; a negative ``move`` counts from the end as Python's indices do, -1
    being the position after the last step), with the step that led to it."""
    match = replay(record)
    states, history = match.states, match.history
    index = step_index(move, len(history))
    title = f"{record.game}, after move {index} of {len(history)}"
    if not index:
        return Shown(states[0], title=title)
    return step_shown(states, history, secret_steps(states[:index], history[:index]), index, title)


def step_shown(
    states: Sequence[State], history: Sequence[Entry], secret: Sequence[bool], index: int, title: str = ""
) -> Shown:
    """Position ``index`` of a match (its states, history and ``secret_steps``) with the step that
    led to it and, when that was chance, the last player move before it, to highlight."""
    if not index:
        return Shown(states[0], title=title)
    entry = history[index - 1]
    marked = None
    if entry.player is None:
        mover = next((i for i in range(index - 1, -1, -1) if history[i].player is not None), None)
        if mover is not None:
            move = history[mover]
            marked = Shown(states[mover + 1], move.move, move.player, "", states[mover], secret[mover])
    return Shown(states[index], entry.move, entry.player, title, states[index - 1], secret[index - 1], marked)


def step_index(move: Any, steps: int) -> int:
    """``move`` as a position index 0 to ``steps`` (None: ``steps``; negative: from the end, -1
    being ``steps``); anything else, or out of range, is a ``NotationError`` giving the range."""
    if move is None:
        return steps
    if isinstance(move, bool) or not isinstance(move, int):
        raise NotationError(f"a move number is an int, not {move!r}", "--move")
    index = move if move >= 0 else steps + 1 + move
    if not 0 <= index <= steps:
        raise NotationError(
            f"the record has {plural(steps, 'move')}; --move takes 0 to {steps}, or -1 (the end) to {-steps - 1}, "
            f"not {move}",
            "--move",
        )
    return index


def frames(record: GameRecord) -> tuple[list[Any], Any]:
    """Every position of a record, with the match that replayed it."""
    match = replay(record)
    return list(match.states), match


def svg_of(shown: Shown, player: int | None = None, **options: Any) -> str:
    """The picture of ``shown`` (seen by ``player`` when given: their view, and the last step as
    they may see it)."""
    position = shown.position
    if player is not None:
        if not isinstance(position, State):
            raise NotationError("--player needs a position or a record; this is already a view", "--player")
        position = position.view(player)
    marked = shown.marked
    if marked is not None:
        options = {**options, "marked_move": marked.seen_by(player), "marked_player": marked.last_player}
    return picture(position, last_move=shown.seen_by(player), last_player=shown.last_player, **options)


def output_path(source: str, given: str | None, suffix: str, exists: bool, move: int | None = None) -> Path:
    """Where to write: the path given, else beside the input file with the new suffix, else
    ``position`` plus the suffix in the current directory. A picture of a record at a move
    carries the move number (``game-move40.svg``), so it does not overwrite the final one."""
    if given:
        return Path(given)
    tail = "" if move is None else f"-move{move}"
    if exists:
        path = Path(source)
        return path.with_name(f"{path.stem}{tail}{suffix}")
    return Path(f"position{tail}{suffix}")
