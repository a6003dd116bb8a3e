"""Running a study: the same table in one process, in several, on a Dask cluster, in any chunks,
and after an interruption; the results folder resumes and extends a study."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citybuild.core.errors import RulesError
from citybuild.study import Plan, plan, read, run, study
from citybuild.study.runner import DaskWorkers
from citybuild.study.store import MANIFEST
from extras_support import importorskip_extra

importorskip_extra("study")
import distributed  # noqa: E402
import pyarrow as pa  # noqa: E402


@pytest.fixture(scope="module")
def grid() -> Plan:
    """Every game at 2 and 3 players: 6 cells of 6 games."""
    return plan("all", players=[2, 3], games=6, seed=11)


@pytest.fixture(scope="module")
def serial(grid: Plan) -> pa.Table:
    return run(grid, jobs=1)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A Dask cluster of 2 single-threaded worker processes, as on a real cluster."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as local:
        yield local


class Recorder:
    """A Progress that remembers what it was told, and can interrupt the study after some chunks."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.started: tuple[int, int] | None = None
        self.advanced: list[int] = []
        self.stopped = False
        self.stop_after = stop_after

    def start(self, total: int, done: int) -> None:
        self.started = (total, done)

    def advance(self, games: int, seconds: float) -> None:
        assert seconds > 0
        self.advanced.append(games)
        if self.stop_after is not None and len(self.advanced) >= self.stop_after:
            raise KeyboardInterrupt

    def stop(self) -> None:
        self.stopped = True


def test_the_table_has_one_row_per_game_in_cell_and_index_order(grid: Plan, serial: pa.Table) -> None:
    assert serial.num_rows == grid.total
    keys = serial.column("cell").to_pylist()
    indices = serial.column("index").to_pylist()
    assert list(zip(keys, indices, strict=True)) == sorted(zip(keys, indices, strict=True))
    assert set(keys) == {c.key for c in grid.cells}
    assert serial.column("p2_score").null_count == grid.total // 2  # the 2-player cells have no seat 2


def test_processes_and_any_chunking_give_the_same_table(grid: Plan, serial: pa.Table) -> None:
    progress = Recorder()
    assert run(grid, jobs=2, chunk=4, progress=progress).equals(serial)
    assert progress.started == (grid.total, 0) and sum(progress.advanced) == grid.total and progress.stopped
    assert run(grid, jobs=1, chunk=1).equals(serial)


def test_a_dask_cluster_gives_the_same_table(grid: Plan, serial: pa.Table, cluster: Any) -> None:
    assert run(grid, dask=cluster.scheduler_address, jobs=1, chunk=4).equals(serial)
    with DaskWorkers.connect(cluster.scheduler_address, jobs=1) as workers:
        assert workers.count == 2  # chunks are sized to the cluster's workers, not to --jobs


def test_a_finished_study_starts_no_workers(grid: Plan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run(grid, jobs=1, out=tmp_path)
    monkeypatch.setattr(DaskWorkers, "connect", None)  # starting a cluster would now fail
    assert run(grid, dask="local", out=tmp_path).num_rows == grid.total


def test_a_local_dask_cluster_writes_the_same_results_folder(grid: Plan, serial: pa.Table, tmp_path: Path) -> None:
    assert run(grid, dask="local", jobs=2, out=tmp_path).equals(serial)
    assert read(tmp_path).equals(serial)


def test_an_interrupted_study_resumes_without_losing_or_replaying_games(
    grid: Plan, serial: pa.Table, tmp_path: Path
) -> None:
    interrupted = Recorder(stop_after=3)
    with pytest.raises(KeyboardInterrupt):
        run(grid, jobs=2, chunk=2, out=tmp_path, progress=interrupted)
    kept = read(tmp_path)
    assert 3 * 2 <= kept.num_rows < grid.total  # every finished chunk was written, not the rest
    assert not list(tmp_path.glob(".*.tmp"))
    resumed = Recorder()
    assert run(grid, jobs=2, chunk=3, out=tmp_path, progress=resumed).equals(serial)
    assert resumed.started == (grid.total, kept.num_rows) and sum(resumed.advanced) == grid.total - kept.num_rows
    again = Recorder()
    assert run(grid, jobs=1, out=tmp_path, progress=again).equals(serial)
    assert again.advanced == []  # nothing left to play


def test_a_results_folder_extends_to_more_games_and_cells_under_its_seed(grid: Plan, tmp_path: Path) -> None:
    small = Plan(grid.cells[:1], 3, grid.seed)
    run(small, jobs=1, out=tmp_path)
    bigger = run(grid, jobs=1, out=tmp_path)
    assert bigger.equals(run(grid, jobs=1))
    assert read(tmp_path).num_rows == grid.total
    with pytest.raises(RulesError, match="holds a study with seed 11, not 12"):
        run(Plan(grid.cells, 6, 12), out=tmp_path)
    # study() extends the folder's study, under its seed, when given none
    extended = study("manhattan", players=2, presets="all-pieces", games=4, out=tmp_path, jobs=1)
    assert extended.equals(run(plan("manhattan", players=2, presets="all-pieces", games=4, seed=11), jobs=1))
    assert read(tmp_path).num_rows == grid.total + 4


def test_a_stale_temporary_file_is_removed_and_a_non_study_folder_refused(grid: Plan, tmp_path: Path) -> None:
    small = Plan(grid.cells[:1], 2, grid.seed)
    run(small, jobs=1, out=tmp_path)
    (tmp_path / ".0123456789abcdef-000000000-000000002.parquet.tmp").write_bytes(b"half a file")
    run(small, jobs=1, out=tmp_path)
    assert not list(tmp_path.glob(".*.tmp"))
    (tmp_path / MANIFEST).write_text("[1, 2]")
    with pytest.raises(RulesError, match="is not a citybuild study manifest"):
        read(tmp_path)
    with pytest.raises(RulesError, match="is not a study results folder"):
        read(tmp_path / "nowhere")


def test_bad_execution_settings_are_refused(grid: Plan, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RulesError, match="jobs must be a positive integer"):
        run(grid, jobs=0)
    with pytest.raises(RulesError, match="a chunk size must be a positive integer"):
        run(grid, chunk=0)
    monkeypatch.setattr("citybuild.study.runner.CONNECT_TIMEOUT", "0.5s")
    with pytest.raises(RulesError, match="cannot reach the Dask scheduler"):
        run(grid, dask="tcp://127.0.0.1:9", jobs=1)


def test_the_default_is_one_process_per_core() -> None:
    from citybuild.study.runner import default_jobs

    assert default_jobs() == len(os.sched_getaffinity(0))


def test_study_draws_a_progress_bar_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    table = study("skyline", players=2, games=4, seed=1, jobs=1, progress=True)
    out, err = capsys.readouterr()
    assert table.num_rows == 4 and out == ""
    assert "games" in err and "4/4" in err and "games/s" in err
