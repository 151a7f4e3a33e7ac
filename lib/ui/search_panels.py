"""What the AI searched, drawn: statistics of one search, and variants compared on one position."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.durations import duration_text
from lib.games.core import Move
from lib.games.drawing import figures as plots
from lib.games.drawing import search_charts as search_plots
from lib.games.drawing.view import BoardAdapter
from lib.games.search import fast as search
from lib.games.search import mcts, variants
from lib.games.search.players import PlayerConfig, bind_heuristic
from lib.games.session import GameSession
from lib.ui.common import csv_download, escape_markdown, user_errors
from lib.ui.game_state import CompareKeys

SCORE_BARS_WIDTH = 460
"""Pixel width of the move-score bars beside the 400-pixel score board (both fit at 1400 px)."""


def _board_and_bars(board: go.Figure | None, bars: go.Figure, key: str) -> None:
    """The heat-map board beside the per-move bars (the bars alone without a board)."""
    if board is None:
        st.plotly_chart(bars, key=f"{key}_scores")
        return
    # side by side where both fit (1400 px), one under the other at 1024 px: in two
    # half-width columns the board shrank and its score badges overlapped
    with st.container(horizontal=True, wrap=True, key=f"{key}_heat_row"):
        st.plotly_chart(board, key=f"{key}_heat", width="content", config={"displayModeBar": False})
        st.plotly_chart(bars, key=f"{key}_scores", width=SCORE_BARS_WIDTH)


def proved_moves_markdown(
    scores: Mapping[Move, float],
    bounds: Mapping[Move, str],
    verdicts: Mapping[Move, tuple[str, str]],
    format_move: Callable[[Move], str],
) -> str:
    """A markdown list, one move a line in the game's notation order: the proved value in
    words with its line where the game's solver settled the move (``verdicts``), else the
    search's score in words (:func:`~lib.games.drawing.figures.score_words`). Empty without
    verdicts: the board's colours and numbers already show the search's scores."""
    if not verdicts:
        return ""
    lines = []
    for move in sorted(set(scores) | set(verdicts), key=format_move):
        name = escape_markdown(format_move(move))
        if move in verdicts:
            words, line = verdicts[move]
            shown = f", line {escape_markdown(line)}" if line else ""
            lines.append(f"- **{name}** {escape_markdown(words)}{shown}")
        else:
            words = plots.score_words(scores[move], bounds.get(move, "exact"))
            found = f"finds {words}" if "forced" in words else f"scores it {words}"
            lines.append(f"- **{name}** not proved by the solver; the search {found}")
    return "\n".join(lines)


def search_stats_panel(
    stats: search.SearchStats | mcts.MctsStats,
    format_move: Callable[[Move], str],
    *,
    chosen: Move | None = None,
    key: str = "stats",
    board: go.Figure | None = None,
    verdicts: Mapping[Move, tuple[str, str]] | None = None,
) -> None:
    """Metrics (nodes, cut-offs, depth, time, EBF), scores per move (on ``board`` as a heat
    map when given, and as bars), principal variation, iterations and the search tree.

    ``verdicts`` (move -> its proved value in words and a best line, from the game's
    solver) label those moves' bars and fill the table's ``proved`` column; the other
    moves keep the search's score. A Monte Carlo tree search's statistics get
    :func:`mcts_stats_panel`.
    """
    if isinstance(stats, mcts.MctsStats):
        mcts_stats_panel(stats, format_move, chosen=chosen, key=key, board=board)
        return
    cols = st.columns(5)
    cols[0].metric(
        "Nodes",
        f"{stats.nodes:,}",
        help="Every position visited, the iteration the time budget stopped included.",
    )
    if stats.by_solver:  # the game's exact solver counts positions only
        cols[1].metric("Cut-offs", "—", help="Not counted by the game's exact solver.")
    else:
        cols[1].metric("Cut-offs", f"{stats.cutoffs:,}", help="Cut-offs that skipped moves.")
    cols[2].metric(  # "Depth completed" was cut at 1024 px
        "Depth",
        stats.completed_depth,
        help="Depth completed: the deepest iteration that finished (its move was played).",
    )
    budget = f" of its {stats.time_limit:g} s budget" if stats.time_limit is not None else ""
    cols[3].metric(  # the budget goes in the help and the caption: "0.28 s of 1 s" was cut
        "Time", duration_text(stats.seconds), help=f"Time the search used{budget}."
    )
    cols[4].metric(
        "EBF",
        f"{stats.ebf:.2f}" if stats.ebf else "—",  # none for a move found without a search
        help="Effective branching factor: (nodes of the completed iterations)^(1/depth "
        "completed), as in the iteration chart.",
    )
    notes = []
    if stats.timed_out:
        notes.append(
            f"the time budget stopped depth {stats.completed_depth + 1} after "
            f"{stats.unfinished_nodes:,} of the {stats.nodes:,} nodes"
        )
    if stats.by_solver:
        notes.append("the game's exact solver chose the move (it counts positions only)")
    elif stats.exact_endgame:
        notes.append("exact endgame search")
    if stats.solver_compiling:
        notes.append(
            "the game's exact solver was left out: this server is still compiling it (once "
            "after an install, some seconds), and the move did not wait for it"
        )
    if stats.exact_attempt_seconds:
        notes.append(
            f"the exact endgame solver gave up after {stats.exact_attempt_seconds:.2f} s "
            "(it would not finish in time); the search had the time left"
        )
    if stats.solved:
        notes.append("every line reached the end of the game")
    if stats.table_hits:
        notes.append(f"{stats.table_hits:,} transposition-table hits")
    pv = " ".join(format_move(m) for m in stats.principal_variation)
    leaves = "" if stats.by_solver else f" · leaf evaluations {stats.leaf_evaluations:,}"
    st.caption(
        f"{stats.budget_text().capitalize()} · principal variation: **{pv or '—'}**"
        + leaves
        + (" · " + "; ".join(notes) if notes else "")
    )
    if stats.root_scores:
        _move_scores(stats, format_move, chosen, key, board, verdicts or {})
    if len(stats.iterations) > 1:
        st.plotly_chart(search_plots.iterations_figure(stats.iterations), key=f"{key}_iterations")
    if stats.tree:
        st.plotly_chart(plots.search_tree_figure(stats.tree, format_move), key=f"{key}_tree")
        if stats.tree_truncated:
            st.caption("The tree was too large to record completely; the drawing shows its start.")


def _move_scores(
    stats: search.SearchStats,
    format_move: Callable[[Move], str],
    chosen: Move | None,
    key: str,
    board: go.Figure | None,
    verdicts: Mapping[Move, tuple[str, str]],
) -> None:
    """The scores of the root moves: heat map and bars, the proved moves' values, the CSV."""
    bars = plots.root_scores_figure(
        stats.root_scores,
        format_move,
        stats.root_bounds,
        chosen,
        texts={move: words for move, (words, _) in verdicts.items()},
        hover={
            move: f"{format_move(move)}: {words}, line {line}"
            for move, (words, line) in verdicts.items()
        },
    )
    _board_and_bars(board, bars, key)
    if verdicts:
        st.markdown(
            "Proved by the exact solver where it finished in time:\n\n"
            + proved_moves_markdown(stats.root_scores, stats.root_bounds, verdicts, format_move)
        )
    if any(bound != "exact" for bound in stats.root_bounds.values()):
        st.caption(
            "Hatched bars (≤) are alpha-beta bounds: that move is at most this good, "
            "which is enough to reject it. *Exact score for every move* in the sidebar "
            "gives every move its exact value."
        )
    table = pd.DataFrame(
        {
            "move": [format_move(m) for m in stats.root_scores],
            "score": list(stats.root_scores.values()),
            "bound": [stats.root_bounds.get(m, "exact") for m in stats.root_scores],
            "proved": [
                ", line ".join(verdicts[m]) if m in verdicts else "" for m in stats.root_scores
            ],
        }
    ).sort_values("score", ascending=False)
    csv_download(table, "move_scores.csv", "Download move scores (CSV)", key=f"{key}_csv")


