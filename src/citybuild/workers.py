"""Work spread over local processes (the arena's games, a study's chunks): handed out lazily, a few
at a time, by workers that never outlive the process that started them.

Submitting every task up front holds them all in memory at once (an arena of 10**8 games would
fill it before the first game ends); here at most ``window`` tasks are queued or running. A
worker of a ``ProcessPoolExecutor`` whose parent is killed (``kill -9``) is not told: it would go
on playing what it holds and then wait forever. Each worker therefore watches its parent and
exits as soon as it has gone.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

WATCH_SECONDS = 0.5
"""How often a worker looks whether its parent is still there."""


def watch_parent() -> None:
    """Make this process exit when its parent does (the initializer of every worker). The parent
    is gone when the process is handed to another (``os.getppid()`` changes): this holds on any
    POSIX system and for every start method (a forkserver, whose children these are, exits with
    the process that started it)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)  # no clean-up to wait for: whatever the worker was doing has no one to go to

    threading.Thread(target=watch, name="citybuild-watch-parent", daemon=True).start()


def unordered_map(
    function: Callable[[Item], Result], items: Iterable[Item], jobs: int, window: int | None = None
) -> Iterator[Result]:
    """``function(item)`` for every item, in ``jobs`` worker processes, each result as it is ready
    (not in the order of ``items``). ``items`` is read lazily: at most ``window`` (default: two per
    worker, so none waits) are in the workers' hands at once. Stopping early (an interrupt, a
    generator closed) cancels what has not started and waits for what is running."""
    window = window or 2 * jobs
    queue = iter(items)
    first = list(itertools.islice(queue, window))
    if not first:
        return
    executor = ProcessPoolExecutor(max_workers=min(jobs, len(first)), initializer=watch_parent)
    pending: set[Future[Result]] = {executor.submit(function, item) for item in first}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                for following in itertools.islice(queue, 1):
                    pending.add(executor.submit(function, following))
                yield future.result()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
