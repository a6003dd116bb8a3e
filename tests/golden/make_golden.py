"""Write the golden games: for fixed seeds of every game, preset and player count, the moves of a
``Match`` driven by ``match.random_move()``, its final notation, and the final notation of
``state.playout(random.Random(seed))``. ``test_golden.py`` replays them; refactors must not change
them, so a seed keeps its meaning and old records still replay.

    python tests/golden/make_golden.py     # only when a rule change is meant to change games
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import citybuild as cb

HERE = Path(__file__).parent
SEEDS = (0, 1, 2)
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("manhattan", {"selection": "simultaneous_hidden"}),
    ("manhattan", {"no_legal_move": "pass_keep_piece", "pieces_per_round": {2: 8, 3: 8, 4: 8}}),
    ("manhattan", {"no_legal_move": "forfeit", "reshuffle": "eager", "two_colour_legality": "merged"}),
    ("skyline", {"finite_tile_supply": True, "reroll_all_remaining": True}),
    ("skyline", {"fallback_only": True, "demolish_completed_allowed": False, "yard_take": 4}),
    ("urbanization", {"character_mode": "random", "token_no_space": "any_cell_adjacent_to_city"}),
    ("urbanization", {"end_timing": "immediate", "new_card_insertion": "discard", "colour_penalty_to": "box"}),
)


def cases() -> list[tuple[str, str, int, dict[str, Any]]]:
    out = []
    for name in ("manhattan", "skyline", "urbanization"):
        spec = cb.core.registry.spec(name)
        for preset in cb.presets(name):
            for players in range(spec.min_players, spec.max_players + 1):
                out.append((name, preset, players, {}))
    for name, options in VARIANTS:
        for players in (2, 3, 4):
            out.append((name, "standard", players, options))
    return out


def match_game(game: cb.Game, seed: int) -> dict[str, Any]:
    match = cb.Match(game, seed=seed)
    while not match.state.is_over:
        to_act = match.state.to_act
        player = to_act[int(match.random() * len(to_act))] if len(to_act) > 1 else None
        match.play(match.random_move(player), player)
    record = match.record()
    return {
        "moves": " | ".join(f"{'c' if e.player is None else e.player}:{e.move}" for e in record.moves),
        "final": match.state.notation(),
    }


def playout_game(game: cb.Game, seed: int) -> dict[str, Any]:
    final, steps = game.initial_state().playout(random.Random(seed))
    return {"steps": steps, "final": final.notation(), "totals": list(final.scores().totals)}


def golden() -> list[dict[str, Any]]:
    out = []
    for name, preset, players, options in cases():
        game = cb.load(name, players=players, preset=preset, **options)
        for seed in SEEDS:
            out.append(
                {
                    "game": name,
                    "preset": preset,
                    "players": players,
                    "options": options,
                    "seed": seed,
                    "match": match_game(game, seed),
                    "playout": playout_game(game, seed),
                }
            )
    return out


if __name__ == "__main__":
    lines = (json.dumps(game, sort_keys=True) for game in golden())
    (HERE / "games.jsonl").write_text("\n".join(lines) + "\n")
