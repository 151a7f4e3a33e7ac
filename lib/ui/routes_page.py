"""The route-search page, section by section (``pages/routes.py`` calls these in order).

Each section reads its widgets, calls :mod:`lib.routes` and renders; what later
sections need is passed on explicitly (:class:`Question`), never kept in globals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial

import networkx as nx
import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.jobs import LATEST
from lib.links import LinkField
from lib.routes import animation, compare, explain, graphs, plots, search
from lib.ui import routes_common
from lib.ui.common import csv_download, user_errors
from lib.ui.common import escape_markdown as md
from lib.ui.components.route_player import route_map
from lib.ui.jobs import run_job

# Caps that keep one visitor from stalling a small shared server.
MAX_GRID_ROWS, MAX_GRID_COLS, MAX_RANDOM_N = (
    routes_common.MAX_GRID_ROWS,
    routes_common.MAX_GRID_COLS,
    routes_common.MAX_RANDOM_N,
)
MAX_COMPARE_PAIRS, MAX_CHECK_GOALS = 400, 25
#: Maps over this many places check the heuristic when asked (a button), not on every visit.
CHECK_WHEN_ASKED_OVER = 500
#: The expanders of the comparison and of the heuristic check: each section runs only while open.
COMPARISON_OPEN_KEY, CHECK_OPEN_KEY = "rt_w_compare_open", "rt_w_check_open"
ALGO_NAMES = list(search.ALGORITHMS)


DEFAULT_ALGOS = ["A*", 'Course "B*"', "Uniform-cost", "Greedy best-first"]
DEFAULTS: dict[str, object] = {
    "source": routes_common.ROMANIA,
    "rows": 25,
    "cols": 40,
    "obstacles": 25,
    "diagonal": False,
    "seed": 1,
    "n": 300,
    "algos": DEFAULT_ALGOS,
    "w": 1.5,
}


# On-screen labels for the page's own tables (CSV downloads keep the column names).
# Short enough that every column shows in the 564 px wide main column of a 1024 px window.
ROUTE_LABELS = {
    "cost": ("Length", "Length of the route the algorithm returned", "%.4g"),
    "shortest": ("Shortest?", "Is it a shortest route (Dijkstra's length)?", None),
    "roads": ("Roads", "Roads (edges) on the route", None),
    "max frontier": ("Frontier", "Largest frontier: most places waiting on it at once", None),
    "ms": ("ms", "Wall-clock time of the search, in milliseconds", "%.2f"),
}
SUMMARY_LABELS = {
    "optimal_share": (
        "Shortest",
        "Share of the pairs where the route was a shortest one",
        "percent",
    ),
    "suboptimal_pairs": ("Longer", "Pairs where the route was longer than the shortest", None),
    "mean_excess_pct": ("Mean +%", "Mean excess over the shortest route, in %", "%.2f"),
    "max_excess_pct": ("Worst +%", "Largest excess over the shortest route, in %", "%.2f"),
    "mean_expanded": ("Expanded", "Mean places expanded per pair", "%.1f"),
    "mean_ms": ("ms", "Mean wall-clock time per search, in milliseconds", "%.3f"),
}
#: The summary's columns on screen (the CSV has them all, mean_generated too).
SUMMARY_SHOWN = ["algorithm", "pairs", *SUMMARY_LABELS]
CONSISTENCY_LABELS = {
    "excess": ("Violation", "h(from) − road length − h(to); above 0 breaks consistency", "%.4g")
}


LINK = (
    LinkField("source", str, DEFAULTS["source"], choices=tuple(routes_common.SOURCES)),
    LinkField("rows", int, DEFAULTS["rows"], low=5, high=MAX_GRID_ROWS),
    LinkField("cols", int, DEFAULTS["cols"], low=5, high=MAX_GRID_COLS),
    LinkField("obstacles", int, DEFAULTS["obstacles"], low=0, high=45),
    LinkField("diagonal", bool, DEFAULTS["diagonal"]),
    LinkField("seed", int, DEFAULTS["seed"], low=0, high=9_999),
    LinkField("n", int, DEFAULTS["n"], low=10, high=MAX_RANDOM_N),
    LinkField(
        "algos",
        list,
        DEFAULTS["algos"],
        parse=routes_common.parse_names(ALGO_NAMES),
        expected="algorithm names joined by | (" + ", ".join(ALGO_NAMES) + ")",
    ),
    LinkField("w", float, DEFAULTS["w"], low=1.0, high=5.0, digits=1),
    *routes_common.RACE_LINK,
    *routes_common.STEP_LINK,
)
"""The page's link settings (start, goal and heuristic depend on the map: read below)."""


@dataclass(frozen=True)
class Question:
    """What the visitor asked: the route, the algorithms and the heuristic."""

    start: object
    goal: object
    algos: list[str]
    heuristic_name: str
    heuristic: graphs.Heuristic | None
    w: float
    choices: list[str]  # the heuristics this map offers
    road_table: pd.DataFrame | None  # each road against the straight line (straight lines)
    longer_roads: pd.DataFrame | None  # the roads shorter than their straight line
    heuristic_warning: str = ""  # shown under the map: the heuristic may overestimate here


