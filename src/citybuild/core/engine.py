"""The engine protocol: a game's rules, written once, over a position that changes in place.

A game writes one ``Engine`` subclass (in the style of python-chess's ``Board`` and OpenSpiel's
clone/apply): who acts, legal-move generation in one canonical order, ``count_moves`` and
``nth_move`` (so that a uniform choice needs no list), a cheap ``is_legal``, ``apply``, the
pending chance event, and the end test. The frozen ``State`` is a snapshot of an engine; the
bookkeeping around it (whose turn, refusals, copies) lives in ``core.game``. Playouts and bots
run an engine directly, with no snapshot per step.

By default an engine's attributes are the fields of its snapshot class and hold only immutable
values (ints, strings, tuples), so that a copy is one dictionary copy and a snapshot shares them;
a move rebinds an attribute (``self.hands = ...``). An engine may instead keep arrays it changes
in place (python-chess's ``Board`` does), if it overrides ``copy`` and ``freeze`` and its state
builds it (``State._engine``): a frozen state never changes either way.
"""

from __future__ import annotations

import abc
import functools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, overload

import attrs

from citybuild.core import chance
from citybuild.core.errors import IllegalMoveError
from citybuild.core.moves import malformed
from citybuild.core.text import plural
from citybuild.core.verdict import Verdict, Violation

if TYPE_CHECKING:
    from citybuild.core.game import State

E = TypeVar("E", bound="Engine")


@functools.lru_cache(maxsize=256)
def _field_names(snapshot: type[State]) -> tuple[str, ...]:
    """The fields of a snapshot class (an attrs class), in declaration order."""
    return tuple(field.name for field in attrs.fields(cast(Any, snapshot)))


class OfGame:
    """What an engine and a state both read off their game: the rules in force and the player count."""

    __slots__ = ()
    game: Any

    @property
    def rules(self) -> Any:
        """The rule set in force (``game.rules``)."""
        return self.game.rules

    @property
    def players(self) -> int:
        """How many play (``game.players``)."""
        players: int = self.game.players
        return players


