"""Running a study: chunks of games in this process, in local processes, or on a Dask cluster.

However the chunks are spread, every game is played from its own seed, so the results are the
same; only the time differs. Finished chunks are written to the results folder as they arrive
(in the calling process: a cluster's workers need no access to it), so an interrupted study
loses at most the chunks in flight.
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from citybuild.core.errors import RulesError
from citybuild.study.cells import Chunk, Chunks, Plan
from citybuild.study.extra import need
from citybuild.study.play import ChunkResult, play_chunk
from citybuild.study.store import Store, read, results_table
from citybuild.workers import unordered_map

if TYPE_CHECKING:
    import pyarrow as pa

LOCAL = "local"
"""``dask=LOCAL`` starts a Dask ``LocalCluster`` of ``jobs`` single-threaded worker processes."""
CONNECT_TIMEOUT = "20s"
"""How long to try reaching a Dask scheduler."""


class Progress(Protocol):
    """What a study reports as it goes (the command line draws a progress bar from it)."""

    def start(self, total: int, done: int) -> None:
        """``total`` games in the study, ``done`` of them already in the results folder."""

    def advance(self, games: int, seconds: float) -> None:
        """``games`` more games finished; they took ``seconds`` of processor time on their worker."""

    def stop(self) -> None: ...


def default_jobs() -> int:
    """One process per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def run(
    plan: Plan,
    *,
    out: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    chunk: int | None = None,
    progress: Progress | None = None,
) -> pa.Table:
    """Play a study's games and return its table (one row per game, sorted by cell and index).

    ``out``: a results folder; games already in it are not played again (resume, or extend with
    more games or cells under the same seed), each finished chunk is written as it arrives, and
    the table returned is read back from it. ``jobs``: local processes (default: one per core;
    1 plays in this process). ``dask``: a Dask scheduler address, or ``"local"`` for a local
    cluster of ``jobs`` workers. ``chunk``: games per chunk (default: sized to the workers).
    """
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise RulesError(f"jobs must be a positive integer, not {jobs!r}")
    if dask is not None and (not isinstance(dask, str) or not dask):
        raise RulesError(f"dask must be a scheduler address or 'local', not {dask!r}")
    store = None if out is None else Store(out, plan.seed)
    if store is not None:
        store.record(plan)
    done = store.done(plan) if store is not None else {}
    if not plan.remaining(done):  # all played already: no workers to start
        dask, jobs = None, 1
    with pool(jobs or default_jobs(), dask) as workers:
        kept = play_missing(plan, workers, store, chunk, progress)
    if store is not None:
        return read(store.path, plan.cells, plan.games)
    return results_table(kept)


def play_missing(
    plan: Plan,
    workers: Workers,
    store: Store | None = None,
    chunk: int | None = None,
    progress: Progress | None = None,
) -> list[ChunkResult]:
    """Play the games of ``plan`` that ``store`` does not hold yet on ``workers`` (kept open by
    the caller, so a search that runs plan after plan starts its workers once). Each finished
    chunk is written to ``store`` as it arrives; without a store the results are returned."""
    done = store.done(plan) if store is not None else {}
    kept: list[ChunkResult] = []
    remaining = plan.remaining(done)
    chunks = interleave(plan.each_chunk(done, workers.count, chunk))  # lazily: a study may be huge
    if progress is not None:
        progress.start(plan.total, plan.total - remaining)
    try:
        for result in workers.results(chunks):
            if store is not None:
                store.write(result)
            else:
                kept.append(result)
            if progress is not None:
                progress.advance(len(result.chunk), result.seconds)
    finally:
        if progress is not None:
            progress.stop()
    return kept


def interleave(chunks: Iterable[Chunk]) -> Iterator[Chunk]:
    """Chunks in the order they are handed out: the first chunk of every cell, then the second
    of every cell, and so on, so the games per second seen early hold for the whole study. Lazy
    when ``chunks`` is ``Plan.each_chunk``'s (which gives each cell's chunks from its own generator):
    only one chunk per cell is held at a time."""
    if not isinstance(chunks, Chunks):  # a plain sequence: group it by cell
        cells: dict[str, list[Chunk]] = {}
        for chunk in chunks:
            cells.setdefault(chunk.cell.key, []).append(chunk)
        streams: list[Iterator[Chunk]] = [iter(group) for group in cells.values()]
    else:
        streams = list(chunks.by_cell)
    while streams:
        alive = []
        for stream in streams:
            for chunk in itertools.islice(stream, 1):
                yield chunk
                alive.append(stream)
        streams = alive


class Workers(Protocol):
    """Where chunks are played: how many at once, and their results as they finish."""

    count: int

    def results(self, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]: ...


@contextmanager
def pool(jobs: int, dask: str | None = None) -> Iterator[Workers]:
    """The workers of a study: a Dask cluster when ``dask`` names a scheduler (or ``"local"``, a
    new ``LocalCluster`` of ``jobs`` workers), else ``jobs`` local processes (this process alone
    when ``jobs`` is 1). Closed on leaving, interrupted or not."""
    if dask is not None:
        with DaskWorkers.connect(dask, jobs) as workers:
            yield workers
    elif jobs == 1:
        yield ThisProcess()
    else:
        yield Processes(jobs)


class ThisProcess:
    """Chunks played one after another in the calling process."""

    count = 1

    def results(self, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
        return (play_chunk(chunk) for chunk in chunks)


class Processes:
    """Chunks played in local processes, each kept busy with two chunks in hand."""

    def __init__(self, jobs: int) -> None:
        self.count = jobs

    def results(self, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
        """The chunks' results as they finish, chunks handed out as workers free up; stopping
        early (an interrupt) cancels the chunks not started and waits for those running."""
        return unordered_map(play_chunk, chunks, self.count)


class DaskWorkers:
    """Chunks played on a Dask cluster: each chunk one task, its rows sent back to the caller."""

    def __init__(self, client: Any, count: int) -> None:
        self.client = client
        self.count = count

    @classmethod
    @contextmanager
    def connect(cls, address: str, jobs: int) -> Iterator[DaskWorkers]:
        """A client of the scheduler at ``address``, or of a new ``LocalCluster`` of ``jobs``
        single-threaded worker processes for ``"local"``; the workers need citybuild installed.
        ``count`` is the cluster's threads when it was reached (at least 1)."""
        distributed = need("distributed")
        cluster: Any = None
        if address == LOCAL:
            with warnings.catch_warnings():  # its web server falls back to a free port when 8787 is taken
                warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
                cluster = distributed.LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
                )
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise RulesError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
        try:
            yield cls(client, max(1, sum(client.nthreads().values())))
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    def results(self, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
        """The chunks' results as they finish, with two chunks per worker thread in flight (a
        study's chunks are handed out as they are needed, never all at once)."""
        distributed = need("distributed")
        queue = iter(chunks)
        running: set[Any] = set()

        def submit(chunk: Chunk) -> Any:
            key = f"citybuild-study-{chunk.seed}-{chunk.cell.key}-{chunk.start}-{chunk.stop}"
            future = self.client.submit(play_chunk, chunk, key=key)
            running.add(future)
            return future

        first = [submit(chunk) for chunk in itertools.islice(queue, 2 * self.count)]
        if not first:
            return
        finished = distributed.as_completed(first, with_results=True)
        try:
            for future, result in finished:
                running.discard(future)
                for following in itertools.islice(queue, 1):
                    finished.add(submit(following))
                yield result
        finally:
            self.client.cancel(list(running))
