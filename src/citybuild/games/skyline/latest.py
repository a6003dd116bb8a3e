"""The engine behind the latest Skyline state, kept for the questions asked of that state next.

A bot or a user interface lists a state's moves and then plays one: both need an engine at
that position, with its arrays built and its skylines' offers worked out. ``State.play`` makes
its engine, applies the move and freezes it; that engine is then exactly at the new state, so it
is kept here and answers the new state's questions, and ``thaw`` copies it, instead of building
the arrays afresh from the state's tuples for each question.

One entry, keyed by the state itself through a weak reference: it keeps no state alive, a new
state at a reused address is not taken for an old one, and the kept engine is only read
(questions) or copied (``thaw``), never moved on, so the state stays a value.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citybuild.games.skyline.engine import SkylineEngine
    from citybuild.games.skyline.state import SkylineState

_latest: tuple[weakref.ref[SkylineState], SkylineEngine] | None = None


def keep(state: SkylineState, engine: SkylineEngine) -> None:
    """Keep ``engine``, which is at ``state`` and is no longer moved on, for ``state``'s questions."""
    global _latest
    _latest = (weakref.ref(state), engine)


def engine_of(state: SkylineState) -> SkylineEngine:
    """An engine at ``state`` to ask questions of (not to move on: ``thaw`` copies it)."""
    kept = _latest  # one read: another thread may keep another engine meanwhile
    if kept is not None and kept[0]() is state:
        return kept[1]
    engine = state.engine.of(state)
    keep(state, engine)
    return engine
