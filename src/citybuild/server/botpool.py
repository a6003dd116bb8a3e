"""The bot pool: a few threads of each worker that play the bots' replies, away from the threads
that answer requests, so a bot that thinks long never holds up another client's request.

Each thread takes a job from the store (``take_job``: a match whose bots may be to move; with
PostgreSQL a job no other worker holds), plays that match's bots until a human is to act
(``Hall.answer_bots``) and finishes the job. A match has one job at most, so one match never
occupies more than one thread; a bot's thinking has a budget (``budget`` seconds of processor
time per decision for a searching bot, whatever its iterations), and a searching bot thinks in a
process of the pool's own (one per thread), so that its search never holds the interpreter lock
that the request threads need. A job that fails (the database
is away) goes back and is taken again later.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import attrs

from citybuild.bots import Bot, label
from citybuild.bots.ismcts import IsmctsBot
from citybuild.bots.levels import LevelBot
from citybuild.server.hall import Hall
from citybuild.server.prefork import end_with_parent
from citybuild.server.problems import ApiError
from citybuild.server.storage import STORE_ERRORS

THREADS = 2
"""Bot threads per worker."""
BUDGET = 2.0
"""Seconds of processor time a searching bot may think per decision: a quarter above the slowest
``hard`` decision measured (``benchmarks/results``: server.json, in this pool; levels.json), so
that the budget never cuts ``hard`` short (a test holds it to those figures)."""
POLL = 1.0
"""Seconds an idle thread waits for a job before looking again."""
RETRY = 0.5
"""Seconds a thread rests after a job that failed."""

log = logging.getLogger("citybuild.server")


def searching(bot: Bot) -> IsmctsBot | None:
    """The search a bot plays by (a level such as ``hard`` plays exactly as the bot it names), or
    None for a quick bot."""
    inner = bot.bot if isinstance(bot, LevelBot) else bot
    return inner if isinstance(inner, IsmctsBot) else None


def think(bot: Bot, view: Any, rng: random.Random, budget: float, processes: Executor | None = None) -> Any:
    """The bot's move, searching at most ``budget`` seconds of processor time; a searching bot
    thinks in ``processes`` when given (its own process: the search never holds this process's
    interpreter lock, which the request threads need), a quick bot here. Each search's processor
    time is logged (at INFO: ``citybuild serve --verbose``), and a search the budget cut short
    with a warning, since it then plays weaker than its name."""
    search = searching(bot)
    if search is None:
        return bot.choose(view, rng)
    capped = search if search.time is not None and search.time <= budget else attrs.evolve(search, time=budget)
    if processes is None:
        move, spent = _choose(capped, view, rng)
    else:
        move, spent = processes.submit(_choose, capped, view, rng).result()
    name = label(bot)
    if capped is not search and spent >= budget:
        log.warning("bot pool: %s was cut short at the budget of %g s of processor time a decision", name, budget)
    log.info("bot pool: %s decided in %.3f s of processor time", name, spent)
    return move


def _choose(bot: Bot, view: Any, rng: random.Random) -> tuple[Any, float]:
    """The bot's move and the processor time its search took (in the process it ran in)."""
    started = time.process_time()
    move = bot.choose(view, rng)
    return move, time.process_time() - started


def _yield_to_requests() -> None:
    """A thinking process runs at a lower priority than the server's (where the system allows),
    so that on a busy machine the answers to requests come first."""
    end_with_parent()  # and it ends with its worker
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


class BotPool:
    """``threads`` bot threads over ``hall`` (0: this worker plays no bot; another worker sharing
    its database does); ``stop()`` ends them (each after its current job)."""

    def __init__(self, hall: Hall, *, threads: int = THREADS, budget: float = BUDGET) -> None:
        if threads < 0:
            raise ValueError(f"a bot pool has 0 threads or more, not {threads}")
        self.hall = hall
        self.budget = budget
        self.size = threads
        self._processes: ProcessPoolExecutor | None = None
        self._starting = threading.Lock()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._work, name=f"citybuild-bots-{n}", daemon=True) for n in range(threads)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)

    def processes(self) -> ProcessPoolExecutor:
        """The processes searching bots think in, one per thread, started when first needed
        (spawned: a fork of a process with threads may inherit a held lock)."""
        with self._starting:
            if self._processes is None:
                self._processes = ProcessPoolExecutor(
                    self.size, mp_context=multiprocessing.get_context("spawn"), initializer=_yield_to_requests
                )
            return self._processes

    def _work(self) -> None:
        store = self.hall.store
        while not self._stop.is_set():
            try:
                match_id = store.take_job(POLL)
            except STORE_ERRORS as exc:
                log.warning("bot pool: cannot take a job: %s", exc)
                self._stop.wait(RETRY)
                continue
            if match_id is None:
                continue
            try:
                self.hall.answer_bots(match_id, self._think, functools.partial(store.finish_job, match_id))
            except ApiError as exc:
                if exc.status == 404:  # no such match any more: nothing to play
                    store.finish_job(match_id)
                    continue
                self._put_back(match_id, exc)
            except Exception as exc:  # a bot's failure must not end the thread
                self._put_back(match_id, exc)

    def _think(self, bot: Bot, view: Any, rng: random.Random) -> Any:
        processes = self.processes() if searching(bot) is not None else None
        return think(bot, view, rng, self.budget, processes)

    def _put_back(self, match_id: str, exc: BaseException) -> None:
        log.warning("bot pool: the bots of match %s could not move now: %s", match_id, exc)
        with contextlib.suppress(*STORE_ERRORS):
            self.hall.store.release_job()
        self._stop.wait(RETRY)
