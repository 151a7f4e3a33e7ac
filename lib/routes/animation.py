"""A whole search as flat arrays of numbers that a canvas player draws in the browser.

The player (``lib/ui/components/route_player.js``) gets everything once and plays the
search without asking the server for anything: its ▶ Watch / ❚❚ Pause buttons and
its slider of steps run in the page. :func:`player_data` builds what it gets, here,
without Streamlit, so tests can check it against the trace.

Every change of a place's look during the search is one *paint* (:class:`Paints`: a
place, its new look from :data:`KINDS`, the step it happened at), in the order the
changes happened. At step ``k`` each place shows its latest paint made by step ``k``:
exactly the explored set and frontier of the trace at step ``k`` (the frontier over
the explored, and an IDA* restart paints the places back to their plain look). So
the player draws the roads once, and a frame repaints only the places painted since
the previous frame (going back, it starts again from the roads). The place being
expanded and the route found are drawn over them at each frame.

Numbers travel as little-endian binary (base64 text, :func:`pack`): places as whole
numbers (:func:`lib.routes.map_data.whole_numbers`), roads as trails of place
indices (:func:`lib.routes.map_data.trails`). A 2,000-place map's whole search takes
well under the 300 KB the page allows (``bench/route_payloads.py``).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from lib.routes import map_data, plots
from lib.routes.graphs import node_label
from lib.routes.trace import Part, TraceStep, apply_step

if TYPE_CHECKING:
    from lib.routes.explain import CodeView

#: What a paint makes a place look like (a paint's ``kind`` is an index of these): its
#: plain look (the start's and goal's are their own colours), explored, on the frontier.
KINDS = ("plain", "start", "goal", "explored", "frontier")
PLAIN, START, GOAL, EXPLORED, FRONTIER = range(len(KINDS))
PLACE_COLOUR = "#374151"
#: A play shows at most this many frames, one every :data:`FRAME_MS` milliseconds
#: (7.2 s for a whole search; the slider reaches every step).
MAX_FRAMES, FRAME_MS = 120, 60
#: The shade of a grid cell by its cost (cost 1: the free cells' colour): free, 3, 10 and a
#: wall step down in lightness, each at least twice as dark as the one before (a contrast
#: ratio a washed-out projector keeps), in browns beside the frontier's orange.
TERRAIN_COLOURS = MappingProxyType({"3": "#b8884a", "10": "#6b4423"})
#: The parts of the pseudocode and the sides of a bidirectional search, by their codes.
PARTS = tuple(part.value for part in Part)
SIDES = ("", "forward", "backward")


@dataclass(frozen=True)
class Paints:
    """Every change of a place's look during a search, in the order the changes happened.

    ``nodes[i]`` takes the look ``kinds[i]`` (an index of :data:`KINDS`) at step ``steps[i]``.
    """

    nodes: tuple[Hashable, ...]
    steps: np.ndarray
    kinds: np.ndarray


def _look(node: Hashable, frontier_nodes: dict, explored: set, plain: dict) -> int:
    """How ``node`` is drawn: on the frontier over explored over its plain look."""
    if frontier_nodes.get(node, 0) > 0:
        return FRONTIER
    return EXPLORED if node in explored else plain.get(node, PLAIN)


def paints(
    trace: Sequence[TraceStep], start: Hashable | None = None, goal: Hashable | None = None
) -> Paints:
    """The paints of ``trace``: replay it once and note each place whose look changes."""
    plain = {start: START, goal: GOAL} if start is not None else {}
    if goal is not None:
        plain[goal] = GOAL
    frontier: set = set()  # (side, node) keys, as replay keeps them
    frontier_nodes: dict[Hashable, int] = {}  # node -> its entries on the frontier (both sides)
    explored: set = set()
    shown: dict[Hashable, int] = {}  # the look each touched place has now
    nodes: list[Hashable] = []
    steps: list[int] = []
    kinds: list[int] = []
    for index, step in enumerate(trace):
        touched = {entry.node for entry in step.pushed}
        if step.reset:  # what lib.routes.trace.apply_step does, counting entries per place
            touched |= set(shown)
            frontier.clear()
            frontier_nodes.clear()
            explored.clear()
        if step.current is not None:
            touched.add(step.current)
            if (step.side, step.current) in frontier:
                frontier.remove((step.side, step.current))
                frontier_nodes[step.current] -= 1
            explored.add(step.current)
        for entry in step.pushed:
            if (entry.side, entry.node) not in frontier:
                frontier.add((entry.side, entry.node))
                frontier_nodes[entry.node] = frontier_nodes.get(entry.node, 0) + 1
        for node in sorted(touched, key=str) if len(touched) > 1 else touched:
            look = _look(node, frontier_nodes, explored, plain)
            if shown.get(node, plain.get(node, PLAIN)) != look:
                shown[node] = look
                nodes.append(node)
                steps.append(index)
                kinds.append(look)
    return Paints(tuple(nodes), np.asarray(steps, dtype=np.int32), np.asarray(kinds, np.int32))


def frame_steps(last: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """The steps a play shows: every ``stride``-th of ``0..last`` and always the last."""
    stride = max(1, -(-last // max(1, max_frames - 1)))
    shown = list(range(0, last + 1, stride))
    if shown[-1] != last:
        shown.append(last)
    return shown


def look_colours(G: nx.Graph) -> list[str]:
    """The colour of each of :data:`KINDS` on ``G`` (on grids the stars are drawn apart)."""
    if plots._is_grid(G):
        base = [plots.FREE_COLOUR] * 3
    else:
        base = [PLACE_COLOUR, plots.START_COLOUR, plots.GOAL_COLOUR]
    return [*base, plots.EXPLORED_COLOUR, plots.FRONTIER_COLOUR]


def pack(values: Sequence[int] | np.ndarray, dtype: str) -> dict[str, str]:
    """``values`` as little-endian ``dtype`` bytes in base64: what the player decodes.

    >>> pack([1, -1], "int16")
    {'dtype': 'int16', 'data': 'AQD//w=='}
    """
    raw = np.asarray(values, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    return {"dtype": dtype, "data": base64.b64encode(raw).decode("ascii")}


def unpack(packed: dict[str, str]) -> np.ndarray:
    """The array :func:`pack` packed (tests read what the player gets this way)."""
    dtype = np.dtype(packed["dtype"]).newbyteorder("<")
    return np.frombuffer(base64.b64decode(packed["data"]), dtype=dtype)


def _int_type(values: Sequence[int] | np.ndarray) -> str:
    """The smallest of ``int16``/``int32`` that holds ``values``."""
    array = np.asarray(values, dtype=np.int64)
    fits = not array.size or (array.min() >= -(2**15) and array.max() < 2**15)
    return "int16" if fits else "int32"


def _packed_ints(values: Sequence[int] | np.ndarray) -> dict[str, str]:
    return pack(values, _int_type(values))


def step_counts(trace: Sequence[TraceStep]) -> tuple[list[int], list[int]]:
    """The frontier's size (entries) and the explored set's size after each step."""
    frontier: dict = {}
    explored: set = set()
    sizes: list[int] = []
    seen: list[int] = []
    for step in trace:
        apply_step(step, frontier, explored)
        sizes.append(len(frontier))
        seen.append(len(explored))
    return sizes, seen


def place_names(G: nx.Graph) -> list[str] | str:
    """Each place's name as the player writes it, or how it writes them without being sent.

    ``"index"``: a generated map's places are named by their number; ``"cell"``: a grid
    cell's name is ``row,col``, its ``y`` and ``x``. Otherwise the names, as plain text
    (the player writes them as canvas text, never as HTML).
    """
    labels = [node_label(n) for n in G.nodes]
    if all(label == str(i) for i, label in enumerate(labels)):
        return "index"
    if plots._is_grid(G) and all(
        label == f"{y},{x}"
        for label, (x, y) in zip(labels, (G.nodes[n]["pos"] for n in G), strict=True)
    ):
        return "cell"
    return labels


def _name_labels(G: nx.Graph) -> dict | None:
    """Places' names written on small road maps: text and where it goes beside the place."""
    if plots._is_grid(G) or G.number_of_nodes() > plots.LABEL_NODES_UP_TO:
        return None
    two_lines = plots.ROMANIA_TWO_LINE_NAMES if G.graph.get("kind") == "romania" else {}
    text = [two_lines.get(n, node_label(n)) for n in G.nodes]
    return {"text": text, "where": plots.label_positions(G)}


