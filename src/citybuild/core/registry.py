"""The game registry: games are plugins under the entry-point group ``citybuild.games``.

Each entry point names a ``GameSpec``. The built-in games are registered the same way in
citybuild's own ``pyproject.toml``, so a third-party game is a first-class citizen. The spec is
the whole contract between a game and the rest of citybuild: JSON, the test kit and the command
line find a game's classes and optional hooks there, never by probing objects.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib.metadata import entry_points
from typing import Any

import attrs

from citybuild.core.actions import Decisions
from citybuild.core.encoding import Encoder
from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError
from citybuild.core.game import Game, State
from citybuild.core.position import PositionView, has_secrets, hidden_variants

GROUP = "citybuild.games"


def baseline_variants(view: type) -> Callable[[Any, int], Iterable[Any]] | None:
    """The hidden variants a view class's declared position gives (None when it hides nothing,
    or when the view is written by hand)."""
    if not (isinstance(view, type) and issubclass(view, PositionView)) or not has_secrets(view.position):
        return None
    declared_by = view.position
    return lambda state, player: hidden_variants(state, player, declared_by)


@attrs.frozen(kw_only=True, eq=False)
class GameSpec:
    """What a game plugin declares: its Game class, presets, player counts, the classes its
    positions and views are made of, and its optional hooks.

    The name, moves and chance outcomes are read from the Game class, so they are written once;
    ``register`` takes a spec, and installed plugins expose one as a ``citybuild.games`` entry
    point. Every game it loads carries it (``game.spec``). Specs compare by identity: a spec is a
    declaration, and two declarations are two games."""

    game: type[Game]
    """The Game class: its ``name``, ``moves`` and ``outcomes`` are the spec's."""
    title: str
    """The name as people read it (``"Manhattan"``)."""
    presets: Mapping[str, Any]
    """Rule sets by preset name; ``load`` takes ``"standard"`` unless told otherwise."""
    min_players: int
    """The fewest players the game supports."""
    max_players: int
    """The most players the game supports."""
    default_players: int = attrs.field(default=attrs.Factory(lambda spec: spec.min_players, takes_self=True))
    """How many play when ``load`` is not told (the fewest unless declared)."""
    state: type[State]
    """The class of the game's positions (what ``initial_state()`` and ``play`` return)."""
    view: type
    """The class of what ``state.view(player)`` returns."""
    make: Callable[..., Game] | None = None
    """``make(preset, rules, players, spec=spec)`` returns the Game; None: the Game class is called
    with those keywords (a game that computes tables from its rules does it in the class)."""
    notation: Callable[[Any], str] | None = None
    """``notation(state)``: the position as text, what ``state.notation()`` answers and
    ``Game.parse_state`` reads back. None: the state class writes its own ``notation``."""
    validate: Callable[[Any], None] | None = None
    """``validate(state)`` raises ``InvalidStateError`` naming the first broken invariant, for
    ``state.validate()``. None: every position passes (or the state class checks itself)."""
    hidden_variants: Callable[[Any, int], Iterable[Any]] | None = attrs.field(
        default=attrs.Factory(lambda spec: baseline_variants(spec.view), takes_self=True)
    )
    """``hidden_variants(state, player)``: positions that differ from ``state`` only in what
    ``player`` cannot see. The test kit checks that each gives ``player`` the same view. By default
    the baseline of the view's declared position (``core.position.hidden_variants``); None for a
    game without hidden information."""
    validate_view: Callable[[Any], None] | None = None
    """``validate_view(view)`` raises ``InvalidStateError`` for a view no position could give (a
    view read from JSON is refused with it). None: views are read without further checks."""
    private_moves: tuple[type, ...] = ()
    """Classes of moves whose content only their player sees (a tile given face down): the command
    line shows the other players only the move's kind. Moves made while several players choose at
    once are kept secret the same way without being listed here."""
    public_scores: bool = False
    """Whether every seat sees the whole score sheet during play in a game that hides other things
    (Manhattan's points are counted in the open; Urbanization's SP stay behind screens). A game
    with no hidden information always shows its sheet."""
    revealed: Callable[[Any, int, Any], bool] | None = None
    """``revealed(state, mover, move)``: whether the secret choice ``move`` that ``mover`` made
    earlier (in a round where several chose at once) is shown to everyone by ``state``, a later
    position; the log then tells it (``P1 reveals select H Y15``). Asked of each position after the
    choice until it answers yes. None: secret choices are never told."""
    json_types: tuple[type, ...] = ()
    """Further classes a JSON document may name: subclasses of ``state`` count as state classes,
    any other as view classes."""
    render: Callable[[Any, Any], str] | None = None
    """``render(position, options)``: an SVG picture of a state or a view, as text, drawn with the
    ``citybuild.core.svg.PictureOptions`` given (``citybuild.core.svg.picture`` calls it, and so
    do ``state._repr_svg_()`` and ``citybuild show``). None: the game draws no pictures."""
    board_text: Callable[[Any, Game, bool], str] | None = None
    """``board_text(view, game, colour)``: the board as the view's player reads it at a terminal
    (lines of text, with ANSI colours when ``colour``), shown before a human's decision and on
    ``board``. None: the view's ``str``."""
    announce: Callable[[Any, Any, int], str | None] | None = None
    """``announce(state, outcome, player)``: what ``player`` learns when ``outcome`` resolves the
    chance event of ``state`` (a line of text), or None when they learn nothing they may see. None:
    chance outcomes are announced to everyone in a game without hidden information, else to nobody."""
    decisions: Callable[[Game], Decisions] | None = None
    """``decisions(game)``: the game's numbering of its moves as sequences of small decisions, and
    of its chance outcomes as chance steps (``core.actions``; the move builder and the framework
    adapters read it). None: the game has no action numbering, and no adapter offers it."""
    encoder: Callable[[Game], Encoder] | None = None
    """``encoder(game)``: the game's fixed-size encoding of its views as numbers
    (``core.encoding``; observation tensors). None: views have no tensor form."""
    determinize: Callable[[Any, random.Random], State] | None = None
    """``determinize(view, rng)``: a position consistent with ``view`` (which names its game), what
    the viewer cannot see drawn uniformly among the possibilities (DESIGN principle 9). None for a
    game without hidden information: its views hold every field of the position, which is rebuilt
    from them."""
    evaluate: Callable[[Engine], Sequence[float]] | None = None
    """``evaluate(engine)``: per player, the points the position is worth (points so far plus what
    it promises), for bots that look ahead. None: the points so far."""
    margin_scale: float = attrs.field(default=3.0, validator=attrs.validators.gt(0))
    """Points of evaluation margin that a searching bot reads as a clear gain: the scale of its
    reward, ``1 / (1 + exp(-gain / margin_scale))`` unless the bot sets its own ``temperature``.
    A game whose moves swing many points at once wants a wider scale, or the reward saturates and
    the search settles for a sure small gain over a likely bigger one."""
    choices: Callable[[Any, Sequence[Any]], list[Any]] | None = None
    """``choices(view, moves)``: per legal move of the view's player, a ``core.choices.Choice``
    (the picture part it is played on, and its words), for clients that play by clicking the
    picture. None: moves are offered in their notation."""

    @property
    def name(self) -> str:
        """The registered name, what ``citybuild.load`` takes (the Game class's ``name``)."""
        return self.game.name

    @property
    def moves(self) -> tuple[type, ...]:
        """Every class of player move (the Game class's ``moves``)."""
        return self.game.moves

    @property
    def outcomes(self) -> tuple[type, ...]:
        """Every class of chance outcome (the Game class's ``outcomes``): what
        ``chance_outcomes()`` lists and ``random_move`` draws at a chance state."""
        return self.game.outcomes

    def load(self, players: int | None = None, preset: str = "standard", **overrides: Any) -> Game:
        """The game under ``preset`` with ``overrides``, for ``citybuild.load``.

        Raises ``RulesError`` for an unknown preset or option, a bad value or player count."""
        if not isinstance(preset, str):
            raise RulesError(f"a preset name must be a string, not {preset!r}; presets are: {', '.join(self.presets)}")
        if preset not in self.presets:
            raise RulesError(f"unknown preset {preset!r} for {self.name}; presets are: {', '.join(self.presets)}")
        if players is None:
            players = self.default_players
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not self.min_players <= players <= self.max_players
        ):
            raise RulesError(f"{self.name} takes {self.min_players} to {self.max_players} players, not {players!r}")
        rules = self.presets[preset]
        if overrides:
            rules = rules.replace(**overrides)
        make = self.game if self.make is None else self.make
        return make(preset=preset, rules=rules, players=players, spec=self)


