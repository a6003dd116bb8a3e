"""``citybuild show --html``: a whole game record as one self-contained HTML page, to step through
in any browser, offline.

The page opens at the last move (or at the move its address names: ``#move=N``); buttons, a
slider, the arrow keys, Home and End move through it, the space bar or *Play* steps on by
itself, and the move list and the score sheet so far follow. For a game with secrets it holds
every seat's story beside the whole one, and a selector shows what the chosen seat saw at each
step: its view, the moves as it saw them (``citybuild.sighting``) and the score sheet it could
read. A page written for one seat (``player``) holds that seat's story and nothing else.

To stay small, each picture is stored as the lines it changes from another: the previous
picture of the same story, or, for a seat, the whole story's picture of the same step (a seat's
picture differs from it in a few hidden things), whichever says less; the lot is gzipped.
"""

from __future__ import annotations

import base64
import difflib
import gzip
import html
import json
from collections.abc import Sequence
from typing import Any

from citybuild.core.errors import NotationError
from citybuild.record import GameRecord
from citybuild.show import Shown, frames, step_index, step_shown, svg_of
from citybuild.sighting import secret_steps, seen_scores_text

Delta = list[Any]
"""A picture as changes to another, line by line: ``[start, end]`` copies those lines of the other,
a list of strings is new lines."""


def replay_html(record: GameRecord, start: int | None = None, player: int | None = None, **options: Any) -> str:
    """The page stepping through ``record`` (see the module's docstring), opening at position
    ``start`` (as ``show.at_move`` reads it: 0 the start, None or -1 the end). With ``player``,
    the page is that seat's alone."""
    states, match = frames(record)
    history = match.history
    players = match.game.players
    if player is not None and not 0 <= player < players:
        raise NotationError(f"--player {player}: seats are 0 to {players - 1}", "--player")
    first = step_index(start, len(history))
    if player is not None:
        seats: list[int | None] = [player]
    elif match.game.spec.hidden_variants is not None:
        seats = [None, *range(players)]
    else:
        seats = [None]
    secret = secret_steps(states, history)
    shown = [step_shown(states, history, secret, i) for i in range(len(states))]
    stories: dict[str, Any] = {}
    whole: list[str] | None = None
    for seat in seats:
        pictures = [svg_of(s, seat, **options) for s in shown]
        stories[_story_name(seat)] = {
            "pictures": _deltas(pictures, whole),
            "moves": [_seen_text(s, seat) for s in shown[1:]],
            **_sheets([str(st.scores()) if seat is None else seen_scores_text(st, seat) for st in states]),
        }
        if seat is None:
            whole = pictures
    data = {"stories": stories, "order": [_story_name(s) for s in seats], "labels": [_label(s) for s in seats]}
    packed = base64.b64encode(gzip.compress(json.dumps(data, separators=(",", ":")).encode(), mtime=0)).decode()
    heading = f"{match.game.spec.title} ({record.preset}), {record.players} players, seed {record.seed}"
    if player is not None:
        heading += f", as P{player} saw it"
    return PAGE.format(
        title=html.escape(heading), heading=html.escape(heading), result=html.escape(_result(record)),
        steps=len(history), start=first, data=packed, chooser="" if len(seats) == 1 else CHOOSER,
    )  # fmt: skip


def _story_name(seat: int | None) -> str:
    return "all" if seat is None else f"P{seat}"


def _label(seat: int | None) -> str:
    return "the whole game" if seat is None else f"what P{seat} saw"


def _seen_text(shown: Shown, seat: int | None) -> list[str]:
    """A step of the move list: who, and what ``seat`` saw of it."""
    seen = shown.seen_by(seat)
    return [
        "chance" if shown.last_player is None else f"P{shown.last_player}",
        "(hidden)" if seen is None else str(seen),
    ]


def _sheets(texts: Sequence[str]) -> dict[str, list[Any]]:
    """Each position's score sheet, each distinct sheet stored once."""
    sheets: list[str] = []
    index: list[int] = []
    for text in texts:
        if not sheets or sheets[-1] != text:
            sheets.append(text)
        index.append(len(sheets) - 1)
    return {"sheets": sheets, "sheet": index}


def _deltas(pictures: Sequence[str], whole: Sequence[str] | None) -> list[Delta]:
    """Each picture as the changes from the one before it, or from ``whole``'s picture of the same
    step (a seat's story), whichever is shorter."""
    out: list[Delta] = []
    previous: list[str] = []
    for i, picture in enumerate(pictures):
        lines = picture.split("\n")
        delta = _delta(previous, lines)
        if whole is not None:
            other = _delta(whole[i].split("\n"), lines)
            if len(json.dumps(other)) < len(json.dumps(delta)):
                delta = [0, *other]  # 0 first: the changes are from the whole story's picture
        out.append(delta)
        previous = lines
    return out


def _delta(old: list[str], new: list[str]) -> Delta:
    ops: Delta = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append([i1, i2])
        elif j2 > j1:
            ops.append(new[j1:j2])
    return ops


def _result(record: GameRecord) -> str:
    if record.result is None:
        return ""
    totals = ", ".join(f"P{p} {t}" for p, t in enumerate(record.result.totals))
    winners = ", ".join(f"P{p}" for p in record.result.winners)
    return f"final: {totals}; winners: {winners}"


