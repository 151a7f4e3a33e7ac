"""Contests and entries: open and close a contest, join it, submit and moderate entries.

An instructor opens a contest (:class:`ContestSettings`: a game of the registry with its
options, the time per move, the algorithms allowed and their depth cap, how many games a
new entry plays, a cap on entries, a closing time) and gets a short join code. A student
joins with the code and a display name (:mod:`lib.contest.identity`) and gets an author
token; with it they submit entries: a formula (checked by
:func:`lib.games.formula.compile_formula`, the game page's language and limits) or weights
for one of the game's heuristics, played by alpha-beta, expectimax or MCTS within the
contest's caps. Each submission is a new *version*; old versions keep their games.

Every write is one transaction that locks the contest's row (``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises anyway) and carries a key that makes
its retry harmless: joining again with the same token returns the same entry, submitting
again with the same request key returns the same version. Actions are rate-limited per
session and per contest (the ``actions`` table), so no session can flood the store.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from lib.contest import identity
from lib.contest.access import INSTRUCTOR_KEY_ENV as INSTRUCTOR_KEY_ENV  # re-exported
from lib.contest.access import instructor_access
from lib.contest.schedule import cancel_pending, schedule_games
from lib.contest.schema import actions, contests, entries, versions
from lib.contest.store import Store
from lib.errors import InputError
from lib.games.arena.options import check_options, options_tuple
from lib.games.core import available_games, get_game
from lib.games.formula import MAX_TEXT, compile_formula
from lib.games.search.players import MAX_DEPTH, PlayerConfig, make_player

ALGORITHMS = {"alphabeta": "Alpha-beta", "expectimax": "Expectimax", "mcts": "MCTS"}
"""The algorithms an entry may play with, and their labels."""

DEFAULT_SECONDS = 0.1
"""Default time per move (seconds)."""

DEFAULT_DEPTH = 3
"""Default depth cap of the searching algorithms."""

DEFAULT_GAMES = 12
"""Default number of games a new or changed entry plays (6 opponents, both colours)."""

DEFAULT_MAX_ENTRIES = 60
"""Default cap on entries in one contest."""

MAX_ENTRIES = 200
"""The largest entry cap an instructor may set."""

MAX_GAMES = 40
"""The most games an instructor may ask of each entry."""

MAX_SECONDS = 2.0
"""The longest time per move a contest may give (its games run on a shared server)."""

MAX_TITLE = 80
"""The longest contest title."""

MAX_KEY = 64
"""The longest request key (idempotency key) accepted."""

RATE_LIMITS = {
    # action: (per session, per contest) within RATE_WINDOW seconds
    "join": (5, 300),
    "submit": (6, 300),
    "answer": (20, 2000),
    "open": (10, 10),
}
"""How many of each action one session, and one contest, may do per :data:`RATE_WINDOW`."""

RATE_WINDOW = 60.0
"""The rate limits' window (seconds)."""


@dataclass(frozen=True)
class ContestSettings:
    """What an instructor chooses when opening a contest (see the module docstring)."""

    game: str = "othello"
    options: Mapping[str, Any] = field(default_factory=lambda: {"size": 6})
    title: str = "Class contest"
    seconds_per_move: float = DEFAULT_SECONDS
    max_depth: int = DEFAULT_DEPTH
    algorithms: tuple[str, ...] = tuple(ALGORITHMS)
    games_per_entry: int = DEFAULT_GAMES
    max_entries: int = DEFAULT_MAX_ENTRIES
    closes_at: float | None = None

    def checked(self) -> ContestSettings:
        """These settings, validated; raises :class:`InputError` naming the bad one."""
        games = available_games()
        if self.game not in games:
            raise InputError(f"There is no game {self.game!r}; choose one of {', '.join(games)}.")
        spec = get_game(self.game)
        check_options(spec, options_tuple(dict(self.options)))
        title = " ".join(str(self.title).split())[:MAX_TITLE] or "Class contest"
        if not (isinstance(self.seconds_per_move, int | float) and self.seconds_per_move >= 0.01):
            raise InputError("Time per move must be at least 0.01 s.")
        if self.seconds_per_move > MAX_SECONDS:
            raise InputError(f"Time per move may be at most {MAX_SECONDS:g} s on a shared server.")
        if not 1 <= int(self.max_depth) <= MAX_DEPTH:
            raise InputError(f"The depth cap must be from 1 to {MAX_DEPTH}.")
        unknown = [a for a in self.algorithms if a not in ALGORITHMS]
        if unknown or not self.algorithms:
            raise InputError(f"Allowed algorithms are chosen from {', '.join(ALGORITHMS)}.")
        if not 2 <= int(self.games_per_entry) <= MAX_GAMES:
            raise InputError(f"Games per entry must be from 2 to {MAX_GAMES}.")
        if not 2 <= int(self.max_entries) <= MAX_ENTRIES:
            raise InputError(f"The entry cap must be from 2 to {MAX_ENTRIES}.")
        return ContestSettings(
            game=self.game,
            options=dict(options_tuple(dict(self.options))),
            title=title,
            seconds_per_move=float(self.seconds_per_move),
            max_depth=int(self.max_depth),
            algorithms=tuple(dict.fromkeys(self.algorithms)),
            games_per_entry=int(self.games_per_entry) // 2 * 2,
            max_entries=int(self.max_entries),
            closes_at=self.closes_at,
        )


@dataclass(frozen=True)
class Contest:
    """One contest as stored."""

    id: int
    code: str
    title: str
    game: str
    options: dict[str, Any]
    seconds_per_move: float
    max_depth: int
    algorithms: tuple[str, ...]
    games_per_entry: int
    max_entries: int
    seed: int
    status: str
    closes_at: float | None
    formulas_published: bool

    @property
    def is_open(self) -> bool:
        """Open for joining and submitting: not closed, and not past its closing time."""
        return self.status == "open" and (self.closes_at is None or time.time() < self.closes_at)

    @classmethod
    def from_row(cls, row: Any) -> Contest:
        """A :class:`Contest` from a ``contests`` row."""
        return cls(
            id=row.id,
            code=row.code,
            title=row.title,
            game=row.game,
            options=json.loads(row.options),
            seconds_per_move=row.seconds_per_move,
            max_depth=row.max_depth,
            algorithms=tuple(row.algorithms.split(",")),
            games_per_entry=row.games_per_entry,
            max_entries=row.max_entries,
            seed=int(row.seed),
            status=row.status,
            closes_at=row.closes_at,
            formulas_published=bool(row.formulas_published),
        )


# -- who may do what


def check_instructor(given: object, configured: str | None, hosted: bool) -> None:
    """Allow an instructor action by the key alone, or raise :class:`InputError` saying why
    not (a login too: :func:`lib.contest.access.instructor_access`).

    With a key configured, ``given`` must equal it (constant-time comparison). Without
    one, a local install allows everything and a hosted server nothing.
    """
    instructor_access(given, configured, hosted)


def rate_limit(
    connection: sa.Connection, kind: str, actor: str, contest_id: int | None, now: float
) -> None:
    """Count one ``kind`` action of ``actor`` (a session's id) in ``contest_id``, or refuse it.

    Raises :class:`InputError` when the session, or the contest as a whole, has done
    :data:`RATE_LIMITS` ``[kind]`` of them in the last :data:`RATE_WINDOW` seconds.
    """
    per_actor, per_contest = RATE_LIMITS[kind]
    since = now - RATE_WINDOW
    recent = (
        sa.select(sa.func.count())
        .select_from(actions)
        .where(actions.c.kind == kind, actions.c.at > since)
    )
    actor = str(actor)[:MAX_KEY]
    if connection.scalar(recent.where(actions.c.actor == actor)) >= per_actor:
        raise InputError(
            f"Too many {kind} requests from this browser in the last minute; "
            "wait a minute and try again."
        )
    if (
        contest_id is not None
        and connection.scalar(recent.where(actions.c.contest_id == contest_id)) >= per_contest
    ):
        raise InputError(f"The contest is busy ({kind} requests): try again in a minute.")
    connection.execute(
        actions.insert().values(contest_id=contest_id, actor=actor, kind=kind, at=now)
    )


# -- contests


def open_contest(store: Store, settings: ContestSettings, actor: str = "instructor") -> Contest:
    """Open a new contest with ``settings``; returns it (with its fresh join code).

    The caller has checked the instructor (:func:`check_instructor`).
    """
    settings = settings.checked()
    now = time.time()

    def work(connection: sa.Connection) -> Contest:
        rate_limit(connection, "open", actor, None, now)
        for _ in range(20):
            code = identity.new_code()
            taken = connection.scalar(sa.select(contests.c.id).where(contests.c.code == code))
            if taken is None:
                break
        values = {
            "code": code,
            "title": settings.title,
            "game": settings.game,
            "options": json.dumps(dict(settings.options), sort_keys=True),
            "seconds_per_move": settings.seconds_per_move,
            "max_depth": settings.max_depth,
            "algorithms": ",".join(settings.algorithms),
            "games_per_entry": settings.games_per_entry,
            "max_entries": settings.max_entries,
            "seed": int.from_bytes(identity.new_token().encode()[:6], "big") % 2**31,
            "status": "open",
            "closes_at": settings.closes_at,
            "created_at": now,
        }
        connection.execute(contests.insert().values(**values))
        return _contest_by_code(connection, code)

    return store.transact(work)


def _contest_by_code(connection: sa.Connection, code: str, lock: bool = False) -> Contest:
    """The contest with join code ``code`` (checked), optionally locked for this transaction."""
    query = sa.select(contests).where(contests.c.code == identity.clean_code(code))
    if lock:
        query = query.with_for_update()
    row = connection.execute(query).first()
    if row is None:
        raise InputError("No contest has that join code; check it with your instructor.")
    return Contest.from_row(row)


def get_contest(store: Store, code: str) -> Contest:
    """The contest with join code ``code``; raises :class:`InputError` for a bad code."""
    clean = identity.clean_code(code)
    with store.read() as connection:
        return _contest_by_code(connection, clean)


def list_contests(store: Store) -> list[Contest]:
    """Every contest, newest first."""
    with store.read() as connection:
        rows = connection.execute(sa.select(contests).order_by(contests.c.id.desc())).all()
    return [Contest.from_row(row) for row in rows]


def set_status(store: Store, code: str, status: str) -> Contest:
    """Close (``"closed"``) or reopen (``"open"``) a contest; reopening clears a past
    closing time. Returns the contest as it now is."""
    if status not in ("open", "closed"):
        raise InputError(f"A contest is open or closed, not {status!r}.")

    def work(connection: sa.Connection) -> Contest:
        contest = _contest_by_code(connection, code, lock=True)
        values: dict[str, Any] = {"status": status}
        if status == "open" and contest.closes_at is not None and contest.closes_at < time.time():
            values["closes_at"] = None
        connection.execute(contests.update().where(contests.c.id == contest.id).values(**values))
        return _contest_by_code(connection, code)

    return store.transact(work)


def publish_formulas(store: Store, code: str, published: bool = True) -> None:
    """Show (or hide again) every entry's formula to the class; only once it is closed."""

    def work(connection: sa.Connection) -> None:
        contest = _contest_by_code(connection, code, lock=True)
        if published and contest.is_open:
            raise InputError("Close the contest before publishing its entries' formulas.")
        connection.execute(
            contests.update()
            .where(contests.c.id == contest.id)
            .values(formulas_published=published)
        )

    store.transact(work)


# -- entries


