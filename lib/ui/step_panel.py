"""The "Step through" tab of every game page.

Pick a position (the board, a textbook tree, one of the game's examples), an
algorithm, a depth and move ordering; then step through the textbook search
with a slider, First/Prev/Next/Last and Play/Pause. The tree grows as the
steps go (:mod:`lib.games.drawing.step_tree`), the position at the current node is
drawn small beside it with the game's own board view, and the textbook function is
shown with the line being executed marked by a bar (:mod:`lib.ui.code_view`; the
tracer's bookkeeping is hidden from it).

One screen: at 1024x768 with the sidebar open, the step's text, the tree and the code
fit together once the text is scrolled to the top: the tree and the code side by side
(the tree no taller than :data:`TREE_HEIGHT`), the legend under them.

Generic: no game is named here. The traced search is kept in the visitor's
``st.session_state`` (keyed by position, algorithm, depth and ordering), so
moving the slider only replays the steps and redraws.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from lib.charts import MIN_FONT
from lib.errors import InputError
from lib.games.drawing.step_tree import (
    MAX_TREE_HEIGHT,
    counter_text,
    path_moves,
    step_tree_figure,
    tree_positions,
)
from lib.games.drawing.view import BoardAdapter, BoardView
from lib.games.search.players import SEARCH_KINDS, PlayerConfig, bind_heuristic
from lib.games.search.stepthrough import (
    MAX_EVENTS,
    StepPosition,
    StepSearch,
    code_excerpt,
    counted,
    describe_step,
    example_positions,
    run_step_search,
    textbook_positions,
    tree_at,
    value_text,
    whole_listing,
    window_label,
)
from lib.games.search.tracers import MAX_STEP_DEPTH
from lib.games.textbook_tree import tree_from_text
from lib.links import LinkField
from lib.ui.code_view import code_view
from lib.ui.common import escape_markdown, read_query
from lib.ui.game_state import GamePageState, StepKeys
from lib.ui.presentation import CHART_TEXT_PX, presenting
from lib.ui.step_lab import (
    keep_tree_text,
    own_tree_position,
    prediction_panel,
    tree_editor,
    tree_search_key,
)

PLAY_SECONDS = 0.8
"""Seconds between two steps while playing."""
BOARD_POSITION = "The position on the board"
OWN_TREE = "Your own tree"
"""The position typed as a tree (its text box: ``<page>_step_w_tree``, :mod:`lib.ui.step_lab`)."""
ALGORITHM_LABELS = {"minimax": "Minimax", "alphabeta": "Alpha-beta", "expectimax": "Expectimax"}
DEFAULT_DEPTH = 3
CACHE_SIZE = 4
"""Traced searches kept per visitor, all game pages together (each at most MAX_EVENTS steps)."""
SMALL_BOARD_PIXELS = 220
LEGEND = (
    "▲ MAX node, ▼ MIN node, ● chance node. Red ring: the current node; orange: the "
    "path being searched, with each node's α/β window; blue: returned its value (green: "
    "a leaf); grey ✕ on a dotted edge: a move a cut-off skipped; ≥ / ≤: a bound."
)
TREE_HEIGHT = MAX_TREE_HEIGHT
"""Tallest tree chart (pixels): with the step's text above, tree and code fit 768 px; with
the tabs and the controls above too, the deepest node fits a 900 px window."""
PRESENT_TREE_FONT = CHART_TEXT_PX
"""The tree's labels (px) in the presentation view: the tree is laid out for them."""
COMPARE_LABEL_LEAVES = 12
"""Half-width trees (the comparison) label every node only up to this many leaves."""
CHART_CONFIG = {"displayModeBar": False}
"""The step-through charts: no plotly toolbar."""
TREE_SHARE, CODE_SHARE = 5, 6
"""Widths of the tree's column and the code's beside it (the code wraps its long lines)."""


