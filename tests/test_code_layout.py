"""The shape of the code, checked so that it stays the shape the design promises: modules a reader
can hold in mind, one template for every game, and no module reaching into another's privates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import citybuild as cb

SRC = Path(cb.__file__).resolve().parent
MODULES = sorted(SRC.rglob("*.py"))
LONGEST = 500
"""No module is longer than this many lines."""

TEMPLATE = {
    "__init__": "the GameSpec: what the game declares to citybuild",
    "rules": "the Rules class, its options and presets",
    "moves": "the move and chance-outcome classes and their notation",
    "position": "the fields of a position, each with who may see it",
    "engine": "the rules of play, written once",
    "state": "the frozen snapshot: scores, and what the core asks of a position",
    "explain": "why a move is refused",
    "scoring": "the itemised score",
    "notation": "positions and views as text, and back",
    "invariants": "what every reachable position satisfies",
    "view": "the view class derived from the position",
    "game": "the Game: rules and player count, the factory of states",
    "actions": "moves numbered as sequences of small decisions",
    "encoding": "views as fixed-size vectors of numbers",
    "evaluate": "what a position promises, for bots that look ahead",
    "picture": "the SVG picture",
    "terminal": "the board at a terminal",
}
"""The modules every game has, each with the same responsibility (a game that needs more splits an
idea into a module named after it)."""


def _relative(path: Path) -> str:
    return str(path.relative_to(SRC.parent))


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_no_module_is_longer_than_a_reader_can_hold(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LONGEST, f"{_relative(path)} has {lines} lines; split it by idea"


def _private_reaches(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("citybuild"):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if _private(a.name)]
        receiver = node.value if isinstance(node, ast.Attribute) else None
        if isinstance(node, ast.Attribute) and node.attr == "_engine" and not _is_self(receiver):
            found.append(f"line {node.lineno}: reads another object's _engine")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_self(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_no_module_reaches_into_another_modules_private_names(path: Path) -> None:
    assert _private_reaches(path) == []


@pytest.mark.parametrize("game", cb.games())
def test_every_game_follows_the_one_module_template(game: str) -> None:
    package = SRC / "games" / game
    have = {p.stem for p in package.glob("*.py")}
    assert set(TEMPLATE) <= have, f"{game} lacks {sorted(set(TEMPLATE) - have)}"


def test_a_game_with_hidden_information_draws_what_its_views_hide_in_determinize() -> None:
    for game in cb.games():
        hides = cb.core.registry.spec(game).determinize is not None
        assert (SRC / "games" / game / "determinize.py").exists() == hides, game
