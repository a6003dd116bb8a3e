"""The action numbering of each game is a published interface (trained agents depend on it): these
pins fail on any change of an id's meaning. Change them only with a new numbering version."""

from __future__ import annotations

import hashlib

import pytest

import citybuild as cb
from citybuild.core.actions import decisions

PINNED = {
    # game: (action ids, chance ids, {id: name} spot checks, digest of every name in order)
    "manhattan": (
        69,
        9,
        {
            0: "card 0",
            8: "card 8",
            9: "city Syd",
            14: "city Cai",
            15: "piece A1",
            30: "piece D4",
            31: "redraw 0",
            39: "redraw 8",
            40: "forfeit A1",
            55: "forfeit D4",
            56: "pass",
            57: "count 0",
            68: "count 11",
        },
        "d5131819e38e3d19",
    ),
    "skyline": (
        96,
        4,
        {
            0: "die GFP",
            3: "die GFX",
            4: "die UFP",
            11: "die PHX",
            12: "new building",
            13: "building slot 0",
            27: "building slot 14",
            28: "more buildings",
            29: "abandon",
            30: "demolish",
            31: "reroll",
            32: "end turn",
            33: "take from the yard",
            34: "take the district",
            35: "count 0",
            95: "count 60",
        },
        "2ea8b6a8b8cdc598",
    ),
    "urbanization": (
        163,
        146,
        {
            0: "card R1",
            59: "card Y20",
            60: "card A",
            71: "card L",
            72: "tile R1",
            131: "tile Y20",
            132: "no tile",
            133: "character RE",
            141: "character YC",
            142: "new hand",
            143: "keep the hand",
            144: "take a resource",
            145: "take a tile",
            146: "destination slot 0",
            160: "destination slot 14",
            161: "more destinations",
            162: "done",
        },
        "9b82675bcf1ee01b",
    ),
}
CHANCE = {
    "manhattan": ("draw 0", "draw 8"),
    "skyline": ("face P", "face X"),
    "urbanization": ("draw card R1", "first player 4"),
}


def _digest(names: tuple[str, ...]) -> str:
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_numbering_is_pinned(name: str) -> None:
    size, chance_size, spots, digest = PINNED[name]
    for preset in cb.presets(name):
        for players in (2, 3, 4, 5)[: 3 if name != "urbanization" else 4]:
            numbering = decisions(cb.load(name, players=players, preset=preset))
            assert (numbering.size, numbering.chance_size) == (size, chance_size)
            assert {i: numbering.names[i] for i in spots} == spots
            assert _digest(numbering.names) == digest
            assert (numbering.chance_names[0], numbering.chance_names[-1]) == CHANCE[name]
            assert len(set(numbering.names)) == size  # one meaning per id


def test_names_are_looked_up_with_a_clear_refusal() -> None:
    numbering = decisions(cb.load("manhattan"))
    assert numbering.name(56) == "pass"
    with pytest.raises(cb.RulesError, match="numbers its actions 0 to 68, not 69"):
        numbering.name(69)
