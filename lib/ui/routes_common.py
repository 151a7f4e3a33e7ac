"""What the route page's sections have in common: cached maps, settings, map clicks, tables.

The graphs below are ``st.cache_resource`` objects shared by every session: nothing may
change their nodes, edges or attributes (session choices live in ``st.session_state``).
The only thing stored on them is their search index (:mod:`lib.routes.compiled`), derived
from the graph alone, in networkx's own ``G.__networkx_cache__`` (at most two per graph).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import networkx as nx
import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.links import LinkField
from lib.routes import compare, graphs, places, race, search
from lib.routes.compare import COLUMN_LABELS
from lib.ui.common import read_query

ROMANIA, GRID, RANDOM, UPLOAD = "Romania (AIMA)", "Grid with obstacles", "Random graph", "Upload"
SOURCES = (ROMANIA, GRID, RANDOM, UPLOAD)

#: Caps that keep one visitor from stalling a small shared server (URL settings included).
MAX_GRID_ROWS, MAX_GRID_COLS, MAX_RANDOM_N = 60, 80, 2_000
#: Cap on the expansions of one IDA* search (the other searches expand each place once).
MAX_EXPANSIONS = 200_000


@st.cache_resource(max_entries=8, show_spinner=False)
def romania() -> nx.Graph:
    """The Romania map, built once per process and shared read-only."""
    return graphs.romania()


@st.cache_resource(max_entries=16, show_spinner=False)
def grid(rows: int, cols: int, obstacles: float, diagonal: bool, seed: int) -> nx.Graph:
    """A generated grid, shared read-only between sessions asking for the same one.

    Raises :class:`InputError` over :data:`MAX_GRID_ROWS` x :data:`MAX_GRID_COLS`.
    """
    if rows > MAX_GRID_ROWS or cols > MAX_GRID_COLS:
        raise InputError(
            f"A grid of {rows}x{cols} is over this server's limit of "
            f"{MAX_GRID_ROWS}x{MAX_GRID_COLS}."
        )
    return graphs.grid(rows, cols, obstacles=obstacles, diagonal=diagonal, seed=seed, corridor=True)


@st.cache_resource(max_entries=16, show_spinner=False)
def random_graph(n: int, seed: int) -> nx.Graph:
    """A generated random geometric graph, shared read-only (at most :data:`MAX_RANDOM_N`)."""
    if n > MAX_RANDOM_N:
        raise InputError(f"{n:,} places is over this server's limit of {MAX_RANDOM_N:,}.")
    return graphs.random_geometric(n, seed=seed)


@st.cache_resource(max_entries=8, show_spinner=False)
def uploaded(edges: bytes, nodes: bytes | None, edges_name: str, nodes_name: str) -> nx.Graph:
    """A graph from uploaded CSV bytes (raises InputError, which is not cached)."""
    return graphs.load_graph_csv(edges, nodes, edges_name=edges_name, nodes_name=nodes_name)


@st.cache_data(max_entries=32, show_spinner=False)
def heuristic_check(
    _G: nx.Graph,
    _heuristic: graphs.Heuristic,
    graph_key: str,
    heuristic_name: str,
    goals: tuple,
) -> compare.HeuristicReport:
    """:func:`lib.routes.compare.check_heuristic` towards ``goals``, shared by every visitor.

    ``graph_key`` and ``heuristic_name`` name the graph and heuristic (which are not
    hashed): the same map and heuristic give the same report.
    """
    return compare.check_heuristic(_G, _heuristic, goals=list(goals))


@st.cache_resource(max_entries=32, show_spinner=False)
def scale_of(_G: nx.Graph, key: str) -> float:
    """:func:`lib.routes.graphs.admissible_scale`, cached per graph ``key``."""
    return graphs.admissible_scale(_G)


#: Widget keys are ``rt_w_<name>``; the values live on in ``rt_v_<name>``, which are not
#: widget keys, so Streamlit keeps them when a widget is not drawn in a run (for example
#: while "Upload" waits for a file) and the widget is re-seeded from them on every run.
WIDGET_PREFIX, VALUE_PREFIX = "rt_w_", "rt_v_"


def widget_key(name: str) -> str:
    """The widget key of setting ``name``."""
    return WIDGET_PREFIX + name


def value_key(name: str) -> str:
    """The (non-widget) session-state key that keeps setting ``name``."""
    return VALUE_PREFIX + name


def get(name: str, default: object = None) -> object:
    """The kept value of setting ``name``."""
    return st.session_state.get(value_key(name), default)


def put(name: str, value: object) -> None:
    """Set setting ``name``: its kept value now, its widget on the next draw.

    Call it before the widget is drawn in this run, or from a callback.
    """
    st.session_state[value_key(name)] = value


def remember(name: str) -> None:
    """``on_change`` callback: keep the widget's new value."""
    if widget_key(name) in st.session_state:
        st.session_state[value_key(name)] = st.session_state[widget_key(name)]


