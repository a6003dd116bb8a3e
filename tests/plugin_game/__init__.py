"""A tiny game plugin (``race.py``) that proves the test kit works on games citybuild does not ship."""

from .race import SPEC

__all__ = ["SPEC"]