def mcts_stats_panel(
    stats: mcts.MctsStats,
    format_move: Callable[[Move], str],
    *,
    chosen: Move | None = None,
    key: str = "stats",
    board: go.Figure | None = None,
) -> None:
    """A Monte Carlo tree search: simulations, positions, tree size and depth, time; the visits
    of each move (on ``board`` as the heat map when given, and as bars) and the chosen line."""
    cols = st.columns(5)
    cols[0].metric(
        "Simulations",
        f"{stats.simulations:,}",
        help="Walks down the tree by UCB1, each adding one position and playing the game out.",
    )
    cols[1].metric(
        "Positions",
        f"{stats.nodes:,}",
        help="Every position the simulations went through: in the tree and in the rollouts.",
    )
    cols[2].metric("Tree size", f"{stats.tree_nodes:,}", help="Positions kept in the tree.")
    cols[3].metric(
        "Tree depth", stats.max_tree_depth, help="Plies from the root to the deepest position."
    )
    cols[4].metric("Time", duration_text(stats.seconds))
    line = " ".join(format_move(m) for m in stats.principal_variation)
    notes = [f"exploration c = {stats.exploration:g}", f"rollouts: {mcts.ROLLOUTS[stats.rollout]}"]
    if stats.timed_out:
        notes.append(f"the time budget ended the search after {stats.simulations:,} simulations")
    if stats.solver:
        notes.append(f"{stats.proven_nodes:,} positions proven")
    if stats.proven_value is not None:
        outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[stats.proven_value]
        notes.append(f"proven {outcome} in {stats.proof_plies} plies")
    st.caption(f"Chosen line (most-visited path): **{line or '—'}** · " + "; ".join(notes))
    if not stats.root_visits:
        return
    bars = search_plots.visits_figure(stats.root_visits, stats.root_values, format_move, chosen)
    _board_and_bars(board, bars, key)
    st.caption(
        "Visits: how many simulations went through each move. UCT plays the most-visited "
        "move; the win rate (draws count half) is in each bar's hover and in the table."
    )
    table = pd.DataFrame(
        {
            "move": [format_move(m) for m in stats.root_visits],
            "visits": list(stats.root_visits.values()),
            "win_rate": [stats.root_values[m] for m in stats.root_visits],
        }
    ).sort_values("visits", ascending=False)
    st.dataframe(
        table.round({"win_rate": 3}), hide_index=True, height=min(300, 40 + 35 * len(table))
    )
    csv_download(table, "move_visits.csv", "Download move visits (CSV)", key=f"{key}_csv")