def load_link_settings() -> bool:
    """Seed the widgets from the URL on the first run; warn about what is not understood.

    Returns whether this is the session's first run (its link settings are read).
    """

    first_visit = not st.session_state.get("rt_query_loaded")
    for note in routes_common.init_from_query(LINK):
        st.warning(note, icon=":material/warning:")
    if first_visit:
        routes_common.open_race_from_link()
        routes_common.keep_step_from_link()
    if first_visit and "algos" in st.query_params:
        unknown = [a for a in st.query_params["algos"].split("|") if a not in ALGO_NAMES]
        if unknown and routes_common.get("algos") != DEFAULT_ALGOS:
            st.warning(f"The link names unknown algorithm(s) {md(', '.join(unknown))}: left out.")
    for name in ("start", "goal", "heuristic"):
        if routes_common.get(name) is None and name in st.query_params:
            routes_common.put(name, st.query_params[name])
    return first_visit


def choose_map() -> tuple[str, nx.Graph, str]:
    """The map source widgets and the graph: ``(source, G, graph_key)``; stops without one."""

    # The settings live in the sidebar so that the map is on the first screen of a 1024x768
    # projector (under the settings it started at y≈926); an upload's files stay on the page.
    with st.sidebar:
        st.header("Route settings")
        source = routes_common.widget(st.radio, "Map", routes_common.SOURCES, name="source")
    G: nx.Graph | None = None
    graph_key = source
    with user_errors():
        if source == routes_common.ROMANIA:
            G = routes_common.romania()
        elif source == routes_common.GRID:
            with st.sidebar:  # one setting a row: the sidebar is about 300 px wide
                rows = routes_common.widget(st.slider, "Rows", 5, MAX_GRID_ROWS, name="rows")
                cols = routes_common.widget(st.slider, "Columns", 5, MAX_GRID_COLS, name="cols")
                share = routes_common.widget(st.slider, "Obstacles %", 0, 45, name="obstacles")
                seed = routes_common.widget(st.number_input, "Seed", 0, 9_999, name="seed")
                diagonal = routes_common.widget(
                    st.toggle,
                    "Diagonals",
                    name="diagonal",
                    help="8-connected grid: diagonal moves are allowed (a diagonal step costs √2).",
                )
            G = routes_common.grid(rows, cols, share / 100, diagonal, int(seed))
            st.caption(
                "Cells are named *row,column* from the top-left cell 0,0; a step costs 1"
                + (", a diagonal step √2." if diagonal else ".")
            )
            graph_key = f"grid-{rows}-{cols}-{share}-{diagonal}-{seed}"
        elif source == routes_common.RANDOM:
            with st.sidebar:
                n = routes_common.widget(st.slider, "Places", 10, MAX_RANDOM_N, name="n")
                seed = routes_common.widget(st.number_input, "Seed", 0, 9_999, name="seed")
            G = routes_common.random_graph(n, int(seed))
            graph_key = f"random-{n}-{seed}"
        else:
            c1, c2 = st.columns(2)
            edges_file = c1.file_uploader("Edges CSV", type=["csv"], key="rt_w_edges_file")
            nodes_file = c2.file_uploader(
                "Nodes CSV (optional)", type=["csv"], key="rt_w_nodes_file"
            )
            # folded once a file is in, so that the map comes right under the uploaders
            with st.expander("The files' format, and examples", expanded=edges_file is None):
                st.caption(
                    "Edges CSV: `source,target,weight` (one road per line, weights ≥ 0). "
                    "Optional nodes CSV: `node,x,y` (map coordinates, needed for straight-line "
                    "heuristics). Columns may be separated by commas, semicolons or tabs; with "
                    "semicolons or tabs a decimal comma (1,5) is fine. At most "
                    f"{graphs.MAX_UPLOAD_NODES:,} places and {graphs.MAX_UPLOAD_EDGES:,} roads."
                )
                for column, what, path in zip(
                    st.columns(2),
                    ("edges", "nodes"),
                    (graphs.ROMANIA_EDGES_CSV, graphs.ROMANIA_NODES_CSV),
                    strict=True,
                ):
                    with column:
                        csv_download(
                            pd.read_csv(path, dtype=str, keep_default_na=False),
                            f"romania_{what}.csv",
                            f"Example {what} CSV (Romania)",
                            key=f"rt_w_example_{what}",
                        )
            if edges_file is None:
                st.info("Upload an edges CSV to search your own map.")
            else:
                edge_bytes = edges_file.getvalue()
                node_bytes = None if nodes_file is None else nodes_file.getvalue()
                # laying out a big map without coordinates takes a few seconds
                with st.spinner(f"Reading {md(edges_file.name)}…"):
                    G = routes_common.uploaded(
                        edge_bytes,
                        node_bytes,
                        edges_file.name,
                        "" if nodes_file is None else nodes_file.name,
                    )
                graph_key = f"upload-{hash((edge_bytes, node_bytes))}"
                describe_upload(G)
    if G is None:
        st.stop()
    return source, G, graph_key


