"""The contest's projector view: the leaderboard refreshing by itself, and the live poll.

Every name is shown through ``st.dataframe`` (text, never Markdown or HTML). The change
column compares each entry's rank with the one this browser last showed.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.contest import polls
from lib.contest.contests import Contest
from lib.contest.schedule import game_counts
from lib.contest.standings import leaderboard
from lib.contest.store import Store
from lib.ui.common import csv_download

REFRESH_SECONDS = 5.0
"""How often the projector's leaderboard and poll redraw themselves."""

LAST_RANKS_KEY = "ct_last_ranks"
"""Session key: each contest's ranks as last shown (for the change column)."""


def rating_text(rating: float, half_width: float) -> str:
    """A rating with its interval, e.g. ``"152 ± 87"`` (``"–"`` without games).

    >>> rating_text(151.6, 86.8)
    '152 ± 87'
    """
    if rating is None or math.isnan(rating):
        return "–"
    return f"{rating:.0f} ± {half_width:.0f}"


def board_table(table: pd.DataFrame, last_ranks: dict[int, int]) -> pd.DataFrame:
    """The projector's columns: rank, name, rating ± interval, W/D/L, games, change."""
    change = []
    for entry, rank in zip(table.entry, table["rank"], strict=True):
        before = last_ranks.get(int(entry))
        change.append("new" if before is None else f"{before - rank:+d}" if before != rank else "")
    ratings = zip(table.rating, table.plus_minus, strict=True)
    records = zip(table.wins, table.draws, table.losses, strict=True)
    return pd.DataFrame(
        {
            "Rank": table["rank"],
            "Name": table["name"],
            "Rating": [rating_text(rating, half) for rating, half in ratings],
            "W/D/L": [f"{won}/{drawn}/{lost}" for won, drawn, lost in records],
            "Games": table["games"],
            "Change": change,
        }
    )


def show_leaderboard(store: Store, contest: Contest, live: bool = True) -> None:
    """The leaderboard, redrawn every :data:`REFRESH_SECONDS` while ``live``."""

    def draw() -> None:
        # the counts first: a game recorded between the two reads is then in the table,
        # never in the caption alone (the table and its CSV are never older than the caption)
        counts = game_counts(store, contest.id)
        table = leaderboard(store, contest.id)
        every = st.session_state.setdefault(LAST_RANKS_KEY, {})
        shown = board_table(table, every.get(contest.id, {}))
        every[contest.id] = dict(zip(table.entry.astype(int), table["rank"], strict=True))
        # the caption above the table is sent after it and its CSV: a browser shows a new
        # count only once the table and the file it downloads are this run's (sent first,
        # the caption led the download button by the table's time, and a click meanwhile
        # fetched the last run's file)
        above = st.container()
        st.dataframe(shown, hide_index=True, width="stretch", key="ct_w_board")
        csv_download(
            table, f"contest-{contest.code}-leaderboard.csv", "Leaderboard CSV", "ct_w_board_csv"
        )
        above.caption(
            f"{counts.get('done', 0)} games played, "
            f"{counts.get('pending', 0) + counts.get('claimed', 0)} to play."
        )

    st.fragment(draw, run_every=REFRESH_SECONDS if live else None)()


def poll_figure(counts: dict[str, int], answer: str | None) -> go.Figure:
    """The answers' distribution as a bar chart; the right answer green once revealed."""
    colours = ["#2e7d32" if answer is not None and c == answer else "#607d8b" for c in counts]
    figure = go.Figure(go.Bar(x=list(counts), y=list(counts.values()), marker_color=colours))
    figure.update_layout(
        height=320, margin={"l": 40, "r": 10, "t": 10, "b": 40}, yaxis_title="answers"
    )
    figure.update_xaxes(type="category")
    return figure


def show_live_poll(store: Store, contest: Contest, live: bool = True) -> None:
    """The live poll's question, its answers filling, then the reveal."""

    def draw() -> None:
        poll = polls.live_poll(store, contest.code)
        if poll is None:
            st.caption("No poll is open.")
            return
        st.subheader("Class poll")
        st.text(poll.question)
        counts = polls.poll_counts(store, poll)
        revealed = poll.state == "revealed"
        st.plotly_chart(poll_figure(counts, poll.answer if revealed else None), key="ct_w_poll")
        st.caption(f"{sum(counts.values())} answers")
        if revealed:
            st.success("Answer: " + poll.answer.replace("\\", "\\\\").replace("*", "\\*"))
            st.text(poll.explanation)

    st.fragment(draw, run_every=REFRESH_SECONDS if live else None)()
