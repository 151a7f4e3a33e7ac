"""The game page's "Your formula…" heuristic under AppTest: the AI plays the typed formula,
a bad formula shows its named error while the text stays, and links carry the formula."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lib.games import tictactoe
from lib.games.formula import compile_formula
from lib.games.search.players import parse_player_spec
from lib.games.tictactoe import NOUGHT
from lib.ui.arena_ladder import LADDER_KEY
from lib.ui.formula_panel import FORMULA_CHOICE
from tests.pages.game_app import RECORD_TAB, ROOT, open_game_page, record, session

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


def test_the_ladder_takes_one_formula_player_and_names_a_bad_one():
    app = AppTest.from_file(str(ROOT / "pages" / "arena.py"), default_timeout=180).run()
    app.selectbox(key="arena_w_ladder_game").set_value("tictactoe").run()
    players = app.multiselect(key="arena_w_ladder_players_tictactoe")
    players.set_value(players.options[:2])  # random and greedy
    app.number_input(key="arena_w_ladder_time").set_value(0.05)
    app.number_input(key="arena_w_ladder_games").set_value(2)
    box = app.text_input(key="arena_w_ladder_formula_tictactoe")
    box.input("max(twos, corners) - cetre")
    next(b for b in app.button if b.label == "Run ladder").click().run()
    assert not app.exception
    errors = " ".join(e.value for e in app.error)
    assert "character 22" in errors and "unknown name 'cetre'" in errors
    assert LADDER_KEY not in app.session_state
    assert app.text_input(key="arena_w_ladder_formula_tictactoe").value.endswith("cetre")

    app.text_input(key="arena_w_ladder_formula_tictactoe").input("max(twos, corners) - centre")
    next(b for b in app.button if b.label == "Run ladder").click().run()
    assert not app.exception
    run = app.session_state[LADDER_KEY]
    roster = run.config.roster()
    assert roster[:2] == ("random", "greedy") and len(roster) == 3
    assert parse_player_spec(roster[2]).formula == "max(twos, corners) - centre"
    assert run.status == "done" and len(run.records) == 6
    shown = next(f.value for f in app.dataframe if "rating" in f.value.columns)
    assert "Alpha-beta (max(twos, corners) - ce…)" in list(shown["player"])


def test_the_arena_spec_fields_take_a_formula_player():
    app = AppTest.from_file(str(ROOT / "pages" / "arena.py"), default_timeout=120).run()
    app.radio(key="arena_w_source").set_value("Free choice").run()
    app.selectbox(key="arena_w_game").set_value("tictactoe").run()
    app.text_area(key="arena_w_players").set_value(
        "alphabeta:depth=2,formula=max%28twos%2C%20corners%29\nalphabeta:depth=2,f=lines - cetre"
    )
    app.number_input(key="arena_w_free_games").set_value(2)
    next(b for b in app.button if b.label == "Run study").click().run()
    assert not app.exception
    errors = " ".join(e.value for e in app.error)
    assert "character 9" in errors and "unknown name 'cetre'" in errors
    app.text_area(key="arena_w_players").set_value(
        "alphabeta:depth=2,formula=max%28twos%2C%20corners%29"
    )
    next(b for b in app.button if b.label == "Run study").click().run()
    assert not app.exception
    run = app.session_state["arena_study"]
    assert parse_player_spec(run.matches[0].players[0]).formula == "max(twos, corners)"
    assert run.status == "done" and len(run.records) == 2


def test_a_formula_in_the_status_line_is_shown_as_typed_not_as_markdown():
    app = open_game_page(
        "tictactoe", x="alphabeta:depth=1,formula=1e6%2A1e6%2A1e6", o="alphabeta:depth=1"
    )
    assert not app.exception
    (status,) = [i.value for i in app.info if "to move" in i.value]
    assert "1e6\\*1e6\\*1e6" in status  # escaped: Markdown shows each asterisk
