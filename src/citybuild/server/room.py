"""A match in memory (``Room``) and the bots a server seats: checked texts, seeded generators."""

from __future__ import annotations

import random
import re
import threading
from typing import Any

import attrs

from citybuild.bots import Bot, from_text
from citybuild.core.errors import RulesError
from citybuild.jsonvalues import converter
from citybuild.match import Match
from citybuild.server.problems import ApiError
from citybuild.server.tokens import seat_of

SERVER_BOTS = re.compile(r"easy|normal|hard|random|greedy|ismcts(:[0-9]{1,4})?")
"""The bot texts a match may seat: a level (easy, normal, hard), random, greedy, or ismcts with an
iteration count (default 1000, at most ``ISMCTS_LIMIT``, which ``hard`` stays within), so that a
bot's thinking is bounded."""
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
    revision: int | None = None
    """The database's revision of the match that this copy shows (None: a store of one process)."""
    asked: int = -1
    """The step at which a bot job was last added for the match."""
    watchers: int = 0
    """Event streams open on the match in this worker (other workers' changes are fetched at once
    for them; without watchers, at the match's next request)."""
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


def bot_texts(bots: dict[str, str], players: int) -> dict[int, str]:
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


def bots_to_act(room: Room) -> bool:
    """Whether a bot is to act in the room (a look without its lock)."""
    match = room.match
    return not match.is_over and any(room.bots[p] is not None for p in match.state.to_act)


def seen_at(room: Room) -> tuple[int, int, int]:
    """What identifies the room's position: its match, its history's length and last entry."""
    history = room.match.history
    return (id(room.match), len(history), id(history[-1]) if history else 0)


def progress(room: Room) -> dict[str, Any]:
    """The public facts of a match's progress: steps taken, who is to act, whether it is over
    (read from the room without the hall's lock, for the event streams)."""
    state = room.match.state
    return {"moves": len(room.match.history), "to_act": list(state.to_act), "over": state.is_over}


def take_back(room: Room) -> None:
    """Undo in memory the moves played after the last stored entry."""
    match = room.match
    while len(match.history) > room.stored and match.undo():
        if len(match.history) < room.stored:  # that move was stored: it stays played
            match.redo()
            break