def _evaluator(adapter: BoardAdapter, configs: Sequence[PlayerConfig]) -> Any:
    """The first AI player's heuristic and weights (the game's default if no AI plays)."""
    game = adapter.game
    config = next((c for c in configs if c.kind in SEARCH_KINDS), None)
    if config is not None and config.formula is not None:  # the student's own formula
        with contextlib.suppress(InputError):
            return bind_heuristic(config, game)
    name = config.heuristic if config and config.heuristic else game.default_heuristic
    heuristic = game.heuristics.get(name, game.heuristics[game.default_heuristic])
    try:
        return heuristic.bind(config.weights if config else None)
    except InputError:
        return heuristic.bind()


def _positions(
    adapter: BoardAdapter, board: Any, evaluate: Any, own: StepPosition
) -> dict[str, StepPosition]:
    game = adapter.game
    positions = {BOARD_POSITION: StepPosition(BOARD_POSITION, board, evaluate, game.format_move)}
    for position in (*textbook_positions(), own, *example_positions(game, evaluate)):
        positions[position.label] = position
    return positions


def _cached_search(
    position: StepPosition, algorithm: str, depth: int, ordering: bool, fit: bool = True
) -> tuple[StepSearch, dict]:
    """The traced search and its tree's layout, from the visitor's cache if run before."""
    # one cache for every game page of the visitor (a textbook tree's trace is the same on
    # each): at most CACHE_SIZE traces, a few MB each at the step cap
    cache: dict = st.session_state.setdefault("step_through_cache", {})
    cache_key = (
        position.label,
        tree_search_key(position),
        position.evaluate,
        algorithm,
        depth,
        ordering,
        fit,
    )
    if cache_key not in cache:
        search = run_step_search(
            position, algorithm=algorithm, depth=depth, ordering=ordering, fit=fit
        )
        cache[cache_key] = (search, tree_positions(search.final))
        while len(cache) > CACHE_SIZE:
            cache.pop(next(iter(cache)))
    else:  # most recently used last
        cache[cache_key] = cache.pop(cache_key)
    return cache[cache_key]


def _set_step(slider_key: str, value: int) -> None:
    st.session_state[slider_key] = value


def _shift_step(slider_key: str, delta: int, steps: int) -> None:
    st.session_state[slider_key] = min(max(st.session_state.get(slider_key, 1) + delta, 1), steps)


def _toggle_play(playing_key: str, slider_key: str, steps: int) -> None:
    playing = not st.session_state.get(playing_key, False)
    if playing and st.session_state.get(slider_key, 1) >= steps:
        st.session_state[slider_key] = 1  # Play at the end starts again
    st.session_state[playing_key] = playing


def _title(search: StepSearch) -> str:
    name = ALGORITHM_LABELS[search.algorithm]
    ordering = ", moves ordered" if search.ordering else ""
    return f"{name}, depth {search.depth}{ordering}"


def compare_titles(search: StepSearch, other: StepSearch) -> tuple[str, str]:
    """The two compared trees' titles, short enough for half a 1024 px screen.

    Both search to the same depth with the same ordering (the statistics above say which);
    the other tree is "the whole search" only when its trace was not cut at the step cap.
    """
    stepped = f"{ALGORITHM_LABELS[search.algorithm]}, depth {search.depth}"
    name = ALGORITHM_LABELS[other.algorithm]
    if other.trace.truncated:
        return stepped, f"{name}: first {other.steps:,} steps"
    return stepped, f"{name}: whole search"


STEP_WIDGETS = ("position", "algorithm", "depth", "ordering", "compare", "step", "tree")
"""The step-through panel's settable widgets (``<page>_step_w_<name>``), kept while it is hidden."""


def step_widget_keys(key: str) -> list[str]:
    """The widget keys of the step-through panel on the page ``key`` (buttons excepted)."""
    return StepKeys(key).widgets(STEP_WIDGETS)


