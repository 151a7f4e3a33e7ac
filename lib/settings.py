"""Read the app's environment variables: one prefix, old names still read for a release.

Every variable the app reads starts with :data:`PREFIX` (``docs/configuration.md`` lists
them). A variable renamed to take that prefix is still read under its old name (see
:data:`RENAMED`), with a :class:`DeprecationWarning` and a log line saying the new name,
until the release after next drops the old names.

>>> setting("AI_SEARCH_LAB_JOB_WORKERS", int, 2, environ={"AI_SEARCH_LAB_JOB_WORKERS": "3"})
3
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from lib.errors import InputError

T = TypeVar("T")

PREFIX = "AI_SEARCH_LAB_"
"""What every environment variable of the app starts with."""

RENAMED = {
    "AI_SEARCH_LAB_JOB_WORKERS": "AISEARCH_JOB_WORKERS",
    "AI_SEARCH_LAB_JOB_MEMORY_MB": "AISEARCH_JOB_MEMORY_MB",
}
"""New name -> the old name still read (deprecated) for one release."""

LOCAL = "AI_SEARCH_LAB_LOCAL"
"""Set to ``1`` on a local install: lifts the hosted caps and lets agent files play."""

log = logging.getLogger(__name__)


def lookup(name: str, environ: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """``(the name found, its text stripped)`` for variable ``name``, else None.

    The new name wins; its old name (:data:`RENAMED`) is read when the new one is unset or
    blank, with a :class:`DeprecationWarning` and a log line. Blank values count as unset.
    """
    environ = os.environ if environ is None else environ
    text = environ.get(name, "").strip()
    if text:
        return name, text
    old = RENAMED.get(name)
    text = environ.get(old, "").strip() if old else ""
    if not old or not text:
        return None
    message = f"The environment variable {old} is deprecated: set {name} instead."
    warnings.warn(message, DeprecationWarning, stacklevel=3)
    log.warning(message)
    return old, text


def setting(
    name: str,
    parse: Callable[[str], T],
    default: T,
    *,
    expected: str = "a valid value",
    environ: Mapping[str, str] | None = None,
) -> T:
    """The value of environment variable ``name`` (or its old name), else ``default``.

    ``parse`` turns the text into the value and raises ValueError for a bad one; that
    becomes an :class:`InputError` naming the variable read, what it expects
    (``expected``) and the text found.
    """
    found = lookup(name, environ)
    if found is None:
        return default
    used, text = found
    try:
        return parse(text)
    except ValueError:
        raise InputError(f"{used} must be {expected}, got {text!r}.") from None


def whole_number(minimum: int) -> Callable[[str], int]:
    """A parser of whole numbers at least ``minimum`` (ValueError otherwise)."""

    def parse(text: str) -> int:
        number = int(text)
        if number < minimum:
            raise ValueError(f"{number} < {minimum}")
        return number

    return parse


def local_mode(environ: Mapping[str, str] | None = None) -> bool:
    """Whether :data:`LOCAL` is ``1``: a local install (one user), not a hosted server.

    >>> local_mode({"AI_SEARCH_LAB_LOCAL": "1"}), local_mode({"AI_SEARCH_LAB_LOCAL": "yes"})
    (True, False)
    """
    found = lookup(LOCAL, environ)
    return found is not None and found[1] == "1"


DATA_DIR = "AI_SEARCH_LAB_DATA_DIR"
"""Environment variable naming the folder of what outlives a server's process."""


def data_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where the app keeps what must outlive a server's process (the class contest's SQLite
    file, the Arena's study journals): ``$AI_SEARCH_LAB_DATA_DIR``, else
    ``$XDG_DATA_HOME/ai-search-lab``, by default ``~/.local/share/ai-search-lab``."""
    environ = os.environ if environ is None else environ
    chosen = environ.get(DATA_DIR, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    base = environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "ai-search-lab"