class Engine(OfGame, abc.ABC):
    """A mutable position and the rules that move it. Subclasses write the ``abstract`` methods.

    Methods that take a ``player`` expect one who is to act now (``State`` checks that first);
    ``apply`` expects a legal move (``State.play`` checks that first). Nothing here formats a
    refusal: explaining why a move is illegal is the game's ``explain`` module's job.
    """

    snapshot: ClassVar[type[State]]
    """The frozen class that holds this engine's positions (set when that class declares it)."""
    answers_from_fields: ClassVar[bool] = False
    """Whether ``to_act``, ``is_chance`` and ``is_over`` read nothing but the position's fields
    (and its game); if so, states answer them with the same code, without making an engine."""
    lists_cheaply: ClassVar[bool] = True
    """Whether ``legal_moves`` is cheap enough to list in full; if not, ``State.legal_moves``
    answers a lazy ``MoveList`` read through ``count_moves`` and ``nth_move``."""

    game: Any
    """The game (rules and player count); each engine types it as its own game class."""
    copies_plainly: ClassVar[bool] = True
    """Whether the class keeps ``Engine``'s ``copy`` and ``freeze`` (immutable attributes only);
    set for each subclass."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.copies_plainly = cls.copy is Engine.copy and cls.freeze is Engine.freeze

    # --- copies and snapshots ----------------------------------------------------------------
    def copy(self: E) -> E:
        """An independent engine at the same position (attributes are immutable values)."""
        new = object.__new__(type(self))
        new.__dict__ = dict(self.__dict__)
        return new

    def freeze(self) -> State:
        """This position as a frozen ``State`` that stays as it is while the engine moves on: its
        own dictionary of the snapshot's fields (the values are immutable, so they are shared), and
        nothing else an engine may keep beside them."""
        state = object.__new__(self.snapshot)
        fields = self.__dict__
        names = _field_names(self.snapshot)
        if len(fields) == len(names):  # an engine holds every field, so nothing else is there: one copy
            object.__setattr__(state, "__dict__", dict(fields))
        else:
            object.__setattr__(state, "__dict__", {name: fields[name] for name in names})
        return state

    def freeze_spent(self) -> State:
        """``freeze()`` for an engine that is never used again (``State.play``'s own, made by
        ``thaw``): the engine becomes the state, with no copy and no new object. Its dictionary
        holds exactly the snapshot's fields, and both classes have the same layout (a position's
        fields and no slots), so Python lets the object take the snapshot's class; it is then as
        frozen as any state. An engine that writes its own ``copy`` or ``freeze`` gets its ``freeze``."""
        if self.copies_plainly and len(self.__dict__) == len(_field_names(self.snapshot)):
            try:
                self.__class__ = self.snapshot  # type: ignore[assignment]
            except TypeError:  # the classes' layouts differ (slots): a frozen copy, then
                return self.freeze()
            return self  # type: ignore[return-value]  # it is one now
        return self.freeze()

    # --- who acts, chance, the end -------------------------------------------------------------
    @property
    @abc.abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Players who must decide now: () at a chance event and at the end."""

    @property
    @abc.abstractmethod
    def is_chance(self) -> bool: ...

    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Every outcome of the pending chance event with its exact probability; () elsewhere."""
        return ()

    def is_outcome(self, outcome: Any) -> bool:
        """Whether ``outcome`` can come out of the pending chance event (games may answer without
        listing); strict about types, as ``is_legal`` is."""
        return malformed(outcome, self.game.move_types) is None and any(outcome == o for o, _ in self.chance_outcomes())

    def sample_outcome(self, rng: random.Random) -> Any:
        """An outcome drawn with its exact probability, using only ``rng.random()``."""
        return chance.sample(self.chance_outcomes(), rng)

    # --- moves ---------------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_moves(self, player: int) -> Sequence[Any]:
        """Every legal move of ``player`` (who is to act), in the game's canonical order."""

    def count_moves(self, player: int) -> int:
        """How many legal moves ``player`` has (games with huge lists count without listing)."""
        return len(self.legal_moves(player))

    def nth_move(self, player: int, index: int) -> Any:
        """The ``index``-th legal move of ``player`` in canonical order."""
        return self.legal_moves(player)[index]

    def is_legal(self, move: Any, player: int) -> bool:
        """Whether ``player`` may play ``move`` now. It never raises, and it is strict about types:
        a move with a float or a bool where an int belongs is no move, even though it compares
        equal to one (games that override it must be as strict; the test kit checks)."""
        try:
            return move in self.legal_moves(player) and malformed(move, self.game.move_types) is None
        except Exception:  # an unhashable or incomparable value is not a move
            return False

    @abc.abstractmethod
    def apply(self, move: Any, player: int) -> None:
        """Play the legal ``move`` of ``player``."""

    @abc.abstractmethod
    def apply_outcome(self, outcome: Any) -> None:
        """Resolve the pending chance event with ``outcome``."""

    # --- random play ---------------------------------------------------------------------------
    def random_move(self, rng: random.Random, player: int) -> Any:
        """A legal move of ``player`` drawn uniformly, ``nth_move(int(rng.random() * count))``, or
        None (drawing nothing) when there is none. Games may draw faster, with the same
        distribution, as long as a seed keeps giving the same games."""
        count = self.count_moves(player)
        return self.nth_move(player, int(rng.random() * count)) if count else None

    def pick_player(self, rng: random.Random) -> int:
        """The player whose move a random step plays: the one to act, or one of several drawn
        uniformly (only then is ``rng`` used)."""
        to_act = self.to_act
        return to_act[int(rng.random() * len(to_act))] if len(to_act) > 1 else to_act[0]

    def random_step(self, rng: random.Random) -> Any:
        """One step of random play in place (an outcome at a chance event); the move played."""
        if self.is_chance:
            outcome = self.sample_outcome(rng)
            self.apply_outcome(outcome)
            return outcome
        player = self.pick_player(rng)
        move = self.random_move(rng, player)
        if move is None:
            reason = f"P{player} is to act and has no legal move"
            raise IllegalMoveError(Verdict((Violation("no-move", self.snapshot.turn_rule, reason),)), None)
        self.apply(move, player)
        return move

    def playout(self, rng: random.Random) -> int:
        """Random play in place to the end; the number of steps taken."""
        steps = 0
        while not self.is_over:
            self.random_step(rng)
            steps += 1
        return steps


class MoveList(Sequence[Any]):
    """A player's legal moves as a lazy, tuple-like sequence: its length is counted and each item
    built on demand by the engine, so a position with thousands of moves costs nothing until
    they are read. It compares equal to a tuple of the same moves.

    Made by a state, it asks the state for an engine at each read (``reread``) instead of
    holding one, since a game may move the engine behind a state on when that state is played."""

    __slots__ = ("_count", "_player", "_reread")

    def __init__(self, engine: Engine, player: int, reread: Callable[[], Engine] | None = None) -> None:
        self._reread = reread if reread is not None else lambda: engine
        self._player = player
        self._count = engine.count_moves(player)

    @property
    def _engine(self) -> Engine:
        """An engine at the position, for the read at hand."""
        return self._reread()

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._count)))
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"move indices are integers, not {type(index).__name__}")
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(
                f"move index out of range (there {'is' if self._count == 1 else 'are'} "
                f"{plural(self._count, 'legal move')})"
            )
        return self._engine.nth_move(self._player, index)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._engine.legal_moves(self._player))

    def __contains__(self, move: object) -> bool:
        try:
            return self._engine.is_legal(move, self._player)
        except Exception:  # a malformed move is not among the legal ones
            return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MoveList | tuple | list):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        shown = ", ".join(repr(m) for m in self[:5])
        return f"MoveList({plural(self._count, 'move')}: {shown}{', ...' if self._count > 5 else ''})"
