"""The rules references shipped with the package: every rule's text by its stable ID.

The references (``citybuild/rulebook/<game>.md``) are the specification the engine implements;
shipping them lets ``citybuild rules GAME RULE-ID``, error messages and the docs quote a rule
exactly as specified (``for_readers`` names the references' source files in words and rewords
their notes to citybuild's developers for a reader). A rule is defined by a bullet
``- **MAN-BUILD-4** text`` whose further lines (and blank lines between them) are indented by two
spaces; any other mention of an ID is a citation.
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from importlib.resources import files

from citybuild.core.errors import NotationError, RulesError
from citybuild.core.registry import spec

PREFIXES = {"MAN": "manhattan", "SKY": "skyline", "URB": "urbanization"}
"""Each game's rule-ID prefix (``MAN-BUILD-4`` is a Manhattan rule)."""
GAMES = tuple(PREFIXES.values())
RULE_ID = re.compile(r"\b[A-Z]{3}-[A-Z]+-\d+\b")
"""A rule ID wherever it appears; only the IDs a reference defines are rules."""
_DEFINITION = re.compile(r"^- \*\*([A-Z]{3}-[A-Z]+-\d+)\*\* ?(.*)$")


SOURCES = {
    "manhattan-fr": "the French rules sheet",
    "manhattan-de": "the German rules description",
    "skyline": "the English rules summary",
    "urbanization": "the English rules summary",
}
"""What each reference's source file is, in words (the references' own names for them)."""

READERS: tuple[tuple[str, str], ...] = (
    # Sources: where a reference names a source and then its file, keep the name; elsewhere the file becomes the name.
    (r" \(`sources/manhattan-(?:fr|de)\.txt`\)", ""),
    (r"([Tt]he English rules summary) (?:in )?`sources/(?:skyline|urbanization)\.txt`", r"\1"),
    (r"^- English rules summary: sources/skyline\.txt$", "- English rules summary: the main source (see the top)"),
    (r"`?sources/([a-z-]+)\.txt`?", "{source}"),
    # Notes to the developers, reworded to stand on their own for a user of the library.
    (r"^# (\w+) — rules reference for `citybuild`$", r"# \1: the rules"),
    (r"\ban engine decision\b", "a citybuild decision"),
    (r"\(engine decision\)", "(a citybuild decision)"),
    (r"\b[Tt]he engine's\b", "citybuild's"),
    (r"\b[Tt]he engine\b", "citybuild"),
    (r"\(each is a unit test\)", "(each is checked by citybuild's tests)"),
    (r"Tests and error messages cite these IDs\.", "Error messages cite these IDs."),
    (r"Test fixtures must be reached", "A position built by hand must be reached"),
    (r"Tests use the \*\*canonical test city\*\*", "The worked examples use the **canonical test city**"),
    (
        r"corrects the data file \(`characters_data_path`\), not the code\.",
        "corrects the data file (`characters_data_path`) without changing citybuild.",
    ),
    (r"so it can be corrected without code changes\.", "so it can be corrected without changing citybuild."),
)
"""(pattern, replacement) in order; ``{source}`` stands for the name of the file matched."""


def for_readers(markdown: str) -> str:
    """``markdown`` of a reference with its source files named in words and its developer notes reworded."""
    for pattern, replacement in READERS:

        def reword(match: re.Match[str], replacement: str = replacement) -> str:
            return SOURCES[match[1]] if replacement == "{source}" else match.expand(replacement)

        markdown = re.sub(pattern, reword, markdown, flags=re.M)
    return markdown


def text(game: str) -> str:
    """The whole rules reference of ``game`` (Markdown), as shipped."""
    return (files("citybuild") / "rulebook" / f"{_game(game)}.md").read_text(encoding="utf-8")


def rule_ids(game: str) -> tuple[str, ...]:
    """Every rule ID the reference of ``game`` defines, in document order."""
    return tuple(_rules(_game(game)))


def rule_text(game: str, rule_id: str) -> str:
    """The text of one rule (Markdown, its own indentation removed); the ID is read case-insensitively."""
    rules = _rules(_game(game))
    key = rule_id.strip().upper()
    if key not in rules:
        prefix = next(p for p, g in PREFIXES.items() if g == game)
        close = difflib.get_close_matches(key, rules, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise NotationError(f"unknown rule ID {rule_id!r} for {game}: IDs have the form {prefix}-<SECTION>-<n>{hint}")
    return rules[key]


def plain(game: str, rule_id: str) -> str:
    """A rule for the terminal: its ID on a line of its own, then its text indented, without bold marks."""
    key = rule_id.strip().upper()
    body = for_readers(rule_text(game, key)).replace("**", "")
    return key + "\n" + "\n".join(f"  {line}" if line else "" for line in body.splitlines())


def game_of(rule_id: str) -> str | None:
    """The game whose reference defines ``rule_id``, or None for an ID no reference defines."""
    game = PREFIXES.get(rule_id[:3])
    return game if game is not None and rule_id in _rules(game) else None


def _game(game: str) -> str:
    """``game`` once known to have a packaged reference; an unknown game gets the registry's error."""
    if game not in GAMES:
        spec(game)  # raises RulesError naming the known games
        raise RulesError(f"{game!r} has no rules reference in citybuild; references: {', '.join(GAMES)}")
    return game


@cache
def _rules(game: str) -> dict[str, str]:
    """Rule ID -> text, in document order, read once per game."""
    rules: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text(game).splitlines():
        match = _DEFINITION.match(line)
        if match:
            current = rules.setdefault(match[1], [match[2]])
        elif current is not None and (line.startswith("  ") or not line.strip()):
            current.append(line[2:])
        else:
            current = None
    return {rule_id: "\n".join(lines).strip() for rule_id, lines in rules.items()}
