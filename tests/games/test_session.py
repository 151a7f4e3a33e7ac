"""The game session: the one place a game's history changes, guarded by the ply it was asked for."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.core import available_games, get_game
from lib.games.search.players import PlayerConfig
from lib.games.session import GameSession, decide

GAMES = list(available_games())


@pytest.mark.parametrize("name", GAMES)
def test_a_move_asked_for_an_earlier_position_is_dropped(name):
    game = get_game(name)
    session = GameSession.new(game, {}, seed=1)
    first = session.state.legal_moves()[0]
    assert session.play(first, at_ply=0)
    before = list(session.moves)
    reply = session.state.legal_moves()[0]
    assert not session.play(reply, at_ply=0)  # clicked on the board before the first move
    assert session.moves == before
    assert session.play(reply, at_ply=1)
    assert session.ply == 2


def test_an_undo_pressed_on_another_position_takes_nothing_back():
    game = get_game("othello")
    session = GameSession.new(game, {"size": 6})
    session.play(session.state.legal_moves()[0], at_ply=0)
    session.play(session.state.legal_moves()[0], at_ply=1)
    assert session.undo({0}, at_ply=1) == 0
    assert session.ply == 2
    assert session.undo({0}, at_ply=2) == 2  # back to a position where Black (0) moves
    assert session.ply == 0


def test_a_stale_ai_reply_is_not_played_for_the_human():
    # the AI searched the position after 1 move; meanwhile the human undid it
    game = get_game("othello")
    session = GameSession.new(game, {"size": 6})
    session.play(session.state.legal_moves()[0], at_ply=0)
    searched_on, ply = session.state, session.ply
    decision = decide(
        searched_on,
        PlayerConfig(depth=2),
        game,
        np.random.default_rng(0),
        default_time=1.0,
    )
    session.undo({0}, at_ply=ply)
    assert not session.play(decision.move, decision, "AI", at_ply=ply)
    assert session.moves == [] and session.players == []


def test_an_illegal_move_raises_and_changes_nothing():
    session = GameSession.new(get_game("checkers"), {})
    with pytest.raises(InputError):
        session.play((99, 98))
    assert session.ply == 0


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), plies=st.integers(0, 12))
def test_record_table_has_one_row_per_move_naming_side_and_move(name, seed, plies):
    game = get_game(name)
    session = GameSession.new(game, {option: values[-1] for option, values in game.options.items()})
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        moves = session.state.legal_moves()
        if not moves:
            break
        session.play(moves[rng.integers(len(moves))], at_ply=session.ply)
    table = session.record_table(game)
    assert len(table) == session.ply
    assert list(table["move"]) == [game.format_move(m) for m in session.moves]
    for row, before in zip(table.itertuples(), session.states, strict=False):
        assert row.side == game.player_names[before.to_move]


def test_decide_records_the_tree_only_up_to_the_games_tree_depth():
    game = get_game("othello")
    state = game.initial_state(6)
    rng = np.random.default_rng(0)
    shallow = decide(
        state, PlayerConfig(depth=game.tree_depth), game, rng, default_time=5.0, record_tree=True
    )
    assert shallow.stats.tree
    deep = decide(
        state,
        PlayerConfig(depth=game.tree_depth + 1),
        game,
        rng,
        default_time=5.0,
        record_tree=True,
    )
    assert deep.stats.tree is None


def test_decide_uses_the_games_solver_kind_through_its_player():
    game = get_game("sim")
    state = game.initial_state(first="red")
    decision = decide(
        state, PlayerConfig(kind=game.solver_kind), game, np.random.default_rng(0), default_time=1.0
    )
    assert decision.move in state.legal_moves()


def test_a_reply_searched_in_a_page_run_that_is_no_longer_the_latest_is_recognised():
    session = GameSession.new(get_game("othello"), {"size": 6})
    searching = session.start_run()  # the run that starts the AI's search
    assert session.is_latest(searching)
    session.start_run()  # the visitor switched Autoplay off: a new run started meanwhile
    assert not session.is_latest(searching)


def test_a_reply_is_played_only_by_the_latest_run_on_the_position_it_was_searched_on():
    session = GameSession.new(get_game("othello"), {"size": 6})
    searching = session.start_run()
    move = session.state.legal_moves()[0]
    session.start_run()  # Autoplay switched off while it searched: the reply is dropped
    assert not session.play_reply(move, None, "AI", at_ply=0, run=searching)
    assert session.ply == 0
    latest = session.start_run()
    assert session.play(move, at_ply=0)  # a person's move came first
    reply = session.state.legal_moves()[0]
    assert not session.play_reply(reply, None, "AI", at_ply=0, run=latest)  # for ply 0: gone
    assert session.play_reply(reply, None, "AI", at_ply=1, run=latest)
    assert session.players == ["human", "AI"] and session.ply == 2


def test_replies_racing_a_new_run_from_other_threads_are_played_at_most_once_per_position():
    # Streamlit runs a replaced page run on in its own thread: whatever the interleaving, a
    # reply is played only while its run is the latest, and never twice on one position
    import threading

    session = GameSession.new(get_game("othello"), {"size": 6})
    searching = session.start_run()
    move = session.state.legal_moves()[0]
    barrier = threading.Barrier(9)
    played: list[bool] = []

    def reply() -> None:
        barrier.wait()
        played.append(session.play_reply(move, None, "AI", at_ply=0, run=searching))

    def new_run() -> None:
        barrier.wait()
        session.start_run()

    threads = [threading.Thread(target=reply) for _ in range(8)] + [
        threading.Thread(target=new_run)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert played.count(True) == session.ply <= 1
    assert session.states[-1] == (
        session.states[0].play(move) if session.ply else session.states[0]
    )


@pytest.mark.parametrize("name", GAMES)
def test_forward_plays_again_the_moves_taken_back_until_another_move_is_played(name):
    game = get_game(name)
    session = GameSession.new(game, {}, seed=3)
    rng = np.random.default_rng(3)
    for who in ("a", "b", "a", "b"):
        legal = session.state.legal_moves()
        session.play(legal[int(rng.integers(len(legal)))], None, who)
    moves, states, players = list(session.moves), list(session.states), list(session.players)
    assert session.go_to(1) and session.ply == 1 and session.total_plies == 4
    assert session.states == states[:2]
    assert not session.forward(at_ply=0)  # pressed on another position
    assert session.forward(at_ply=1) and session.moves == moves[:2]
    assert session.go_to(99) and session.moves == moves and session.players == players
    assert session.states == states and not session.future and not session.forward()
    session.undo({0, 1})
    session.undo({0, 1})
    session.play(moves[2], None, "a")  # the same move as before: the later one stays
    assert session.total_plies == 4
    other = [m for m in session.state.legal_moves() if m != moves[3]]
    if other:
        session.play(other[0])  # a different move: the game goes another way
        assert not session.future and session.total_plies == 4


def test_go_to_asked_for_another_position_changes_nothing():
    game = get_game("tictactoe")
    session = GameSession.new(game, {})
    for text in ("b2", "a1", "c3"):
        session.play(game.parse_move(text, session.state))
    assert not session.go_to(0, at_ply=2)
    assert session.ply == 3
    assert session.go_to(-5, at_ply=3) and session.ply == 0 and session.total_plies == 3
