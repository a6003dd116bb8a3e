"""Running a study: chunks of games in this process, in local processes, or on a Dask cluster.

However the chunks are spread, every game is played from its own seed, so the results are the
same; only the time differs. Finished chunks are written to the results folder as they arrive
(in the calling process: a cluster's workers need no access to it), so an interrupted study
loses at most the chunks in flight.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from citybuild.core.errors import RulesError
from citybuild.study.cells import Chunk, Plan
from citybuild.study.extra import need
from citybuild.study.play import ChunkResult, play_chunk
from citybuild.study.store import Store, read, results_table

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
    kept: list[ChunkResult] = []
    if not plan.chunks(done, 1, chunk):  # all played already: no workers to start
        dask, jobs = None, 1
    with pool(jobs or default_jobs(), dask) as workers:
        chunks = interleave(plan.chunks(done, workers.count, chunk))
        if progress is not None:
            progress.start(plan.total, plan.total - sum(len(c) for c in chunks))
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
    if store is not None:
        return read(store.path, plan.cells, plan.games)
    return results_table(kept)


def interleave(chunks: Sequence[Chunk]) -> list[Chunk]:
    """Chunks in the order they are handed out: the first chunk of every cell, then the second
    of every cell, and so on, so the games per second seen early hold for the whole study."""
    position: dict[str, int] = {}
    order: list[tuple[int, int, Chunk]] = []
    for n, chunk in enumerate(chunks):
        key = chunk.cell.key
        position[key] = position.get(key, -1) + 1
        order.append((position[key], n, chunk))
    return [chunk for _, _, chunk in sorted(order, key=lambda item: item[:2])]


class Workers(Protocol):
    """Where chunks are played: how many at once, and their results as they finish."""

    count: int

    def results(self, chunks: Sequence[Chunk]) -> Iterator[ChunkResult]: ...


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

    def results(self, chunks: Sequence[Chunk]) -> Iterator[ChunkResult]:
        return (play_chunk(chunk) for chunk in chunks)


class Processes:
    """Chunks played in local processes, each kept busy with two chunks in hand."""

    def __init__(self, jobs: int) -> None:
        self.count = jobs

    def results(self, chunks: Sequence[Chunk]) -> Iterator[ChunkResult]:
        """The chunks' results as they finish; stopping early (an interrupt) cancels the chunks
        not started and waits for those running."""
        if not chunks:
            return
        executor = ProcessPoolExecutor(max_workers=min(self.count, len(chunks)))
        pending: set[Future[ChunkResult]] = set()
        queue = iter(chunks)
        try:
            for chunk in queue:
                pending.add(executor.submit(play_chunk, chunk))
                if len(pending) >= 2 * self.count:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    following = next(queue, None)
                    if following is not None:
                        pending.add(executor.submit(play_chunk, following))
                    yield future.result()
        finally:
            executor.shutdown(wait=True, cancel_futures=True)


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

    def results(self, chunks: Sequence[Chunk]) -> Iterator[ChunkResult]:
        if not chunks:
            return
        distributed = need("distributed")
        keys = [f"citybuild-study-{chunk.seed}-{chunk.cell.key}-{chunk.start}-{chunk.stop}" for chunk in chunks]
        futures = self.client.map(play_chunk, list(chunks), key=keys)
        try:
            for _, result in distributed.as_completed(futures, with_results=True):
                yield result
        finally:
            self.client.cancel(futures)
