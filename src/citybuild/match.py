"""Matches and records: the mutable shell around a game's immutable states.

A ``Match`` keeps the history, offers undo and redo, and resolves chance states with its own
generator, seeded by an int, so that a seed gives the same game on every Python 3.11+. Chance
outcomes and random moves are drawn by the state's own sampler, ``State.random_move(rng)``, which
uses the generator only through ``random.Random.random()`` (whose sequence Python keeps stable
across versions): one call for a card draw, one per die for a Skyline roll, and never a listing of
every outcome (a big roll has over a million).

A ``GameRecord`` (``citybuild.record``) is what a match writes down; ``replay`` rebuilds a match
from a record alone: chance outcomes come from the record, never from a generator.
"""

from __future__ import annotations

import random
import secrets
from array import array
from collections.abc import Iterable
from typing import Any

import attrs

from citybuild.core.errors import IllegalMoveError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.registry import load
from citybuild.core.text import plural
from citybuild.core.verdict import Verdict, refuse
from citybuild.record import FinalScore, GameRecord, RecordEntry, rule_overrides
from citybuild.serialize import from_json


@attrs.frozen
class Entry:
    """One step of a match's history: ``player`` made ``move`` (``player`` is None for a chance outcome)."""

    player: int | None
    move: Any

    @property
    def is_chance(self) -> bool:
        return self.player is None

    def __str__(self) -> str:
        who = "chance" if self.player is None else f"P{self.player}"
        return f"{who}: {self.move}"


