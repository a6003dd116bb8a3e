"""The docs' pictures and measured spec tables, made from real positions by the code as it is now.

Used three ways:

- as a MkDocs hook (``hooks:`` in mkdocs.yml): before every build it writes each picture the pages
  show into ``docs/pictures/`` (generated, not committed), so the docs never show a stale picture;
- by the tests (``tests/test_docs_pictures.py``): every picture a page links to is one this makes,
  and each game page's spec table is the one ``spec_table`` measures now;
- as a script: ``python tools/docs_pictures.py`` writes the pictures, ``--tables`` rewrites the
  spec tables in the game pages from a new measurement.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import citybuild as cb
from citybuild.core.svg import picture
from citybuild.games.manhattan.picture import rotation_diagram
from citybuild.match import Match

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "pictures"
TABLE = re.compile(r"(<!-- spec-table: (\w+) -->\n)(.*?)(<!-- /spec-table -->)", re.S)
OPTIONS = re.compile(r"(<!-- options-table: (\w+) -->\n)(.*?)(<!-- /options-table -->)", re.S)
GAMES_MEASURED = 12
"""Random games per player count behind each spec table."""

CHANCE = {
    "manhattan": "yes: the deal and every draw from the 45 cards",
    "skyline": "yes: every roll of the dice (faces by die type)",
    "urbanization": "yes: the starting city, the characters, every card and tile drawn, the first player",
}
HIDDEN = {
    "manhattan": 'yes: the other players\' hands (and, with `selection="simultaneous_hidden"`, their selections)',
    "skyline": "no: everything is on the table",
    "urbanization": "yes: hands, tiles and SP behind the screens, secret selections, the draft",
}
SIMULTANEOUS = {
    "manhattan": 'no (yes with `selection="simultaneous_hidden"`: everyone selects at once)',
    "skyline": "no",
    "urbanization": "yes: the character draft and each round's secret selections",
}


# --- matches -------------------------------------------------------------------------------------
def played(game: str, players: int, seed: int, **options: Any) -> Match:
    """A complete random game (every player's move drawn by the match's generator)."""
    match = Match(cb.load(game, players=players, **options), seed=seed)
    while not match.is_over:
        player = match.state.to_act[0]
        match.play(match.random_move(player), player)
    return match


def at(match: Match, index: int, **options: Any) -> str:
    """The picture of ``match`` after ``index`` steps, its last move highlighted."""
    entry = match.history[index - 1] if index else None
    return picture(
        match.states[index],
        last_move=entry.move if entry else None,
        last_player=entry.player if entry else None,
        **options,
    )


def first(match: Match, test: Callable[[Any], bool]) -> int:
    """The first step after which the position passes ``test``."""
    return next(i for i, state in enumerate(match.states) if test(state))


# --- the pictures ----------------------------------------------------------------------------------
def pictures() -> Iterator[tuple[str, str]]:
    """Every picture of the docs: (file name, SVG text)."""
    yield "manhattan-rotation.svg", rotation_diagram()
    yield from _manhattan()
    yield from _skyline()
    yield from _urbanization()
    yield from _tutorial()
    yield from _how_to_play()


def _manhattan() -> Iterator[tuple[str, str]]:
    match = played("manhattan", 4, seed=7)
    middle = first(match, lambda s: s.round == 3 and s.phase == "build" and sum(map(len, s.towers)) > 30)
    yield "manhattan-game.svg", at(match, middle)
    yield "manhattan-end.svg", at(match, len(match.history))
    view = match.states[middle].view(1)
    yield "manhattan-view-west.svg", picture(view)
    two = played("manhattan", 2, seed=4)
    yield "manhattan-2p-north.svg", at(two, 60, orientation=1)


def _skyline() -> Iterator[tuple[str, str]]:
    match = builders_game(seed=5)
    rolled = [i for i, e in enumerate(match.history, 1) if e.player is None and i > len(match.history) // 2]
    yield "skyline-game.svg", at(match, rolled[0])
    yield "skyline-end.svg", at(match, len(match.history))
    yield "skyline-start.svg", at(match, 0)


def builders_game(seed: int, players: int = 3) -> Match:
    """A Skyline game between players who build whenever they can (extending a building first),
    never abandon or demolish what they could build, and end the turn when nothing can be built:
    random players demolish as often as they build, and their skylines stay bare."""
    from citybuild.games.skyline.moves import Build, EndTurn

    match = Match(cb.load("skyline", players=players), seed=seed)
    while not match.is_over:
        state = match.state
        player = state.to_act[0]
        moves = list(state.legal_moves(player)) if state.phase != "continue" else None
        if moves is None:  # a continue phase lists every reroll: look only at builds and the end
            moves = [m for m in state.legal_moves(player) if isinstance(m, Build | EndTurn)][:200]
        builds = [m for m in moves if isinstance(m, Build)]
        extending = [m for m in builds if m.target is not None]
        choice = extending or builds or [m for m in moves if isinstance(m, EndTurn)] or moves
        match.play(choice[int(match.random() * len(choice))], player)
    return match


def _urbanization() -> Iterator[tuple[str, str]]:
    match = played("urbanization", 3, seed=3)
    middle = first(match, lambda s: s.round >= 8 and s.phase == "choose")
    yield "urbanization-start.svg", at(match, first(match, lambda s: s.phase == "choose"))
    yield "urbanization-game.svg", at(match, middle)
    yield "urbanization-view.svg", picture(match.states[middle].view(0))
    yield "urbanization-end.svg", at(match, len(match.history))


TUTORIAL_SEED = 4
"""The seed of the game the tutorial walks through (docs/guide/tutorial.md)."""


def tutorial_match() -> Match:
    return played("manhattan", 2, TUTORIAL_SEED)


def tutorial_moments(match: Match) -> dict[str, int]:
    """The steps the tutorial shows: the deal, the selections, the first builds, the end of round
    1 (scored), a takeover, the last round and the end."""
    states, history = match.states, match.history
    takeover = next(
        i
        for i in range(1, len(history) + 1)
        if history[i - 1].player is not None
        and type(history[i - 1].move).__name__ == "Build"
        and _taken_over(states[i - 1], states[i])
    )
    return {
        "dealt": first(match, lambda s: s.phase == "select"),
        "selected": first(match, lambda s: s.phase == "build"),
        "first-builds": first(match, lambda s: s.phase == "build" and sum(map(len, s.towers)) == 4),
        "round-1-scored": first(match, lambda s: s.round == 2),
        "takeover": takeover,
        "last-round": first(match, lambda s: s.round == 4 and s.phase == "build"),
        "end": len(history),
    }


def _taken_over(before: Any, after: Any) -> bool:
    return any(a and b and a[-1].owner != b[-1].owner for a, b in zip(before.towers, after.towers, strict=True))


def _tutorial() -> Iterator[tuple[str, str]]:
    match = tutorial_match()
    for name, index in tutorial_moments(match).items():
        yield f"tutorial-{name}.svg", at(match, index)


def _how_to_play() -> Iterator[tuple[str, str]]:
    """The pictures of the three "How to play" pages (docs/games/*-how-to-play.md)."""
    match = played("manhattan", 4, seed=7)
    states, history = match.states, match.history
    yield "howto-manhattan-selected.svg", at(match, first(match, lambda s: s.phase == "build"))
    takeover = next(
        i
        for i in range(1, len(history) + 1)
        if history[i - 1].player is not None and _taken_over(states[i - 1], states[i])
    )
    yield "howto-manhattan-takeover.svg", at(match, takeover)
    yield "howto-manhattan-end.svg", at(match, len(history))

    sky = builders_game(seed=5)
    yield "howto-skyline-start.svg", at(sky, 1)
    rolled = next(i for i, e in enumerate(sky.history, 1) if e.player is None and i > 3)
    yield "howto-skyline-rolled.svg", at(sky, rolled)
    yield "howto-skyline-end.svg", at(sky, len(sky.history))

    urb = played("urbanization", 3, seed=3)
    yield "howto-urbanization-start.svg", at(urb, first(urb, lambda s: s.phase == "choose"))
    yield "howto-urbanization-middle.svg", at(urb, first(urb, lambda s: s.round >= 5 and s.phase == "choose"))
    yield "howto-urbanization-end.svg", at(urb, len(urb.history))


def pages() -> Iterator[tuple[str, str]]:
    """The replay pages the docs link to: (file name, HTML text)."""
    from citybuild.replay_page import replay_html

    yield "tutorial-replay.html", replay_html(tutorial_match().record())


def write(out: Path = OUT) -> list[Path]:
    """Write every picture and replay page into ``out`` (a file is rewritten only when it changed)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, svg in [*pictures(), *pages()]:
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != svg:
            path.write_text(svg, encoding="utf-8")
        written.append(path)
    return written


# --- spec tables ---------------------------------------------------------------------------------
def measure(game: str, players: int, games: int = GAMES_MEASURED) -> dict[str, float]:
    """Random games of ``game``: mean decisions, chance events, legal moves per decision (and the
    largest), and whether several players ever decide at once."""
    decisions, chances, branching, widest, simultaneous = [], [], [], 0, False
    loaded = cb.load(game, players=players)
    for seed in range(games):
        rng = random.Random(seed)
        state = loaded.initial_state()
        made = drawn = 0
        while not state.is_over:
            if state.is_chance:
                state = state.play(state.random_move(rng))
                drawn += 1
                continue
            simultaneous = simultaneous or len(state.to_act) > 1
            player = state.to_act[0]
            count = len(state.legal_moves(player))
            branching.append(count)
            widest = max(widest, count)
            state = state.play(state.random_move(rng, player), player)
            made += 1
        decisions.append(made)
        chances.append(drawn)
    return {
        "decisions": statistics.mean(decisions),
        "chance": statistics.mean(chances),
        "branching": statistics.mean(branching),
        "median_branching": statistics.median(branching),
        "widest": widest,
        "simultaneous": simultaneous,
    }


def spec_table(game: str) -> str:
    """The spec table of a game page, with lengths and branching measured from random games."""
    spec = cb.core.registry.spec(game)
    counts = range(spec.min_players, spec.max_players + 1)
    rows = [
        f"| {spec.title} | |",
        "|---|---|",
        f"| Players | {spec.min_players} to {spec.max_players} (default {spec.default_players}) |",
        f"| Chance | {CHANCE[game]} |",
        f"| Hidden information | {HIDDEN[game]} |",
        f"| Simultaneous moves | {SIMULTANEOUS[game]} |",
    ]
    lengths, widths = [], []
    for n in counts:
        m = measure(game, n)
        lengths.append(f"{n}p: {m['decisions']:.0f} decisions, {m['chance']:.0f} chance events")
        widths.append(f"{n}p: mean {m['branching']:.1f}, median {m['median_branching']:.0f}, largest {m['widest']:,}")
    rows.append(f"| Game length (random games) | {'; '.join(lengths)} |")
    rows.append(f"| Legal moves per decision | {'; '.join(widths)} |")
    rows.append(f"| Presets | {', '.join(f'`{p}`' for p in spec.presets)} |")
    note = (
        f"\nLengths and branching are means over {GAMES_MEASURED} random games per player count, "
        "measured with each release of these docs.\n"
    )
    return "\n".join(rows) + "\n" + note


def options_table(game: str) -> str:
    """A game page's options table: what ``citybuild rules GAME`` says of each option (its value
    in the default preset, what it allows, what it means), so the page and the command agree."""
    rules = cb.load(game).rules
    rows = ["| Option | Default | Allowed | Meaning |", "|---|---|---|---|"]
    for info in rules.describe():
        cells = (f"`{info.name}`", f"`{info.value!r}`", _cell(info.allowed), _cell(info.meaning))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    """Text for a table cell (a pipe would end the cell)."""
    return text.replace("|", "\\|")


def update_tables() -> None:
    for page in sorted((ROOT / "docs" / "games").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        new = TABLE.sub(lambda m: m.group(1) + spec_table(m.group(2)) + m.group(4), text)
        new = OPTIONS.sub(lambda m: m.group(1) + options_table(m.group(2)) + m.group(4), new)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page.relative_to(ROOT)}")


# --- MkDocs hook -----------------------------------------------------------------------------------
def on_pre_build(config: Any) -> None:
    """MkDocs calls this before each build: the pictures are drawn by the code as it is now."""
    write(Path(config["docs_dir"]) / "pictures")


if __name__ == "__main__":
    if "--tables" in sys.argv[1:]:
        update_tables()
    for path in write():
        print(f"wrote {path.relative_to(ROOT)}")
