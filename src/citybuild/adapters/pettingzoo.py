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
Its observations and action mask are the same dict; it ends when the game ends. An action outside
the mask raises ``RulesError`` (``illegal="raise"``) or ends the episode with ``illegal_reward``
(``illegal="end"``, for learners that sample without the mask).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from citybuild.adapters.stepper import CHANCE, OVER, Stepper
from citybuild.core.actions import decisions
from citybuild.core.errors import RulesError
from citybuild.core.game import Game
from citybuild.core.registry import load

RETURNS = ("win", "points")
Opponent = Callable[[Any, random.Random], Any]
"""Chooses a move from a view: ``opponent(view, rng) -> move``."""


def _load(game: str | Game, players: int | None, preset: str, overrides: dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if players is not None or overrides or preset != "standard":
            raise RulesError("pass either a loaded game or a game name with players, preset and options")
        return game
    return load(game, players=players, preset=preset, **overrides)


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

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "citybuild_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        preset: str = "standard",
        returns: str = "win",
        render_mode: str | None = None,
        **overrides: Any,
    ) -> None:
        super().__init__()
        if returns not in RETURNS:
            raise RulesError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"render_mode must be None or 'ansi', not {render_mode!r}")
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
        self._rng = random.Random(seed)
        self.stepper = Stepper(self.game, numbering=self.numbering, coder=self.stepper.encoder)
        self.stepper.play_chance(self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
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
        self.stepper.apply(int(action))
        self.stepper.play_chance(self._rng)
        self._settle()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return str(self.stepper)

    def close(self) -> None:
        pass


def env(
    game: str | Game, players: int | None = None, preset: str = "standard", returns: str = "win", **kwargs: Any
) -> CitybuildAEC:
    """The AEC environment of ``game`` (a name with players, preset and rule overrides, or a loaded game)."""
    return CitybuildAEC(game, players, preset, returns, **kwargs)


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a citybuild game as a Gymnasium environment; ``opponent`` plays the others."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium's convention

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        preset: str = "standard",
        seat: int = 0,
        opponent: Opponent | Any = None,
        returns: str = "win",
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **overrides: Any,
    ) -> None:
        if returns not in RETURNS:
            raise RulesError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
        if illegal not in ("raise", "end"):
            raise RulesError(f"illegal must be 'raise' or 'end', not {illegal!r}")
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
        super().reset(seed=seed)
        self._rng = random.Random(seed)
        self.stepper = Stepper(self.game, numbering=self.stepper.numbering, coder=self.stepper.encoder)
        self._others()
        return _observe(self.stepper, self.seat), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.illegal == "end" and int(action) not in self.stepper.legal():
            return _observe(self.stepper, self.seat), self.illegal_reward, True, False, {"illegal": True}
        self.stepper.apply(int(action))
        self._others()
        over = self.stepper.is_over
        reward = _returns(self.stepper, self.returns)[self.seat] if over else 0.0
        return _observe(self.stepper, self.seat), reward, over, False, {}

    def render(self) -> str | None:
        return str(self.stepper) if self.render_mode == "ansi" else None


def single_agent_env(game: str | Game, players: int | None = None, seat: int = 0, **kwargs: Any) -> SingleAgentEnv:
    """One seat of ``game`` as a Gymnasium environment (see ``SingleAgentEnv``)."""
    return SingleAgentEnv(game, players, seat=seat, **kwargs)
