"""Verdicts: the explained answer to "may this move be played here?"."""

from __future__ import annotations

import attrs


@attrs.frozen
class Violation:
    """One broken rule: a stable machine ``code``, the rule ID, and a plain-English message."""

    code: str
    """A stable machine code (``player-required``, ``game-over``, ...), for programs and tests."""
    rule: str
    """The ID of the rule broken (``MAN-RAND-1``), as in the game's rules text."""
    message: str
    """What is wrong, in plain English."""

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


@attrs.frozen
class Verdict:
    """The result of ``State.check``: legal when there are no violations."""

    violations: tuple[Violation, ...] = ()
    """Every broken rule; empty when the move is legal."""

    @property
    def ok(self) -> bool:
        """Whether the move is legal (also the verdict's truth value)."""
        return not self.violations

    def __bool__(self) -> bool:
        return self.ok

    @property
    def codes(self) -> tuple[str, ...]:
        """The violations' machine codes."""
        return tuple(v.code for v in self.violations)

    @property
    def rules(self) -> tuple[str, ...]:
        """The IDs of the rules broken."""
        return tuple(v.rule for v in self.violations)

    def __str__(self) -> str:
        if self.ok:
            return "legal"
        return "illegal: " + "; ".join(str(v) for v in self.violations)


def refuse(code: str, rule: str, message: str) -> Verdict:
    """A verdict with a single violation."""
    return Verdict((Violation(code, rule, message),))
