"""``check_game``: the conformance run every game (built in or plugin) must pass.

It plays random games to the end for every preset and player count and, at every step, checks
that the game keeps the promises of the State protocol: legal moves and ``check`` agree, refused
moves carry explained violations and change nothing, positions validate, and text and JSON
round-trip. At the end it checks records, replay, undo/redo and determinism under a disturbed
global ``random``.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from citybuild.core.errors import IllegalMoveError
from citybuild.core.game import Game, State
from citybuild.core.registry import load, spec
from citybuild.core.scoresheet import ScoreSheet
from citybuild.core.view import View
from citybuild.match import Match, replay
from citybuild.serialize import from_json, to_json
from citybuild.testing.candidates import illegal_candidates


class ConformanceError(AssertionError):
    """A game broke a promise of the State protocol; the message says which, where and how."""


@attrs.frozen
class CheckReport:
    """What a ``check_game`` run covered."""

    game: str
    configurations: tuple[str, ...]
    games_played: int
    steps: int
    legal_checked: int
    illegal_checked: int

    def __str__(self) -> str:
        return (
            f"{self.game}: {self.games_played} games over {len(self.configurations)} configurations, "
            f"{self.steps} steps, {self.legal_checked} legal and {self.illegal_checked} illegal moves checked"
        )


@attrs.define
class _Counts:
    games: int = 0
    steps: int = 0
    legal: int = 0
    illegal: int = 0


def check_game(
    game: Game | str,
    *,
    presets: Iterable[str] | None = None,
    players: Iterable[int] | None = None,
    seeds: Iterable[int] = (0,),
    legal_sample: int = 12,
    illegal_sample: int = 4,
    every: int = 1,
    max_steps: int = 20_000,
) -> CheckReport:
    """Run the conformance checks on a game; raise ``ConformanceError`` (an AssertionError) at the
    first broken promise.

    ``game`` is a loaded Game (checked as is) or a registered name (checked for every preset and
    player count, or those given). Per step, up to ``legal_sample`` legal moves and
    ``illegal_sample`` refused candidates are checked; the costlier checks (JSON, notation, views)
    run every ``every`` steps.
    """
    if isinstance(game, Game):
        configs = [game]
        name = game.name
    else:
        name = game
        game_spec = spec(name)
        wanted_presets = tuple(presets) if presets is not None else tuple(game_spec.presets)
        counts = tuple(players) if players is not None else range(game_spec.min_players, game_spec.max_players + 1)
        configs = [load(name, players=n, preset=p) for p in wanted_presets for n in counts]
    totals = _Counts()
    labels = []
    for config in configs:
        labels.append(f"{config.name}/{config.preset}/{config.players}p")
        for seed in seeds:
            _GameRun(config, seed, legal_sample, illegal_sample, max(1, every), max_steps, totals).run()
    return CheckReport(name, tuple(labels), totals.games, totals.steps, totals.legal, totals.illegal)


class _GameRun:
    def __init__(
        self, game: Game, seed: int, legal_sample: int, illegal_sample: int, every: int, max_steps: int, totals: _Counts
    ) -> None:
        self.game = game
        self.spec = game.spec
        self.seed = seed
        self.legal_sample = legal_sample
        self.illegal_sample = illegal_sample
        self.every = every
        self.max_steps = max_steps
        self.totals = totals
        self.sampler = random.Random(seed ^ 0x5EED)
        self.step = 0
        self.state: State | None = None
        self.seen: dict[str, Any] = {}  # moves met earlier in this game: candidates for refusal later

    # --- failures ----------------------------------------------------------------------------
    def fail(self, message: str) -> ConformanceError:
        where = f"{self.game.name}/{self.game.preset}/{self.game.players}p seed={self.seed} step {self.step}"
        position = ""
        if self.state is not None:
            try:
                position = f"\n  position: {self.state.notation()}"
            except Exception as exc:  # the notation itself may be what is broken
                position = f"\n  position: <notation failed: {exc!r}>"
        return ConformanceError(f"{where}: {message}{position}")

    def expect(self, ok: bool, message: str) -> None:
        if not ok:
            raise self.fail(message)

    def sample(self, items: Sequence[Any], k: int) -> list[Any]:
        """Up to ``k`` distinct items, in list order, drawn with ``random()`` only (a big list is
        never copied or shuffled)."""
        if len(items) <= k:
            return list(items)
        picked: set[int] = set()
        while len(picked) < k:
            picked.add(int(self.sampler.random() * len(items)))
        return [items[i] for i in sorted(picked)]

    # --- the run -------------------------------------------------------------------------------
    def run(self) -> None:
        match = Match(self.game, seed=self.seed, auto_chance=False)
        while not match.state.is_over:
            self.state = match.state
            self.check_state(match)
            if match.state.is_chance:
                match.resolve_chance()
            else:
                actors = match.state.to_act
                player = actors[int(match.random() * len(actors))]
                match.play(match.random_move(player), player)
            self.step += 1
            self.expect(self.step <= self.max_steps, f"the game did not end within {self.max_steps} steps")
        self.state = match.state
        self.check_state(match)
        self.check_end(match)
        self.check_playout()
        self.totals.games += 1
        self.totals.steps += self.step

    def check_state(self, match: Match) -> None:
        state = self.state
        assert state is not None
        try:
            state.validate()
        except Exception as exc:
            raise self.fail(f"validate() refused a position reached by legal play: {exc!r}") from exc
        self.check_turn(state)
        if state.is_chance:
            self.check_chance(state)
            actors: tuple[int | None, ...] = (None,)
        else:
            actors = state.to_act
        for player in actors:
            self.check_moves(state, match, player)
        if self.step % self.every == 0 or state.is_over:
            self.expect(
                type(state) is self.spec.state or type(state) in self.spec.json_types,
                f"the position is a {type(state).__name__}, which the GameSpec does not declare (state=)",
            )
            self.check_text(state)
            self.check_views(state)

    def check_turn(self, state: State) -> None:
        n = self.game.players
        to_act = state.to_act
        engine = state.thaw()
        self.expect(
            (to_act, state.is_chance, state.is_over) == (engine.to_act, engine.is_chance, engine.is_over),
            "the state and its engine disagree on who acts, chance or the end",
        )
        self.expect(all(0 <= p < n for p in to_act), f"to_act {to_act} names a seat outside 0..{n - 1}")
        self.expect(len(set(to_act)) == len(to_act), f"to_act {to_act} names a seat twice")
        if state.is_chance or state.is_over:
            self.expect(to_act == (), f"to_act must be () at a chance state or the end, got {to_act}")
        else:
            self.expect(bool(to_act), "nobody is to act, yet this is neither a chance state nor the end")
        self.expect(not (state.is_chance and state.is_over), "a state is both a chance state and over")
        sheet = state.scores()
        self.expect(isinstance(sheet, ScoreSheet), f"scores() returned {type(sheet).__name__}, not a ScoreSheet")
        self.expect(sheet.players == n and len(sheet.totals) == n, "the score sheet is not for this player count")
        if state.is_over:
            self.expect(bool(state.winners()), "the game is over but has no winner")
            self.expect(set(state.winners()) <= set(range(n)), f"winners {state.winners()} are not seats")
            self.expect(state.legal_moves() == (), "a finished game still has legal moves")
        else:
            self.expect(state.winners() == (), "winners() must be () while the game is not over")
        for p in range(n):
            if p not in to_act and not state.is_chance:
                self.expect(state.legal_moves(p) == (), f"P{p} is not to act but has legal moves")

    def check_chance(self, state: State) -> None:
        outcomes = state.chance_outcomes()
        self.expect(bool(outcomes), "a chance state has no outcomes")
        self.expect(
            all(isinstance(p, Fraction) and p > 0 for _, p in outcomes),
            "chance probabilities must be positive Fractions",
        )
        if all(isinstance(p, Fraction) for _, p in outcomes):  # summed in integers: a roll may have 10**5+
            denominator = math.lcm(*(p.denominator for _, p in outcomes))
            total = sum(p.numerator * (denominator // p.denominator) for _, p in outcomes)
            self.expect(total == denominator, "chance probabilities do not sum to 1")
        try:
            distinct = len({o for o, _ in outcomes})
        except TypeError:  # unhashable outcomes
            distinct = len({repr(o) for o, _ in outcomes})
        self.expect(distinct == len(outcomes), "a chance outcome is listed twice")

    def check_moves(self, state: State, match: Match, player: int | None) -> None:
        game = self.game
        legal = state.legal_moves(player)
        self.expect(bool(legal), f"{'chance' if player is None else f'P{player}'} is to act but has no legal move")
        try:
            drawn = state.random_move(random.Random(int(self.sampler.random() * 2**53)), player)
        except Exception as exc:
            raise self.fail(f"random_move(rng, {player}) failed: {exc!r}") from exc
        verdict = state.check(drawn, player)
        self.expect(verdict.ok, f"random_move(rng, {player}) drew {drawn}, which check() refuses: {verdict}")
        if player is not None:
            self.check_engine(state, player, legal)
        declared = self.spec.outcomes if player is None and state.is_chance else self.spec.moves
        for move in self.sample(legal, self.legal_sample):
            self.expect(
                type(move) in declared,
                f"{move!r} is a {type(move).__name__}, which {type(self.game).__name__} does not declare "
                f"({'outcomes' if declared is self.spec.outcomes else 'moves'} =)",
            )
            self.seen.setdefault(repr(move), move)
            self.totals.legal += 1
            verdict = state.check(move, player)
            self.expect(verdict.ok, f"legal move {move} (P{player}) is refused by check(): {verdict}")
            try:
                back = game.parse_move(str(move))
            except Exception as exc:
                raise self.fail(f"the notation {str(move)!r} of legal move {move!r} does not parse: {exc}") from exc
            self.expect(back == move, f"parse_move({str(move)!r}) gives {back!r}, not {move!r}")
            self.check_lookalikes(state, move, player)
            if player is not None:
                for other in range(game.players):
                    if other not in state.to_act:
                        self.expect(not state.check(move, other).ok, f"P{other}, not to act, may play {move}")
        before = state.notation()
        history = match.history
        candidates = illegal_candidates(state, player, limit=self.illegal_sample, rng=self.sampler, pool=self.seen)
        for move in candidates:
            self.totals.illegal += 1
            verdict = state.check(move, player)
            self.expect(not verdict.ok, f"{move} is not in legal_moves() but check() says it is legal")
            for violation in verdict.violations:
                self.expect(
                    bool(violation.code and violation.rule and violation.message),
                    f"refusing {move}: a violation lacks a code, rule or message: {violation!r}",
                )
            try:
                state.play(move, player)
            except IllegalMoveError as exc:
                self.expect(exc.verdict == verdict, f"play({move}) raised a verdict different from check()")
            else:
                raise self.fail(f"play({move}) accepted a move that check() refuses: {verdict}")
            try:
                match.play(move, player)
            except IllegalMoveError:
                pass
            else:
                raise self.fail(f"Match.play({move}) accepted a refused move")
            self.expect(state.notation() == before, f"refusing {move} changed the position")
            self.expect(match.history == history and match.state is state, f"refusing {move} changed the match")

    def check_text(self, state: State) -> None:
        game = self.game
        text = state.notation()
        try:
            back = game.parse_state(text)
        except Exception as exc:
            raise self.fail(f"parse_state(notation()) failed: {exc!r}") from exc
        self.expect(back == state, f"parse_state(notation()) gives a different position:\n  {back.notation()}")
        data = to_json(state)
        try:
            again = from_json(data)
        except Exception as exc:
            raise self.fail(f"from_json(to_json(state)) failed: {exc!r}") from exc
        self.expect(again == state, "from_json(to_json(state)) is a different position")
        self.expect(to_json(again) == data, "to_json(from_json(to_json(state))) differs (a field is lost in JSON)")

    def check_views(self, state: State) -> None:
        for p in range(self.game.players):
            try:
                view = state.view(p)
            except NotImplementedError as exc:  # no view written and none the spec can derive
                message = f"view({p}) cannot be made: {exc}; the GameSpec does not declare a PositionView"
                raise self.fail(message) from exc
            self.expect(
                type(view) is self.spec.view or type(view) in self.spec.json_types,
                f"view({p}) is a {type(view).__name__}, which the GameSpec does not declare (view=)",
            )
            self.expect(view == state.view(p), f"view({p}) is not deterministic")
            try:
                again = from_json(to_json(view))
            except Exception as exc:
                raise self.fail(f"view({p}) does not round-trip through JSON: {exc!r}") from exc
            self.expect(again == view, f"view({p}) changes through JSON")
            if self.spec.hidden_variants is not None:
                for variant in self.spec.hidden_variants(state, p):
                    self.expect(variant.view(p) == view, f"view({p}) reveals something hidden from P{p}")
            if p == self.step % self.game.players:  # one seat per step keeps the run quick
                self.check_decisions(state, p, view)

    def check_decisions(self, state: State, p: int, view: Any) -> None:
        """DESIGN principle 9: a view lists its player's legal moves, and determinisation gives a
        position with the same view."""
        if not isinstance(view, View):
            raise self.fail(f"{type(view).__name__} does not derive from citybuild.core.view.View")
        try:
            filled = self.game.determinize(view, random.Random(self.seed))
        except Exception as exc:
            raise self.fail(f"determinize(view({p})) failed: {exc!r}") from exc
        self.expect(filled.view(p) == view, f"determinize(view({p})) gives a position with another view")
        self.expect(
            tuple(view.legal_moves()) == tuple(state.legal_moves(p)),
            f"view({p}).legal_moves() differs from state.legal_moves({p})",
        )

    def check_lookalikes(self, state: State, move: Any, player: int | None) -> None:
        """A legal move with an int field turned into an equal float or bool is no move: ``play``
        refuses it as ``check`` does (an engine's ``is_legal`` must be strict about types)."""
        for field in attrs.fields(type(move)):
            value = getattr(move, field.name)
            if type(value) is not int:
                continue
            for twin in (float(value), *((bool(value),) if value in (0, 1) else ())):
                lookalike = copy.copy(move)
                object.__setattr__(lookalike, field.name, twin)
                self.expect(not state.check(lookalike, player).ok, f"check() accepts {lookalike!r}")
                try:
                    state.play(lookalike, player)
                except IllegalMoveError:
                    continue
                raise self.fail(f"play() accepts {lookalike!r}, a {field.name} of the wrong type")

    def check_engine(self, state: State, player: int, legal: Sequence[Any]) -> None:
        """The engine's count, index and legality test agree with its listing (a lazy listing
        included), on a sample of indices."""
        engine = state.thaw()
        count = engine.count_moves(player)
        self.expect(count == len(legal), f"count_moves({player}) is {count} but legal_moves() lists {len(legal)}")
        listed = engine.legal_moves(player)
        self.expect(len(listed) == count, f"the engine lists {len(listed)} moves for P{player} but counts {count}")
        for index in sorted({int(self.sampler.random() * count) for _ in range(self.legal_sample)} | {0, count - 1}):
            nth = engine.nth_move(player, index)
            self.expect(nth == legal[index], f"nth_move({player}, {index}) is {nth}, not legal_moves()[{index}]")
            self.expect(nth == listed[index], f"nth_move({player}, {index}) is {nth}, not the engine's listing")
            self.expect(engine.is_legal(nth, player), f"is_legal({nth}, {player}) is False for a legal move")

    def check_playout(self) -> None:
        """``playout`` (the engine, in place) plays the game that stepping through the public
        ``random_step`` plays, from the start and from the middle of a game."""
        start = self.game.initial_state()
        middle: State = start
        rng = random.Random(self.seed)
        for _ in range(40):
            if middle.is_over:
                break
            middle = middle.random_step(rng)
        for origin in (start, middle):
            fast, fast_steps = origin.playout(random.Random(self.seed + 1))
            slow, slow_steps = origin, 0
            stepper = random.Random(self.seed + 1)
            while not slow.is_over and slow_steps <= self.max_steps:
                slow, slow_steps = slow.random_step(stepper), slow_steps + 1
            self.expect(
                fast == slow and fast_steps == slow_steps,
                f"playout() gives {fast_steps} steps to {fast.notation()!r}, but stepping random_step gives "
                f"{slow_steps} steps to {slow.notation()!r}",
            )

    def check_end(self, match: Match) -> None:
        record = match.record()
        state = match.state
        self.expect(record.result is not None, "the record of a finished game has no result")
        text = to_json(record)
        again = from_json(text)
        self.expect(again == record, "from_json(to_json(record)) differs from the record")
        replayed = replay(again)
        self.expect(replayed.state == state, "replaying the record does not reach the same position")
        self.expect(replayed.history == match.history, "replaying the record gives another history")
        # Determinism: the same seed and the same random choices give the same record, whatever
        # anyone does with the global random module meanwhile.
        saved = random.getstate()
        try:
            other = Match(self.game, seed=self.seed, auto_chance=False)
            disturb = 0
            while not other.state.is_over:
                random.seed(disturb)
                random.random()
                disturb += 1
                if other.state.is_chance:
                    other.resolve_chance()
                else:
                    actors = other.state.to_act
                    player = actors[int(other.random() * len(actors))]
                    other.play(other.random_move(player), player)
        finally:
            random.setstate(saved)
        self.expect(other.record() == record, "the same seed gave another game when the global random state changed")
        # Undo and redo put back exactly the same positions.
        undone = [other.undo() for _ in range(3)]
        for _ in undone:
            other.redo()
        self.expect(other.state == state and other.history == match.history, "undo then redo changed the match")
