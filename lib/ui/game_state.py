"""One game page's entries in ``st.session_state``: every key the page uses, under one prefix.

A game page keeps everything in the visitor's own ``st.session_state`` (never in module
globals), under keys that start with the game's name: ``othello_session``,
``othello_w_new`` ... :class:`GamePageState` is the one place that spells those keys.
The page, its sidebar, its board and its tabs, and the Arena's hand-off to the page
(:mod:`lib.ui.arena_controls`) ask it for a key, or read and write a value through its
typed properties, instead of writing ``f"{key}_..."`` strings of their own.

Widget keys end in ``_w_<name>`` (a widget key equal to one of the page's own keys would
overwrite it); the tests find widgets by these keys, and a link never holds them. The
sidebar's two players have theirs in :class:`PlayerKeys`, a step-through's (the tab's, the
MCTS tab's steps, the tree lab's prediction) in :class:`StepKeys`, the MCTS tab's settings
in :class:`MctsKeys` and the comparison tab's in :class:`CompareKeys`.
"""

from __future__ import annotations

import zlib
from typing import Any

import streamlit as st

from lib.games.session import GameSession


class _Key:
    """One key, read as ``<prefix><suffix>`` from the object that holds the prefix."""

    def __init__(self, suffix: str, doc: str) -> None:
        self.suffix = suffix
        self.__doc__ = doc

    def __get__(self, holder: GamePageState | _KeyFamily, owner: type | None = None) -> str:
        return holder.prefix + self.suffix


