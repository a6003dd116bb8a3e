"""A Manhattan view read with its game runs its option-free checks (``validate_view``) only when
the full check (a position drawn from it, validated and viewed again) refuses it. That is the
same as running them first only if they accept every view the full check accepts: the views of
valid positions, under every option, and views with a field taken from another view."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import citybuild as cb
from citybuild.core import position
from citybuild.core.errors import InvalidStateError
from citybuild.games.manhattan.invariants import validate_view

OPTIONS: list[dict[str, Any]] = [
    {},
    {"selection": "simultaneous_hidden"},
    {"takeover_compare": "any_colour", "two_colour_legality": "merged"},
    {"no_legal_move": "pass_keep_piece", "rounds": "until_supply_empty"},
]


def views(players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every player's view of every position of one random game."""
    state = cb.load("manhattan", players=players, **options).initial_state()
    rng = random.Random(seed)
    out = []
    while not state.is_over:
        out.extend(state.view(p) for p in range(players))
        state = state.random_step(rng)
    return out


def full_check_accepts(view: Any) -> bool:
    try:
        position.check_view(view, "MAN-SETUP-1")
    except Exception:
        return False
    return True


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_option_free_checks_accept_every_view_of_a_valid_position(players: int, options: dict[str, Any]) -> None:
    for view in views(players, options, seed=players):
        validate_view(view)
        view.validate()


@pytest.mark.parametrize("options", OPTIONS[:2])
def test_a_view_with_a_field_of_another_view_passes_both_checks_or_neither_first(options: dict[str, Any]) -> None:
    """Where the full check accepts a spliced view, the option-free checks accept it too; where it
    refuses, ``validate`` raises what the option-free checks raise when they refuse it."""
    pool = views(3, options, seed=11)
    rng = random.Random(5)
    names = [f.name for f in attrs.fields(type(pool[0])) if f.name != "game"]
    accepted = 0
    for _ in range(400):
        view, donor = rng.choice(pool), rng.choice(pool)
        name = rng.choice(names)
        spliced = attrs.evolve(view, **{name: getattr(donor, name)})
        try:
            validate_view(spliced)
            free = None
        except Exception as exc:
            free = exc
        if full_check_accepts(spliced):
            accepted += 1
            assert free is None, (name, free)
            spliced.validate()
        elif free is not None:
            with pytest.raises(type(free)) as raised:
                spliced.validate()
            assert str(raised.value) == str(free)
        else:
            with pytest.raises(Exception):  # noqa: B017 - whatever the full check raises
                spliced.validate()
    assert accepted > 0


def test_a_view_without_its_game_is_held_to_the_option_free_checks() -> None:
    view = views(2, {}, seed=1)[4]
    bare = attrs.evolve(view, game=None)
    bare.validate()
    with pytest.raises(InvalidStateError, match="MAN-COMP-4"):
        attrs.evolve(bare, hand_sizes=(3, *bare.hand_sizes[1:])).validate()