def step_panel(adapter: BoardAdapter, key: str, configs: Sequence[PlayerConfig]) -> None:
    """The step-through tab (a fragment: moving the slider reruns only this panel)."""
    playing = bool(st.session_state.get(StepKeys(key).PLAYING, False))
    run_every = PLAY_SECONDS if playing else None
    st.fragment(_panel, run_every=run_every)(adapter, key, tuple(configs), playing)


@dataclass(frozen=True)
class StepChoice:
    """What the panel's controls chose: the position, the search and the comparison."""

    label: str
    position: StepPosition
    algorithm: str
    depth: int
    ordering: bool
    compare: bool


def _panel(
    adapter: BoardAdapter, key: str, configs: tuple[PlayerConfig, ...], ticking: bool
) -> None:
    """The panel, top to bottom: the controls, the step buttons and slider, what the step
    does, the tree beside the code (or the two trees compared, then the code), the position
    at the node, the whole listing."""
    positions = _step_positions(adapter, key, configs)
    st.caption(
        "Watch the textbook search run step by step: the tree grows as it goes, the "
        "current node is ringed in red with its α/β window, and the line of the code "
        "being executed is highlighted."
    )
    choice = _step_controls(key, positions)
    if choice.label == OWN_TREE:
        tree_editor(key)
    else:
        keep_tree_text(key)
    position = choice.position
    try:
        search, layout = _cached_search(position, choice.algorithm, choice.depth, choice.ordering)
    except InputError as error:
        st.info(escape_markdown(str(error)), icon=":material/info:")
        return
    _advance(key, choice, search, ticking)
    apply_link_step(key, search.steps)
    _search_notes(search)
    shown = step_bar(key, search.steps)
    step = min(shown, search.steps) - 1
    write_step_link(key, choice, step + 1)
    # under the step buttons: they stay put when the guess is hidden after step 1
    prediction_panel(key, position, search)
    now = tree_at(search.trace.events, step)
    _step_status(key, position, search, now, step)
    if choice.compare:  # the two trees side by side, then the board and the code
        _compare_trees(key, choice, search, layout, now)
    _step_view(adapter, key, choice, search, layout, now)
    with st.expander("The whole reference code"):
        whole = whole_listing(search.trace.listing.textbook, now.event.line)
        code_view(whole.rows, whole.current, StepKeys(key).LISTING, numbers=whole.numbers)


def _step_positions(
    adapter: BoardAdapter, key: str, configs: tuple[PlayerConfig, ...]
) -> dict[str, StepPosition]:
    """The positions offered: the board's, the textbook trees, the student's own tree, the
    game's examples (an example that does not replay is said, and is not offered)."""
    game = adapter.game
    board = GamePageState(key).session.state
    evaluate = _evaluator(adapter, configs)
    own = own_tree_position(key, OWN_TREE)
    try:
        return _positions(adapter, board, evaluate, own)
    except InputError as error:  # a game's examples that do not replay: say so, keep the page
        st.error(escape_markdown(str(error)))
        board_position = StepPosition(BOARD_POSITION, board, evaluate, game.format_move)
        return {BOARD_POSITION: board_position, OWN_TREE: own}


