"""``ismcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse, 2012), for any game through its plugin hooks.

One tree is grown for the player who decides, over the moves everyone makes from that player's
information set. Each iteration:

1. **determinise**: draw a position consistent with the view (``game.determinize``), afresh, so
   that hidden cards and choices vary over iterations as the view allows;
2. **select**: walk down the tree on that position's engine, at each decision choosing by UCB
   among the moves legal in *this* determinisation, each move's availability (how often it was
   legal when its node was visited) standing in for the parent's visits. Chance events are
   sampled as they come and are not nodes of the tree (open loop): a roll or a draw only changes
   which moves are available. Players who act at once (simultaneous secret choices) each choose
   by their own statistics, none seeing the others' choice (decoupled UCB), and the node that
   follows is the one of the searcher's own choice alone, the others' secret choices counting as
   chance (``others_as_chance``; false keys it by the joint choice);
3. **expand** the chosen move if it was never played, then **roll out**: random moves for
   ``rollout_depth`` decisions (or to the end), and the game's ``evaluate`` hook (at a pending
   chance event too, which the hook values as the average of its outcomes);
4. **back up** each player's reward through the moves that player chose: the logistic of how much
   their evaluation margin (their value minus the best other player's) grew since the root.

Moves seen for the first time at a node with at most ``prior_moves`` moves get a prior: one virtual
visit worth the evaluation just after the move (progressive bias), so that the search spends its
visits on moves that look good rather than trying every poor one first; a poor move's forced visit
would also drag down the value of the position it follows. A node met for the first time is itself
the leaf (its position is evaluated), and its priors are worked out on its second visit: most
nodes are met once, and their priors would cost an evaluation per move for nothing. The move played is the root move
visited most. Nothing here knows a game: positions come from ``determinize``, moves from the
engine, values from ``evaluate``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from citybuild.bots.base import check_rng, require_moves
from citybuild.core.determinize import determinizer, has_hidden_information
from citybuild.core.engine import Engine
from citybuild.core.errors import RulesError
from citybuild.core.evaluate import evaluator

CHECK_EVERY = 50
"""Iterations between checks of the time budget and of whether the choice is already decided."""


class Stat:
    """A move's statistics at a node, changed in place by every iteration that passes it:
    ``visits`` (a prior counts as ``prior_weight`` visits that are not real), ``total`` (the
    rewards summed over the visits), ``available`` (how often the move was available when its node
    was visited: UCB's count) and ``real`` (visits by the search itself, what the choice goes by)."""

    __slots__ = ("available", "real", "total", "visits")

    def __init__(self, visits: float, total: float, available: int, real: int) -> None:
        self.visits = visits
        self.total = total
        self.available = available
        self.real = real

    def __repr__(self) -> str:
        return f"Stat(visits={self.visits}, total={self.total}, available={self.available}, real={self.real})"


Evaluate = Callable[[Engine], Sequence[float]]


class Node:
    """A node of the tree: the statistics of the moves tried from it and the nodes they lead to.
    At a single player's decision both are keyed by move; at a joint decision (``joint``) the
    statistics are keyed by (player, move) and the children by the tuple of moves."""

    __slots__ = ("children", "joint", "stats", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.stats: dict[Any, Stat] = {}
        self.joint = False
        self.visits = 0


def _count(allow_none: bool, least: int) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is None and allow_none:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise RulesError(f"ismcts option {attribute.name} must be an integer of at least {least}, not {value!r}")

    return check


def _number(allow_none: bool, allow_zero: bool) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is None and allow_none:
            return
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not _finite(value)
            or value < 0
            or (value == 0 and not allow_zero)
        ):
            kind = "a number of 0 or more" if allow_zero else "a positive number"
            raise RulesError(f"ismcts option {attribute.name} must be {kind}, not {value!r}")

    return check


def _flag(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"ismcts option {attribute.name} must be true or false, not {value!r}")


def _finite(value: float) -> bool:
    """Whether ``value`` is a finite float, or an int a float can hold (an int of 400 digits is
    neither infinite nor usable: the search's float arithmetic would overflow)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


@attrs.frozen
class IsmctsBot:
    """Information-set MCTS with ``iterations`` iterations per decision, or as many as ``time``
    seconds of processor time allow (then the choice depends on the machine's speed)."""

    iterations: int | None = attrs.field(default=1000, validator=_count(True, 1))
    """Iterations per decision (None: only ``time`` limits the search)."""
    time: float | None = attrs.field(default=None, validator=_number(True, False))
    """Seconds of processor time per decision; the search stops at whichever limit comes first."""
    exploration: float = attrs.field(default=0.25, validator=_number(False, True))
    """The UCB exploration constant (rewards lie between 0 and 1)."""
    rollout_depth: int | None = attrs.field(default=0, validator=_count(True, 0))
    """Random decisions played after the tree before the evaluation cuts the rollout off (chance
    events do not count); None rolls out to the end."""
    rollout_sample: int = attrs.field(default=1, validator=_count(False, 1))
    """Each rollout decision plays the best, by the evaluation, of this many random legal moves
    (1: a random move)."""
    temperature: float | None = attrs.field(default=None, validator=_number(True, False))
    """A reward is 1 / (1 + exp(-gain / temperature)), the gain being how much the player's
    evaluation margin over the best other player grew since the root, in points. None: the game's
    ``margin_scale`` (the points its moves are worth vary from game to game)."""
    prior_moves: int = attrs.field(default=48, validator=_count(False, 0))
    """Moves get priors at nodes with at most this many moves (0: never; each prior costs one
    evaluation)."""
    prior_weight: int = attrs.field(default=3, validator=_count(False, 1))
    """How many visits a prior counts for."""
    model_opponents: bool = attrs.field(default=False, validator=_flag)
    """The other players' decisions in the tree follow the evaluation (each plays the move whose
    position it values most for itself, as a one-ply look-ahead does) instead of a search of their
    own: the tree goes deeper on the searcher's own decisions (and the others' simultaneous
    choices count as chance)."""
    others_as_chance: bool = attrs.field(default=True, validator=_flag)
    """At a decision several players make at once, the node that follows is the one of the
    searcher's own choice alone: the others' choices (each still made by their own statistics)
    are secret to the searcher, so they count as chance, instead of every joint choice starting a
    tree of its own (false)."""
    max_branching: int = attrs.field(default=64, validator=_count(False, 1))
    """With more legal moves than this at a visit, that many are drawn at random and only they
    count as available there (huge move lists are sampled, not listed)."""

    def __attrs_post_init__(self) -> None:
        if self.iterations is None and self.time is None:
            raise RulesError("ismcts needs iterations or time (or both)")

    def reward_scale(self, game: Any) -> float:
        """The temperature this bot's rewards use in ``game``: its own, or the game's ``margin_scale``."""
        return self.temperature if self.temperature is not None else float(game.spec.margin_scale)

    def settled(self, game: Any) -> IsmctsBot:
        """This bot as it plays ``game``: the options the game decides (``temperature``) filled in."""
        return attrs.evolve(self, temperature=self.reward_scale(game))

    @property
    def label(self) -> str:
        if self.time is not None and self.iterations is None:
            return f"ismcts:time={self.time:g}"
        return f"ismcts:{self.iterations}"

    def choose(self, view: Any, rng: random.Random) -> Any:
        rng = check_rng(rng)
        moves = require_moves(view)
        if len(moves) == 1:
            return moves[0]
        ranked = _ranked(self.search(view, rng), view.player)
        return ranked[0][0] if ranked else moves[int(rng.random() * len(moves))]

    def advise(self, view: Any, rng: random.Random) -> tuple[Any, str]:
        """The move ``choose`` plays, with one line of why: how often the search tried it and how
        well it did, beside the next best (the terminal's ``hint``)."""
        rng = check_rng(rng)
        moves = require_moves(view)
        if len(moves) == 1:
            return moves[0], "it is your only legal move"
        ranked = _ranked(self.search(view, rng), view.player)
        if not ranked:
            return self.choose(view, rng), "the search tried nothing (a random legal move)"
        (move, best), rest = ranked[0], ranked[1:]
        why = f"tried in {best.real} of the search's games from your view, scoring {best.total / best.visits:.0%}"
        if rest:
            other, stat = rest[0]
            why += f"; next best {other}: {stat.real} games, {stat.total / stat.visits:.0%}"
        return move, why

    def search(self, view: Any, rng: random.Random) -> Node:
        """The tree grown from ``view`` (for inspection; ``choose`` plays its most visited move)."""
        game = view.game
        draw = determinizer(game)
        fixed = None if has_hidden_information(game) else draw(view, rng).thaw()
        start = fixed if fixed is not None else draw(view, rng).thaw()
        search = _Search(self, rng, evaluator(game), start, view.player)
        root = Node()
        limit = self.iterations
        deadline = None if self.time is None else time.process_time() + self.time
        done = 0
        while limit is None or done < limit:
            engine = fixed.copy() if fixed is not None else draw(view, rng).thaw()
            search.iterate(root, engine)
            done += 1
            if done % CHECK_EVERY:
                continue
            if deadline is not None and time.process_time() >= deadline:
                break
            if limit is not None and _decided(root, view.player, limit - done):
                break
        return root


class _Search:
    """One decision's search: the bot's settings, the generator, the evaluation and the margins
    at the root that rewards are measured from."""

    def __init__(self, bot: IsmctsBot, rng: random.Random, evaluate: Evaluate, root: Engine, me: int) -> None:
        self.bot = bot
        self.me = me
        self.rng = rng
        self.evaluate = evaluate
        self.temperature = bot.reward_scale(root.game)
        values = evaluate(root)
        self.base = [_margin(values, p) for p in range(len(values))]

    def rewards(self, engine: Engine) -> list[float]:
        """Every player's reward in this position: the logistic of their margin's gain since the root."""
        values = self.evaluate(engine)
        temperature = self.temperature
        out = []
        for p, start in enumerate(self.base):
            x = (_margin(values, p) - start) / temperature
            out.append(1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0)
        return out

    def iterate(self, root: Node, engine: Engine) -> None:
        """One iteration on a fresh determinisation: select and expand, roll out, back up."""
        path: list[tuple[Stat, int]] = []
        node = root
        rng = self.rng
        while not engine.is_over:
            if not node.visits and node is not root:
                node.visits = 1  # met for the first time: its position is the leaf
                break
            if engine.is_chance:
                engine.apply_outcome(engine.sample_outcome(rng))
                continue
            to_act = engine.to_act
            if len(to_act) == 1:
                player = to_act[0]
                if self.modelled(player):  # no statistics of its own: nothing to back up, never a leaf
                    move = self.model(node, engine, player, None)
                    fresh = False
                else:
                    move, stat = self.select(node, engine, player, None)
                    path.append((stat, player))
                    fresh = not stat.real
                node.visits += 1
                engine.apply(move, player)
                key: Any = move
            else:
                # Simultaneous choices: each player picks by their own statistics, then all are played.
                node.joint = True
                mine = [player for player in to_act if not self.modelled(player)]
                modelled = [(p, self.model(node, engine, p, p)) for p in to_act if p not in mine]
                picks = [self.select(node, engine, player, player) for player in mine]
                node.visits += 1
                fresh = False
                for player, (move, stat) in zip(mine, picks, strict=True):
                    engine.apply(move, player)
                    path.append((stat, player))
                    fresh = fresh or not stat.real
                for player, move in modelled:
                    engine.apply(move, player)
                if self.bot.others_as_chance or self.bot.model_opponents:
                    key = tuple(move for player, (move, _) in zip(mine, picks, strict=True) if player == self.me)
                else:
                    key = tuple(move for move, _ in picks)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            if fresh:  # a move never played: the position it leads to is the leaf
                child.visits = max(child.visits, 1)
                break
            node = child
        rewards = self.rollout(engine)
        for stat, player in path:
            stat.visits += 1
            stat.total += rewards[player]
            stat.real += 1

    def moves(self, engine: Engine, player: int) -> Sequence[Any]:
        """The moves available at this visit: all of them, or ``max_branching`` drawn at random."""
        limit = self.bot.max_branching
        if engine.lists_cheaply:
            moves: Sequence[Any] = engine.legal_moves(player)
            count = len(moves)
        else:
            count = engine.count_moves(player)
            moves = () if count > limit else engine.legal_moves(player)
        if count > limit:
            rng = self.rng
            draws = [int(rng.random() * count) for _ in range(limit)]
            sampled = [moves[i] for i in draws] if moves else [engine.nth_move(player, i) for i in draws]
            moves = list(dict.fromkeys(sampled))
        if not moves:
            raise RulesError(f"P{player} is to act and has no legal move")
        return moves

    def modelled(self, player: int) -> bool:
        """Whether ``player``'s decisions follow the evaluation rather than the search."""
        return self.bot.model_opponents and player != self.me

    def model(self, node: Node, engine: Engine, player: int, tag: int | None) -> Any:
        """The available move ``player`` values most by the evaluation just after it: each move's
        value is worked out once per node (as a prior, which no iteration then changes)."""
        stats = node.stats
        best: Any = None
        best_value = -1.0
        for move in self.moves(engine, player):
            key = move if tag is None else (tag, move)
            stat = stats.get(key)
            if stat is None:
                stat = stats[key] = self.prior(engine, move, player)
            value = stat.total / stat.visits
            if value > best_value:
                best, best_value = move, value
        return best

    def prior(self, engine: Engine, move: Any, player: int) -> Stat:
        """A move's first statistics: ``prior_weight`` virtual visits worth the player's reward
        just after the move."""
        after = engine.copy()
        after.apply(move, player)
        weight = self.bot.prior_weight
        return Stat(weight, weight * self.rewards(after)[player], 0, 0)

    def select(self, node: Node, engine: Engine, player: int, tag: int | None) -> tuple[Any, Stat]:
        """UCB over the moves available in this determinisation (availability counted). A move
        seen here for the first time gets its prior, or, at a node with too many moves for
        priors, is tried before any move is tried twice. ``tag`` keys the statistics by player
        at a joint decision."""
        moves = self.moves(engine, player)
        stats = node.stats
        with_priors = len(moves) <= self.bot.prior_moves
        untried = []
        best: Any = None
        best_stat: Stat | None = None
        best_score = -1.0
        c = self.bot.exploration
        log = math.log
        sqrt = math.sqrt
        for move in moves:
            key = move if tag is None else (tag, move)
            stat = stats.get(key)
            if stat is None:
                if not with_priors:
                    untried.append(move)
                    continue
                stat = stats[key] = self.prior(engine, move, player)
            stat.available += 1
            if untried:
                continue
            visits = stat.visits
            score = stat.total / visits + c * sqrt(log(stat.available) / visits)
            if score > best_score:
                best, best_stat, best_score = move, stat, score
        if untried:
            move = untried[int(self.rng.random() * len(untried))] if len(untried) > 1 else untried[0]
            stat = stats[move if tag is None else (tag, move)] = Stat(0, 0.0, 1, 0)
            return move, stat
        assert best_stat is not None
        return best, best_stat

    def rollout(self, engine: Engine) -> list[float]:
        """Random play for ``rollout_depth`` decisions (or to the end), then every player's reward.
        A cut-off may fall on a chance event: the evaluation values it as the average of its
        outcomes, which is exact where a game's hook says so and spares the search the noise of
        one sampled outcome."""
        depth = self.bot.rollout_depth
        sample = self.bot.rollout_sample
        rng = self.rng
        steps = 0
        while not engine.is_over and (depth is None or steps < depth):
            if engine.is_chance or sample == 1:
                steps += not engine.is_chance
                engine.random_step(rng)
                continue
            steps += 1
            player = engine.pick_player(rng)
            engine.apply(self.best_of(engine, player, sample), player)
        return self.rewards(engine)

    def best_of(self, engine: Engine, player: int, sample: int) -> Any:
        """The best by the evaluation (the player's margin) of ``sample`` random legal moves."""
        best, best_value = None, -math.inf
        for _ in range(sample):
            move = engine.random_move(self.rng, player)
            after = engine.copy()
            after.apply(move, player)
            value = _margin(self.evaluate(after), player)
            if value > best_value:
                best, best_value = move, value
        return best


def _ranked(root: Node, player: int) -> list[tuple[Any, Stat]]:
    """``player``'s moves at the root with their statistics, best first: most visits by the
    search itself, then the better average reward."""
    mine = [
        (key[1] if root.joint else key, stat)
        for key, stat in root.stats.items()
        if not root.joint or key[0] == player
    ]
    return sorted(mine, key=lambda pair: (pair[1].real, pair[1].total / pair[1].visits), reverse=True)


def _decided(root: Node, player: int, left: int) -> bool:
    """Whether the root move visited most is so far ahead that the iterations ``left`` could not
    change the choice (it would then only cost time): stopping changes no decision."""
    first = second = 0.0
    for key, stat in root.stats.items():
        if root.joint and key[0] != player:
            continue
        real = stat.real
        if real > first:
            first, second = real, first
        elif real > second:
            second = real
    return first - second > left


def _margin(values: Sequence[float], player: int) -> float:
    """``player``'s value minus the best other player's."""
    return values[player] - max(v for q, v in enumerate(values) if q != player)
