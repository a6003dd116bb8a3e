"""The log of a game at the terminal, told as a story: a header when a round begins, each step as
the people watching may see it (``citybuild.sighting``), and each score item the moment it is
earned (a Manhattan round's scoring, a Skyline building completed), not only at the end.

Nothing here knows a game: rounds are the positions' ``round``, and a score item is earned when
a step makes the score sheet grow (a sheet that is worked out afresh, such as Urbanization's
"if the game ended now", is told once, at the end, by the final score).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citybuild.core.determinize import has_hidden_information
from citybuild.core.game import State
from citybuild.match import Entry, Match
from citybuild.sighting import Told, secret_steps, seen_by_all, seen_scores


def story_lines(
    match: Match,
    start: int,
    viewers: Sequence[int] | None = None,
    stop: int | None = None,
    secret: Sequence[bool] | None = None,
) -> list[str]:
    """The steps of ``match`` from ``start`` (up to ``stop``) as lines, as every one of ``viewers``
    may see them (None: everyone's eyes, for a log with no human at the table); ``secret``: the
    match's ``secret_steps``, when the caller has them already."""
    states, history = match.states, match.history
    end = len(history) if stop is None else min(stop, len(history))
    if secret is None:
        secret = secret_steps(states, history[:end])
    lines: list[str] = []
    if start == 0 and (opening := _round(states[0])) is not None:
        lines.append(f"round {opening}")
    if start >= end:  # nothing new (or the match went back: an undo)
        return lines
    items = _sheet_items(states[start], viewers)
    untold = _untold(match, start, viewers, secret)
    for index in range(start, end):
        before, after, entry = states[index], states[index + 1], history[index]
        seen = entry.move if viewers is None else seen_by_all(before, entry.move, entry.player, viewers, secret[index])
        if seen is not None:
            lines.append(f"  {_teller(before, entry, viewers):<6} {seen}")
        if isinstance(seen, Told) and entry.player is not None:
            untold.append(entry)
        lines.extend(_reveal_lines(_revealed(after, untold)))
        now = _sheet_items(after, viewers) if not after.is_over else None
        lines.extend(f"    scores: {item}" for item in _earned(items, now))
        items = now
        round_now = _round(after)
        if round_now is not None and round_now != _round(before) and not after.is_over:
            lines.append(f"round {round_now}")
    return lines


def _teller(state: State, entry: Entry, viewers: Sequence[int] | None) -> str:
    """Who a line is about: the player who moved, or chance; in a log with no human at the table,
    a chance outcome only some seats are shown (a card dealt, a tile drawn) names them."""
    if entry.player is not None:
        return f"P{entry.player}"
    announce = state.game.spec.announce
    if viewers is not None or announce is None:
        return "chance"
    told = [f"P{p}" for p in range(state.game.players) if announce(state, entry.move, p) is not None]
    return "chance" if not told or len(told) == state.game.players else f"chance to {', '.join(told)}:"


def _untold(match: Match, start: int, viewers: Sequence[int] | None, secret: Sequence[bool]) -> list[Entry]:
    """The secret choices made before ``start`` that the viewers were told only by their kind and
    that were not revealed by then: the ones still to be told when the game reveals them."""
    if viewers is None or match.game.spec.revealed is None:
        return []
    untold: list[Entry] = []
    states, history = match.states, match.history
    for index in range(min(start, len(history))):
        entry = history[index]
        if (
            secret[index]
            and entry.player is not None
            and isinstance(seen_by_all(states[index], entry.move, entry.player, viewers, True), Told)
        ):
            untold.append(entry)
        if untold:
            _revealed(states[index + 1], untold)
    return untold


def _revealed(state: State, untold: list[Entry]) -> list[Entry]:
    """The choices of ``untold`` that ``state`` reveals (taken out of ``untold``), in the order made."""
    revealed = state.game.spec.revealed
    if revealed is None or not untold:
        return []
    shown = [entry for entry in untold if entry.player is not None and revealed(state, entry.player, entry.move)]
    for entry in shown:
        untold.remove(entry)
    return shown


def _reveal_lines(shown: list[Entry]) -> list[str]:
    """A line per player of what they revealed; several choices revealed at once (the characters
    kept in a draft) in a sorted list, so the order they were chosen in stays untold."""
    moves: dict[int, list[str]] = {}
    for entry in shown:
        moves.setdefault(entry.player if entry.player is not None else -1, []).append(str(entry.move))
    return [f"  P{player:<5} reveals {', '.join(sorted(said))}" for player, said in moves.items()]


def _round(state: State) -> Any:
    return getattr(state, "round", None)


def _earned(old: tuple[Any, ...] | None, new: tuple[Any, ...] | None) -> list[Any]:
    """The score items a step earned: what a sheet that only grows has gained (none once the game
    is over, ``new`` None: the final score says it all)."""
    if old is None or new is None or len(new) <= len(old) or new[: len(old)] != old:
        return []
    return list(new[len(old) :])


def _sheet_items(state: State, viewers: Sequence[int] | None) -> tuple[Any, ...] | None:
    """The score items every viewer may see: the whole sheet where it is public; in a game that
    hides scores, a lone viewer's own items, and nothing for several at one screen."""
    if viewers is None:
        return state.scores().items
    if len(viewers) != 1 and has_hidden_information(state.game) and not state.is_over:
        return None  # each may see only their own items: nothing is for all of them
    seen = seen_scores(state, viewers[0] if viewers else None)
    return seen[0].items if seen is not None else None
