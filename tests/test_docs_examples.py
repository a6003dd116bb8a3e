"""Every ```python block in docs/ and README.md runs, page by page in one namespace per page,
so the documented examples cannot rot. A page that begins with ``<!-- requires: a, b -->`` needs
those optional packages (an extra); it is skipped, naming them, only where one is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*ROOT.glob("docs/**/*.md"), ROOT / "README.md"])
BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
REQUIRES = re.compile(r"\A<!-- requires: ([\w, ]+) -->")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    needs = REQUIRES.match(text)
    for module in needs.group(1).replace(",", " ").split() if needs else ():
        pytest.importorskip(module, reason=f"{page.name} needs the {module} extra")
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for number, block in enumerate(BLOCK.findall(text), 1):
        code = compile(block, f"{page.relative_to(ROOT)} block {number}", "exec")
        exec(code, namespace)
