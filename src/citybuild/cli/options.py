"""What the commands read from their arguments: integers, and rule options typed by the game."""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from citybuild.core.errors import NotationError
from citybuild.core.registry import GameSpec, spec
from citybuild.serialize import structure_options
from citybuild.userfiles import UserError

OPTION_TEXT_LIMIT = 10_000
"""The longest ``--option`` value read (real ones are a few dozen characters)."""
INTEGER_DIGITS = 100
"""The most digits an integer argument may have (Python's own limit is 4300)."""
OPTION_DEPTH_LIMIT = 8
"""How deeply an ``--option`` value may nest (real ones are a dict of numbers or strings at most)."""
_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{INTEGER_DIGITS}}}")


def integer(text: str) -> int:
    """An integer argument in ASCII digits: ``int()`` alone reads '٣' as 3 and refuses 5000 digits
    with a ValueError that argparse reports without saying why."""
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected an integer of at most {INTEGER_DIGITS} ASCII digits, got {text!r}")
    return int(text)


def preset_spec(game: str, preset: str) -> GameSpec:
    """The game's spec, once the game and the preset are known to exist."""
    game_spec = spec(game)
    if preset not in game_spec.presets:
        raise UserError(f"unknown preset {preset!r} for {game_spec.name}; presets are: {', '.join(game_spec.presets)}")
    return game_spec


def rule_options(game: str, preset: str, pairs: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs, each VALUE read as JSON when it is JSON (``4``, ``true``, ``{"2": 3}``)
    and as a plain string otherwise, then typed by the game's Rules class. The game and preset
    are checked first (their errors would otherwise come out as an option's)."""
    preset_spec(game, preset)
    raw: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or not name:
            raise UserError(f"--option expects NAME=VALUE, got {pair!r}")
        raw[name] = _option_value(name, text)
    try:
        typed = structure_options(game, preset, raw, "--option")
    except NotationError as exc:
        where = (exc.where or "").removeprefix("--option.")
        message = str(exc).split(": ", 1)[-1]
        raise UserError(f"--option {where}: {message}") from None
    base = spec(game).presets[preset].options()
    for name, value in typed.items():
        if isinstance(value, dict) and isinstance(base.get(name), dict):
            typed[name] = {**base[name], **value}  # a partial dict changes only the keys it names
    return typed


def _option_value(name: str, text: str) -> Any:
    """``text`` read as JSON when it is JSON, else the string itself; a value too long or too deeply
    nested to be an option, or JSON that Python cannot hold (an integer of more than 4300 digits),
    is a ``UserError``."""
    if len(text) > OPTION_TEXT_LIMIT:
        raise UserError(f"--option {name}: the value is {len(text)} characters long; the limit is {OPTION_TEXT_LIMIT}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    except RecursionError:
        raise UserError(f"--option {name}: the value is nested too deeply") from None
    except ValueError as exc:  # an integer beyond Python's digit limit for str -> int
        raise UserError(f"--option {name}: the value is not readable JSON ({exc})") from None
    if _depth(value) > OPTION_DEPTH_LIMIT:
        raise UserError(f"--option {name}: the value is nested more than {OPTION_DEPTH_LIMIT} levels deep")
    return value


def option_text(value: Any) -> str:
    """How ``--option`` and ``--vary`` spell ``value``: JSON, except a string that JSON would not
    read (``owner`` rather than ``"owner"``)."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            return value
    return json.dumps(value, separators=(",", ":"))


def _depth(value: Any) -> int:
    """How deeply a JSON value nests (0 for a number or string), found without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= OPTION_DEPTH_LIMIT:
                return depth + 1
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
            deepest = max(deepest, depth + 1)
    return deepest