def _step_controls(key: str, positions: dict[str, StepPosition]) -> StepChoice:
    """Position, algorithm, depth, move ordering and the comparison, in one wrapping row."""
    # one wrapping row: the toggles go under the selects only where the column is narrow
    with st.container(
        horizontal=True, gap="small", vertical_alignment="bottom", key=StepKeys(key).CONTROLS
    ):
        label = st.selectbox("Position", list(positions), key=StepKeys(key).POSITION, width=260)
        algorithm = st.selectbox(
            "Algorithm",
            list(ALGORITHM_LABELS),
            index=1,
            format_func=ALGORITHM_LABELS.__getitem__,
            key=StepKeys(key).ALGORITHM,
            width=150,
        )
        position = positions[label]
        depth = st.number_input(
            "Depth (plies)",
            min_value=1,
            max_value=MAX_STEP_DEPTH,
            value=DEFAULT_DEPTH,
            key=StepKeys(key).DEPTH,
            disabled=position.depth is not None,
            help=f"Cut automatically so the search stays within {MAX_EVENTS:,} steps. "
            "A textbook tree is searched to its leaves.",
            width=130,
        )
        ordering = st.toggle(
            "Move ordering",
            key=StepKeys(key).ORDERING,
            help="Search the moves best-first by a one-ply look: alpha-beta cuts more.",
        )
        compare = st.toggle(
            "Compare with minimax",
            key=StepKeys(key).COMPARE,
            help="Draw minimax's whole tree to the same depth beside this one (its first "
            f"{MAX_EVENTS:,} steps if longer) "
            "(beside alpha-beta's when the algorithm is minimax).",
        )
    return StepChoice(label, position, algorithm, int(depth), ordering, compare)


def _advance(key: str, choice: StepChoice, search: StepSearch, ticking: bool) -> None:
    """Set the step shown: the first of a new search, the next one while playing (stopped at
    the last); Play or Pause restart the panel's timer."""
    search_id = (
        choice.label,
        tree_search_key(choice.position),
        choice.algorithm,
        search.depth,
        choice.ordering,
    )
    advance_step(key, search_id, search.steps, ticking)


def advance_step(key: str, search_id: Any, steps: int, ticking: bool) -> None:
    """:func:`_advance` for any trace of ``steps`` steps (``search_id`` names it: a new one
    starts at step 1); shared with the other step-throughs that use :func:`_step_buttons`."""
    slider_key = StepKeys(key).STEP
    playing_key = StepKeys(key).PLAYING
    if st.session_state.get(StepKeys(key).SEARCH_ID) != search_id:
        st.session_state[StepKeys(key).SEARCH_ID] = search_id
        st.session_state[slider_key] = 1
    # the slider counts steps from 1 (as the text under it does)
    shown = min(max(int(st.session_state.get(slider_key, 1)), 1), steps)
    if ticking and st.session_state.get(playing_key):
        shown = min(shown + 1, steps)
        if shown >= steps:
            st.session_state[playing_key] = False
    st.session_state[slider_key] = shown
    if bool(st.session_state.get(playing_key)) != ticking:  # Play or Pause: restart the timer
        st.rerun()


def _search_notes(search: StepSearch) -> None:
    """Say where the search was cut (its depth, or the steps kept)."""
    if search.depth_cut:
        st.caption(
            f"Depth cut to {search.depth}: depth {search.depth + 1} needs more than "
            f"{MAX_EVENTS:,} steps."
        )
    if search.trace.truncated:
        st.caption(f"Only the first {MAX_EVENTS:,} steps are kept: the search is cut there.")


STEP_BAR_CSS = """
[data-testid="stLayoutWrapper"]:has(> .st-key-{key}_step_bar) {{
  position: sticky; top: 3.75rem; z-index: 5;
}}
.st-key-{key}_step_bar {{ background: white; padding-bottom: 0.25rem; }}
"""
"""The step buttons and slider stay at the window's top while the text, the tree and the code
under them are scrolled into view (Streamlit's header is 3.75rem tall). Streamlit wraps the
container in a layout wrapper of its own size: the wrapper is what sticks, in the panel."""


def step_bar(key: str, steps: int) -> int:
    """The step buttons and the slider, kept in view above the tree (sticky); the step shown.

    The slider keeps its keyboard: ← and → a step, Home and End the first and last.
    """
    with st.container(key=StepKeys(key).BAR, gap="small"):
        st.html(f"<style>{STEP_BAR_CSS.format(key=key)}</style>")
        _step_buttons(key, steps)
        return st.slider("Step", 1, max(steps, 2), key=StepKeys(key).STEP, disabled=steps - 1 == 0)


