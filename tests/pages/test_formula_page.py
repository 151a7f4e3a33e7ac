"""The game page's "Your formula…" heuristic under AppTest: the AI plays the typed formula,
a bad formula shows its named error while the text stays, and links carry the formula."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lib.games import tictactoe
from lib.games.formula import compile_formula
from lib.games.tictactoe import NOUGHT
from lib.ui.formula_panel import FORMULA_CHOICE
from tests.pages.game_app import RECORD_TAB, open_game_page, record, session

EDGES = {"b1", "a2", "c2", "b3"}


def _open(**params: str) -> AppTest:
    return open_game_page("tictactoe", tab=RECORD_TAB, buttons=True, **params)


def _formula_box(app: AppTest):
    return app.text_input(key="tictactoe_p1_w_formula")


def test_the_ai_plays_the_formula_typed_and_a_bad_one_is_named_and_kept():
    app = _open(o="alphabeta:depth=1")
    app.selectbox(key="tictactoe_p1_w_heuristic").set_value(FORMULA_CHOICE).run()
    assert not app.exception and not app.error
    assert _formula_box(app).value  # starts with a formula that compiles
    features = " ".join(m.value for m in app.markdown)
    assert "**corners**: Corners I hold minus corners they hold\\." in features
    _formula_box(app).input("-corners").run()  # an AI that shuns the corners
    assert app.query_params["o"] == "alphabeta:depth=1,time=1,formula=-corners"

    app.button(key="tictactoe_w_cell_1_1").click().run()  # X takes the centre
    assert not app.exception
    moves = record(app)
    assert moves[0] == "b2" and moves[1] in EDGES  # the built-in "lines" takes a corner
    formula = compile_formula(tictactoe.GAME, "-corners")
    after_b2 = tictactoe.initial_state().play(4)
    values = {m: formula.evaluate(after_b2.play(m), NOUGHT) for m in after_b2.legal_moves()}
    best = {tictactoe.format_move(m) for m, v in values.items() if v == max(values.values())}
    assert moves[1] in best and best == EDGES
    reply = tictactoe.parse_move(moves[1], after_b2)

    _formula_box(app).input("lines + cetre").run()
    assert not app.exception
    message = app.error[0].value
    assert "character 9" in message and "unknown name 'cetre'" in message
    assert "did you mean 'centre'" in message and "plays with the 'lines' heuristic" in message
    assert _formula_box(app).value == "lines + cetre"  # nothing lost
    assert "lines + cetre\n        ^" in [c.value for c in app.code]
    assert "formula" not in app.query_params["o"]  # the link keeps only what plays
    assert session(app, "tictactoe").state == after_b2.play(reply)


def test_a_link_opens_with_its_formula_in_the_box():
    app = _open(o="alphabeta:depth=2,formula=max%28twos%2C%202%2Acorners%29")
    assert not app.exception
    assert app.selectbox(key="tictactoe_p1_w_heuristic").value == FORMULA_CHOICE
    assert _formula_box(app).value == "max(twos, 2*corners)"
    assert (
        app.query_params["o"] == "alphabeta:depth=2,time=1,formula=max%28twos%2C%202%2Acorners%29"
    )


def test_another_game_offers_its_own_features():
    app = open_game_page("sim")
    app.selectbox(key="sim_p1_w_heuristic").set_value(FORMULA_CHOICE).run()
    assert not app.exception and not app.error
    assert "**doomed**" in " ".join(m.value for m in app.markdown)
    assert FORMULA_CHOICE in app.selectbox(key="sim_p1_w_heuristic").options
