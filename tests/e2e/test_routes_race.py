"""Racing algorithms in a real browser: one expansion per tick each, Play, Step and the speed."""

from __future__ import annotations

import time

from lib.routes import graphs, race, search
from lib.ui import routes_common
from tests.e2e.conftest import open_page, wait_idle

RACE = f'.st-key-{routes_common.RACE_KEY}:not([data-stale="true"]) .route-race'


def _open_race(page):
    page.locator(f".st-key-{routes_common.RACE_OPEN_KEY} summary").first.click()
    board = page.locator(RACE).first
    board.locator(".racer canvas.search").first.wait_for(timeout=60_000)
    wait_idle(page)
    board.scroll_into_view_if_needed()
    return board


def _ticks(name: str) -> int:
    G = graphs.romania()
    h = graphs.make_heuristic(G, graphs.STRAIGHT)
    traced = search.run(name, G, "Arad", "Bucharest", h, record_trace=True)
    return len(race.tick_steps(traced.trace)) - 1


def test_race_a_star_and_uniform_cost_with_step_and_the_speed_control(page):
    open_page(page, "routes")
    board = _open_race(page)
    astar, ucs = (
        board.locator('.racer[data-name="A*"]'),
        board.locator('.racer[data-name="Uniform-cost"]'),
    )
    assert astar.locator(".counter").inner_text() == "expanded 0, frontier 1"
    board.locator("button.step").click()
    assert astar.locator(".counter").inner_text().startswith("expanded 1, frontier ")
    assert ucs.locator(".counter").inner_text().startswith("expanded 1, frontier ")
    # slow: a quarter of the normal pace moves a tick every 240 ms
    board.locator("select.speed").select_option("0.25")
    board.locator("button.play").click()
    page.wait_for_timeout(700)
    board.locator("button.play").click()  # pause
    slow = int(board.get_attribute("data-tick"))
    assert slow in range(1, 7), slow
    # fast: 8x finishes the race at once; A* (fewer expansions) finished first
    board.locator("select.speed").select_option("8")
    began = time.monotonic()
    board.locator("button.play").click()
    ticks = max(_ticks("A*"), _ticks("Uniform-cost"))
    page.wait_for_function(
        "([root, ticks]) => root.dataset.tick === String(ticks)",
        arg=[board.element_handle(), ticks],
    )
    assert time.monotonic() - began < 5
    done = astar.locator(".counter").inner_text()
    assert done.startswith(f"expanded {_ticks('A*')}, frontier ") and done.endswith("cost 418")
    assert ucs.locator(".counter").inner_text().endswith("route found: cost 418")
    assert _ticks("A*") < _ticks("Uniform-cost")
    board.locator("button.restart").click()
    assert board.get_attribute("data-tick") == "0"


def test_the_step_player_has_the_speed_control_too(page):
    open_page(page, "routes?algos=Uniform-cost")
    player = page.locator('.st-key-rt_animation:not([data-stale="true"]) .route-player').first
    player.locator("canvas.search").wait_for(timeout=60_000)
    player.scroll_into_view_if_needed()
    last = int(player.get_attribute("data-last"))
    player.locator("select.speed").select_option("0.25")
    player.locator("button.watch").click()
    page.wait_for_timeout(1000)
    player.locator("button.pause").click()
    slow = int(player.get_attribute("data-step"))
    assert slow < last // 2, (slow, last)  # a quarter of the pace: a frame every 240 ms
    player.locator("select.speed").select_option("8")
    began = time.monotonic()
    player.locator("button.watch").click()
    page.wait_for_function(
        "([root, last]) => root.dataset.step === String(last)",
        arg=[player.element_handle(), last],
    )
    assert time.monotonic() - began < 4
