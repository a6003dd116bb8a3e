"""A study's results on disk: a folder of Parquet files, one per finished chunk, and ``study.json``.

A chunk's file is written under a temporary name and renamed when complete, so a study stopped at
any moment keeps every chunk it finished and nothing half-written; running it again plays only
the games no file holds. File names say which games they hold (``<cell hash>-<start>-<stop>``),
so a study can also be extended later: more games per cell, or more cells, with the same seed.
``read(folder)`` gives the whole table back in one call (``.to_pandas()``, ``polars.from_arrow``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citybuild.core.errors import RulesError
from citybuild.study.cells import Cell, Plan
from citybuild.study.extra import need
from citybuild.study.play import FIXED_COLUMNS, ChunkResult

if TYPE_CHECKING:
    import pyarrow as pa

MANIFEST = "study.json"
FORMAT = 1
_PART = re.compile(r"^([0-9a-f]{16})-([0-9]{9})-([0-9]{9})\.parquet$")
_SEAT = re.compile(r"^p([0-9]+)_(bot|score|cat_.+)$")


def cell_hash(key: str) -> str:
    """The 16 hex digits that name a cell's files."""
    return hashlib.blake2b(key.encode(), digest_size=8).hexdigest()


def _types() -> dict[str, Any]:
    pa = need("pyarrow")
    return {
        "cell": pa.string(),
        "game": pa.string(),
        "preset": pa.string(),
        "options": pa.string(),
        "players": pa.int16(),
        "bots": pa.string(),
        "index": pa.int64(),
        "seed": pa.int64(),
        "moves": pa.int32(),
        "steps": pa.int32(),
        "rounds": pa.int32(),
        "winners": pa.list_(pa.int16()),
        "tiebreak": pa.string(),
    }


def to_table(result: ChunkResult) -> pa.Table:
    """A chunk's rows as an Arrow table with the study's column types."""
    pa = need("pyarrow")
    types = _types()
    arrays = {}
    for name, values in result.columns.items():
        kind = types.get(name)
        if kind is None:
            kind = pa.string() if name.endswith("_bot") else pa.int32()
        arrays[name] = pa.array(values, type=kind)
    return pa.table(arrays)


class Store:
    """The results folder of one study seed."""

    def __init__(self, folder: str | os.PathLike[str], seed: int) -> None:
        self.path = Path(folder)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
            message = getattr(exc, "strerror", None) or exc
            raise RulesError(f"cannot make the results folder {str(folder)!r}: {message}") from None
        self.seed = seed
        manifest = read_manifest(self.path)
        if manifest is not None and manifest["seed"] != seed:
            raise RulesError(
                f"{self.path} holds a study with seed {manifest['seed']}, not {seed}: "
                "use that seed to resume or extend it, or another folder"
            )
        self.cells: dict[str, str] = dict(manifest["cells"]) if manifest else {}
        for stale in self.path.glob(".*.tmp"):
            stale.unlink()

    def done(self, plan: Plan) -> dict[str, list[tuple[int, int]]]:
        """The ranges of games already on disk, by cell key, for the cells of ``plan``."""
        by_hash = {cell_hash(cell.key): cell.key for cell in plan.cells}
        out: dict[str, list[tuple[int, int]]] = {}
        for name in os.listdir(self.path):
            match = _PART.match(name)
            if match and match.group(1) in by_hash:
                out.setdefault(by_hash[match.group(1)], []).append((int(match.group(2)), int(match.group(3))))
        return out

    def record(self, plan: Plan) -> None:
        """Write ``study.json``: the seed and every cell the folder holds games of."""
        self.cells.update({cell_hash(cell.key): cell.key for cell in plan.cells})
        manifest = {"format": FORMAT, "type": "citybuild-study", "seed": self.seed, "cells": self.cells}
        _replace(self.path / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True).encode())

    def write(self, result: ChunkResult) -> None:
        """Write a finished chunk's file (under a temporary name, then renamed)."""
        pq = need("pyarrow.parquet")
        chunk = result.chunk
        final = self.path / f"{cell_hash(chunk.cell.key)}-{chunk.start:09d}-{chunk.stop:09d}.parquet"
        temporary = self.path / f".{final.name}.tmp"
        with open(temporary, "wb") as file:  # Python opens any name; pyarrow refuses one not in UTF-8
            pq.write_table(to_table(result), file)
        os.replace(temporary, final)