_extra: dict[str, GameSpec] = {}


@cache
def _installed() -> dict[str, GameSpec]:
    specs: dict[str, GameSpec] = {}
    for ep in entry_points(group=GROUP):
        spec = ep.load()
        if not isinstance(spec, GameSpec):
            raise RulesError(f"entry point {ep.name!r} in {GROUP} does not name a GameSpec")
        specs[spec.name] = spec
    return specs


def register(spec: GameSpec) -> None:
    """Register a game at run time (for a plugin that is not installed as a package)."""
    _extra[spec.name] = spec


def unregister(name: str) -> None:
    """Forget a game registered with ``register`` (installed games stay); unknown names are ignored."""
    _extra.pop(name, None)


def specs() -> dict[str, GameSpec]:
    return {**_installed(), **_extra}


def spec(name: str) -> GameSpec:
    known = specs()
    if not isinstance(name, str):
        listed = ", ".join(sorted(known)) or "none (is citybuild installed?)"
        raise RulesError(f"a game name must be a string, not {name!r}; games are: {listed}")
    if name not in known:
        listed = ", ".join(sorted(known)) or "none (is citybuild installed?)"
        raise RulesError(f"unknown game {name!r}; games are: {listed}")
    return known[name]


def games() -> tuple[str, ...]:
    """Names of every registered game, sorted."""
    return tuple(sorted(specs()))


def presets(name: str) -> tuple[str, ...]:
    """Names of the rule-set presets of game ``name``, each a ``preset`` that ``load`` accepts."""
    return tuple(spec(name).presets)


def load(name: str, players: int | None = None, preset: str = "standard", **overrides: Any) -> Game:
    """A game under a preset, with options overridden by keyword."""
    return spec(name).load(players, preset, **overrides)
