"""A class contest in real browsers, as a class would run it on a fresh hosted server: the
instructor opens it with the key, eight students join and submit from their own sessions,
the contest plays itself, the projector's leaderboard fills; a poll from the route page and
one from the step-through each fill with the class's answers and are revealed (a poll
appears by itself on a student's open page)."""

from __future__ import annotations

import re
import time

import pandas as pd
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from lib.contest import contests as C
from lib.contest import polls
from lib.contest.schedule import game_counts
from lib.contest.store import Store
from lib.games import core
from lib.games.search.predict import minimax_choice, root_move_values
from lib.routes import graphs, quiz, search
from lib.ui.step_panel import DEFAULT_DEPTH
from tests.e2e.conftest import choose_option, fresh_page, open_page, wait_idle, wait_rendered
from tests.e2e.test_routes_quiz import _click_node

KEY = "sesame-class-key"
STUDENTS = ("Ada", "Alan", "<b>Grace</b>", "Edsger", "Barbara", "Donald", "Frances", "Judea")
FORMULAS = (
    "lines",
    "lines + 2*centre",
    "corners - twos",
    "centre",
    "2*lines + corners",
    "twos - ones",
    "lines + centre",
    "corners",
)
POLL_CHART = """() => {
    const gd = Array.from(document.querySelectorAll('.st-key-ct_w_poll .js-plotly-plot'))
        .find((el) => !el.closest('[data-stale="true"]'));
    return gd && gd.data && gd.data.length ? {x: gd.data[0].x, y: gd.data[0].y} : null;
}"""
"""The projector's poll chart: each choice and its count, or null while it is drawn."""


@pytest.fixture
def contest_server(tmp_path):
    """An app server of its own, hosted (not a local install) with an instructor's key, on
    a fresh SQLite contest database."""
    url = f"sqlite:///{tmp_path / 'contest.sqlite3'}"
    env = {
        "AI_SEARCH_LAB_DATABASE_URL": url,
        "AI_SEARCH_LAB_LOCAL": "0",
        C.INSTRUCTOR_KEY_ENV: KEY,
    }
    from bench import app_server
    from tests.e2e.conftest import ROOT

    with app_server.running_app(ROOT, None, env) as (app_url, _process):
        yield app_url, Store(url)


def _type(page, selector: str, text: str) -> None:
    """Type ``text`` in the text input under ``selector`` and let the page take it."""
    wait_rendered(page, f"{selector} input")
    page.locator(f'{selector}:not([data-stale="true"]) input').first.fill(text)
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    wait_idle(page)


def _choose(page, select_key: str, option_name: str) -> None:
    """Pick ``option_name`` in a select box (reopened if a rerun swallowed the click)."""
    option = page.get_by_role("option", name=option_name, exact=True)
    choose_option(page, f".st-key-{select_key} input", option)
    wait_idle(page)


def _open_contest(page) -> str:
    """The instructor, as a new user: the key, tic-tac-toe, two games per new entry."""
    open_page(page, "contest?view=instructor")
    _type(page, ".st-key-ct_instructor_key", KEY)
    page.get_by_text("Open a new contest").wait_for(timeout=60_000)
    _choose(page, "ct_w_game", core.get_game("tictactoe").title)
    page.locator(".st-key-ct_w_games input[type=range]").focus()
    page.keyboard.press("Home")  # the fewest games per entry: 2
    page.get_by_role("button", name="Open contest").click()
    opened = page.get_by_text(re.compile(r"^Contest open: join code [A-Z0-9]{6}$"))
    opened.wait_for(timeout=60_000)
    return opened.inner_text().rsplit(" ", 1)[1]


def _ask_the_class(page, prefix: str, code: str) -> None:
    """Open the page's question as a poll of contest ``code`` (the key typed there too)."""
    page.get_by_text("Ask the class: open this question as a poll").first.click()
    _type(page, f".st-key-{prefix}_poll_code", code)
    _type(page, ".st-key-ct_instructor_key", KEY)
    page.locator(f".st-key-{prefix}_poll_open button").click()
    page.get_by_text(re.compile(r"^Poll \d+ is open")).wait_for(timeout=60_000)


