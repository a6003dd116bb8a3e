"""Which of citybuild's extras are installed, read from the package's own metadata, so that a test
needing an extra skips with a reason that names the extra to install (the README's test command
installs only ``[test]``)."""

from __future__ import annotations

import importlib.metadata
import re

import pytest

_REQUIREMENT = re.compile(
    r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?[^;]*;\s*extra\s*==\s*['\"]([^'\"]+)['\"]"
)


def _distributions(extra: str, seen: frozenset[str] = frozenset()) -> list[str]:
    """The distributions an extra brings, following ``citybuild[other]`` inside it."""
    names: list[str] = []
    for line in importlib.metadata.requires("citybuild") or ():
        found = _REQUIREMENT.match(line)
        if not found or found.group(3) != extra:
            continue
        name, inner = found.group(1), found.group(2)
        if name.lower() == "citybuild" and inner:
            for other in inner.split(","):
                if other.strip() not in seen:
                    names += _distributions(other.strip(), seen | {extra})
        else:
            names.append(name)
    if not names and not seen:
        raise ValueError(f"citybuild has no extra named {extra!r}")
    return names


def missing(extra: str) -> list[str]:
    """The distributions of ``extra`` that are not installed."""
    absent = []
    for name in _distributions(extra):
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            absent.append(name)
    return absent


def reason(extra: str) -> str:
    """How a skip names an extra: what it is and how to install it."""
    return f"the {extra} extra: pip install \".[{extra}]\""


def importorskip_extra(*extras: str) -> None:
    """Skip the calling test (or module, at module level) unless every named extra is installed."""
    for extra in extras:
        if missing(extra):
            pytest.skip(f"needs {reason(extra)} (missing: {', '.join(missing(extra))})", allow_module_level=True)
