"""The route page's hands-on parts: the map edited (walls, costs, ends dragged) and races.

The route map sends each stroke of a paint tool and each start or goal dragged to
another place (:func:`lib.ui.components.route_player.route_map`); the callbacks here
check them (:func:`lib.routes.edits.parse_edit`) and push them on the session's edit
stack. Every run then rebuilds the edited grid from the generated one and the stack
(:func:`edited_map`), so the searches, the route map and the step player all follow
the edit. An edit reruns the map alone first (:func:`show_map`, a fragment), so its new
searches are drawn before the rest of the page runs again. The stack lives in
``st.session_state`` (one per visitor, emptied when another map is chosen); the shared
generated grid is never changed.

:func:`show_race` races 2 to 4 algorithms on the (edited) map in the browser
(:mod:`lib.routes.race`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial

import networkx as nx
import numpy as np
import streamlit as st

from lib.errors import InputError
from lib.routes import edits, graphs, race, search
from lib.ui import routes_common, routes_page
from lib.ui.common import escape_markdown as md
from lib.ui.components.route_player import route_race
from lib.ui.routes_common import DEFAULT_RACERS, RACE_KEY, RACE_SPEEDS

#: The session's edits: ``{"map": graph key, "stack": [entry, ...]}``. An entry is
#: ``("paint", CellEdit)``, ``("load", terrain bytes)`` (a link's edits, or older strokes
#: folded together) or ``("ends", start label, goal label)`` (the ends before a drag).
EDITS_KEY = "rt_edits"
#: The last edited graph built: ``(graph key, graph)``, reused while the edits stay.
BUILT_KEY = "rt_edited_graph"
#: Undo steps kept; older strokes are folded into one (they can no longer be undone apart).
MAX_UNDO = 100
#: Caps of a race: the map's places and each racer's recorded steps.
MAX_RACE_PLACES, MAX_RACE_STEPS = 5_000, 60_000
#: Set by the map's events, Undo and Reset: the run of :func:`show_map` they start draws the
#: map, then reruns the whole page (whose sections follow the map).
FOLLOW_KEY = "rt_map_changed"


def _on_race_speed() -> None:
    """The race's speed control changed in the browser: keep it for the link."""
    event = st.session_state.get(RACE_KEY) or {}
    speed = str(event.get("speed")) if isinstance(event, dict) else ""
    speed = speed[:-2] if speed.endswith(".0") else speed
    if speed in RACE_SPEEDS:
        routes_common.put("race_speed", speed)


def _stack(graph_key: str) -> list:
    """The edit stack of the map ``graph_key`` (a new, empty one on another map)."""
    kept = st.session_state.get(EDITS_KEY)
    if kept is None or kept["map"] != graph_key:
        kept = st.session_state[EDITS_KEY] = {"map": graph_key, "stack": []}
    return kept["stack"]


def _terrain(base: np.ndarray, stack: list) -> np.ndarray:
    """``base`` with the stack's paints and loads applied in order."""
    terrain = base
    for entry in stack:
        if entry[0] == "paint":
            terrain = edits.apply_edit(terrain, entry[1])
        elif entry[0] == "load":
            terrain = np.frombuffer(entry[1], dtype=np.uint8).reshape(base.shape).copy()
    return terrain


def _push(stack: list, entry: tuple, base: np.ndarray | None) -> None:
    """Push ``entry``; over :data:`MAX_UNDO` the older half is folded into one load."""
    stack.append(entry)
    if len(stack) > MAX_UNDO and base is not None:
        half = len(stack) // 2
        folded = _terrain(base, stack[:half])
        stack[:half] = [("load", folded.tobytes())]


def _cell(label: object) -> tuple[int, int] | None:
    """The grid cell named ``"row,col"``, or ``None``."""
    parts = str(label).split(",")
    if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def _spare_ends(terrain: np.ndarray) -> np.ndarray:
    """A link's ``terrain`` with the start and goal freed if it walls them (and a warning)."""
    names = ("start", "goal")
    cells = [_cell(routes_common.get(name)) for name in names]
    walled = edits.walled_ends(terrain, cells)
    if not walled:
        return terrain
    named = " and the ".join(
        f"{name} {md(str(routes_common.get(name)))}"
        for name, cell in zip(names, cells, strict=True)
        if cell in walled
    )
    free = terrain.size - int((terrain == edits.WALL).sum())
    alone = "" if free else " Every other cell is a wall: start and goal are walled in, no route."
    st.warning(
        f"The link's edits wall the {named}: kept free, as the editor keeps them.{alone}",
        icon=":material/warning:",
    )
    return edits.apply_edit(terrain, edits.CellEdit("erase", tuple(walled)))


