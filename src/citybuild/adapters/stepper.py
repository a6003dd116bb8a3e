"""A game driven one action id at a time: what every framework adapter shares.

A ``Stepper`` holds a mutable engine and the decisions the player to act has made so far in
the move being built (``chosen``). Each action id is one decision (``core.actions``); when the
decisions make a whole move, the move is played. Chance events are drawn the same way, one chance
step at a time. When several players act at once (simultaneous secret choices), they decide one
after the other, lowest seat first, and nobody sees another's choice before the game reveals it:
each player's observation is built from that player's view alone.

Observations: ``encode(player)`` is the game's encoding of the player's view (``core.encoding``),
then 1 if this player is building a move, then the decisions made so far, one-hot, one row of
``numbering.size`` per step up to ``numbering.max_steps`` (zeros for a player who is not
deciding: another player's half-made move is never shown). ``text(player)`` is the view's
notation and, for the deciding player, the decisions so far. ``history_text(player)`` adds a
digest of everything that player saw at each of its earlier decisions and what it chose: two
positions give one player equal history texts only if that player cannot tell them apart (the
information state of game-theory frameworks).

Nothing here imports a framework: the OpenSpiel and PettingZoo adapters wrap a stepper.
"""

from __future__ import annotations

import hashlib
import operator
import random
from fractions import Fraction
from typing import Any

from citybuild.core.actions import Decisions, Steps, decisions
from citybuild.core.encoding import Encoder, encoder
from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError
from citybuild.core.game import Game, State
from citybuild.core.position import public_notation

CHANCE = -1
"""``Stepper.current`` at a chance event."""
OVER = -4
"""``Stepper.current`` once the game is over."""


def require_rng(rng: Any) -> random.Random:
    """``rng`` if it is a ``random.Random`` (chance is drawn with its ``random()``); else ``RulesError``."""
    if not isinstance(rng, random.Random):
        raise RulesError(f"chance is drawn with a random.Random, not {rng!r}")
    return rng


