"""The game protocol: a loaded game (rules + player count) and the state every game follows."""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs

from citybuild.core.engine import Engine, MoveList, OfGame
from citybuild.core.errors import IllegalMoveError, RulesError
from citybuild.core.moves import malformed
from citybuild.core.notation import move_words as move_words  # re-exported: the parse helpers' old home
from citybuild.core.notation import parse_fields as parse_fields
from citybuild.core.notation import parse_int as parse_int
from citybuild.core.notation import split_fields as split_fields
from citybuild.core.plain import parse_position, parse_worded, position_text
from citybuild.core.position import PositionView, derives_views, view_of
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.svg import picture
from citybuild.core.verdict import Verdict, Violation

if TYPE_CHECKING:
    from citybuild.core.registry import GameSpec


@attrs.frozen
class Game(abc.ABC):
    """A game under one rule set for a fixed number of players: the factory of its states."""

    name: ClassVar[str]
    """The registered name of the game (``"manhattan"``), what ``citybuild.load`` takes."""
    moves: ClassVar[tuple[type, ...]] = ()
    """Every class of player move: ``play`` and ``check`` refuse anything else."""
    outcomes: ClassVar[tuple[type, ...]] = ()
    """Every class of chance outcome; empty for a game without chance."""
    move_types: ClassVar[tuple[type, ...]] = ()
    """``moves`` and ``outcomes`` together (set for each subclass from those two)."""

    preset: str
    """The preset the rules start from."""
    rules: Any
    """The rule set in force: the preset with the overrides given to ``load``."""
    players: int
    """How many play, numbered from 0 in turn order of the first round."""
    _spec: GameSpec | None = attrs.field(default=None, kw_only=True, eq=False, repr=False, alias="spec")
    """The spec that made this game: its hooks are read there, never looked up by name, so a game
    keeps working after its spec is unregistered."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.moves or cls.outcomes:
            cls.move_types = (*cls.moves, *cls.outcomes)

    @property
    def spec(self) -> GameSpec:
        """The ``GameSpec`` this game was loaded from (``citybuild.load`` or ``GameSpec.load``)."""
        if self._spec is None:
            raise RulesError(
                f"this {type(self).__name__} was built without its GameSpec, so its hooks are unknown; "
                "build games with citybuild.load or GameSpec.load"
            )
        return self._spec

    @abc.abstractmethod
    def initial_state(self) -> State:
        """The position before anyone acts (a chance state when the game opens with a deal)."""

    def parse_move(self, text: str) -> Any:
        """A move or chance outcome from its notation; raises ``NotationError``. By default the
        plain notation of ``Worded`` move classes (``core.plain``)."""
        return parse_worded(text, self.move_types)

    def parse_state(self, text: str) -> State:
        """A position from its notation; raises ``NotationError`` or ``InvalidStateError``. By
        default the plain notation of the declared fields (``core.plain``)."""
        return parse_position(self, self.spec.state, text)

    def determinize(self, view: Any, rng: random.Random) -> State:
        """A full position consistent with ``view``: what its player cannot see (other hands, the
        make-up of a pile, hidden choices) drawn uniformly among the possibilities consistent with
        the view, using only ``rng``. Its ``view(view.player)`` equals ``view``. A game without
        hidden information gives the position itself."""
        from citybuild.core.determinize import determinize

        if isinstance(view, State):
            raise RulesError("determinize draws a position from a view (state.view(player)), not from a state")
        return determinize(self, view, rng)


class State(OfGame, abc.ABC):
    """A frozen position: a snapshot of the game's ``Engine``, where the rules are written.

    A game's state class is a frozen attrs class (``slots=False``) whose fields are its engine's
    attributes (both inherit them from one position class), and it names that engine in
    ``engine``. Reading a state runs the engine over the state's own fields; ``play`` copies them
    into a new engine, applies the move and freezes the result, so an old state never changes.
    Subclasses add what is not a rule of play: refusals with reasons (``_violations``), scores,
    views and notation.
    """

    __slots__ = ()

    engine: ClassVar[type[Engine]]
    """The game's engine class; declaring it makes this class the engine's snapshot."""
    turn_rule: ClassVar[str] = ""
    """Rule ID cited when someone acts out of turn."""
    chance_rule: ClassVar[str] = ""
    """Rule ID cited when a chance outcome is refused (the game's randomness rule; ``turn_rule``
    when a game names none)."""
    end_rule: ClassVar[str] = ""
    """Rule ID cited when someone acts after the end."""

    game: Game
    """The game (rules and player count) this position belongs to."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        engine = cls.__dict__.get("engine")
        if engine is not None:
            engine.snapshot = cls
            if engine.answers_from_fields:  # the engine's own code, run on the state's fields
                for question in ("to_act", "is_chance", "is_over"):
                    if question not in cls.__dict__:
                        setattr(cls, question, getattr(engine, question))
        engine = getattr(cls, "engine", None)
        below = cls.__mro__[: cls.__mro__.index(State)]  # the classes that may override State's methods
        cls._thaws_plainly = (
            engine is not None
            and engine.copies_plainly
            and not any("_engine" in k.__dict__ or "thaw" in k.__dict__ for k in below)
        )

    _thaws_plainly: ClassVar[bool] = False
    """Whether ``thaw`` is this class's ``_engine().copy()`` with ``Engine``'s own copy: one
    dictionary copy, which ``play`` makes itself."""

    def thaw(self) -> Engine:
        """A mutable engine at this position, for search and simulation: change it in place with
        ``apply``/``apply_outcome``/``random_step``/``playout``, copy it with ``copy()``, and get a
        state back with ``freeze()``. This state never changes."""
        if self._thaws_plainly:  # what _engine().copy() gives, made at once (play thaws every move)
            engine = object.__new__(self.engine)
            engine.__dict__ = dict(self.__dict__)  # a combined dict: a copy() of a shared-key one is slower to read
            return engine
        return self._engine().copy()

    def _engine(self) -> Engine:
        """An engine reading this state's fields in place, for questions only: engines answer
        questions without writing anything into their dictionary (the test kit checks)."""
        engine = object.__new__(self.engine)
        engine.__dict__ = self.__dict__
        return engine

    def _engine_to_play(self) -> Engine:
        """The engine ``play`` checks the move with and then applies it to: ``thaw``'s, unless a
        game hands over an engine it keeps for this state (no other user of it may hold it past
        a question: a ``MoveList`` asks ``_engine`` again at each read)."""
        return self.thaw()

    # --- what the engine answers -------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """Players who must decide now: () at chance states and once the game is over."""
        return self._engine().to_act

    @property
    def is_chance(self) -> bool:
        """Whether a chance event (a deal, a draw, a roll) is pending: no one acts, ``play`` takes an outcome."""
        return self._engine().is_chance

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: no move can be played, and ``winners()`` are decided."""
        return self._engine().is_over

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Every outcome of the pending chance event with its exact probability; () elsewhere."""
        return self._engine().chance_outcomes()

    # --- what subclasses provide -------------------------------------------------------------
    def _not_an_outcome(self, move: Any) -> Violation:
        """The refusal of a chance outcome that cannot happen. It names a few outcomes; games
        whose events have very many (big dice rolls) override it to describe them instead."""
        outcomes = self.chance_outcomes()
        listed = ", ".join(str(o) for o, _ in outcomes[:10]) + (
            f" and {len(outcomes) - 10} more" if len(outcomes) > 10 else ""
        )
        return Violation(
            "not-an-outcome",
            self.chance_rule or self.turn_rule,
            f"{move} is not an outcome of the pending chance event ({listed})",
        )

    def _malformed_rule(self, move: Any, field: str) -> str:
        """The rule ID cited when ``move``'s ``field`` has a value of the wrong type ("" for a value
        that is no move of the game); games may cite the rule that defines the field."""
        return (self.chance_rule or self.turn_rule) if self.is_chance else self.turn_rule

    def _violations(self, move: Any, player: int) -> list[Violation]:
        """Every reason why ``player`` (who is to act) may not play the well-formed ``move``; []
        if it is legal. It must agree with the engine's generation; this default asks the engine
        and cites ``turn_rule``, and games override it to name the rule a move breaks."""
        if self._engine().is_legal(move, player):
            return []
        return [Violation("not-legal-now", self.turn_rule, f"{move} is not a legal move now")]

    @abc.abstractmethod
    def scores(self) -> ScoreSheet:
        """Points so far, item by item; when the game is over, with winners and tie-break."""

    @derives_views
    def view(self, player: int) -> Any:
        """What ``player`` may know of this position: the game's view class, derived from the
        visibility its position declares (``core.position``); a game with a view written by hand
        overrides this."""
        view_class = self.game.spec.view
        if not issubclass(view_class, PositionView):
            raise NotImplementedError(
                f"{type(self).__name__} must write view(): {view_class.__name__} is no PositionView"
            )
        return view_of(self, player, view_class)

    def notation(self) -> str:
        """The position as text, which ``Game.parse_state`` reads back: the spec's ``notation``, or
        the plain notation of the declared fields (``core.plain``)."""
        write = self.game.spec.notation
        return position_text(self) if write is None else write(self)

    def validate(self) -> None:
        """Raise ``InvalidStateError`` naming the first broken invariant (conservation of pieces,
        cards or dice, tower ownership, phase consistency): the spec's ``validate``. Positions
        reached by legal play always pass; a hand-written one may not."""
        check = self.game.spec.validate
        if check is not None:
            check(self)

    # --- shared bookkeeping --------------------------------------------------------------
    def winners(self) -> tuple[int, ...]:
        """Winners after the tie-break; () while the game is not over."""
        return self.scores().winners if self.is_over else ()

    def require_player(self, player: Any) -> int:
        """``player`` if it is a seat of this game; otherwise ``RulesError`` naming it."""
        if type(player) is not int or not 0 <= player < self.game.players:
            raise RulesError(f"there is no player {player!r} in a {self.game.players}-player game")
        return player

    def legal_moves(self, player: int | None = None) -> Sequence[Any]:
        """Every legal move for ``player`` in the game's canonical order (at a chance state: every
        outcome), tuple-like: a tuple, or a lazy ``MoveList`` where the list would be huge. A
        player who is not to act has none; a value that is not a player raises ``RulesError``."""
        if player is not None and (type(player) is not int or not 0 <= player < self.game.players):
            self.require_player(player)  # raises
        if self._thaws_plainly:  # _engine, inline: this is on every decision's path
            engine = object.__new__(self.engine)
            engine.__dict__ = self.__dict__
        else:
            engine = self._engine()
        if engine.is_chance:
            # No player acts at a chance state: the outcomes are "legal" only for whoever drives chance.
            return () if player is not None else tuple(outcome for outcome, _ in engine.chance_outcomes())
        if engine.is_over:
            return ()
        to_act = engine.to_act
        if player is None:
            if len(to_act) != 1:
                return ()
            player = to_act[0]
        if player not in to_act:
            return ()
        if engine.lists_cheaply:
            return tuple(engine.legal_moves(player))
        return MoveList(engine, player, self._engine)

    def random_move(self, rng: random.Random, player: int | None = None) -> Any:
        """A legal move for ``player`` drawn uniformly at random, or at a chance state an outcome
        drawn with its probability. Uses only ``rng.random()``, so a seed gives the same choice on
        every Python."""
        if player is not None:
            self.require_player(player)
        if self._thaws_plainly:  # _engine, inline: this is on every chance step's path
            engine = object.__new__(self.engine)
            engine.__dict__ = self.__dict__
        else:
            engine = self._engine()
        if engine.is_chance:
            return engine.sample_outcome(rng)
        to_act = engine.to_act
        move = None
        if not engine.is_over and (player in to_act or (player is None and len(to_act) == 1)):
            move = engine.random_move(rng, to_act[0] if player is None else player)
        if move is None:
            if engine.is_over:
                reason = "the game is over; nobody has a move"
            elif player is None and len(to_act) > 1:
                reason = f"several players act now ({', '.join(f'P{p}' for p in to_act)}); name the player"
            elif player is None or player in to_act:
                reason = f"P{to_act[0] if player is None else player} has no legal move"
            else:
                reason = f"P{player} is not to act"
            raise IllegalMoveError(Verdict((Violation("no-move", self.turn_rule, reason),)), None)
        return move

    def random_step(self, rng: random.Random) -> State:
        """One step of random play: a random player among those to act (when several act at
        once), then ``random_move`` for them (at a chance state, an outcome)."""
        to_act = self.to_act
        player = to_act[int(rng.random() * len(to_act))] if len(to_act) > 1 else None
        return self.play(self.random_move(rng, player), player)

    def playout(self, rng: random.Random) -> tuple[State, int]:
        """Random play to the end on the engine: the final state and the number of steps taken.
        It plays exactly the game that repeated ``random_step`` calls play."""
        engine = self._engine_to_play()
        steps = engine.playout(rng)
        return engine.freeze_spent(), steps

    def _coerce(self, move: Any) -> Any:
        if isinstance(move, str):
            return self.game.parse_move(move)
        return move

    def check(self, move: Any, player: int | None = None) -> Verdict:
        """Whether ``move`` may be played now by ``player``, with every reason if not.

        Asking never raises for a move that is merely illegal, so a user interface can explain
        a refusal before (or instead of) playing it.

        Args:
            move: A move or chance outcome, or its notation (read with ``Game.parse_move``).
            player: Who plays it. It may be omitted when exactly one player is to act; it is
                required when several act at once (Urbanization's character draft and secret
                selections, Manhattan with ``selection="simultaneous_hidden"``): the verdict is
                then a ``player-required`` violation. It must be omitted at a chance state.

        Returns:
            Ok with no violations if legal; otherwise each broken rule, including a
                ``malformed-move`` violation for an object that is not one of the game's moves.

        Raises:
            NotationError: ``move`` is text that is not a move's notation at all (its ``where``
                points at the offending part); well-formed text for an illegal move gives a
                verdict instead.
        """
        move = self._coerce(move)
        return Verdict(tuple(self._who_and_what(move, player)[1]))

    def _who_and_what(self, move: Any, player: int | None) -> tuple[int, list[Violation]]:
        problem = malformed(move, self.game.move_types, self.game.name.capitalize())
        if problem:
            field, message = problem
            return -1, [Violation("malformed-move", self._malformed_rule(move, field), message)]
        if self.is_over:
            return -1, [Violation("game-over", self.end_rule, "the game is over; no move can be played")]
        if self.is_chance:
            if player is not None:
                return -1, [
                    Violation(
                        "chance-state",
                        self.chance_rule or self.turn_rule,
                        f"no player acts now (a chance event is pending), not P{player!r}",
                    )
                ]
            if not _safely(self._engine().is_outcome, move):
                return -1, [self._not_an_outcome(move)]
            return -1, []
        to_act = self.to_act
        if player is None:
            if len(to_act) != 1:
                who = ", ".join(f"P{p}" for p in to_act)
                return -1, [
                    Violation("player-required", self.turn_rule, f"several players act now ({who}); name the player")
                ]
            player = to_act[0]
        if type(player) is not int or not 0 <= player < self.game.players:
            return -1, [
                Violation(
                    "no-such-player",
                    self.turn_rule,
                    f"there is no player {player!r} in a {self.game.players}-player game",
                )
            ]
        if player not in to_act:
            who = ", ".join(f"P{p}" for p in to_act)
            return player, [Violation("not-to-act", self.turn_rule, f"P{player} is not to act; {who} is")]
        return player, self._violations(move, player)

    def play(self, move: Any, player: int | None = None) -> State:
        """The state after ``move``; states are frozen, so this one is unchanged.

        Args:
            move: A move or chance outcome, or its notation (read with ``Game.parse_move``).
            player: Who plays it, as for ``check``: it may be omitted when exactly one player is
                to act and is required when several act at once (Urbanization's secret
                selections, Manhattan with ``selection="simultaneous_hidden"``).

        Returns:
            The new state.

        Raises:
            IllegalMoveError: The move is illegal here; its ``verdict`` is what ``check`` says.
            NotationError: ``move`` is text that is not a move's notation at all.
        """
        if isinstance(move, str):  # _coerce, inline: play is on every step's path
            move = self.game.parse_move(move)
        if self._thaws_plainly:  # this play's own engine (thaw, inline): it answers, then the move is applied to it
            engine = object.__new__(self.engine)
            engine.__dict__ = dict(self.__dict__)  # a combined dict: a copy() of a shared-key one is slower to read
        else:
            engine = self._engine_to_play()
        chance = engine.is_chance
        who = player
        try:  # the engine's yes or no; a malformed move may make it fail, and is then no move
            if chance:
                legal = player is None and engine.is_outcome(move)
            elif engine.is_over:
                legal = False
            else:
                to_act = engine.to_act
                if player is None and len(to_act) == 1:
                    who = to_act[0]
                legal = type(who) is int and who in to_act and engine.is_legal(move, who)
        except Exception:
            legal = False
        if legal:
            if chance:
                engine.apply_outcome(move)
            else:
                engine.apply(move, cast(int, who))
            return engine.freeze_spent()
        verdict = self.check(move, player)
        if verdict.ok:  # the engine refused what the explainer allows: never hide it
            verdict = Verdict((Violation("refused", self.turn_rule, f"{move!r} is not a legal move here"),))
        raise IllegalMoveError(verdict, move)

    def __str__(self) -> str:
        return self.notation()

    def _repr_svg_(self) -> str:
        """The position as an SVG picture (a notebook shows it), drawn by the game's render hook."""
        return picture(self)


def _safely(question: Callable[..., bool], *args: Any) -> bool:
    """The engine's answer to a yes/no question about a move, or no when a malformed move made
    it fail (``check`` then says what is wrong with the move)."""
    try:
        return question(*args)
    except Exception:
        return False
