"""Every citybuild game as a PettingZoo AEC environment, and as a single-agent Gymnasium one.

Needs ``pip install ".[pettingzoo]"``.

``env("manhattan", players=4, preset="standard")`` is an ``AECEnv`` whose agents are
``player_0`` ... ``player_<n-1>``. An action is one decision of a move (``core.actions``): the
agent to act keeps acting until its move is complete, then the game moves on. Chance events are
resolved inside the environment with a generator seeded by ``reset(seed=...)``. Each observation
is a dict: ``observation``, the agent's view as numbers plus the decisions of its move in progress
(``citybuild.adapters.stepper``), and ``action_mask``, 1 for each legal action id. Rewards come at
the end: 1 shared by the winners (``returns="win"``) or the final points (``returns="points"``).

``single_agent_env("manhattan", seat=0)`` is a ``gymnasium.Env`` in which one seat learns and the
others are played by ``opponent``: a bot's text (``"greedy"``, ``"ismcts:200"``, as in the arena),
a bot with ``choose(view, rng) -> move`` (``citybuild.bots``) or such a function (default: a legal
move drawn uniformly; a player's legal moves depend only on what it sees, so this reads nothing
hidden).
Its observations and action mask are the same dict; it ends when the game ends. By default an
action outside the mask ends the episode with ``illegal_reward`` (-1) for the learner
(``illegal="end"``, as PettingZoo's ``TerminateIllegalWrapper`` does, so that Gymnasium's
``check_env`` and learners that sample without the mask can run); ``illegal="raise"`` raises
``RulesError`` instead and changes nothing.

``max_cycles`` bounds an AEC episode: after that many steps every agent still in play is
truncated. ``render_mode`` is ``"ansi"`` (``render()`` returns the whole position as text) or
``"human"`` (it prints it). ``parallel_env(...)`` is the
``ParallelEnv`` in which players who choose at once act in one step.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from citybuild.adapters.stepper import CHANCE, OVER, Stepper
from citybuild.core.actions import decisions
from citybuild.core.errors import RulesError
from citybuild.core.game import Game
from citybuild.core.registry import load

RETURNS = ("win", "points")
RENDER_MODES = ["human", "ansi"]
"""``"ansi"``: ``render()`` gives the position as text; ``"human"``: it prints that text."""
Opponent = Callable[[Any, random.Random], Any]
"""Chooses a move from a view: ``opponent(view, rng) -> move``."""


def _load(game: str | Game, players: int | None, preset: str, overrides: dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if players is not None or overrides or preset != "standard":
            raise RulesError("pass either a loaded game or a game name with players, preset and options")
        return game
    return load(game, players=players, preset=preset, **overrides)


def check_options(returns: str, render_mode: str | None, max_cycles: int | None) -> None:
    """``RulesError`` for a ``returns``, ``render_mode`` or ``max_cycles`` that is not offered."""
    if returns not in RETURNS:
        raise RulesError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RulesError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
    if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
        raise RulesError(f"max_cycles must be None or a positive int, not {max_cycles!r}")


def check_seed(seed: Any) -> int | None:
    """``seed`` if it is None or an int of at least 0 (as Gymnasium takes); otherwise ``RulesError``."""
    if seed is not None and (type(seed) is not int or seed < 0):
        raise RulesError(f"a seed is None or an int of at least 0, not {seed!r}")
    return seed


def rendered(stepper: Stepper, render_mode: str | None) -> str | None:
    """``render()`` of an environment: the position as text, printed for ``"human"``."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
        return None
    if render_mode == "human":
        print(stepper)
        return None
    return str(stepper)


