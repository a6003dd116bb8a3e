"""Compiled JSON readers: Python source, built once per type, that reads a JSON value into that
type in one pass and calls ``_miss()`` at the first thing that does not fit. The element-by-element
hooks of ``citybuild.jsonvalues`` (``explain``) then say what is wrong, with its path."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import attrs

from citybuild.jsontypes import NONE, SCALARS, fields, is_literal, is_namedtuple, is_tuple, is_union, namedtuple_types


class _Miss(Exception):
    """The compiled reader does not read this value; the explaining hooks say why (or read it)."""


def _miss() -> Any:
    raise _Miss


class Interned(dict[tuple[Any, ...], Any]):
    """Named tuples of scalars read from JSON, each value made once: a compiled reader looks a
    value up by the tuple of its fields (their types already checked), which costs a third of
    building it. Bounded: past ``LIMIT`` values, new ones are built and not kept."""

    LIMIT = 4096

    def __init__(self, cls: type) -> None:
        super().__init__()
        self.cls = cls

    def __missing__(self, key: tuple[Any, ...]) -> Any:
        value: Any = tuple.__new__(self.cls, key)
        if len(self) < self.LIMIT:
            self[key] = value
        return value


class Compiler:
    """Python source reading a JSON value into a type in one pass: each attrs class and tuple type
    becomes nested expressions that check JSON kinds and build the value, calling ``_miss()`` at
    the first thing that does not fit. A type it has no expression for (a dict, a union of
    objects) is read by its explaining hook."""

    def __init__(
        self, explain: Callable[[Any], Callable[[Any, Any], Any]], fitter: Callable[[Any], Callable[[Any], bool]]
    ) -> None:
        self.explain, self.fitter = explain, fitter
        self.env: dict[str, Any] = {"_miss": _miss, "_tnew": tuple.__new__}
        self.functions: dict[Any, str] = {}
        self.source: list[str] = []
        self.locals = 0

    def name(self, value: Any) -> str:
        self.env[f"_c{len(self.env)}"] = value
        return f"_c{len(self.env) - 1}"

    def local(self) -> str:
        self.locals += 1
        return f"_e{self.locals}"

    def returning(self, name: str, cls: Any) -> list[str]:
        return [f"def {name}(v):", f"    return {self.expr(cls, 'v')}"]

    def define(self, key: Any, lines: Callable[[str], list[str]]) -> str:
        if key not in self.functions:
            name = self.functions[key] = f"_f{len(self.functions)}"
            self.source.append("\n".join(lines(name)) + "\n")
        return self.functions[key]

    def attrs_function(self, cls: Any, passed: tuple[str, ...] = ()) -> str:
        """``f(v, *passed)``: an attrs class from a JSON object with exactly its fields; the
        fields named in ``passed`` are arguments, not read."""

        def lines(name: str) -> list[str]:
            known = [f for f in fields(cls) if f.init]
            keys = self.name(frozenset(f.name for f in known if f.name not in passed))
            params = "".join(f", {p}" for p in passed)
            out = [f"def {name}(v{params}):", f"    if type(v) is not dict or v.keys() != {keys}:", "        _miss()"]
            args = []
            for i, f in enumerate(known):
                value = f.name if f.name in passed else f"_a{i}"
                if f.name not in passed:
                    out.append(f"    {value} = v[{f.name!r}]")
                    value = self.expr(f.type, value)
                args.append(f"{f.alias}={value}" if f.kw_only else value)
            return [*out, f"    return {self.name(cls)}({', '.join(args)})"]

        return self.define((cls, passed), lines)

    def expr(self, cls: Any, v: str) -> str:
        """An expression reading ``v`` (a local name, or an index into one) as ``cls``."""
        if cls in SCALARS:
            return f"({v} if type({v}) is {cls.__name__} else _miss())"
        if is_literal(cls) and all(type(c) is str for c in typing.get_args(cls)):
            return f"({v} if type({v}) is str and {v} in {self.name(frozenset(typing.get_args(cls)))} else _miss())"
        if attrs.has(cls):
            return f"{self.attrs_function(cls)}({v})"
        args = typing.get_args(cls)
        if is_union(cls) and len(args) == 2 and NONE in args:
            return f"(None if {v} is None else {self.expr(args[0] if args[1] is NONE else args[1], v)})"
        if is_union(cls):
            return f"{self.define(('union', cls), lambda name: self.union_function(name, cls))}({v})"
        if not is_namedtuple(cls) and not (is_tuple(cls) and args):
            return f"{self.name(self.explain(cls))}({v}, {self.name(cls)})"
        if not v.isidentifier():  # an index expression is not repeated inside another: use a function
            return f"{self.define(cls, lambda name: self.returning(name, cls))}({v})"
        if is_namedtuple(cls):
            kinds = namedtuple_types(cls)
            if not all(k in SCALARS for k in kinds):  # read as the tuple of its field types
                return f"_tnew({self.name(cls)}, {self.expr(tuple[kinds], v)})"  # type: ignore[valid-type]
            checks = "".join(f" and type({v}[{i}]) is {k.__name__}" for i, k in enumerate(kinds))
            made = f"{self.name(Interned(cls))}[tuple({v})]"  # fields checked first: no bool finds an int's entry
            return f"({made} if type({v}) is list and len({v}) == {len(kinds)}{checks} else _miss())"
        if args[-1] is not Ellipsis:
            parts = "".join(f"{self.expr(k, f'{v}[{i}]')}, " for i, k in enumerate(args))
            return f"(({parts}) if type({v}) is list and len({v}) == {len(args)} else _miss())"
        item = args[0]
        if item in SCALARS:
            only = self.name(frozenset({item}))
            return f"(tuple({v}) if type({v}) is list and {only}.issuperset(map(type, {v})) else _miss())"
        if is_tuple(item) and typing.get_args(item)[-1:] == (Ellipsis,):
            return f"{self.rows(item)}({v})"
        each = self.local()
        made = f"tuple([{self.expr(item, each)} for {each} in {v}])"
        return f"(({made} if {v} else ()) if type({v}) is list else _miss())"

    def union_function(self, name: str, cls: Any) -> list[str]:
        """``f(v)``: the first arm ``v`` fits (``fitter``), as the explaining hook chooses it."""
        arms = [(self.name(self.fitter(a)), "None" if a is NONE else self.expr(a, "v")) for a in typing.get_args(cls)]
        return [f"def {name}(v):", *(f"    if {fits}(v):\n        return {made}" for fits, made in arms), "    _miss()"]

    def rows(self, row: Any) -> str:
        """An array of arrays read with loops (a comprehension costs a frame a row): rows of numbers
        checked and copied in C, an empty lot (the commonest row of towers) with no list to fill."""
        item = typing.get_args(row)[0]

        def lines(name: str) -> list[str]:
            if item in SCALARS:  # a row of numbers: the one C-level check ``expr`` makes of it
                read = f"        out.append({self.expr(row, 'row')})"
            else:
                each = self.local()
                read = (
                    "        if type(row) is not list:\n            _miss()\n"
                    "        if not row:\n            out.append(())\n            continue\n"
                    f"        items = []\n        for {each} in row:\n"
                    f"            items.append({self.expr(item, each)})\n"
                    "        out.append(tuple(items))"
                )
            head = f"def {name}(v):\n    if type(v) is not list:\n        _miss()\n    out = []\n    for row in v:"
            return [head, read, "    return tuple(out)"]

        return self.define(("rows", row), lines)

    def build(self, cls: Any, passed: tuple[str, ...] = ()) -> Callable[..., Any]:
        if attrs.has(cls):
            entry = self.attrs_function(cls, passed)
        else:
            entry = self.define("entry", lambda name: self.returning(name, cls))
        exec(compile("\n".join(self.source), f"<citybuild.jsoncompiler {cls!r}>", "exec"), self.env)
        return self.env[entry]  # type: ignore[no-any-return]
