"""The server's matches: created, found (rebuilt from the database when not in memory), played.

Each match lives in a ``Room``: the ``Match`` (whose seeded generator resolves chance), the bot of
each bot seat, the hashes of the human seats' tokens, and a lock. Everything that reads or changes
a match holds its lock, so moves on one match are applied one at a time: a move is checked
against the position as it is when its turn comes, and of two requests for one decision only the
first can be accepted (the second is then checked against the next position, and refused).

An accepted move is stored before it is answered (``Store.append``). Bots then play their seats
at once, in the same request, each from its own view, with a generator derived from the match's
seed, the seat and the step (so a restarted server makes the same bot choices); their moves are
stored too before the answer goes out. A match whose bots were to move when the server stopped
moves them when it is next loaded.
"""

from __future__ import annotations

import random
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import attrs

from citybuild.bots import Bot, from_text
from citybuild.core.errors import CitybuildError, IllegalMoveError, NotationError, RulesError
from citybuild.core.registry import games, load, spec
from citybuild.jsonvalues import converter
from citybuild.match import Match, replay
from citybuild.record import RecordEntry
from citybuild.serialize import structure_options, to_data
from citybuild.server.faults import DamagedRecord
from citybuild.server.payloads import public_payload, seat_payload
from citybuild.server.problems import ApiError, not_found, unauthorized
from citybuild.server.store import NewRoom, Store
from citybuild.server.telling import log_lines, undo_refusal_of
from citybuild.server.tokens import digest, new_invite, new_token, seat_of
from citybuild.sighting import undo_refusal

SERVER_BOTS = re.compile(r"easy|normal|hard|random|greedy|ismcts(:[0-9]{1,4})?")
"""The bot texts a match may seat: a level (easy, normal, hard), random, greedy, or ismcts with an
iteration count (default 1000, at most ``ISMCTS_LIMIT``, which ``hard`` stays within): a bot plays
inside a request, so its thinking time is bounded."""
ISMCTS_LIMIT = 2000
"""The most iterations an ismcts bot may be given."""


