"""The checkers page under AppTest: moves by clicking a piece then its destination (button
fallback), the AI's reply, forced-capture and multi-jump clicks, undo, hint; the click handler."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lib.games import checkers
from lib.games.checkers import view as checkers_view
from lib.games.checkers.plots import display_position
from lib.games.drawing.view import BoardView
from lib.ui.common import escape_markdown
from tests.pages.game_app import (
    LAST_SEARCH_TAB,
    RECORD_TAB,
    open_game_page,
    open_panels,
    record,
    session,
)


def _open(*, tab: str | None = RECORD_TAB, buttons: bool = True, **params: str) -> AppTest:
    # played through the button board, the game record in view (both drawn only when open)
    return open_game_page("checkers", tab=tab, buttons=buttons, **params)


def _click(app: AppTest, square: int) -> AppTest:
    row, col = display_position(square)
    return app.button(key=f"checkers_w_cell_{row}_{col}").click().run()


def test_first_load_states_the_rules_and_the_position():
    app = _open()
    assert not app.exception
    assert app.title[0].value == "Checkers"
    assert "Black 12 (0 kings) – White 12 (0 kings)" in app.info[0].value
    assert "(Human): click a piece, then where it goes" in app.info[0].value
    page_text = " ".join(m.value for m in app.markdown)
    assert "40 moves by each side" in page_text and "Captures are compulsory" in page_text
    assert session(app, "checkers").state == checkers.initial_state()
    labels = [b.label for b in app.button if b.key and b.key.startswith("checkers_w_cell_")]
    assert len(labels) == 64 and sum("⚫" in label for label in labels) == 12


def test_a_few_moves_piece_then_destination_and_the_ai_replies():
    app = _open(white="alphabeta:depth=2")
    _click(app, 11)
    assert not app.exception
    assert session(app, "checkers").pending == (11,)
    assert record(app) == []
    _click(app, 15)
    moves = record(app)
    assert moves[0] == "11-15" and len(moves) == 2  # the AI answered
    for _ in range(2):  # two more moves with whatever piece can move first
        state = session(app, "checkers").state
        move = state.legal_moves()[0]
        _click(app, move[0])
        _click(app, move[-1])
        assert not app.exception
        assert record(app)[-2] == checkers.format_move(move)
    moves = record(app)
    assert len(moves) == 6
    table = session(app, "checkers").record_table(checkers.GAME)
    assert list(table["move"]) == moves
    open_panels(app, "checkers", tab=LAST_SEARCH_TAB).run()
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Nodes"].replace(",", "")) > 0


def test_clicks_that_are_not_moves_get_a_reason():
    app = _open(white="greedy")
    _click(app, 1)  # a back-row man with no move
    assert any("cannot move" in w.value for w in app.warning)
    _click(app, 11)
    _click(app, 14)  # not a destination of 11
    assert any("can play 11-15, 11-16" in w.value for w in app.warning)
    assert session(app, "checkers").pending == (11,)
    _click(app, 11)  # clicking the selected piece again drops it
    assert session(app, "checkers").pending is None
    assert record(app) == []


def test_undo_and_hint():
    app = _open(white="alphabeta:depth=1")
    _click(app, 9)
    _click(app, 13)
    assert len(record(app)) == 2
    app.button(key="checkers_w_hint").click().run()
    game = session(app, "checkers")
    assert set(game.hint.stats.root_scores) == set(game.state.legal_moves())
    app.button(key="checkers_w_undo").click().run()
    assert not app.exception
    assert session(app, "checkers").state == checkers.initial_state()


def test_click_handler_forced_capture_and_multi_jump():
    # after 11-15 24-19 15x24 White must recapture
    state = checkers.initial_state().play((11, 15)).play((24, 19)).play((15, 24))
    outcome = checkers_view.move_for_click(state, display_position(22), None)
    assert outcome.move is None and "Captures are compulsory" in outcome.message
    assert checkers_view.move_for_click(state, display_position(28), None).pending == (28,)
    # a double jump clicked landing by landing, or straight to its final square
    jump = checkers.position(white=[22], black=[18, 11], to_move=checkers.WHITE)
    first = checkers_view.move_for_click(jump, display_position(22), None)
    second = checkers_view.move_for_click(jump, display_position(15), first.pending)
    assert second.pending == (22, 15) and "must go on" in second.message
    third = checkers_view.move_for_click(jump, display_position(8), second.pending)
    assert third.move == (22, 15, 8)
    direct = checkers_view.move_for_click(jump, display_position(8), (22,))
    assert direct.move == (22, 15, 8)
    light = checkers_view.move_for_click(jump, (0, 0), (22,))
    assert "dark squares" in light.message and light.pending == (22,)


def test_board_figure_follows_the_pending_selection():
    state = checkers.initial_state()
    view = BoardView(pending=(11,))
    fig = checkers_view.figure(state, view)
    assert fig.data[-1].name == "squares"
    assert checkers_view.cell_label(state, *display_position(1)) == "1 ⚫"
    assert checkers_view.cell_label(state, 0, 0) == " "


def test_button_labels_tell_men_from_kings_and_sides_apart():
    men = checkers.CheckersState(black=checkers.mask_of([5]), white=checkers.mask_of([28]), kings=0)
    kings = men._replace(kings=men.black | men.white)
    labels = {
        (side, king): checkers_view.cell_label(state, *display_position(square))
        for side, square in (("black", 5), ("white", 28))
        for king, state in ((False, men), (True, kings))
    }
    assert len(set(labels.values())) == 4  # all four pieces look different
    assert labels["black", True].endswith("K") and labels["white", True].endswith("K")
    assert not labels["black", False].endswith("K") and not labels["white", False].endswith("K")
    # the side is told by the disc colour, the same glyph for man and king
    assert labels["black", False].split()[1] == labels["black", True].split()[1] == "⚫"
    assert labels["white", False].split()[1] == labels["white", True].split()[1] == "⚪"


def test_url_weights_that_do_not_fit_are_reported_on_the_page_and_depth_keeps_its_default():
    app = _open(white="alphabeta:weights=1/2/3")
    assert not app.exception
    main = " ".join(w.value for w in app.main.warning)
    assert "'strong' takes 5 weights" in main and "not 3" in main  # not only in the sidebar
    # the page's default AI's depth: no cap (0), not the library's 4
    assert app.slider(key="checkers_p1_w_depth").value == 0
    strong = checkers.GAME.heuristics["strong"]
    used = [
        app.number_input(key=f"checkers_p1_w_weight_strong_{n}").value for n in strong.weight_names
    ]
    assert used == list(strong.default_weights)

    fitting = _open(white="alphabeta:heuristic=course,weights=3/2")
    assert not fitting.main.warning
    assert fitting.number_input(key="checkers_p1_w_weight_course_pieces").value == 3.0
    assert fitting.number_input(key="checkers_p1_w_weight_course_mobility").value == 2.0

    broken = _open(white="alphabeta:depth=deep")
    assert "The link's white=" in broken.main.warning[0].value


def test_a_url_setting_is_quoted_as_text_in_the_warning():
    evil = "![x](http://attacker.example/i.png)"
    app = _open(white=evil)
    assert not app.exception
    warnings = [w.value for w in app.main.warning]
    assert any("The link's white=" in w for w in warnings)
    assert any(escape_markdown(evil) in w for w in warnings)
    assert not any("](" in w for w in warnings)
