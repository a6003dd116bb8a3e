"""What a response shows, and to whom: a seat sees its view, a spectator what every seat sees.

Every answer about a position is built here, from the position and the asking seat only, so a
test can prove the promise of the views over the wire: a seat's answer is a function of that
seat's view (a position drawn from the view by ``determinize`` gives the same answer), and a
spectator's answer is a function of what all seats see alike.

- a seat: its view as the library's JSON, its legal moves as text when it is to act, whose turn
  it is, its picture (the SVG of its view, on request) and the score sheet so far;
- a spectator (no valid token): the *public view*, the view JSON with every private field (one
  whose value differs between the seats' views: hands, hidden selections, whose view it is) set to
  ``null``, and its picture (``public_picture``): every seat's entry drawn as the other seats see
  it, so a hand is drawn face down (no picture where a game's secrets cannot be drawn so).

Score sheets: once the game is over the whole sheet is public. In play, a game with no hidden
information (Skyline) shows the whole sheet; a game with hidden information shows a seat only its
own items (Urbanization's SP behind another's screen is hidden) and a spectator nothing.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import attrs

from citybuild.core.choices import choices_of
from citybuild.core.determinize import has_hidden_information
from citybuild.core.game import State
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.svg import picture
from citybuild.jsonvalues import converter
from citybuild.serialize import to_data
from citybuild.sighting import seen_scores, seen_scores_text

LEGAL_MOVES_LIMIT = 5000
"""The most legal moves listed as text (the largest real lists hold about 1200)."""


def seat_payload(state: State, seat: int, *, with_picture: bool = False) -> dict[str, Any]:
    """What ``seat`` is told about ``state``: its view, legal moves, turn, scores (and picture)."""
    view = state.view(seat)
    to_act = seat in state.to_act
    moves = view.legal_moves()[:LEGAL_MOVES_LIMIT] if to_act else []
    legal = [str(m) for m in moves]
    return {
        "seat": seat,
        "to_act": list(state.to_act),
        "your_turn": to_act,
        "over": state.is_over,
        "view": to_data(view),
        "legal_moves": legal,
        "choices": _choices(view, moves, legal),
        "scores": scores_payload(state, seat),
        "picture": picture(view) if with_picture else None,
    }


def _choices(view: Any, moves: list[Any], legal: list[str]) -> list[dict[str, Any]]:
    """Each legal move with the picture part it is played on and its words (``core.choices``),
    from the seat's view only."""
    made = choices_of(view, moves)
    return [{"move": text, "part": c.part, "path": list(c.path)} for text, c in zip(legal, made, strict=True)]


def public_payload(state: State, *, with_picture: bool = False) -> dict[str, Any]:
    """What anyone is told about ``state``: the public view, turn, public scores (and picture)."""
    shown = state.is_over or not has_hidden_information(state.game)
    return {
        "seat": None,
        "to_act": list(state.to_act),
        "your_turn": False,
        "over": state.is_over,
        "view": public_view(state),
        "legal_moves": [],
        "choices": [],
        "scores": scores_payload(state, None),
        "picture": (picture(state) if shown else public_picture(state)) if with_picture else None,
    }


def public_picture(state: State) -> str | None:
    """The picture of what every seat sees alike, or None where the view cannot be drawn so.

    The view drawn is seat 0's with every entry only its owner sees drawn as the others see it:
    a field that differs between the seats' views must be a tuple each of whose entries is the
    same in every view, or ``None`` in every view but one (a hand: drawn as face-down cards). A
    secret of another shape (a hidden choice among several seats, a passed hand) leaves the game
    without a public picture while it lasts. The viewer is nobody (seat ``-1``); seat 0's side is
    drawn at the bottom."""
    players = state.game.players
    views = [state.view(p) for p in range(players)]
    changed: dict[str, Any] = {"player": -1}
    for field in attrs.fields(type(views[0])):
        name = field.name
        values = [getattr(view, name) for view in views]
        if name in ("player", "game") or all(value == values[0] for value in values[1:]):
            continue
        if not all(isinstance(value, tuple) and len(value) == len(values[0]) for value in values):
            return None
        entries = []
        for k in range(len(values[0])):
            seen = [value[k] for value in values]
            if all(entry == seen[0] for entry in seen[1:]):
                entries.append(seen[0])
            elif sum(entry is not None for entry in seen) == 1:
                entries.append(None)
            else:
                return None
        changed[name] = tuple(entries)
    return picture(attrs.evolve(views[0], **changed), orientation=0)


def public_view(state: State) -> dict[str, Any]:
    """The view JSON with every *private field* set to ``null``: a field of the view whose value
    differs between the seats' views here, or did anywhere in a sample game of the same rules
    (``private_fields``). Nulling whole fields, and the same fields whenever it can, keeps the
    pattern of nulls from telling anything (which pieces of a hidden selection differ, say)."""
    views = [to_data(state.view(p))["view"] for p in range(state.game.players)]
    hidden = private_fields(state.game) | _differing(views)
    shown = {name: (None if name in hidden else value) for name, value in views[0].items()}
    return {**to_data(state.view(0)), "view": shown}


SAMPLE_STEPS = 2000
"""The most steps of the random game that finds a game's private fields."""


@functools.lru_cache(maxsize=32)
def private_fields(game: Any) -> frozenset[str]:
    """The fields of ``game``'s views that differ between seats somewhere in a random game played
    under its rules (found once per rule set, then remembered for the last few)."""
    fields: set[str] = set()
    state = game.initial_state()
    rng = random.Random(0)
    for _ in range(SAMPLE_STEPS):
        if state.is_over:
            break
        if not state.is_chance:
            fields |= _differing([to_data(state.view(p))["view"] for p in range(game.players)])
        state = state.random_step(rng)
    return frozenset(fields)


def _differing(views: list[dict[str, Any]]) -> set[str]:
    """The names of the fields whose values are not the same in all ``views``."""
    first = views[0]
    return {name for name, value in first.items() if any(view[name] != value for view in views[1:])}


def scores_payload(state: State, seat: int | None) -> dict[str, Any] | None:
    """The score sheet ``seat`` may see (None: a spectator), as JSON with its text."""
    seen = seen_scores(state, seat)
    if seen is None:
        return None
    sheet, complete = seen
    return _sheet_json(sheet, complete=complete, seat=seat, text=seen_scores_text(state, seat))


def _sheet_json(sheet: ScoreSheet, *, complete: bool, seat: int | None, text: str) -> dict[str, Any]:
    items = [converter.unstructure(item) for item in sheet.items]
    if complete:
        return {
            "complete": True,
            "items": items,
            "totals": list(sheet.totals),
            "winners": list(sheet.winners),
            "tiebreak": sheet.tiebreak,
            "tiebreak_counts": [list(pair) for pair in sheet.tiebreak_counts],
            "text": text,
        }
    assert seat is not None
    return {
        "complete": False,
        "items": items,
        "totals": [sheet.total(seat) if p == seat else None for p in range(sheet.players)],
        "winners": [],
        "tiebreak": None,
        "text": text,
    }
