"""The list of pages: one entry per page file, used by the entry script and the home page.

Adding a page means adding its file under ``app_pages/`` and one entry here.

The folder is deliberately not called ``pages/``: Streamlit treats a ``pages/``
folder beside the entry script as an old-style multipage app, and the first
session of a freshly started server (for example a shared deep link that wakes
a sleeping hosted app) then shows that folder's raw file list in the sidebar
instead of the ``st.navigation`` menu.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageInfo:
    """A page of the app: its file under ``app_pages/`` and how it is presented."""

    file: str  # also the URL path (file name without .py), see STREAMLIT_NOTES
    title: str
    icon: str
    group: str
    teaches: str  # one or two lines for the home page


PAGES: tuple[PageInfo, ...] = (
    # Each page adds its entry here, in the order of the sidebar.
    PageInfo(
        "portfolio.py",
        "Portfolio GA",
        ":material/show_chart:",
        "Optimisation",
        "Tune the course's genetic algorithm for portfolio weights, watch its fitness per "
        "generation and compare it with the exact MILP optimum and efficient frontier.",
    ),
    PageInfo(
        "othello.py",
        "Othello",
        ":material/grid_on:",
        "Games",
        "Play Othello against minimax, alpha-beta or expectimax and see what the AI searched: "
        "nodes, cut-offs, the score of every move, the search tree.",
    ),
    PageInfo(
        "checkers.py",
        "Checkers",
        ":material/apps:",
        "Games",
        "Play English draughts (compulsory captures, multi-jumps, kings) against minimax or "
        "alpha-beta with the course's heuristic or a stronger one, and see what it searched.",
    ),
    PageInfo(
        "sim.py",
        "The Game of Sim",
        ":material/change_history:",
        "Games",
        "Colour lines on six points without closing a triangle: the course's triangle-threat "
        "heuristic against an exact solver that knows who wins from any position.",
    ),
    PageInfo(
        "arena.py",
        "Arena",
        ":material/sports_esports:",
        "Games",
        "AI against AI: the course's experiments (depth, pruning, move ordering, evaluation) "
        "with win rates and confidence intervals, and weights evolved by a GA in leagues.",
    ),
    PageInfo(
        "routes.py",
        "Route search",
        ":material/route:",
        "Search",
        "BFS, DFS, uniform-cost, greedy, A*, weighted A*, IDA*, bidirectional and the "
        "course's B* on maps: animated step by step and compared on every pair of places.",
    ),
)


PAGES_DIR = "app_pages"
"""Folder of the page files, relative to the repository root (the entry script's folder)."""


def page_file(file: str) -> str:
    """The path of a page file as ``st.switch_page`` / ``st.page_link`` want it."""
    return f"{PAGES_DIR}/{file}"


def url_path(page: PageInfo) -> str:
    """The page's URL path: its file name without ``.py`` (deep links rely on it)."""
    return page.file.removesuffix(".py")