def check_seed(seed: Any) -> int:
    """A seed must be an int (not a bool): anything else would not reproduce across Python versions."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"a match seed must be an int, not {seed!r}")
    return seed


@attrs.define
class _Frame:
    """A point in the history where a player was to decide, with the generator state there."""

    index: int
    packed: tuple[int, array[int], Any]
    """The generator state, its 625 words packed 4 bytes each: a match keeps one per player
    move, and as Python ints they took about 23 KB a move (10 MB for a long game on a server)."""

    @classmethod
    def at(cls, index: int, rng: random.Random) -> _Frame:
        version, words, gauss = rng.getstate()
        return cls(index, (version, array("I", words), gauss))

    @property
    def rng_state(self) -> tuple[Any, ...]:
        version, words, gauss = self.packed
        return (version, tuple(words), gauss)


class Match:
    """A game in progress: current state, history, undo/redo and a seeded source of chance.

    ``Match(game, seed=7)`` with a loaded ``Game`` (or a game name, loaded with its defaults).
    With ``auto_chance=True`` (the default) every chance state is resolved as soon as it is
    reached, so ``state`` is always a decision or the end. A bad seed, or an ``auto_chance``
    that is not a bool, raises ``RulesError``.

    Undo semantics: ``undo()`` takes back the last player move together with every chance outcome
    that followed it, so the match is back at that player's decision; chance outcomes before the
    first move (an opening deal) are never undone. The generator is rewound with it, so playing
    the same move again draws the same outcomes, and ``redo()`` restores exactly what was undone.
    Any new move clears the redo stack.
    """

    def __init__(self, game: Game | str, seed: int | None = None, *, auto_chance: bool = True) -> None:
        if isinstance(game, str):
            game = load(game)
        if not isinstance(game, Game):
            raise RulesError(f"a Match needs a Game (from citybuild.load) or a game name, not {game!r}")
        if not isinstance(auto_chance, bool):
            raise RulesError(f"auto_chance must be True or False, not {auto_chance!r}")
        self._game = game
        self._seed = secrets.randbits(32) if seed is None else check_seed(seed)
        self._rng = random.Random(self._seed)
        self._auto = auto_chance
        self._states: list[State] = [game.initial_state()]
        self._history: list[Entry] = []
        self._frames: list[_Frame] = []  # one per player move, with the generator state before it
        self._redo: list[tuple[list[Entry], list[State], list[_Frame], tuple[Any, ...]]] = []
        if self._auto:
            self._resolve_all()

    # --- what a caller reads ------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played."""
        return self._game

    @property
    def seed(self) -> int:
        """The seed of the match's generator, which draws every chance outcome it resolves."""
        return self._seed

    @property
    def state(self) -> State:
        """The current position."""
        return self._states[-1]

    @property
    def history(self) -> tuple[Entry, ...]:
        """Every move and chance outcome so far, in order, with who made it (None for chance)."""
        return tuple(self._history)

    @property
    def states(self) -> tuple[State, ...]:
        """The initial state and the state after each history entry."""
        return tuple(self._states)

    @property
    def is_over(self) -> bool:
        """Whether the current state ends the game."""
        return self.state.is_over

    @property
    def can_undo(self) -> bool:
        """Whether a player move can be taken back with ``undo``."""
        return bool(self._frames)

    @property
    def can_redo(self) -> bool:
        """Whether ``redo`` has something to play again."""
        return bool(self._redo)

    # --- playing -----------------------------------------------------------------------------
    def play(self, move: Any, player: int | None = None) -> State:
        """Play a move (a move value or its notation text) and resolve the chance that follows.

        Raises ``NotationError`` for unreadable text and ``IllegalMoveError`` for a refused move;
        either way the match is unchanged. Returns the new current state.
        """
        state = self.state
        if isinstance(move, str):
            move = self._game.parse_move(move)
        after = state.play(move, player)
        who: int | None = None
        if not state.is_chance:
            who = player if player is not None else state.to_act[0]
            self._frames.append(_Frame.at(len(self._history), self._rng))
        self._history.append(Entry(who, move))
        self._states.append(after)
        self._redo.clear()
        if self._auto:
            self._resolve_all()
        return self.state

    def resolve_chance(self) -> Any:
        """Sample the pending chance event with the match's generator and play it; return the outcome.

        The outcome comes from ``state.random_move(rng)``, which draws it with its exact probability
        without listing every outcome. Raises ``IllegalMoveError`` when no chance event is pending.
        """
        state = self.state
        if not state.is_chance:
            raise IllegalMoveError(refuse("no-chance", state.turn_rule, "no chance event is pending"), "resolve_chance")
        outcome = state.random_move(self._rng)
        self._history.append(Entry(None, outcome))
        self._states.append(state.play(outcome))
        return outcome

    def _resolve_all(self) -> None:
        while self.state.is_chance:
            self.resolve_chance()

    def random(self) -> float:
        """A float in [0, 1) from the match's own generator (for bots whose games must replay)."""
        return self._rng.random()

    def random_move(self, player: int | None = None) -> Any:
        """A uniformly random legal move for ``player`` (or the sole player to act), drawn with the
        match's generator by ``state.random_move`` (which need not list every legal move); at a
        chance state with no ``player`` (``auto_chance=False``), an outcome drawn with its
        probability. Raises ``IllegalMoveError`` when there is none."""
        state = self.state
        if state.is_over or not self._acts(state, player):
            who = f"P{player}" if player is not None else "anyone"
            verdict = refuse("no-legal-move", state.turn_rule, f"{who} has no legal move here")
            raise IllegalMoveError(verdict, "random_move")
        try:
            return state.random_move(self._rng, player)
        except IllegalMoveError as exc:  # a player to act with no legal move (a game may allow it)
            raise IllegalMoveError(exc.verdict, "random_move") from None

    @staticmethod
    def _acts(state: State, player: int | None) -> bool:
        """Whether ``player`` (None: the sole player to act, or chance) may move now."""
        if state.is_chance:
            return player is None
        if player is None:
            return len(state.to_act) == 1
        return player in state.to_act

    # --- undo and redo -------------------------------------------------------------------------
    def undo(self) -> tuple[Entry, ...]:
        """Take back the last player move and the chance outcomes after it; return what was undone
        (an empty tuple, changing nothing, when there is no player move to take back)."""
        if not self._frames:
            return ()
        frame = self._frames.pop()
        entries = self._history[frame.index :]
        states = self._states[frame.index + 1 :]
        self._redo.append((entries, states, [frame], self._rng.getstate()))
        del self._history[frame.index :]
        del self._states[frame.index + 1 :]
        self._rng.setstate(frame.rng_state)
        return tuple(entries)

    def redo(self) -> tuple[Entry, ...]:
        """Play again what the last ``undo`` took back, with the same chance outcomes; return it
        (an empty tuple, changing nothing, when there is nothing to redo)."""
        if not self._redo:
            return ()
        entries, states, frames, rng_state = self._redo.pop()
        self._frames.extend(frames)
        self._history.extend(entries)
        self._states.extend(states)
        self._rng.setstate(rng_state)
        return tuple(entries)

    # --- records ---------------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The record of the game so far (with the final result once it is over)."""
        state = self.state
        result = None
        if state.is_over:
            sheet = state.scores()
            result = FinalScore(sheet.totals, sheet.winners, sheet.tiebreak)
        return GameRecord(
            game=self._game.name,
            preset=self._game.preset,
            players=self._game.players,
            options=rule_overrides(self._game),
            seed=self._seed,
            moves=tuple(RecordEntry(e.player, str(e.move)) for e in self._history),
            result=result,
        )

    def __repr__(self) -> str:
        return (
            f"<Match {self._game.name}/{self._game.preset} {self._game.players}p seed={self._seed} "
            f"{len(self._history)} steps{' over' if self.is_over else ''}>"
        )


