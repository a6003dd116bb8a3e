"""How to play each game, in a few newcomer lines, as the browser client shows it.

The one place the client's "How to play" panel reads from (``GET /api/games`` carries it as each
game's ``how_to_play``): the goal, a turn, and what to click. The whole rules for people are the
documentation's how-to-play pages.
"""

from __future__ import annotations

HOW_TO_PLAY: dict[str, dict[str, list[str]]] = {
    "skyline": {
        "goal": [
            "Roll dice to build skyscrapers in your own skyline. A finished building scores its height squared "
            "(2 floors: 4 points, 6 floors: 36). The most points after the last round wins.",
            "Purple buildings are finished at 2 floors, blue ones at 2 to 4, orange ones at 3 to 6. A ground floor "
            "starts a new building, an upper floor goes on your unfinished building of its colour, and a "
            "penthouse of that colour finishes it.",
        ],
        "turn": [
            "Take dice: three from the yard, or every die in the district.",
            "They are rolled for you. Use at least one die: build with it, abandon it to the district, "
            "or demolish one of your buildings with it.",
            "Then reroll some of the dice you still hold and use one again, or end your turn.",
        ],
        "click": [
            "The things you may use are outlined in green on the board: the yard, the district, your dice. "
            "Click one; if it can be used in several ways, pick one in the list that opens.",
            "Choices the board cannot show (reroll, end my turn) are buttons beside the board.",
        ],
    },
    "manhattan": {
        "goal": [
            "Build towers in six cities. After every round you score for the tallest tower on the board (3), "
            "the most towers in each city (2) and every tower you own (1). The most points at the end wins.",
            "You own a tower when the top piece is yours. You may build on another player's tower if you then "
            "have at least as many floors in it as its owner.",
        ],
        "turn": [
            "At the start of a round, choose the pieces you will build this round.",
            "Then, one piece a turn: play a card and put a chosen piece on the lot the card names, in any city. "
            "A card marks one square of a 3×3 grid, read from your side of the board.",
        ],
        "click": [
            "The lots where you may build are outlined in green. Click one and pick the piece in the list that opens.",
            "Choosing your pieces for the round, and the rare swap of a card, are buttons beside the board.",
        ],
    },
    "urbanization": {
        "goal": [
            "Grow one city together, tile by tile. Earn success points (SP) during the game and, at the end, "
            "for the districts (same-coloured buildings side by side) where you have the most resources.",
            "Red gives resources, blue gives tiles, yellow gives SP.",
        ],
        "turn": [
            "Everyone chooses in secret one card of their hand, alone or with one of their tiles.",
            "A card alone (Exploit) gives items. A letter card with a tile (Urbanize) builds a new building on "
            "that token's square. A building card with a tile (Construct) builds one floor higher on it.",
            "Then the choices are played in turn, the cards are passed on, and everyone draws back to 4.",
        ],
        "click": [
            "The buildings and tokens your cards name are outlined in green. Click one and pick what to do "
            "with it: the card alone, or with one of your tiles.",
            "When a token moves, its possible squares are outlined: click one. Drafting characters and a new "
            "hand are buttons beside the board.",
        ],
    },
}
"""Per game: its goal, a turn, and how to play by clicking, each a few short paragraphs."""


FIRST_GAME: dict[str, dict[str, object]] = {
    "skyline": {"rounds": 2},
    "manhattan": {"rounds": {"2": 2, "3": 1, "4": 1}},
    "urbanization": {"max_rounds": 1},
}
"""Rule options (as JSON) for a short first game: one or two rounds (two for two players of
Manhattan, to see a round scored before the end)."""


def how_to_play(game: str) -> dict[str, list[str]] | None:
    """The game's short how-to-play text (None for a game without one, such as a plugin's)."""
    return HOW_TO_PLAY.get(game)
