"""Names of every registered game, sorted: ``citybuild.games()``; also the built-in games' package.

Each built-in game is registered through the ``citybuild.games`` entry points, like a plugin.

``citybuild.games`` is both this package and the function ``citybuild.games()`` of the public
contract (the names of every registered game). Python binds a subpackage as an attribute of its
parent when it is first imported, so the two must be one object: this module is callable.
"""

from __future__ import annotations

import sys
import types


class _GamesModule(types.ModuleType):
    """The package, callable as ``citybuild.games()``."""

    def __call__(self) -> tuple[str, ...]:
        from citybuild.core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesModule
