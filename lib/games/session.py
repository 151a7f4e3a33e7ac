"""One game being played on a page: positions, moves, who made them, and what each AI searched.

A :class:`GameSession` is the only place a game's history changes. Every change
names the position it was asked for (``at_ply``, the number of moves played when
the person clicked or the AI started thinking): a move, an undo or an AI reply
meant for a position that is no longer current is dropped and reported as
stale, never applied to another position. That matters on a web page, where a
new script run can start (an Undo, a click, Autoplay switched off) while an
older run is still searching on the previous position.

Nothing here imports Streamlit: pages keep a session in ``st.session_state``.

>>> from lib.games.core import get_game
>>> game = get_game("othello")
>>> session = GameSession.new(game, {"size": 6})
>>> move = session.state.legal_moves()[0]
>>> session.play(move, at_ply=0)
True
>>> session.play(session.state.legal_moves()[0], at_ply=0)  # made for the old position
False
>>> session.ply
1
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from lib.errors import InputError
from lib.games.core import GameSpec, Move
from lib.games.search import fast as search
from lib.games.search.players import (
    MCTS_KIND,
    SEARCH_KINDS,
    Decision,
    MctsPlayer,
    PlayerConfig,
    SearchPlayer,
    make_player,
)
from lib.priority import run_lowered

STALE_MESSAGE = "The position changed before that was done (the board shows the current game)."
"""Shown when a request made for an earlier position is dropped."""


@dataclass
class GameSession:
    """One game in one visitor's session: positions, moves and what each AI move searched."""

    options: dict[str, Any]
    states: list[Any]
    moves: list[Move] = field(default_factory=list)
    decisions: list[Decision | None] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # who made each move (label)
    pending: Any = None  # a game's partial click selection (e.g. the piece to move)
    nonce: int = 0  # bumped on every board click; shown on the board (its data-revision)
    message: str | None = None
    hint: search.SearchResult | None = None
    hint_ply: int = -1
    hint_proofs: Any = None  # the game's proved value of each move, asked with the hint
    seed: int = 0
    rng: np.random.Generator = field(default_factory=np.random.default_rng)
    # a replayed game (e.g. from the Arena): "Replay of <match>, game N: <players>"; the page
    # shows it as a banner and lets both sides be played by hand until New game
    replay: str | None = None
    # the Arena link that plays the replayed game again (None: not reproducible from a link)
    replay_link: str | None = None
    # the moves taken back (Undo, the move slider), the next one last, with who made each and
    # what it searched: Forward plays them again, until a different move is played
    future: list[tuple[Move, Decision | None, str]] = field(default_factory=list)
    # the page's latest script run: a run that is no longer the latest (the visitor pressed
    # Undo, switched Autoplay off or clicked while it searched) must not play its AI reply
    run: int = 0
    # Streamlit runs a new page run in a new thread while the old one may still be searching:
    # a check of (run, ply) and the change it allows happen together, under this lock
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    @classmethod
    def new(cls, game: GameSpec, options: dict[str, Any], seed: int = 0) -> GameSession:
        """A fresh game with ``options`` (e.g. ``{"size": 8}``).

        A game whose start may be a coin toss (an ``initial_state`` taking a
        ``seed``) tosses with ``seed``, like every other random choice of the session.
        """
        start = dict(options)
        if "seed" in inspect.signature(game.initial_state).parameters:
            start.setdefault("seed", seed)
        return cls(
            options=dict(options),
            states=[game.initial_state(**start)],
            seed=seed,
            rng=np.random.default_rng(seed),
        )

    @property
    def state(self) -> Any:
        """The current position."""
        return self.states[-1]

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return len(self.moves)

    def play(
        self,
        move: Move,
        decision: Decision | None = None,
        who: str = "human",
        *,
        at_ply: int | None = None,
    ) -> bool:
        """Play ``move``, asked for the position after ``at_ply`` moves, and record it.

        Returns False (and changes nothing) when ``at_ply`` is given and is no
        longer the current ply: the request was made for another position.
        Raises InputError if the move is illegal in the current position.
        """
        with self.lock:
            if at_ply is not None and at_ply != self.ply:
                return False
            state = self.state
            if move not in state.legal_moves():
                raise InputError("That move is not legal in this position.")
            if self.future and self.future[-1][0] == move:
                self.future.pop()  # the game goes on as it went: the later moves stay
            else:
                self.future.clear()
            self.states.append(state.play(move))
            self.moves.append(move)
            self.decisions.append(decision)
            self.players.append(who)
            self.pending = None
            self.hint = None
            return True

    def play_reply(
        self, move: Move, decision: Decision, who: str, *, at_ply: int, run: int
    ) -> bool:
        """Play an AI's reply searched by page run ``run`` on the position after ``at_ply`` moves.

        Returns False (and changes nothing) when a later page run has started since
        ``run`` (see :meth:`start_run`) or the position is no longer that one: the page
        has moved on while the AI thought, and the newer run decides what happens.
        """
        with self.lock:
            if not self.is_latest(run):
                return False
            return self.play(move, decision, who, at_ply=at_ply)

    def undo(self, human_sides: set[int], *, at_ply: int | None = None) -> int:
        """Take back moves until a human is to move again (at least one move).

        Returns how many moves were taken back; 0 when ``at_ply`` is given and is
        no longer the current ply (the Undo was pressed on another position).
        """
        with self.lock:
            if at_ply is not None and at_ply != self.ply:
                return 0
            undone = 0
            while self.moves:
                self._take_back()
                undone += 1
                if not human_sides or self.state.to_move in human_sides:
                    break
            self.pending = None
            self.hint = None
            return undone

    def _take_back(self) -> None:
        """Take back the last move, keeping it (with who made it) for :meth:`forward`."""
        self.states.pop()
        self.future.append((self.moves.pop(), self.decisions.pop(), self.players.pop()))

    @property
    def total_plies(self) -> int:
        """Moves played plus the moves taken back that Forward can play again."""
        return len(self.moves) + len(self.future)

    def forward(self, *, at_ply: int | None = None) -> bool:
        """Play again the move last taken back; False if there is none or ``at_ply`` is stale."""
        with self.lock:
            if not self.future or (at_ply is not None and at_ply != self.ply):
                return False
            move, decision, who = self.future[-1]
            return self.play(move, decision, who)

    def go_to(self, ply: int, *, at_ply: int | None = None) -> bool:
        """Show the position after ``ply`` moves, stepping back or forward through the game.

        ``ply`` is clamped to ``0..total_plies``; False (nothing changed) when ``at_ply`` is
        given and is no longer the current ply.
        """
        with self.lock:
            if at_ply is not None and at_ply != self.ply:
                return False
            ply = min(max(ply, 0), self.total_plies)
            while self.ply > ply:
                self._take_back()
            while self.ply < ply:
                self.forward()
            self.pending = None
            self.hint = None
            return True

    def start_run(self) -> int:
        """Mark a new page run as the latest; returns its number (see :meth:`is_latest`).

        From then on no earlier run can play an AI reply (:meth:`play_reply`).
        """
        with self.lock:
            self.run += 1
            return self.run

    def is_latest(self, run: int) -> bool:
        """True while no later page run has started since ``run``."""
        return run == self.run

    def last_decision(self) -> tuple[int, Decision] | None:
        """(ply index, decision) of the most recent AI move, if any."""
        for index in range(len(self.decisions) - 1, -1, -1):
            decision = self.decisions[index]
            if decision is not None and decision.stats is not None:
                return index, decision
        return None

    def record_table(self, game: GameSpec) -> pd.DataFrame:
        """The game record: one row per move, with the AI's search figures."""
        rows = []
        for index, (move, decision, who) in enumerate(
            zip(self.moves, self.decisions, self.players, strict=True)
        ):
            stats = decision.stats if decision is not None else None
            rows.append(
                {
                    "ply": index + 1,
                    "side": game.player_names[self.states[index].to_move],
                    "player": who,
                    "move": game.format_move(move),
                    "value": decision.value if decision is not None else None,
                    "nodes": stats.nodes if stats else None,
                    "depth": stats.depth_reached if stats else None,
                    "seconds": round(stats.seconds, 4) if stats else None,
                }
            )
        return pd.DataFrame(
            rows, columns=["ply", "side", "player", "move", "value", "nodes", "depth", "seconds"]
        )