def _answer(page, choice: str) -> None:
    """Answer the live poll on a student's contest page."""
    poll = page.locator('[class*="st-key-ct_w_poll_"]:not([data-stale="true"])').first
    poll.get_by_text(choice, exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Send my answer").click()
    page.get_by_text(f"Answer sent: {choice}.").wait_for(timeout=60_000)


def _reveal(browser, app_url: str) -> None:
    """The instructor reveals the live poll's answer (a new session: the key again)."""
    with fresh_page(browser, app_url) as page:
        open_page(page, "contest?view=instructor")
        _type(page, ".st-key-ct_instructor_key", KEY)
        page.get_by_role("button", name="Reveal the answer").click()
        page.get_by_text(re.compile(r"^Live poll: .*\(revealed\)$")).wait_for(timeout=60_000)


def _projector_shows(projector, poll: polls.Poll, counts: dict[str, int]) -> None:
    """The projector's poll: the question, ``counts`` filled in as a chart, then the
    answer and its explanation after the reveal (its fragment redraws every 5 s)."""
    projector.get_by_text(poll.question, exact=True).wait_for(timeout=60_000)
    projector.get_by_text(f"{sum(counts.values())} answers", exact=True).wait_for(timeout=60_000)
    chart = projector.wait_for_function(POLL_CHART, timeout=60_000).json_value()
    assert dict(zip(chart["x"], chart["y"], strict=True)) == counts


def test_a_class_runs_a_contest_and_two_polls(browser, contest_server) -> None:
    app_url, store = contest_server
    with fresh_page(browser, app_url) as instructor, fresh_page(browser, app_url) as projector:
        code = _open_contest(instructor)
        (contest,) = C.list_contests(store)
        assert (contest.code, contest.game, contest.games_per_entry) == (code, "tictactoe", 2)
        open_page(projector, f"contest?view=projector&code={code}")
        projector.get_by_text("0 games played, 0 to play.").wait_for(timeout=60_000)

        # a poll from the route page: A* from Arad, question 2 (question 1 has one answer)
        open_page(instructor, "routes")
        instructor.locator(".st-key-rt_w_quiz_open summary").first.click()
        instructor.get_by_text("Question 1 of 6").wait_for(timeout=60_000)
        wait_idle(instructor)
        for _ in range(3):  # a click that lands while the page redraws is lost: once more
            _click_node(instructor, ".st-key-rt_w_quiz_tree_0_0", "Arad")
            try:
                instructor.get_by_text("Question 2 of 6").wait_for(timeout=20_000)
                break
            except PlaywrightTimeout:
                wait_idle(instructor)
        instructor.get_by_text("Question 2 of 6").wait_for(timeout=60_000)
        wait_idle(instructor)
        _ask_the_class(instructor, "rt_w_quiz", code)
        route_poll = polls.live_poll(store, code)
        G = graphs.romania()
        traced = search.run(
            "A*", G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True
        )
        asked = quiz.questions("A*", traced.trace)[1]
        assert route_poll.kind == "route_next"
        assert route_poll.answer == asked.choice(asked.answer).label == "Sibiu"

        # the class: each student joins, submits a formula and answers the poll
        links, picked = [], {choice: 0 for choice in route_poll.choices}
        started = time.monotonic()
        for number, (name, formula) in enumerate(zip(STUDENTS, FORMULAS, strict=True)):
            with fresh_page(browser, app_url) as page:
                open_page(page, f"contest?code={code}")
                page.locator(".st-key-ct_w_name input").fill(name)
                page.get_by_role("button", name="Join").click()
                page.get_by_text("Keep this link").wait_for(timeout=60_000)
                wait_idle(page)
                assert "entry=" in page.url  # the link to keep carries the token
                links.append(page.url)
                page.locator(".st-key-ct_w_formula textarea").fill(formula)
                page.get_by_role("button", name="Submit entry").click()
                page.get_by_text("Version 1 submitted").wait_for(timeout=60_000)
                page.get_by_text(f"Playing as: {name}", exact=True).wait_for()  # text, not HTML
                wait_idle(page)
                choice = route_poll.choices[number % len(route_poll.choices)]
                _answer(page, choice)
                picked[choice] += 1
        joined = time.monotonic() - started

        # the projector: the class's answers, then the leaderboard full
        _projector_shows(projector, route_poll, picked)
        _reveal(browser, app_url)
        projector.get_by_text("Answer: Sibiu").wait_for(timeout=60_000)
        projector.get_by_text(route_poll.explanation, exact=True).wait_for()
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            counts = game_counts(store, contest.id)
            if counts.get("done") and not counts.get("pending") and not counts.get("claimed"):
                break
            projector.wait_for_timeout(1000)
        filled = time.monotonic() - started
        done = game_counts(store, contest.id).get("done", 0)
        projector.get_by_text(f"{done} games played, 0 to play.").wait_for(timeout=30_000)
        with projector.expect_download() as download:  # the board's table, as the CSV has it
            projector.get_by_role("button", name="Leaderboard CSV").click()
        table = pd.read_csv(download.value.path())
        assert sorted(table["name"]) == sorted(STUDENTS)
        assert table["games"].sum() == 2 * done and (table["games"] >= 1).all()
        print(f"8 students joined in {joined:.0f} s; the board was full after {filled:.0f} s")

        # a poll from the step-through: which move minimax chooses on the empty board; half
        # the class answers (through the kept links), one of them waiting on the page
        answering = links[::2]
        with fresh_page(browser, app_url) as waiting:
            open_page(waiting, answering[0].removeprefix(app_url + "/"))
            open_page(instructor, "tictactoe")
            instructor.get_by_role("tab", name="Step through").click()
            wait_rendered(instructor, ".st-key-tictactoe_step_predict")
            wait_idle(instructor)
            _ask_the_class(instructor, "tictactoe_step", code)
            move_poll = polls.live_poll(store, code)
            game = core.get_game("tictactoe")
            evaluate = game.heuristics[game.default_heuristic].bind()
            values = root_move_values(game.initial_state(), DEFAULT_DEPTH, evaluate)
            assert move_poll.kind == "root_move" and move_poll.id != route_poll.id
            assert move_poll.answer == game.format_move(minimax_choice(values))
            picked = {choice: 0 for choice in move_poll.choices}
            waiting.get_by_text(move_poll.question, exact=True).wait_for(timeout=60_000)  # itself
            _answer(waiting, move_poll.answer)
            picked[move_poll.answer] += 1
        for number, link in enumerate(answering[1:]):
            with fresh_page(browser, app_url) as page:
                open_page(page, link.removeprefix(app_url + "/"))
                choice = (move_poll.choices[number], move_poll.answer)[number % 2]
                _answer(page, choice)
                picked[choice] += 1
        _projector_shows(projector, move_poll, picked)
        _reveal(browser, app_url)
        projector.get_by_text(f"Answer: {move_poll.answer}").wait_for(timeout=60_000)
        projector.get_by_text(move_poll.explanation, exact=True).wait_for()