def edited_map(G: nx.Graph, graph_key: str, first_visit: bool) -> tuple[nx.Graph, str]:
    """The map as this visitor edited it, and its key (``G`` and ``graph_key`` unedited).

    On a grid, the generated ``G`` with the stack's walls and costs; on the first
    visit a link's ``edits`` are read (and refused with a warning naming why).
    """
    stack = _stack(graph_key)
    if G.graph.get("kind") != "grid":
        return G, graph_key
    base = edits.base_terrain(G)
    if first_visit and st.query_params.get("edits"):
        try:
            loaded = edits.decode_terrain(base, st.query_params["edits"])
        except InputError as error:
            st.warning(f"{md(str(error))} The map is shown as generated.")
        else:
            stack[:] = [("load", _spare_ends(loaded).tobytes())]
    terrain = _terrain(base, stack)
    if (terrain == base).all():
        return G, graph_key
    key = f"{graph_key}-edited-{hashlib.sha1(terrain.tobytes()).hexdigest()[:12]}"
    built = st.session_state.get(BUILT_KEY)
    if built is None or built[0] != key:
        edited = graphs.grid_from_terrain(terrain, diagonal=bool(G.graph.get("diagonal")))
        edited.graph["name"] = f"{G.graph.get('name', 'Grid')}, edited"
        built = st.session_state[BUILT_KEY] = (key, edited)
    return built[1], key


def _on_edit(base: nx.Graph, map_key: str, graph_key: str) -> None:
    """The map's ``edit`` callback: a checked stroke goes on the stack (walls spare the ends).

    ``base`` is the generated grid (``graph_key``), whose edits the stack holds.
    """
    event = (st.session_state.get(map_key) or {}).get("edit")
    try:
        edit = edits.parse_edit(event, base.graph["rows"], base.graph["cols"])
    except InputError as error:
        st.session_state["rt_edit_error"] = str(error)
        return
    ends = {_cell(routes_common.get("start")), _cell(routes_common.get("goal"))}
    if edit.tool == "wall":
        edit = edits.CellEdit(edit.tool, tuple(c for c in edit.cells if c not in ends))
    if edit.cells:
        _push(_stack(graph_key), ("paint", edit), edits.base_terrain(base))


def _on_move(G: nx.Graph, map_key: str, graph_key: str) -> None:
    """The map's ``move`` callback: the dragged end goes to the place it was dropped on."""
    event = (st.session_state.get(map_key) or {}).get("move")
    if not isinstance(event, dict) or event.get("end") not in ("start", "goal"):
        return
    place = event.get("place")
    if isinstance(place, bool) or not isinstance(place, int):
        return
    if not 0 <= place < G.number_of_nodes():
        return
    label = graphs.node_label(list(G.nodes)[place])
    start, goal = routes_common.get("start"), routes_common.get("goal")
    if label in (start, goal):
        return
    _push(_stack(graph_key), ("ends", start, goal), None)
    routes_common.put(str(event["end"]), label)


def map_events(
    G: nx.Graph, base: nx.Graph, map_key: str, graph_key: str
) -> dict[str, Callable[[], None]]:
    """The route map's ``on_edit`` and ``on_move`` callbacks for map ``G``.

    ``G`` is the map drawn (edited), ``base`` the generated map and ``graph_key`` its
    key (the stack's): the places the map sends are indices of ``G``'s nodes.
    """
    events = {"on_move": partial(_on_move, G, map_key, graph_key)}
    if base.graph.get("kind") == "grid":
        events["on_edit"] = partial(_on_edit, base, map_key, graph_key)
    return events


