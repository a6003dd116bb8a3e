"""SVG pictures of every game: valid XML, deterministic, honest about what a view hides, and the
options (size, orientation, last move, coordinates) change what they say they change."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import citybuild as cb
from citybuild.core.svg import PictureOptions, picture
from citybuild.games.manhattan.picture import rotation_diagram

NS = "{http://www.w3.org/2000/svg}"
GAMES = ("manhattan", "skyline", "urbanization")


def positions(game: str, players: int, seed: int, steps: int) -> list[cb.Match]:
    """States along one random game (every ``steps`` player moves), as (state, last entry)."""
    match = cb.Match(cb.load(game, players=players), seed=seed)
    out = [(match.state, None)]
    count = 0
    while not match.is_over:
        player = match.state.to_act[0]
        match.play(match.random_move(player), player)
        count += 1
        if count % steps == 0:
            out.append((match.state, match.history[-1]))
    out.append((match.state, match.history[-1]))
    return out


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") and root.get("width") and root.get("height")
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


@pytest.mark.parametrize("game", GAMES)
def test_states_and_views_draw_valid_deterministic_svg(game: str) -> None:
    for state, entry in positions(game, 3, seed=5, steps=25):
        svg = state._repr_svg_()
        assert svg == picture(state) == state._repr_svg_()
        parse(svg)
        for player in range(state.game.players):
            view = state.view(player)
            parse(view._repr_svg_())
        if entry is not None:
            marked = picture(state, last_move=entry.move, last_player=entry.player)
            said = f"last move: {'' if entry.player is None else f'P{entry.player} '}{entry.move}"
            assert any(said in line for line in texts(parse(marked)))


def test_manhattan_picture_shows_towers_heights_owners_and_lot_numbers() -> None:
    game = cb.load("manhattan", players=2)
    state = game.parse_state(
        "manhattan/2 round=1 phase=build turn=0 towers=Syd4:B1A3,HK0:C2 hands=0034/1278 chosen=1124/1/1333/1"
    )
    root = parse(state._repr_svg_())
    words = texts(root)
    assert words.count("4") >= 1 and "A" in words and "C" in words  # Syd4: 4 floors owned by A; HK0: C
    assert "Sydney (Syd)" in words and "South: P0 A, P0 C" in words and "North: P1 B, P1 D" in words
    stacks = [r for r in root.iter(f"{NS}rect") if r.get("width") == "18"]
    assert [r.get("fill") for r in stacks] == ["#1f77b4", "#d62728", "#e6a800"]  # B1 under A3, then C2
    assert sum(1 for w in words if w in {str(n) for n in range(9)}) >= 54  # every lot numbered
    bare = texts(parse(picture(state, coordinates=False)))
    assert len(bare) < len(words)


def test_manhattan_orientation_puts_the_viewer_side_at_the_bottom() -> None:
    state = cb.load("manhattan", players=4).initial_state()
    south = texts(parse(picture(state)))
    assert "South: P0 A" in south
    west = texts(parse(picture(state.view(1))))  # a view is drawn from its player's side
    assert "West: P1 B" in west
    assert texts(parse(picture(state, orientation=1)))[:5] == west[:5]  # the same sides around the board
    assert west[1:5] == ["West: P1 B", "North: P2 C", "East: P3 D", "South: P0 A"]  # bottom, left, top, right


def test_manhattan_view_hides_other_hands() -> None:
    game = cb.load("manhattan", players=2)
    state = game.parse_state("manhattan/2 round=1 phase=build turn=0 hands=0034/1278 chosen=1124/1/1333/1")

    def backs(root: ET.Element) -> int:
        cards = [g[0] for g in root.iter(f"{NS}g") if g.get("class") == "card"]
        return sum(1 for rect in cards if rect.get("fill") == "#8c7b5a")

    assert backs(parse(picture(state.view(0)))) == 4  # P1's four cards seen from the back
    assert backs(parse(picture(state))) == 0


def test_manhattan_last_build_is_highlighted() -> None:
    game = cb.load("manhattan", players=2)
    state = game.parse_state("manhattan/2 round=1 phase=build turn=0 hands=0034/1278 chosen=1124/1/1333/1")
    after = state.play("build 0 Syd A1")
    plain = picture(after)
    marked = picture(after, last_move="build 0 Syd A1")
    assert "#ff00aa" not in plain and marked.count("#ff00aa") == 2  # the lot, and the key says what it means
    lots = [
        g
        for g in parse(marked).iter(f"{NS}g")
        if g.get("class") == "lot" and any(r.get("stroke") == "#ff00aa" for r in g)
    ]
    assert [g.get("data-lot") for g in lots] == ["Syd0"]  # card 0 read from the South: lot 0


def test_skyline_picture_shows_columns_tiles_and_dice() -> None:
    game = cb.load("skyline", players=2)
    final = positions("skyline", 2, seed=11, steps=1000)[-1][0]
    root = parse(final._repr_svg_())
    words = texts(root)
    assert "yard" in words and "district" in words
    tiles = [b for s in final.skylines for b in s.tiles]
    words = [w for g in root.iter(f"{NS}g") if g.get("class") == "skyline" for w in texts(g)]  # not the key's
    assert all(f"#{b.id}" in words for s in final.skylines for b in s.buildings)
    assert sum(1 for w in words if w.startswith("+")) == len(tiles)
    start = game.initial_state()
    words = texts(parse(start._repr_svg_()))
    assert words.count("GF") >= 3  # starting columns and the district's unrolled dice


def test_urbanization_picture_shows_city_tokens_and_hides_secrets() -> None:
    state = positions("urbanization", 3, seed=2, steps=1000)[-2][0]
    root = parse(state._repr_svg_())
    words = texts(root)
    assert all(letter in words for letter, cell in zip("ABCDEFGHIJKL", state.tokens, strict=True) if cell)
    view_words = texts(parse(state.view(0)._repr_svg_()))
    assert any("SP hidden" in w for w in view_words) and not any("SP hidden" in w for w in words)


def test_options_are_checked() -> None:
    state = cb.load("skyline").initial_state()
    with pytest.raises(cb.RulesError, match="size"):
        picture(state, size=3)
    with pytest.raises(cb.RulesError, match="coordinates"):
        picture(state, coordinates="yes")
    with pytest.raises(TypeError):
        picture(state, colour="red")
    sized = parse(picture(state, size=300))
    assert sized.get("width") == "300"
    assert PictureOptions().coordinates is True


def test_rotation_diagram() -> None:
    words = texts(parse(rotation_diagram()))
    assert "West player" in words and "East player" in words


def test_a_picture_of_something_else_is_refused() -> None:
    with pytest.raises(cb.RulesError, match="not a position"):
        picture(object())


def test_random_positions_of_every_game_draw(subtests: object = None) -> None:
    rng = random.Random(4)
    for game in GAMES:
        for players in (2, 4):
            state = cb.load(game, players=players).initial_state()
            for _ in range(rng.randrange(20, 200)):
                if state.is_over:
                    break
                state = state.play(state.random_move(rng, None if state.is_chance else state.to_act[0]),
                                   None if state.is_chance else state.to_act[0])  # fmt: skip
            parse(state._repr_svg_())