CHOOSER = '<label>show <select id="story" aria-label="whose story"></select></label>'

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
#controls button, #controls select {{ font-size: 15px; padding: 4px 10px; }}
#slider {{ flex: 1; min-width: 200px; }}
#where {{ font-weight: bold; min-width: 260px; }}
#main {{ display: flex; gap: 16px; align-items: flex-start; }}
#picture {{ flex: 1 1 0; min-width: 0; }}
#picture svg {{ width: 100%; height: auto; max-height: 88vh; background: #fff; border: 1px solid #ccc; }}
#side {{ flex: 0 0 320px; }}
#moves {{ max-height: 45vh; overflow-y: auto; background: #fff; border: 1px solid #ccc; margin: 0; padding: 4px 0;
  list-style: none; font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }}
#moves li {{ padding: 1px 8px; cursor: pointer; white-space: nowrap; }}
#moves li.current {{ background: #ffe58a; font-weight: bold; }}
#moves li.chance {{ color: #777; }}
#sheet {{ background: #fff; border: 1px solid #ccc; padding: 6px; font-size: 12px; max-height: 35vh; overflow: auto; }}
@media (max-width: 900px) {{ #main {{ flex-direction: column; }} #side {{ flex: none; width: 100%; }} }}
</style>
</head>
<body>
<h1>{heading}</h1>
<div id="result">{result}</div>
<div id="controls">
<button id="first" title="first (Home)">&laquo; first</button>
<button id="prev" title="previous (&larr;)">&lsaquo; previous</button>
<button id="play" title="play on by itself (space)">&#9654; play</button>
<button id="next" title="next (&rarr;)">next &rsaquo;</button>
<button id="last" title="last (End)">last &raquo;</button>
<input id="slider" type="range" min="0" max="{steps}" value="{start}" aria-label="move">
{chooser}
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
// A picture is stored as its changes from another: [start, end] copies those lines, a list adds lines;
// a leading 0 means "from the whole game's picture of this step", else from the story's previous one.
function rebuild(deltas, whole) {{
  const out = [];
  deltas.forEach((delta, i) => {{
    let base = i ? out[i - 1] : [];
    let ops = delta;
    if (delta.length && delta[0] === 0) {{ base = whole[i]; ops = delta.slice(1); }}
    const lines = [];
    for (const op of ops) {{
      if (typeof op[0] === "number") for (let k = op[0]; k < op[1]; k++) lines.push(base[k]);
      else for (const line of op) lines.push(line);
    }}
    out.push(lines);
  }});
  return out;
}}
unpack(document.getElementById("data").textContent).then(data => {{
  const pictures = {{}};
  for (const name of data.order) pictures[name] = rebuild(data.stories[name].pictures, pictures.all);
  const last = pictures[data.order[0]].length - 1;
  const slider = document.getElementById("slider");
  const list = document.getElementById("moves");
  const chooser = document.getElementById("story");
  let story = data.order[0];
  let items = [];
  let at = 0;
  let timer = null;
  function listMoves() {{
    list.innerHTML = "";
    items = data.stories[story].moves.map((move, i) => {{
      const li = document.createElement("li");
      li.textContent = (i + 1) + ". " + move[0] + " " + move[1];
      if (move[0] === "chance") li.className = "chance";
      li.addEventListener("click", () => show(i + 1));
      list.appendChild(li);
      return li;
    }});
  }}
  function show(index) {{
    at = Math.max(0, Math.min(last, index));
    const s = data.stories[story];
    document.getElementById("picture").innerHTML = pictures[story][at].join("\\n");
    document.getElementById("sheet").textContent = s.sheets[s.sheet[at]];
    slider.value = String(at);
    const move = at ? s.moves[at - 1] : null;
    document.getElementById("where").textContent =
      "move " + at + " of " + last + (move ? ": " + move[0] + " " + move[1] : " (start)");
    items.forEach((li, i) => li.classList.toggle("current", i === at - 1));
    if (at > 0) items[at - 1].scrollIntoView({{block: "nearest"}});
    history.replaceState(null, "", "#move=" + at + (story === data.order[0] ? "" : "&story=" + story));
    if (at === last) stop();
  }}
  function stop() {{
    if (timer !== null) clearInterval(timer);
    timer = null;
    document.getElementById("play").innerHTML = "&#9654; play";
  }}
  function play() {{
    if (timer !== null) {{ stop(); return; }}
    if (at === last) show(0);
    timer = setInterval(() => show(at + 1), 700);
    document.getElementById("play").innerHTML = "&#10074;&#10074; pause";
  }}
  if (chooser) {{
    data.order.forEach((name, i) => {{
      const option = document.createElement("option");
      option.value = name;
      option.textContent = data.labels[i];
      chooser.appendChild(option);
    }});
    chooser.addEventListener("change", () => {{ story = chooser.value; listMoves(); show(at); }});
  }}
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(at - 1));
  document.getElementById("next").addEventListener("click", () => show(at + 1));
  document.getElementById("last").addEventListener("click", () => show(last));
  document.getElementById("play").addEventListener("click", play);
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", event => {{
    if (event.target === chooser) return;
    const moves = {{ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last}};
    if (event.key in moves) {{ show(moves[event.key]); event.preventDefault(); }}
    else if (event.key === " ") {{ play(); event.preventDefault(); }}
  }});
  function follow() {{
    const hash = new URLSearchParams(location.hash.slice(1));
    const named = hash.get("story");
    if (named && data.stories[named]) {{ story = named; if (chooser) chooser.value = named; }}
    const old = /^#([0-9]+)$/.exec(location.hash);  // links of older pages: #N
    const move = hash.get("move") !== null ? Number(hash.get("move")) : old ? Number(old[1]) : {start};
    listMoves();
    show(Number.isFinite(move) ? move : {start});
  }}
  window.addEventListener("hashchange", follow);
  follow();
}}).catch(error => {{
  document.getElementById("where").textContent = "this browser cannot open the replay: " + error;
}});
</script>
</body>
</html>
"""
