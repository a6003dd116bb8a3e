"""A tune's search space: the rule options it varies, each over a list of choices or a range of
integers, and the candidates (one value per option) it may play.

An option is named as ``cb.load`` names it (``yard_take``) or, for a dict option, with one key
(``tile_counts.4``). An integer range is not played point by point: the search starts from a few
evenly spaced values and adds the values between the best one and its neighbours as it goes.
Options that have no effect under the chosen rules (as the game declares, ``ONLY_WITH``) are set
aside with the reason, never searched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from citybuild.core.errors import NotationError, RulesError
from citybuild.core.registry import spec
from citybuild.core.rules import ONLY_WITH
from citybuild.serialize import structure_options

START_POINTS = 5
"""How many evenly spaced values of an integer range the search plays first."""
Candidate = tuple[tuple[str, Any], ...]
"""One value per varied option, in the space's order: ``(("yard_take", 4), ("blue_min_height", 3))``."""


@attrs.frozen
class Dimension:
    """One varied option: its name (``yard_take`` or ``tile_counts.4``) and its values."""

    name: str
    values: tuple[Any, ...]
    """Every value it may take, in order (for a range: every integer from low to high)."""
    integer_range: bool = False

    @property
    def option(self) -> str:
        return self.name.partition(".")[0]

    @property
    def key(self) -> str | None:
        return self.name.partition(".")[2] or None

    def start(self) -> tuple[Any, ...]:
        """The values played first: every choice, or a few evenly spaced integers of a range."""
        if not self.integer_range or len(self.values) <= START_POINTS:
            return self.values
        last = len(self.values) - 1
        picks = sorted({round(i * last / (START_POINTS - 1)) for i in range(START_POINTS)})
        return tuple(self.values[i] for i in picks)


def dimension(name: str, values: Sequence[Any] | range) -> Dimension:
    """A dimension from an option name and its values: a ``range`` of integers is searched by
    refinement, any other sequence is a list of choices."""
    if not isinstance(name, str) or not name or name.startswith(".") or name.count(".") > 1:
        raise RulesError(f"a varied option is NAME or NAME.KEY, not {name!r}")
    if isinstance(values, range):
        if len(values) < 2 or values.step != 1:
            raise RulesError(f"{name}: a range of values needs at least two integers, step 1, not {values!r}")
        return Dimension(name, tuple(values), integer_range=True)
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise RulesError(f"{name}: expected a list of values or a range, not {values!r}")
    chosen = tuple(dict.fromkeys(_hashable(v) for v in values))
    if len(chosen) < 2:
        raise RulesError(f"{name}: a varied option needs at least two different values, not {list(values)!r}")
    return Dimension(name, chosen)