def describe_upload(G: nx.Graph) -> None:
    """Say what an uploaded map lacks: coordinates (so h = 0 only), roads to some places."""
    if not G.graph.get("has_coordinates", True):
        st.caption(
            "No nodes CSV: the places are drawn where a layout puts them, and without "
            "coordinates the only heuristic is h = 0 (A* then searches like uniform-cost). "
            "Add a nodes CSV (`node,x,y`) for straight-line heuristics."
        )
    alone = [graphs.node_label(n) for n in nx.isolates(G)]
    if alone:
        named = ", ".join(md(name) for name in alone[:5])
        more = f" and {len(alone) - 5} more" if len(alone) > 5 else ""
        st.warning(
            f"{len(alone)} place(s) of the nodes CSV have no road in the edges CSV: {named}{more}. "
            "No route reaches them; check their spelling in both files."
        )


def choose_question(G: nx.Graph, graph_key: str, first_visit: bool) -> Question:
    """Start, goal, algorithms, heuristic and w; warns when the heuristic can overestimate."""

    choices = graphs.heuristic_choices(G)
    family = (G.graph.get("kind"), G.graph.get("diagonal"), G.graph.get("has_coordinates"))
    previous_family = st.session_state.get("rt_heuristic_family")
    if routes_common.get("heuristic") not in choices or previous_family not in (None, family):
        routes_common.put("heuristic", choices[0])  # the recommended one for this kind of map
    st.session_state["rt_heuristic_family"] = family
    with st.sidebar:
        with user_errors():
            start, goal = routes_common.pick_endpoints(G, graph_key)
        algos = routes_common.widget(
            st.multiselect,
            "Algorithms",
            ALGO_NAMES,
            name="algos",
            help="\n".join(
                f"- **{md(name)}**: {search.INFO[name].description}" for name in ALGO_NAMES
            ),
        )
        heuristic_name = routes_common.widget(
            st.selectbox, "Heuristic h(n, goal)", choices, name="heuristic"
        )
        w = routes_common.widget(st.slider, "w (weighted A*)", 1.0, 5.0, step=0.1, name="w")
    if first_visit:  # a link's place or heuristic this map does not have: say what is used instead
        for name, used in (
            ("start", graphs.node_label(start)),
            ("goal", graphs.node_label(goal)),
            ("heuristic", heuristic_name),
        ):
            asked = st.query_params.get(name)
            if asked is not None and asked != used:
                st.warning(
                    f"The link's {name} “{md(asked)}” is not on this map's list, so "
                    f"“{md(used)}” is used."
                )

    heuristic = None
    with user_errors():
        scale = (
            routes_common.scale_of(G, graph_key)
            if heuristic_name == graphs.SCALED and G.number_of_nodes() <= graphs.SCALE_MAX_NODES
            else None
        )
        heuristic = graphs.make_heuristic(G, heuristic_name, scale=scale)
    longer_roads = None  # roads shorter than the straight line between their ends
    if isinstance(heuristic, graphs.StraightLine):
        road_table = compare.road_checks(G, heuristic)
        longer_roads = road_table[road_table["excess"] > compare.TOLERANCE * road_table["road"]]
    warning = ""
    if longer_roads is not None and not longer_roads.empty:
        better = [c for c in choices if c in (graphs.SCALED, graphs.BOOK)]
        places = compare.length_decimals(road_table["road"])
        named = ", ".join(
            f"{md(r['from'])}–{md(r['to'])} "
            f"({r['straight_line']:.{places}f} vs {r['road']:.{places}f})"
            for _, r in longer_roads.head(3).iterrows()
        )
        more = f" and {len(longer_roads) - 3} more" if len(longer_roads) > 3 else ""
        warning = (
            f"**{md(heuristic_name)} is not admissible on this map**: the coordinates are drawing "
            f"positions, and on {len(longer_roads)} road(s) the straight line is longer than the "
            f"road: {named}{more}. A* may then miss the shortest route. "
            + (
                "Never overestimates: "
                + ", ".join(
                    f"*{md(c)}*" + (" (goal Bucharest only)" if c == graphs.BOOK else "")
                    for c in better
                )
                + ". "
                if better
                else ""
            )
            + "Details in *Is the heuristic admissible?* at the bottom of the page."
        )
    return Question(
        start, goal, algos, heuristic_name, heuristic, w, choices,
        road_table if isinstance(heuristic, graphs.StraightLine) else None, longer_roads,
        warning,
    )  # fmt: skip


def _place(G: nx.Graph, label: str, kept: object) -> object:
    """The place of ``G`` named ``label``: ``kept`` when it is that place (no search of names)."""
    if kept in G and graphs.node_label(kept) == label:
        return kept
    return graphs.find_node(G, label)


