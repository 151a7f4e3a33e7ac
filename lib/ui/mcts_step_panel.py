"""The "MCTS steps" tab of every game page.

Monte Carlo tree search from the position on the board, one phase at a time:
selection (each child's UCB1 on the way down, the chosen one marked), expansion (the
new node), the roll-out (its random moves on a small board drawn with the game's own
view) and the back-up (visits and wins updated up the path; with the MCTS-Solver, a
proof carried up). The same controls as the search step-through: First, Prev,
Play/Pause, Next, Last and a step slider.

Generic: no game is named here. The traced search is kept in the visitor's
``st.session_state`` (keyed by position and settings), so moving the slider only
replays the steps and redraws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from lib.errors import InputError
from lib.games.drawing.mcts_tree import TREE_FONT, mcts_tree_figure
from lib.games.drawing.view import BoardAdapter
from lib.games.search.mcts import DEFAULT_EXPLORATION
from lib.games.search.mcts_steps import (
    DEFAULT_TRACED_SIMULATIONS,
    MAX_TRACED_SIMULATIONS,
    PHASE_LABELS,
    MctsEvent,
    MctsTrace,
    chosen_text,
    describe,
    node_name,
    result_text,
    too_few_note,
    traced_mcts,
    tree_at,
)
from lib.links import LinkField
from lib.ui.common import current, escape_markdown, read_query
from lib.ui.game_state import GamePageState, MctsKeys
from lib.ui.presentation import CHART_TEXT_PX, presenting
from lib.ui.step_panel import (
    CHART_CONFIG,
    PLAY_SECONDS,
    SMALL_BOARD_PIXELS,
    advance_step,
    apply_link_step,
    small_board,
    step_bar,
)

SIDE_WIDTH = SMALL_BOARD_PIXELS + 40
"""Pixels of the column beside the tree: the small board and its caption."""
CACHE_SIZE = 4
"""Traced searches kept per visitor, all game pages together (each a few thousand steps at most)."""
MAX_EXPLORATION = 5.0
MAX_SEED = 1_000_000
TREE_WIDTH = 640
"""Pixels of the tree chart: the main column of a 1024 px screen with the sidebar open."""
PRESENT_TREE_FONT = CHART_TEXT_PX + 4
"""The tree's labels (px) in the presentation view: the room's back row reads them."""


def mcts_step_widget_keys(key: str) -> list[str]:
    """The widget keys of the MCTS step-through on the page ``key`` (buttons excepted)."""
    keys = MctsKeys(key)
    return [*keys.settings, keys.steps.STEP]


@dataclass(frozen=True)
class MctsSettings:
    """What the panel's controls chose."""

    simulations: int
    exploration: float
    seed: int
    solver: bool


def mcts_step_panel(adapter: BoardAdapter, key: str) -> None:
    """The tab (a fragment: moving the slider reruns only this panel)."""
    playing = bool(st.session_state.get(MctsKeys(key).steps.PLAYING, False))
    run_every = PLAY_SECONDS if playing else None
    st.fragment(_panel, run_every=run_every)(adapter, key, playing)


def _panel(adapter: BoardAdapter, key: str, ticking: bool) -> None:
    """The controls, the step buttons and slider, what the step does, the tree and the board."""
    st.caption(
        "Monte Carlo tree search from the position on the board, one phase at a time: "
        "selection by UCB1, expansion, a random roll-out, and the back-up of its result."
    )
    settings = _controls(key)
    state = GamePageState(key).session.state
    try:
        trace = _cached_trace(adapter, state, settings)
    except InputError as error:
        st.info(escape_markdown(str(error)), icon=":material/info:")
        return
    steps_key = MctsKeys(key).steps_prefix  # the step-through's keys: <page>_mcts_step_...
    advance_step(steps_key, (adapter.game.name, state.key, settings), trace.steps, ticking)
    apply_link_step(steps_key, trace.steps, "mcts_step")
    shown = step_bar(steps_key, trace.steps)
    step = min(shown, trace.steps) - 1
    write_mcts_link(settings, step + 1)
    event = trace.events[step]
    _status(adapter, key, trace, event, step)
    _view(adapter, key, trace, event, step)


