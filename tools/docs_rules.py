"""The docs' Rules section and its links, made from the rules references shipped in the package.

A MkDocs hook (``hooks:`` in mkdocs.yml):

- ``on_files`` adds the pages ``rules/<game>.md``, generated from ``citybuild/rulebook/<game>.md``
  so the site shows the specification itself, never a copy that could drift. Each rule gets an
  anchor named by its lowercase ID, and the references' citations of their source files and their
  notes to the developers are reworded for a reader of the site (``for_readers``);
- ``on_page_markdown`` turns every rule ID in any page's prose and tables into a link to its rule
  (``link_rule_ids``); fenced code is left alone.

Tested by ``tests/test_docs_rules.py``.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # MkDocs (the docs extra) is needed only to build the site, not to use the functions here
    from mkdocs.structure.files import Files

from citybuild import rulebook
from citybuild.rulebook import for_readers

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_ID_OR_CODE = re.compile(
    r"(?P<defined></a>\*\*)?(?P<id>" + rulebook.RULE_ID.pattern + r")"
    r"|`(?P<code_id>" + rulebook.RULE_ID.pattern + r")`"
    r"|(?P<code>(?P<ticks>`+).*?(?P=ticks))"
    r"|(?P<link>\[[^\]]*\]\([^)]*\))"
)
"""A rule ID, bare or as a code span of its own; any other code span or link is skipped whole."""


def anchored(markdown: str) -> str:
    """Each rule's definition line given an anchor named by its lowercase ID (``#man-build-4``)."""
    return re.sub(
        r"^- \*\*(" + rulebook.RULE_ID.pattern + r")\*\*",
        lambda m: f'- <a id="{m[1].lower()}"></a>**{m[1]}**',
        markdown,
        flags=re.M,
    )


_LIST_AFTER_TEXT = re.compile(r"^(?P<indent> *)(?![-|#\s]|\d+\. )(?P<text>.+)\n(?=(?P=indent)- )", re.M)
"""A list right under a line of text at its own indent: Python-Markdown needs a blank line between
them (GitHub does not)."""
_INDENT = re.compile(r"^( +)(?=\S)", re.M)
"""The references indent what belongs to a list item by 2 spaces; Python-Markdown needs 4."""


def for_python_markdown(markdown: str) -> str:
    """The references' GitHub-style Markdown as Python-Markdown (MkDocs) renders it the same way:
    a blank line before each list that follows text, and list contents indented by 4, not 2."""
    spaced = _LIST_AFTER_TEXT.sub(r"\g<indent>\g<text>\n\n", markdown)
    return _INDENT.sub(lambda m: m[1] * 2, spaced)


def rules_page(game: str) -> str:
    """The docs page of one game's rules reference."""
    return anchored(for_python_markdown(for_readers(rulebook.text(game))))


def link_rule_ids(markdown: str, page_uri: str) -> str:
    """Every rule ID a reference defines, outside fenced code, linked to its rule from the page at ``page_uri``."""
    here = posixpath.dirname(page_uri)

    def link(match: re.Match[str]) -> str:
        rule_id = match["id"] or match["code_id"]
        game = rulebook.game_of(rule_id) if rule_id else None
        if game is None or match["defined"]:
            return match[0]
        target = posixpath.relpath(f"rules/{game}.md", here or ".")
        shown = rule_id if match["id"] else f"`{rule_id}`"
        return f"[{shown}]({target}#{rule_id.lower()})"

    lines = markdown.split("\n")
    fence: str | None = None
    for index, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is None and opening:
            fence = opening[1]
        elif fence is not None:
            if opening and opening[1].startswith(fence[0]) and len(opening[1]) >= len(fence):
                fence = None
        else:
            lines[index] = _ID_OR_CODE.sub(link, line)
    return "\n".join(lines)


# --- MkDocs hook -----------------------------------------------------------------------------------
def on_files(files: Files, config: Any) -> Files:
    """MkDocs calls this once the docs' files are known: the Rules pages join them."""
    from mkdocs.structure.files import File

    for game in rulebook.GAMES:
        files.append(File.generated(config, f"rules/{game}.md", content=rules_page(game)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """MkDocs calls this for every page: its rule IDs become links to the Rules pages."""
    return link_rule_ids(markdown, page.file.src_uri)
