"""citybuild as the referee inside a pytest test of someone else's code.

The code under test is a naive Manhattan bot that reads only its own view and answers in move
notation, with its own idea of the rules. The tests let it play whole games and have citybuild
check every move it proposes; a second test shows what the referee says about a buggy bot.

Run with ``python examples/referee_in_pytest.py`` (or ``pytest examples/referee_in_pytest.py``).
"""

from __future__ import annotations

import sys

import pytest

import citybuild as cb
from citybuild.games.manhattan import ManhattanView

CITIES = ("Syd", "Man", "Fra", "HK", "SP", "Cai")
LETTERS = "ABCD"


# --- the code under test: someone else's bot --------------------------------------------------
def naive_bot(view: ManhattanView, colours: tuple[int, ...], careful: bool = True) -> str:
    """Select the smallest pieces; build on an empty lot, on its own tower, or take over with a big
    enough piece; otherwise redraw. Plays with ``card_orientation="fixed"``: card k names lot k."""
    me = view.player
    if view.phase == "select":
        picks = []
        for colour in colours:
            supply = view.supply[colour]
            sizes = "".join(str(s + 1) * n for s, n in enumerate(supply))[:4]
            picks.append(f"{LETTERS[colour]}{sizes or '-'}")
        return "select " + " ".join(picks)
    hand = view.hands[me] or ()
    for colour in colours:
        chosen = view.chosen[colour]
        if not isinstance(chosen, tuple) or not any(chosen):
            continue
        sizes = [s + 1 for s, n in enumerate(chosen) if n]
        for card, count in enumerate(hand):
            if not count:
                continue
            for city in range(6):
                tower = view.towers[city * 9 + card]
                if not tower or tower[-1].colour == colour:
                    return f"build {card} {CITIES[city]} {LETTERS[colour]}{sizes[0]}"
                floors: dict[int, int] = {}
                for piece in tower:
                    floors[piece.colour] = floors.get(piece.colour, 0) + piece.size
                need = floors[tower[-1].colour] - floors.get(colour, 0)
                big = [s for s in sizes if s >= need] if careful else sizes
                if big:
                    return f"build {card} {CITIES[city]} {LETTERS[colour]}{big[-1]}"
    card = next(k for k, n in enumerate(hand) if n)
    return f"redraw {card}"


# --- the tests ---------------------------------------------------------------------------------
def play_with_referee(seed: int, careful: bool = True) -> cb.Match:
    game = cb.load("manhattan", players=2, card_orientation="fixed")
    match = cb.Match(game, seed=seed)
    while not match.is_over:
        player = match.state.to_act[0]
        colours = game.rules.colours_of(player, game.players)
        if match.state.legal_moves(player)[0].__class__.__name__ == "Forfeit":
            match.play(match.random_move(player), player)  # the bot does not know this rule: help it
            continue
        text = naive_bot(match.state.view(player), colours, careful)
        verdict = match.state.check(text, player)
        assert verdict.ok, f"bot proposed {text!r} at {match.state.notation()}: {verdict}"
        match.play(text, player)
    return match


@pytest.mark.parametrize("seed", range(3))
def test_naive_bot_only_plays_legal_moves(seed: int) -> None:
    match = play_with_referee(seed)
    assert match.state.winners()


def test_referee_explains_a_buggy_bot() -> None:
    with pytest.raises(AssertionError) as caught:
        for seed in range(10):
            play_with_referee(seed, careful=False)
    assert "takeover" in str(caught.value) and "MAN-BUILD-4" in str(caught.value)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