def _controls(key: str) -> MctsSettings:
    """Simulations, the exploration constant c, the seed and the MCTS-Solver, in one row."""
    keys = MctsKeys(key)
    with st.container(
        horizontal=True, gap="small", vertical_alignment="bottom", key=f"{key}_mcts_controls"
    ):
        simulations = st.number_input(
            "Simulations",
            min_value=1,
            max_value=MAX_TRACED_SIMULATIONS,
            value=current(keys.SIMULATIONS, DEFAULT_TRACED_SIMULATIONS),
            key=keys.SIMULATIONS,
            help=f"At most {MAX_TRACED_SIMULATIONS} simulations are traced: three steps "
            "each, and one per node the back-up passes.",
            width=130,
        )
        exploration = st.number_input(
            "Exploration c",
            min_value=0.0,
            max_value=MAX_EXPLORATION,
            value=current(keys.EXPLORATION, DEFAULT_EXPLORATION),
            step=0.1,
            key=keys.EXPLORATION,
            help="UCB1's constant: 0 always follows the best win rate; more tries "
            "the moves visited least.",
            width=130,
        )
        seed = st.number_input(
            "Seed",
            min_value=0,
            max_value=MAX_SEED,
            value=current(keys.SEED, 0),
            key=keys.SEED,
            help="The same seed replays the same random roll-outs.",
            width=110,
        )
        solver = st.toggle(
            "MCTS-Solver",
            value=current(keys.SOLVER, True),
            key=keys.SOLVER,
            help="Back up proven wins and losses (off: the textbook UCT).",
        )
    return MctsSettings(int(simulations), round(float(exploration), 3), int(seed), bool(solver))


def _cached_trace(adapter: BoardAdapter, state: Any, settings: MctsSettings) -> MctsTrace:
    """The traced search, from the visitor's cache if run before."""
    cache: dict = st.session_state.setdefault("mcts_steps_cache", {})
    cache_key = (adapter.game.name, state.key, settings)
    if cache_key not in cache:
        cache[cache_key] = traced_mcts(
            state,
            simulations=settings.simulations,
            exploration=settings.exploration,
            seed=settings.seed,
            solver=settings.solver,
        )
        while len(cache) > CACHE_SIZE:
            cache.pop(next(iter(cache)))
    else:  # most recently used last
        cache[cache_key] = cache.pop(cache_key)
    return cache[cache_key]


def _status(adapter: BoardAdapter, key: str, trace: MctsTrace, event: MctsEvent, step: int) -> None:
    """The step, the simulation and the phase; what the step does; what the search chose."""
    game = adapter.game
    with st.container(key=f"{key}_mcts_status"):
        st.markdown(
            f"**Step {step + 1:,} of {trace.steps:,}** · simulation {event.simulation} of "
            f"{trace.simulations} · **{PHASE_LABELS[event.phase]}**"
        )
        said = describe(event, game.format_move, game.player_names, trace.exploration)
        st.markdown(escape_markdown(said))
        ended = ""
        if trace.root_proven is not None:
            verdict = result_text(trace.root_proven, game.player_names)
            ended = (
                f" The root was proven ({verdict}) at simulation {trace.simulations}: "
                "the search stopped there."
            )
        # a choice too few simulations made says so in the same line, its reasons on hover:
        # the tree below stays on a projector's screen
        weak, _, why = too_few_note(trace, game.format_move).partition("; ")
        st.caption(
            f"After all {trace.simulations} simulations the search plays "
            f"{escape_markdown(chosen_text(trace, game.format_move, game.player_names))}."
            f"{ended}" + (f" :orange[{escape_markdown(weak)}.]" if weak else ""),
            help=escape_markdown(why[:1].upper() + why[1:]) if why else None,
        )


def phase_table(event: MctsEvent, format_move: Any, players: Any) -> pd.DataFrame | None:
    """The numbers of the step: each child's UCB1 at every node selection passed, or each
    node's counts after the back-up (None for the other phases)."""
    if event.phase == "selection":
        rows = [
            {
                "Node": node_name(choice.path, format_move),
                "Move": format_move(child.move),
                "Wins": child.wins,
                "Visits": child.visits,
                "UCB1": "proven loss: skipped" if child.ucb1 is None else f"{child.ucb1:.3f}",
                "Chosen": "◀" if child.move == choice.chosen else "",
            }
            for choice in event.choices
            for child in choice.children
        ]
        return pd.DataFrame(rows) if rows else None
    if event.phase == "backup":
        return pd.DataFrame(
            [
                {
                    "Node": node_name(update.path, format_move),
                    "Visits": update.counts.visits,
                    "Wins": update.counts.wins if update.counts.mover is not None else None,
                    "Wins of": players[update.counts.mover]
                    if update.counts.mover is not None
                    else "",
                    "Proven": ""
                    if update.counts.proven is None
                    else result_text(update.counts.proven, players)
                    + (" (now)" if update.newly_proven else ""),
                }
                for update in event.updates
            ]
        )
    return None


LEGEND = (
    "Each node: the move into it over wins/visits, the wins counted for the player who "
    "made that move (the root: its visits). Orange: this simulation's path; red ring: the "
    "node of this step. Selection writes each child's UCB1 on its edge, the chosen one bold "
    "red (\u201clost\u201d: a proven loss the solver skips); the table under the tree has "
    "them all. Purple diamonds: proven nodes (\u2713 who wins), ringed green when this "
    "back-up proved them."
)


