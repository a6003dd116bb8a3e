"""No import circle inside a package: a circle makes import order matter and hides which module
owns an idea. Imports inside functions count too (they only postpone the circle); imports for type
checkers alone do not (they never run)."""

from __future__ import annotations

import ast
import pathlib

import networkx as nx
import pytest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
ROOT = SRC / "citybuild"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules ``tree`` imports, at any depth, except under ``if TYPE_CHECKING``
    (``from package import name`` imports the module ``package.name`` when there is one, else
    the package)."""
    found: set[str] = set()
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                if not is_package:
                    package.pop()
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        pending.extend(ast.iter_child_nodes(node))
    return found


def import_graph() -> nx.DiGraph:
    """Modules of citybuild, with an edge from each to every citybuild module it imports."""
    paths = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(paths)
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in _imports(tree, module, path.name == "__init__.py", set(paths)):
            if target in paths and target != module:
                graph.add_edge(module, target)
    return graph


def _package_of(module: str) -> str:
    """The package a module's circles are judged in: a game's package, another subpackage of
    citybuild, or citybuild's top-level modules (match, serialize, cli, ...) together."""
    parts = module.split(".")
    if parts[1:2] == ["games"] and len(parts) > 2:
        return ".".join(parts[:3])
    return ".".join(parts[:2]) if len(parts) > 2 or (ROOT / parts[-1]).is_dir() else "citybuild"


GRAPH = import_graph()
PACKAGES = sorted({_package_of(m) for m in GRAPH if m != "citybuild"})


def _circles(nodes: set[str]) -> list[str]:
    found = nx.simple_cycles(GRAPH.subgraph(nodes))
    return sorted(" -> ".join([*cycle, cycle[0]]) for cycle in found)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle_inside_a_package(package: str) -> None:
    circles = _circles({m for m in GRAPH if _package_of(m) == package})
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_no_circle_between_the_shell_and_the_command_line() -> None:
    """The command line (cli, study) sits on the shell (match, serialize); never the other way."""
    nodes = {m for m in GRAPH if _package_of(m) in ("citybuild", "citybuild.cli", "citybuild.study")} - {"citybuild"}
    circles = _circles(nodes)
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_the_graph_sees_lazy_imports_and_skips_type_checking_ones() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from citybuild.core import game\n"
        "def f():\n    from . import svg\n    import citybuild.core.errors\n"
    )
    found = _imports(tree, "citybuild.core.registry", False, {"citybuild.core.svg", "citybuild.core.errors"})
    assert found == {"typing", "citybuild.core.svg", "citybuild.core.errors"}
    assert "citybuild.core.game" not in found
    assert len(PACKAGES) > 8 and GRAPH.number_of_edges() > 100
