"""A study's journal: its finished games written to a file one by one, read after a restart.

A study on the Arena page lives in its visitor's session, which a server restart wipes.
So the page also writes each study to a small JSON-lines file named by a random study
id (the page's link carries it, ``?study=``): a first line with its matches, then one
line per finished game, then ``{"done": true}``. A visitor whose page reconnects to a
restarted server gets back the games finished before the restart (:func:`read`), and
the page says which were lost (the games in progress and those not yet played).

Journals live in :func:`journal_folder` (in the app's data folder,
``AI_SEARCH_LAB_DATA_DIR``) and are deleted a day after their last game (:data:`KEEP_SECONDS`).
A study id from a link is used only if it has the form of one this module made
(:func:`valid_study_id`), so a link cannot name any other file.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from lib.games.arena.match import GameRecord, MatchConfig
from lib.settings import DATA_DIR as DATA_DIR  # the variable that moves the journals
from lib.settings import data_folder

KEEP_SECONDS = 86_400.0
"""A journal is deleted this long after its last write (when a new study starts)."""
MAX_JOURNAL_BYTES = 20_000_000
"""Longest journal read back (a hosted study of 400 games writes about 200 KB)."""
SERVER_ID = secrets.token_hex(8)
"""This server process's id, written with each study: a journal of another id outlived
the server that wrote it (a restart), one of this id belongs to another tab's session."""
_STUDY_ID = re.compile(r"[0-9a-f]{16}")
_RECORD_FIELDS = {f.name for f in fields(GameRecord)}


@dataclass(frozen=True)
class KeptStudy:
    """What a journal kept: the study's matches, its finished games, whether it ended."""

    matches: tuple[MatchConfig, ...]
    records: list[GameRecord]
    done: bool
    server: str = ""  # the SERVER_ID of the process that wrote it

    @property
    def restarted(self) -> bool:
        """Whether the server that wrote the journal has stopped since (this is another)."""
        return self.server != SERVER_ID

    @property
    def total(self) -> int:
        """Games the study was set to play."""
        return sum(m.games for m in self.matches)


def journal_folder() -> Path:
    """The folder of the study journals: ``studies`` in the app's data folder
    (:func:`lib.settings.data_folder`, ``$AI_SEARCH_LAB_DATA_DIR``)."""
    return data_folder() / "studies"


def new_study_id() -> str:
    """A fresh random study id (16 hex digits: no one guesses another visitor's)."""
    return secrets.token_hex(8)


def valid_study_id(study: str) -> bool:
    """Whether ``study`` has the form of an id :func:`new_study_id` makes."""
    return isinstance(study, str) and _STUDY_ID.fullmatch(study) is not None


def path(folder: Path, study: str) -> Path:
    """The journal file of ``study`` in ``folder`` (ValueError for an id not ours)."""
    if not valid_study_id(study):
        raise ValueError(f"not a study id: {study[:20]!r}")
    return Path(folder) / f"{study}.jsonl"


def _write(folder: Path, study: str, entry: dict, mode: str = "a") -> None:
    """Write ``entry`` as one line of ``study``'s journal (flushed: a restart keeps it)."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    with open(path(folder, study), mode, encoding="utf-8") as file:
        file.write(json.dumps(entry) + "\n")


def start(folder: Path, study: str, matches: Sequence[MatchConfig]) -> None:
    """Begin ``study``'s journal with its ``matches``; journals older than a day go."""
    prune(folder)
    entry = {"matches": [asdict(m) for m in matches], "server": SERVER_ID}
    _write(folder, study, entry, mode="w")


def append(folder: Path, study: str, record: GameRecord) -> None:
    """Add a finished game to ``study``'s journal."""
    _write(folder, study, {"record": asdict(record)})


def finish(folder: Path, study: str) -> None:
    """Mark ``study`` as played to its end."""
    _write(folder, study, {"done": True})


def prune(folder: Path, keep_seconds: float = KEEP_SECONDS) -> None:
    """Delete the journals in ``folder`` not written to for ``keep_seconds``."""
    cutoff = time.time() - keep_seconds
    for file in Path(folder).glob("*.jsonl"):
        with contextlib.suppress(OSError):
            if file.stat().st_mtime < cutoff:
                file.unlink()


def read(folder: Path, study: str) -> KeptStudy | None:
    """What ``study``'s journal kept, or None (no such journal, or not one of ours).

    A line that cannot be read (the last one, cut by the restart) is left out; so is
    a game of a match the study does not have.
    """
    if not valid_study_id(study):
        return None
    file = path(folder, study)
    try:
        if file.stat().st_size > MAX_JOURNAL_BYTES:
            return None
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    entries = [_entry(line) for line in lines]
    if not entries or not isinstance(entries[0], dict) or "matches" not in entries[0]:
        return None
    matches = _matches(entries[0]["matches"])
    if matches is None:
        return None
    records = [
        record for entry in entries[1:] if (record := _record(entry, len(matches))) is not None
    ]
    done = any(isinstance(e, dict) and e.get("done") is True for e in entries[1:])
    server = entries[0].get("server")
    return KeptStudy(matches, records, done, server if isinstance(server, str) else "")


def _entry(line: str) -> object:
    """One journal line as JSON (None if it cannot be read)."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def _matches(rows: object) -> tuple[MatchConfig, ...] | None:
    """The study's matches from the journal's first line (None if any is unreadable)."""
    if not isinstance(rows, list):
        return None
    try:
        return tuple(MatchConfig(**row) for row in rows)
    except (TypeError, ValueError):
        return None


def _record(entry: object, matches: int) -> GameRecord | None:
    """A finished game from a journal line (None for anything else)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
        return None
    row = entry["record"]
    if set(row) != _RECORD_FIELDS:
        return None
    try:
        record = GameRecord(**row)
    except TypeError:
        return None
    if not isinstance(record.match, int) or not 0 <= record.match < matches:
        return None
    return record
