"""What a tune answers: every candidate it played with its games, objectives and standing, the
rounds, and the variant it recommends, ready to copy as options or as a ``Rules`` value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from citybuild.cli.options import option_text
from citybuild.core.registry import spec
from citybuild.study.cells import Cell
from citybuild.study.objectives import Objectives, dominates
from citybuild.study.space import Candidate, Space

KEPT, DROPPED, RECOMMENDED, REFERENCE = "kept", "dropped", "recommended", "reference"
"""A candidate's standing at the end: still in the race, dropped, the one named, or the preset
itself when it lies outside the space (played for comparison, never named)."""


@attrs.frozen
class Entry:
    """One candidate at the end of a tune: its values, its cell, its games and objectives, its
    standing and why (the drop's reason, or what made it the choice)."""

    candidate: Candidate
    cell: Cell
    games: int
    objectives: Objectives
    status: str
    reason: str
    added: int
    """The round in which it joined (0 for the first values; later ones refine a range)."""

    @property
    def label(self) -> str:
        return ", ".join(f"{name}={option_text(value)}" for name, value in self.candidate)


@attrs.frozen
class Round:
    """One round: the games each candidate in the race was brought to, how many were in it, and
    how many games the round added."""

    number: int
    games: int
    racing: int
    played: int


@attrs.frozen
class Tuning:
    """A tune's answer: every candidate played, the one recommended, the preset's own, the Pareto
    front, the rounds, and what the search was."""

    space: Space
    players: int
    bots: tuple[str, ...]
    seed: int
    budget: int
    weights: Mapping[str, float]
    entries: tuple[Entry, ...]
    rounds: tuple[Round, ...]
    stopped: str
    """Why the rounds stopped."""

    @property
    def recommended(self) -> Entry:
        return next(e for e in self.entries if e.status == RECOMMENDED)

    @property
    def baseline(self) -> Entry:
        """The preset's own values (a candidate when the space holds them)."""
        base = self.space.baseline()
        return next(e for e in self.entries if e.candidate == base)

    @property
    def games(self) -> int:
        """Every game the tune played (or found already played)."""
        return sum(e.games for e in self.entries)

    @property
    def front(self) -> tuple[Entry, ...]:
        """The candidates no other beats in every objective at once (fairness, shared, moves,
        margin; point values), best score first."""
        pool_ = [e for e in self.entries if e.status != REFERENCE]
        kept = [e for e in pool_ if not any(dominates(o.objectives, e.objectives) for o in pool_ if o is not e)]
        return tuple(sorted(kept, key=lambda e: e.objectives.score.value))

    def options(self, entry: Entry | None = None) -> dict[str, Any]:
        """A candidate's rule options that differ from the preset (``cb.load`` keywords)."""
        chosen = self.space.options((entry or self.recommended).candidate)
        preset = spec(self.space.game).presets[self.space.preset].options()
        return {name: value for name, value in chosen.items() if preset[name] != value}

    def option_lines(self, entry: Entry | None = None) -> list[str]:
        """The candidate as ``--option NAME=VALUE`` arguments of ``citybuild play`` or ``study``."""
        return [f"--option {name}={option_text(value)}" for name, value in self.options(entry).items()]

    def rules(self, entry: Entry | None = None) -> Any:
        """The candidate's ``Rules`` value (the preset's, with its options replaced)."""
        return spec(self.space.game).presets[self.space.preset].replace(**self.options(entry))

    def rules_text(self, entry: Entry | None = None) -> str:
        """The ``Rules`` value as Python: the rules of the game loaded with the candidate's options."""
        changes = "".join(f", {k}={dict(v) if isinstance(v, dict) else v!r}" for k, v in self.options(entry).items())
        return f'citybuild.load("{self.space.game}", preset="{self.space.preset}"{changes}).rules'
