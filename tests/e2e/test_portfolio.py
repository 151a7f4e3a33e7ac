"""The Portfolio GA page in a real browser: upload a CSV, run the GA, download coefficients."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
from playwright.sync_api import expect

from lib.portfolio.ga import GAConfig, is_feasible
from lib.ui import portfolio as ui
from tests.e2e.conftest import cut_texts, open_page, wait_idle
from tests.test_charts import contrast_ratio


def _stocks_csv() -> bytes:
    """60 stocks: two strong ones make the course's constraints feasible.

    One ticker looks like a spreadsheet formula: the download must escape it.
    """
    rows = ["ticker,risk,return", "=SUM(1),0.30,14", "GOOD,0.50,12"]
    rows += [f"F{i:02d},{0.2 + (i % 7) / 10:.2f},{0.1 + (i % 9) / 5:.2f}" for i in range(58)]
    return ("\n".join(rows) + "\n").encode()


def test_upload_run_and_download_coefficients(page):
    open_page(page, "portfolio")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Download coefficients.csv").wait_for()  # the first-load run

    page.locator('[data-testid="stSidebar"]').get_by_text("Upload a CSV").click()
    uploader = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    uploader.wait_for(state="attached")
    wait_idle(page)
    uploader.set_input_files(
        files=[{"name": "mine.csv", "mimeType": "text/csv", "buffer": _stocks_csv()}]
    )
    pending = main.get_by_text("New data (mine.csv)")
    pending.wait_for()  # the upload is read: it waits for Run, the sample's results are labelled
    stale = main.get_by_text("Results of the last run, on other data: Sample")
    expect(stale).to_be_visible()
    wait_idle(page)

    page.get_by_role("button", name="Run the GA").click()
    pending.wait_for(state="detached", timeout=60_000)
    stale.wait_for(state="detached")
    wait_idle(page)
    feasible = page.locator('[data-testid="stMetric"]').filter(has_text="Feasible")
    assert feasible.inner_text().split() == ["Feasible", "yes"]

    with page.expect_download() as download:
        page.locator(".st-key-pf_w_dl_coeffs button").click()
    assert download.value.suggested_filename == "coefficients.csv"
    raw = Path(download.value.path()).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: Excel shows non-ASCII tickers
    text = raw.decode("utf-8-sig")
    table = pd.read_csv(io.StringIO(text))
    assert list(table.columns) == ["ticker", "risk", "return", "coefficient", "exact_coefficient"]
    assert abs(table["exact_coefficient"].sum() - 1) < 1e-6  # the optimum, beside the GA's
    assert len(table) == 60
    assert "'=SUM(1)" in table["ticker"].tolist()  # escaped, not a formula
    assert abs(table["coefficient"].sum() - 1) < 1e-9
    assert (table["coefficient"] > 0).sum() >= 30
    table["ticker"] = table["ticker"].str.removeprefix("'")
    assert is_feasible(table["coefficient"].to_numpy(), table, GAConfig())
    assert "data=upload" in page.url


def test_a_link_with_settings_reproduces_the_run(page):
    open_page(page, "portfolio?data=hard&pop=120&elite=12&gens=40&fit=course&repair=0&seed=2")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Download coefficients.csv").wait_for()
    wait_idle(page)
    # the page may rerun once more after writing the URL: wait for the slider, not a skeleton
    expect(page.locator(".st-key-pf_w_population_size")).to_contain_text("120")
    metric = page.locator('[data-testid="stMetric"]')
    assert metric.filter(has_text="Feasible").inner_text().split() == ["Feasible", "no"]
    assert metric.filter(has_text="Generations").inner_text().split() == ["Generations", "40"]
    assert main.get_by_text("One exists").first.is_visible()


FONT_SIZES = """(selector) => Array.from(document.querySelectorAll(selector + ' text'))
    .filter((t) => t.textContent.trim())
    .map((t) => parseFloat(getComputedStyle(t).fontSize))"""


def test_chart_text_is_readable_and_a_big_link_waits_for_run(page):
    open_page(page, "portfolio")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Download coefficients.csv").wait_for()
    wait_idle(page)
    chart = page.locator(".st-key-pf_fitness_chart")
    chart.scroll_into_view_if_needed()
    chart.locator(".xtick text").first.wait_for()
    sizes = page.evaluate(FONT_SIZES, ".st-key-pf_fitness_chart")
    assert len(sizes) > 10 and min(sizes) >= 14, sizes  # ticks, legend, titles

    open_page(page, "portfolio?pop=3000&gens=5000&stop=0")
    main.get_by_text("more than the page starts on its own").wait_for()
    wait_idle(page)
    assert page.locator('[data-testid="stProgress"]').count() == 0
    assert page.locator('[data-testid="stMetric"]').count() == 0
    expect(page.locator(".st-key-pf_w_population_size")).to_contain_text("3000")


TRUNCATED = """() => Array.from(document.querySelectorAll(
        '[data-testid="stMetricValue"], [data-testid="stMetricValue"] *'))
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.textContent)"""


def test_result_metrics_are_not_cut_on_a_1024_projector(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "portfolio")
    page.get_by_text("Download coefficients.csv").wait_for()
    wait_idle(page)
    metrics = page.locator('[data-testid="stMetric"]')
    expect(metrics).to_have_count(7)
    assert page.evaluate(TRUNCATED) == []
    labels = [metric.inner_text().split("\n")[0] for metric in metrics.all()]
    assert labels[1:3] == ["Return", "Risk"]
    # nor are the settings' labels ("Repair (add missing st…" was) and choices: the Fitness
    # select was cut to "constraint-aware (ro" in a third of the page
    assert cut_texts(page, '[data-testid="stForm"]') == []
    expect(page.locator(".st-key-pf_w_repair")).to_contain_text("Repair")
    fitness = page.locator(".st-key-pf_w_fitness input")
    assert fitness.input_value() == "constraint-aware (robust)"
    assert fitness.evaluate("(e) => e.scrollWidth <= e.clientWidth"), "the choice is cut"


def test_the_answer_and_its_chart_are_on_the_first_screen_of_a_1024_projector(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "portfolio")
    chart = page.locator(".st-key-pf_fitness_chart")
    chart.locator(".xtick text").first.wait_for(timeout=60_000)
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
    assert sidebar["width"] > 200 and sidebar["x"] >= 0  # open
    assert page.evaluate("() => window.scrollY") == 0
    for box in [m.bounding_box() for m in page.locator('[data-testid="stMetric"]').all()] + [
        chart.bounding_box()
    ]:
        assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
        assert box["x"] >= sidebar["width"] and box["x"] + box["width"] <= 1024, box
    # the population's animation follows right under it
    population = page.locator(".st-key-pf_population_chart").bounding_box()
    assert population["y"] < 768 + 100


CHART_TEXT_FILLS = """(selector) => Array.from(document.querySelectorAll(
        selector + ' .main-svg text, ' + selector + ' .infolayer text'))
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
    .map((t) => getComputedStyle(t).fill)"""


def test_every_chart_text_has_4_5_to_1_contrast(page):
    open_page(page, "portfolio")
    for key in ("pf_fitness_chart", "pf_population_chart"):
        chart = page.locator(f".st-key-{key}")
        chart.scroll_into_view_if_needed()
        chart.locator(".xtick text").first.wait_for(timeout=60_000)
        fills = page.evaluate(CHART_TEXT_FILLS, f".st-key-{key}")
        assert len(fills) > 10, fills
        low = [f for f in set(fills) if contrast_ratio(f, "#ffffff") < 4.5]
        assert low == [], (key, low)  # was rgb(128, 132, 149): 3.7:1


SLIDER_AND_DOTS = """(el) => {
    const gd = el.querySelector('.js-plotly-plot');
    return {active: gd._fullLayout.sliders[0].active,
            mean: ((ys) => ys.reduce((a, b) => a + b, 0) / ys.length)(
                gd.calcdata.slice(0, 2).flat().map((point) => point.y)
                    .filter((y) => Number.isFinite(y))),
            frames: gd._transitionData._frames.length};
}"""


AT_LAST_FRAME = """(el) => { const gd = el.querySelector('.js-plotly-plot');
    return gd._fullLayout.sliders[0].active === gd._transitionData._frames.length - 1; }"""


def test_the_population_animation_plays_in_the_browser(page):
    sent = []  # messages from the browser to the server: a rerun would send one
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
    open_page(page, "portfolio")
    chart = page.locator(".st-key-pf_population_chart")
    chart.scroll_into_view_if_needed()
    play = chart.locator(".updatemenu-button").filter(has_text="play")
    play.wait_for(timeout=60_000)
    wait_idle(page)
    start = chart.evaluate(SLIDER_AND_DOTS)
    assert start["active"] == 0 and start["frames"] > 10
    before = len(sent)
    play.click()
    page.wait_for_function(AT_LAST_FRAME, arg=chart.element_handle(), timeout=30_000)
    end = chart.evaluate(SLIDER_AND_DOTS)
    # the population moved up toward the return floor of 10, in the browser alone
    assert end["mean"] > start["mean"] + 3, (start, end)
    last = chart.evaluate(
        "(el) => el.querySelector('.js-plotly-plot')._transitionData._frames.at(-1).name"
    )
    expect(chart.locator(".slider-container")).to_contain_text(f"generation {last}")
    assert len(sent) == before  # no server round trip


def test_the_frontier_is_drawn_when_its_section_is_opened(page):
    open_page(page, "portfolio")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Download coefficients.csv").wait_for()  # the first-load run
    assert page.locator(".st-key-pf_frontier").count() == 0  # nothing drawn while folded
    page.locator(f".st-key-{ui.FRONTIER_OPEN_KEY} summary").click()
    chart = page.locator('.st-key-pf_frontier:not([data-stale="true"]) .js-plotly-plot')
    chart.locator(".scatterlayer .trace").first.wait_for()
    wait_idle(page)
    assert chart.locator(".scatterlayer .trace").count() >= 1


DATE_FIELDS = '[data-testid="stSidebar"] [data-testid="stDateInputFieldsScroller"]'


def test_the_date_window_shows_its_whole_value_on_a_1024_projector(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "portfolio?data=sp500")
    fields = page.locator(DATE_FIELDS)
    fields.wait_for(timeout=60_000)
    wait_idle(page)
    value = fields.inner_text().replace("\n", "").replace(" ", "")
    assert value.startswith("2020/01/02") and value.endswith("2022/12/28"), value
    # "2021 / 01 / 0" was all a half-width column of the sidebar showed: the start and
    # end dates scrolled inside a box too narrow for them
    size = fields.evaluate("(e) => ({scroll: e.scrollWidth, client: e.clientWidth})")
    assert size["scroll"] <= size["client"], (value, size)