def _hashable(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def parse_vary(text: str) -> Dimension:
    """``NAME=V1,V2,...`` (choices, each read as JSON when it is JSON, else as text) or
    ``NAME=LO..HI`` (the integers from LO to HI)."""
    name, eq, rest = text.partition("=")
    if not eq or not name or not rest:
        raise RulesError(f"--vary expects NAME=V1,V2,... or NAME=LO..HI, got {text!r}")
    low, dots, high = rest.partition("..")
    if dots:
        try:
            a, b = int(low), int(high)
        except ValueError:
            raise RulesError(f"--vary {name}: a range is LO..HI with two integers, not {rest!r}") from None
        if b <= a:
            raise RulesError(f"--vary {name}: the range {rest} is empty or one value; HI must exceed LO")
        return dimension(name, range(a, b + 1))
    return dimension(name, [_value(item.strip()) for item in rest.split(",")])


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


@attrs.frozen
class Space:
    """The searched options of a game under a preset, and those set aside as having no effect."""

    game: str
    preset: str
    dimensions: tuple[Dimension, ...]
    inert: Mapping[str, str] = attrs.field(factory=dict)
    """Option name -> why it has no effect under these rules (``"finite_tile_supply is False"``)."""

    def baseline(self) -> Candidate:
        """The preset's own value of every dimension (the candidate the tune compares against)."""
        options = spec(self.game).presets[self.preset].options()
        out = []
        for d in self.dimensions:
            value = options[d.option]
            if d.key is not None:
                value = {str(k): v for k, v in value.items()}[d.key]
            out.append((d.name, _hashable(value)))
        return tuple(out)

    def start(self) -> list[Candidate]:
        """The candidates of the first round: every combination of each dimension's first values."""
        combos: list[Candidate] = [()]
        for d in self.dimensions:
            combos = [(*c, (d.name, v)) for c in combos for v in d.start()]
        return combos

    def refine(self, best: Candidate, seen: Iterable[Candidate]) -> list[Candidate]:
        """New candidates around ``best``: in each integer range, the values halfway between its
        value there and the nearest values already played on either side (other options as in
        ``best``)."""
        played = set(seen)
        out: list[Candidate] = []
        for i, d in enumerate(self.dimensions):
            if not d.integer_range:
                continue
            value = best[i][1]
            along = sorted({c[i][1] for c in played if c[:i] + c[i + 1 :] == best[:i] + best[i + 1 :]})
            lower = [v for v in along if v < value]
            upper = [v for v in along if v > value]
            for other in (lower[-1] if lower else None, upper[0] if upper else None):
                if other is None or abs(other - value) < 2:
                    continue
                middle = (value + other) // 2 if other < value else (value + other + 1) // 2
                candidate = (*best[:i], (d.name, middle), *best[i + 1 :])
                if candidate not in played and candidate not in out:
                    out.append(candidate)
        return out

    def options(self, candidate: Candidate) -> dict[str, Any]:
        """The candidate as ``cb.load`` keyword options, typed by the game's rules (a dict option's
        other keys as the preset's); ``RulesError`` for a value of a type the option cannot hold (the
        rules check the value itself when the game is loaded)."""
        base = spec(self.game).presets[self.preset].options()
        out: dict[str, Any] = {}
        for name, value in candidate:
            option, _, key = name.partition(".")
            value = json.loads(value) if isinstance(value, str) and value[:1] in "[{" else value
            if key:
                whole = out.setdefault(option, {str(k): v for k, v in base[option].items()})
                whole[key] = value
            else:
                out[option] = value
        try:
            return structure_options(self.game, self.preset, out, "vary")
        except NotationError as exc:
            raise RulesError(f"{self.game} {self.preset}: {exc}") from None


def space(game: str, preset: str, vary: Mapping[str, Sequence[Any] | range] | Sequence[Dimension]) -> Space:
    """The search space of ``vary`` (option name -> values, or dimensions) under ``preset``,
    with the options the rules declare to have no effect there set aside."""
    known = spec(game).presets
    if preset not in known:
        raise RulesError(f"unknown preset {preset!r} for {game}; presets are: {', '.join(known)}")
    dims = list(vary) if not isinstance(vary, Mapping) else [dimension(k, v) for k, v in vary.items()]
    if not dims:
        raise RulesError("a tune varies at least one option")
    names = [d.name for d in dims]
    if len(set(names)) < len(names):
        raise RulesError(f"an option is varied twice: {', '.join(names)}")
    rules = known[preset]
    fields = attrs.fields_dict(type(rules))
    varied = {d.option for d in dims}
    inert: dict[str, str] = {}
    kept = []
    for d in dims:
        if d.option not in fields:
            raise RulesError(f"unknown option {d.option!r} for {game}; options are: {', '.join(fields)}")
        if d.key is not None and not isinstance(getattr(rules, d.option), dict):
            raise RulesError(f"{d.name}: {d.option} is not a dict option, so it has no keys")
        reason = rules.inert(d.option)
        if reason is not None and not set(fields[d.option].metadata.get(ONLY_WITH, {})) & varied:
            inert[d.name] = f"no effect in {preset}: {reason}"
        else:
            kept.append(d)
    if not kept:
        raise RulesError(f"no varied option has an effect in {game} {preset}: " + "; ".join(inert.values()))
    return Space(game, preset, tuple(kept), inert)
