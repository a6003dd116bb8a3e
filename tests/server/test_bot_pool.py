"""The bot pool: a searching bot's thinking is capped by the pool's budget (a level that searches,
``hard``, too) and the default budget leaves ``hard`` uncut, one match's job is held by one thread
at a time (SQLite's jobs in memory), and a pool of no threads plays nothing."""

from __future__ import annotations

import json
import logging
import random
import threading
from pathlib import Path
from typing import Any

from extras_support import importorskip_extra

importorskip_extra("server")

from fastapi.testclient import TestClient  # noqa: E402
from server_support import SHORT, auth  # noqa: E402

import citybuild as cb  # noqa: E402
from citybuild.bots import LEVELS, LevelBot, from_text  # noqa: E402
from citybuild.bots.ismcts import IsmctsBot  # noqa: E402
from citybuild.bots.levels import level  # noqa: E402
from citybuild.server import create_app  # noqa: E402
from citybuild.server.botpool import BUDGET, searching, think  # noqa: E402
from citybuild.server.quotas import Quotas  # noqa: E402
from citybuild.server.room import ISMCTS_LIMIT  # noqa: E402
from citybuild.server.store import Store  # noqa: E402


class Spy(IsmctsBot):
    """An ismcts bot that answers the time it was given instead of searching."""

    def choose(self, view: Any, rng: random.Random) -> Any:
        return self.time


def test_a_searching_bot_thinks_within_the_pools_budget() -> None:
    rng = random.Random(1)
    assert think(Spy(iterations=2000), None, rng, 0.25) == 0.25  # iterations alone: the budget bounds it
    assert think(Spy(iterations=10, time=0.1), None, rng, 0.25) == 0.1  # a shorter time of its own stays
    assert think(Spy(iterations=10, time=9.0), None, rng, 0.25) == 0.25


def test_a_level_that_searches_thinks_as_its_search_within_the_budget() -> None:
    assert think(LevelBot("hard", Spy(iterations=1000)), None, random.Random(1), 0.25) == 0.25
    hard = searching(level("hard"))
    assert hard == from_text(LEVELS["hard"]) and searching(level("easy")) is None and searching(level("normal")) is None


def first_decision(game: str) -> Any:
    """The view of the first position of a 2-player ``game`` (seed 1) where a player has a choice."""
    match = cb.Match(cb.load(game, players=2), seed=1)
    while len(match.state.view(player := match.state.to_act[0]).legal_moves()) < 2:
        match.play(match.random_move())
    return match.state.view(player)


def test_the_default_budget_leaves_hard_uncut(caplog: Any) -> None:
    """``hard`` decides as it would with no budget at all (the same move from the same generator,
    no warning of a cut); and the budget is above the slowest
    ``hard`` decision measured, with a quarter to spare: in the server's bot pool
    (``bench_server.py``) and in the levels' calibration games (``bench_bots.py --levels``)."""
    caplog.set_level(logging.INFO, logger="citybuild.server")
    for game in ("manhattan", "skyline", "urbanization"):
        view = first_decision(game)
        assert think(level("hard"), view, random.Random(7), BUDGET) == level("hard").choose(view, random.Random(7))
    told = [r.getMessage() for r in caplog.records]
    spent = [float(line.split(" decided in ")[1].split()[0]) for line in told if " decided in " in line]
    assert len(spent) == 3  # each search told its processor time
    assert not [line for line in told if "cut short" in line]
    results = Path(__file__).parents[2] / "benchmarks" / "results"
    pool = json.loads((results / "server.json").read_text())
    assert pool["bot"] == "hard" and pool["decisions"] >= 20 and pool["cut_short"] == 0
    calibration = json.loads((results / "levels.json").read_text())
    assert calibration["levels"]["hard"] == LEVELS["hard"]
    slowest = max(pool["max_seconds"], *(row["max_seconds"] for row in calibration["speed"]))
    assert 1.25 * slowest <= BUDGET
    assert (hard := searching(level("hard"))) is not None and hard.iterations is not None
    assert hard.iterations <= ISMCTS_LIMIT  # the server's cap on iterations seats hard


def test_a_matchs_job_is_held_by_one_thread_at_a_time(tmp_path: Path) -> None:
    store = Store(tmp_path / "jobs.sqlite")
    store.add_job("m1")
    store.add_job("m1")  # one job per match
    taken: list[str | None] = []
    thread = threading.Thread(target=lambda: taken.append(store.take_job(0.0)))
    thread.start()
    thread.join(30)
    assert taken == ["m1"] and store.take_job(0.0) is None  # held by the other thread
    store.add_job("m2")
    assert store.take_job(0.0) == "m2"
    store.release_job()  # m2 back, untaken
    assert store.take_job(0.0) == "m2"
    store.finish_job("m2")
    assert store.take_job(0.0) is None
    store.close()


def test_with_no_bot_thread_a_bots_reply_waits_and_the_answer_goes_out_without_it(tmp_path: Path) -> None:
    app = create_app(tmp_path / "db.sqlite", allow_seed=True, quotas=Quotas.off(), bot_threads=0, reply_wait=0.0)
    with TestClient(app) as client:
        body = {"game": "skyline", "players": 2, "options": SHORT["skyline"], "bots": {"1": "greedy"}, "seed": 4}
        made = client.post("/api/matches", json=body).json()
        url, headers = f"/api/matches/{made['id']}", auth(made["token"])
        view = client.get(f"{url}/view", headers=headers).json()
        while view["to_act"] == [0]:
            view = client.post(f"{url}/moves", headers=headers, json={"move": view["legal_moves"][0]}).json()
        assert view["to_act"] == [1] and not view["over"]  # the bot's turn, and nobody plays it here
        assert client.app.state.hall.store.take_job(0.0) == made["id"]  # its job is waiting  # type: ignore[attr-defined]