class GamePageState:
    """The session-state entries of the game page of ``game`` (its name: every key's prefix).

    The page's own entries are typed properties (:attr:`session`, :attr:`specs`,
    :attr:`notes` ...); the keys of its widgets and containers are string attributes,
    each documented with what the widget holds. The object holds nothing but the
    prefix: every value lives in the visitor's ``st.session_state``.
    """

    __slots__ = ("_game",)

    def __init__(self, game: str) -> None:
        self._game = game

    @property
    def game(self) -> str:
        """The game's name (``GameSpec.name``)."""
        return self._game

    @property
    def prefix(self) -> str:
        """What every key of the page starts with: ``<game>_``."""
        return f"{self._game}_"

    def __repr__(self) -> str:
        return f"GamePageState({self._game!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GamePageState) and other.game == self.game

    def __hash__(self) -> int:
        return hash((GamePageState, self._game))

    # -- the page's own entries (no widget holds them) ------------------------------------

    SESSION = _Key(
        "session", "The game being played (a GameSession); the Arena puts a replay there."
    )
    SPECS = _Key("specs", "Both players' specs as the link writes them (tuple of two str).")
    LINK_READ = _Key("link_read", "True once the link's position has been read (bool).")
    NOTES = _Key("notes", "Problems with the link's settings, shown until New game (list[str]).")
    NOTICE = _Key("notice", "A message from the Arena, shown once on arrival (str).")

    # -- widgets and containers -------------------------------------------------------------

    BOARD = _Key("board_live", "The clickable board's component (its last click event).")
    NEW_GAME = _Key("w_new", "The New game button.")
    UNDO = _Key("w_undo", "The Undo button.")
    FORWARD = _Key("w_forward", "The Forward button (replays a move taken back).")
    HINT = _Key("w_hint", "The Hint button.")
    PASS = _Key("w_pass", "The Pass button (in Step's place when a person must pass).")
    STEP = _Key("w_step", "The Step button (the AI to move plays one move).")
    AUTOPLAY = _Key("w_autoplay", "The Autoplay toggle (bool): AI against AI plays on.")
    TABS = _Key("w_tabs", "The analysis tabs: the label of the open one (str).")
    SHOWN_PLY = _Key("w_ply", "The move slider: the number of moves shown (int).")
    FALLBACK = _Key("w_fallback", "The keyboard-friendly board's expander (bool: open).")
    MOVE_TEXT = _Key("w_move_text", "The move-list picker: a legal move in the game's notation.")
    PLAY_LISTED = _Key("w_play_listed", "The button that plays the picked move.")
    SHOW_LEGAL = _Key("w_show_legal", "Sidebar: mark the legal moves (bool).")
    FLIP = _Key("w_flip", "Sidebar: turn the board round (bool).")
    BOARD_PIXELS = _Key("w_board_px", "Sidebar: the board's size in pixels (int).")
    TREE = _Key("w_tree", "Sidebar: record the search tree (bool).")
    EXACT = _Key("w_exact", "Sidebar: an exact score for every move (bool).")
    BUTTONS = _Key("buttons", "The container of the button row.")
    MESSAGES = _Key("messages", "The fixed-height status slot above the board.")
    PLAY_AREA = _Key("play_area", "The container of the board and its side panel.")
    SIDE_PANEL = _Key("side_panel", "The panel beside the board (verdict, hint, how to play).")
    LAST_SEARCH = _Key("last", "The prefix of the Last search tab's charts.")
    RECORD_DOWNLOAD = _Key("dl", "The game record's CSV download button.")

    def option_key(self, option: str) -> str:
        """The sidebar's select of the game option ``option`` (its value)."""
        return f"{self.game}_w_opt_{option}"

    def player(self, side: int) -> PlayerKeys:
        """The keys of side ``side``'s player widgets in the sidebar (``<game>_p<side>_w_...``)."""
        return PlayerKeys(f"{self.game}_p{side}")

    def cell_key(self, row: int, col: int) -> str:
        """The keyboard-friendly board's button of the square (``row``, ``col``)."""
        return f"{self.game}_w_cell_{row}_{col}"

    # -- typed values -------------------------------------------------------------------------

    @property
    def has_session(self) -> bool:
        """Whether a game is kept for this page."""
        return self.SESSION in st.session_state

    @property
    def session(self) -> GameSession:
        """The game being played (KeyError before the page has started one)."""
        return st.session_state[self.SESSION]

    @session.setter
    def session(self, session: GameSession) -> None:
        st.session_state[self.SESSION] = session

    def drop_session(self) -> None:
        """Forget the game: the page starts a new one on its next run."""
        st.session_state.pop(self.SESSION, None)

    @property
    def specs(self) -> tuple[str, ...] | None:
        """Both players' specs as the page last wrote them (None before the first run)."""
        return st.session_state.get(self.SPECS)

    @specs.setter
    def specs(self, specs: tuple[str, ...]) -> None:
        st.session_state[self.SPECS] = specs

    @property
    def link_read(self) -> bool:
        """Whether the link's position has been read (it is read once, into the first game)."""
        return bool(st.session_state.get(self.LINK_READ))

    @link_read.setter
    def link_read(self, read: bool) -> None:
        st.session_state[self.LINK_READ] = read

    @property
    def notes(self) -> list[str]:
        """The kept problems with the link's settings (the list itself: extend it)."""
        return st.session_state.setdefault(self.NOTES, [])

    def drop_notes(self) -> None:
        """Forget the kept problems (a new game)."""
        st.session_state.pop(self.NOTES, None)

    def take_notice(self) -> str | None:
        """The Arena's message, once: it is gone after this call."""
        return st.session_state.pop(self.NOTICE, None)

    def leave_notice(self, text: str) -> None:
        """Leave ``text`` for the page to show once, on arrival (the Arena's hand-off)."""
        st.session_state[self.NOTICE] = text

    @property
    def autoplay(self) -> bool:
        """Whether Autoplay is on."""
        return bool(st.session_state.get(self.AUTOPLAY))

    def stop_autoplay(self) -> None:
        """Switch Autoplay off (Undo, Forward and the move slider do)."""
        st.session_state.pop(self.AUTOPLAY, None)

    def open_tab(self, label: str) -> None:
        """Open the analysis tab ``label`` on the next run."""
        st.session_state[self.TABS] = label

    @property
    def shown_ply(self) -> int | None:
        """The move slider's value (None when it is not drawn)."""
        value = st.session_state.get(self.SHOWN_PLY)
        return None if value is None else int(value)

    @shown_ply.setter
    def shown_ply(self, ply: int) -> None:
        st.session_state[self.SHOWN_PLY] = ply

    @property
    def move_text(self) -> str:
        """The move picked in the move list (empty if none)."""
        return st.session_state.get(self.MOVE_TEXT, "")

    @property
    def board_event(self) -> Any:
        """The board component's last event (a mapping with ``click``, or None)."""
        return st.session_state.get(self.BOARD)


