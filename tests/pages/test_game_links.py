"""A game page's link (AppTest): the moves restore the board, a bad move is named with its ply,
``ply=`` and Forward step through a kept game, the step-through's settings and step come back."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lib.games.arena import MatchConfig, run_tournament
from lib.games.core import get_game
from lib.games.search.stepthrough import textbook_positions
from lib.games.search.tracers import MAX_STEP_DEPTH
from lib.games.session import GameSession
from lib.links import read_moves
from lib.ui import arena_controls as arena_ui
from lib.ui.game_link import LINK_PLAYER, SHARED_REPLAY
from lib.ui.step_lab import DEFAULT_TREE_TEXT
from lib.ui.step_panel import OWN_TREE
from tests.pages.game_app import RECORD_TAB, ROOT, STEP_TAB, open_game_page, record, session

OTHELLO = get_game("othello")
OPENING = "f5,d6,c3,d3,c4"


def _param(app: AppTest, name: str) -> str | None:
    if name not in app.query_params:
        return None
    value = app.query_params[name]
    return value[0] if isinstance(value, list) else value


def _played(text: str) -> list:
    moves, note = read_moves(text, OTHELLO.initial_state(), OTHELLO.parse_move)
    assert note is None
    return moves


def test_a_link_with_moves_restores_the_board_and_the_link_keeps_them():
    app = open_game_page("othello", tab=RECORD_TAB, black="human", white="human", moves=OPENING)
    assert not app.exception and not app.warning
    game = session(app, "othello")
    assert game.moves == _played(OPENING)
    state = OTHELLO.initial_state()
    for move in game.moves:
        state = state.play(move)
    assert game.state == state
    assert record(app) == OPENING.split(",")
    assert set(game.players) == {LINK_PLAYER} and game.replay is None
    assert _param(app, "moves") == OPENING and _param(app, "seed") == str(game.seed)
    assert _param(app, "ply") is None  # the last move is shown
    # a move played on the board goes into the link
    game.play(game.state.legal_moves()[0])
    app.run()
    assert _param(app, "moves") == OPENING + "," + OTHELLO.format_move(game.moves[-1])


def test_a_bad_move_is_named_with_its_ply_and_the_moves_before_it_are_kept():
    app = open_game_page("othello", black="human", white="human", moves="f5,d6,zz9,c3")
    warnings = [w.value for w in app.warning]
    assert len(warnings) == 1
    assert warnings[0].startswith("The link's moves= has move 3 “zz9” that cannot be played (")
    assert warnings[0].endswith("keeping the 2 move(s) before it and leaving out the 1 after it.")
    assert session(app, "othello").moves == _played("f5,d6")
    assert _param(app, "moves") == "f5,d6"
    # an illegal (readable) move is named the same way
    app = open_game_page("othello", black="human", white="human", moves="f5,f5")
    assert "move 2 “f5” that cannot be played (f5 is not legal here; legal moves\\: " in (
        app.warning[0].value
    )


def test_a_shared_replay_is_shown_at_its_ply_and_steps_forward_and_back():
    app = open_game_page(
        "othello", black="human", white="alphabeta:depth=2", moves=OPENING, ply="2", replay="yes"
    )
    assert not app.exception and not app.warning
    game = session(app, "othello")
    assert game.replay == SHARED_REPLAY
    assert (game.ply, game.total_plies) == (2, 5)  # no AI moves on in a replay
    assert _param(app, "ply") == "2" and _param(app, "replay") == "yes"
    assert _param(app, "moves") == OPENING  # the whole game stays in the link
    assert app.slider(key="othello_w_ply").value == 2
    app.button(key="othello_w_forward").click().run()
    assert session(app, "othello").ply == 3 and _param(app, "ply") == "3"
    app.slider(key="othello_w_ply").set_value(0).run()
    assert session(app, "othello").ply == 0 and _param(app, "ply") == "0"
    app.slider(key="othello_w_ply").set_value(5).run()
    assert session(app, "othello").moves == _played(OPENING)
    assert _param(app, "ply") is None and app.button(key="othello_w_forward").disabled
    app.button(key="othello_w_undo").click().run()
    game = session(app, "othello")
    assert game.ply == 4 and not app.button(key="othello_w_forward").disabled
    other = next(m for m in game.state.legal_moves() if m != _played(OPENING)[4])
    game.play(other, None, "human")  # a different move: the kept one is dropped
    app.run()
    assert session(app, "othello").total_plies == 5 and _param(app, "ply") is None
    assert _param(app, "moves") == "f5,d6,c3,d3," + OTHELLO.format_move(other)


def test_forward_and_the_slider_step_through_a_game_against_the_ai_without_it_replying():
    # the AI used to reply on the position taken back, dropping the rest of the game
    moves = "a1,b2,c3,b1,b3,a3"
    app = open_game_page("tictactoe", x="human", o="alphabeta:depth=2", moves=moves)
    assert not app.exception
    app.button(key="tictactoe_w_undo").click().run()
    app.button(key="tictactoe_w_undo").click().run()
    game = session(app, "tictactoe")
    assert (game.ply, game.total_plies) == (2, 6)
    app.button(key="tictactoe_w_forward").click().run()  # c3 again: O to move, the AI waits
    game = session(app, "tictactoe")
    assert (game.ply, game.total_plies) == (3, 6) and _param(app, "moves") == moves
    assert "**Forward** replays the game, **Step** lets the AI choose here" in app.info[0].value
    app.slider(key="tictactoe_w_ply").set_value(5).run()  # O to move again: still waits
    assert (session(app, "tictactoe").ply, session(app, "tictactoe").total_plies) == (5, 6)
    assert _param(app, "ply") == "5" and _param(app, "moves") == moves
    app.slider(key="tictactoe_w_ply").set_value(3).run()
    app.button(key="tictactoe_w_step").click().run()  # Step: the AI chooses here after all
    game = session(app, "tictactoe")
    assert game.ply == 4 and game.players[-1] != LINK_PLAYER


def test_a_bad_ply_and_seed_are_named_and_a_seed_restores_a_coin_toss():
    app = open_game_page("othello", black="human", white="human", moves="f5,d6", ply="9")
    assert [w.value for w in app.warning] == [
        "The link's ply=9 is outside this page's range 0–2; using 2."
    ]
    app = open_game_page("sim", first="random", red="human", blue="human", seed="77")
    sim = get_game("sim")
    assert session(app, "sim").seed == 77
    assert session(app, "sim").states[0] == sim.initial_state(first="random", seed=77)
    app = open_game_page("sim", red="human", blue="human", seed="-1")
    assert "The link's seed=\\-1 is outside this page's range" in app.warning[0].value


def test_an_arena_replay_on_the_page_writes_its_moves_and_replay_flag():
    app = AppTest.from_file(str(ROOT / "pages" / "othello.py"))
    game = GameSession.new(OTHELLO, {"size": 8}, seed=5)
    for move in _played(OPENING):
        game.play(move, None, "random")
    game.replay = "Replay of a match, game 0"
    app.session_state["othello_session"] = game
    app.session_state["othello_w_opt_size"] = 8
    app.run()
    assert not app.exception
    assert _param(app, "moves") == OPENING and _param(app, "replay") == "yes"
    assert _param(app, "seed") == "5"


def test_the_step_through_link_restores_the_position_the_settings_and_the_step():
    app = open_game_page(
        "tictactoe",
        x="human",
        o="human",
        moves="b2,a1",
        step_pos="The position on the board",
        step_algo="minimax",
        step_depth="2",
        step_order="yes",
        step="5",
    )
    assert not app.exception and not app.warning
    assert app.session_state["tictactoe_w_tabs"] == STEP_TAB
    assert app.selectbox(key="tictactoe_step_w_position").value == "The position on the board"
    assert app.selectbox(key="tictactoe_step_w_algorithm").value == "minimax"
    assert app.number_input(key="tictactoe_step_w_depth").value == 2
    assert app.toggle(key="tictactoe_step_w_ordering").value is True
    assert app.slider(key="tictactoe_step_w_step").value == 5
    assert any(m.value.startswith("**Step 5 of ") for m in app.markdown)
    assert _param(app, "step") == "5" and _param(app, "step_algo") == "minimax"
    app.button(key="tictactoe_step_w_next").click().run()
    assert _param(app, "step") == "6"


def test_bad_step_through_values_are_named_and_a_step_past_the_end_shows_the_last():
    figure = textbook_positions()[-1].label
    app = open_game_page(
        "tictactoe", step_pos=figure, step_algo="quantum", step_depth="0", step="99999"
    )
    warnings = [w.value for w in app.warning]
    assert (
        "The link's step_algo=quantum is not one of minimax, alphabeta, expectimax; "
        in (warnings[0])
    )
    assert warnings[1] == (
        f"The link's step_depth=0 is outside this page's range 1–{MAX_STEP_DEPTH}; using 1."
    )
    last = [w for w in warnings if w.startswith("The link's step=99,999 is past")]
    assert len(last) == 1
    assert app.selectbox(key="tictactoe_step_w_position").value == figure
    steps = int(last[0].rsplit("showing step ", 1)[1].rstrip(".").replace(",", ""))
    assert app.slider(key="tictactoe_step_w_step").value == steps
    assert any(m.value.startswith(f"**Step {steps} of {steps}**") for m in app.markdown)


def test_a_typed_tree_in_the_link_is_read_and_a_bad_one_is_named():
    app = open_game_page("tictactoe", tree="[[3, 12], [2")
    assert "The link's tree= cannot be used: Tree, at character" in app.warning[0].value
    assert app.session_state["tictactoe_step_w_tree"] == DEFAULT_TREE_TEXT  # the bad one is not
    text = "[[3, 12, 8], [2, 4, 6]]"
    app = open_game_page("tictactoe", tree=text)
    assert app.session_state["tictactoe_step_w_tree"] == text
    offered = app.selectbox(key="tictactoe_step_w_position").options
    if OWN_TREE in offered:  # the panel offers a typed tree: the link chose it
        assert app.selectbox(key="tictactoe_step_w_position").value == OWN_TREE
        assert _param(app, "tree") == text
    else:  # said, not silently dropped
        assert [w.value for w in app.warning] == [
            f"The link's tree= cannot be shown: this page has no {OWN_TREE}."
        ]


def test_an_arena_replay_after_a_coin_toss_comes_back_from_its_link_move_for_move():
    match = MatchConfig("sim", ("random", "greedy"), games=4, seed=3, options={"first": "random"})
    sim = get_game("sim")
    tossed = 0  # replays whose own seed would toss the other way: the link finds another
    for game in run_tournament([match]).records:
        replay = arena_ui.replay_session(game, match)
        tossed += GameSession.new(sim, replay.options, replay.seed).states[0] != replay.states[0]
        app = AppTest.from_file(str(ROOT / "pages" / "sim.py"), default_timeout=60)
        app.session_state["sim_session"] = replay
        app.session_state["sim_w_opt_first"] = "random"
        app.run()
        link = {name: _param(app, name) for name in app.query_params}
        assert link["replay"] == "yes" and link["first"] == "random"
        shared = open_game_page("sim", **link)
        assert not shared.warning
        assert session(shared, "sim").states == replay.states  # who started, and every move
    assert tossed > 0
