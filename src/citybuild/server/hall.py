"""The server's matches: created, found (rebuilt from the database when not in memory), played.

Each match lives in a ``Room``: the ``Match`` (whose seeded generator resolves chance), the bot of
each bot seat, the hashes of the human seats' tokens, and a lock. Everything that reads or changes
a match holds its lock, so moves on one match are applied one at a time: a move is checked
against the position as it is when its turn comes, and of two requests for one decision only the
first can be accepted (the second is then checked against the next position, and refused).

Where several workers share the database (PostgreSQL), the lock is also the match's lock in the
database (``serial``), and a copy in memory older than the database's revision is brought up to
date before it is read or changed; a worker hears of other workers' changes and updates the copies
it holds, so that their watchers hear of them too.

An accepted move is stored before it is answered (``store.append``). A bot's reply is a job in the
database (``store.add_job``), played by a bot thread of any worker (``citybuild.server.botpool``),
each bot from its own view, with a generator derived from the match's seed, the seat and the step
(so a restarted server makes the same bot choices); a move's answer waits for the replies up to
``reply_wait`` seconds. A match whose bots were to move when the server stopped moves them when it
is next loaded (and, with PostgreSQL, as soon as any worker takes its job).
"""

from __future__ import annotations

import functools
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from citybuild.bots import Bot, from_text
from citybuild.core.errors import CitybuildError, IllegalMoveError, NotationError, RulesError
from citybuild.core.registry import games, load, spec
from citybuild.jsonvalues import converter
from citybuild.match import Match, replay
from citybuild.record import RecordEntry
from citybuild.serialize import structure_options, to_data
from citybuild.server.faults import DamagedRecord, database_error
from citybuild.server.payloads import public_payload, seat_payload
from citybuild.server.problems import ApiError, not_found, unauthorized
from citybuild.server.room import Room, bot_rng, bot_texts, bots_to_act, seen_at, take_back
from citybuild.server.storage import STORE_ERRORS, MatchStore
from citybuild.server.store import NewRoom
from citybuild.server.telling import log_lines, undo_refusal_of
from citybuild.server.tokens import digest, new_invite, new_token
from citybuild.sighting import undo_refusal

REPLY_WAIT = 10.0
"""Seconds a move's answer waits for the bots' replies (played by the bot pool) before going out
without them (then the match's events tell of them)."""


