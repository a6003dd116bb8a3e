"""Work is planned lazily (a study or an arena of 10**12 games starts at once, in little memory),
and no worker process outlives the process that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

from citybuild.study.cells import plan
from citybuild.study.runner import interleave
from citybuild.workers import unordered_map

HUGE = 10**12


def test_planning_a_huge_study_takes_constant_memory() -> None:
    grid = plan(["skyline", "manhattan"], players="all", games=HUGE)
    tracemalloc.start()
    try:
        chunks = interleave(grid.each_chunk(workers=2))
        first = [next(chunks) for _ in range(len(grid.cells) * 3)]
        remaining = grid.remaining()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, f"planning took {peak} bytes"
    assert remaining == grid.total == len(grid.cells) * HUGE
    assert [c.cell for c in first[: len(grid.cells)]] == list(grid.cells), "each cell's first chunk first"
    assert [c.start for c in first[:: len(grid.cells)]] == [0, 1000, 2000]


def test_interleaving_a_list_gives_the_order_of_the_lazy_plan() -> None:
    grid = plan("skyline", players="all", games=25)
    done = {grid.cells[1].key: [(0, 10)]}
    assert list(interleave(grid.chunks(done, size=4))) == list(interleave(grid.each_chunk(done, size=4)))
    assert grid.remaining(done) == sum(len(c) for c in grid.chunks(done, size=4))


def _square(n: int) -> int:
    return n * n


def test_unordered_map_reads_its_items_lazily() -> None:
    taken: list[int] = []

    def items() -> object:
        for n in range(HUGE):
            taken.append(n)
            yield n

    results = unordered_map(_square, items(), jobs=2)  # type: ignore[arg-type]
    got = {next(results) for _ in range(3)}
    results.close()
    assert got <= {n * n for n in taken} and len(taken) <= 3 + 4, "at most two items per worker in hand"
    assert sorted(unordered_map(_square, range(7), jobs=3)) == [n * n for n in range(7)]
    assert list(unordered_map(_square, [], jobs=3)) == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] if Path(f"/proc/{pid}").exists() else ""
    return state != "Z"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_no_worker_outlives_its_parent(tmp_path: Path) -> None:
    """An arena of 10**8 games in two processes, its parent killed with SIGKILL: its workers go too."""
    script = textwrap.dedent(
        """
        from citybuild.bots import arena
        arena("skyline", ["random"] * 2, games=10**8, seed=1, jobs=2, progress=lambda r: print("game", flush=True))
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline() == "game\n"  # games are being played
        workers = _children(parent.pid)
        assert len(workers) >= 2, workers
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    for _ in range(400):  # each worker looks for its parent twice a second; a bounded number of tries
        if not any(_alive(pid) for pid in workers):
            break
        subprocess.run(["sleep", "0.05"], check=True)
    assert not any(_alive(pid) for pid in workers), "a worker outlived its parent"
