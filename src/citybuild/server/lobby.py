"""The lobby: seats taken by invite or, in an open match, by anyone; open matches listed; rematches.

A match's creator holds one seat; every other human seat has a one-time invite code, kept only
as its SHA-256 and compared in constant time like a token (``citybuild.server.tokens``). Whoever
presents a code first takes its seat and gets the seat's token; the code then works no more,
and an unknown code and a used one get the same refusal, so codes cannot be probed. In a match
created ``open``, anyone may take a free seat without a code (the seat's invite then works no
more), and the match is listed until no seat is free or the game is over.

A finished match's rematch is a new match of the same game, rules, players and bots, with a
fresh seed: every seat held in the finished match is held by the same token in the rematch, and a
seat nobody held gets a new invite, answered to the seat that asked for the rematch. A second
request for a rematch answers the same one.
"""

from __future__ import annotations

from typing import Any

from citybuild.server.hall import Hall
from citybuild.server.problems import ApiError, unauthorized
from citybuild.server.room import Room
from citybuild.server.storage import CONFLICTS, STORE_ERRORS
from citybuild.server.tokens import digest, new_token, seat_of

LISTED = 100
"""The most open matches a listing looks at (the newest)."""

BAD_INVITE = "this invite is unknown or has been used already; ask for a new link"


def join(hall: Hall, match_id: str, invite: str | None, seat: int | None) -> dict[str, Any]:
    """Take a seat of the match: the seat of ``invite``, or (an open match) the free ``seat``, or
    the lowest free seat. Answers the seat, its new token and the match's summary."""
    room = hall.room(match_id)
    with hall.serial(room):
        taken = _seat_to_take(room, invite, seat)
        token = new_token()
        held = digest(token)
        full = not [p for p in room.free_seats() if p != taken]
        try:
            hall.store.join(room.id, taken, held, full=full)
        except CONFLICTS:  # not expected: the room's lock guards its seats
            raise ApiError(409, "seat-taken", f"seat {taken} has been taken") from None
        except STORE_ERRORS as exc:
            raise ApiError(503, "not-stored", f"the seat could not be stored, so it was not taken: {exc}") from None
        room.digests[taken] = held
        room.invites[taken] = None
        return {"id": room.id, "seat": taken, "token": token, **room.summary()}


def _seat_to_take(room: Room, invite: str | None, seat: int | None) -> int:
    """The seat a join request takes, or the refusal: 403 for a bad invite (unknown, used, or
    not for ``seat``) or a match joined by invitation only, 409 for a seat not free."""
    if invite is not None:
        found = seat_of(invite, room.invites)
        if found is None or (seat is not None and seat != found):
            raise ApiError(403, "bad-invite", BAD_INVITE)
        if room.match.is_over:
            raise ApiError(409, "over", "this game is over; nobody joins it any more")
        return found
    if not room.open:
        raise ApiError(403, "invite-only", "this match is joined by invitation only: ask a player for an invite link")
    if room.match.is_over:
        raise ApiError(409, "over", "this game is over; nobody joins it any more")
    free = room.free_seats()
    if not free:
        raise ApiError(409, "match-full", "every seat of this match is taken")
    if seat is None:
        return free[0]
    if seat not in free:
        raise ApiError(409, "seat-taken", f"seat {seat} is not free; the free seats are {', '.join(map(str, free))}")
    return seat


def open_matches(hall: Hall) -> list[dict[str, Any]]:
    """The open matches with a free seat, newest first: what anyone may know of each, no secret.
    A listed match found full or over leaves the list."""
    listed = []
    for match_id in hall.store.lobby(LISTED):
        room = hall.room(match_id)
        with hall.serial(room):
            free = room.free_seats()
            if room.match.is_over or not free:
                hall.store.leave_lobby(match_id)
                continue
            summary = room.summary()
            listed.append(
                {
                    "id": room.id,
                    **{k: summary[k] for k in ("game", "preset", "players", "options", "seats", "free")},
                    "created": room.created,
                }
            )
    return listed


def rematch(hall: Hall, match_id: str, token: str | None) -> dict[str, Any]:
    """The rematch of a finished match, asked for by one of its seats: its id, the asking seat,
    and invites for the seats nobody held (answered once, to the seat that asked first)."""
    room = hall.room(match_id)
    with hall.serial(room):
        seat = room.seat_of(token)
        if token is None or seat is None:
            raise unauthorized() if token is None else unauthorized("this token is not a seat token of this match")
        if not room.match.is_over:
            raise ApiError(409, "not-over", "a rematch is offered once the game is over")
        if room.rematch is not None:
            return {"id": room.rematch, "seat": seat, "invites": {}}
        new, invites = hall.open_room(
            room.match.game, dict(room.bot_texts), list(room.digests), seed=None, open=room.open, rematch_of=room.id
        )
        room.rematch = new.id
        return {"id": new.id, "seat": seat, "invites": invites}
