"""The error taxonomy: one base class, and ValueErrors a caller can tell apart by kind."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citybuild.core.verdict import Verdict


class CitybuildError(Exception):
    """Base of every error citybuild raises on purpose."""


class RulesError(CitybuildError, ValueError):
    """A bad option value, an unknown option or preset, or an unsupported player count."""


class IllegalMoveError(CitybuildError, ValueError):
    """A well-formed move that the rules forbid here; ``verdict`` says which rules and why."""

    def __init__(self, verdict: Verdict, move: Any = None, index: int | None = None) -> None:
        self.verdict = verdict
        """What ``State.check`` says of the move: every rule it breaks."""
        self.move = move
        """The move refused."""
        self.index = index
        """Its index in a record's moves, when ``replay`` refused it."""
        where = f"move {index} " if index is not None else ""
        shown = _shown(move) if move is not None else "move"
        reasons = "; ".join(str(v) for v in verdict.violations) or "refused"
        super().__init__(f"{where}{shown!r} is illegal: {reasons}")


def _shown(move: Any) -> str:
    """A move's notation, or its repr when a hand-made move with wrong-typed fields has none."""
    try:
        return str(move)
    except Exception:
        try:
            return repr(move)
        except Exception:
            return f"a {type(move).__name__}"


class NotationError(CitybuildError, ValueError):
    """Text or JSON that cannot be read; ``where`` points at the offending part."""

    def __init__(self, message: str, where: str | None = None) -> None:
        self.where = where
        """Where the problem is: a position in the text, or a JSON path such as ``$.moves[3]``."""
        super().__init__(f"{where}: {message}" if where else message)


class InvalidStateError(CitybuildError, ValueError):
    """A position that breaks an invariant of its game (usually a hand-written one)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        """The ID of the invariant's rule, when one is known."""
        super().__init__(f"{message} ({rule})" if rule else message)
