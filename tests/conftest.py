"""The tests' shared helpers (``*_support.py`` here) are importable from every test folder."""