def on_map(q: Question, G: nx.Graph, same_map: bool) -> Question | None:
    """``q`` asked on ``G`` from the start and goal chosen now; ``None`` if one is not on ``G``.

    A rerun of the route map alone (:func:`lib.ui.routes_lab.show_map`) has the question
    of the last full run: since then a drag or a click may have moved an end, and an edit
    made another map (``same_map`` false: its heuristic is made again for ``G``).
    """
    ends = (("start", q.start), ("goal", q.goal))
    start, goal = (_place(G, str(routes_common.get(end)), kept) for end, kept in ends)
    if start is None or goal is None:
        return None
    heuristic = q.heuristic
    if not same_map:
        heuristic = graphs.make_heuristic(
            G, q.heuristic_name, scale=getattr(heuristic, "scale", None)
        )
    return replace(q, start=start, goal=goal, heuristic=heuristic)


MAP_KEY = "rt_map"
"""The route map's key: one key, clicks are trigger values (the same place twice works)."""
#: The last searches of the route map: ``(question, results, problems, map data)``.
ROUTES_KEY = "rt_routes"


def _search_routes(
    G: nx.Graph, q: Question, editable: bool
) -> tuple[dict[str, search.RouteResult], list[tuple[str, str]], dict]:
    """``(results, problems, the route map's data)`` of ``q``'s algorithms on ``G``.

    A problem is ``(kind, text)``, shown as ``st.<kind>`` (warning, info or error).
    """
    start, goal, heuristic, w = q.start, q.goal, q.heuristic, q.w
    results: dict[str, search.RouteResult] = {}
    problems: list[tuple[str, str]] = []  # (how it is shown: "warning", "info", "error", text)
    runnable = list(q.algos)
    # The book's table only knows h(n, Bucharest): say so once instead of failing per algorithm.
    blocked, reason = explain.blocked_by_table(runnable, heuristic, start, goal)
    if blocked:
        table_goal = graphs.node_label(heuristic.goal)
        if reason == "goal":
            problems.append((
                "warning",
                f"The book's table only gives distances to {md(table_goal)}, so "
                f"{md(', '.join(blocked))} cannot search towards "
                f"{md(graphs.node_label(goal))}. "
                f"Set the goal to {md(table_goal)} or choose another heuristic.",
            ))  # fmt: skip
        else:
            problems.append((
                "info",
                'The course\'s "B*" also needs h(start, n), the distance from the start to '
                f"each place, which a table of distances to {md(table_goal)} does not have: "
                "choose a straight-line heuristic to run it.",
            ))  # fmt: skip
        runnable = [a for a in runnable if a not in blocked]
    for name in runnable:
        try:
            results[name] = search.run(
                name, G, start, goal, heuristic, w=w, max_expansions=routes_common.MAX_EXPANSIONS
            )
        except nx.NetworkXNoPath:
            problems.append((
                "error",
                f"No path: {md(graphs.node_label(goal))} cannot be reached from "
                f"{md(graphs.node_label(start))} (they are in different parts of the map).",
            ))  # fmt: skip
            break
        except InputError as error:
            said = str(error)  # name the algorithm once
            problems.append(
                ("error", md(said) if said.startswith(name) else f"{md(name)}: {md(said)}")
            )
    map_data = animation.route_map_data(
        G,
        routes=[(f"{n}: {r.cost:.4g} ({r.expanded} expanded)", r.path) for n, r in results.items()],
        start=start,
        goal=goal,
        title=f"{G.graph.get('name', 'Map')}: "
        f"{graphs.node_label(start)} → {graphs.node_label(goal)}",
        editable=editable,
    )
    return results, problems, map_data