def replay(record: GameRecord | str) -> Match:
    """Rebuild the match a record describes, taking every chance outcome from the record.

    No outcome is drawn from a generator, so a record replays the same on any machine.

    ``record`` is a ``GameRecord`` or its JSON text. Raises ``IllegalMoveError`` naming the index,
    the move and the verdict of the first move the rules refuse, and ``NotationError`` for a record
    that cannot be read: an unknown game, preset, player count, option or a bad seed; an entry that
    is not a ``RecordEntry`` of a seat (or None for chance) and notation text (``where`` is
    ``$.moves[i]``, ``$.moves[i].player`` or ``$.moves[i].move``); a stated result that the replay
    does not reach (``where`` is ``$.result...``).

    The replayed match resolves chance itself from then on, like a new ``Match``. Its generator is
    seeded by the record's seed and, at each recorded chance outcome, advanced exactly as
    ``resolve_chance`` would have advanced it there (``state.random_move(rng)``, its draw thrown
    away): that is exactly the original match's generator whenever the original used its generator
    only for chance. A chance event still pending where the record ends (a record that stops right
    after a player move) is then resolved with this generator, so ``state`` is a decision or the end;
    those outcomes are in the match's history, not in the record.
    """
    if isinstance(record, str):
        record = from_json(record)
    if not isinstance(record, GameRecord):
        raise NotationError(f"expected a game record, got {type(record).__name__}", "$.type")
    options = record.options
    if not isinstance(options, dict) or not all(isinstance(name, str) for name in options):
        raise NotationError(f"expected a dict of rule options by name, got {options!r}", "$.options")
    try:
        game = record.load()
    except RulesError as exc:
        raise NotationError(str(exc), "$.game") from None
    try:
        match = Match(game, seed=record.seed, auto_chance=False)
    except RulesError as exc:
        raise NotationError(str(exc), "$.seed") from None
    entries = _checked_entries(record.moves, game.players)
    if record.result is not None and not isinstance(record.result, FinalScore):
        raise NotationError(f"expected a FinalScore or None, got {record.result!r}", "$.result")
    rng = match._rng
    for index, entry in enumerate(entries):
        state = match.state
        try:
            move = game.parse_move(entry.move)
        except NotationError as exc:
            raise NotationError(str(exc), f"$.moves[{index}].move") from None
        verdict = _verdict(state, move, entry.player)
        if not verdict.ok:
            raise IllegalMoveError(verdict, move, index=index)
        if entry.player is None:
            state.random_move(rng)  # keep the generator where resolve_chance would have left it
            match._history.append(Entry(None, move))
            match._states.append(state.play(move))
        else:
            match.play(move, entry.player)
    _verify_result(match.state, record, len(entries))
    match._auto = True
    match._resolve_all()
    return match


def _checked_entries(moves: Any, players: int) -> tuple[RecordEntry, ...]:
    """The record's entries, each a ``RecordEntry`` of a seat or None and notation text."""
    if not isinstance(moves, tuple):
        raise NotationError(f"expected a tuple of RecordEntry values, got {moves!r}", "$.moves")
    for index, entry in enumerate(moves):
        path = f"$.moves[{index}]"
        if not isinstance(entry, RecordEntry):
            raise NotationError(f"expected a RecordEntry (or a (player, move text) pair), got {entry!r}", path)
        player = entry.player
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            raise NotationError(f"expected a seat number or None for chance, got {player!r}", f"{path}.player")
        if player is not None and not 0 <= player < players:
            raise NotationError(f"there is no player {player} in a {players}-player game", f"{path}.player")
        if not isinstance(entry.move, str):
            raise NotationError(f"expected move notation text, got {entry.move!r}", f"{path}.move")
    return moves


def _verdict(state: State, move: Any, player: int | None) -> Verdict:
    if player is None and not state.is_chance:
        if state.is_over:
            return state.check(move)
        who = ", ".join(f"P{p}" for p in state.to_act)
        return refuse("not-chance", state.turn_rule, f"no chance event is pending; {who} is to act, not chance")
    return state.check(move, player)


def _verify_result(state: State, record: GameRecord, steps: int) -> None:
    stated = record.result
    if stated is None:
        return
    if not state.is_over:
        raise NotationError(
            f"the record states a final result but the game is not over after {plural(steps, 'move')}", "$.result"
        )
    sheet = state.scores()
    checks: Iterable[tuple[str, Any, Any]] = (
        ("totals", stated.totals, sheet.totals),
        ("winners", stated.winners, sheet.winners),
        ("tiebreak", stated.tiebreak, sheet.tiebreak),
    )
    for name, said, actual in checks:
        if (tuple(said) if isinstance(said, list | tuple) else said) != actual:
            raise NotationError(
                f"the record states {name} {said!r} but the replay gives {actual!r}", f"$.result.{name}"
            )
