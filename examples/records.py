"""Saving, replaying and checking a game record.

Run with ``python examples/records.py``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import citybuild as cb


def main() -> int:
    match = cb.Match(cb.load("manhattan", players=3, redraw_limit=2), seed=7)
    while not match.is_over:
        match.play(match.random_move())  # random players, drawing from the match's generator

    # Save: versioned JSON with the game, preset, rule overrides, seed, every move and the result.
    folder = Path(tempfile.mkdtemp())
    path = folder / "game.json"
    path.write_text(cb.to_json(match.record(), indent=1), encoding="utf-8")
    print(f"saved {len(match.history)} steps to {path}")

    # Replay: no generator is involved; every outcome comes from the record.
    record = cb.from_json(path.read_text(encoding="utf-8"))
    again = cb.replay(record)
    assert again.state == match.state
    print("replayed; winners:", ", ".join(f"P{p}" for p in again.state.winners()))

    # Check: an edited record is refused, naming the first illegal move.
    data = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, step in enumerate(data["moves"]) if step["move"].startswith("build"))
    data["moves"][index]["move"] = "pass"
    try:
        cb.replay(json.dumps(data))
    except cb.IllegalMoveError as err:
        print(f"tampered record refused at move {err.index}: {err.verdict}")
    else:
        raise AssertionError("a tampered record was accepted")

    # And a record whose stated result was changed is refused too.
    data = json.loads(path.read_text(encoding="utf-8"))
    data["result"]["winners"] = [0, 1, 2]
    try:
        cb.replay(json.dumps(data))
    except cb.NotationError as err:
        print(f"wrong result refused: {err}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
