"""One human at the terminal: the prompt loop of a decision, and the chance lines they may see."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from citybuild.core.errors import IllegalMoveError, NotationError
from citybuild.core.game import State
from citybuild.core.text import plural
from citybuild.match import Entry, Match
from citybuild.sighting import undo_refusal

PAGE = 20
"""Moves listed at a time by ``moves``; ``more`` shows the next page."""
SEARCH_LIMIT = 200_000
"""How many legal moves are compared with what was typed when its case differs from the notation."""
QUIT = ("quit", "exit", "q")
HINT_ITERATIONS = 1000
"""Iterations of the ismcts search behind ``hint`` (about a second at most)."""
COMMANDS = ("help", "?", "h", "board", "more", "undo", "hint")
"""Commands typed alone (any case); ``moves`` (or ``m``) may be followed by words to look for."""


def command_of(text: str) -> str | None:
    """The command a line names (``quit``, ``moves``, or one of ``COMMANDS``), or None for a move."""
    words = text.split()
    if not words:
        return None
    first = words[0].lower()
    if first in ("moves", "m"):
        return "moves"
    if len(words) == 1 and first in QUIT:
        return "quit"
    if len(words) == 1 and first in COMMANDS:
        return {"?": "help", "h": "help"}.get(first, first)
    return None


HELP = """commands (any case):
  <a move>        e.g. '{example}'
  moves [text]    the legal moves (only those containing every word of text), {page} at a time
  more            the next {page} moves of the last list
  board           draw the board again
  undo            take back your last move and what followed it
  hint            {hint}
  help, ?         this list
  quit            stop the game"""


def bot_hint() -> Callable[[Any, random.Random], Any] | None:
    """The ``hint`` of the terminal: an ismcts bot's choice from the human's view (it never sees
    the state), when this citybuild has bots (``citybuild.bots``); None otherwise."""
    try:
        bots = importlib.import_module("citybuild.bots")
    except ImportError:
        return None
    bot = bots.load("ismcts", iterations=HINT_ITERATIONS)
    return lambda view, rng: bot.advise(view, rng)


def colour_wanted(out: TextIO) -> bool:
    """Colour only on a real terminal, never when piped, with ``NO_COLOR`` set or a dumb terminal."""
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def move_kinds(moves: Sequence[Any], look: int = SEARCH_LIMIT) -> list[tuple[str, str]]:
    """One legal move of each kind (among the first ``look``), as its notation and what the kind
    means: the first sentence of its class's docstring, which names its rule."""
    seen: dict[type, str] = {}
    for count, move in enumerate(moves):
        if count >= look:
            break
        seen.setdefault(type(move), str(move))
    out = []
    for kind, text in seen.items():
        doc = " ".join((kind.__doc__ or kind.__name__).replace("``", "").split())
        out.append((text, doc.split(". ")[0].rstrip(".")))
    return out


