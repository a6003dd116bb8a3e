"""The study extra stays optional: ``import citybuild`` imports none of it (nor citybuild.study),
the command line starts without it, and a study that needs a missing package says what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

from citybuild.study.extra import INSTALL, PACKAGES, MissingExtraError, need


def test_the_core_and_the_command_line_never_import_the_study_extra() -> None:
    heavy = [name for name in PACKAGES if name != "rich"]  # rich may draw the command line's tables
    probe = (
        "import sys, citybuild\n"
        f"print(sorted(m for m in {list(PACKAGES)!r} + ['citybuild.study'] if m in sys.modules))\n"
        "import citybuild.cli, citybuild.study, citybuild.study.play\n"
        "citybuild.cli._parser()\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.splitlines() == ["[]", "[]"]


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ["pyarrow", *(m for m in sys.modules if m.startswith("pyarrow."))]:
        monkeypatch.setitem(sys.modules, name, None)  # importing pyarrow now fails as if not installed
        # (pyarrow.parquet too: an earlier test, such as the study fuzz, may have imported it)
    with pytest.raises(MissingExtraError, match="citybuild studies need 'pyarrow'") as caught:
        need("pyarrow.parquet")
    assert INSTALL in str(caught.value) and isinstance(caught.value, ImportError)
