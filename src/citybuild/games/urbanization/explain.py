"""Why an Urbanization move is refused: each reason a ``Violation`` citing its rule ID.

It must agree with the engine's ``legal_moves``/``is_legal``; a property test proves it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citybuild.core.verdict import Violation
from citybuild.games.urbanization.moves import Done, Give, Keep, NewHand, Pick, Select, Take, Token
from citybuild.games.urbanization.rules import NUMBERS, TILES, card_name, character_name, tile_name

if TYPE_CHECKING:
    from citybuild.games.urbanization.engine import UrbanizationEngine

_PHASE_OF = {
    Pick: ("draft", "URB-SETUP-7", "characters are picked only during the draft"),
    NewHand: ("newhand", "URB-ROUND-1", "a New Hand token is spent only in phase 1, in turn order"),
    Keep: ("newhand", "URB-ROUND-1", "keeping the hand is a phase-1 decision"),
    Select: ("choose", "URB-ROUND-2", "cards are selected only in phase 2"),
    Take: ("resolve", "URB-EXPLOIT-1", "a resource or a tile is taken only when a card played alone resolves"),
    Token: ("resolve", "URB-URBANIZE-3", "a token moves only when an Urbanize resolves"),
    Give: ("contribute", "URB-END-1", "tiles are given only after the first exhaustion"),
    Done: ("contribute", "URB-END-1", "giving tiles happens only after the first exhaustion"),
}
_STEP_NAMES = {
    "draft": "the character draft",
    "newhand": "phase 1 (New Hand)",
    "choose": "phase 2 (secret choice)",
    "resolve": "the resolution of an action",
    "contribute": "the contribution step",
}


def violations(engine: UrbanizationEngine, move: Any, player: int) -> list[Violation]:
    kind = type(move)
    if kind not in _PHASE_OF:
        return [Violation("not-a-decision", "URB-RAND-5", f"{move} is a chance outcome; no player chooses it")]
    phase, rule, message = _PHASE_OF[kind]
    now = _STEP_NAMES.get(engine.phase, engine.phase)
    if engine.phase != phase:
        return [Violation("wrong-phase", rule, f"{message}; the game is in {now}")]
    if kind is Select:
        return _select(engine, move, player)
    if kind is Take:
        if engine.pending != "take":
            return [Violation("no-choice-pending", rule, "no resource-or-tile choice is pending")]
        if move.item not in ("resource", "tile"):
            return [Violation("bad-item", rule, f"take 'resource' or 'tile', not {move.item!r}")]
        return []
    if kind is Token:
        if engine.pending != "token":
            return [Violation("no-token-pending", rule, "no token is waiting to move")]
        cell = (move.x, move.y)
        choices = engine.destinations()
        if cell not in choices:
            shown = " ".join(f"{x},{y}" for x, y in choices)
            why = "a building" if cell in engine.cells else "a token" if cell in engine.tokens else "not next to it"
            return [
                Violation(
                    "bad-destination",
                    rule,
                    f"the token may go to an empty cell orthogonally next to the new building ({shown}); "
                    f"{move.x},{move.y} is {why}",
                )
            ]
        return []
    if kind is NewHand:
        if engine.may_renew(player):
            return []
        if engine.newhand[player] <= 0:
            return [Violation("no-new-hand-token", rule, f"P{player} has no New Hand token left")]
        limit = engine.rules.new_hand_per_round
        return [Violation("new-hand-limit", rule, f"at most {limit} New Hand token(s) per round")]
    if kind is Give:
        if move.tile not in engine.tiles[player]:
            return [Violation("tile-not-in-supply", rule, f"{_tile(move.tile)} is not in P{player}'s supply")]
        return []
    if kind is Pick:
        if move.kind not in engine.draft[player]:
            shown = " ".join(character_name(k) for k in engine.draft[player])
            return [
                Violation("not-in-draft-hand", rule, f"{_kind(move.kind)} is not in P{player}'s draft hand ({shown})")
            ]
        return []
    return []


def _tile(tile: Any) -> str:
    return tile_name(tile) if isinstance(tile, int) and 0 <= tile < TILES else repr(tile)


def _card(card: Any) -> str:
    return card_name(card) if isinstance(card, int) and 0 <= card < TILES + 12 else repr(card)


def _kind(kind: Any) -> str:
    return character_name(kind) if isinstance(kind, int) and 0 <= kind < 9 else repr(kind)


def _select(engine: UrbanizationEngine, move: Select, player: int) -> list[Violation]:
    """URB-ROUND-2, URB-URBANIZE-1, URB-CONSTRUCT-2."""
    out = []
    card, tile = move.card, move.tile
    if card not in engine.hands[player]:
        out.append(Violation("card-not-in-hand", "URB-ROUND-2", f"{_card(card)} is not in P{player}'s hand"))
    if tile is not None and tile not in engine.tiles[player]:
        out.append(Violation("tile-not-in-supply", "URB-ROUND-2", f"{_tile(tile)} is not in P{player}'s supply"))
    if out or tile is None:
        return out
    if card >= TILES:
        letter = card_name(card)
        if engine.tokens[card - TILES] is None:
            out.append(
                Violation(
                    "token-gone",
                    "URB-URBANIZE-1",
                    f"token {letter} has left the game; card {letter} can only be played alone (URB-URBANIZE-3)",
                )
            )
        if engine.supply[player] < 1:
            out.append(
                Violation("no-resource", "URB-URBANIZE-1", f"Urbanize needs 1 resource in supply; P{player} has 0")
            )
        return out
    cost = engine.select_cost(player, card, tile)
    if cost is None:
        return [Violation("no-building", "URB-CONSTRUCT-3", f"no building is topped by {_card(card)}")]
    need, have, sp = cost
    if have < need:
        colour = " (1 more for the colour)" if tile // NUMBERS != card // NUMBERS else ""
        out.append(
            Violation(
                "cannot-afford",
                "URB-CONSTRUCT-2",
                f"building {_tile(tile)} on {_card(card)} needs {need} resources{colour}; "
                f"P{player} has {have} (supply plus their own resources on it)",
            )
        )
    if engine.sp[player] < sp:
        out.append(
            Violation(
                "cannot-pay-sp",
                "URB-CONSTRUCT-2",
                f"{_tile(tile)} on {_card(card)} costs {sp} SP (the number difference); "
                f"P{player} has {engine.sp[player]}",
            )
        )
    return out