class _KeyFamily:
    r"""Keys that share one prefix, ``<prefix><tail>``: a family's keys are :class:`_Key`\ s."""

    __slots__ = ("_prefix",)
    _tail = ""

    def __init__(self, prefix: str) -> None:
        self._prefix = f"{prefix}{self._tail}"

    @property
    def prefix(self) -> str:
        """What every key of the family starts with."""
        return self._prefix

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._prefix[: -len(self._tail) or None]!r})"


class PlayerKeys(_KeyFamily):
    """The widget keys of one player's settings in the sidebar: ``<prefix>_w_<name>``.

    :func:`lib.ui.game_controls.player_controls` draws the widgets; the Arena's "use these
    weights" sets the kind, the depth, the heuristic and its weights before it opens the
    page (:func:`lib.ui.arena_controls.use_weights`).
    """

    __slots__ = ()
    _tail = "_w_"  # the prefix: the player's (``<game>_p<side>`` on a game page)

    KIND = _Key("kind", "The player's kind: human, alphabeta, mcts ... (str).")
    KIND_SHOWN = _Key("kind_shown", "The kind drawn in the last run (str): tells a new one.")
    DEPTH = _Key("depth", "A search's depth cap in plies, 0 for none (int).")
    DEPTH_KEPT = _Key("depth_kept", "The last depth, carried over to another algorithm (int).")
    HEURISTIC = _Key("heuristic", "The heuristic's name, or the choice of a formula (str).")
    FORMULA = _Key("formula", "A student's evaluation formula, as typed (str).")
    TIME = _Key("time", "A search's time budget per move in seconds (float).")
    ENDGAME = _Key("endgame", "Search to the end at this many moves left, 0 for off (int).")
    ORDERING = _Key("ordering", "Alpha-beta: move ordering (bool).")
    TRANSPOSITION = _Key("tt", "Alpha-beta: the transposition table (bool).")
    BEAM = _Key("beam", "Alpha-beta: the beam width, 0 for off (int).")
    SIMULATIONS = _Key("sims", "MCTS: simulations per move (int).")
    MCTS_TIME = _Key("mcts_time", "MCTS: the time budget per move in seconds (float).")
    EXPLORATION = _Key("c", "MCTS: the exploration constant c (float).")
    SOLVER = _Key("solver", "MCTS: prove wins and losses (bool).")
    ROLLOUT = _Key("rollout", "MCTS: the rollout kind (str).")
    ROLLOUT_HEURISTIC = _Key("rollout_heuristic", "MCTS: the heuristic judging rollouts (str).")

    def weight(self, heuristic: str, name: str) -> str:
        """The weight ``name`` of ``heuristic`` (float; the heuristic's default until set)."""
        return f"{self._prefix}weight_{heuristic}_{name}"