def widget(draw: Callable, label: str, *args: Any, name: str, **kwargs: Any) -> Any:
    """Draw a widget for setting ``name`` seeded from its kept value, and keep what it returns.

    ``draw`` is a Streamlit widget function (``st.slider``, ``column.multiselect``...);
    ``args`` and ``kwargs`` go to it, without ``key``, ``value`` or ``default``.
    """
    if value_key(name) in st.session_state:
        st.session_state[widget_key(name)] = st.session_state[value_key(name)]
    value = draw(label, *args, key=widget_key(name), on_change=remember, args=(name,), **kwargs)
    st.session_state[value_key(name)] = value
    return value


def parse_names(known: Sequence[str]) -> Callable[[str], list[str]]:
    """A URL-value parser for ``|``-separated names: the known ones, in order (some required)."""

    def parse(text: str) -> list[str]:
        names = [name for name in text.split("|") if name in known]
        if not names:
            raise ValueError(text)
        return names

    return parse


def init_from_query(schema: Sequence[LinkField]) -> list[str]:
    """Seed the kept settings from ``st.query_params`` once per session.

    Values come from :func:`lib.ui.common.read_query` (out-of-range numbers moved
    to the nearest bound, unusable values replaced by the default); returns its
    notes for the page to show (empty on later runs).
    """
    if st.session_state.get("rt_query_loaded"):
        for field in schema:
            st.session_state.setdefault(value_key(field.name), field.default)
        return []
    st.session_state["rt_query_loaded"] = True
    values, notes = read_query(schema)
    for name, value in values.items():
        st.session_state[value_key(name)] = value
    return notes


def write_query(values: Mapping[str, object], known: tuple[str, ...] = ()) -> None:
    """Mirror the page's settings in the URL; drop ``known`` keys that no longer apply."""
    for key in known:
        if key not in values and key in st.query_params:
            del st.query_params[key]
    for key, value in values.items():
        text = ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
        if st.query_params.get(key) != text:
            st.query_params[key] = text


def apply_click(G: nx.Graph, map_key: str) -> None:
    """The route map's click callback: the first click sets the start, the next the goal, and so on.

    The map (:func:`lib.ui.components.route_player.route_map`) sends the index of the
    place clicked in ``G.nodes`` as its trigger ``click``; anything else is ignored.
    """
    event = st.session_state.get(map_key)
    place = (event or {}).get("click")
    if isinstance(place, bool) or not isinstance(place, int):
        return
    if not 0 <= place < G.number_of_nodes():
        return
    node = next(itertools.islice(G.nodes, place, None))
    target = "goal" if st.session_state.get("rt_click_next") == "goal" else "start"
    put(target, graphs.node_label(node))
    st.session_state["rt_click_next"] = "start" if target == "goal" else "goal"


def pick_endpoints(G: nx.Graph, graph_key: str = "") -> tuple[Hashable, Hashable]:
    """The start and goal chosen in the selects, defaulting to :func:`places.default_endpoints`.

    ``graph_key`` names the map. On a map other than the one the start and goal
    were chosen on (a new upload, another grid), they are kept only if a route
    joins them there, else the map's own pair is used: replacing an upload's
    edges file kept the old goal and opened on "No path".
    """
    kind = G.graph.get("kind")
    labels = [graphs.node_label(n) for n in G.nodes]
    if kind in ("romania", "upload"):
        labels.sort()
    remembered = get(f"ends_{kind}") or (None, None)  # the last choice on this kind of map
    chosen_on = st.session_state.get("rt_endpoints_map")
    map_changed = chosen_on is not None and chosen_on != graph_key
    if map_changed and not _joined(G, get("start"), get("goal")):
        if not _joined(G, *remembered):
            remembered = (None, None)  # the map's own pair, below
        put("start", remembered[0])
        put("goal", remembered[1])
    st.session_state["rt_endpoints_map"] = graph_key
    if get("start") not in labels or get("goal") not in labels:
        defaults = places.default_endpoints(G)
        for name, default, last in zip(("start", "goal"), defaults, remembered, strict=True):
            if get(name) not in labels:
                put(name, last if last in labels else default if default in labels else labels[0])
    start = widget(st.selectbox, "Start (or click the map)", labels, name="start")
    goal = widget(st.selectbox, "Goal (or click the map)", labels, name="goal")
    put(f"ends_{kind}", (start, goal))
    s, g = graphs.find_node(G, start), graphs.find_node(G, goal)
    if s is None or g is None:
        raise InputError("Choose a start and a goal on the map.")
    return s, g


