"""A game's record cannot be corrupted by what a person does while the AI thinks.

Streamlit starts a new run of the page (an Undo, Autoplay switched off, a click on the
board) while the previous run is still searching. These tests do exactly that on the
Othello page with a slow AI, from inside the browser the moment it shows the AI thinking,
and then check the game record move by move against the rules: every recorded move is
legal where it was played, made by the side to move and by that side's player (a person's
side never gets an AI move), and the board drawn is the position the record leads to.

On a busy machine the page can show "is thinking" late, and the action may then reach
the server just after the AI's reply was played. Each test accepts exactly the two
outcomes that are right (the action came during the search, or just after the reply:
then it was made on a position that is gone, so it is dropped and the person is told)
and nothing else. A search interrupted by a newer run has run out its budget by the time
a later search (started after it) answers, so the record checked after that later answer
also shows that no hidden move was slipped in.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from lib.games.core import get_game
from lib.games.session import STALE_MESSAGE
from tests.e2e.conftest import BOARD_DRAWING, board_circles, click_board, open_page, wait_idle

OTHELLO = get_game("othello")

# seconds a move even on an idle machine: no move ordering, no transposition table, and
# (switched on in the sidebar by the tests) an exact score for every move, within 5 s
SLOW = "alphabeta:depth=8,time=5,ordering=false,tt=false"
SLOW_LABEL = "Alpha-beta d8"
BOARD = '[class*="st-key-othello_board_"]'
STATUS = ".st-key-othello_messages"
THINKING = "is thinking"


# Counts the discs of the current (not stale) board; -1 while it is being drawn.
COUNT_DISCS = f"""(board) => {{
    const drawing = ({BOARD_DRAWING})(board);
    if (!drawing) return -1;
    return drawing.shapes.filter((s) => s.type === 'circle'
        && (s.fillcolor === '#111111' || s.fillcolor === '#f5f5f5')).length;
}}"""

# Page actions run by the browser itself, the moment the AI is seen thinking (a Playwright
# command can take seconds to reach a busy page: the search could be over by then).
UNDO = """Array.from(document.querySelectorAll('.st-key-othello_w_undo button'))
    .find((b) => !b.closest('[data-stale="true"]')).click();"""
AUTOPLAY = """Array.from(document.querySelectorAll('.st-key-othello_w_autoplay input'))
    .find((b) => !b.closest('[data-stale="true"]')).click();"""
# a click on square (row, col) of the board, as the browser sends a mouse click
CLICK = """(function click() {
    const chart = Array.from(document.querySelectorAll('[class*="st-key-othello_board_"]'))
        .find((c) => c.getAttribute('data-stale') !== 'true' && !c.closest('[data-stale="true"]'));
    const square = chart && chart.querySelector('.game-board [data-target="ROW,COL"]');
    if (!square) {  // the board of this run is still being drawn
        setTimeout(click, 20);
        return;
    }
    square.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
})();"""


def _when_thinking(
    page, plies: int, action: str, start: Callable[[], None], *, at_least: bool = False
) -> None:
    """Run ``action`` (JavaScript) in the page as soon as it shows the AI thinking on the
    position after ``plies`` moves (``at_least``: as soon as the board shows that many
    moves, for an AI too quick to be seen thinking), and wait until it has run.

    ``start()`` is the step that sets the AI thinking (a click, Autoplay on). The page
    watches for the moment before that step is taken: on a busy machine a Playwright
    command can reach the page after a whole search is over.
    An early Othello game has no pass: ``plies`` moves put ``4 + plies`` discs down.
    """
    page.evaluate(
        """([status, board, discs, thinking, action, count, atLeast]) => {
            window.__acted = false;
            window.__seen = [];
            const drawn = eval(count);
            const act = new Function(action);
            const observer = new MutationObserver(check);
            function check() {
                if (window.__acted) return;
                let ready;
                if (atLeast) {
                    ready = drawn(board) >= discs;
                } else {
                    // the status line's score, not the board: a board takes longer to draw.
                    // Any copy of the line: while a run goes on, the copy of the run before
                    // can stand beside the new one (only a state the page was in says so)
                    ready = Array.from(document.querySelectorAll(status)).some((line) => {
                        const said = line.innerText;
                        if (window.__seen.length < 40 && !window.__seen.includes(said)) {
                            window.__seen.push(said);  // for the failure message
                        }
                        const score = said.match(/Black (\\d+) – (\\d+) White/);
                        return said.includes(thinking) && score !== null
                            && Number(score[1]) + Number(score[2]) === discs;
                    });
                }
                if (ready) {
                    window.__acted = true;
                    observer.disconnect();
                    act();
                }
            }
            observer.observe(document.body, {childList: true, subtree: true, characterData: true});
            check();
        }""",
        [STATUS, BOARD, 4 + plies, THINKING, action, COUNT_DISCS, at_least],
    )
    start()
    try:
        page.wait_for_function("() => window.__acted === true", timeout=120_000)
    except PlaywrightTimeout:
        shown = (page.evaluate(COUNT_DISCS, BOARD) - 4, page.locator(STATUS).all_inner_texts())
        seen = page.evaluate("() => window.__seen")
        raise AssertionError(
            f"never saw {plies} moves and thinking; shown: {shown}; status lines seen: {seen}"
            f"; Autoplay on: {_autoplay_is_on(page)}"
        ) from None


def _board_position(page) -> dict[str, set[tuple[int, int]]]:
    """(row, col) of the black and of the white discs on the current board."""
    found = board_circles(page, BOARD, ["#111111", "#f5f5f5"])
    return {"black": set(map(tuple, found["#111111"])), "white": set(map(tuple, found["#f5f5f5"]))}


SETTLED = """([board, status, texts, thinking, count]) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    const line = document.querySelector(status + ':not([data-stale="true"])');
    const said = line ? line.innerText : '';
    const discs = eval(count)(board);
    if (discs < 4 || said.includes(thinking) || !texts.some((text) => said.includes(text))) {
        return false;
    }
    return [discs - 4, said];
}"""


def _settle(page, *texts: str) -> tuple[int, str]:
    """Wait until no run is going and the status line says one of ``texts`` (not thinking).

    Returns the number of moves on the board and the status line's text.
    """
    arg = [BOARD, STATUS, list(texts), THINKING, COUNT_DISCS]
    try:
        page.wait_for_function(SETTLED, arg=arg, timeout=120_000)
        wait_idle(page)
        # read again once the run is over (the board may be redrawn meanwhile)
        plies, said = page.wait_for_function(SETTLED, arg=arg, timeout=120_000).json_value()
    except PlaywrightTimeout:
        shown = (page.evaluate(COUNT_DISCS, BOARD) - 4, page.locator(STATUS).all_inner_texts())
        raise AssertionError(f"expected one of {texts}; shown (moves, status): {shown}") from None
    return plies, said


def _record(page) -> list[dict[str, str]]:
    """The game record as its CSV download gives it (one row per move).

    Opening the tab reruns the page: it waits until that run is over, or a click that
    follows could land on a board being redrawn and be lost, while the run it then waits
    for is the tab's (seen in CI, when the download reran the page too: the next move
    "played" without the board ever taking it).
    """
    page.get_by_role("tab", name="Game record").click()
    button = page.locator(
        '[data-testid="stElementContainer"]:not([data-stale="true"])'
        ' [data-testid="stDownloadButton"]',
        has_text="Download game record (CSV)",
    ).first
    button.wait_for(timeout=60_000)
    wait_idle(page)
    with page.expect_download() as download:
        button.click()
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def _check_record(page, players: dict[str, str], plies: int) -> object:
    """Check the record move by move against the rules and the board; return the position.

    ``players``: who plays each side ("human" or an AI's label), as the record names them.
    """
    rows = _record(page)
    assert len(rows) == plies, [(r["side"], r["player"], r["move"]) for r in rows]
    state = OTHELLO.initial_state(size=8)
    for number, row in enumerate(rows, start=1):
        side = OTHELLO.player_names[state.to_move]
        where = (number, row["side"], row["player"], row["move"])
        assert row["ply"] == str(number), where
        assert row["side"] == side, where  # the side to move made it
        assert row["player"] == players[side], where  # by that side's player
        state = state.play(OTHELLO.parse_move(row["move"], state))  # legal where played
    drawn = _board_position(page)
    expected = {"black": set(), "white": set()}
    for row_text, r in zip(state.to_text().splitlines()[:8], range(8), strict=True):
        for c, mark in enumerate(row_text):
            if mark == "X":
                expected["black"].add((r, c))
            elif mark == "O":
                expected["white"].add((r, c))
    assert drawn == expected  # the board shows the position the record leads to
    return state


# Notes in the page whether a script run starts from now on (window.__ran).
WATCH_RUNS = """() => {
    window.__ran = false;
    const app = document.querySelector('[data-testid="stApp"]');
    new MutationObserver((records, observer) => {
        const running = (state) => state === 'running' || state === 'rerunRequested';
        if (records.some((r) => running(r.oldValue))
                || running(app.getAttribute('data-test-script-state'))) {
            window.__ran = true;
            observer.disconnect();
        }
    }).observe(app, {attributes: true, attributeOldValue: true,
                     attributeFilter: ['data-test-script-state']});
}"""


def _click(page, row: int, col: int) -> None:
    """Click square (row, col) of the board until the page starts a run for it.

    Under load a click that lands while the board is redrawn is lost (seen: the page
    still showed the starting position two minutes later); nothing else reruns this page
    while it waits for a person's move, so a run started after the click is the click's.
    """
    wait_idle(page)  # a run still going would count as the click's
    for _attempt in range(3):
        page.evaluate(WATCH_RUNS)
        click_board(page, BOARD, (row, col))
        try:
            page.wait_for_function("() => window.__ran === true", timeout=20_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"the board never took a click on (row, col) {(row, col)}")


def _play(page, row: int, col: int) -> None:
    """Click a legal square and wait until the board shows the move (more discs): a settle
    check made before the click's run has started would still see the old position."""
    wait_idle(page)
    before = page.wait_for_function(  # the board drawn, not -1 while it is being drawn
        f"(board) => {{ const n = ({COUNT_DISCS})(board); return n >= 4 ? n : false; }}",
        arg=BOARD,
        timeout=120_000,
    ).json_value()
    _click(page, row, col)
    page.wait_for_function(
        f"(board) => ({COUNT_DISCS})(board) > {before}", arg=BOARD, timeout=120_000
    )


def _legal_square(state) -> tuple[int, int]:
    """(row, col) of a legal move of the side to move (the first in the rules' order)."""
    text = OTHELLO.format_move(state.legal_moves()[0])  # e.g. "d3"
    return int(text[1:]) - 1, ord(text[0]) - ord("a")


HUMAN_VS_SLOW = {"Black": "human", "White": SLOW_LABEL}
HUMANS_TURN = "Black to move (Human)"
STALE = STALE_MESSAGE.split("(")[0].strip()


def _open_slow(page, link: str) -> None:
    open_page(page, link)
    page.locator(".st-key-othello_w_exact label").first.click()
    page.locator('.st-key-othello_w_exact:not([data-stale="true"]) input:checked').wait_for()
    wait_idle(page)


def _step(page) -> None:
    page.locator(".st-key-othello_buttons button", has_text="Step").first.click()


def test_undo_while_the_ai_thinks_takes_back_the_persons_move_and_drops_the_reply(page):
    _open_slow(page, f"othello?size=8&white={SLOW}")
    _when_thinking(page, 1, UNDO, lambda: _click(page, 2, 3))  # d3
    plies, said = _settle(page, HUMANS_TURN, STALE)
    # during the search: d3 taken back, the reply never played; just after the reply: the
    # Undo was for a position that is gone, dropped and said
    assert (plies, STALE in said) in ((0, False), (2, True)), (plies, said)
    state = _check_record(page, HUMAN_VS_SLOW, plies)
    if plies == 0:  # the same move again: the reply comes from a search started afterwards
        _play(page, 2, 3)
        assert _settle(page, HUMANS_TURN)[0] == 2
        state = _check_record(page, HUMAN_VS_SLOW, 2)

    # later in the game: Undo during the AI's search keeps the earlier moves as they were
    _when_thinking(page, 3, UNDO, lambda: _click(page, *_legal_square(state)))
    plies, said = _settle(page, HUMANS_TURN, STALE)
    assert (plies, STALE in said) in ((2, False), (4, True)), (plies, said)
    after = _check_record(page, HUMAN_VS_SLOW, plies)
    if plies == 2:
        assert after == state
        _play(page, *_legal_square(state))
        assert _settle(page, HUMANS_TURN)[0] == 4
        _check_record(page, HUMAN_VS_SLOW, 4)


def _switch_autoplay(page) -> None:
    page.locator(".st-key-othello_w_autoplay label").first.click()


# the current Autoplay toggle is on, or the action watched for has already switched it off
AUTOPLAY_ON = """() => window.__acted === true
    || Array.from(document.querySelectorAll('.st-key-othello_w_autoplay input'))
        .some((b) => !b.closest('[data-stale="true"]') && b.checked)"""


def _switch_autoplay_on(page) -> None:
    """Switch Autoplay on, clicking again while the toggle has not taken the click (a
    loaded CI run once lost it: no move in 120 s, the game never started)."""
    for _ in range(3):
        _switch_autoplay(page)
        try:
            page.wait_for_function(AUTOPLAY_ON, timeout=15_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("Autoplay did not switch on after three clicks")


def _autoplay_is_on(page) -> bool:
    return page.locator(
        '.st-key-othello_w_autoplay:not([data-stale="true"]) input'
    ).first.is_checked()


def test_autoplay_switched_off_during_a_search_plays_no_more_moves(page):
    both_slow = {"Black": SLOW_LABEL, "White": SLOW_LABEL}
    _open_slow(page, f"othello?size=8&black={SLOW}&white={SLOW}")
    # off during the third search
    _when_thinking(page, 2, AUTOPLAY, lambda: _switch_autoplay_on(page))
    plies, _ = _settle(page, "Black to move", "White to move")
    assert not _autoplay_is_on(page)
    # no third move, or (switched off just after it was played) no fourth
    assert plies in (2, 3)
    _check_record(page, both_slow, plies)
    # Step plays exactly one move, from a search started after the dropped one
    _step(page)
    assert _settle(page, "Black to move" if plies % 2 else "White to move")[0] == plies + 1
    _check_record(page, both_slow, plies + 1)


def test_autoplay_switched_off_at_full_speed_stops_at_once(page):
    fast = "alphabeta:depth=1"
    both_fast = {"Black": "Alpha-beta d1", "White": "Alpha-beta d1"}
    open_page(page, f"othello?size=8&black={fast}&white={fast}")
    # off once four moves are on the board
    _when_thinking(page, 4, AUTOPLAY, lambda: _switch_autoplay_on(page), at_least=True)
    page.locator(
        '.st-key-othello_w_autoplay:not([data-stale="true"]) input:not(:checked)'
    ).wait_for()
    plies, _ = _settle(page, "Black to move", "White to move")
    assert plies >= 4
    _check_record(page, both_fast, plies)
    _step(page)  # one move, and only one
    assert _settle(page, "Black to move" if plies % 2 else "White to move")[0] == plies + 1
    _check_record(page, both_fast, plies + 1)


def _refused(page) -> None:
    """A click made while the AI thought was refused and said so; wait for the AI's reply."""
    said = page.locator(f'{STATUS}:not([data-stale="true"])', has_text=REFUSED).first
    said.wait_for(timeout=120_000)
    # read now, without waiting: the AI's reply may already have replaced the message (a
    # CI run under load waited 30 s for it there); only "is thinking" goes with the reply
    shown = said.all_inner_texts()
    if shown and THINKING_SAID not in shown[0]:  # just after the reply: a gone position
        _, line = _settle(page, STALE)
        assert HUMANS_TURN in line  # the turn line is kept beside the message
    else:  # during the search: the AI searches on
        _settle(page, HUMANS_TURN)


# what a click while White thinks is told (not "use Step or Autoplay": it moves anyway)
THINKING_SAID = "White is thinking…: wait for its move"
REFUSED = re.compile(f"{re.escape(THINKING_SAID)}|{re.escape(STALE)}")


def test_clicks_while_the_ai_thinks_are_refused_and_said_so(page):
    _open_slow(page, f"othello?size=8&white={SLOW}")
    # squares where Black could play after some of White's replies: never played for Black
    c2 = CLICK.replace("ROW", "1").replace("COL", "2")
    _when_thinking(page, 1, c2, lambda: _click(page, 2, 3))  # d3
    _refused(page)
    state = _check_record(page, HUMAN_VS_SLOW, 2)
    # the person plays on from the position they see
    e6 = CLICK.replace("ROW", "5").replace("COL", "4")
    _when_thinking(page, 3, e6, lambda: _click(page, *_legal_square(state)))
    _refused(page)
    _check_record(page, HUMAN_VS_SLOW, 4)
