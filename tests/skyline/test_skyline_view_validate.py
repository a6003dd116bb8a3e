"""SkylineView.validate(): views read from JSON must be possible (SKY-COMP-1, SKY-COMP-2, SKY-COMP-5)."""

from __future__ import annotations

import json
import random

import attrs
import pytest

import citybuild as cb


def test_real_views_validate_and_tampered_ones_are_refused() -> None:
    state = cb.load("skyline", players=3).initial_state()
    rng = random.Random(4)
    for _ in range(40):
        state = state.random_step(rng)
    view = state.view(2)
    view.validate()
    assert cb.from_json(cb.to_json(view)) == view
    for bad in (
        attrs.evolve(view, player=3),
        attrs.evolve(view, yard=(view.yard[0] + 1, *view.yard[1:])),  # a 61st die (SKY-COMP-2)
        attrs.evolve(view, short=(0,) * 5),  # SKY-COMP-5
        attrs.evolve(view, active=(("XX", "P"),)),
    ):
        with pytest.raises(cb.InvalidStateError):
            bad.validate()
    document = json.loads(cb.to_json(view))
    document["view"]["yard"][0] += 1
    with pytest.raises(cb.NotationError):
        cb.from_json(json.dumps(document))
