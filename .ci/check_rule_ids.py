"""CI gate: for every game that exists in src/, every rule ID of ../shared/rules/<game>.md is
cited by some test and listed on the game's docs page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "rules"
ID = re.compile(r"\b[A-Z]{3}-[A-Z]+-[0-9]+\b")


def main() -> int:
    if not RULES.is_dir():
        print(f"check_rule_ids: {RULES} not found; nothing to check")
        return 0
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    problems = []
    for doc in sorted(RULES.glob("*.md")):
        game = doc.stem
        if not (ROOT / "src" / "citybuild" / "games" / game).is_dir():
            continue
        ids = sorted(set(ID.findall(doc.read_text(encoding="utf-8"))))
        page = ROOT / "docs" / "games" / f"{game}.md"
        page_text = page.read_text(encoding="utf-8") if page.exists() else ""
        untested = [i for i in ids if i not in tests]
        undocumented = [i for i in ids if i not in page_text]
        print(
            f"{game}: {len(ids)} rule IDs, {len(ids) - len(untested)} cited by tests, "
            f"{len(ids) - len(undocumented)} on {page.relative_to(ROOT)}"
        )
        if untested:
            problems.append(f"{game}: not cited by any test: {' '.join(untested)}")
        if undocumented:
            problems.append(f"{game}: not listed in {page.relative_to(ROOT)}: {' '.join(undocumented)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
