"""What each seat sees of each step of a game, and when a move may still be taken back: the one
rule that the terminal's log, the pictures' "last move" line, the replay page and ``undo`` ask.

A seat sees every player move in full but the secret ones, which it is told only by their kind
(``P1 give (hidden)``): moves of a kind the game keeps private (``GameSpec.private_moves``, a tile
given face down) and the choices of a round in which several players decide at once (a secret
selection, a draft pick), the last to choose included (``secret_steps``). Of a chance outcome it
is told what the game's ``announce`` hook says (a card it draws itself, a roll everyone sees), and
nothing else; a game with no such hook and no hidden information shows every outcome. A move is
its own player's to see in full, and an onlooker with no seat (``viewer`` None: the record's own
eyes) sees all.

A human may take back their last move only while nothing has been shown to them since that they
could use on a second try: no chance outcome they were told of, no secret choice of another player
in the same round, which is revealed (or soon will be) once everyone has chosen, and nothing that
was hidden when they moved (a hand discarded face up), which replaying the steps from the
positions their view could not tell apart finds (``undo_refusal``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from citybuild.core.determinize import determinize, has_hidden_information
from citybuild.core.errors import CitybuildError
from citybuild.core.scoresheet import ScoreSheet

if TYPE_CHECKING:
    from citybuild.core.game import State
    from citybuild.match import Entry, Match


@attrs.frozen
class Told:
    """A step as a seat is told of it: a secret move by its kind (``give (hidden)``), a chance
    outcome by what it shows the seat (``you draw a 3``). Its ``str`` is the text, so it reads
    wherever a move is printed, and it highlights nothing in a picture."""

    text: str

    def __str__(self) -> str:
        return self.text


def secret_rounds(states: Sequence[State], history: Sequence[Entry]) -> list[bool]:
    """Per step of ``history`` (taken at ``states[i]``), whether it is a choice of a round that
    began with several players to act, made by one of them (the last to choose acts alone, and is
    as secret as the first)."""
    secret: list[bool] = []
    waiting: frozenset[int] = frozenset()  # the players of the round who have not chosen yet
    for state, entry in zip(states, history, strict=False):
        if entry.player is None:
            waiting = frozenset()
            secret.append(False)
            continue
        to_act = frozenset(state.to_act)
        if len(to_act) > 1:
            waiting = to_act
        elif not to_act <= waiting:
            waiting = frozenset()
        secret.append(entry.player in waiting)
        waiting -= {entry.player}
    return secret


def is_secret(state: State, move: Any, in_round: bool) -> bool:
    """Whether a player's ``move`` at ``state`` is secret: a choice of a secret round (``in_round``,
    as ``secret_rounds`` says) or a move of a kind the game keeps private."""
    return in_round or isinstance(move, state.game.spec.private_moves)


def secret_steps(states: Sequence[State], history: Sequence[Entry]) -> list[bool]:
    """Per step of ``history``, whether it is a secret player move (``is_secret``)."""
    rounds = secret_rounds(states, history)
    return [
        entry.player is not None and is_secret(state, entry.move, in_round)
        for state, entry, in_round in zip(states, history, rounds, strict=False)
    ]


def seen_step(state: State, move: Any, mover: int | None, viewer: int | None, secret: bool) -> Any:
    """How ``viewer`` sees the step ``move`` of ``mover`` (None: chance) taken at ``state``
    (``secret``: as ``secret_steps`` says): the move itself when they see all of it, a ``Told``
    saying only what they may know, or None when they learn nothing of it."""
    if viewer is None or mover == viewer:
        return move
    if mover is not None:
        return Told(f"{str(move).split()[0]} (hidden)") if secret else move
    game_spec = state.game.spec
    if game_spec.announce is None:
        return move if game_spec.hidden_variants is None else None
    said = game_spec.announce(state, move, viewer)
    return Told(said) if said is not None else None


def seen_by_all(state: State, move: Any, mover: int | None, viewers: Sequence[int], secret: bool) -> Any:
    """What every one of ``viewers`` may see of a step (several humans at one screen): nothing if
    one of them may see nothing or chance tells them different things, what they are told if one
    of them may see no more, else the move."""
    seen = [seen_step(state, move, mover, viewer, secret) for viewer in viewers] or [move]
    if any(s is None for s in seen):
        return None
    told = [s for s in seen if isinstance(s, Told)]
    if told and mover is None and any(s != told[0] for s in seen):
        return None
    return told[0] if told else seen[0]


def undo_refusal(match: Match, player: int) -> str | None:
    """Why ``player`` may not take back their last move now (a sentence to show them), or None
    when they may."""
    history, states = match.history, match.states
    mine = [index for index, entry in enumerate(history) if entry.player == player]
    if not mine or not match.can_undo:
        return "nothing to undo: you have not moved yet"
    last = mine[-1]
    secret = secret_steps(states, history)
    for index in range(last + 1, len(history)):
        entry = history[index]
        seen = seen_step(states[index], entry.move, entry.player, player, secret[index])
        if entry.player is None and seen is not None:
            return f"cannot undo what chance has shown you since your move: {seen}"
        if entry.player is not None and isinstance(seen, Told):
            return f"cannot undo: P{entry.player} has chosen in secret since your move, and you would choose again"
    index = last - 1  # secret choices made while the player still had to choose: revealed by now
    while index >= 0 and (mover := history[index].player) is not None and player in states[index].to_act:
        if mover != player and secret[index]:
            return f"cannot undo: P{mover} chose in secret in the same round, and you would choose again"
        index -= 1
    if _revealed_since(match, last, player):
        return "cannot undo: the moves since yours showed you something that was hidden when you made it"
    return None


VARIANTS = 8
"""How many of the game's hidden variants ``_revealed_since`` replays the steps from."""
DRAWS = 8
"""How many positions drawn from the player's view (``determinize``) it replays them from."""