def _require_open(contest: Contest) -> None:
    """Refuse a change to a closed contest."""
    if not contest.is_open:
        raise InputError("This contest is closed: entries can no longer join or change.")


def join(store: Store, code: str, name: object, token: str, actor: str) -> int:
    """Join contest ``code`` as ``name`` with the author ``token`` (made by
    :func:`lib.contest.identity.new_token`); returns the entry's id.

    Joining again with the same token returns the same entry (a retried request).
    Raises :class:`InputError` for a bad code or name, a name that is taken (or looks
    like one that is), a closed or full contest, or too many requests.
    """
    clean = identity.clean_name(name)
    key = identity.name_key(clean)
    hashed = identity.token_hash(token)
    now = time.time()

    def work(connection: sa.Connection) -> int:
        contest = _contest_by_code(connection, code, lock=True)
        mine = connection.execute(
            sa.select(entries.c.id, entries.c.contest_id).where(entries.c.token_hash == hashed)
        ).first()
        if mine is not None and mine.contest_id == contest.id:
            return mine.id
        if mine is not None:
            raise InputError("This token already belongs to an entry of another contest.")
        _require_open(contest)
        rate_limit(connection, "join", actor, contest.id, now)
        count = connection.scalar(
            sa.select(sa.func.count())
            .select_from(entries)
            .where(entries.c.contest_id == contest.id, entries.c.house.is_(False))
        )
        if count >= contest.max_entries:
            raise InputError(f"This contest is full ({contest.max_entries} entries).")
        taken = connection.scalar(
            sa.select(entries.c.id).where(
                entries.c.contest_id == contest.id, entries.c.name_key == key
            )
        )
        if taken is not None:
            raise InputError(
                "That name is taken in this contest (or looks like one that is); choose another."
            )
        result = connection.execute(
            entries.insert().values(
                contest_id=contest.id,
                name=clean,
                name_key=key,
                token_hash=hashed,
                house=False,
                created_at=now,
            )
        )
        return int(result.inserted_primary_key[0])

    return store.transact(work)


@dataclass(frozen=True)
class Submission:
    """What an entry plays: a formula, or weights of a heuristic, and an algorithm.

    ``depth`` caps alpha-beta and expectimax (None: the contest's cap); ``exploration``
    is MCTS's c. The contest's time per move applies to all.
    """

    algorithm: str = "alphabeta"
    formula: str | None = None
    heuristic: str | None = None
    weights: tuple[float, ...] | None = None
    depth: int | None = None
    exploration: float | None = None

    def player_config(self, contest: Contest) -> PlayerConfig:
        """The player this submission plays in ``contest``, checked against the game and
        the contest's caps; raises :class:`InputError` naming what is wrong."""
        if self.algorithm not in contest.algorithms:
            allowed = ", ".join(ALGORITHMS[a] for a in contest.algorithms)
            raise InputError(f"This contest allows {allowed}, not {self.algorithm!r}.")
        spec = get_game(contest.game)
        if (self.formula is None) == (self.heuristic is None):
            raise InputError("Submit either a formula or weights for one of the heuristics.")
        formula = None
        if self.formula is not None:
            if not isinstance(self.formula, str) or len(self.formula) > MAX_TEXT:
                raise InputError(f"A formula may have at most {MAX_TEXT} characters.")
            formula = self.formula.strip()
            compile_formula(spec, formula)  # the game page's checks and messages
        weights = self.weights
        if weights is not None and not all(math.isfinite(float(w)) for w in weights):
            raise InputError("Weights must be finite numbers.")
        depth = contest.max_depth if self.depth is None else int(self.depth)
        if not 1 <= depth <= contest.max_depth:
            raise InputError(f"Depth must be from 1 to this contest's cap, {contest.max_depth}.")
        common = {"time_limit": contest.seconds_per_move, "formula": formula}
        if self.heuristic is not None:
            common.update(heuristic=self.heuristic, weights=weights)
        if self.algorithm == "mcts":
            config = PlayerConfig(
                kind="mcts",
                rollout="heuristic",
                exploration=1.4 if self.exploration is None else float(self.exploration),
                **common,
            )
        else:
            config = PlayerConfig(kind=self.algorithm, depth=depth, **common)
        make_player(config, spec)  # unknown heuristic, wrong number of weights
        return config

    def text(self) -> str:
        """The entry's text as kept: the formula, or ``heuristic: w1 / w2 ...``."""
        if self.formula is not None:
            return self.formula.strip()
        shown = " / ".join(f"{float(w):g}" for w in self.weights or ())
        return f"{self.heuristic}: {shown or 'default weights'}"