def _then_page(callback: Callable[[], None], graph_key: str) -> None:
    """Run a map event's ``callback``; if it changed the map or an end, the page follows.

    (A refused edit changes nothing: its warning is shown by the map's run alone.)
    """
    stack = _stack(graph_key)
    before = (len(stack), routes_common.get("start"), routes_common.get("goal"))
    callback()
    if (len(stack), routes_common.get("start"), routes_common.get("goal")) != before:
        st.session_state[FOLLOW_KEY] = True


@st.fragment
def show_map(
    generated: nx.Graph, generated_key: str, G: nx.Graph, q: routes_page.Question
) -> dict[str, search.RouteResult]:
    """The route map, its routes and the edit controls: its own events rerun it first.

    ``G`` is the map as edited (:func:`edited_map` of ``generated``, ``generated_key``)
    and ``q`` the page's question. An edit, a drag, a click on the map, Undo or Reset
    reruns this fragment alone: it draws the map with its new searches at once, and
    only then reruns the page, whose sections follow the map (reusing its searches,
    :data:`lib.ui.routes_page.ROUTES_KEY`). Such a rerun gets the arguments of the last
    full run, so the edited map and the ends are read again from the session here.
    """
    edited, graph_key = edited_map(generated, generated_key, False)
    asked = routes_page.on_map(q, edited, same_map=edited is G)
    if asked is None and edited is not G:  # an end the edited map lacks: the page chooses
        st.session_state.pop(FOLLOW_KEY, None)
        st.rerun(scope="app")
    asked = asked or q  # the page's own question (its run chose the ends on this map)
    events = map_events(edited, generated, routes_page.MAP_KEY, generated_key)
    events["on_click"] = partial(routes_common.apply_click, edited, routes_page.MAP_KEY)
    results = routes_page.show_routes(
        edited,
        asked,
        {name: partial(_then_page, callback, generated_key) for name, callback in events.items()},
        partial(edit_controls, edited, generated_key, generated),
        graph_key=graph_key,
    )
    if st.session_state.pop(FOLLOW_KEY, False):
        # the link's ends now, as the page's run will write them with the rest of its link
        ends = {"start": asked.start, "goal": asked.goal}
        routes_common.write_query({end: graphs.node_label(node) for end, node in ends.items()})
        st.rerun(scope="app")
    return results


def _undo(graph_key: str) -> None:
    """``on_click``: take back the last stroke or drag."""
    st.session_state[FOLLOW_KEY] = True
    stack = _stack(graph_key)
    if stack:
        entry = stack.pop()
        if entry[0] == "ends":
            routes_common.put("start", entry[1])
            routes_common.put("goal", entry[2])


def _reset(graph_key: str) -> None:
    """``on_click``: the map as generated (walls and costs; the ends stay where they are)."""
    st.session_state[FOLLOW_KEY] = True
    _stack(graph_key).clear()


def edit_controls(G: nx.Graph, graph_key: str, base: nx.Graph) -> None:
    """Under the map: what the tools do, Undo and Reset, the download and the link's edits.

    ``G`` is the edited map, ``graph_key`` the generated map's key, ``base`` that map.
    """
    error = st.session_state.pop("rt_edit_error", None)
    if error:
        st.warning(md(error))
    stack = _stack(graph_key)
    grid = base.graph.get("kind") == "grid"
    st.caption(
        (
            "**Edit the map**: choose a tool above the map, then click or drag on the cells: "
            "walls, erase, cost 3 and cost 10 (a move between two cells costs the mean of "
            "their costs). "
            if grid
            else ""
        )
        + "Drag the start or goal star to another place; the searches follow every edit."
    )
    c1, c2, c3, c4 = st.columns(4)
    c1.button(
        "Undo",
        key="rt_w_edit_undo",
        on_click=_undo,
        args=(graph_key,),
        disabled=not stack,
        icon=":material/undo:",
        width="stretch",
    )
    c2.button(
        "Reset map",
        key="rt_w_edit_reset",
        on_click=_reset,
        args=(graph_key,),
        disabled=not any(entry[0] != "ends" for entry in stack),
        width="stretch",
    )
    name = "edited_grid" if grid else "map"
    c3.download_button(
        "Edges CSV",
        partial(edits.edges_csv, G),  # written when clicked, not on every run
        f"{name}_edges.csv",
        "text/csv",
        key="rt_w_edit_dl_edges",
        on_click="ignore",  # no rerun: a click on the map meanwhile is kept
        help="The map in the upload format (edges: source,target,weight)",
        width="stretch",
    )
    c4.download_button(
        "Nodes CSV",
        partial(edits.nodes_csv, G),  # written when clicked, not on every run
        f"{name}_nodes.csv",
        "text/csv",
        key="rt_w_edit_dl_nodes",
        on_click="ignore",  # no rerun: a click on the map meanwhile is kept
        help="The map in the upload format (nodes: node,x,y)",
        width="stretch",
    )
    if grid:
        _link_edits(G, base)
    elif "edits" in st.query_params:
        del st.query_params["edits"]