class StepKeys(_KeyFamily):
    """The keys of one step-through: ``<prefix>_step_<name>`` (widgets ``..._step_w_<name>``).

    The game page's step-through tab has the page's prefix (``othello_step_...``), the MCTS
    tab's steps ``<game>_mcts`` (``othello_mcts_step_...``), the tree lab's the lab's own.
    :mod:`lib.ui.step_panel` draws the slider, the buttons and the panel, :mod:`lib.ui.step_lab`
    the own tree's editor and the predictions; both read and write through these keys.
    """

    __slots__ = ()
    _tail = "_step_"  # the prefix: the page's (``<game>``), ``<game>_mcts`` for MCTS steps

    # -- the step-through's own entries (no widget holds them)
    PLAYING = _Key("playing", "True while Play steps on by itself (bool).")
    SEARCH_ID = _Key("search_id", "Which search the steps are of; a new one starts at step 1.")
    LINK_STEP = _Key("link_step", "The link's step, until its search is known (int).")
    PREDICT_FOR = _Key("predict_for", "The search the prediction's widgets were filled for.")
    PREDICTION = _Key("prediction", "(search id, the checked prediction) once revealed.")
    TREE_GOOD = _Key("tree_good", "The own tree's last text that parsed (str).")
    TREE_TABLE_ERROR = _Key("tree_table_error", "Why the tree table's last edit was refused.")

    # -- widgets
    STEP = _Key("w_step", "The slider: the step shown, counted from 1 (int).")
    POSITION = _Key("w_position", "The position searched: the label of one (str).")
    ALGORITHM = _Key("w_algorithm", "minimax or alphabeta (str).")
    DEPTH = _Key("w_depth", "The search's depth (int).")
    ORDERING = _Key("w_ordering", "Moves ordered (bool).")
    COMPARE = _Key("w_compare", "The two trees side by side (bool).")
    TREE = _Key("w_tree", "The own tree's text (str; links set it from tree=).")
    FIRST = _Key("w_first", "The First button.")
    PREV = _Key("w_prev", "The Prev button.")
    PLAY = _Key("w_play", "The Play or Pause button.")
    NEXT = _Key("w_next", "The Next button.")
    LAST = _Key("w_last", "The Last button.")
    PREDICT_CUTS = _Key("w_predict_cuts", "The branches predicted to be cut (list).")
    PREDICT_VALUE = _Key("w_predict_value", "The root value predicted (float or None).")
    REVEAL = _Key("w_reveal", "The button that checks the cuts and value predicted.")
    PREDICT_MOVE = _Key("w_predict_move", "The move predicted for the root (str).")
    REVEAL_MOVE = _Key("w_reveal_move", "The button that checks the move predicted.")

    # -- containers and charts
    BAR = _Key("bar", "The sticky bar of the buttons and the slider.")
    BUTTONS = _Key("buttons", "The row of step buttons.")
    CONTROLS = _Key("controls", "The row of the search's settings.")
    STATUS = _Key("status", "What the step shown does, and the counts so far.")
    TREE_CHART = _Key("tree", "The tree chart at the step shown.")
    COMPARE_TREE = _Key("compare_tree", "The other tree chart, side by side.")
    CODE = _Key("code", "The code excerpt at the step shown.")
    LISTING = _Key("listing", "The whole algorithm's code.")
    BOARD = _Key("board", "The small board at a node picked in the tree.")
    PREDICT = _Key("predict", "The prediction's box.")

    def predict_widget(self, name: str) -> str:
        """The prediction widget ``name`` (``cuts``, ``value``, ``move``)."""
        return f"{self._prefix}w_predict_{name}"

    def tree_table(self, text: str) -> str:
        """The tree table's editor for the own tree's text ``text`` (one per text)."""
        return f"{self._prefix}tree_table_{zlib.crc32(text.encode()):08x}"

    def widgets(self, names: tuple[str, ...]) -> list[str]:
        """The widget keys ``..._step_w_<name>`` of ``names``."""
        return [f"{self._prefix}w_{name}" for name in names]


class MctsKeys(_KeyFamily):
    """The MCTS tab's settings (:mod:`lib.ui.mcts_step_panel`): ``<prefix>_mcts_w_<name>``.

    Its step-through has the keys of :class:`StepKeys` under :attr:`steps` (``<prefix>_mcts``).
    """

    __slots__ = ()
    _tail = "_mcts_w_"  # the prefix: the page's (``<game>``)

    SIMULATIONS = _Key("simulations", "Simulations of the traced search (int).")
    EXPLORATION = _Key("exploration", "The exploration constant c (float).")
    SEED = _Key("seed", "The random seed of the rollouts (int).")
    SOLVER = _Key("solver", "MCTS-Solver: prove wins and losses (bool).")

    @property
    def settings(self) -> list[str]:
        """The settable widgets' keys, kept while the tab is hidden."""
        return [self.SIMULATIONS, self.EXPLORATION, self.SEED, self.SOLVER]

    @property
    def steps_prefix(self) -> str:
        """The prefix of the traced search's step-through (``<page>_mcts``)."""
        return self._prefix[: -len(self._tail)] + "_mcts"

    @property
    def steps(self) -> StepKeys:
        """The keys of the traced search's step-through."""
        return StepKeys(self.steps_prefix)


class CompareKeys(_KeyFamily):
    """The comparison tab's keys (:func:`lib.ui.search_panels.compare_panel`):
    ``<prefix>_w_cmp_<name>`` for its widgets, :attr:`RESULT` for what it found."""

    __slots__ = ()
    _tail = "_w_cmp_"  # the prefix: the page's (``<game>``)

    DEPTH = _Key("depth", "The depth every variant searches to (int).")
    RUN = _Key("run", "The button that runs the comparison.")

    @property
    def RESULT(self) -> str:  # upper case, read like the other keys
        """(position, depth, rows) of the last comparison: not a widget."""
        return self._prefix[: -len(self._tail)] + "_compare"