def _entry_by_token(connection: sa.Connection, contest: Contest, token: object) -> Any:
    """The entry ``token`` owns in ``contest``, or an :class:`InputError` (stale token)."""
    if not isinstance(token, str) or not token or len(token) > 200:
        raise InputError("This link has no valid entry token; join the contest again.")
    row = connection.execute(
        sa.select(entries).where(entries.c.token_hash == identity.token_hash(token))
    ).first()
    if row is None or row.contest_id != contest.id or row.removed:
        raise InputError(
            "This entry token is not (or no longer) valid in this contest; "
            "open the link you were given when you joined, or join again."
        )
    if not identity.same_secret(identity.token_hash(token), row.token_hash):
        raise InputError("This entry token is not valid in this contest.")
    return row


def submit(
    store: Store,
    code: str,
    token: str,
    submission: Submission,
    request_key: str,
    actor: str,
) -> int:
    """Submit a new version of the entry ``token`` owns; returns the version's number.

    The same ``request_key`` again returns the same version (a retried request). The new
    version is scheduled for its games at once (:func:`lib.contest.schedule.schedule_games`);
    the entry's older versions keep their games, and their unplayed ones are dropped.
    """
    if not isinstance(request_key, str) or not 8 <= len(request_key) <= MAX_KEY:
        raise InputError("A submission needs a request key of 8 to 64 characters.")
    now = time.time()

    def work(connection: sa.Connection) -> int:
        contest = _contest_by_code(connection, code, lock=True)
        entry = _entry_by_token(connection, contest, token)
        again = connection.execute(
            sa.select(versions.c.number, versions.c.entry_id).where(
                versions.c.request_key == request_key
            )
        ).first()
        if again is not None and again.entry_id == entry.id:
            return int(again.number)
        if again is not None:
            raise InputError("This request key was already used; submit again.")
        _require_open(contest)
        config = submission.player_config(contest)
        rate_limit(connection, "submit", actor, contest.id, now)
        return _add_version(connection, contest, entry.id, submission, config, request_key, now)

    return store.transact(work)


def _add_version(
    connection: sa.Connection,
    contest: Contest,
    entry_id: int,
    submission: Submission,
    config: PlayerConfig,
    request_key: str,
    now: float,
) -> int:
    """Insert the entry's next version, drop its older versions' unplayed games, schedule."""
    number = 1 + (
        connection.scalar(
            sa.select(sa.func.max(versions.c.number)).where(versions.c.entry_id == entry_id)
        )
        or 0
    )
    older = connection.scalars(
        sa.select(versions.c.id).where(versions.c.entry_id == entry_id)
    ).all()
    connection.execute(
        versions.insert().values(
            entry_id=entry_id,
            contest_id=contest.id,
            number=number,
            kind="formula" if submission.formula is not None else "weights",
            text=submission.text(),
            algorithm=submission.algorithm,
            spec=config.to_spec(),
            request_key=request_key,
            created_at=now,
        )
    )
    cancel_pending(connection, contest.id, older)
    schedule_games(connection, contest.id, contest.seed, contest.games_per_entry, now)
    return number