def _view(adapter: BoardAdapter, key: str, trace: MctsTrace, event: MctsEvent, step: int) -> None:
    """The tree at the step beside the position at its node (or at the roll-out's end)."""
    game = adapter.game
    with st.container(horizontal=True, wrap=True, gap="medium", key=f"{key}_mcts_view"):
        with st.container(width=TREE_WIDTH, key=f"{key}_mcts_tree_box"):
            figure = mcts_tree_figure(
                tree_at(trace, step),
                event,
                game.format_move,
                game.player_names,
                title=f"UCT, c = {trace.exploration:g}" + (", MCTS-Solver" if trace.solver else ""),
                font=PRESENT_TREE_FONT if presenting() else TREE_FONT,
            )
            st.plotly_chart(figure, key=f"{key}_mcts_tree", config=CHART_CONFIG)
            st.caption(LEGEND)
        with st.container(width=SIDE_WIDTH, key=f"{key}_mcts_side"):
            _small_board(adapter, key, trace, event)
    table = phase_table(event, game.format_move, game.player_names)
    if table is not None:
        st.dataframe(table, hide_index=True, key=f"{key}_mcts_table")


def _small_board(adapter: BoardAdapter, key: str, trace: MctsTrace, event: MctsEvent) -> None:
    """The position at the step's node; during the roll-out, where its random moves ended."""
    game = adapter.game
    node = event.focus
    moves = (*node, *event.rollout)
    state, previous = trace.state, None
    for move in node:
        previous, state = state, state.play(move)
    if event.rollout:  # every square the roll-out changed is marked: compared with its start
        previous = state
        for move in event.rollout:
            state = state.play(move)
    if event.phase == "rollout" and event.rollout:
        played = " ".join(game.format_move(m) for m in event.rollout)
        st.caption(
            f"The roll-out from {escape_markdown(node_name(event.path, game.format_move))}: "
            f"**{escape_markdown(played)}**, {result_text(event.rewards, game.player_names)}"
        )
    else:
        st.caption(f"The position at {escape_markdown(node_name(node, game.format_move))}")
    small_board(adapter, state, previous, moves[-1] if moves else None, f"{key}_mcts_board")


# -- the panel's link ---------------------------------------------------------------

MCTS_LINK_PARAMS = ("mcts_sims", "mcts_c", "mcts_seed", "mcts_solver", "mcts_step")
"""The URL parameters of the MCTS step-through: its four settings and the step shown."""

MCTS_LINK_SCHEMA = (
    LinkField("mcts_sims", int, DEFAULT_TRACED_SIMULATIONS, low=1, high=MAX_TRACED_SIMULATIONS),
    LinkField("mcts_c", float, DEFAULT_EXPLORATION, low=0.0, high=MAX_EXPLORATION, digits=3),
    LinkField("mcts_seed", int, 0, low=0, high=MAX_SEED),
    LinkField("mcts_solver", bool, True),
    LinkField("mcts_step", int, 1, low=1),  # its last step is known with the search
)


def read_mcts_link(key: str, notes: list[str]) -> bool:
    """Set the MCTS step-through's widgets from the link (once); True if the link names any.

    A bad value is named in ``notes`` and its default used; the step is applied when the
    search is known (a step past its end shows the last, and says so).
    """
    if not any(name in st.query_params for name in MCTS_LINK_PARAMS):
        return False
    values, problems = read_query(MCTS_LINK_SCHEMA)
    notes.extend(problems)
    state, keys = st.session_state, MctsKeys(key)
    state[keys.SIMULATIONS] = values["mcts_sims"]
    state[keys.EXPLORATION] = float(values["mcts_c"])
    state[keys.SEED] = values["mcts_seed"]
    state[keys.SOLVER] = values["mcts_solver"]
    state[keys.steps.LINK_STEP] = values["mcts_step"]
    return True


def write_mcts_link(settings: MctsSettings, step: int) -> None:
    """Mirror the MCTS step-through's settings and the step shown in the URL."""
    wanted = {
        "mcts_sims": str(settings.simulations),
        "mcts_c": f"{settings.exploration:g}",
        "mcts_seed": str(settings.seed),
        "mcts_solver": "true" if settings.solver else "false",
        "mcts_step": str(step),
    }
    for name, text in wanted.items():
        if st.query_params.get(name) != text:
            st.query_params[name] = text


def drop_mcts_link() -> None:
    """Take the MCTS step-through's parameters out of the URL (its tab is closed)."""
    for name in MCTS_LINK_PARAMS:
        if name in st.query_params:
            del st.query_params[name]