def show_routes(
    G: nx.Graph,
    q: Question,
    map_events: Mapping[str, Callable[[], None]] | None = None,
    under_map: Callable[[], None] | None = None,
    graph_key: str | None = None,
) -> dict[str, search.RouteResult]:
    """Run the chosen algorithms; the map with their routes (clickable) and the route table.

    ``map_events`` are the map's ``on_edit`` / ``on_move`` callbacks (a grid with
    ``on_edit`` shows its paint tools) and may replace its ``on_click``; ``under_map``
    draws what goes right under it. With ``graph_key`` (the map's key) the searches and
    the map's data are kept for the next run that asks the same (:data:`ROUTES_KEY`).
    """
    editable = "on_edit" in (map_events or {})
    asked = (graph_key, tuple(q.algos), q.start, q.goal, q.heuristic_name, q.w, editable)
    kept = st.session_state.get(ROUTES_KEY)
    if graph_key is None or kept is None or kept[0] != asked:
        kept = (asked, *_search_routes(G, q, editable))
        if graph_key is not None:
            st.session_state[ROUTES_KEY] = kept
    _, results, problems, map_data = kept
    # the map's own hint line says what a press does with the tool chosen there
    next_click = st.session_state.get("rt_click_next", "start")
    route_map(
        {**map_data, "clickNext": next_click},
        key=MAP_KEY,
        **{"on_click": partial(routes_common.apply_click, G, MAP_KEY), **(map_events or {})},
    )
    # the map first: an edit's new routes show before the table's Dijkstra has run
    optimum = nx.dijkstra_path_length(G, q.start, q.goal) if results else None
    table = compare.route_table(results, optimum)
    if under_map is not None:
        under_map()
    # under the map, not above it: a wall that cuts the goal off must not move the map
    for kind, message in problems:  # st.warning, st.info or st.error
        getattr(st, kind)(message)
    if q.heuristic_warning:  # under the map, not above it: the map stays on the first screen
        st.warning(q.heuristic_warning)
    if results:
        st.markdown(f"Shortest route length (Dijkstra): **{optimum:.4g}**")
        routes_common.show_table(table, ROUTE_LABELS)
        csv_download(table, "routes.csv", "Download this table (CSV)", key="rt_w_dl_routes")
        for name, r in results.items():
            shown = " → ".join(md(graphs.node_label(n)) for n in r.path[:40])
            more = " → …" if len(r.path) > 40 else ""
            st.markdown(f"**{md(name)}** route (cost {r.cost:.4g}): {shown}{more}")
    with st.expander("What the algorithms do"):
        st.table(
            pd.DataFrame(
                explain.algorithm_rows(),
                columns=["Algorithm", "Idea", "Uses h", "Shortest route guaranteed"],
            )
        )
    return results


COMPARE_IN_POOL_PLACES = 200
"""Maps with at least this many places compare in a worker of the server's shared pool."""


def run_comparison(
    G: nx.Graph, args: tuple, kwargs: dict, on_progress: Callable[[int, int], None]
) -> pd.DataFrame:
    """``compare.all_pairs(G, *args, **kwargs)``: here on a small map, as a pool job on a big one.

    On a big map it is one job of the server's worker pool (:func:`lib.ui.jobs.run_job`):
    it may wait for a free worker, and Cancel or a closed tab stops it there.
    """
    if G.number_of_nodes() < COMPARE_IN_POOL_PLACES:
        return compare.all_pairs(G, *args, **kwargs, on_progress=on_progress)
    cancel = st.empty()
    cancel.button("Cancel", key="rt_w_compare_cancel", icon=":material/stop:")
    table = run_job(
        compare.all_pairs, (G, *args), kwargs, callbacks={"on_progress": (LATEST, on_progress)}
    )
    cancel.empty()
    return table


def show_comparison(G: nx.Graph, graph_key: str, q: Question) -> None:
    """The chosen algorithms on every pair (or a sample): table, charts, B* and A* verdicts."""
    all_pairs_count = G.number_of_nodes() * (G.number_of_nodes() - 1)
    cmp_algos, ordered, max_pairs, submitted = _comparison_form(q, all_pairs_count)
    settings = (graph_key, q.heuristic_name, q.w, tuple(cmp_algos), ordered, max_pairs)
    stored = st.session_state.get("rt_compare")
    auto = (stored is None or stored[0][0] != graph_key) and all_pairs_count <= MAX_COMPARE_PAIRS
    cmp_algos, only_bstar = _algorithms_the_heuristic_allows(q.heuristic, cmp_algos)
    if submitted and not cmp_algos and not only_bstar:
        st.warning("Choose at least one algorithm to compare.")
    if (submitted or auto) and cmp_algos:
        stored = _compare_and_keep(G, q, cmp_algos, ordered, max_pairs, settings) or stored
    if (stored is None or stored[0][0] != graph_key) and cmp_algos and not auto:
        st.info(
            f"This map has {all_pairs_count:,} ordered pairs of places, too many to search on "
            "every visit: press the button to compare the algorithms on a seeded random "
            "sample of them (*At most* sets its size)."
        )
    if stored is not None and stored[0][0] == graph_key:
        cmp_settings, cmp_table = stored
        if cmp_settings != settings:
            st.caption("These results are for earlier settings; press the button to update them.")
        for name, message in cmp_table.attrs.get("dropped", {}).items():
            st.warning(f"{md(name)} is left out of this comparison: {md(message)}")
        summary = compare.summary(cmp_table)
        table_only = isinstance(q.heuristic, graphs.TableHeuristic)
        _show_compared_pairs(cmp_table, cmp_settings[4], all_pairs_count, table_only)
        _show_comparison_tables(cmp_table, summary)
        _show_comparison_verdicts(cmp_table, summary, q, cmp_settings[1])


