"""Rules as data: a frozen attrs class per game, validated fields, presets as named values."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import attrs

from citybuild.core.errors import RulesError

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


class FrozenDict(dict[Any, Any]):
    """A dict option value that cannot change and can be hashed.

    ``Rules`` are frozen values shared by presets, games and states; a plain dict inside one
    could be changed behind the validators' back (and made every game unhashable). It is still a
    dict for reading, comparing and JSON, and its repr is a plain dict literal.
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("rule options cannot be changed; load a variant with cb.load(..., option=value)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


def frozen_dict(value: Any) -> Any:
    """attrs converter: a dict option becomes a ``FrozenDict``; anything else is left for the validator."""
    return FrozenDict(value) if isinstance(value, dict) and not isinstance(value, FrozenDict) else value


def allowing(text: str) -> Callable[[Validator], Validator]:
    """Decorator: a validator that says, in ``text``, which values it allows (``citybuild rules``
    prints it). The core validators below say so themselves."""

    def mark(check: Validator) -> Validator:
        check.allowed = text  # type: ignore[attr-defined]
        return check

    return mark


@attrs.frozen
class OptionInfo:
    """One option of a game's Rules as ``citybuild rules`` shows it."""

    name: str
    value: Any
    meaning: str
    allowed: str


READS_FILE = "reads_file"
"""The metadata key of an option whose value is the path of a file read when the rules are made;
its value names the option that holds the file's text instead (what records and JSON carry)."""
ONLY_WITH = "only_with"
"""The metadata key of an option that matters only while other options hold certain values: a dict
from each such option's name to the tuple of its values under which this one has an effect
(Skyline's ``tile_counts`` only while ``finite_tile_supply`` is True)."""
MAX_DATA_BYTES = 1 << 20
"""The largest data file read: a path such as ``/dev/zero`` is refused instead of filling the memory."""


def read_data_text(path: str, option: str) -> str:
    """A data file's text, at most ``MAX_DATA_BYTES``; ``RulesError`` when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_DATA_BYTES + 1)
    except OSError as exc:
        raise RulesError(f"{option}: cannot read {path!r}: {exc.strerror or exc}") from exc
    if len(data) > MAX_DATA_BYTES:
        raise RulesError(f"{option}: {path!r} is larger than {MAX_DATA_BYTES:,} bytes; a data file is a few kilobytes")
    try:
        return data.decode("utf-8")
    except ValueError as exc:
        raise RulesError(f"{option}: {path!r} is not UTF-8 text: {exc}") from exc


class RulesBase:
    """Mixin for every game's ``Rules``: option listing and overrides with clear errors.

    A game's Rules may set ``meanings``, a dict from option name to what it means (the rule IDs
    included), shown by ``describe()`` and ``citybuild rules`` next to the values it allows."""

    meanings: ClassVar[Mapping[str, str]] = {}

    def describe(self) -> tuple[OptionInfo, ...]:
        """Every option: its value here, what it means and which values it allows."""
        out = []
        for f in attrs.fields(type(self)):  # type: ignore[arg-type]
            allowed = getattr(f.validator, "allowed", None) or "see the rules reference"
            out.append(OptionInfo(f.name, getattr(self, f.name), self.meanings.get(f.name, ""), allowed))
        return tuple(out)

    @classmethod
    def file_options(cls) -> tuple[str, ...]:
        """The options whose value names a file to read (``READS_FILE``): a server never takes
        them from a client, since the answer would tell what the file holds or that it exists."""
        return tuple(f.name for f in attrs.fields(cls) if f.metadata.get(READS_FILE))  # type: ignore[arg-type]

    def inert(self, name: str) -> str | None:
        """Why option ``name`` has no effect under these rules (``"finite_tile_supply is False"``),
        or None when it may have one (as far as the game declares, in ``ONLY_WITH``)."""
        field = attrs.fields_dict(type(self)).get(name)  # type: ignore[arg-type]
        if field is None:
            names = [f.name for f in attrs.fields(type(self))]  # type: ignore[arg-type]
            raise RulesError(f"unknown option {name!r}; options are: {', '.join(names)}")
        for other, values in field.metadata.get(ONLY_WITH, {}).items():
            value = getattr(self, other)
            if value not in values:
                return f"{other} is {value!r}"
        return None

    def held_options(self) -> dict[str, Any]:
        """``options()`` with each file that an option names read into the option that holds its
        text: what a record or a JSON document carries, so that reading it reads no other file."""
        out = self.options()
        for f in attrs.fields(type(self)):  # type: ignore[arg-type]
            holder = f.metadata.get(READS_FILE)
            if holder and out[f.name] is not None:
                out[holder] = read_data_text(out[f.name], f.name)
                out[f.name] = None
        return out

    def options(self) -> dict[str, Any]:
        """Every option with its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in attrs.fields(type(self))}  # type: ignore[arg-type]

    def replace(self, **overrides: Any) -> Any:
        """A new Rules value with some options changed; unknown names raise ``RulesError``."""
        names = [f.name for f in attrs.fields(type(self))]  # type: ignore[arg-type]
        unknown = sorted(set(overrides) - set(names))
        if unknown:
            raise RulesError(f"unknown option {unknown[0]!r}; options are: {', '.join(names)}")
        try:
            return attrs.evolve(self, **overrides)  # type: ignore[misc]
        except RulesError:
            raise
        except (TypeError, ValueError) as exc:  # pragma: no cover - validators raise RulesError
            raise RulesError(str(exc)) from exc


def fail(attribute: attrs.Attribute[Any], value: Any, allowed: str) -> RulesError:
    return RulesError(f"option {attribute.name}={value!r} is not allowed; expected {allowed}")


def one_of(*choices: Any) -> Validator:
    allowed = "one of " + ", ".join(repr(c) for c in choices)

    @allowing(allowed)
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value not in choices:
            raise fail(attribute, value, allowed)

    return check


def int_between(low: int, high: int) -> Validator:
    @allowing(f"an integer from {low} to {high}")
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise fail(attribute, value, f"an integer from {low} to {high}")

    return check


@allowing("True or False")
def boolean(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise fail(attribute, value, "True or False")


def per_player_count(players: Iterable[int], low: int, high: int) -> Validator:
    """A dict giving an integer in [low, high] for each supported player count."""
    wanted = tuple(players)
    allowed = f"a dict with keys {list(wanted)} and integer values from {low} to {high}"

    @allowing(allowed)
    def check(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, dict) or sorted(value) != sorted(wanted):
            raise fail(attribute, value, allowed)
        for v in value.values():
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise fail(attribute, value, allowed)

    return check