COMPARE_MAX_DEPTH = 5
"""Deepest search the comparison runs (alpha-beta without ordering is slow beyond)."""
COMPARE_MINIMAX_DEPTH = 4
"""Plain minimax is only run up to this depth."""


def compare_panel(
    adapter: BoardAdapter, key: str, session: GameSession, config: PlayerConfig
) -> None:
    """Search the current position with minimax and alpha-beta variants to the same depth."""
    game, state, keys = adapter.game, session.state, CompareKeys(key)
    st.markdown(
        "Search the position on the board with each variant to the same depth: every variant "
        "finds the same value, but pruning and good move ordering visit far fewer positions. "
        "The **effective branching factor** `nodes^(1/depth)` shows it per ply."
    )
    if not state.legal_moves():
        st.caption("The game is over: there is nothing to search.")
        return
    depth = st.slider(
        "Depth",
        1,
        COMPARE_MAX_DEPTH,
        value=min(3, config.depth or 3),
        key=keys.DEPTH,
        help=f"Plain minimax runs only up to depth {COMPARE_MINIMAX_DEPTH}.",
    )
    store = keys.RESULT
    if st.button("Compare the searches", key=keys.RUN, icon=":material/compare_arrows:"):
        chosen = [v for v in variants.VARIANTS if v != "minimax" or depth <= COMPARE_MINIMAX_DEPTH]
        progress = st.progress(0.0, text="Searching…")
        with user_errors():
            rows = variants.compare_variants(
                state,
                depth,
                bind_heuristic(config, game),
                chosen,
                on_progress=lambda done, total: progress.progress(
                    done / total, text=f"{done} of {total} searches done"
                ),
            )
            st.session_state[store] = (state, depth, rows)
        progress.empty()
    kept = st.session_state.get(store)
    if kept is None or kept[0] != state:
        used = config.formula or config.heuristic or game.default_heuristic
        st.caption(f"Heuristic: {escape_markdown(used)}. Press the button.")
        return
    _, searched_depth, rows = kept
    st.plotly_chart(search_plots.variants_figure(rows), key=f"{key}_cmp_chart")
    table = pd.DataFrame(rows)
    table["move"] = [game.format_move(m) for m in table["move"]]
    st.dataframe(table.round({"value": 4, "ebf": 2}), hide_index=True)  # the CSV keeps all
    csv_download(
        table, f"{game.name}_search_comparison.csv", "Download comparison (CSV)", key=f"{key}_cmpdl"
    )
    left_out = (
        f" Plain minimax is left out above depth {COMPARE_MINIMAX_DEPTH} (it searches every "
        "node: too slow for this server)."
        if searched_depth > COMPARE_MINIMAX_DEPTH
        else ""
    )
    st.caption(
        f"Depth {searched_depth}, {len(rows)} searches of the position on the board.{left_out}"
    )
