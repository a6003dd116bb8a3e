"""The API reference, one page per module, generated from the package's file tree at each build.

A MkDocs hook (``hooks:`` in mkdocs.yml): a renamed, added or removed module changes the pages and
the nav with it, so no page can name a module that does not exist and none is missing. The tree is
read, never imported: the extras' modules (adapters, server, study) import optional packages, and
mkdocstrings (griffe) documents them by static analysis alike. ``tests/test_docs_api.py`` calls
these functions directly.
"""

from __future__ import annotations

import ast
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = "citybuild"
API = "api"
NAV_TITLE = "API reference"
EXTRAS = {
    "citybuild.adapters.openspiel": "openspiel",
    "citybuild.adapters.pettingzoo": "pettingzoo",
    "citybuild.server": "server",
    "citybuild.study": "study",
    "citybuild.testing": "test",
}
"""Modules (and everything under them) that need an extra of pyproject.toml, said on their pages."""
OPTIONS = {
    "show_root_heading": "true",  # the page's title: the module's name, a target for cross-links
    "show_root_full_path": "true",
    "heading_level": "1",
    "summary": "true",
    "show_submodules": "false",  # each submodule has its own page
    "show_signature_annotations": "true",
    "separate_signature": "true",
    "signature_crossrefs": "true",
    "show_symbol_type_heading": "true",
    "show_symbol_type_toc": "true",
}


# --- the modules ---------------------------------------------------------------------------------
def _walk(path: Path, prefix: str) -> Iterator[tuple[str, Path]]:
    """(dotted name, defining file) of every public module under ``path``, packages first."""
    for info in sorted(pkgutil.iter_modules([str(path)]), key=lambda info: info.name):
        if info.name.startswith("_"):  # private modules, and __main__
            continue
        name, where = f"{prefix}.{info.name}", path / info.name
        yield name, where / "__init__.py" if info.ispkg else where.with_suffix(".py")
        if info.ispkg:
            yield from _walk(where, name)


def modules() -> dict[str, Path]:
    """Every public module of the package (the package first) and its file; found, never imported."""
    return {PACKAGE: SRC / PACKAGE / "__init__.py", **dict(_walk(SRC / PACKAGE, PACKAGE))}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def summary(path: Path) -> str:
    """The first paragraph of a module's docstring, on one line ("" without one)."""
    doc = ast.get_docstring(_tree(path)) or ""
    return " ".join(doc.split("\n\n")[0].split())


def exported(path: Path) -> list[str] | None:
    """The module's ``__all__`` if it states one as a literal: then its page shows just those names
    (a package's page is its contract, not a list of its submodules, which have pages of their own)."""
    for node in _tree(path).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return None


def groups(found: dict[str, Path]) -> dict[str, list[str]]:
    """Modules by the subpackage they document (a package heads its own group), top level first.

    A package with no module of its own (``citybuild.games``: only subpackages) joins its parent's
    group, so that no group lists a lone package page.
    """
    names = list(found)
    packages = {name for name, path in found.items() if path.name == "__init__.py"}
    group = {name: name if name in packages else name.rpartition(".")[0] for name in names}
    lone = {package for package in packages if list(group.values()).count(package) == 1}
    for name in names:
        while group[name] in lone and group[name] != PACKAGE:
            group[name] = group[name].rpartition(".")[0]
    keys = sorted(set(group.values()), key=lambda key: (key != PACKAGE, key))
    return {key: [name for name in names if group[name] == key] for key in keys}


def uri(module: str) -> str:
    """The page of ``module``: the URLs other pages link to (``api/citybuild.core.game.md``)."""
    return f"{API}/{module}.md"


# --- the pages -----------------------------------------------------------------------------------
def extra(module: str) -> str | None:
    """The extra ``module`` needs, if any."""
    return next((name for root, name in EXTRAS.items() if module == root or module.startswith(root + ".")), None)


def page(module: str, group: str, members: list[str] | None = None) -> str:
    """The Markdown of a module's page: a title, where it sits, the extra it needs, its docstrings
    (only ``members``, if given)."""
    where = "" if group == module else f"in [`{group}`]({group}.md) · "
    lines = [f"*{where}[all modules](index.md)*", ""]
    needs = extra(module)
    if needs:
        lines += [f'!!! note "Needs the `{needs}` extra"', f'    `pip install ".[{needs}]"` (from a checkout)', ""]
    options = {**OPTIONS, **({} if members is None else {"members": f"[{', '.join(members)}]"})}
    lines += [f"::: {module}", "    options:", *(f"      {key}: {value}" for key, value in options.items())]
    return "\n".join(lines) + "\n"


def index(found: dict[str, Path]) -> str:
    """The Markdown of the API overview: every module, by group, with its docstring's summary."""
    lines = [
        "# API reference",
        "",
        "Generated from the docstrings, one page per module of the package (private modules aside).",
        "The public contract is the package itself, [`citybuild`](citybuild.md); everything here is",
        "importable as shown.",
    ]
    for group, names in groups(found).items():
        lines += ["", f"## `{group}`", ""]
        for name in names:
            said = summary(found[name])
            lines.append(f"- [`{name}`]({name}.md)" + (f": {said}" if said else ""))
    return "\n".join(lines) + "\n"


def nav(grouped: dict[str, list[str]]) -> list[Any]:
    """The "API reference" section of the nav: the overview, then one section per group."""
    sections = [{group: [{name: uri(name)} for name in names]} for group, names in grouped.items()]
    return [{"Overview": f"{API}/index.md"}, *sections]


# --- the hook ------------------------------------------------------------------------------------
def on_config(config: Any) -> Any:
    """MkDocs calls this first: the nav's "API reference" entry becomes the generated sections."""
    grouped = groups(modules())
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and NAV_TITLE in entry:
            entry[NAV_TITLE] = nav(grouped)
    return config


def on_files(files: Files, config: Any) -> Files:
    """MkDocs calls this after reading docs/: the API pages are added, made from the modules now."""
    found = modules()
    files.append(File.generated(config, f"{API}/index.md", content=index(found)))
    for group, names in groups(found).items():
        for name in names:
            content = page(name, group, exported(found[name]))
            files.append(File.generated(config, uri(name), content=content))
    return files
