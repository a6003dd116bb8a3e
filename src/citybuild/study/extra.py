"""The study extra's packages, imported only when a study needs them.

``import citybuild`` and ``import citybuild.study`` import none of them (the core stays light, and
the command line starts fast); a study that needs one that is missing says how to install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from citybuild.core.errors import CitybuildError

INSTALL = 'pip install ".[study]"'
PACKAGES = ("pyarrow", "dask", "distributed", "matplotlib", "rich")
"""The top-level packages of the extra."""


class MissingExtraError(CitybuildError, ImportError):
    """A package of the study extra is not installed (the command line reports it in one line)."""


def need(module: str) -> ModuleType:
    """The module ``module`` (``pyarrow.parquet``), or ``MissingExtraError`` saying what to install."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = (exc.name or module).split(".")[0]
        raise MissingExtraError(f"citybuild studies need {missing!r}, part of the study extra: {INSTALL}") from None
