"""The Othello page under AppTest: a short game through the button fallback, illegal clicks,
undo, hint, AI-vs-AI autoplay, URL settings; the click handler and record table directly."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from lib.games import othello
from lib.games.drawing.view import BOARD_PIXELS
from lib.games.othello import endgame
from lib.games.othello import view as othello_view
from lib.games.search import variants
from lib.games.search.players import PlayerConfig, parse_player_spec
from lib.games.session import STALE_MESSAGE, GameSession, decide
from lib.ui import game_analysis, game_controls, game_play_area, search_panels
from lib.ui.game_board import handle_square
from tests.pages.game_app import (
    COMPARE_TAB,
    LAST_SEARCH_TAB,
    RECORD_TAB,
    board,
    click_board,
    open_panels,
)

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "othello.py")


def _app(*, tab: str | None = None, buttons: bool = False, **params: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for name, value in params.items():
        app.query_params[name] = value
    return open_panels(app, "othello", tab=tab, buttons=buttons).run()


def _session(app: AppTest) -> GameSession:
    return app.session_state["othello_session"]


def _record(app: AppTest) -> list[str]:
    return app.code[0].value.split() if len(app.code) else []


def test_first_load_defaults_and_url():
    app = _app(buttons=True)
    assert not app.exception
    assert app.title[0].value == "Othello"
    assert "Black 2 – 2 White" in app.info[0].value
    assert app.query_params["size"] == ["8"] or app.query_params["size"] == "8"
    session = _session(app)
    assert session.state == othello.initial_state(8)
    # the four legal squares are marked in the button fallback
    labels = [b.label for b in app.button if b.key and b.key.startswith("othello_w_cell_")]
    assert sorted(label for label in labels if " " in label) == [
        "c4 +",
        "d3 +",
        "d4 ⚪",
        "d5 ⚫",
        "e4 ⚫",
        "e5 ⚪",
        "e6 +",
        "f5 +",
    ]
    # every button names its square (a screen reader reads the label), row by row from a1
    names = [label.split()[0] for label in labels]
    assert names == [f"{c}{r}" for r in range(1, 9) for c in "abcdefgh"]


def test_short_game_through_the_button_fallback():
    app = _app(size="6", white="alphabeta:depth=2", tab=RECORD_TAB, buttons=True)
    for turn in range(4):
        state = _session(app).state
        if state.to_move != othello.BLACK or not state.legal_moves():
            break
        move = state.legal_moves()[0]
        if move == othello.PASS:
            break
        row, col = divmod(move, 8)
        app.button(key=f"othello_w_cell_{row}_{col}").click().run()
        assert not app.exception
        moves = _record(app)
        # the human move is recorded, then the AI's reply (unless the game ended)
        assert moves[2 * turn] == othello.format_move(move)
        assert len(moves) in (2 * turn + 1, 2 * turn + 2)
    moves = _record(app)
    assert len(moves) >= 6
    # the move list wraps: a whole game is read without scrolling sideways at 1024 px
    assert app.code[0].proto.wrap_lines
    open_panels(app, "othello", tab=LAST_SEARCH_TAB).run()  # the AI's last search
    assert not app.exception and _record(app) == []  # only the open tab is drawn
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Nodes"].replace(",", "")) > 0
    assert metrics["Depth"] in ("1", "2")
    session = _session(app)
    table = session.record_table(othello.GAME)
    assert list(table["move"]) == moves
    assert table["player"].iloc[0] == "human" and table["nodes"].iloc[1] > 0


def test_illegal_click_gets_a_message_not_a_crash():
    app = _app(size="6", white="greedy", tab=RECORD_TAB, buttons=True)
    app.button(key="othello_w_cell_0_0").click().run()
    assert not app.exception
    assert any("not legal" in w.value for w in app.warning)
    app.button(key="othello_w_cell_2_2").click().run()  # occupied centre square
    assert any("already taken" in w.value for w in app.warning)
    assert _record(app) == []


def test_undo_takes_back_the_ai_reply_and_the_human_move():
    app = _app(size="6", white="alphabeta:depth=1", tab=RECORD_TAB, buttons=True)
    app.button(key="othello_w_cell_1_2").click().run()
    assert len(_record(app)) == 2
    app.button(key="othello_w_undo").click().run()
    assert not app.exception
    assert _session(app).state == othello.initial_state(6)


def test_hint_scores_every_legal_move():
    app = _app(size="6", white="alphabeta:depth=2")
    app.button(key="othello_w_hint").click().run()
    assert not app.exception
    session = _session(app)
    assert session.hint is not None
    assert set(session.hint.stats.root_scores) == set(session.state.legal_moves())
    assert any("Hint:" in c.value for c in app.caption)


def test_ai_vs_ai_step_and_autoplay_to_the_end():
    app = _app(size="6", black="greedy", white="random", tab=RECORD_TAB)
    assert _record(app) == []  # two AIs wait for Step or Autoplay
    app.button(key="othello_w_step").click().run()
    assert len(_record(app)) == 1
    app.toggle(key="othello_w_autoplay").set_value(True).run()
    assert not app.exception
    state = _session(app).state
    assert state.is_terminal()
    assert "Game over" in app.success[0].value


def test_bad_url_settings_fall_back_with_a_warning():
    app = _app(size="7", white="alphabeta:depth=banana")
    assert not app.exception
    warnings = " ".join(w.value for w in app.warning)
    assert "size=7 is not one of 6, 8; using 8" in warnings
    assert "depth must be a whole number" in warnings
    assert _session(app).state.size == 8


def test_an_unknown_player_in_the_url_is_named_and_the_default_player_kept():
    # 'white=garbage' used to turn White silently into a human (the first choice).
    app = _app(white="garbage", black="perfect:depth=3")  # 'perfect' is Sim's, not Othello's
    assert not app.exception
    warnings = " ".join(w.value for w in app.main.warning)
    assert "white=garbage" in warnings and "no player 'garbage'" in warnings
    assert "no player 'perfect'" in warnings
    assert app.selectbox(key="othello_p1_w_kind").value == "alphabeta"
    assert app.selectbox(key="othello_p0_w_kind").value == "human"
    assert parse_player_spec(app.query_params["white"]).kind == "alphabeta"


def test_changing_the_board_size_starts_a_new_game():
    app = _app(size="8", white="greedy", tab=RECORD_TAB, buttons=True)
    app.button(key="othello_w_cell_2_3").click().run()
    assert len(_record(app)) == 2
    app.selectbox(key="othello_w_opt_size").set_value(6).run()
    assert _session(app).state == othello.initial_state(6)
    assert app.query_params["size"] in ("6", ["6"])


def test_search_options_reach_the_player_spec_in_the_url():
    app = _app(size="6", white="alphabeta:depth=3")
    app.toggle(key="othello_p1_w_ordering").set_value(False).run()
    app.slider(key="othello_p1_w_depth").set_value(2).run()
    spec = app.query_params["white"]
    spec = spec[0] if isinstance(spec, list) else spec
    assert "depth=2" in spec and "ordering=false" in spec


def test_click_handler_maps_squares_to_moves():
    state = othello.initial_state(8)
    assert othello_view.move_for_square(state, (2, 3), None).move == othello.square(2, 3)
    outcome = othello_view.move_for_square(state, (0, 0), None)
    assert outcome.move is None and "not legal" in outcome.message
    assert "outside" in othello_view.move_for_square(state, (9, 9), None).message
    forced = othello.state_from_text("XXXX\nXOO.\nXXXX\nXXXX", to_move=othello.WHITE)
    assert "must pass" in othello_view.move_for_square(forced, (1, 3), None).message


def test_handle_square_refuses_moves_for_the_ai_side():
    session = GameSession.new(othello.GAME, {"size": 6})
    handle_square(othello_view.ADAPTER, session, (1, 2), human_sides={1})
    assert session.moves == [] and "Black is thinking…" in session.message
    handle_square(othello_view.ADAPTER, session, (1, 2), human_sides={0})
    assert session.moves == [othello.square(1, 2)]


def test_ai_decision_respects_the_tree_depth_cap():
    state = othello.initial_state(6)
    rng = np.random.default_rng(0)
    small = decide(
        state, PlayerConfig(depth=2), othello.GAME, rng, default_time=1.0, record_tree=True
    )
    assert small.stats.tree
    deep = decide(
        state, PlayerConfig(depth=5), othello.GAME, rng, default_time=1.0, record_tree=True
    )
    assert deep.stats.tree is None


def test_every_ai_kind_answers_on_the_page():
    for spec in ("random", "greedy", "minimax:depth=2", "expectimax:depth=2", "alphabeta:beam=2"):
        app = _app(size="6", white=spec, tab=RECORD_TAB, buttons=True)
        app.button(key="othello_w_cell_1_2").click().run()
        assert not app.exception, spec
        assert len(_record(app)) == 2, spec
        in_url = app.query_params["white"]
        in_url = parse_player_spec(in_url[0] if isinstance(in_url, list) else in_url)
        wanted = parse_player_spec(spec)
        if spec.startswith("alphabeta") and "depth" not in spec:
            # a URL without a depth gets the page's default depth, not the library's
            page_default = parse_player_spec(othello_view.ADAPTER.default_players[1])
            wanted = replace(wanted, depth=page_default.depth)
        assert (in_url.kind, in_url.depth, in_url.beam) == (wanted.kind, wanted.depth, wanted.beam)


FORCED_PASS = """
.OOOOO
.XOOOO
XXOOOO
XOOX.O
XXXXXO
XXXXX.
"""


def test_a_human_without_a_legal_move_passes_with_the_pass_button():
    state = othello.state_from_text(FORCED_PASS, to_move=othello.BLACK)
    assert state.legal_moves() == [othello.PASS]
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["size"] = "6"
    app.query_params["white"] = "alphabeta:depth=2"
    app.session_state["othello_session"] = GameSession(options={"size": 6}, states=[state])
    open_panels(app, "othello", tab=RECORD_TAB, buttons=True).run()
    assert not app.exception
    app.button(key="othello_w_cell_0_0").click().run()  # clicking a square explains the pass
    assert any("must pass" in w.value for w in app.warning)
    # the Pass button takes the place of Step in the button row above the board
    row = _main_block(app, "othello_buttons")
    keys = [getattr(child, "key", None) for child in row.children.values()]
    assert "othello_w_pass" in keys and "othello_w_step" not in keys
    app.button(key="othello_w_pass").click().run()
    assert not app.exception
    record = _record(app)
    assert record[0] == "pass" and len(record) >= 2  # White answered after the pass


def test_pruning_comparison_tab():
    app = _app(size="6", white="alphabeta:depth=3", tab=COMPARE_TAB)
    app.slider(key="othello_w_cmp_depth").set_value(3).run()
    app.button(key="othello_w_cmp_run").click().run()
    assert not app.exception
    table = app.dataframe[0].value
    assert list(table["variant"]) == list(variants.VARIANTS)
    assert table["value"].nunique() == 1
    assert table["nodes"].iloc[0] > table["nodes"].iloc[-1]
    assert not any("left out" in c.value for c in app.caption)


def test_a_comparison_deeper_than_minimax_may_go_says_it_is_left_out():
    app = _app(size="6", white="alphabeta:depth=3", tab=COMPARE_TAB)
    deepest = search_panels.COMPARE_MINIMAX_DEPTH + 1
    app.slider(key="othello_w_cmp_depth").set_value(deepest).run()
    app.button(key="othello_w_cmp_run").click().run()
    assert not app.exception
    assert "minimax" not in list(app.dataframe[0].value["variant"])
    assert any(
        f"minimax is left out above depth {search_panels.COMPARE_MINIMAX_DEPTH}" in c.value
        for c in app.caption
    )


def test_url_weights_of_the_wrong_length_or_not_finite_do_not_crash():
    app = _app(size="6", white="alphabeta:heuristic=table,weights=1/2")
    assert not app.exception
    assert any("takes 7 weights" in w.value for w in app.warning)
    app = _app(size="6", white="alphabeta:weights=nan/1")
    assert not app.exception
    assert any("finite" in w.value for w in app.warning)


def test_url_settings_beyond_the_caps_are_clamped():
    app = _app(white="alphabeta:beam=50,endgame=99,depth=12,time=60", black="minimax:depth=9")
    assert not app.exception
    white = parse_player_spec(app.query_params["white"])
    black = parse_player_spec(app.query_params["black"])
    assert (white.depth, white.beam, white.endgame_exact, white.time_limit) == (8, 10, 14, 5.0)
    assert black.depth == game_controls.UI_MAX_DEPTH["minimax"]


def test_url_settings_beyond_the_caps_are_named_in_one_visible_warning():
    app = _app(white="alphabeta:depth=10,beam=50,heuristic=foo", black="minimax:depth=7,time=30")
    assert not app.exception
    warnings = [w.value for w in app.main.warning]
    white = [w for w in warnings if w.startswith("White: changed")]
    black = [w for w in warnings if w.startswith("Black: changed")]
    assert len(white) == 1 and len(black) == 1
    assert "depth 10 → 8" in white[0] and "alpha-beta" in white[0]
    assert "beam 50 → 10" in white[0] and "heuristic foo → " in white[0]
    assert "depth 7 → 4" in black[0] and "time 30 → 5" in black[0]
    app.run()  # still shown after a rerun (the URL now holds the page's own settings)
    assert any(w.value.startswith("White: changed") for w in app.main.warning)
    app.button(key="othello_w_new").click().run()
    assert not any("changed the link" in w.value for w in app.main.warning)


def test_depth_error_names_this_pages_limits_and_greedy_drops_its_depth():
    app = _app(white="alphabeta:depth=13", black="greedy:depth=5")
    assert not app.exception
    warnings = " ".join(w.value for w in app.main.warning)
    assert f"depth 13 → {game_controls.UI_MAX_DEPTH['alphabeta']}" in warnings
    black = app.query_params["black"]
    assert "depth" not in (black if isinstance(black, str) else black[0])


def _main_block(app: AppTest, key: str):
    return next(block for block in app.main.children.values() if getattr(block, "key", None) == key)


def _values(block) -> list[str]:
    """Text of the elements in ``block``, nested blocks included."""
    out = []
    for child in block.children.values():
        if hasattr(child, "children") and not hasattr(child, "value"):
            out.extend(_values(child))
        else:
            out.append(str(child.value))
    return out


def test_status_slot_above_the_board_has_a_fixed_height_and_takes_click_messages():
    app = _app(white="human", buttons=True)
    block = _main_block(app, "othello_messages")  # the same height whatever it says
    assert block.proto.height_config.pixel_height == game_play_area.STATUS_HEIGHT
    assert _values(block) == [app.info[0].value]
    assert "to move (Human): click a square with a dot" in app.info[0].value
    app.button(key="othello_w_cell_0_0").click().run()  # not a legal move
    block = _main_block(app, "othello_messages")
    assert block.proto.height_config.pixel_height == game_play_area.STATUS_HEIGHT
    assert _values(block) == [app.main.warning[-1].value]
    assert "not legal" in app.main.warning[-1].value
    assert "Black** to move (Human)" in app.main.warning[-1].value  # the turn line is kept
    app.button(key="othello_w_cell_2_3").click().run()  # d3: legal; the status line is back
    assert not app.main.warning and "Black 4 – 1 White" in app.info[0].value
    assert _session(app).moves[0] == othello.square(2, 3)


def test_how_to_play_sits_in_the_panel_beside_the_board():
    app = _app()
    area = _main_block(app, "othello_play_area")
    panel = next(
        b for b in area.children.values() if getattr(b, "key", None) == "othello_side_panel"
    )
    text = " ".join(_values(panel))
    assert "**How to play.**" in text and "dots mark the legal moves" in text


def test_a_replay_banner_sits_in_the_panel_beside_the_board_not_above_it():
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["size"] = "6"
    app.session_state["othello_session"] = GameSession(
        options={"size": 6},
        states=[othello.GAME.initial_state(size=6)],
        replay="Replay of A vs B, game 0: Black A, White B",
    )
    app.run()
    assert not app.exception
    panel = next(
        b
        for b in _main_block(app, "othello_play_area").children.values()
        if getattr(b, "key", None) == "othello_side_panel"
    )
    assert "Replay of A vs B, game 0" in _values(panel)[0]
    above = [
        child
        for child in app.main.children.values()
        if getattr(child, "key", None) != "othello_play_area"
    ]
    assert not any("Replay of" in value for block in above for value in _values_of(block))
    assert "(replay)" in app.info[0].value  # the status line says it too


def _values_of(node) -> list[str]:
    return _values(node) if hasattr(node, "children") else [str(getattr(node, "value", ""))]


def test_board_size_from_the_sidebar():
    app = _app(size="6")
    assert board(app, "othello")[1]["width"] == BOARD_PIXELS + 40
    app.slider(key="othello_w_board_px").set_value(560).run()
    assert board(app, "othello")[1]["width"] == 600


def test_switching_a_players_algorithm_keeps_its_depth():
    app = _app(size="6", black="human", white="minimax:depth=4")
    assert app.slider(key="othello_p1_w_depth").value == 4
    app.selectbox(key="othello_p1_w_kind").set_value("alphabeta").run()
    assert app.slider(key="othello_p1_w_depth").value == 4  # was reset to 1
    app.selectbox(key="othello_p1_w_kind").set_value("human").run()
    app.selectbox(key="othello_p1_w_kind").set_value("alphabeta").run()
    assert app.slider(key="othello_p1_w_depth").value == 4
    # a person's side handed to the AI gets the page's default AI's depth: no cap (0), not 4
    app.selectbox(key="othello_p0_w_kind").set_value("alphabeta").run()
    assert app.slider(key="othello_p0_w_depth").value == 0
    assert "depth=none" in app.query_params["black"]


def test_an_out_of_range_link_value_is_changed_to_fit_not_dropped():
    app = _app(size="6", white="alphabeta:depth=20,heuristic=discs,time=500")
    white = app.session_state["othello_specs"][1]
    assert "heuristic=discs" in white  # the rest of the spec is kept
    assert app.slider(key="othello_p1_w_depth").value == game_controls.UI_MAX_DEPTH["alphabeta"]
    warnings = " ".join(w.value for w in app.warning)
    cap, time_cap = game_controls.UI_MAX_DEPTH["alphabeta"], game_controls.UI_MAX_TIME
    assert f"depth 20 → {cap}" in warnings and f"time 500 → {time_cap:g}" in warnings
    assert "Ignoring" not in warnings


def test_a_huge_link_value_is_quoted_short():
    app = _app(size="6", white="alphabeta:" + "x" * 16_000)
    warnings = " ".join(w.value for w in app.warning)
    assert "16,000" in warnings or "16,010" in warnings
    assert len(warnings) < 600


def test_the_button_board_and_closed_tabs_are_drawn_only_when_opened():
    app = _app(size="6", white="alphabeta:depth=1")
    cells = [b for b in app.button if b.key and b.key.startswith("othello_w_cell_")]
    # the board alone, drawn without plotly (its chart library is a first visit's longest wait)
    assert cells == [] and len(app.get("plotly_chart")) == 0
    assert board(app, "othello")[1]["shapes"]
    assert [tab.label for tab in app.tabs] == list(game_analysis.ANALYSIS_TABS)
    assert any(c.value.startswith("Nothing searched yet") for c in app.caption)  # the first tab
    assert not any(s.key == "othello_w_cmp_depth" for s in app.slider)
    open_panels(app, "othello", buttons=True).run()
    assert len([b for b in app.button if b.key and b.key.startswith("othello_w_cell_")]) == 36
    app.button(key="othello_w_cell_1_2").click().run()
    assert len(_session(app).moves) == 2  # the human's move and the AI's reply
    # a closed tab keeps its settings: the comparison's depth survives a visit to the record
    open_panels(app, "othello", tab=COMPARE_TAB).run()
    app.slider(key="othello_w_cmp_depth").set_value(2).run()
    open_panels(app, "othello", tab=RECORD_TAB).run()
    assert _record(app) == [othello.format_move(m) for m in _session(app).moves]
    assert not any(s.key == "othello_w_cmp_depth" for s in app.slider)
    open_panels(app, "othello", tab=COMPARE_TAB).run()
    assert not app.exception and app.slider(key="othello_w_cmp_depth").value == 2


def test_a_click_on_the_board_plays_the_square_and_the_ai_replies():
    app = _app(size="6", white="alphabeta:depth=1")
    _, drawn = board(app, "othello")
    (targets,) = [t for t in drawn["traces"] if t["customdata"]]
    assert sorted(map(tuple, targets["customdata"])) == [(r, c) for r in range(6) for c in range(6)]
    assert targets["hover"][targets["customdata"].index([1, 2])].startswith("c2")
    click_board(app, "othello", [1, 2])  # c2, legal
    assert not app.exception
    assert [othello.format_move(m) for m in _session(app).moves[:1]] == ["c2"]
    assert len(_session(app).moves) == 2  # and White's reply
    discs = [s for s in board(app, "othello")[1]["shapes"] if s["fillcolor"] in DISCS]
    assert len(discs) == 6  # the board drawn after both moves
    click_board(app, "othello", [0, 0])  # a1: flips nothing
    assert len(_session(app).moves) == 2
    assert any("not legal" in w.value for w in app.warning)


DISCS = ("#111111", "#f5f5f5")


def test_a_forged_board_click_changes_nothing_and_raises_nothing():
    app = _app(size="6", white="alphabeta:depth=1")
    for target in ("zz", ["a", 1], [float("inf"), 0], [1, 2, 3], {"row": 1}, [99, 99]):
        click_board(app, "othello", target)
        assert not app.exception, target
        assert _session(app).moves == [], target


def test_a_click_while_the_ai_thinks_names_the_side_thinking():
    """Issue: a click while the AI thought said "It is the AI's turn: use Step or Autoplay,
    or make this side human" although the AI was thinking and moved anyway."""
    session = GameSession.new(othello.GAME, {"size": 8})
    handle_square(othello_view.ADAPTER, session, (2, 3), human_sides={1}, at_ply=0)
    assert session.moves == []
    assert session.message.startswith("Black is thinking…")
    assert "Step or Autoplay" not in session.message
    # two AI players and no Autoplay: nobody thinks until Step or Autoplay
    handle_square(othello_view.ADAPTER, session, (2, 3), human_sides=set(), at_ply=0)
    assert "Step or Autoplay" in session.message
    handle_square(
        othello_view.ADAPTER, session, (2, 3), human_sides=set(), at_ply=0, ai_plays_on=True
    )
    assert session.message.startswith("Black is thinking…")


