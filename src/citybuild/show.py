"""``citybuild show``: a position, a JSON state or view, or a record at a move as an SVG picture, or
a whole record as one self-contained HTML replay page.

What is shown comes from one argument: the name of a file (JSON written by ``citybuild.to_json``:
a state, a view or a game record; or a position in notation) or a position's notation itself
(``manhattan/2 round=1 phase=build ...``). The HTML page embeds every picture of the record, the
move list and the score sheet after each move, compressed, with a few lines of script to step
through them: it needs no server and loads nothing from the network.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from pathlib import Path
from typing import Any

import attrs

from citybuild.core.errors import NotationError
from citybuild.core.game import State
from citybuild.core.registry import load
from citybuild.core.svg import picture
from citybuild.core.text import plural
from citybuild.match import replay
from citybuild.record import GameRecord
from citybuild.serialize import from_json
from citybuild.sighting import secret_steps, seen_scores_text, seen_step

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
    entry = history[index - 1]
    secret = secret_steps(states[:index], history[:index])[-1]
    return Shown(states[index], entry.move, entry.player, title, states[index - 1], secret)


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
    return picture(position, last_move=shown.seen_by(player), last_player=shown.last_player, **options)


def replay_html(record: GameRecord, start: int | None = 0, player: int | None = None, **options: Any) -> str:
    """One self-contained HTML page stepping through ``record`` (see the module's docstring),
    opening at position ``start`` (as ``at_move`` reads it: 0 the start, None or -1 the end); a
    link to the page ending in ``#N`` opens it at position N instead. With ``player``, the page is
    that seat's: its views, the steps as it saw them and the score sheet it could read, and
    nothing else (the page holds no secret of the others to hide by script)."""
    states, match = frames(record)
    history = match.history
    if player is not None and not 0 <= player < match.game.players:
        raise NotationError(f"--player {player}: seats are 0 to {match.game.players - 1}", "--player")
    first = step_index(start, len(history))
    secret = secret_steps(states, history)
    pictures: list[str] = []
    sheets: list[str] = []
    sheet_index: list[int] = []
    moves: list[tuple[str, str]] = []
    for i, state in enumerate(states):
        shown = Shown(state)
        if i:
            entry = history[i - 1]
            shown = Shown(state, entry.move, entry.player, "", states[i - 1], secret[i - 1])
            seen = shown.seen_by(player)
            moves.append(
                ("chance" if entry.player is None else f"P{entry.player}", "(hidden)" if seen is None else str(seen))
            )
        pictures.append(svg_of(shown, player, **options))
        sheet = str(state.scores()) if player is None else seen_scores_text(state, player)
        if not sheets or sheets[-1] != sheet:
            sheets.append(sheet)
        sheet_index.append(len(sheets) - 1)
    data = {"pictures": pictures, "sheets": sheets, "sheet": sheet_index, "moves": moves}
    packed = base64.b64encode(gzip.compress(json.dumps(data).encode("utf-8"), mtime=0)).decode("ascii")
    title = match.game.spec.title
    heading = f"{title} ({record.preset}), {record.players} players, seed {record.seed}"
    if player is not None:
        heading += f", as P{player} saw it"
    result = ""
    if record.result is not None:
        totals = ", ".join(f"P{p} {t}" for p, t in enumerate(record.result.totals))
        winners = ", ".join(f"P{p}" for p in record.result.winners)
        result = f"final: {totals}; winners: {winners}"
    return PAGE.format(
        title=html.escape(heading),
        heading=html.escape(heading),
        result=html.escape(result),
        steps=len(history),
        start=first,
        data=packed,
    )


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


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 16px; background: #f4f1ea; color: #222; }}
h1 {{ font-size: 18px; margin: 0 0 4px 0; }}
#result {{ color: #555; margin-bottom: 8px; }}
#controls {{ display: flex; gap: 6px; align-items: center; margin: 8px 0; flex-wrap: wrap; }}
#controls button {{ font-size: 15px; padding: 4px 10px; }}
#slider {{ flex: 1; min-width: 200px; }}
#where {{ font-weight: bold; min-width: 260px; }}
#main {{ display: flex; gap: 16px; align-items: flex-start; }}
#picture {{ flex: 0 1 auto; max-width: 70vw; }}
#picture svg {{ width: 100%; height: auto; max-height: 85vh; background: #fff; border: 1px solid #ccc; }}
#side {{ flex: 1 1 300px; min-width: 260px; }}
#moves {{ max-height: 45vh; overflow-y: auto; background: #fff; border: 1px solid #ccc; margin: 0; padding: 4px 0;
  list-style: none; font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }}
#moves li {{ padding: 1px 8px; cursor: pointer; white-space: nowrap; }}
#moves li.current {{ background: #ffe58a; font-weight: bold; }}
#moves li.chance {{ color: #777; }}
#sheet {{ background: #fff; border: 1px solid #ccc; padding: 6px; font-size: 12px; max-height: 35vh; overflow: auto; }}
</style>
</head>
<body>
<h1>{heading}</h1>
<div id="result">{result}</div>
<div id="controls">
<button id="first" title="first (Home)">&laquo; first</button>
<button id="prev" title="previous (&larr;)">&lsaquo; previous</button>
<button id="next" title="next (&rarr;)">next &rsaquo;</button>
<button id="last" title="last (End)">last &raquo;</button>
<input id="slider" type="range" min="0" max="{steps}" value="{start}" aria-label="move">
<span id="where">loading...</span>
</div>
<div id="main">
<div id="picture"></div>
<div id="side">
<h2 style="font-size:14px">Moves</h2>
<ol id="moves" start="1"></ol>
<h2 style="font-size:14px">Score sheet so far</h2>
<pre id="sheet"></pre>
</div>
</div>
<script id="data" type="application/octet-stream">{data}</script>
<script>
"use strict";
async function unpack(text) {{
  const bytes = Uint8Array.from(atob(text.trim()), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}}
unpack(document.getElementById("data").textContent).then(data => {{
  const last = data.pictures.length - 1;
  const slider = document.getElementById("slider");
  const list = document.getElementById("moves");
  const items = data.moves.map((move, i) => {{
    const li = document.createElement("li");
    li.textContent = (i + 1) + ". " + move[0] + " " + move[1];
    if (move[0] === "chance") li.className = "chance";
    li.addEventListener("click", () => show(i + 1));
    list.appendChild(li);
    return li;
  }});
  let at = 0;
  function show(index) {{
    at = Math.max(0, Math.min(last, index));
    document.getElementById("picture").innerHTML = data.pictures[at];
    document.getElementById("sheet").textContent = data.sheets[data.sheet[at]];
    slider.value = String(at);
    const move = at ? data.moves[at - 1] : null;
    document.getElementById("where").textContent =
      "move " + at + " of " + last + (move ? ": " + move[0] + " " + move[1] : " (start)");
    items.forEach((li, i) => li.classList.toggle("current", i === at - 1));
    if (at > 0) items[at - 1].scrollIntoView({{block: "nearest"}});
  }}
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(at - 1));
  document.getElementById("next").addEventListener("click", () => show(at + 1));
  document.getElementById("last").addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", event => {{
    const moves = {{ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last}};
    if (event.key in moves) {{ show(moves[event.key]); event.preventDefault(); }}
  }});
  const linked = /^#([0-9]+)$/.exec(location.hash);
  show(linked ? Number(linked[1]) : {start});
}}).catch(error => {{
  document.getElementById("where").textContent = "this browser cannot open the replay: " + error;
}});
</script>
</body>
</html>
"""