def _step_buttons(key: str, steps: int) -> None:
    """First, Prev, Play or Pause, Next, Last."""
    slider_key = StepKeys(key).STEP
    playing_key = StepKeys(key).PLAYING
    playing = bool(st.session_state.get(playing_key))
    with st.container(horizontal=True, vertical_alignment="bottom", key=StepKeys(key).BUTTONS):
        st.button(
            "First",
            key=StepKeys(key).FIRST,
            on_click=_set_step,
            args=(slider_key, 1),
            icon=":material/first_page:",
        )
        st.button(
            "Prev",
            key=StepKeys(key).PREV,
            on_click=_shift_step,
            args=(slider_key, -1, steps),
            icon=":material/chevron_left:",
        )
        st.button(
            "Pause" if playing else "Play",
            key=StepKeys(key).PLAY,
            on_click=_toggle_play,
            args=(playing_key, slider_key, steps),
            icon=":material/pause:" if playing else ":material/play_arrow:",
            type="primary",
        )
        st.button(
            "Next",
            key=StepKeys(key).NEXT,
            on_click=_shift_step,
            args=(slider_key, 1, steps),
            icon=":material/chevron_right:",
        )
        st.button(
            "Last",
            key=StepKeys(key).LAST,
            on_click=_set_step,
            args=(slider_key, steps),
            icon=":material/last_page:",
        )


def _step_status(key: str, position: StepPosition, search: StepSearch, now: Any, step: int) -> None:
    """What step ``step`` does, the window and the counts so far, the search's statistics."""
    event = now.event
    with st.container(key=StepKeys(key).STATUS):
        said = describe_step(event, position.format_move, abstract=position.abstract)
        st.markdown(f"**Step {step + 1:,} of {search.steps:,}** · {escape_markdown(said)}")
        st.markdown(
            f"Window at this node: **{window_label(event.alpha, event.beta)}** · "
            f"{counter_text(now, search.minimax_nodes, search.minimax_capped)}"
        )
        stats = search.trace.stats
        if search.trace.move is not None:
            result = (
                f"value **{value_text(search.trace.value)}**, best move "
                f"**{escape_markdown(position.format_move(search.trace.move))}**"
            )
        else:
            result = "cut before it finished"
        st.caption(
            f"Search statistics ({_title(search)}): {counted(stats.nodes, 'node')}, "
            f"{counted(stats.cutoffs, 'cut-off')}; {result}."
        )


WIDE_TREE_CSS = """
.st-key-{key}_box {{ overflow-x: auto; overflow-y: hidden; direction: rtl; }}
.st-key-{key}_box > * {{ direction: ltr; }}
.st-key-{key}_box .st-key-{key} {{ flex: none !important; max-width: none !important; }}
"""
"""A tree drawn wider than its column (its labels need the room) scrolls sideways, opened at
its right end: a depth-first search's newest nodes, the current one among them, are there."""


def wide_tree(figure: Any, key: str) -> None:
    """Show the tree chart ``figure`` under ``key``: at the column's width, or at its own width
    (``layout.width``, :func:`lib.games.drawing.step_tree.step_tree_figure`) in a box that
    scrolls sideways."""
    with st.container(key=f"{key}_box"):
        st.html(f"<style>{WIDE_TREE_CSS.format(key=key)}</style>")
        width = "content" if figure.layout.width else "stretch"
        st.plotly_chart(figure, key=key, config=CHART_CONFIG, width=width)


def _fitted(figure: Any) -> Any:
    """``figure`` no taller than :data:`TREE_HEIGHT` (a deep tree is drawn flatter)."""
    return figure.update_layout(height=min(figure.layout.height or TREE_HEIGHT, TREE_HEIGHT))