def test_a_stale_click_message_keeps_the_turn_line():
    """Issue: a click landing as the AI's reply came said "The position changed…" in place
    of the turn line, until the next move."""
    app = _app(white="human")
    _session(app).message = STALE_MESSAGE
    app.run()
    (said,) = _values(_main_block(app, "othello_messages"))
    assert STALE_MESSAGE in said
    assert "**Black** to move (Human)" in said and "Black 2 – 2 White" in said


def test_a_replay_names_its_players_in_the_address_and_shows_no_toast():
    """Issue: a replay's toast covered Step and Autoplay and repeated the banner, and the
    address named the sidebar's default players, not the replay's."""
    from lib.games.arena import MatchConfig, run_tournament
    from lib.ui import arena_controls

    match = MatchConfig("othello", ("alphabeta:depth=1", "greedy"), games=2, options={"size": 6})
    record = run_tournament([match]).records[1]  # B moved first: the players swap sides
    app = AppTest.from_file(PAGE, default_timeout=60)
    entries = arena_controls.replay_state(record, match)
    for name, value in entries.items():
        app.session_state[name] = value
    app.run()
    assert not app.exception
    assert not app.toast
    black, white = match.players if record.a_first else match.players[::-1]
    for name, spec in (("black", black), ("white", white)):
        shown = app.query_params[name]
        shown = shown[0] if isinstance(shown, list) else shown
        assert parse_player_spec(shown).label() == parse_player_spec(spec).label(), name
    assert _session(app).replay.startswith("Replay of")


