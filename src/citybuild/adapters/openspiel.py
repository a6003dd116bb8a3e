"""Every citybuild game as an OpenSpiel Python game: ``import citybuild.adapters.openspiel`` and
``pyspiel.load_game("citybuild_manhattan", {"players": 3})``.

Needs ``pip install ".[openspiel]"``. Importing this module registers each game that
declares an action numbering (``GameSpec.decisions``) and a view encoder (``GameSpec.encoder``)
under ``citybuild_<name>``, with the game parameters

- ``players`` (int, the game's default player count),
- ``preset`` (str, ``"standard"``),
- ``rules`` (str, a JSON object of rule overrides, e.g. ``'{"rounds": 3}'``; ``""`` for none; in
  a game string write ``;`` for ``,``: ``citybuild_skyline(rules={"rounds":3;"yard_take":4})``),
- ``returns`` (str: ``"win"``, 1 shared by the winners, or ``"points"``, the final scores).

An OpenSpiel action is one decision of a move (``core.actions``): a move takes a few actions,
each from the game's fixed numbering; chance nodes are the game's chance steps, with exact
probabilities (a Skyline roll is drawn die by die). Games with hidden information are
``IMPERFECT_INFORMATION``: observation strings and tensors and information state strings are
built from the player's view, never from the position (see ``citybuild.adapters.stepper``), and
``resample_from_infostate`` draws a position consistent with the player's view through the game's
``determinize`` (for IS-MCTS). No information state tensor is served (nor advertised). The public
observer (``private_info`` NONE) gives the position's public fields as a string, without a tensor.

Games, game types and states pickle (each game's class is bound here as ``CitybuildSkylineGame``
and so on) and round-trip through ``pyspiel.serialize_game_and_state``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from citybuild.adapters.stepper import CHANCE, OVER, Stepper
from citybuild.core.actions import decisions
from citybuild.core.encoding import encoder
from citybuild.core.errors import RulesError
from citybuild.core.registry import GameSpec, specs

PREFIX = "citybuild_"
RETURNS = ("win", "points")
MAX_POINTS = 10_000.0
"""The bound declared for ``returns="points"`` (no game of ours comes near it)."""


def rule_overrides(text: str) -> dict[str, Any]:
    """Rule overrides from the ``rules`` parameter: a JSON object, in which ``;`` may stand for
    ``,`` (OpenSpiel's game strings cannot hold commas); keys of nested objects that are digits
    become ints (JSON keys are strings; per-player-count options are keyed by ints)."""
    if not text:
        return {}
    try:
        value = json.loads(text.replace(";", ","))
    except json.JSONDecodeError as error:
        raise RulesError(f"the rules parameter must be a JSON object of rule overrides: {error}") from None
    if not isinstance(value, dict):
        raise RulesError(f"the rules parameter must be a JSON object of rule overrides, not {text!r}")

    def ints(item: Any) -> Any:
        if isinstance(item, dict):
            return {int(k) if isinstance(k, str) and k.isdigit() else k: ints(v) for k, v in item.items()}
        return item

    return {k: ints(v) for k, v in value.items()}


def rules_text(overrides: dict[str, Any]) -> str:
    """The ``rules`` parameter of ``overrides`` as OpenSpiel keeps it: JSON with ``;`` for ``,``."""
    return json.dumps(overrides, separators=(";", ":"), sort_keys=True) if overrides else ""


def game_type(spec: GameSpec, returns: str = "points") -> pyspiel.GameType:
    """The game's OpenSpiel type; with ``returns="win"`` it is constant-sum (the winners share 1)."""
    hidden = spec.hidden_variants is not None or getattr(spec, "determinize", None) is not None
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"citybuild {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION if hidden else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if returns == "win" else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,  # not served: see CitybuildObserver
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": spec.default_players,
            "preset": "standard",
            "rules": "",
            "returns": "win",
        },
        default_loadable=True,
        provides_factored_observation_string=False,
    )