def _compare_trees(key: str, choice: StepChoice, search: StepSearch, layout: Any, now: Any) -> None:
    """This search's tree at the step beside the other algorithm's whole tree (or as much of
    it as the step cap keeps: its title says so)."""
    format_move = choice.position.format_move
    other_name = "alphabeta" if choice.algorithm == "minimax" else "minimax"
    other, other_layout = _cached_search(
        choice.position, other_name, search.depth, choice.ordering, fit=False
    )
    left, right = st.columns(2)
    stepped_title, other_title = compare_titles(search, other)
    stepped = _fitted(
        step_tree_figure(
            now,
            search.final,
            format_move,
            title=stepped_title,
            minimax_nodes=search.minimax_nodes,
            minimax_capped=search.minimax_capped,
            positions=layout,
            full_label_leaves=COMPARE_LABEL_LEAVES,
        )
    )
    left.plotly_chart(stepped, key=StepKeys(key).TREE_CHART, config=CHART_CONFIG)
    whole = _fitted(
        step_tree_figure(
            other.final,
            other.final,
            format_move,
            title=other_title,
            minimax_nodes=other.minimax_nodes,
            minimax_capped=other.minimax_capped,
            positions=other_layout,
            full_label_leaves=COMPARE_LABEL_LEAVES,
            whole=True,
        )
    )
    right.plotly_chart(whole, key=StepKeys(key).COMPARE_TREE, config=CHART_CONFIG)
    st.caption(LEGEND)


def _step_view(
    adapter: BoardAdapter,
    key: str,
    choice: StepChoice,
    search: StepSearch,
    layout: Any,
    now: Any,
) -> None:
    """The tree at the step (unless compared above) beside the code, then the position."""
    position = choice.position
    event = now.event
    excerpt = code_excerpt(search.trace.listing.textbook, event.line)
    if choice.compare:  # the trees are above: the code beside the position at the node
        code, board = st.columns([CODE_SHARE, TREE_SHARE], gap="medium")
        with code:
            code_view(excerpt.rows, excerpt.current, StepKeys(key).CODE, numbers=excerpt.numbers)
        with board:
            _node_position(adapter, key, position, event.path)
        return
    tree, side = st.columns([TREE_SHARE, CODE_SHARE], gap="medium")
    with tree:
        figure = step_tree_figure(
            now,
            search.final,
            position.format_move,
            title=_title(search),
            minimax_nodes=search.minimax_nodes,
            minimax_capped=search.minimax_capped,
            positions=layout,
            font=PRESENT_TREE_FONT if presenting() else MIN_FONT,
        )
        wide_tree(_fitted(figure), StepKeys(key).TREE_CHART)
    with side:  # the code first: it is what the step is about, the board can go below
        code_view(excerpt.rows, excerpt.current, StepKeys(key).CODE, numbers=excerpt.numbers)
        _node_position(adapter, key, position, event.path)
    st.caption(LEGEND)


def _node_position(
    adapter: BoardAdapter, key: str, position: StepPosition, path: tuple[Any, ...]
) -> None:
    """The position at the current node: a small board, or the path for a textbook tree."""
    moves = escape_markdown(path_moves(path, position.format_move))
    if position.abstract:
        st.markdown(f"Current node: **{moves}**")
        return
    state, previous = position.state, None
    for move in path:
        previous, state = state, state.play(move)
    st.caption(f"The position at the current node: after **{moves}**")
    small_board(adapter, state, previous, path[-1] if path else None, StepKeys(key).BOARD)


# -- the panel's link ---------------------------------------------------------------

STEP_LINK_PARAMS = (
    "step_pos",
    "step_algo",
    "step_depth",
    "step_order",
    "step_compare",
    "step",
    "tree",
)
"""The URL parameters of the step-through: position, algorithm, depth, ordering, the
comparison, the step shown and a typed tree's text."""


def _step_link_schema(positions: Sequence[str]) -> tuple[LinkField, ...]:
    return (
        LinkField("step_pos", str, BOARD_POSITION, choices=tuple(positions)),
        LinkField("step_algo", str, "alphabeta", choices=tuple(ALGORITHM_LABELS)),
        LinkField("step_depth", int, DEFAULT_DEPTH, low=1, high=MAX_STEP_DEPTH),
        LinkField("step_order", bool, False),
        LinkField("step_compare", bool, False),
        LinkField("step", int, 1, low=1),  # its last step is known with the search
    )