def test_the_exact_endgame_setting_says_how_long_a_solve_of_that_size_takes_here():
    app = _app(white="alphabeta:endgame=12,time=1")
    assert not app.exception
    captions = [c.value for c in app.caption if c.value.startswith("The exact solver at ")]
    assert captions and captions[0].startswith("The exact solver at 12 empty squares: ")
    assert "s here (median; worst" in captions[0]
    measured = game_controls.exact_solve_timing("othello", 12)
    assert captions[0] == f"The exact solver at {measured.text()}."


# 16 empty squares, Black to move
LATE_MOVES = (
    "e6,d6,c3,f4,d7,c5,g4,g3,c4,g5,b5,c7,f5,a5,a6,d8,a4,f7,f6,d3,h4,c2,e7,e3,g6,f8,b4,"
    "b3,e2,h5,b6,f3,h6,g7,c6,a7,d2,d1,c1,b1,c8,b2,h7,h8"
)


def test_a_move_the_exact_solver_chose_shows_no_made_up_counts():
    # Black (a person) to move; White's default AI solves the rest
    app = _app(tab=LAST_SEARCH_TAB, moves=LATE_MOVES)
    assert _session(app).state.plies_left_hint() == 16
    app = click_board(app, "othello", [6, 1])  # b7
    assert not app.exception
    index, decision = _session(app).last_decision()
    stats = decision.stats
    assert index == 45 and stats.by_solver
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Cut-offs"] == "—"  # the solver counts positions only, not cut-offs
    assert float(metrics["EBF"]) == round(stats.nodes ** (1 / stats.completed_depth), 2) > 1
    caption = next(c.value for c in app.caption if "principal variation" in c.value)
    assert "leaf evaluations" not in caption and "exact solver chose the move" in caption


