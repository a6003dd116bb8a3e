"""The engine behind the latest Skyline state, kept for the questions asked of that state next
and for the move played from it.

A bot or a user interface lists a state's moves and then plays one: both need an engine at
that position, with its arrays built and its skylines' offers worked out. ``State.play`` makes
its engine, applies the move and freezes it; that engine is then exactly at the new state, so it
is kept here. It answers the new state's questions, and the next ``play`` from that state takes
it (``taken``) and moves it on instead of copying it: after that the state has no kept engine,
and a later question builds one afresh from the state's tuples. ``thaw`` copies the kept engine,
as its caller moves the copy on.

One entry per thread, keyed by the state itself through a weak reference: it keeps no state
alive, a new state at a reused address is not taken for an old one, and an engine another
thread is reading is never moved on. Nothing outside this module holds a kept engine for
longer than a question (a lazy ``MoveList`` asks its state again at each read).
"""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citybuild.games.skyline.engine import SkylineEngine
    from citybuild.games.skyline.state import SkylineState


class _Slot(threading.local):
    """This thread's kept engine, with a weak reference to the state it is at."""

    kept: tuple[weakref.ref[SkylineState], SkylineEngine] | None = None


_slot = _Slot()


def keep(state: SkylineState, engine: SkylineEngine) -> None:
    """Keep ``engine``, which is at ``state`` and is no longer moved on, for ``state``'s questions."""
    _slot.kept = (weakref.ref(state), engine)


def _kept_for(state: SkylineState) -> SkylineEngine | None:
    """This thread's kept engine if it is at ``state``."""
    kept = _slot.kept
    return kept[1] if kept is not None and kept[0]() is state else None


def engine_of(state: SkylineState) -> SkylineEngine:
    """An engine at ``state`` to ask questions of (not to move on: ``thaw`` copies it)."""
    engine = _kept_for(state)
    if engine is None:
        engine = state.engine.of(state)
        keep(state, engine)
    return engine


def taken(state: SkylineState) -> SkylineEngine:
    """An engine at ``state`` for its caller to move on: the kept one, which is then no longer
    kept, or a new one."""
    engine = _kept_for(state)
    if engine is None:
        return state.engine.of(state)
    _slot.kept = None
    return engine