class Hall:
    """Every match of one server: ``create``, ``view``, ``play``, ``record``, over one ``Store``.

    ``allow_seed``: whether a creator may choose the match's seed (tests and benchmarks do; on a
    public server whoever knows the seed knows every deal to come, so it is off by default)."""

    def __init__(
        self,
        store: MatchStore,
        *,
        allow_seed: bool = False,
        clock: Callable[[], float] = time.time,
        reply_wait: float = REPLY_WAIT,
    ) -> None:
        self.store = store
        self.allow_seed = allow_seed
        self.clock = clock
        self.reply_wait = reply_wait
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        self.moved = threading.Condition()
        """Notified whenever bots have moved or a match was brought up to date from the database."""
        store.on_change(self._heard)

    # --- creating -----------------------------------------------------------------------------
    def create(
        self,
        game: str,
        players: int | None = None,
        preset: str = "standard",
        options: dict[str, Any] | None = None,
        bots: dict[str, str] | None = None,
        seed: int | None = None,
        *,
        seat: int | None = None,
        open: bool = False,
    ) -> dict[str, Any]:
        """A new match: its id, the creator's ``seat`` and ``token`` (the lowest human seat, or
        ``seat``), an ``invites`` code for every other human seat (by seat number as text), and
        its summary. ``open``: anyone may also take a free seat without an invite."""
        if game not in games():
            raise ApiError(422, "unknown-game", f"unknown game {game!r}; games are: {', '.join(games())}"[:300])
        if seed is not None and not self.allow_seed:
            raise ApiError(422, "seed-not-allowed", "this server chooses every match's seed itself")
        try:
            typed = _typed_options(game, preset, options or {})
            loaded = load(game, players=players, preset=preset, **typed)
        except (RulesError, NotationError) as exc:
            raise ApiError(422, "bad-rules", str(exc)[:500]) from None
        texts = bot_texts(bots or {}, loaded.players)
        humans = [p for p in range(loaded.players) if p not in texts]
        if not humans:  # a whole game would be played inside this one request
            raise ApiError(
                422, "no-human-seat", "a match needs at least one human seat; games between bots: citybuild arena"
            )
        mine = humans[0] if seat is None else seat
        if mine not in humans:
            where = "a computer player's seat" if mine in texts else "no seat of this match"
            raise ApiError(
                422, "bad-seat", f"seat {mine} is {where}; the human seats are {', '.join(map(str, humans))}"[:300]
            )
        token = new_token()
        digests: list[str | None] = [digest(token) if p == mine else None for p in range(loaded.players)]
        room, invites = self.open_room(loaded, texts, digests, seed=seed, open=open)
        room = self._await_bots(room)
        return {"id": room.id, "seat": mine, "token": token, "invites": invites, **room.summary()}

    def open_room(
        self,
        game: Any,
        texts: dict[int, str],
        digests: list[str | None],
        *,
        seed: int | None,
        open: bool,
        rematch_of: str | None = None,
    ) -> tuple[Room, dict[str, str]]:
        """A new match of ``game`` (a loaded game), stored with its bots and the token hashes of
        the seats already held; a fresh invite for every other human seat (answered by seat)."""
        seated = [from_text(texts[p]) if p in texts else None for p in range(game.players)]
        codes = {p: new_invite() for p in range(game.players) if seated[p] is None and digests[p] is None}
        invited = [digest(codes[p]) if p in codes else None for p in range(game.players)]
        match = Match(game, seed=seed if seed is not None else secrets.randbits(63))
        room = Room(secrets.token_urlsafe(9), match, seated, texts, digests, stored=0, invites=invited, open=open)
        with room.lock:
            try:
                room.created = self.store.create(
                    room.id, match.record(), NewRoom(texts, digests, invited, open, rematch_of)
                )
            except STORE_ERRORS as exc:
                raise ApiError(
                    503, "not-stored", f"the match could not be stored, so it was not created: {exc}"
                ) from None
            room.stored = room.version
            room.used = self.clock()
            with self._lock:
                self._rooms[room.id] = room
            self._bots_due(room)
        return room, {str(p): code for p, code in codes.items()}

    # --- finding --------------------------------------------------------------------------------
    def room(self, match_id: str) -> Room:
        """The match with this id, rebuilt from the database if it is not in memory; 404 if none."""
        with self._lock:
            room = self._rooms.get(match_id)
            if room is not None:
                room.used = self.clock()
                return room
            stored = self.store.load(match_id) if len(match_id) <= 64 else None
            if stored is None:
                raise not_found(match_id)
            try:
                match = replay(stored.record)
            except CitybuildError as exc:  # a stored entry no longer replays: the log says which
                raise DamagedRecord(match_id, str(exc)) from None
            seated = [
                from_text(stored.bots[seat]) if seat in stored.bots else None for seat in range(match.game.players)
            ]
            room = Room(
                match_id,
                match,
                seated,
                stored.bots,
                list(stored.digests),
                stored=len(stored.record.moves),
                invites=list(stored.invites),
                open=stored.open,
                rematch=stored.rematch,
                created=stored.created,
                revision=stored.revision,
                used=self.clock(),
            )
            self._rooms[match_id] = room
        with self.serial(room):
            self._store_new(room)  # a pending chance outcome the replay resolved
            self._bots_due(room)  # bots that were to move when the server stopped
        return room

    # --- reading --------------------------------------------------------------------------------
    def view(self, match_id: str, token: str | None, *, picture: bool = False) -> dict[str, Any]:
        """The view of the token's seat, or the public view without a token; 401 for a bad token."""
        room = self.room(match_id)
        with self.serial(room, write=False):
            seat = self._seat(room, token) if token is not None else None
            self._bots_due(room)
            return self._payload(room, seat, picture)

    def record(self, match_id: str) -> dict[str, Any]:
        """The record of a finished match; 409 while it is in play (the record would show hidden moves)."""
        room = self.room(match_id)
        with self.serial(room, write=False):
            if not room.match.is_over:
                raise ApiError(409, "not-over", "the record is given once the game is over")
            return to_data(room.match.record())

    # --- playing --------------------------------------------------------------------------------
    def play(
        self,
        match_id: str,
        token: str | None,
        move: str,
        seat: int | None = None,
        at: int | None = None,
        *,
        picture: bool = False,
    ) -> dict[str, Any]:
        """Play ``move`` (notation text) for the token's seat; the seat's new view once it and the
        bots' answers are stored. 422 for unreadable text, 409 with the verdict for a refused move.

        ``at``: the step count (``moves``) of the position the move was chosen in; when given, a
        move is refused (409 ``stale``) if this seat has moved since, so a request sent twice (a
        retry) is played at most once even where the same move would be legal again, while the
        other seats' moves in a phase where all choose at once do not make it stale."""
        room = self.room(match_id)
        with self.serial(room):
            if token is None:
                raise unauthorized()
            player = self._seat(room, token)
            if seat is not None and seat != player:
                raise ApiError(403, "not-your-seat", f"this token plays seat {player}, not seat {seat}")
            self._bots_due(room)
            if at is not None and (
                not 0 <= at <= room.version or any(e.player == player for e in room.match.history[at:])
            ):
                message = f"the move was chosen at step {at}; seat {player} has moved since (now step {room.version})"
                raise ApiError(409, "stale", message, moves=room.version)
            match = room.match
            try:
                parsed = match.game.parse_move(move)
            except NotationError as exc:
                raise ApiError(422, "notation", str(exc)[:500], move=move[:200]) from None
            verdict = match.state.check(parsed, player)
            if not verdict.ok:
                raise ApiError(
                    409,
                    "illegal-move",
                    f"{move[:200]!r} is illegal: " + "; ".join(str(v) for v in verdict.violations),
                    move=move[:200],
                    violations=[converter.unstructure(v) for v in verdict.violations],
                )
            try:
                match.play(parsed, player)
            except (IllegalMoveError, CitybuildError) as exc:  # check() agrees with play(): not expected
                raise ApiError(409, "illegal-move", str(exc)[:500]) from None
            self._store_new(room)  # the move is played once this returns
            if not self._bots_due(room):
                return self._payload(room, player, picture)
        room = self._await_bots(room)
        with self.serial(room, write=False):
            return self._payload(room, player, picture)

    def undo(self, match_id: str, token: str | None, *, picture: bool = False) -> dict[str, Any]:
        """Take back the token's seat's last move and the moves after it, where the fair-play rule
        allows it (``citybuild.sighting.undo_refusal``: never past a chance outcome the seat was
        told of, nor past another's secret choice of the same round); 409 ``undo-refused`` with
        the reason otherwise. The seat's view afterwards."""
        room = self.room(match_id)
        with self.serial(room):
            if token is None:
                raise unauthorized()
            player = self._seat(room, token)
            self._bots_due(room)
            match = room.match
            refusal = undo_refusal(match, player)
            if refusal is not None:
                raise ApiError(409, "undo-refused", refusal)
            undone = 0
            while match.can_undo:
                undone += 1
                taken = match.undo()
                if taken and taken[0].player == player:
                    break
            try:
                self.store.truncate(room.id, len(match.history))
            except STORE_ERRORS as exc:
                for _ in range(undone):
                    match.redo()
                raise ApiError(
                    503, "not-stored", f"the undo could not be stored, so nothing was undone: {exc}"
                ) from None
            room.stored = len(match.history)
            return self._payload(room, player, picture)

    def builder(self, match_id: str, token: str | None, chosen: tuple[int, ...]) -> dict[str, Any]:
        """The move builder of the token's seat after the decisions ``chosen``: the options now
        (action id and name each), and the move's text once it is complete."""
        from citybuild.core.actions import MoveBuilder

        room = self.room(match_id)
        with self.serial(room, write=False):
            if token is None:
                raise unauthorized()
            player = self._seat(room, token)
            state = room.match.state
            if player not in state.to_act:
                raise ApiError(409, "not-to-act", f"seat {player} is not to act now")
            view = state.view(player)
        try:
            builder = MoveBuilder.start(view)
            for action in chosen:
                builder = builder.choose(action)
        except RulesError as exc:
            raise ApiError(422, "bad-choice", str(exc)[:500]) from None
        done = builder.done
        return {
            "chosen": list(builder.chosen),
            "steps": [builder.decisions.names[a] for a in builder.chosen],
            "options": [{"action": o.action, "name": o.name} for o in builder.options],
            "done": done,
            "move": str(builder.move) if done else None,
        }

    # --- inside ---------------------------------------------------------------------------------
    @staticmethod
    def _seat(room: Room, token: str) -> int:
        seat = room.seat_of(token)
        if seat is None:
            raise unauthorized("this token is not a seat token of this match")
        return seat

    @staticmethod
    def _payload(room: Room, seat: int | None, picture: bool) -> dict[str, Any]:
        state = room.match.state
        if seat is None:
            return {**room.summary(), **public_payload(state, with_picture=picture), "log": log_lines(room, None)}
        refusal = undo_refusal_of(room, seat)
        undo = {"can_undo": refusal is None, "undo_refusal": refusal, "log": log_lines(room, seat)}
        return {**room.summary(), **seat_payload(state, seat, with_picture=picture), **undo}

    def _store_new(self, room: Room) -> None:
        """Store the history entries not yet stored; on failure take them back in memory too (the
        database is the truth) and answer 503."""
        history = room.match.history
        if len(history) == room.stored:
            return
        entries = [RecordEntry(e.player, str(e.move)) for e in history[room.stored :]]
        try:
            self.store.append(room.id, room.stored, entries)
        except STORE_ERRORS as exc:
            take_back(room)
            if (error := database_error(exc)).code == "damaged":  # not a moment's trouble: the operator's
                raise error from None
            raise ApiError(503, "not-stored", f"the move could not be stored, so it was not played: {exc}") from None
        room.stored = len(history)

    def _bots_due(self, room: Room) -> bool:
        """Whether a bot is to act; if so its reply is a job for the bot pool (added once a step)."""
        if not bots_to_act(room):
            return False
        if room.asked != room.version:
            try:
                self.store.add_job(room.id)
            except STORE_ERRORS:  # the match's next request adds it again
                return True
            room.asked = room.version
        return True

    def _await_bots(self, room: Room) -> Room:
        """Wait (``reply_wait`` seconds at most) until no bot is to act in the match; the match's
        copy in memory then (another, if this one was swept out of memory meanwhile)."""
        deadline = time.monotonic() + self.reply_wait
        while True:
            with self.moved:
                self.moved.wait_for(functools.partial(self._answered, room), timeout=deadline - time.monotonic())
            if self._served(room) or time.monotonic() >= deadline:
                return room
            room = self.room(room.id)

    # --- one match at a time --------------------------------------------------------------------
    @contextmanager
    def serial(self, room: Room, *, write: bool = True) -> Iterator[None]:
        """The room's lock and, in a store that workers share, the match's lock in the database
        (``write=False``, for a read: only its revision); a copy older than the database's
        revision is brought up to date first. 503 if the database cannot be reached."""
        with room.lock:
            try:
                with self.store.hold(room.id, write=write) as held:
                    try:
                        if held.revision is not None and held.revision != room.revision:
                            self._catch_up(room)
                        yield
                    finally:
                        room.revision = held.revision
            except STORE_ERRORS as exc:
                raise database_error(exc) from None

    def _catch_up(self, room: Room) -> None:
        """Bring the room to the match as stored (moved through another worker): the new player
        moves played on (chance then follows from the same seeded generator), or the whole record
        replayed when the history was taken back or differs."""
        stored = self.store.load(room.id)
        if stored is None:
            raise not_found(room.id)
        entries, match = stored.record.moves, room.match
        mine = _entries(match)
        if len(mine) == room.stored and mine == entries[: len(mine)]:
            for entry in entries[len(mine) :]:
                if entry.player is not None and len(match.history) < len(entries):
                    match.play(match.game.parse_move(entry.move), entry.player)
        if _entries(match) != entries:
            try:
                room.match = replay(stored.record)
            except CitybuildError as exc:  # a stored entry no longer replays: the log says which
                raise DamagedRecord(room.id, str(exc)) from None
        room.stored, room.revision = len(entries), stored.revision
        room.digests, room.invites = list(stored.digests), list(stored.invites)
        room.open, room.rematch = stored.open, stored.rematch
        self._store_new(room)  # a pending chance outcome the replay resolved

    def _heard(self, match_id: str, revision: int) -> None:
        """Another worker changed a match: a copy in memory that has watchers is brought up to date."""
        room = self._rooms.get(match_id)
        if room is None or not room.watchers or (room.revision is not None and room.revision >= revision):
            return
        try:
            with self.serial(room, write=False):
                pass
        except ApiError:
            return
        with self.moved:
            self.moved.notify_all()

    # --- the bots' replies, played by the bot pool ----------------------------------------------
    def answer_bots(
        self, match_id: str, think: Callable[[Bot, Any, random.Random], Any], done: Callable[[], None]
    ) -> None:
        """Play the match's bots until a human is to act or the game ends, each bot thinking
        (``think``) outside the match's lock; a move chosen in a position that changed meanwhile,
        or in a copy swept out of memory meanwhile (``citybuild.server.sweep``: a request then
        loaded the match again), is chosen again in the copy served now. ``done()`` is called
        under the lock once no bot is to act."""
        room = self.room(match_id)
        while True:
            with self.serial(room):
                served = self._served(room)
                if served:
                    match = room.match
                    state, step, seen = match.state, room.version, seen_at(room)
                    if not bots_to_act(room):
                        done()
                        return
                    asked = [
                        (p, bot, state.view(p), bot_rng(match.seed, p, step))
                        for p in state.to_act
                        if (bot := room.bots[p]) is not None
                    ]
            if served:
                chosen = [(p, think(bot, view, rng)) for p, bot, view, rng in asked]
                with self.serial(room):
                    served = self._served(room)  # kept in memory from here on: the sweep takes the lock first
                    if served and seen_at(room) == seen:
                        for player, move in chosen:
                            room.match.play(move, player)
                        self._store_new(room)
            if not served:
                room = self.room(match_id)
                continue
            with self.moved:
                self.moved.notify_all()

    def _answered(self, room: Room) -> bool:
        """Whether no bot is to act in ``room``, or it left memory (its bots then play in another copy)."""
        return not bots_to_act(room) or not self._served(room)

    def _served(self, room: Room) -> bool:
        """Whether ``room`` is the match's copy in memory (not swept out since it was found)."""
        with self._lock:
            return self._rooms.get(room.id) is room


def _entries(match: Match) -> tuple[RecordEntry, ...]:
    return tuple(RecordEntry(e.player, str(e.move)) for e in match.history)


def _typed_options(game: str, preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """Rule options from JSON, typed by the game's Rules; a dict value changes only the keys it names.
    An option that names a file is refused before anything is read, whatever the file."""
    typed = structure_options(game, preset, options, "$.options", files=False)
    base = spec(game).presets[preset].options()
    for name, value in typed.items():
        if isinstance(value, dict) and isinstance(base.get(name), dict):
            typed[name] = {**base[name], **value}
    return typed