def test_the_exact_endgame_setting_says_the_solver_is_tried_whatever_it_says():
    # at 0 ("off") White's alpha-beta still hands the position to the exact solver, and the
    # setting's help says so; minimax never calls the solver, and its help does not say it
    app = _app(moves=LATE_MOVES)
    slider = app.slider(key="othello_p1_w_endgame")
    assert slider.value == 0
    assert "exact solver is tried first at every move" in slider.help
    app = click_board(app, "othello", [6, 1])  # b7
    assert _session(app).last_decision()[1].stats.by_solver
    minimax = _app(white="minimax:depth=2")
    assert "solver" not in minimax.slider(key="othello_p1_w_endgame").help


def test_the_hint_gives_every_moves_exact_final_margin_once_the_solver_settles_it(monkeypatch):
    monkeypatch.setattr(othello_view, "MOVE_VERDICT_SECONDS", 60.0)  # a loaded machine
    othello_view._every_move_solved.cache_clear()
    app = _app(moves=LATE_MOVES)
    app.button(key="othello_w_hint").click().run()
    assert not app.exception
    state = _session(app).state
    proved = {}
    for block in app.markdown:
        for line in block.value.splitlines():
            if matched := re.fullmatch(r"- \*\*([a-h][1-8])\*\* (.+)", line):
                proved[matched[1]] = matched[2]
    assert sorted(proved) == sorted(othello.format_move(m) for m in state.legal_moves())
    for move in state.legal_moves():
        margin = -endgame.solve(state.play(move)).margin
        assert proved[othello.format_move(move)] == othello_view.margin_words(margin)
    othello_view._every_move_solved.cache_clear()


def test_ai_moves_leave_the_servers_process_once_the_move_workers_are_up(monkeypatch):
    from lib.games import session
    from lib.ui.jobs import move_pool

    app = _app(size="6", black="alphabeta:depth=2", white="alphabeta:depth=2", tab=RECORD_TAB)
    app.button(key="othello_w_step").click().run()  # the first move starts the workers
    assert len(_record(app)) == 1
    pool = move_pool()
    deadline = time.monotonic() + 120
    while pool.idle_workers() < pool.max_workers:
        assert time.monotonic() < deadline, "the move workers did not come up"
        time.sleep(0.1)

    def searched_here(*_args, **_kwargs):
        raise AssertionError("an AI move was searched in the server's process")

    monkeypatch.setattr(session, "run_lowered", searched_here)  # how a search runs here
    for plies in (2, 3):
        app.button(key="othello_w_step").click().run()
        assert not app.exception
        assert len(_record(app)) == plies
