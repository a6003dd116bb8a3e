"""The study's progress bar (rich): games done of the total, games per second, time left.

Drawn on stderr, so a study's printed summary can be piped. The rate and the time left come from
the games finished during this run (games already in the results folder count as done but not
towards the rate). Imported only when a bar is drawn.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress
from rich.text import Text


class Rate(ProgressColumn):
    """Games per second over the last minute."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("" if speed is None else f"{speed:,.0f} games/s", style="cyan")


class Bar:
    """A study ``Progress`` for the terminal."""

    def __init__(self, console: Console | None = None, description: str = "games") -> None:
        self._console = console or Console(stderr=True)
        self._description = description
        self._progress: RichProgress | None = None
        self._task: TaskID | None = None

    def start(self, total: int, done: int) -> None:
        self._progress = RichProgress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            Rate(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=self._console,
            speed_estimate_period=60.0,
        )
        self._progress.start()
        self._task = self._progress.add_task(self._description, total=total, completed=done)

    def advance(self, games: int, seconds: float = 0.0) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, games)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