class CitybuildGame(pyspiel.Game):  # type: ignore[misc]
    """A citybuild game under one preset, player count and rule overrides, for OpenSpiel."""

    spec: GameSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", self.spec.default_players))
        preset = str(params.get("preset", "standard"))
        rules = str(params.get("rules", ""))
        self.returns_kind = str(params.get("returns", "win"))
        if self.returns_kind not in RETURNS:
            raise RulesError(f"returns must be one of {', '.join(RETURNS)}, not {self.returns_kind!r}")
        overrides = rule_overrides(rules)
        self.citybuild_game = self.spec.load(players, preset, **overrides)
        self.numbering = numbering = decisions(self.citybuild_game)
        self.encoder = encoder(self.citybuild_game)
        self.initial = self.citybuild_game.initial_state()
        win = self.returns_kind == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=numbering.size,
            max_chance_outcomes=numbering.chance_size,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0 if win else MAX_POINTS,
            utility_sum=1.0 if win else None,
            max_game_length=numbering.longest_game(),
        )
        full = {"players": players, "preset": preset, "rules": rules_text(overrides), "returns": self.returns_kind}
        super().__init__(game_type(self.spec, self.returns_kind), info, full)

    def new_initial_state(self) -> CitybuildState:
        return CitybuildState(self)

    def new_stepper(self) -> Stepper:
        return Stepper(self.citybuild_game, self.initial, self.numbering, self.encoder)

    def __deepcopy__(self, memo: dict[int, Any]) -> CitybuildGame:
        return self  # a game never changes

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class (bound in this module under a stable name) and its parameters."""
        return (type(self), (self.get_parameters(),))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> CitybuildObserver:
        """The observer of ``iig_obs_type``: the player's view (the default), its information state
        (``perfect_recall``: strings only) or the public information (``private_info`` NONE)."""
        if iig_obs_type is None:
            return CitybuildObserver(self, "view")
        if not iig_obs_type.public_info:
            raise RulesError("citybuild observers always show the public information (public_info=True)")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            return CitybuildObserver(self, "public")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise RulesError("citybuild observers show one player's private information, not all players'")
        return CitybuildObserver(self, "recall" if iig_obs_type.perfect_recall else "view")


class CitybuildState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a ``Stepper`` (position plus the decisions of the move being built)."""

    def __init__(self, game: CitybuildGame, stepper: Stepper | None = None) -> None:
        super().__init__(game)
        self.returns_kind = game.returns_kind
        self.stepper = stepper if stepper is not None else game.new_stepper()

    # --- who acts --------------------------------------------------------------------------
    def current_player(self) -> int:
        current = self.stepper.current
        if current == OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if current == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return current

    def is_terminal(self) -> bool:
        return self.stepper.is_over

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.stepper.current:
            return []
        return list(self.stepper.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(step, float(p)) for step, p in self.stepper.chance()]

    def _apply_action(self, action: int) -> None:
        self.stepper.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        numbering = self.stepper.numbering
        if player == pyspiel.PlayerId.CHANCE:
            return numbering.chance_names[action]
        return numbering.names[action]

    def returns(self) -> list[float]:
        if not self.stepper.is_over:
            return [0.0] * self.stepper.game.players
        if self.returns_kind == "win":
            return list(self.stepper.win_shares())
        return list(self.stepper.points())

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> CitybuildState:
        """A state that ``player`` cannot tell from this one: the position drawn from the player's
        view by the game's ``determinize`` (uniformly among those consistent with it), the move in
        progress and the player's own history kept (for IS-MCTS)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.stepper.game
        determinize = getattr(game, "determinize", None)
        if determinize is None:
            if self.get_game().get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
                raise RulesError(f"{game.name} hides information but its game has no determinize")
            return self.resampled(player, lambda view, _: self.stepper.state(), rng)
        return self.resampled(player, determinize, rng)

    def resampled(self, player: int, determinize: Any, rng: random.Random) -> CitybuildState:
        """``resample_from_infostate`` with a given ``determinize(view, rng) -> State``."""
        state = determinize(self.stepper.view(player), rng)
        stepper = Stepper(self.stepper.game, state, self.stepper.numbering, self.stepper.encoder)
        stepper.chosen = self.stepper.chosen
        stepper.history[player] = self.stepper.history[player]
        return CitybuildState(self.get_game(), stepper)

    def __str__(self) -> str:
        return str(self.stepper)


class CitybuildObserver:
    """OpenSpiel's observer, from views: ``kind`` is ``"view"`` (the player's observation: string
    and tensor), ``"recall"`` (its information state: a string only; there is no information
    state tensor, and the game type says so) or ``"public"`` (what every player sees: the
    position's public fields as a string; no tensor)."""

    KINDS = ("view", "recall", "public")

    def __init__(self, game: CitybuildGame, kind: str) -> None:
        if kind not in self.KINDS:
            raise RulesError(f"an observer is one of {', '.join(self.KINDS)}, not {kind!r}")
        self.kind = kind
        numbering = game.numbering
        view_size = game.encoder.size
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if kind == "view":
            self.tensor = np.zeros(view_size + 1 + numbering.max_steps * numbering.size, np.float32)
            self.dict = {
                "view": self.tensor[:view_size],
                "deciding": self.tensor[view_size : view_size + 1],
                "decisions": self.tensor[view_size + 1 :].reshape(numbering.max_steps, numbering.size),
            }

    def set_from(self, state: CitybuildState, player: int) -> None:
        if self.tensor is None:
            raise RulesError(f"the {self.kind} observer has no tensor (only strings)")
        self.tensor[:] = state.stepper.encode(player)

    def string_from(self, state: CitybuildState, player: int) -> str:
        if self.kind == "recall":
            return state.stepper.history_text(player)
        if self.kind == "public":
            return state.stepper.public_text()
        return state.stepper.text(player)


def class_name(spec: GameSpec) -> str:
    """The stable name of a game's class in this module, e.g. ``CitybuildSkylineGame``."""
    return "Citybuild" + "".join(part.title() for part in spec.name.replace("-", "_").split("_")) + "Game"


def game_class(spec: GameSpec) -> type[CitybuildGame]:
    """The class of ``spec``'s OpenSpiel game, made once and bound in this module under
    ``class_name(spec)``, so that games pickle (pickle finds a class by module and name)."""
    name = class_name(spec)
    made = globals().get(name)
    if isinstance(made, type) and issubclass(made, CitybuildGame) and made.spec is spec:
        return made
    made = type(name, (CitybuildGame,), {"spec": spec, "__module__": __name__, "__qualname__": name})
    globals()[name] = made
    return made


def register_all() -> tuple[str, ...]:
    """Register every game with an action numbering and an encoder (done on import); the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for spec in specs().values():
        if spec.decisions is None or spec.encoder is None:
            continue
        name = PREFIX + spec.name
        names.append(name)
        made = game_class(spec)
        if name not in registered:
            pyspiel.register_game(game_type(spec, "win"), made)
    return tuple(sorted(names))


GAMES = register_all()
