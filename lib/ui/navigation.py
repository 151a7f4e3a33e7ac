"""The list of pages, used by the entry script and the home page.

Games are not listed here: each discovered game (:func:`lib.games.core.available_games`)
has its page ``pages/<name>.py`` and its card (title, icon, what it teaches) in its
``GameSpec``. Adding another kind of page means adding its file under ``pages/`` and
one entry in ``_STATIC_PAGES``.

The sidebar's menu is drawn by :func:`sidebar_menu`, not by Streamlit: Streamlit's own
menu first showed the folder's file names (and a link to ``/home``, a "Page not found")
on a fresh server's first visit, until the entry script's ``st.navigation`` ran; the
config's ``client.showSidebarNavigation = false`` hides it.

Each page's URL path equals its file name: with the page files in a folder named
``pages/``, Streamlit shows a blocking "Page not found" dialog on a fresh deep link
to a page whose ``url_path`` differs from its file name (STREAMLIT_NOTES).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from lib.games.core import GameSpec, available_games


@dataclass(frozen=True)
class PageInfo:
    """A page of the app: its file under ``pages/`` and how it is presented."""

    file: str  # also the URL path (file name without .py), see STREAMLIT_NOTES
    title: str
    icon: str
    group: str
    teaches: str  # one or two lines for the home page


def _static(file: str) -> PageInfo:
    return next(page for page in _STATIC_PAGES if page.file == file)


_STATIC_PAGES: tuple[PageInfo, ...] = (
    PageInfo(
        "portfolio.py",
        "Portfolio GA",
        ":material/show_chart:",
        "Optimisation",
        "Tune the course's genetic algorithm for portfolio weights, watch its fitness per "
        "generation and compare it with the exact MILP optimum and efficient frontier.",
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
    PageInfo(
        "puzzles.py",
        "Sliding-tile puzzles",
        ":material/grid_view:",
        "Search",
        "The 8- and 15-puzzle: BFS to IDA* and RBFS with h1, h2, linear conflict and a pattern "
        "database; AIMA's table of search costs and Korf's 100 instances reproduced.",
    ),
    PageInfo(
        "csp.py",
        "Constraint satisfaction",
        ":material/grid_on:",
        "Search",
        "Backtracking with MRV, degree, LCV, forward checking and AC-3, and min-conflicts, on "
        "map colouring, n-queens, Sudoku and the zebra puzzle: step by step and compared.",
    ),
    PageInfo(
        "local_search.py",
        "Local search",
        ":material/landscape:",
        "Optimisation",
        "Hill climbing, sideways moves, restarts, simulated annealing, beam search, a GA and "
        "min-conflicts on n-queens, up to a million queens, with AIMA's figures reproduced.",
    ),
    PageInfo(
        "contest.py",
        "Class contest",
        ":material/trophy:",
        "Class",
        "The class's own evaluation functions play each other: join with a code, submit a "
        "formula, watch the leaderboard on the projector; class polls on the search pages.",
    ),
)


def game_page(game: GameSpec) -> PageInfo:
    """The page of a discovered game: ``pages/<game.name>.py`` with the spec's card."""
    return PageInfo(f"{game.name}.py", game.title, game.icon, "Games", game.teaches)


def all_pages() -> tuple[PageInfo, ...]:
    """Every page in sidebar order, by the course's areas: optimisation (the GA, local
    search), each discovered game and the Arena, the search chapters (routes, puzzles,
    constraint satisfaction), and the class contest."""
    games = tuple(game_page(game) for game in available_games().values())
    return (
        _static("portfolio.py"),
        _static("local_search.py"),
        *games,
        _static("arena.py"),
        _static("routes.py"),
        _static("puzzles.py"),
        _static("csp.py"),
        _static("contest.py"),
    )


PAGES: tuple[PageInfo, ...] = all_pages()
"""The pages in sidebar order (an immutable tuple, the same for every session)."""


def page_groups(pages: tuple[PageInfo, ...]) -> dict[str, list[PageInfo]]:
    """``pages`` by their group (the course's areas), groups and pages in sidebar order."""
    groups: dict[str, list[PageInfo]] = {}
    for info in pages:
        groups.setdefault(info.group, []).append(info)
    return groups


PAGES_DIR = "pages"
"""Folder of the page files, relative to the repository root (the entry script's folder)."""


def page_file(file: str) -> str:
    """The path of a page file as ``st.switch_page`` / ``st.page_link`` want it."""
    return f"{PAGES_DIR}/{file}"


def url_path(page: PageInfo) -> str:
    """The page's URL path: its file name without ``.py`` (deep links rely on it)."""
    return page.file.removesuffix(".py")


MENU_KEY = "app_menu"
"""Key of the sidebar container holding the page menu (kept in the presentation view)."""


def sidebar_menu(groups: dict[str, list[st.Page]]) -> None:
    """Draw the page menu at the top of the sidebar: each group's name, then its pages' links.

    ``groups`` is what the entry script gives ``st.navigation`` (the group ``""``
    has no name shown).
    """
    with st.sidebar.container(key=MENU_KEY, gap=None):
        for group, pages in groups.items():
            if group:
                st.caption(group)
            for page in pages:
                st.page_link(page)


def require_app_navigation() -> None:
    """Make a page opened outside the app's menu rerun inside it (call it first on every page).

    A ``pages/`` folder beside the entry script makes Streamlit treat the first
    session of a freshly started server as an old-style multipage app: a deep
    link (say a shared link that wakes a sleeping hosted app) runs the page file
    by itself, with the folder's raw file list as its menu. The entry script's
    ``st.navigation`` turns that mode off for good; here the page turns it off
    and reruns, so the entry script draws the real menu and runs this page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
