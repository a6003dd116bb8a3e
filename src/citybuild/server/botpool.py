"""The bot pool: a few threads of each worker that play the bots' replies, away from the threads
that answer requests, so a bot that thinks long never holds up another client's request.

Each thread takes a job from the store (``take_job``: a match whose bots may be to move; with
PostgreSQL a job no other worker holds), plays that match's bots until a human is to act
(``Hall.answer_bots``) and finishes the job. A match has one job at most, so one match never
occupies more than one thread; a bot's thinking has a budget (``budget`` seconds of processor
time per decision for a searching bot, whatever its iterations). A job that fails (the database
is away) goes back and is taken again later.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import random
import threading
from typing import Any

import attrs

from citybuild.bots import Bot
from citybuild.bots.ismcts import IsmctsBot
from citybuild.server.hall import Hall
from citybuild.server.problems import ApiError
from citybuild.server.storage import STORE_ERRORS

THREADS = 2
"""Bot threads per worker."""
BUDGET = 2.0
"""Seconds of processor time a searching bot may think per decision."""
POLL = 1.0
"""Seconds an idle thread waits for a job before looking again."""
RETRY = 0.5
"""Seconds a thread rests after a job that failed."""

log = logging.getLogger("citybuild.server")


def think(bot: Bot, view: Any, rng: random.Random, budget: float) -> Any:
    """The bot's move, searching at most ``budget`` seconds of processor time."""
    if isinstance(bot, IsmctsBot) and (bot.time is None or bot.time > budget):
        bot = attrs.evolve(bot, time=budget)
    return bot.choose(view, rng)


class BotPool:
    """``threads`` bot threads over ``hall`` (0: this worker plays no bot; another worker sharing
    its database does); ``stop()`` ends them (each after its current job)."""

    def __init__(self, hall: Hall, *, threads: int = THREADS, budget: float = BUDGET) -> None:
        if threads < 0:
            raise ValueError(f"a bot pool has 0 threads or more, not {threads}")
        self.hall = hall
        self.budget = budget
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._work, name=f"citybuild-bots-{n}", daemon=True) for n in range(threads)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()

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
        return think(bot, view, rng, self.budget)

    def _put_back(self, match_id: str, exc: BaseException) -> None:
        log.warning("bot pool: the bots of match %s could not move now: %s", match_id, exc)
        with contextlib.suppress(*STORE_ERRORS):
            self.hall.store.release_job()
        self._stop.wait(RETRY)