def _comparison_form(q: Question, all_pairs_count: int) -> tuple[list[str], bool, int, bool]:
    """The comparison's form: ``(algorithms, ordered pairs?, at most this many, submitted)``."""
    with st.form("rt_compare_form"):
        cmp_algos = st.multiselect("Algorithms to compare", ALGO_NAMES, default=q.algos or ["A*"])
        c2, c3 = st.columns([3, 2])
        pair_kinds = {
            f"Ordered: A→B and B→A ({all_pairs_count:,})": True,
            f"Unordered, as the course ({all_pairs_count // 2:,})": False,
        }
        ordered = pair_kinds[
            c2.radio(
                "Pairs",
                list(pair_kinds),
                help="Unordered pairs are itertools.combinations of the places, each pair "
                "searched once, from the place listed first (the course's count); ordered "
                "pairs are itertools.permutations, both directions.",
            )
        ]
        max_pairs = c3.number_input(
            "At most",
            1,
            MAX_COMPARE_PAIRS,
            value=max(1, min(MAX_COMPARE_PAIRS, all_pairs_count)),
            step=10,
            help="A seeded random sample of this many pairs when there are more.",
        )
        sampled = all_pairs_count > MAX_COMPARE_PAIRS
        submitted = st.form_submit_button(
            "Compare on a sample of pairs" if sampled else "Compare on all pairs", type="primary"
        )
    return cmp_algos, ordered, int(max_pairs), submitted


def _algorithms_the_heuristic_allows(
    heuristic: graphs.Heuristic | None, cmp_algos: list[str]
) -> tuple[list[str], bool]:
    """``(the algorithms that can run, whether the course's "B*" alone was asked for)``.

    The book's table knows distances to Bucharest only: the course's "B*"
    (which needs ``h(start, n)``) cannot run with it, and the page says so.
    """
    if not isinstance(heuristic, graphs.TableHeuristic):
        return cmp_algos, False
    st.caption(
        "The book's table only knows distances to Bucharest: the comparison uses the pairs "
        'that end there, without the course\'s "B*" (it also needs h(start, n)).'
    )
    only_bstar = cmp_algos == ['Course "B*"']
    if only_bstar:
        st.warning(
            "The course's \"B*\" cannot run with the book's table (it needs h(start, n)): "
            "choose another algorithm or heuristic to compare."
        )
    return [a for a in cmp_algos if a != 'Course "B*"'], only_bstar


def _compare_and_keep(
    G: nx.Graph,
    q: Question,
    cmp_algos: list[str],
    ordered: bool,
    max_pairs: int,
    settings: tuple,
) -> tuple | None:
    """Run the comparison with a progress bar; keep and return ``(settings, table)``.

    Returns ``None`` when it failed (the error is shown).
    """
    heuristic = q.heuristic
    pairs = compare.choose_pairs(G, ordered=ordered, max_pairs=max_pairs, seed=0)
    if isinstance(heuristic, graphs.TableHeuristic):
        pairs = [(s, heuristic.goal) for s in G.nodes if s != heuristic.goal]
    bar = st.progress(0.0, text="Comparing…")
    stored = None
    with user_errors():
        cmp_table = run_comparison(
            G,
            (cmp_algos, heuristic),
            {
                "pairs": pairs,
                "w": q.w,
                "max_expansions": routes_common.MAX_EXPANSIONS,
                "drop_failing": True,
            },
            lambda done, total: bar.progress(done / total, text=f"{done}/{total} pairs"),
        )
        stored = st.session_state["rt_compare"] = (settings, cmp_table)
        st.session_state["rt_compare_asked"] = len(pairs)
    bar.empty()
    return stored


def _show_compared_pairs(
    cmp_table: pd.DataFrame, ordered: bool, all_pairs_count: int, table_only: bool
) -> None:
    """Which pairs were compared: how many, whether a sample, and those without a route."""
    asked = st.session_state.get("rt_compare_asked", 0)
    compared = len(cmp_table[["source", "target"]].drop_duplicates())
    kind = "ordered" if ordered else "unordered"
    total = all_pairs_count if ordered else all_pairs_count // 2
    st.caption(
        f"Compared on {compared:,} {kind} pair(s)"
        + (
            f", a seeded random sample of {asked:,} of the map's {total:,}."
            if total > asked and not table_only
            else "."
        )
        + (
            f" {asked - compared:,} of the {asked:,} pairs have no route between them (their "
            "places are in different parts of the map) and are left out."
            if compared < asked
            else ""
        )
    )


def _show_comparison_tables(cmp_table: pd.DataFrame, summary: pd.DataFrame) -> None:
    """The summary per algorithm, both downloads, and the two charts."""
    st.caption(
        "Per algorithm: in how many pairs its route was a shortest one, how much longer "
        "it was on average and at worst (+%), and the mean places expanded and time."
    )
    routes_common.show_table(summary.reset_index(), SUMMARY_LABELS, column_order=SUMMARY_SHOWN)
    c1, c2 = st.columns(2)
    with c1:
        csv_download(
            summary.reset_index(),
            "summary.csv",
            "Download summary (CSV)",
            key="rt_w_dl_summary",
        )
    with c2:
        csv_download(cmp_table, "all_pairs.csv", "Download every pair (CSV)", key="rt_w_dl_pairs")
    st.plotly_chart(
        plots.summary_bars(
            summary, "mean_expanded", "Places expanded (mean per pair)", y_title="expanded"
        ),
        key="rt_chart_expanded",
    )
    st.plotly_chart(plots.excess_chart(cmp_table), key="rt_chart_excess")


