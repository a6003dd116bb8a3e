"""A seat's picture never shows what its view hides, the "last move" line included, and a replay
page written for a seat holds only what that seat saw."""

from __future__ import annotations

import base64
import gzip
import json
import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.match import Match
from citybuild.replay_page import replay_html
from citybuild.show import Shown, step_shown, svg_of
from citybuild.sighting import is_secret, secret_rounds, secret_steps

SECRET_GAMES = [
    ("manhattan", {}),
    ("manhattan", {"selection": "simultaneous_hidden"}),
    ("urbanization", {}),
]
ALTERNATIVES = 25
"""How many other moves or outcomes of the same step a test compares with the one played."""


def random_match(name: str, options: dict[str, str], players: int, seed: int, steps: int) -> Match:
    match = Match(cb.load(name, players=players, **options), seed=seed)
    for _ in range(steps):
        if match.state.is_over:
            break
        player = match.state.to_act[0] if match.state.to_act else None
        match.play(match.random_move(player), player)
    return match


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(SECRET_GAMES),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31),
    steps=st.integers(1, 150),
    viewer=st.integers(0, 3),
)
def test_a_seats_picture_is_the_same_for_every_step_its_view_cannot_tell_apart(
    game: tuple[str, dict[str, str]], players: int, seed: int, steps: int, viewer: int
) -> None:
    """The last step's other moves or outcomes that leave the seat's view as it is (a tile drawn
    into another's supply, another's secret choice or draft pick) give the very same picture."""
    name, options = game
    assume(viewer < players)
    match = random_match(name, options, players, seed, steps)
    states, history = match.states, match.history
    index = len(history) - 1
    before, entry = states[index], history[index]
    in_round = secret_rounds(states, history)[index]
    view = states[-1].view(viewer)
    secret = secret_steps(states, history)[index]
    drawn = svg_of(Shown(states[-1], entry.move, entry.player, "", before, secret), viewer)
    if entry.player is None:
        others = [outcome for outcome, _ in before.chance_outcomes()]
    else:
        others = list(before.legal_moves(entry.player))
    compared = 0
    for other in random.Random(seed).sample(others, min(len(others), ALTERNATIVES)):
        if other == entry.move:
            continue
        after = before.play(other, entry.player)
        if after.is_over or after.view(viewer) != view:
            continue  # the seat's view (or the game's end, which everyone sees) tells this step apart
        secret = entry.player is not None and is_secret(before, other, in_round)
        assert svg_of(Shown(after, other, entry.player, "", before, secret), viewer) == drawn
        compared += 1
    assume(compared)


def rebuild(deltas: list[list[object]], whole: list[str] | None = None) -> list[str]:
    """The pictures of a replay page's story, as its script rebuilds them from their changes."""
    out: list[list[str]] = []
    for i, delta in enumerate(deltas):
        base, ops = (out[i - 1] if i else []), delta
        if delta and delta[0] == 0:
            assert whole is not None
            base, ops = whole[i].split("\n"), delta[1:]
        lines: list[str] = []
        for op in ops:
            assert isinstance(op, list)
            lines.extend(base[op[0] : op[1]] if isinstance(op[0], int) else op)
        out.append(lines)
    return ["\n".join(lines) for lines in out]


@pytest.mark.parametrize(("name", "options"), SECRET_GAMES)
def test_a_replay_page_for_a_seat_holds_only_what_it_saw(name: str, options: dict[str, str]) -> None:
    match = random_match(name, options, 3, seed=5, steps=160)
    record = match.record()
    page = replay_html(record, player=1)
    packed = re.search(r'<script id="data" type="application/octet-stream">([^<]+)</script>', page)
    assert packed is not None
    data = json.loads(gzip.decompress(base64.b64decode(packed.group(1))))
    assert data["order"] == ["P1"]  # the seat's story only
    story = data["stories"]["P1"]
    pictures = rebuild(story["pictures"])
    assert pictures[0] == svg_of(Shown(match.states[0]), 1)
    secret = secret_steps(match.states, match.history)
    assert pictures[-1] == svg_of(step_shown(match.states, match.history, secret, len(match.history)), 1)
    announce = match.game.spec.announce
    assert announce is not None
    for index, ((who, text), entry) in enumerate(zip(story["moves"], match.history, strict=True)):
        if entry.player == 1 or (entry.player is not None and not secret[index]):
            assert text == str(entry.move)
        elif entry.player is not None:
            assert text == f"{str(entry.move).split()[0]} (hidden)" and who == f"P{entry.player}"
        else:
            announced = announce(match.states[index], entry.move, 1)
            assert text == (announced if announced is not None else "(hidden)")
    assert "as P1 saw it" in page


def test_show_html_honours_player(tmp_path: object) -> None:
    from pathlib import Path

    from citybuild.cli import main

    folder = Path(str(tmp_path))
    record = random_match("urbanization", {}, 2, seed=4, steps=40).record()
    path = folder / "game.json"
    path.write_text(cb.to_json(record))
    assert main(["show", str(path), "--html", "--player", "1", "-o", str(folder / "p1.html")]) == 0
    assert main(["show", str(path), "--html", "-o", str(folder / "all.html")]) == 0
    assert (folder / "p1.html").read_text() == replay_html(record, player=1)
    assert (folder / "p1.html").read_text() != (folder / "all.html").read_text()


def test_a_replay_page_holds_every_seats_story_and_stays_small() -> None:
    """Four-player Manhattan: the whole game and each seat's story, each picture exactly the one
    ``citybuild show`` draws, in at most 400 KB."""
    match = random_match("manhattan", {}, 4, seed=1, steps=10_000)
    assert match.state.is_over
    page = replay_html(match.record())
    assert len(page.encode()) <= 400_000, len(page.encode())
    packed = re.search(r'<script id="data" type="application/octet-stream">([^<]+)</script>', page)
    assert packed is not None
    data = json.loads(gzip.decompress(base64.b64decode(packed.group(1))))
    assert data["order"] == ["all", "P0", "P1", "P2", "P3"]
    whole = rebuild(data["stories"]["all"]["pictures"])
    secret = secret_steps(match.states, match.history)
    for seat in (None, 2):
        pictures = whole if seat is None else rebuild(data["stories"][f"P{seat}"]["pictures"], whole)
        for index in (0, 1, len(match.history) // 2, len(match.history)):
            assert pictures[index] == svg_of(step_shown(match.states, match.history, secret, index), seat)
    assert f'value="{len(match.history)}"' in page  # it opens at the end