def _revealed_since(match: Match, last: int, player: int) -> bool:
    """Whether the steps from ``player``'s move at ``last`` showed them something hidden before it
    (another's hand discarded face up, say): replayed from positions their view could not tell
    from the one they moved in (some of the game's ``hidden_variants``, and positions drawn from
    their view), they would see something else."""
    hidden_variants = match.game.spec.hidden_variants
    if hidden_variants is None:
        return False
    before = match.states[last]
    seen = before.view(player)
    positions = itertools.chain(
        itertools.islice(hidden_variants(before, player), VARIANTS),
        (determinize(match.game, seen, random.Random(f"undo {last} {draw}")) for draw in range(DRAWS)),
    )
    now = match.state.view(player)
    steps = match.history[last:]
    for number, position in enumerate(positions):
        replayed = replay_unseen(position, steps, random.Random(number))
        if replayed is not None and replayed.view(player) != now:
            return True
    return False


def replay_unseen(position: State, steps: Sequence[Entry], rng: random.Random) -> State | None:
    """``steps`` played again from ``position``, each chance outcome as it was where it can come
    out there, else one drawn with ``rng`` (none of them was shown to the player asking, so any
    will do); None when a player's move cannot be played there."""
    state = position
    for entry in steps:
        try:
            state = state.play(entry.move, entry.player)
        except CitybuildError:
            if entry.player is not None:
                return None
            state = state.play(state.random_move(rng))
    return state


def seen_scores(state: State, seat: int | None) -> tuple[ScoreSheet, bool] | None:
    """The score sheet ``seat`` may see (None: a spectator) and whether it is the whole sheet: the
    whole sheet once the game is over, in a game with no hidden information or one whose scores are
    counted in the open (``GameSpec.public_scores``); otherwise, in play, only the seat's own items
    (another's SP behind their screen is hidden), and nothing for a spectator."""
    sheet = state.scores()
    if state.is_over or state.game.spec.public_scores or not has_hidden_information(state.game):
        return sheet, True
    if seat is None:
        return None
    return ScoreSheet(sheet.players, sheet.of(seat)), False


def seen_scores_text(state: State, seat: int | None) -> str:
    """``seen_scores`` as the lines a seat reads: the sheet, or its own items and total."""
    seen = seen_scores(state, seat)
    if seen is None:
        return "scores are hidden until the end"
    sheet, complete = seen
    if complete or seat is None:
        return str(sheet)
    lines = [str(i) for i in sheet.items if i.points]
    parts = " + ".join(f"{cat} {pts}" for cat, pts in sheet.by_category(seat).items())
    lines.append(
        f"P{seat}: {parts or 'nothing'} = {sheet.total(seat)} (your items; the others' are hidden until the end)"
    )
    return "\n".join(lines)