def _show_comparison_verdicts(
    cmp_table: pd.DataFrame, summary: pd.DataFrame, q: Question, compared_heuristic: str
) -> None:
    """Per algorithm: did the course's "B*", A* or IDA* miss shortest routes, and why."""
    for name in summary.index:
        bad = compare.suboptimal(cmp_table, name)
        if name == 'Course "B*"':
            _show_bstar_verdict(bad, int(summary.loc[name, "pairs"]))
        if not bad.empty and name in ("A*", "IDA*") and q.heuristic is not None:
            st.warning(
                f"{md(name)} missed the shortest route on {len(bad)} pairs: the heuristic "
                "overestimates somewhere (see the check below)."
            )
        inadmissible = q.longer_roads is not None and not q.longer_roads.empty
        if bad.empty and name == "A*" and inadmissible and compared_heuristic == q.heuristic_name:
            st.info(
                f"{md('A*')} found the shortest route on every pair here although "
                f"*{md(q.heuristic_name)}* is not admissible on this map: an overestimate only "
                "*allows* A* to miss the shortest route, it does not make it miss."
            )


def _show_bstar_verdict(bad: pd.DataFrame, pairs: int) -> None:
    """The course's "B*": shortest everywhere, or the pairs where it was longer."""
    if bad.empty:
        st.info('The course\'s "B*" found the shortest route on every pair compared here.')
        return
    shown = [
        f"{md(row.source)} → {md(row.target)}: {row.cost:.4g} instead of "
        f"{row.optimal_cost:.4g} (+{row.excess_pct:.1f} %)"
        for row in bad.head(5).itertuples()
    ]
    more = f"; {len(bad) - len(shown)} more in the table" if len(bad) > 5 else ""
    st.warning(
        f'The course\'s "B*" returns a longer route than the shortest on '
        f"{len(bad)} of {pairs} pairs: "
        f"{'; '.join(shown)}{more}. Its f = g + h(n, goal) + h(start, n) "
        "overestimates, so optimality is lost. The course's script only counted "
        'the pairs where "B*" was *shorter* than A*, so it never saw these.'
    )


def show_heuristic_report(G: nx.Graph, graph_key: str, q: Question) -> None:
    """Admissibility and consistency of the heuristic, with the violations and the roads."""
    heuristic, heuristic_name, n_nodes = q.heuristic, q.heuristic_name, G.number_of_nodes()
    if heuristic is None:
        st.markdown("h = 0 never overestimates: A* then behaves like uniform-cost search.")
        return
    goals = _goals_to_check(G, heuristic)
    check_key = (graph_key, heuristic_name)
    asked = st.session_state.get("rt_check_asked") == check_key
    if n_nodes > CHECK_WHEN_ASKED_OVER and not asked:  # seconds of work below the fold
        st.caption(
            f"On a map of {n_nodes:,} places the check searches from {len(goals)} sampled "
            "goals, a few seconds of work."
        )
        if not st.button("Check the heuristic", key="rt_w_check"):
            return
        st.session_state["rt_check_asked"] = check_key
    with user_errors():
        report = routes_common.heuristic_check(
            G, heuristic, graph_key, heuristic_name, tuple(goals)
        )
        _show_heuristic_verdict(report, q, len(goals) == n_nodes)
        if isinstance(heuristic, graphs.StraightLine):
            _show_roads_against_distance(heuristic, heuristic_name, q.road_table, q.longer_roads)
        if not report.admissible:
            _violations(
                report.admissibility,
                "Where h overestimates the shortest route: {shown:,} (place, goal) pair(s)",
                None,
                "admissibility",
                key="rt_w_dl_adm",
            )
        if not report.consistent:
            _violations(
                report.consistency,
                "Where h breaks consistency, h(from) > road + h(to): {shown:,} (road, goal) "
                "case(s)",
                CONSISTENCY_LABELS,
                "consistency",
                key="rt_w_dl_con",
            )


def _goals_to_check(G: nx.Graph, heuristic: graphs.Heuristic) -> list:
    """The goals to check the heuristic towards: all, a seeded sample, or the table's one."""
    if isinstance(heuristic, graphs.TableHeuristic):
        return [heuristic.goal]
    if G.number_of_nodes() > MAX_CHECK_GOALS:
        return [pair[1] for pair in compare.choose_pairs(G, max_pairs=MAX_CHECK_GOALS, seed=1)]
    return list(G.nodes)


