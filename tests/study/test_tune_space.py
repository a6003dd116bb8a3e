"""A tune's search space: ``--vary`` texts, the first values of a range, the values added around
the best, the options set aside as having no effect, and candidates as typed rule options."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citybuild as cb
from citybuild.cli.options import option_text
from citybuild.core.errors import RulesError
from citybuild.study.space import dimension, parse_vary, space


def test_vary_reads_choices_as_json_or_text_and_ranges_as_integers() -> None:
    d = parse_vary("yard_take=2,3,5")
    assert d.name == "yard_take" and d.values == (2, 3, 5) and not d.integer_range
    assert parse_vary("takeover_compare=owner,max_other").values == ("owner", "max_other")
    assert parse_vary("finite_tile_supply=true,false").values == (True, False)
    r = parse_vary("tile_counts.4=12..24")
    assert r.option == "tile_counts" and r.key == "4" and r.integer_range and r.values == tuple(range(12, 25))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("yard_take", "NAME=V1,V2"),
        ("=1,2", "NAME=V1,V2"),
        ("yard_take=3..2", "HI must exceed LO"),
        ("yard_take=3..3", "HI must exceed LO"),
        ("yard_take=a..b", "two integers"),
        ("yard_take=3", "at least two different values"),
        ("yard_take=3,3", "at least two different values"),
        ("a.b.c=1,2", "NAME or NAME.KEY"),
    ],
)
def test_bad_vary_texts_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_vary(text)


def test_a_long_range_starts_from_five_values_with_both_ends_and_a_short_one_from_all() -> None:
    assert dimension("yard_take", range(1, 9)).start() == (1, 3, 5, 6, 8)
    assert dimension("yard_take", range(2, 6)).start() == (2, 3, 4, 5)
    assert dimension("yard_take", [5, 1]).start() == (5, 1)


def test_refining_adds_the_values_halfway_to_the_nearest_played_neighbours() -> None:
    s = space("skyline", "standard", {"yard_take": range(1, 9), "blue_min_height": [2, 3]})
    played = s.start()
    best = (("yard_take", 3), ("blue_min_height", 3))
    assert s.refine(best, played) == [
        (("yard_take", 2), ("blue_min_height", 3)),
        (("yard_take", 4), ("blue_min_height", 3)),
    ]
    at_end = (("yard_take", 8), ("blue_min_height", 2))
    assert s.refine(at_end, played) == [(("yard_take", 7), ("blue_min_height", 2))]
    everything = [(("yard_take", v), ("blue_min_height", b)) for v in range(1, 9) for b in (2, 3)]
    assert s.refine(best, everything) == []  # neighbours one apart: nothing between them


@given(st.sets(st.integers(0, 40), min_size=2), st.data())
def test_refined_values_are_new_and_lie_strictly_between_the_best_and_a_played_neighbour(
    played_values: set[int], data: st.DataObject
) -> None:
    s = space("skyline", "standard", {"rounds": range(1, 42)})
    value = data.draw(st.sampled_from(sorted(played_values)))
    played = [(("rounds", v + 1),) for v in played_values]
    best = (("rounds", value + 1),)
    for (candidate,) in (c for c in s.refine(best, played)):
        new = candidate[1]
        assert (("rounds", new),) not in played and 1 <= new <= 41
        lower = max((v + 1 for v in played_values if v + 1 < value + 1), default=None)
        upper = min((v + 1 for v in played_values if v + 1 > value + 1), default=None)
        assert (lower is not None and lower < new < value + 1) or (upper is not None and value + 1 < new < upper)


def test_an_option_without_effect_under_the_preset_is_set_aside_with_the_reason() -> None:
    s = space("skyline", "standard", {"yard_take": [2, 3], "tile_counts.4": range(12, 25)})
    assert [d.name for d in s.dimensions] == ["yard_take"]
    assert s.inert == {"tile_counts.4": "no effect in standard: finite_tile_supply is False"}
    # searched with the option it depends on, it has an effect
    both = space("skyline", "standard", {"finite_tile_supply": [False, True], "tile_counts.4": range(12, 25)})
    assert [d.name for d in both.dimensions] == ["finite_tile_supply", "tile_counts.4"] and not both.inert
    with pytest.raises(RulesError, match="no varied option has an effect"):
        space("skyline", "standard", {"tile_counts.4": range(12, 25)})


def test_rules_say_which_options_matter_only_with_others() -> None:
    sky = cb.load("skyline").rules
    assert sky.inert("tile_counts") == "finite_tile_supply is False"
    assert sky.replace(finite_tile_supply=True).inert("tile_counts") is None
    assert sky.replace(six_floor_ends_game=False).inert("end_trigger_latches") == "six_floor_ends_game is False"
    assert sky.inert("yard_take") is None
    man = cb.load("manhattan").rules
    assert man.inert("redraw_limit") is None and man.replace(no_legal_move="forfeit").inert("redraw_limit")
    with pytest.raises(RulesError, match="unknown option 'nope'"):
        sky.inert("nope")


@pytest.mark.parametrize(
    ("vary", "message"),
    [
        ({"nope": [1, 2]}, "unknown option 'nope'"),
        ({"yard_take.2": [1, 2]}, "not a dict option"),
        ({}, "at least one option"),
    ],
)
def test_a_space_refuses_unknown_options_and_keys(vary: dict[str, list[int]], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        space("skyline", "standard", vary)


def test_a_space_refuses_an_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown preset 'nope'"):
        space("skyline", "nope", {"yard_take": [1, 2]})


def test_candidates_become_typed_rule_options_and_values_of_a_wrong_type_fail() -> None:
    s = space("skyline", "standard", {"finite_tile_supply": [True, False], "tile_counts.4": range(12, 25)})
    options = s.options((("finite_tile_supply", True), ("tile_counts.4", 20)))
    assert options["finite_tile_supply"] is True
    assert options["tile_counts"] == {1: 8, 2: 20, 3: 6, 4: 20, 5: 4, 6: 4}
    assert cb.load("skyline", **options).rules.tile_counts[4] == 20
    assert s.baseline() == (("finite_tile_supply", False), ("tile_counts.4", 18))
    with pytest.raises(RulesError, match="yard_take"):
        space("skyline", "standard", {"yard_take": ["a", "b"]}).options((("yard_take", "a"),))


def test_option_text_is_json_except_for_plain_words() -> None:
    assert [option_text(v) for v in (3, True, "owner", "3", {4: 12})] == ["3", "true", "owner", '"3"', '{"4":12}']
