"""Helpers of the server's tests: short rules, a seat's headers, a new match, a served process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
from fastapi.testclient import TestClient

SHORT: dict[str, dict[str, Any]] = {
    "manhattan": {"rounds": {"2": 1, "3": 1}},
    "skyline": {"rounds": 2},
    "urbanization": {"max_rounds": 1},
}
"""Rule options that make each game short (one or two rounds)."""


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def with_tokens(client: Any, made: dict[str, Any]) -> dict[str, Any]:
    """A created match's answer with ``tokens``: every human seat's token by seat (as text), the
    creator's and those of the seats taken by joining with each invite (one test plays them all)."""
    tokens = {str(made["seat"]): made["token"]}
    for seat, code in made["invites"].items():
        joined = client.post(f"/api/matches/{made['id']}/join", json={"invite": code})
        assert joined.status_code == 200, joined.text
        tokens[seat] = joined.json()["token"]
    return {**made, "tokens": dict(sorted(tokens.items(), key=lambda item: int(item[0])))}


def new_match(client: TestClient, game: str, players: int = 2, bots: dict[str, str] | None = None, **extra: Any) -> Any:
    """A new match with every seat taken (``with_tokens``)."""
    body = {"game": game, "players": players, "options": SHORT[game], "bots": bots or {}, **extra}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def settled(client: Any, url: str, headers: dict[str, str] | None = None, looks: int = 400) -> Any:
    """The match's view once no bot is to act (the bot pool plays their replies): looked at up to
    ``looks`` times, 25 ms apart; fails if a bot is still to act after that."""
    for _ in range(looks):
        view = client.get(f"{url}/view", headers=headers or {}).json()
        bots = {seat for seat, kind in enumerate(view["seats"]) if kind != "human"}
        if view["over"] or not set(view["to_act"]) & bots:
            return view
        time.sleep(0.025)
    raise AssertionError(f"a bot is still to act after {looks} looks: {view['to_act']}")


class Server:
    """A ``citybuild serve`` subprocess on a free localhost port."""

    def __init__(self, db: Path | str, workers: int = 1, *flags: str) -> None:
        command = [sys.executable, "-m", "citybuild.cli", "serve", "--port", "0", "--db", str(db), "--allow-seed"]
        command += [*(["--workers", str(workers)] if workers > 1 else []), *flags]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("citybuild: serving http://127.0.0.1:"), line + self.process.stderr.read()
        self.url = line.split()[2].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])
        self.workers = [self.worker_started() for _ in range(workers if workers > 1 else 0)]
        """The pid of each worker process (with several workers)."""
        self.http = httpx2.Client(base_url=self.url, timeout=30)
        self.http.get("/api/games").raise_for_status()  # answering

    def worker_started(self) -> int:
        """The pid of the next worker the server announces as started."""
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            assert line, "the server ended"
            if " started (pid " in line or "starting it again" in line:
                if "starting it again" in line:
                    continue
                return int(line.rsplit("pid ", 1)[1].rstrip(")\n"))

    def kill(self) -> None:
        self.http.close()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
