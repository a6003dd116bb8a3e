"""Files the ``citybuild`` command reads and writes, and the error of a user's mistake.

Every command module raises this module's ``UserError``, the one ``citybuild.cli.main`` catches.
"""

from __future__ import annotations

import os
from pathlib import Path


class UserError(Exception):
    """A mistake of the user's, reported as one line on stderr with exit status 2."""


def writable(path: str) -> None:
    """Refuse at once an output path that names a directory or lies in a directory that does not
    exist: the mistake is reported before a long game or arena is played, not after it."""
    target = Path(path)
    if not path:
        raise UserError("cannot write '': the file name is empty")
    try:
        if "\x00" in path:
            raise ValueError("embedded null byte")
        os.fsencode(path)
    except ValueError as exc:  # UnicodeEncodeError: a lone surrogate that no file name holds
        raise UserError(f"cannot write {path!r}: {exc}") from None
    try:
        if target.is_dir():
            raise UserError(f"cannot write {path!r}: it is a directory")
        if not target.parent.is_dir():
            raise UserError(f"cannot write {path!r}: there is no directory {str(target.parent)!r}")
    except OSError as exc:  # a name too long for the file system, and the like
        raise UserError(f"cannot write {path!r}: {exc.strerror or exc}") from None


def is_file(path: str) -> bool:
    """Whether ``path`` names a file; False for text no file could be named (a name too long for
    the file system, a NUL byte), where ``Path.is_file`` raises."""
    try:
        return "\n" not in path and Path(path).is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: str) -> bool:
    """Whether ``path`` names a directory; False where ``Path.is_dir`` would raise."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def write_file(path: str | Path, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte or unencodable character in the path
        raise UserError(f"cannot write {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None


def read_text(path: str) -> str:
    if not path:
        raise UserError("no file named (the file name is empty)")
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte or unencodable character in the path
        raise UserError(f"cannot read {path!r}: {getattr(exc, 'strerror', None) or exc}") from None