def _road_lengths(G: nx.Graph) -> dict | None:
    """Road lengths written along the roads of small maps (where the route map writes them)."""
    labels = plots.road_lengths(G)
    if not labels:
        return None
    xs, ys, texts = zip(*labels, strict=True)
    return {"x": list(xs), "y": list(ys), "text": list(texts)}


def about(step: TraceStep) -> Hashable | None:
    """The place a step's caption names: the one pushed or updated, else the one expanded.

    A push or an update inside the loop is about the child (``current`` is its
    parent, named as where it was reached from); every other step is about
    ``current`` (``None`` for the steps before the loop and IDA*'s restarts).
    """
    if step.current is not None and step.part in (Part.PUSH, Part.UPDATE) and step.pushed:
        return step.pushed[0].node
    return step.current


def player_data(
    G: nx.Graph,
    trace: Sequence[TraceStep],
    *,
    step: int = 0,
    path: Sequence[Hashable] = (),
    start: Hashable | None = None,
    goal: Hashable | None = None,
    title: str = "",
    max_frames: int = MAX_FRAMES,
    code: CodeView | None = None,
) -> dict:
    """What the canvas player gets to draw the search of ``trace`` on ``G`` (JSON-ready).

    It opens at step ``step`` (clamped to the trace); ▶ Watch plays :func:`frame_steps`
    (at most ``max_frames``) from there, and at the last step the route found (``path``)
    is drawn. Places are indices into ``G.nodes``; arrays are :func:`pack`-ed. The
    ``digest`` names everything but the opening step: the player keeps its drawing
    when only the step changes. With ``code`` (:func:`lib.routes.explain.code_view` of
    ``trace``) the player shows that code beside the map, the line of the step shown marked.
    """
    if not trace:
        raise ValueError("the trace is empty: run the search with record_trace=True")
    W = map_data.whole_numbers(G)  # only watched, never clicked: a compact drawing is enough
    nodes = list(W.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    last = len(trace) - 1
    found = paints(trace, start, goal)
    sizes, seen = step_counts(trace)
    data = _drawing(W, start=start, goal=goal, title=title) | {
        "paintPlace": _packed_ints([index[n] for n in found.nodes]),
        "paintStep": _packed_ints(found.steps),
        "paintKind": pack(found.kinds, "uint8"),
        "current": _packed_ints([-1 if s.current is None else index[s.current] for s in trace]),
        "about": _packed_ints([-1 if (node := about(s)) is None else index[node] for s in trace]),
        "part": pack([PARTS.index(s.part.value) for s in trace], "uint8"),
        "side": pack([SIDES.index(s.side) for s in trace], "uint8"),
        "frontierSize": _packed_ints(sizes),
        "exploredSize": _packed_ints(seen),
        "parts": list(PARTS),
        "sides": list(SIDES),
        "notes": {str(i): s.note for i, s in enumerate(trace) if s.current is None and s.note},
        "route": _packed_ints([index[n] for n in path]),
        "frames": frame_steps(last, max_frames),
        "frameMs": FRAME_MS,
    }
    if code is not None:
        if len(code.step_lines) != len(trace):
            raise ValueError("the code view is of another trace")
        data["code"] = {
            "lines": code.lines,
            "stepLine": _packed_ints(code.step_lines),
            "lineText": {str(line): text for line, text in code.line_text.items()},
        }
    data["digest"] = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    data["step"] = max(0, min(step, last))
    return data


def _drawing(W: nx.Graph, *, start: Hashable | None, goal: Hashable | None, title: str) -> dict:
    """The map itself, as the player and the route map both draw it (``W``: whole numbers).

    Places are indices into ``W.nodes``; roads are trails of them, a grid's obstacles
    ``row, col`` pairs.
    """
    nodes = list(W.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    grid = plots._is_grid(W)
    xs, ys = map_data.positions(W, nodes)
    (x0, x1), (y0, y1) = plots.map_ranges(W)
    data: dict = {
        "title": title,
        "grid": grid,
        "x": _packed_ints(xs),
        "y": _packed_ints(ys),
        "xRange": [float(x0), float(x1)],
        "yRange": [float(y0), float(y1)],
        "names": place_names(W),
        "labels": _name_labels(W),
        "roadLengths": _road_lengths(W),
        "start": index.get(start, -1) if start is not None else -1,
        "goal": index.get(goal, -1) if goal is not None else -1,
        "startName": "" if start is None else node_label(start),
        "goalName": "" if goal is None else node_label(goal),
        "style": _style(W),
    }
    if grid:
        rows, cols = W.graph["rows"], W.graph["cols"]
        cells = [c for cell in W.graph.get("obstacles", []) for c in cell]
        data |= {"rows": rows, "cols": cols, "obstacles": _packed_ints(cells)}
        if W.graph.get("costs"):  # (row, col, cost) of the cells dearer than 1, shaded
            data["costs"] = _packed_ints([v for cost in W.graph["costs"] for v in cost])
    else:
        walks = [i for walk in map_data.trails(W) for i in [*(index[n] for n in walk), -1]]
        data["roads"] = _packed_ints(walks)
    return data


def route_map_data(
    G: nx.Graph,
    *,
    routes: Sequence[tuple[str, Sequence[Hashable]]] = (),
    start: Hashable | None = None,
    goal: Hashable | None = None,
    title: str = "",
    editable: bool = False,
) -> dict:
    """What the clickable route map gets (JSON-ready): the map and each route in its colour.

    ``routes`` are ``(legend text, path)``, the ``i``-th drawn in :func:`plots.colour`
    ``(i)``. The map (``"mode": "map"``) has no trace and no controls: it draws the
    routes, names the place under the mouse, zooms with the wheel, pans by dragging,
    and a click on a place sends back its index in ``G.nodes`` (the trigger ``click``).
    ``mapDigest`` names the drawing without the start, goal and routes: the map keeps
    its zoom while only they change (on a grid: while its size stays, edits too). With
    ``editable`` (a grid) the map shows the tools that paint walls and costs: a stroke
    sends ``{"tool", "cells"}`` (the trigger ``edit``, :func:`lib.routes.edits.parse_edit`).
    On every map the start and goal stars can be dragged to another place: the trigger
    ``move`` is ``{"end": "start" or "goal", "place": index}``.
    """
    W = map_data.whole_numbers(G)  # the same places in the same order: indices are G's
    index = {node: i for i, node in enumerate(W.nodes)}
    data = _drawing(W, start=start, goal=goal, title=title)
    kept = ("rows", "cols") if data["grid"] else ("x", "y", "roads", "names", "labels")
    base = {k: data[k] for k in kept if k in data}
    data["mapDigest"] = hashlib.sha1(json.dumps(base, sort_keys=True).encode()).hexdigest()[:16]
    data["mode"] = "map"
    data["editable"] = bool(editable and data["grid"])
    data["routes"] = [
        {"name": name, "colour": plots.colour(i), "places": _packed_ints([index[n] for n in path])}
        for i, (name, path) in enumerate(routes)
    ]
    data["digest"] = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    return data


def _style(G: nx.Graph) -> dict:
    """Colours and marker sizes (px), those of the route map and the earlier plotly player."""
    return {
        "looks": look_colours(G),
        "current": plots.CURRENT_COLOUR,
        "currentEdge": "#7f1d1d",
        "route": plots.PALETTE[0],
        "road": "#9ca3af",
        "place": PLACE_COLOUR,
        "start": plots.START_COLOUR,
        "goal": plots.GOAL_COLOUR,
        "free": plots.FREE_COLOUR,
        "obstacle": plots.OBSTACLE_COLOUR,
        "terrain": dict(TERRAIN_COLOURS),
        "marker": plots._marker_size(G, plots.ANIMATION_AREA),
        "star": plots._marker_size(G) + 8,
        "placeFont": plots.PLACE_FONT["size"],
        "placeText": plots.PLACE_FONT["color"],
        "roadFont": plots.ROAD_FONT["size"],
        "roadText": plots.ROAD_FONT["color"],
    }
