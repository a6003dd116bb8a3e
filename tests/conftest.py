"""The tests' shared helpers (``*_support.py`` here) are importable from every test folder.

Tests are bounded by counts, never by the clock: no example has a deadline, so a busy machine cannot
fail a test. Under CI (``CI`` set, as ``.ci/run`` sets it) hypothesis draws the same examples on every
run, so a run can never fail by chance; locally it explores new examples each time and remembers
failures."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("counted", deadline=None)
settings.register_profile("ci", settings.get_profile("counted"), derandomize=True, database=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "counted")
