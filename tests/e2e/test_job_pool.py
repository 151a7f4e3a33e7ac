"""Heavy jobs run in the server's shared worker pool: Cancel stops the worker's CPU, and a
closed tab does too (a GA at its caps runs for a minute unless stopped)."""

from __future__ import annotations

import time

import psutil

from tests.e2e.conftest import running_app_process, wait_idle

GA_AT_CAPS = "portfolio?pop=3000&gens=5000&stop=false"
RUNNING = "Running on a shared worker process"


def _cpu_by_process(server_pid: int) -> dict[int, float]:
    """CPU seconds so far of each process under the server (the pool's workers)."""
    out = {}
    for process in psutil.Process(server_pid).children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        out[process.pid] = times.user + times.system
    return out


def _workers_cpu_over(server_pid: int, seconds: float) -> float:
    """CPU seconds the processes under the server spend in the next ``seconds``."""
    before = _cpu_by_process(server_pid)
    time.sleep(seconds)
    after = _cpu_by_process(server_pid)  # a worker killed meanwhile spends nothing more
    return sum(after[pid] - before[pid] for pid in after if pid in before)


def _after_the_start_up(browser, url: str, server_pid: int) -> None:
    """Visit the server once and wait until the start-up work it begins is over (its
    compiled solvers readied, the AI moves' workers started and warmed): their CPU is not
    the job pool's."""
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    wait_idle(page)  # the visit's run has started the warm-up
    page.close()
    deadline, quiet = time.monotonic() + 180, 0
    while quiet < 3:  # three quiet seconds in a row, processes started meanwhile counted
        before = _cpu_by_process(server_pid)
        time.sleep(1.0)
        after = _cpu_by_process(server_pid)
        spent = sum(after[pid] - before.get(pid, 0.0) for pid in after)
        quiet = quiet + 1 if spent <= 0.05 and after.keys() == before.keys() else 0
        assert time.monotonic() < deadline, "the server's start-up work never ended"


def _start_the_ga(browser, url: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(120_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/{GA_AT_CAPS}")
    page.get_by_role("button", name="Run the GA").first.click()
    page.get_by_text(RUNNING).first.wait_for()
    return context, page, errors


def test_cancel_stops_the_worker_and_a_closed_tab_too(browser):
    with running_app_process() as (url, server):
        _after_the_start_up(browser, url, server.pid)
        context, page, errors = _start_the_ga(browser, url)
        time.sleep(1.0)
        working = _workers_cpu_over(server.pid, 3.0)
        page.get_by_role("button", name="Cancel").first.click()
        # "after N generations", or "before its first generation" on a busy machine
        page.get_by_text("The last run was interrupted").first.wait_for()
        time.sleep(1.0)
        after_cancel = _workers_cpu_over(server.pid, 1.5)
        assert not errors, errors

        context.close()
        context, page, errors = _start_the_ga(browser, url)
        time.sleep(1.0)
        working_again = _workers_cpu_over(server.pid, 3.0)
        context.close()  # the visitor leaves mid-run
        time.sleep(1.5)
        after_close = _workers_cpu_over(server.pid, 1.5)
    # The GA keeps a worker busy (0.2 to 3 CPU seconds in the window, by the machine's
    # load: the workers run at a lower priority than the tests beside them); stopped, the
    # workers idle.
    assert working > 0.1 and working_again > 0.1, (working, working_again)
    assert after_cancel < 0.1, after_cancel
    assert after_close < 0.1, after_close
