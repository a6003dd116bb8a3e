"""Embedding a game in an app loop: show each player their view, take a move, explain refusals.

Here the "players" are tiny functions; in an app they would be a UI, a socket or a chat bot.
Run with ``python examples/app_loop.py``.
"""

from __future__ import annotations

import citybuild as cb


def careless_player(view: object, legal: tuple[object, ...], turn: int) -> str:
    """Sends text like a user would: every fifth answer is a move that makes no sense now."""
    if turn % 5 == 0:
        return "pass"
    return str(legal[turn % len(legal)])


def main() -> int:
    game = cb.load("manhattan", players=2, preset="four-rounds")
    match = cb.Match(game, seed=2024)  # deals and draws come from the match's own seeded generator
    turn = refused = 0
    while not match.is_over:
        player = match.state.to_act[0]
        view = match.state.view(player)  # what this player may know: the other hand is hidden
        text = careless_player(view, match.state.legal_moves(player), turn)
        turn += 1
        try:
            match.play(text, player)
        except cb.IllegalMoveError as err:  # the match is unchanged; tell the user why
            refused += 1
            if refused <= 3:
                print(f"P{player} tried {text!r}: {err.verdict}")
        except cb.NotationError as err:
            print(f"P{player} typed something unreadable: {err}")
    # A player changes their mind about the last move: take it back and play it again.
    last = match.undo()
    match.redo()
    print(f"undo took back {len(last)} steps ({last[0]}), redo put them back")
    print(f"{len(match.history)} steps, {refused} refused attempts")
    print(match.state.scores())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
