"""The tests' shared helpers (``*_support.py`` here) are importable from every test folder.

Under CI (``CI`` set, as ``.ci/run`` runs) hypothesis draws the same examples on every run, so a
run can never fail by chance; locally it explores new examples each time and remembers failures."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
