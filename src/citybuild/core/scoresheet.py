"""Itemised scores: every point with who earned it, for what, and under which rule."""

from __future__ import annotations

from collections.abc import Iterable

import attrs


@attrs.frozen
class ScoreItem:
    """Points earned by one player in one category; ``detail`` says what earned them."""

    player: int
    """The player who earned the points."""
    category: str
    """The scoring category the points count in."""
    points: int
    """How many points (negative for a penalty)."""
    detail: str = ""
    """What earned them, in words."""
    rule: str = ""
    """The ID of the rule that awards them."""

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"P{self.player} {self.category:<10} {self.points:+4d}  {self.detail}{rule}"


@attrs.frozen
class ScoreSheet:
    """All score items, the totals per player, the winners and the tie-break that decided them.

    ``winners`` is empty while the game is not over; ``tiebreak`` names the step of the
    tie-break chain that separated the leaders (``None`` when no tie-break was needed).
    """

    players: int
    """How many players are scored."""
    items: tuple[ScoreItem, ...] = ()
    """Every score item of every player."""
    winners: tuple[int, ...] = ()
    tiebreak: str | None = None
    tiebreak_counts: tuple[tuple[int, int], ...] = ()
    """The counts that decided the tie-break: (player, count) for each player tied on points."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's points: the sum of their items."""
        totals = [0] * self.players
        for item in self.items:
            totals[item.player] += item.points
        return tuple(totals)

    def total(self, player: int) -> int:
        """One player's points."""
        return self.totals[player]

    def of(self, player: int | None = None, category: str | None = None) -> tuple[ScoreItem, ...]:
        """The items of one player and/or one category."""
        return tuple(
            i
            for i in self.items
            if (player is None or i.player == player) and (category is None or i.category == category)
        )

    def by_category(self, player: int) -> dict[str, int]:
        """One player's points in each category they scored in."""
        out: dict[str, int] = {}
        for item in self.of(player):
            out[item.category] = out.get(item.category, 0) + item.points
        return out

    def with_items(self, items: Iterable[ScoreItem]) -> ScoreSheet:
        """A copy with ``items`` added (the sheet is frozen)."""
        return attrs.evolve(self, items=self.items + tuple(items))

    def __str__(self) -> str:
        lines = [str(i) for i in self.items if i.points]
        totals = self.totals
        for player in range(self.players):
            parts = " + ".join(f"{cat} {pts}" for cat, pts in self.by_category(player).items())
            lines.append(f"P{player}: {parts or 'nothing'} = {totals[player]}")
        lines.append("totals: " + ", ".join(f"P{p} {t}" for p, t in enumerate(totals)))
        if self.winners:
            counts = ", ".join(f"P{p} {n}" for p, n in self.tiebreak_counts)
            how = f" (tie-break: {self.tiebreak}{': ' + counts if counts else ''})" if self.tiebreak else ""
            lines.append("winners: " + ", ".join(f"P{p}" for p in self.winners) + how)
        return "\n".join(lines)