class _Decided:
    """One completed move of a player, with the position it was decided at: a link in that
    player's chain of decisions (shared by copies; its digest is worked out once, when asked)."""

    __slots__ = ("_digest", "before", "move", "player", "position")

    def __init__(self, before: _Decided | None, position: State, player: int, move: Any) -> None:
        self.before, self.position, self.player, self.move = before, position, player, move
        self._digest: str | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a flat list, oldest first (a long game's chain would nest too deep)."""
        links: list[tuple[State, int, Any, str | None]] = []
        link: _Decided | None = self
        while link is not None:
            links.append((link.position, link.player, link.move, link._digest))
            link = link.before
        return (_chain, (links[::-1],))

    def digest(self) -> str:
        chain: list[_Decided] = []
        link: _Decided | None = self
        while link is not None and link._digest is None:
            chain.append(link)
            link = link.before
        digest = link._digest if link is not None else ""
        for item in reversed(chain):
            seen = item.position.view(item.player).notation()
            text = f"{digest}\n{seen}\n{item.move}"
            item._digest = digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
        assert digest is not None
        return digest


def _chain(links: list[tuple[State, int, Any, str | None]]) -> _Decided | None:
    last: _Decided | None = None
    for position, player, move, digest in links:
        last = _Decided(last, position, player, move)
        last._digest = digest
    return last


class Stepper:
    """One game in progress, moved by action ids (see the module docstring)."""

    __slots__ = ("_options", "chosen", "encoder", "engine", "game", "history", "numbering")

    def __init__(
        self, game: Game, state: State | None = None, numbering: Decisions | None = None, coder: Encoder | None = None
    ) -> None:
        if not isinstance(game, Game):
            raise RulesError(f"a stepper drives a loaded game (citybuild.load(...)), not {game!r}")
        if state is not None and not (isinstance(state, State) and state.game == game):
            raise RulesError(
                f"a stepper of {game.name} for {game.players} starts from a state of that game, not {state!r}"
            )
        for made, what in ((numbering, "numbering"), (coder, "encoder")):
            if made is not None and getattr(made, "game", None) != game:
                raise RulesError(f"the {what} {made!r} is not that of {game.name} for {game.players}")
        self.game = game
        self.numbering: Decisions = numbering or decisions(game)
        self.encoder: Encoder = coder or encoder(game)
        self.engine: Engine = (state if state is not None else game.initial_state()).thaw()
        self.chosen: Steps = ()
        self.history: list[_Decided | None] = [None] * game.players
        """Per player, its last completed move, linked to the ones before (see ``history_text``)."""
        self._options: Steps | tuple[tuple[int, Fraction], ...] | None = None

    def copy(self) -> Stepper:
        new = object.__new__(Stepper)
        new.game, new.numbering, new.encoder = self.game, self.numbering, self.encoder
        new.engine = self.engine.copy()
        new.chosen, new.history, new._options = self.chosen, list(self.history), self._options
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Stepper:
        """A copy is deep enough: the engine holds immutable values (frameworks deep-copy states)."""
        return self.copy()

    # --- who acts --------------------------------------------------------------------------
    @property
    def current(self) -> int:
        """The player deciding now, ``CHANCE`` or ``OVER``."""
        engine = self.engine
        if engine.is_over:
            return OVER
        if engine.is_chance:
            return CHANCE
        return engine.to_act[0]

    @property
    def is_over(self) -> bool:
        return bool(self.engine.is_over)

    def state(self) -> State:
        """The position now, frozen (decisions of a move in progress are not part of it)."""
        return self.engine.copy().freeze()

    # --- options ---------------------------------------------------------------------------
    def legal(self) -> Steps:
        """The action ids the deciding player may choose now, ascending (none at chance or the end)."""
        if self._options is None:
            current = self.current
            if current == CHANCE:
                self._options = self.numbering.chance_options(self.engine, self.chosen)
            elif current == OVER:
                self._options = ()
            else:
                self._options = self.numbering.options(self.engine, current, self.chosen)
        if self.current < 0:
            return ()
        return self._options  # type: ignore[return-value]

    def chance(self) -> tuple[tuple[int, Fraction], ...]:
        """The chance step ids possible now with their probabilities (none outside chance)."""
        if self.current != CHANCE:
            return ()
        if self._options is None:
            self._options = self.numbering.chance_options(self.engine, self.chosen)
        return self._options  # type: ignore[return-value]

    def mask(self) -> list[int]:
        """1 for each legal action id, 0 for the others."""
        out = [0] * self.numbering.size
        for a in self.legal():
            out[a] = 1
        return out

    # --- moving ----------------------------------------------------------------------------
    def require_player(self, player: Any) -> int:
        """``player`` if it is a seat of this game; otherwise ``RulesError`` naming it."""
        if type(player) is not int or not 0 <= player < self.game.players:
            raise RulesError(f"there is no player {player!r} in a {self.game.players}-player game")
        return player

    @staticmethod
    def action_id(action: Any) -> int:
        """``action`` as an int id: ints and NumPy's integers; ``RulesError`` for bools, floats,
        None and anything else (``True`` is no action, nor ``3.0``)."""
        if isinstance(action, bool) or not hasattr(type(action), "__index__") or type(action).__name__ == "bool_":
            raise RulesError(f"an action is an int id, not {action!r}")
        return operator.index(action)

    def apply(self, action: int) -> Any:
        """Take one decision (or chance step); the move or outcome it completes, else None.
        ``RulesError`` if ``action`` is not an int among the options (nothing changes then)."""
        action = self.action_id(action)
        current = self.current
        if current == CHANCE:
            if action not in dict(self.chance()):
                raise RulesError(f"chance step {action!r} is not possible now (possible: {self.chance()})")
            chosen = (*self.chosen, action)
            if self.numbering.chance_options(self.engine, chosen):
                self.chosen, self._options = chosen, None
                return None
            outcome = self.numbering.outcome(self.engine, chosen)
            self.engine.apply_outcome(outcome)
            self.chosen, self._options = (), None
            return outcome
        if current == OVER:
            raise RulesError("the game is over; no action can be taken")
        if action not in self.legal():
            raise RulesError(f"action {action!r} is not legal now (legal: {list(self.legal())})")
        chosen = (*self.chosen, action)
        if self.numbering.options(self.engine, current, chosen):
            self.chosen, self._options = chosen, None
            return None
        move = self.numbering.move(self.engine, current, chosen)
        before = self.state()
        self.engine.apply(move, current)  # a legal move: it is played, or raises and changes nothing
        self.history[current] = _Decided(self.history[current], before, current, move)
        self.chosen, self._options = (), None
        return move

    def sample_chance(self, rng: random.Random) -> int:
        """A chance step drawn with its probability (``rng.random()`` only); ``RulesError``
        outside a chance event or for an ``rng`` that is no ``random.Random``."""
        options = self.chance()
        if not options:
            raise RulesError("there is no chance event to draw now")
        require_rng(rng)
        roll, total = rng.random(), Fraction(0)
        for step, p in options:
            total += p
            if roll < total:
                return step
        return options[-1][0]

    def play_chance(self, rng: random.Random) -> None:
        """Resolve chance steps until a player is to decide or the game is over."""
        require_rng(rng)
        while self.current == CHANCE:
            self.apply(self.sample_chance(rng))

    # --- what a player sees ----------------------------------------------------------------
    def view(self, player: int) -> Any:
        return self.state().view(self.require_player(player))

    def public_text(self) -> str:
        """What every player sees, as text: the position's public fields, the sizes of what is
        kept from someone, who is to act (``core.position.public_notation``); no half-made move."""
        return public_notation(self.view(0))

    @property
    def observation_size(self) -> int:
        return self.encoder.size + 1 + self.numbering.max_steps * self.numbering.size

    def encode(self, player: int, view: Any = None) -> list[float]:
        """``player``'s observation as ``observation_size`` numbers (see the module docstring)."""
        deciding = player == self.current
        return self.encode_deciding(player, deciding, self.chosen if deciding else (), view)

    def encode_deciding(self, player: int, deciding: bool, chosen: Steps, view: Any = None) -> list[float]:
        """``encode`` with the player's own move in progress given: whether it is deciding now and
        its decisions so far (for environments in which several players build moves at once)."""
        self.require_player(player)
        if view is None:
            view = self.view(player)
        elif getattr(view, "player", None) != player or getattr(view, "game", None) != self.game:
            raise RulesError(f"the view to encode must be P{player}'s in this game, not {view!r}")
        size = self.numbering.size
        if type(chosen) is not tuple or not all(type(a) is int and 0 <= a < size for a in chosen):
            raise RulesError(f"the decisions made so far are a tuple of action ids, not {chosen!r}")
        out = list(self.encoder.encode(view))
        tail = [0.0] * (1 + self.numbering.max_steps * self.numbering.size)
        tail[0] = 1.0 if deciding else 0.0
        for depth, action in enumerate(chosen[: self.numbering.max_steps]):
            tail[1 + depth * size + action] = 1.0
        return out + tail

    def text(self, player: int) -> str:
        """``player``'s observation as text: the view's notation, and its decisions so far."""
        seen: str = self.view(player).notation()
        if player == self.current:
            names = self.numbering.names
            made = ", ".join(names[a] for a in self.chosen) or "-"
            seen += f"\ndeciding: {made}"
        return seen

    def history_text(self, player: int) -> str:
        """``player``'s information state: the observation and the digest of its earlier decisions."""
        last = self.history[self.require_player(player)]
        return f"{self.text(player)}\nhistory: {last.digest() if last is not None else '-'}"

    def __str__(self) -> str:
        """The whole position (hidden parts too) and the move or chance event in progress."""
        state = self.state()
        current = self.current
        names = self.numbering.chance_names if current == CHANCE else self.numbering.names
        made = ", ".join(names[a] for a in self.chosen)
        return f"{state.notation()}\n{'chance' if current == CHANCE else f'P{current}'}: {made or '-'}"

    # --- the end -----------------------------------------------------------------------------
    def points(self) -> tuple[float, ...]:
        return tuple(float(t) for t in self.state().scores().totals)

    def win_shares(self) -> tuple[float, ...]:
        """At the end, 1 shared equally by the winners (after tie-breaks); zeros before."""
        if not self.is_over:
            return (0.0,) * self.game.players
        winners = self.state().winners()
        return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(self.game.players))