def _replace(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as exc:  # a folder that takes no files (/proc), a full disk
        raise RulesError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's ``study.json``, or None when there is none."""
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RulesError(f"{path} is not a study manifest: {exc}") from None
    if (
        not isinstance(manifest, dict)
        or manifest.get("type") != "citybuild-study"
        or type(manifest.get("seed")) is not int
        or not isinstance(manifest.get("cells"), dict)
    ):
        raise RulesError(f"{path} is not a citybuild study manifest")
    return manifest


def read(folder: str | os.PathLike[str], cells: Iterable[Cell] | None = None, games: int | None = None) -> pa.Table:
    """Every game stored in a results folder, one row each, sorted by cell and game index (the
    same table however the study was run); only the games of ``cells`` and indices below
    ``games`` when given. For pandas: ``read(folder).to_pandas()``; for polars:
    ``polars.from_arrow(read(folder))``."""
    pq = need("pyarrow.parquet")
    path = Path(folder)
    if not path.is_dir() or read_manifest(path) is None:
        raise RulesError(f"{str(folder)!r} is not a study results folder (no {MANIFEST})")
    wanted = None if cells is None else {cell_hash(cell.key) for cell in cells}
    tables = []
    for name in sorted(os.listdir(path)):
        match = _PART.match(name)
        if match and (wanted is None or match.group(1) in wanted):
            if games is not None and int(match.group(2)) >= games:
                continue
            with open(path / name, "rb") as file:  # as in Store.write: a folder named in bytes not UTF-8
                tables.append(pq.read_table(file))
    table = assemble(tables)
    if games is not None:
        pc = need("pyarrow.compute")
        table = table.filter(pc.less(table.column("index"), games))
    return table


def assemble(tables: Sequence[pa.Table]) -> pa.Table:
    """Chunks' tables as one: a category a chunk never scored is 0 there for each seat of its
    game's rows (null only for seats a game does not have and for other games' categories);
    columns in a fixed order, rows sorted by cell and index."""
    pa = need("pyarrow")
    if not tables:
        return empty()
    categories: dict[str, set[str]] = {}
    for table in tables:
        game = table.column("game")[0].as_py() if table.num_rows else ""
        categories.setdefault(game, set()).update(_categories(table.column_names))
    filled = []
    for table in tables:
        game = table.column("game")[0].as_py() if table.num_rows else ""
        players = table.column("players")[0].as_py() if table.num_rows else 0
        for category in sorted(categories[game]):
            for seat in range(players):
                name = f"p{seat}_cat_{category}"
                if name not in table.column_names:
                    table = table.append_column(name, pa.array([0] * table.num_rows, type=pa.int32()))
        filled.append(table)
    table = pa.concat_tables(filled, promote_options="default")
    table = table.select(ordered(table.column_names))
    return table.sort_by([("cell", "ascending"), ("index", "ascending")])


def _categories(names: Iterable[str]) -> set[str]:
    return {match.group(2)[4:] for name in names if (match := _SEAT.match(name)) and match.group(2).startswith("cat_")}


def ordered(names: Iterable[str]) -> list[str]:
    """Columns in the table's order: the fixed ones, then seat by seat its bot, its score and its
    categories (alphabetically)."""
    present = set(names)
    seats: dict[int, list[str]] = {}
    for name in present:
        match = _SEAT.match(name)
        if match:
            seats.setdefault(int(match.group(1)), []).append(name)

    def within(name: str) -> tuple[int, str]:
        what = name.split("_", 1)[1]
        return ({"bot": 0, "score": 1}.get(what, 2), what)

    out = [name for name in FIXED_COLUMNS if name in present]
    for seat in sorted(seats):
        out.extend(sorted(seats[seat], key=within))
    return out


def empty() -> pa.Table:
    """A results table with no games (the fixed columns only)."""
    pa = need("pyarrow")
    types = _types()
    return pa.table({name: pa.array([], type=types[name]) for name in FIXED_COLUMNS})


def results_table(results: Sequence[ChunkResult]) -> pa.Table:
    """Results held in memory (a study run without a folder) as one table."""
    return assemble([to_table(result) for result in results])