def _spaces(stepper: Stepper) -> tuple[spaces.Dict, spaces.Discrete]:
    size = stepper.numbering.size
    observation = spaces.Dict(
        {
            "observation": spaces.Box(0.0, np.inf, (stepper.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }
    )
    return observation, spaces.Discrete(size)


def _observe(stepper: Stepper, player: int) -> dict[str, np.ndarray]:
    mask = np.zeros(stepper.numbering.size, np.int8)
    if player == stepper.current:
        mask[list(stepper.legal())] = 1
    return {"observation": np.asarray(stepper.encode(player), np.float32), "action_mask": mask}


def _returns(stepper: Stepper, kind: str) -> tuple[float, ...]:
    return stepper.win_shares() if kind == "win" else stepper.points()


class CitybuildAEC(AECEnv):  # type: ignore[misc]
    """A citybuild game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "name": "citybuild_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        preset: str = "standard",
        returns: str = "win",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **overrides: Any,
    ) -> None:
        super().__init__()
        check_options(returns, render_mode, max_cycles)
        self.max_cycles = max_cycles
        """After this many steps every agent still in play is truncated (None: no bound)."""
        self.cycles = 0
        self.game = _load(game, players, preset, overrides)
        self.metadata = {**self.metadata, "name": f"citybuild_{self.game.name}_v0"}
        self.returns = returns
        self.render_mode = render_mode
        self.numbering = decisions(self.game)
        self.stepper = Stepper(self.game, numbering=self.numbering)
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        observation, action = _spaces(self.stepper)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(check_seed(seed))
        self.stepper = Stepper(self.game, numbering=self.numbering, coder=self.stepper.encoder)
        self.stepper.play_chance(self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.cycles = 0
        self._settle()

    def _settle(self) -> None:
        """After a move: whose turn it is, or the rewards and terminations at the end."""
        current = self.stepper.current
        if current == OVER:
            for agent, value in zip(self.possible_agents, _returns(self.stepper, self.returns), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            assert current != CHANCE
            self.agent_selection = self.possible_agents[current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return _observe(self.stepper, self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.stepper.apply(action)  # a RulesError for anything but a legal id, and nothing changes
        self.stepper.play_chance(self._rng)
        self.cycles += 1
        self._settle()
        if self.max_cycles is not None and self.cycles >= self.max_cycles and not self.stepper.is_over:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def render(self) -> str | None:
        return rendered(self.stepper, self.render_mode)

    def close(self) -> None:
        pass


def env(
    game: str | Game, players: int | None = None, preset: str = "standard", returns: str = "win", **kwargs: Any
) -> CitybuildAEC:
    """The AEC environment of ``game`` (a name with players, preset and rule overrides, or a loaded game)."""
    return CitybuildAEC(game, players, preset, returns, **kwargs)


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a citybuild game as a Gymnasium environment; ``opponent`` plays the others."""

    metadata = {"render_modes": RENDER_MODES}  # noqa: RUF012 - gymnasium's convention

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        preset: str = "standard",
        seat: int = 0,
        opponent: Opponent | Any = None,
        returns: str = "win",
        illegal: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **overrides: Any,
    ) -> None:
        check_options(returns, render_mode, None)
        if illegal not in ("raise", "end"):
            raise RulesError(f"illegal must be 'raise' or 'end', not {illegal!r}")
        reward: Any = illegal_reward  # checked here whatever its annotation says
        if isinstance(reward, bool) or not isinstance(reward, numbers.Real):
            raise RulesError(f"illegal_reward must be a number, not {illegal_reward!r}")
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.game = _load(game, players, preset, overrides)
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise RulesError(f"there is no seat {seat!r} in a {self.game.players}-player game")
        self.seat = seat
        if isinstance(opponent, str):
            from citybuild.bots import from_text

            self.opponent: Any = from_text(opponent)  # a bad text is a RulesError naming the bots
        else:
            self.opponent = opponent
        self.returns = returns
        self.render_mode = render_mode
        self.stepper = Stepper(self.game)
        self.observation_space, self.action_space = _spaces(self.stepper)  # type: ignore[assignment]
        self._rng = random.Random()

    def _others(self) -> None:
        """Chance and the other seats, until this seat decides or the game ends."""
        stepper = self.stepper
        while True:
            stepper.play_chance(self._rng)
            current = stepper.current
            if current == OVER or current == self.seat:
                return
            state = stepper.state()
            if self.opponent is None:  # a player's legal moves depend only on what it sees
                move = state.random_move(self._rng, current)
            else:
                choose = getattr(self.opponent, "choose", self.opponent)  # a bot, or a function
                move = choose(state.view(current), self._rng)
            for action in stepper.numbering.steps(stepper.engine, current, move):
                stepper.apply(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=check_seed(seed))
        self._rng = random.Random(seed)
        self.stepper = Stepper(self.game, numbering=self.stepper.numbering, coder=self.stepper.encoder)
        self._others()
        return _observe(self.stepper, self.seat), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.illegal == "end" and not self._legal(action):
            return _observe(self.stepper, self.seat), self.illegal_reward, True, False, {"illegal": True}
        self.stepper.apply(action)  # a RulesError for anything but a legal id, and nothing changes
        self._others()
        over = self.stepper.is_over
        reward = _returns(self.stepper, self.returns)[self.seat] if over else 0.0
        return _observe(self.stepper, self.seat), reward, over, False, {}

    def _legal(self, action: Any) -> bool:
        try:
            return self.stepper.action_id(action) in self.stepper.legal()
        except RulesError:
            return False

    def render(self) -> str | None:
        return rendered(self.stepper, self.render_mode)


def single_agent_env(game: str | Game, players: int | None = None, seat: int = 0, **kwargs: Any) -> SingleAgentEnv:
    """One seat of ``game`` as a Gymnasium environment (see ``SingleAgentEnv``)."""
    return SingleAgentEnv(game, players, seat=seat, **kwargs)


class CitybuildParallel(ParallelEnv):  # type: ignore[misc]
    """A citybuild game as a PettingZoo ``ParallelEnv``: at each step every player who is choosing
    now takes one decision of its move, so players who choose at once (Urbanization's secret
    selections, Manhattan's ``selection="simultaneous_hidden"``) act in the same step; in turn
    order play that is one player. Each player builds its own move from its own view; a completed
    move is played when the players before it in seat order have played theirs."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "name": "citybuild_v0"}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        preset: str = "standard",
        returns: str = "win",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **overrides: Any,
    ) -> None:
        check_options(returns, render_mode, max_cycles)
        self.game = _load(game, players, preset, overrides)
        self.metadata = {**self.metadata, "name": f"citybuild_{self.game.name}_v0"}
        self.returns, self.render_mode = returns, render_mode
        self.max_cycles = max_cycles
        """After this many steps every agent still in play is truncated (None: no bound)."""
        self.stepper = Stepper(self.game)
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        self.agents: list[str] = []
        observation, action = _spaces(self.stepper)
        self._observation, self._action = observation, action
        self.chosen: dict[int, tuple[int, ...]] = {}
        """Per player building a move, its decisions so far (a completed move waits here for its turn)."""
        self.cycles = 0
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action

    def options(self, player: int) -> tuple[int, ...]:
        """The action ids ``player`` may take now: none unless it is to act and its move is not complete."""
        engine = self.stepper.engine
        if self.stepper.current < 0 or player not in engine.to_act:
            return ()
        return self.stepper.numbering.options(engine, player, self.chosen.get(player, ()))

    def deciding(self) -> tuple[int, ...]:
        """The players who take a decision in the next step."""
        return tuple(p for p in range(self.game.players) if self.options(p))

    def _observe(self, player: int) -> dict[str, np.ndarray]:
        options = self.options(player)
        mask = np.zeros(self.stepper.numbering.size, np.int8)
        mask[list(options)] = 1
        chosen = self.chosen.get(player, ())
        encoded = self.stepper.encode_deciding(player, bool(options), chosen)
        return {"observation": np.asarray(encoded, np.float32), "action_mask": mask}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self._observe(p) for p, a in enumerate(self.possible_agents) if a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self._rng = random.Random(check_seed(seed))
        self.stepper = Stepper(self.game, numbering=self.stepper.numbering, coder=self.stepper.encoder)
        self.stepper.play_chance(self._rng)
        self.agents = list(self.possible_agents)
        self.chosen, self.cycles = {}, 0
        return self._observations(), {a: {} for a in self.agents}

    def _take(self, actions: dict[str, Any]) -> None:
        """Check every deciding player's action, then record them all (``RulesError``, nothing changed)."""
        taken: dict[int, tuple[int, ...]] = {}
        for player in self.deciding():
            agent = self.possible_agents[player]
            if agent not in actions:
                raise RulesError(f"{agent} is choosing now and must be given an action")
            action = self.stepper.action_id(actions[agent])
            legal = self.options(player)
            if action not in legal:
                raise RulesError(f"action {action!r} is not legal for {agent} now (legal: {list(legal)})")
            taken[player] = (*self.chosen.get(player, ()), action)
        self.chosen.update(taken)

    def _play_completed(self) -> None:
        """Play each completed move whose player is first to act, with chance in between."""
        stepper = self.stepper
        while (player := stepper.current) >= 0 and player in self.chosen:
            chosen = self.chosen[player]
            if stepper.numbering.options(stepper.engine, player, chosen):
                return  # still building
            del self.chosen[player]
            for action in chosen:
                stepper.apply(action)
            stepper.play_chance(self._rng)

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """One decision of each deciding player; actions of the others are ignored."""
        if not self.agents:
            raise RulesError("the episode is over; call reset()")
        if not isinstance(actions, dict):
            raise RulesError(f"a parallel step takes a dict of actions by agent, not {actions!r}")
        self._take(actions)
        self._play_completed()
        self.cycles += 1
        agents = list(self.agents)
        over = self.stepper.is_over
        truncated = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        values = _returns(self.stepper, self.returns) if over else (0.0,) * self.game.players
        rewards = {a: float(values[self.possible_agents.index(a)]) for a in agents}
        observations = self._observations()
        if over or truncated:
            self.agents = []
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated)
        return observations, rewards, terminations, truncations, {a: {} for a in agents}

    def render(self) -> str | None:
        return rendered(self.stepper, self.render_mode)

    def close(self) -> None:
        pass


def parallel_env(
    game: str | Game, players: int | None = None, preset: str = "standard", returns: str = "win", **kwargs: Any
) -> CitybuildParallel:
    """The parallel environment of ``game`` (see ``CitybuildParallel``)."""
    return CitybuildParallel(game, players, preset, returns, **kwargs)