def _show_heuristic_verdict(report: compare.HeuristicReport, q: Question, every_goal: bool) -> None:
    """Admissible? Consistent? Towards which goals, and by how much it could be scaled."""
    heuristic, heuristic_name = q.heuristic, q.heuristic_name
    scope = (
        f"{md(graphs.node_label(heuristic.goal))}, the only goal its table knows"
        if isinstance(heuristic, graphs.TableHeuristic)
        else "every goal"
        if every_goal
        else f"{report.goals} sampled goal(s)"
    )
    verdict_a = "admissible" if report.admissible else "NOT admissible"
    verdict_c = "consistent" if report.consistent else "NOT consistent"
    st.markdown(
        f"**{md(heuristic_name)}**, checked towards {scope}: "
        f"**{verdict_a}**, **{verdict_c}**. "
        + (
            f"Multiplied by at most {report.scale:.4g}, it would never overestimate here"
            + (f" (that is *{md(graphs.SCALED)}*)." if graphs.SCALED in q.choices else ".")
            if not report.admissible
            else "It is as large as it can be without overestimating."
            if report.scale < 1 + 1e-6
            else f"It would stay admissible multiplied by up to {report.scale:.4g}."
        )
    )


def _show_roads_against_distance(
    heuristic: graphs.StraightLine,
    heuristic_name: str,
    roads: pd.DataFrame,
    longer: pd.DataFrame,
) -> None:
    """Each road against the heuristic's distance between its ends: verdict, table, download."""
    straight = type(heuristic) is graphs.StraightLine
    # Manhattan and octile distances are StraightLine kinds: name the one in use
    line = "straight line" if straight else f"{md(heuristic_name)} distance"
    # a road and its straight line to the same decimals (a random graph's
    # roads of 0.04102 had straight lines of "0.0" beside them)
    places = compare.length_decimals(roads["road"])
    closest = (
        f"{md(roads.iloc[0]['from'])}–{md(roads.iloc[0]['to'])}, "
        f"{roads.iloc[0]['straight_line']:.{places}f} against a road of "
        f"{roads.iloc[0]['road']:.{places}f}"
    )
    if len(longer):
        st.markdown(
            "The map's coordinates are positions on a drawing, not kilometres, so "
            "nothing guarantees that a straight line is shorter than the road. Here "
            f"it is longer than the road on {len(longer)} road(s), listed first below: "
            "searching towards the far end of such a road, h overestimates."
        )
    elif heuristic.scale != 1:
        st.markdown(
            f"Scaled by {heuristic.scale:.4g}, the {line} is never longer than "
            f"a road, so it never overestimates: the closest call is {closest}."
        )
    else:
        st.markdown(f"The {line} is never longer than a road: closest {closest}.")
    st.caption(f"Each road against the {line} between its ends, closest calls first:")
    fmt = f"%.{places}f"
    between = (
        "Straight-line distance between the two ends"
        if straight
        else f"{heuristic_name} distance between the two ends"
    )
    labels = {
        "road": ("Road length", "", fmt),
        "straight_line": (
            "Straight line" if straight else f"{heuristic_name} distance",
            between,
            fmt,
        ),
        "excess": (
            "Straight line longer by" if straight else "Longer by",
            f"{between} minus the road length",
            fmt,
        ),
    }
    routes_common.show_table(roads.head(10), labels)
    csv_download(roads, "road_checks.csv", "Download every road (CSV)", key="rt_w_dl_roads")


#: Rows of a violations table shown on screen (all of them are in its download).
MAX_VIOLATIONS_SHOWN = 200


def _violations(
    table: pd.DataFrame,
    what: str,
    labels: Mapping[str, tuple[str, str, str | None]] | None,
    name: str,
    key: str,
) -> None:
    """A heuristic check's violations, worst first: a caption, the first rows, a download."""
    shown = len(table)
    cut = shown > MAX_VIOLATIONS_SHOWN
    st.caption(
        what.format(shown=shown)
        + ", worst first"
        + (f" (the first {MAX_VIOLATIONS_SHOWN} here, all in the download)." if cut else ".")
    )
    routes_common.show_table(table.head(MAX_VIOLATIONS_SHOWN), labels)
    csv_download(table, f"{name}.csv", f"Download {name} violations (CSV)", key=key)


def share_link(source: str, q: Question) -> None:
    """Mirror the settings in the URL so the page can be shared as it is."""
    start, goal, algos, heuristic_name, w = q.start, q.goal, q.algos, q.heuristic_name, q.w

    routes_common.write_query(
        {
            "source": source,
            "start": graphs.node_label(start),
            "goal": graphs.node_label(goal),
            "algos": "|".join(algos),
            "heuristic": heuristic_name,
            "w": w,
            **(
                {
                    "rows": routes_common.get("rows"),
                    "cols": routes_common.get("cols"),
                    "obstacles": routes_common.get("obstacles"),
                    "diagonal": routes_common.get("diagonal"),
                    "seed": routes_common.get("seed"),
                }
                if source == routes_common.GRID
                else {"n": routes_common.get("n"), "seed": routes_common.get("seed")}
                if source == routes_common.RANDOM
                else {}
            ),
        },
        known=("rows", "cols", "obstacles", "diagonal", "seed", "n"),
    )
