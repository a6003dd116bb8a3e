"""The report: statistics per cell (shared wins, Wilson intervals, categories, tie-breaks, length)
and the same content as a self-contained HTML page and as Markdown with PNG files."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from extras_support import importorskip_extra

importorskip_extra("study")

import pyarrow as pa  # noqa: E402

from citybuild.core.errors import RulesError  # noqa: E402
from citybuild.study import Chunk, plan, report, run, write_report  # noqa: E402
from citybuild.study.play import ChunkResult  # noqa: E402
from citybuild.study.stats import BY_SCORE, cell_stats, summarise, wilson  # noqa: E402
from citybuild.study.store import empty, results_table  # noqa: E402


def hand_made() -> pa.Table:
    """Three 2-player games: P0 wins, P1 wins on a tie-break, both share."""
    cell = plan("skyline", players=2, games=3).cells[0]
    columns = {
        "cell": [cell.key] * 3,
        "game": ["skyline"] * 3,
        "preset": ["standard"] * 3,
        "options": ["{}"] * 3,
        "players": [2] * 3,
        "bots": ["random,random"] * 3,
        "index": [0, 1, 2],
        "seed": [10, 11, 12],
        "moves": [100, 120, 140],
        "steps": [150, 170, 190],
        "rounds": [6, 6, 5],
        "winners": [[0], [1], [0, 1]],
        "tiebreak": [None, "most_completed", "shared"],
        "p0_bot": ["random"] * 3,
        "p0_score": [10, 4, 6],
        "p0_cat_building": [8, 4, 6],
        "p0_cat_low_rise": [2, 0, 0],
        "p1_bot": ["random"] * 3,
        "p1_score": [3, 4, 6],
        "p1_cat_building": [3, 4, 6],
        "p1_cat_low_rise": [0, 0, 0],
    }
    return results_table([ChunkResult(Chunk(cell, 0, 0, 3), columns, 0.0)])


def test_wilson_interval() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_cell_statistics_count_shared_wins_as_fractions() -> None:
    stats = cell_stats(hand_made())
    assert stats.games == 3 and stats.players == 2 and stats.bots == "random" and stats.variant == "standard"
    assert [s.wins for s in stats.seats] == [1.5, 1.5] and [s.win_rate for s in stats.seats] == [0.5, 0.5]
    assert (stats.seats[0].low, stats.seats[0].high) == wilson(1.5, 3)
    assert stats.seats[0].score.mean == pytest.approx(20 / 3) and stats.seats[1].score.mean == pytest.approx(13 / 3)
    assert stats.tiebreaks == pytest.approx({BY_SCORE: 1 / 3, "most_completed": 1 / 3, "shared": 1 / 3})
    assert list(stats.tiebreaks) == [BY_SCORE, "most_completed", "shared"]
    assert stats.categories == pytest.approx({"building": 31 / 6, "low_rise": 2 / 6})
    assert stats.winning_score.mean == pytest.approx(20 / 3) and stats.margin.mean == pytest.approx(7 / 3)
    assert stats.moves.mean == 120 and stats.rounds.mean == pytest.approx(17 / 3)
    assert stats.first_seat_edge == 0.0


def test_a_table_of_several_games_reports_each_cell_with_its_own_categories() -> None:
    table = run(plan(["manhattan", "skyline"], players=2, games=20, seed=3), jobs=1)
    stats = summarise(table)
    assert [s.cell for s in stats] == ["manhattan/standard/2p/random", "skyline/standard/2p/random"]
    assert set(stats[0].categories) == {"majority", "tallest", "towers"}
    assert set(stats[1].categories) <= {"building", "low_rise", "unfinished"}
    assert all(sum(s.win_rate for s in c.seats) == pytest.approx(1.0) for c in stats)


def test_html_report_is_one_page_with_embedded_plots(tmp_path: Path) -> None:
    table = run(plan("manhattan", presets="all", players=[2, 3], games=12, seed=4), jobs=1)
    path = tmp_path / "report.html"
    assert write_report(table, path, note="Seed 4.") == [path]
    page = path.read_text(encoding="utf-8")
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 5 and all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert "The cells side by side" in page and "Seed 4." in page and "95% interval" in page
    for key in set(table.column("cell").to_pylist()):
        assert f"<h3>{key}</h3>" in page
    assert "<td>manhattan/all-pieces/3p/random</td><td>12</td>" in page


def test_markdown_report_writes_its_plots_beside_it(tmp_path: Path) -> None:
    table = hand_made()
    written = write_report(table, tmp_path / "study.md")
    names = sorted(p.name for p in written)
    plots = ("win-rates", "scores", "categories", "tie-breaks", "length")
    assert names == sorted(["study.md"] + [f"study-{kind}.png" for kind in plots])
    text = (tmp_path / "study.md").read_text(encoding="utf-8")
    assert "](study-win-rates.png)" in text and "| P0 | random | 50.0% |" in text
    assert all((tmp_path / n).read_bytes().startswith(b"\x89PNG") for n in names if n.endswith(".png"))


def test_a_report_needs_games_and_a_known_format(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="no games to report on"):
        write_report(empty(), tmp_path / "r.html")
    with pytest.raises(RulesError, match=r"a report is \.html or \.md"):
        write_report(hand_made(), tmp_path / "r.pdf")


def test_a_title_in_bytes_that_are_not_utf8_and_a_path_with_a_nul(tmp_path: Path) -> None:
    """A title typed in non-UTF-8 bytes (lone surrogates to Python) raised UnicodeEncodeError, and a
    NUL byte in the path a ValueError; now the title is written with a backslash escape and the
    path is a RulesError."""
    for name in ("r.md", "r.html"):
        report.write(hand_made(), tmp_path / name, title="caf\udce9", plots=False)
        assert "caf\\udce9" in (tmp_path / name).read_text(encoding="utf-8")
    with pytest.raises(RulesError, match="cannot write the report"):
        report.write(hand_made(), tmp_path / "a\x00b.md", plots=False)