@attrs.define(eq=False)
class Room:
    """One match in memory, with its bots, its seats' token hashes and its lock."""

    id: str
    match: Match
    bots: list[Bot | None]
    bot_texts: dict[int, str]
    digests: list[str | None]
    """The SHA-256 of each seat's token (None: a bot's seat, or a human seat nobody holds yet)."""
    stored: int
    """How many history entries the database holds."""
    invites: list[str | None] = attrs.field(factory=list)
    """The SHA-256 of each seat's unused invite code (None: none)."""
    open: bool = False
    """Whether anyone may take a free seat without an invite (the creator's choice)."""
    rematch: str | None = None
    """The id of this finished match's rematch, once a seat asked for one."""
    created: float = 0.0
    used: float = 0.0
    """When a request last asked for the match (the hall's clock): ``citybuild.server.sweep``."""
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    told: dict[int | None, list[tuple[Any, list[str]]]] = attrs.field(factory=dict)
    """Per seat (None: spectators), each step told as the seat saw it, with the entry it tells
    (what was told of a step stays true while the step stays in the history)."""
    undo_answer: dict[int, tuple[int, Any, str | None]] = attrs.field(factory=dict)
    """Per seat, the undo refusal worked out at a history length and last entry."""

    @property
    def version(self) -> int:
        """How many steps (moves and chance outcomes) the match has taken."""
        return len(self.match.history)

    def seat_of(self, token: str | None) -> int | None:
        return seat_of(token, self.digests)

    def free_seats(self) -> list[int]:
        """The human seats nobody holds yet."""
        return [p for p, bot in enumerate(self.bots) if bot is None and self.digests[p] is None]

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the match itself."""
        game = self.match.game
        return {
            "match": self.id,
            "game": game.name,
            "preset": game.preset,
            "players": game.players,
            "options": {k: converter.unstructure(v) for k, v in self.match.record().options.items()},
            "seats": [self.bot_texts.get(seat, "human") for seat in range(game.players)],
            "moves": self.version,
            "open": self.open,
            "free": self.free_seats(),
            "rematch": self.rematch,
        }


def check_bot(text: Any, seat: str) -> Bot:
    """A server bot from its text; ``ApiError`` 422 for any other text."""
    if not isinstance(text, str) or not SERVER_BOTS.fullmatch(text):
        raise ApiError(
            422,
            "bad-bot",
            f"seat {seat}: bots here are easy, normal, hard, random, greedy or ismcts[:ITERATIONS], not {text!r}"[:300],
        )
    if text.startswith("ismcts:") and int(text.split(":")[1]) > ISMCTS_LIMIT:
        raise ApiError(422, "bad-bot", f"seat {seat}: ismcts may have at most {ISMCTS_LIMIT} iterations here")
    try:
        return from_text(text)
    except RulesError as exc:  # ismcts:0
        raise ApiError(422, "bad-bot", f"seat {seat}: {exc}"[:300]) from None


def _bot_texts(bots: dict[str, str], players: int) -> dict[int, str]:
    """The bots' texts by seat, each checked (``check_bot``); 422 for a seat out of range."""
    texts: dict[int, str] = {}
    for key, text in bots.items():
        if not re.fullmatch(r"[0-9]{1,3}", key) or not 0 <= int(key) < players:
            raise ApiError(422, "bad-seat", f"bots: seats are 0 to {players - 1}, not {key!r}"[:300])
        check_bot(text, key)
        texts[int(key)] = text
    return texts


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The generator of the bot at ``seat`` deciding at ``step`` of the match played with ``seed``."""
    return random.Random(f"citybuild-server-bot:{seed}:{seat}:{step}")


class Hall:
    """Every match of one server: ``create``, ``view``, ``play``, ``record``, over one ``Store``.

    ``allow_seed``: whether a creator may choose the match's seed (tests and benchmarks do; on a
    public server whoever knows the seed knows every deal to come, so it is off by default)."""

    def __init__(self, store: Store, *, allow_seed: bool = False, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.allow_seed = allow_seed
        self.clock = clock
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()

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
        texts = _bot_texts(bots or {}, loaded.players)
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
            except sqlite3.Error as exc:
                raise ApiError(
                    503, "not-stored", f"the match could not be stored, so it was not created: {exc}"
                ) from None
            room.stored = room.version
            room.used = self.clock()
            with self._lock:
                self._rooms[room.id] = room
            self._bots_if_stored(room)
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
                used=self.clock(),
            )
            self._rooms[match_id] = room
        with room.lock:
            self._store_new(room)  # a pending chance outcome the replay resolved
            self._run_bots(room)  # bots that were to move when the server stopped
        return room

    # --- reading --------------------------------------------------------------------------------
    def view(self, match_id: str, token: str | None, *, picture: bool = False) -> dict[str, Any]:
        """The view of the token's seat, or the public view without a token; 401 for a bad token."""
        room = self.room(match_id)
        with room.lock:
            seat = self._seat(room, token) if token is not None else None
            self._bots_if_stored(room)
            return self._payload(room, seat, picture)

    def record(self, match_id: str) -> dict[str, Any]:
        """The record of a finished match; 409 while it is in play (the record would show hidden moves)."""
        room = self.room(match_id)
        with room.lock:
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
        with room.lock:
            if token is None:
                raise unauthorized()
            player = self._seat(room, token)
            if seat is not None and seat != player:
                raise ApiError(403, "not-your-seat", f"this token plays seat {player}, not seat {seat}")
            self._bots_if_stored(room)
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
            self._bots_if_stored(room)
            return self._payload(room, player, picture)

    def undo(self, match_id: str, token: str | None, *, picture: bool = False) -> dict[str, Any]:
        """Take back the token's seat's last move and the moves after it, where the fair-play rule
        allows it (``citybuild.sighting.undo_refusal``: never past a chance outcome the seat was
        told of, nor past another's secret choice of the same round); 409 ``undo-refused`` with
        the reason otherwise. The seat's view afterwards."""
        room = self.room(match_id)
        with room.lock:
            if token is None:
                raise unauthorized()
            player = self._seat(room, token)
            self._bots_if_stored(room)
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
            except sqlite3.Error as exc:
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
        with room.lock:
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
        except sqlite3.Error as exc:
            _take_back(room)
            raise ApiError(503, "not-stored", f"the move could not be stored, so it was not played: {exc}") from None
        room.stored = len(history)

    def _bots_if_stored(self, room: Room) -> None:
        """Let the bots to act play; if their moves cannot be stored they are taken back and played
        at the match's next request (what was stored before stays played)."""
        try:
            self._run_bots(room)
        except ApiError as exc:
            if exc.status != 503:
                raise

    def _run_bots(self, room: Room) -> None:
        """Let the bots to act play until a human is to act or the game ends, then store their moves."""
        match = room.match
        seed = match.seed
        while not match.is_over:
            state = match.state
            step = room.version
            chosen = [
                (p, bot.choose(state.view(p), bot_rng(seed, p, step)))
                for p in state.to_act
                if (bot := room.bots[p]) is not None
            ]
            if not chosen:
                break
            for player, move in chosen:
                match.play(move, player)
        self._store_new(room)


def _typed_options(game: str, preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """Rule options from JSON, typed by the game's Rules; a dict value changes only the keys it names.
    An option that names a file is refused before anything is read, whatever the file."""
    typed = structure_options(game, preset, options, "$.options", files=False)
    base = spec(game).presets[preset].options()
    for name, value in typed.items():
        if isinstance(value, dict) and isinstance(base.get(name), dict):
            typed[name] = {**base[name], **value}
    return typed


def progress(room: Room) -> dict[str, Any]:
    """The public facts of a match's progress: steps taken, who is to act, whether it is over
    (read from the room without the hall's lock, for the event streams)."""
    state = room.match.state
    return {"moves": len(room.match.history), "to_act": list(state.to_act), "over": state.is_over}


def _take_back(room: Room) -> None:
    """Undo in memory the moves played after the last stored entry."""
    match = room.match
    while len(match.history) > room.stored and match.undo():
        if len(match.history) < room.stored:  # that move was stored: it stays played
            match.redo()
            break
