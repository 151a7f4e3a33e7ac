"""A game page's position in its link: the moves played, the ply shown, the seed, a replay.

``moves=`` holds the game's moves in its own notation (``format_move``), separated by
commas; ``ply=`` the move shown when it is not the last (the later moves are kept, for
Forward and the move slider); ``seed=`` the session's seed (a coin toss for the first
move); ``replay=yes`` a replayed game (both sides moved by hand).
Generic: every game is read through its :class:`lib.games.core.GameSpec`.
"""

from __future__ import annotations

import streamlit as st

from lib.games.core import GameSpec
from lib.games.session import GameSession
from lib.links import LinkField, read_moves, write_moves
from lib.ui.common import escape_markdown, read_query

GAME_LINK_PARAMS = ("moves", "ply", "seed", "replay")
"""The URL parameters of a game's position (beside the options and the players)."""
MAX_SEED = 2**32 - 1
START_TRIES = 256
"""Seeds tried for one that starts a game where a replay started (a coin toss: a few do)."""
LINK_PLAYER = "from the link"
"""Who made a move the link played (the game record's player column)."""
SHARED_REPLAY = "A shared game"
"""A replay restored from a link (its players are not in the link): the banner's name."""


def link_seed(notes: list[str]) -> int | None:
    """The link's ``seed=`` (None if absent or unusable; a bad one goes to ``notes``)."""
    values, problems = read_query((LinkField("seed", int, None, low=0, high=MAX_SEED),))
    notes.extend(problems)
    return values["seed"]


def restore_from_link(game: GameSpec, session: GameSession, notes: list[str]) -> None:
    """Play the link's ``moves=`` on the fresh ``session`` and show its ``ply=``.

    A move that cannot be read or is illegal is named in ``notes`` with its ply; the
    moves before it are kept. ``replay=yes`` makes it a replay: no AI moves by itself.
    """
    text = st.query_params.get("moves")
    if text is None:
        return
    moves, note = read_moves(text, session.state, game.parse_move, quote=escape_markdown)
    if note:
        notes.append(note)
    for move in moves:
        session.play(move, None, LINK_PLAYER)
    values, problems = read_query(
        (
            LinkField("ply", int, len(moves), low=0, high=len(moves)),
            LinkField("replay", bool, False),
        )
    )
    notes.extend(problems)
    session.go_to(values["ply"])
    if values["replay"]:
        session.replay = SHARED_REPLAY


def start_seed(game: GameSpec, session: GameSession, tries: int = START_TRIES) -> int | None:
    """A seed whose new game starts where ``session`` started (None if none is found).

    The session's own seed, unless its start was set otherwise: an Arena replay starts
    where its match's coin toss said, so the first seed whose toss agrees is taken.
    """
    start = session.states[0]
    for seed in (session.seed, *range(tries)):
        if GameSession.new(game, session.options, seed).states[0] == start:
            return seed
    return None


def write_game_link(game: GameSpec, session: GameSession) -> None:
    """Mirror the game's position in the URL (no position parameters before the first move,
    nor for a start no seed reproduces)."""
    moves = [*session.moves, *(move for move, _, _ in reversed(session.future))]
    seed = start_seed(game, session) if moves else None
    wanted = {}
    if seed is not None:
        wanted = {"moves": write_moves(moves, game.format_move), "seed": str(seed)}
        if session.future:
            wanted["ply"] = str(session.ply)
        if session.replay:
            wanted["replay"] = "yes"
    for name in GAME_LINK_PARAMS:
        if name not in wanted and name in st.query_params:
            del st.query_params[name]
        elif name in wanted and st.query_params.get(name) != wanted[name]:
            st.query_params[name] = wanted[name]
