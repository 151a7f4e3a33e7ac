"""Work in a thread of lower CPU priority: its niceness, its progress in the caller's thread."""

from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np
import pytest

from lib.games.core import get_game
from lib.games.search.players import PlayerConfig
from lib.games.session import decide
from lib.jobs import WORKER_NICENESS
from lib.priority import Abandoned, run_lowered

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice")


def own_niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@linux
@pytest.mark.parametrize("step", [None, 4])
def test_the_work_runs_lower_than_the_caller_and_the_caller_keeps_its_priority(step):
    mine = own_niceness()
    seen = run_lowered(lambda report: own_niceness(), niceness=step)
    assert seen == min(19, mine + (WORKER_NICENESS if step is None else step))
    assert own_niceness() == mine  # only the work's own thread was lowered


def test_progress_reaches_the_caller_in_its_own_thread_and_the_result_comes_back():
    caller = threading.get_ident()
    heard: list[tuple[int, int]] = []

    def work(report):
        for i in range(5):
            report(i)
            time.sleep(0.03)
        return threading.get_ident()

    worker = run_lowered(work, lambda i: heard.append((i, threading.get_ident())), poll=0.01)
    assert worker != caller
    assert heard and {thread for _, thread in heard} == {caller}
    values = [i for i, _ in heard]
    assert values == sorted(values) and set(values) <= set(range(5))


def test_an_error_of_the_work_is_raised_in_the_caller():
    def work(report):
        raise ValueError("no legal move")

    with pytest.raises(ValueError, match="no legal move"):
        run_lowered(work)


def test_a_progress_callback_that_raises_abandons_the_work_at_its_next_report():
    stopped = threading.Event()

    def work(report):
        try:
            while True:
                report(1)
                time.sleep(0.01)
        except Abandoned:
            stopped.set()
            raise

    def give_up(_):
        raise KeyboardInterrupt  # what Streamlit's stop of a stale run looks like here

    with pytest.raises(KeyboardInterrupt):
        run_lowered(work, give_up, poll=0.01)
    assert stopped.wait(2.0)


@linux
def test_an_ai_move_is_searched_below_the_pages_priority(monkeypatch):
    import lib.games.session as session

    class Probe:  # a player that answers with the niceness of the thread it is asked in
        def choose(self, state, rng):
            return own_niceness()

    monkeypatch.setattr(session, "make_player", lambda config, game: Probe())
    game = get_game("tictactoe")
    mine = own_niceness()
    seen = decide(game.initial_state(), PlayerConfig(kind="random"), game, None, default_time=1)
    assert seen == min(19, mine + WORKER_NICENESS)
    assert own_niceness() == mine


def test_an_ai_search_reports_its_progress_in_the_pages_thread():
    game = get_game("othello")
    heard: list[int] = []

    def progress(stats) -> None:
        heard.append(threading.get_ident())

    state = game.initial_state(size=8)
    config = PlayerConfig(kind="alphabeta", time_limit=1.0)  # deepens for 1 s, reporting
    decision = decide(
        state, config, game, np.random.default_rng(0), default_time=5.0, on_progress=progress
    )
    assert decision.move in state.legal_moves()
    assert heard and set(heard) == {threading.get_ident()}
