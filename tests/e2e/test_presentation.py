"""The presentation view is for a room's back row: body text at least 20 px, chart text at
least 16 px, and no text below 4.5:1 contrast on its background (at 1024x768)."""

from __future__ import annotations

from tests.e2e.conftest import WAIT_MS, open_page, wait_idle
from tests.test_charts import contrast_ratio

# Every visible text of the main area, read where it is drawn: its font size, its colour
# and the colour of the first opaque background under it; whether it is chart text (SVG).
TEXTS = """() => {
    const opaque = (colour) => colour && colour !== 'transparent'
        && !/rgba\\(.*, 0\\)$/.test(colour);
    const background = (el) => {
        for (let node = el; node; node = node.parentElement) {
            const colour = getComputedStyle(node).backgroundColor;
            if (opaque(colour)) return colour;
        }
        return 'rgb(255, 255, 255)';
    };
    const found = [];
    const main = document.querySelector('[data-testid="stMain"]');
    for (const el of main.querySelectorAll('*')) {
        if (el.closest('[data-stale="true"]') || el.closest('h1, h2, h3, h4, h5, h6')) continue;
        // a metric's label stays small beside its large value (a row of them must fit)
        const metric = el.closest('[data-testid="stMetricLabel"]');
        // a disabled control is drawn faded on purpose (WCAG exempts it)
        if (el.closest('[disabled], [aria-disabled="true"]')) continue;
        const label = el.closest('label');
        if (label && label.querySelector('input[disabled]')) continue;
        const own = Array.from(el.childNodes).some(
            (n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        if (!own) continue;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
        if (style.opacity === '0' || el.closest('[aria-hidden="true"]')) continue;
        const chart = el.closest('svg') !== null;
        found.push({text: el.textContent.trim().slice(0, 40), chart,
                    size: metric ? 20 : parseFloat(style.fontSize),
                    colour: chart ? style.fill : style.color,
                    background: chart ? 'rgb(255, 255, 255)' : background(el)});
    }
    return found;
}"""


def _rgb(colour: str) -> list[float]:
    return [float(part) for part in colour[colour.index("(") + 1 : -1].split(",")]


def _seen(colour: str, background: str) -> str:
    """``colour`` (``rgb()`` or ``rgba()``) as drawn over the opaque ``background``."""
    *rgb, alpha = [*_rgb(colour), 1.0][:4]
    under = _rgb(background)[:3]
    mixed = [round(alpha * c + (1 - alpha) * b) for c, b in zip(rgb, under, strict=True)]
    return f"rgb({', '.join(str(c) for c in mixed)})"


def _problems(page) -> dict[str, list]:
    texts = page.evaluate(TEXTS)
    assert texts, "no text found"
    small_body = [(t["text"], t["size"]) for t in texts if not t["chart"] and t["size"] < 19.5]
    small_chart = [(t["text"], t["size"]) for t in texts if t["chart"] and t["size"] < 15.5]
    faint = [
        (t["text"], t["colour"], t["background"])
        for t in texts
        if not t["chart"]
        and t["colour"].startswith("rgb")
        and contrast_ratio(_seen(t["colour"], t["background"]), t["background"]) < 4.5
    ]
    return {"body < 20 px": small_body, "chart < 16 px": small_chart, "contrast": faint}


def test_the_presentation_view_is_readable_from_the_back_row(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "othello?size=6&black=alphabeta:depth=2&white=human&present=1")
    page.get_by_text("Nodes").first.wait_for(timeout=2 * WAIT_MS)  # the AI moved
    wait_idle(page)
    page.locator(".st-key-othello_last_scores .ytick text").first.wait_for(timeout=WAIT_MS)
    page.wait_for_timeout(500)
    problems = _problems(page)
    assert not any(problems.values()), problems
    open_page(page, "arena?present=1")
    page.locator(".st-key-arena_chart_ebf .xtick text").first.wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    page.wait_for_timeout(500)
    problems = _problems(page)
    assert not any(problems.values()), problems


# pairs of legend entries of one chart that overlap (the text of one running into the next)
LEGEND_OVERLAPS = """(selector) => {
    const found = [];
    for (const legend of document.querySelectorAll(selector + ' .legend')) {
        const boxes = [...legend.querySelectorAll('.traces')].map((t) => t.getBoundingClientRect());
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 1 && y > 1) found.push([i, x, y]);
        }));
    }
    return found;
}"""


def test_the_portfolio_s_legends_are_laid_out_for_the_projector_s_text(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "portfolio?present=1")
    charts = ".st-key-pf_fitness_chart, .st-key-pf_population_chart"
    page.locator(".st-key-pf_fitness_chart .legend .traces").nth(3).wait_for(timeout=2 * WAIT_MS)
    wait_idle(page)
    assert page.evaluate(LEGEND_OVERLAPS, charts) == []
    problems = _problems(page)
    assert not problems["chart < 16 px"], problems
