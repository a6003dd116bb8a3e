"""The Urbanization game object: rules + player count, the factory of states and parser of text."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from citybuild.core.game import Game
from citybuild.games.urbanization import notation, words
from citybuild.games.urbanization.components import draws_allowed
from citybuild.games.urbanization.data import CardTable, CharacterTable, load_cards, load_characters
from citybuild.games.urbanization.moves import MOVES, OUTCOMES
from citybuild.games.urbanization.rules import (
    LETTERS,
    NEW_HAND_TOKENS,
    RESOURCES,
    START_TILES,
    TILES,
    TOKEN_CELLS,
    Rules,
)
from citybuild.games.urbanization.state import UrbanizationState


@attrs.frozen
class UrbanizationGame(Game):
    """Urbanization (Ginkgopolis) for ``players`` players under ``rules`` (see rules/urbanization.md)."""

    name: ClassVar[str] = "urbanization"
    moves: ClassVar[tuple[type, ...]] = MOVES
    outcomes: ClassVar[tuple[type, ...]] = OUTCOMES
    rules: Rules
    cards: CardTable = attrs.field(init=False, eq=False, repr=False)
    """The Building cards' bonuses (URB-CARD-1), read from the rules' data file once."""
    characters: CharacterTable = attrs.field(init=False, eq=False, repr=False)
    """The characters' copies and starting items (URB-CHAR-1/2)."""

    def __attrs_post_init__(self) -> None:
        self.rules.check_players(self.players)
        held = self.rules.held_options()  # a data file named by its path is held as its text
        if held != self.rules.options():
            object.__setattr__(self, "rules", self.rules.replace(**held))
        rules = self.rules
        object.__setattr__(self, "cards", load_cards(rules.cards_data_path, rules.cards_data))
        object.__setattr__(self, "characters", load_characters(rules.characters_data_path, rules.characters_data))

    @property
    def resources(self) -> int:
        """URB-COMP-4: resources per player."""
        return RESOURCES[self.players]

    def initial_state(self) -> UrbanizationState:
        """URB-SETUP: before the starting layout is drawn (a chance state)."""
        n = self.players
        none: tuple[tuple[int, ...], ...] = ((),) * n
        zeros = (0,) * n
        stack = tuple(t for t in range(TILES) if t not in START_TILES)
        deck = (*START_TILES, *range(TILES, TILES + len(LETTERS)))
        return UrbanizationState(
            game=self,
            round=0,
            phase="layout",
            turn=0,
            actor=0,
            pending="",
            owed=0,
            first=0,
            cells=(),
            stacks=(),
            sites=(),
            tokens=TOKEN_CELLS,
            reserve=(self.resources,) * n,
            supply=zeros,
            boxed=zeros,
            sp=zeros,
            tiles=none,
            newhand=(NEW_HAND_TOKENS,) * n,
            used=zeros,
            hands=none,
            selections=(None,) * n,
            tableau=none,
            chars=none,
            draft=none,
            pool=self.characters.copies,
            passed=none,
            passed_characters=none,
            draw=deck,
            discard=(),
            stack=stack,
            draws_left=draws_allowed(stack, self.rules.removed_tiles(n)),
            second=(),
            given=zeros,
            exhaustion=0,
            contribute_due=False,
            ending=False,
        )

    def parse_move(self, text: str) -> Any:
        return words.parse_move(text)

    def parse_state(self, text: str) -> UrbanizationState:
        return notation.parse_state(self, text)