HOUSE_PLAYERS = {
    "House: random": ("random", "random"),
    "House: greedy": ("greedy", "greedy"),
    "House: default AI": ("alphabeta", None),
}
"""The built-in players a contest can enter: name -> (algorithm, kind of spec)."""


def add_house_entries(store: Store, code: str, names: Sequence[str] | None = None) -> list[str]:
    """Enter built-in players (:data:`HOUSE_PLAYERS`) in contest ``code``, at its caps.

    Entering one that is already in changes nothing; returns the names added.
    """
    chosen = list(HOUSE_PLAYERS) if names is None else list(names)
    now = time.time()

    def work(connection: sa.Connection) -> list[str]:
        contest = _contest_by_code(connection, code, lock=True)
        spec = get_game(contest.game)
        added = []
        for name in chosen:
            if name not in HOUSE_PLAYERS:
                raise InputError(f"There is no house player {name!r}.")
            key = identity.name_key(name)
            exists = connection.scalar(
                sa.select(entries.c.id).where(
                    entries.c.contest_id == contest.id, entries.c.name_key == key
                )
            )
            if exists is not None:
                continue
            kind, _ = HOUSE_PLAYERS[name]
            if kind == "alphabeta":
                config = PlayerConfig(
                    kind="alphabeta",
                    depth=contest.max_depth,
                    time_limit=contest.seconds_per_move,
                    heuristic=spec.default_heuristic,
                )
                text = f"{spec.default_heuristic}: default weights"
            else:
                config, text = PlayerConfig(kind=kind), kind
            token = identity.new_token()
            result = connection.execute(
                entries.insert().values(
                    contest_id=contest.id,
                    name=name,
                    name_key=key,
                    token_hash=identity.token_hash(token),
                    house=True,
                    created_at=now,
                )
            )
            connection.execute(
                versions.insert().values(
                    entry_id=int(result.inserted_primary_key[0]),
                    contest_id=contest.id,
                    number=1,
                    kind="house",
                    text=text,
                    algorithm=kind,
                    spec=config.to_spec(),
                    request_key=identity.token_hash(token)[:40],
                    created_at=now,
                )
            )
            added.append(name)
        schedule_games(connection, contest.id, contest.seed, contest.games_per_entry, now)
        return added

    return store.transact(work)


# -- moderation


def moderate(store: Store, code: str, entry_id: int, action: str, new_name: str = "") -> None:
    """Hide or show, remove, or rename entry ``entry_id`` of contest ``code``.

    ``action`` is ``"hide"``, ``"show"``, ``"remove"`` (gone from the leaderboard and the
    ratings; its unplayed games dropped) or ``"rename"`` (to ``new_name``, checked like
    any name).
    """

    def work(connection: sa.Connection) -> None:
        contest = _contest_by_code(connection, code, lock=True)
        row = connection.execute(
            sa.select(entries).where(entries.c.id == entry_id, entries.c.contest_id == contest.id)
        ).first()
        if row is None:
            raise InputError(f"Contest {contest.code} has no entry {entry_id}.")
        where = entries.c.id == entry_id
        if action in ("hide", "show"):
            connection.execute(entries.update().where(where).values(hidden=action == "hide"))
        elif action == "remove":
            connection.execute(entries.update().where(where).values(removed=True))
            ids = connection.scalars(
                sa.select(versions.c.id).where(versions.c.entry_id == entry_id)
            ).all()
            cancel_pending(connection, contest.id, ids)
        elif action == "rename":
            clean = identity.clean_name(new_name)
            key = identity.name_key(clean)
            taken = connection.scalar(
                sa.select(entries.c.id).where(
                    entries.c.contest_id == contest.id,
                    entries.c.name_key == key,
                    entries.c.id != entry_id,
                )
            )
            if taken is not None:
                raise InputError("Another entry has that name (or one that looks like it).")
            connection.execute(entries.update().where(where).values(name=clean, name_key=key))
        else:
            raise InputError(f"Unknown action {action!r}: hide, show, remove or rename.")

    store.transact(work)