def read_step_link(
    adapter: BoardAdapter, key: str, configs: Sequence[PlayerConfig], notes: list[str]
) -> bool:
    """Set the step-through's widgets from the link (once); True if the link names any.

    A bad value is named in ``notes`` and its default used; ``tree=`` is read with
    :func:`lib.games.textbook_tree.tree_from_text` and chooses :data:`OWN_TREE`. The step
    is applied when the search is known (:func:`apply_link_step`: a step past its end is said).
    """
    if not any(name in st.query_params for name in STEP_LINK_PARAMS):
        return False
    positions = list(_step_positions(adapter, key, tuple(configs)))
    values, problems = read_query(_step_link_schema(positions))
    notes.extend(problems)
    tree = st.query_params.get("tree")
    if tree is not None:
        try:
            tree_from_text(tree)
        except InputError as error:
            notes.append(f"The link's tree= cannot be used: {escape_markdown(str(error))}")
        else:
            st.session_state[StepKeys(key).TREE] = tree
            if OWN_TREE in positions:
                values["step_pos"] = OWN_TREE
            else:
                notes.append(f"The link's tree= cannot be shown: this page has no {OWN_TREE}.")
    state = st.session_state
    state[StepKeys(key).POSITION] = values["step_pos"]
    state[StepKeys(key).ALGORITHM] = values["step_algo"]
    state[StepKeys(key).DEPTH] = values["step_depth"]
    state[StepKeys(key).ORDERING] = values["step_order"]
    state[StepKeys(key).COMPARE] = values["step_compare"]
    state[StepKeys(key).LINK_STEP] = values["step"]
    return True


def apply_link_step(key: str, steps: int, param: str = "step") -> None:
    """Show the link's step, once its search is known (a step past the end shows the last).

    Shared with the other step-throughs keyed ``<key>_step_...`` (``param``: its name in
    the link).
    """
    wanted = st.session_state.pop(StepKeys(key).LINK_STEP, None)
    if wanted is None:
        return
    if wanted > steps:
        st.warning(
            f"The link's {param}={wanted:,} is past this search's last step; "
            f"showing step {steps:,}.",
            icon=":material/warning:",
        )
    st.session_state[StepKeys(key).STEP] = min(wanted, steps)


def write_step_link(key: str, choice: StepChoice, step: int) -> None:
    """Mirror the step-through's choices and the step shown in the URL."""
    wanted = {
        "step_pos": choice.label,
        "step_algo": choice.algorithm,
        "step_depth": str(choice.depth),
        "step_order": "true" if choice.ordering else "false",
        "step_compare": "true" if choice.compare else "false",
        "step": str(step),
    }
    tree = st.session_state.get(StepKeys(key).TREE)
    if choice.label == OWN_TREE and tree:
        wanted["tree"] = tree
    for name in STEP_LINK_PARAMS:
        if name in wanted and st.query_params.get(name) != wanted[name]:
            st.query_params[name] = wanted[name]
        elif name not in wanted and name in st.query_params:
            del st.query_params[name]


def drop_step_link() -> None:
    """Take the step-through's parameters out of the URL (its tab is closed)."""
    for name in STEP_LINK_PARAMS:
        if name in st.query_params:
            del st.query_params[name]


def small_board(adapter: BoardAdapter, state: Any, previous: Any, last_move: Any, key: str) -> None:
    """The position at a node of a step-through, drawn small with the game's own board view
    (its last move marked against ``previous``)."""
    view = BoardView(
        pixels=SMALL_BOARD_PIXELS, show_legal=False, last_move=last_move, previous=previous
    )
    st.plotly_chart(adapter.figure(state, view), key=key, config=CHART_CONFIG)
