"""Every ```python block in docs/ and README.md runs, page by page in one namespace per page,
so the documented examples cannot rot (a file a block includes with ``--8<-- "path"`` runs in its
place). A page that begins with ``<!-- requires: a, b -->`` needs
those extras of citybuild; it is skipped, naming them, only where one is missing.

What the examples say they print is checked too: a ``print(...)`` with a comment on its line
(``print(move)  # build 3 Syd A4``), or followed by comment lines, must print that text, where
``...`` (and the blanks around it) stands for anything. A note that is not output goes on a line
of its own, before the print.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import types
from pathlib import Path
from typing import Any

import pytest

from extras_support import importorskip_extra

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*ROOT.glob("docs/**/*.md"), ROOT / "README.md"])
BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
REQUIRES = re.compile(r"\A<!-- requires: ([\w, ]+) -->")
CHECKER = "__printed__"
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)
"""A file included whole (pymdownx.snippets): the docs show it and the test runs it."""


def expected_outputs(source: str) -> dict[int, str]:
    """For each line holding a one-line ``print(...)`` statement, the output its comments promise."""
    comments: dict[int, str] = {}
    code_lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string[1:].strip()
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            code_lines.add(token.start[0])
    out: dict[int, str] = {}
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Expr) and _is_print(node.value) and node.lineno == node.end_lineno):
            continue
        line = node.lineno
        if line in comments:
            out[line] = comments[line]
            continue
        following = []
        nxt = line + 1
        while nxt in comments and nxt not in code_lines:
            following.append(comments[nxt])
            nxt += 1
        if following:
            out[line] = "\n".join(following)
    return out


def _is_print(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"


class _Checked(ast.NodeTransformer):
    def __init__(self, expected: dict[int, str]) -> None:
        self.expected = expected

    def visit_Expr(self, node: ast.Expr) -> Any:
        if _is_print(node.value) and node.lineno in self.expected:
            call = node.value
            assert isinstance(call, ast.Call)
            call.func = ast.Name(CHECKER, ast.Load())
            call.keywords.append(ast.keyword("__expected__", ast.Constant(self.expected[node.lineno])))
            ast.fix_missing_locations(node)
        return node


def _printed(*args: Any, __expected__: str, sep: str = " ", **kwargs: Any) -> None:
    print(*args, sep=sep, **kwargs)
    text = sep.join(str(a) for a in args)
    pattern = ".*?".join(re.escape(part) for part in re.split(r"\s*\.\.\.\s*", __expected__))
    assert re.fullmatch(pattern, text, re.S), f"printed {text!r}, the docs say {__expected__!r}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    needs = REQUIRES.match(text)
    importorskip_extra(*(needs.group(1).replace(",", " ").split() if needs else ()))
    # The page runs as a module of its own, so that what it defines resolves its annotations there.
    module = types.ModuleType(f"docs_{page.stem.replace('-', '_')}")
    module.__dict__[CHECKER] = _printed
    sys.modules[module.__name__] = module
    try:
        for number, block in enumerate(BLOCK.findall(text), 1):
            block = SNIPPET.sub(lambda found: (ROOT / found.group(1)).read_text(encoding="utf-8"), block)
            tree = _Checked(expected_outputs(block)).visit(ast.parse(block))
            code = compile(tree, f"{page.relative_to(ROOT)} block {number}", "exec")
            exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]


def test_printed_comments_are_found() -> None:
    source = 'x = 1\nprint(x)  # 1\nprint("a\\nb")\n# a\n# b\nprint(x)\ny = 2  # not output\n'
    assert expected_outputs(source) == {2: "1", 3: "a\nb"}
    namespace: dict[str, object] = {CHECKER: _printed}
    exec(compile(_Checked(expected_outputs(source)).visit(ast.parse(source)), "t", "exec"), namespace)
    bad = "print(2)  # 3\n"
    with pytest.raises(AssertionError, match="the docs say '3'"):
        exec(compile(_Checked(expected_outputs(bad)).visit(ast.parse(bad)), "t", "exec"), {CHECKER: _printed})