def decide(
    state: Any,
    config: PlayerConfig,
    game: GameSpec,
    rng: np.random.Generator,
    *,
    default_time: float,
    record_tree: bool = False,
    exact_root_scores: bool = False,
    on_progress: Callable[[Any], None] | None = None,
) -> Decision:
    """The move ``config`` plays in ``state``, as the Arena's players play it.

    A search player without a time budget, or an MCTS player with neither a
    time budget nor a number of simulations, gets ``default_time``; the search
    tree is recorded only up to the game's ``tree_depth``. ``on_progress`` sees a
    search's statistics while it runs and may raise to abandon it.

    The search runs in a thread of its own at a lower CPU priority
    (:func:`lib.priority.run_lowered`): on a server, other visitors' clicks come first.
    ``on_progress`` is called in the caller's thread, with the newest statistics.
    (:mod:`lib.games.move_pool` searches in another process instead, where one is free.)
    """
    choose = move_chooser(
        state,
        config,
        game,
        rng,
        default_time=default_time,
        record_tree=record_tree,
        exact_root_scores=exact_root_scores,
    )
    # searched in a thread of lower CPU priority than the server's answers to clicks,
    # its progress handed to ``on_progress`` in this thread (lib.priority)
    return run_lowered(choose, on_progress)


def move_chooser(
    state: Any,
    config: PlayerConfig,
    game: GameSpec,
    rng: np.random.Generator,
    *,
    default_time: float,
    record_tree: bool = False,
    exact_root_scores: bool = False,
) -> Callable[[Callable[[Any], None]], Decision]:
    """What :func:`decide` runs: ``choose(report)`` searches ``state`` for ``config``'s move,
    ``report`` seeing the search's statistics while it runs (the arguments as there)."""
    if config.time_limit is None and config.kind in SEARCH_KINDS and config.kind != "greedy":
        # the depth it would search without a clock stays its cap
        config = replace(config, time_limit=default_time, depth=config.search_depth)
    if config.kind == MCTS_KIND and config.time_limit is None and config.simulations is None:
        config = replace(config, time_limit=default_time)
    player = make_player(config, game)

    def choose(report: Callable[[Any], None]) -> Decision:
        if isinstance(player, MctsPlayer):
            return player.choose(state, rng, on_progress=report)
        if not isinstance(player, SearchPlayer):  # random, a game's own solver ...
            return player.choose(state, rng)
        return player.choose(
            state,
            rng,
            record_tree=record_tree
            and config.search_depth is not None
            and config.search_depth <= game.tree_depth,
            exact_root_scores=exact_root_scores,
            on_progress=report,
        )

    return choose