def _joined(G: nx.Graph, start: object, goal: object) -> bool:
    """Do the places labelled ``start`` and ``goal`` exist on ``G`` with a route between them?"""
    s = None if start is None else graphs.find_node(G, str(start))
    g = None if goal is None else graphs.find_node(G, str(goal))
    return s is not None and g is not None and nx.has_path(G, s, g)


def column_config(
    table: pd.DataFrame, overrides: Mapping[str, tuple[str, str, str | None]] | None = None
) -> dict[str, object]:
    """``st.dataframe`` column settings giving ``table``'s columns readable labels.

    Labels come from :data:`lib.routes.compare.COLUMN_LABELS` (``overrides``
    first); the data keep their column names, so CSV downloads are unchanged.
    """
    labels = {**COLUMN_LABELS, **(overrides or {})}
    config: dict[str, object] = {}
    for column in table.columns:
        if column not in labels:
            continue
        label, help_text, fmt = labels[column]
        kind = table[column].dtype
        if pd.api.types.is_bool_dtype(kind):
            config[column] = st.column_config.CheckboxColumn(label, help=help_text or None)
        elif pd.api.types.is_numeric_dtype(kind):
            config[column] = st.column_config.NumberColumn(
                label, help=help_text or None, format=fmt
            )
        else:
            config[column] = st.column_config.TextColumn(label, help=help_text or None)
    return config


def show_table(
    table: pd.DataFrame,
    overrides: Mapping[str, tuple[str, str, str | None]] | None = None,
    **kwargs: Any,
) -> None:
    """``st.dataframe`` of ``table`` with readable column labels, no index, full width."""
    st.dataframe(
        table,
        column_config=column_config(table, overrides),
        hide_index=True,
        width="stretch",
        **kwargs,
    )


#: The step-through's step and the algorithm stepped through, in the link (the step is
#: clamped to the trace's last step when the search is shorter).
MAX_LINK_STEP = 3_000
STEP_LINK = (
    LinkField("step", int, 0, low=0, high=MAX_LINK_STEP),
    LinkField(
        "anim",
        str,
        "",  # the first algorithm with a route
        parse=lambda text: text if text in search.ALGORITHMS else _refuse(text),
        expected="an algorithm name (" + ", ".join(search.ALGORITHMS) + ")",
        used_instead="the first algorithm with a route",
    ),
)
LINK_STEP_KEY = "rt_step_from_link"  # the first search stepped through opens at the link's step


def _refuse(text: str) -> str:
    raise ValueError(text)


def keep_step_from_link() -> None:
    """On a session's first run: the link's step is the one the first search opens at."""
    if "step" in st.query_params:
        st.session_state[LINK_STEP_KEY] = True


#: The race's expander (it runs only while open) and its component's key.
RACE_OPEN_KEY, RACE_KEY = "rt_w_race_open", "rt_race"
DEFAULT_RACERS = ("A*", "Uniform-cost")
#: The race's play speeds (times the normal pace), as the player's speed control offers them.
RACE_SPEEDS = ("0.25", "0.5", "1", "2", "4", "8")


def parse_racers(text: str) -> list[str]:
    """A link's ``race=``: 2 to 4 known algorithm names joined by ``|`` (else ValueError)."""
    names = text.split("|")
    if not race.MIN_RACERS <= len(names) <= race.MAX_RACERS or len(set(names)) < len(names):
        raise ValueError(text)
    if any(name not in search.ALGORITHMS for name in names):
        raise ValueError(text)
    return names


RACE_LINK = (
    LinkField(
        "race",
        list,
        list(DEFAULT_RACERS),
        parse=parse_racers,
        expected=f"{race.MIN_RACERS} to {race.MAX_RACERS} different algorithm names joined by | "
        f"({', '.join(search.ALGORITHMS)})",
    ),
    LinkField("race_speed", str, "1", choices=RACE_SPEEDS),
)
"""The race's link settings: the algorithms racing and the play speed (the map is the page's)."""


def open_race_from_link() -> None:
    """A first visit whose link names a race opens the race's section."""
    if any(field.name in st.query_params for field in RACE_LINK):
        st.session_state[RACE_OPEN_KEY] = True