def _link_edits(G: nx.Graph, base: nx.Graph) -> None:
    """Put the grid's edits in the page's link while they fit in :data:`edits.MAX_LINK_CHARS`."""
    text = edits.encode_terrain(edits.base_terrain(base), edits.base_terrain(G))
    if text and len(text) <= edits.MAX_LINK_CHARS:
        if st.query_params.get("edits") != text:
            st.query_params["edits"] = text
        st.caption(
            f"The page's link carries these edits ({len(text):,} of at most "
            f"{edits.MAX_LINK_CHARS:,} characters)."
        )
        return
    if "edits" in st.query_params:
        del st.query_params["edits"]
    if text:
        st.caption(
            f"These edits take {len(text):,} characters, over the link's limit of "
            f"{edits.MAX_LINK_CHARS:,}: download the map (both CSVs) and upload it to share it."
        )


@st.fragment
def show_race(G: nx.Graph, graph_key: str, q: object) -> None:
    """Race 2 to 4 algorithms on the map, one expansion per tick each (reruns only itself).

    ``q`` is the page's question (:class:`lib.ui.routes_page.Question`): its start,
    goal, heuristic and ``w``.
    """
    if G.number_of_nodes() > MAX_RACE_PLACES:
        st.info(f"Races run on maps of up to {MAX_RACE_PLACES:,} places.")
        return
    names = list(search.ALGORITHMS)
    if not routes_common.get("race"):
        routes_common.put("race", [a for a in DEFAULT_RACERS if a in names])
    chosen = routes_common.widget(
        st.multiselect,
        "Algorithms to race (2 to 4)",
        names,
        name="race",
        max_selections=race.MAX_RACERS,
    )
    if len(chosen) < race.MIN_RACERS:
        st.info("Choose at least two algorithms to race.")
        return
    question = (graph_key, tuple(chosen), q.start, q.goal, q.heuristic_name, q.w)
    kept = st.session_state.get("rt_race_data")
    if kept is None or kept[0] != question:
        racers = []
        with st.spinner("Tracing the racers…"):
            for name in chosen:
                try:
                    traced = search.run(
                        name, G, q.start, q.goal, q.heuristic, w=q.w, record_trace=True,
                        max_trace_steps=MAX_RACE_STEPS,
                        max_expansions=routes_common.MAX_EXPANSIONS,
                    )  # fmt: skip
                except (InputError, nx.NetworkXNoPath) as error:
                    st.warning(f"{md(name)} cannot race here: {md(str(error) or 'no route')}")
                    continue
                if traced.trace_truncated:
                    st.warning(
                        f"{md(name)}'s search is cut after {MAX_RACE_STEPS:,} recorded steps: "
                        "its race stops there."
                    )
                racers.append(race.Racer(name, traced.trace, traced.path, traced.cost))
        if len(racers) < race.MIN_RACERS:
            return
        title = f"{graphs.node_label(q.start)} → {graphs.node_label(q.goal)}"
        data = race.race_data(G, racers, start=q.start, goal=q.goal, title=title)
        kept = st.session_state["rt_race_data"] = (question, data)
    st.caption(
        "Each tick, every algorithm expands one place: the one that needs fewer expansions "
        "finishes first. Under each map: places expanded, the frontier's size and, once "
        "found, the route's cost. ▶ Play, Step and the speed (0.25× to 8×) drive them all."
    )
    speed = str(routes_common.get("race_speed", "1"))
    routes_common.write_query({"race": "|".join(chosen), "race_speed": speed})
    route_race({**kept[1], "speed": float(speed)}, key=RACE_KEY, on_speed=_on_race_speed)