class HumanSeat:
    """The terminal side of one or more human seats of a match: reads their moves and commands."""

    def __init__(
        self,
        match: Match,
        out: TextIO,
        *,
        colour: bool | None = None,
        hint: Callable[[Any, random.Random], Any] | None = None,
        read: Callable[[str], str] | None = None,
    ) -> None:
        self.match = match
        self.out = out
        self.colour = colour_wanted(out) if colour is None else colour
        self.hint = hint if hint is not None else bot_hint()
        self.read = read or (lambda prompt: input(prompt))  # looked up at each call: tests replace input
        self.spec = match.game.spec
        self._listing: list[str] = []
        self._listed = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def board(self, player: int) -> str:
        view = self.match.state.view(player)
        if self.spec.board_text is not None:
            return self.spec.board_text(view, self.match.game, self.colour)
        return str(view)

    def turn(self, player: int) -> bool:
        """Ask ``player`` for one decision; return False when they quit. The match has changed
        when this returns True (a move, or an undo: the caller looks at the match again)."""
        state = self.match.state
        self.say()
        self.say(self.board(player))
        self.say(f"your move, P{player} ('help' lists the commands)")
        while True:
            try:
                text = self.read(f"P{player}> ").strip()
            except EOFError:
                return False
            except UnicodeDecodeError:  # the lines around the bad bytes are lost too: stop rather than guess
                raise NotationError("standard input is not UTF-8 text") from None
            command = command_of(text)
            if not text:
                continue
            if command == "quit":
                return False
            if command == "help":
                self._help(state, player)
            elif command == "board":
                self.say(self.board(player))
            elif command == "moves":
                self._moves(state, player, text.split()[1:])
            elif command == "more":
                self._more()
            elif command == "undo":
                if self._undo(player):
                    return True
            elif command == "hint":
                self._hint(state, player)
            elif self._play(state, player, text):
                return True

    # --- commands ---------------------------------------------------------------------------------
    def _help(self, state: State, player: int) -> None:
        moves = state.legal_moves(player)
        example = str(moves[0]) if len(moves) else "..."
        hint = "a bot's suggestion for this decision, and why" if self.hint else "(no bot to ask in this version)"
        self.say(HELP.format(example=example, page=PAGE, hint=hint))
        kinds = move_kinds(moves)
        if kinds:
            self.say("the moves you can make now, one example of each kind:")
            for text, meaning in kinds:
                self.say(f"  {text:<28} {meaning}")

    def _moves(self, state: State, player: int, words: list[str]) -> None:
        wanted = [w.lower() for w in words]
        moves = state.legal_moves(player)
        listing: list[str] = []
        cut = False
        for move in moves:
            text = str(move)
            if all(w in text.lower() for w in wanted):
                if len(listing) == SEARCH_LIMIT:
                    cut = True  # listing stops here: a page is what a person reads
                    break
                listing.append(text)
        which = f" containing {' '.join(words)!r}" if words else ""
        if not listing:
            self.say(f"none of the {plural(len(moves), 'legal move')} contains {' '.join(words)!r}")
            return
        if cut:
            self.say(f"more than {SEARCH_LIMIT} legal moves{which} (of {len(moves)}); the first {SEARCH_LIMIT}:")
        else:
            self.say(f"{plural(len(listing), 'legal move')}{which}:")
        self._listing, self._listed = listing, 0
        self._more()

    def _more(self) -> None:
        if self._listed >= len(self._listing):
            self.say("no more moves to list ('moves [text]' starts a new list)")
            return
        page = self._listing[self._listed : self._listed + PAGE]
        for text in page:
            self.say(f"  {text}")
        self._listed += len(page)
        left = len(self._listing) - self._listed
        if left:
            self.say(f"  ... {left} more: type 'more'")

    def _undo(self, player: int) -> bool:
        refusal = undo_refusal(self.match, player)
        if refusal is not None:
            self.say(refusal)
            return False
        match = self.match
        taken: list[Entry] = []
        while match.can_undo:
            undone = match.undo()
            taken = list(undone) + taken
            if undone and undone[0].player == player:
                break
        others = sum(1 for e in taken if e.player is not None) - 1
        after = f" and {others} move{'s' if others != 1 else ''} of others after it" if others else ""
        self.say(f"undone: your move {taken[0].move}{after}")
        return True

    def _hint(self, state: State, player: int) -> None:
        if self.hint is None:
            self.say("hint: there is no bot to ask in this version of citybuild")
            return
        advice = self.hint(state.view(player), random.Random(len(self.match.history)))
        move, why = advice if isinstance(advice, tuple) else (advice, "")
        self.say(f"hint: {move}   (a bot's choice from your view only{': ' + why if why else ''})")

    def _play(self, state: State, player: int, text: str) -> bool:
        try:
            move = self._read_move(state, player, text)
        except NotationError as exc:
            self.say(f"cannot read that move: {exc} (type 'help' for the commands)")
            return False
        try:
            self.match.play(move, player)
        except IllegalMoveError as exc:
            self.say(f"refused: {exc.verdict}")
            return False
        return True

    def _read_move(self, state: State, player: int, text: str) -> Any:
        """The move ``text`` names, in the game's notation or in any case of it: first as typed,
        then as a legal move's text in another case, then with its words in upper or lower case
        (so that a refusal can still say why an illegal move typed in any case is illegal)."""
        parse = self.match.game.parse_move
        try:
            return parse(text)
        except NotationError as first:
            wanted = " ".join(text.lower().split())
            for count, move in enumerate(state.legal_moves(player)):
                if str(move).lower() == wanted:
                    return move
                if count > SEARCH_LIMIT:
                    break
            kind, *rest = wanted.split(" ")
            for variant in (" ".join([kind, *(w.upper() for w in rest)]), wanted):
                try:
                    return parse(variant)
                except NotationError:
                    continue
            raise first from None
