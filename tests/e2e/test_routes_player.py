"""The step map's canvas player in a real browser: it plays, pauses, steps and draws the trace."""

from __future__ import annotations

from pathlib import Path

import pytest

from lib.routes import animation, graphs, search
from lib.routes.trace import trace_state
from tests.e2e.conftest import open_page, wait_idle, wait_settled
from tests.routes.test_animation import step_label

PLAYER = '.st-key-rt_animation:not([data-stale="true"]) .route-player'
PLAYER_JS = Path(__file__).resolve().parents[2] / "lib" / "ui" / "components" / "route_player.js"

#: A digest of what the search canvas shows (its pixels), to see that frames differ.
CANVAS_SUM = """(root) => {
    const canvas = root.querySelector('canvas.search');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0;
    for (let i = 0; i < pixels.length; i += 7) sum = (sum * 31 + pixels[i]) % 1000000007;
    return sum;
}"""
#: The colour (#rrggbb) the search canvas shows at the centre of each place.
COLOURS = """(root) => {
    const canvas = root.querySelector('canvas.search');
    const ctx = canvas.getContext('2d');
    const ratio = canvas.width / canvas.clientWidth;
    const out = [];
    for (let i = 0; i < Number(root.dataset.places); i += 1) {
        const [x, y] = root.pixelOf(i);
        const p = ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
        out.push('#' + [p[0], p[1], p[2]].map((v) => v.toString(16).padStart(2, '0')).join(''));
    }
    return out;
}"""
#: Counts the app's script runs that start while the player (``root``) plays: on a busy
#: machine a short play may end, and rightly report where it rests, within the test's wait.
COUNT_RUNS_WHILE_PLAYING = """(root) => {
    window.__runs = 0;
    const app = document.querySelector('[data-testid="stApp"]');
    new MutationObserver(() => {
        const running = app.getAttribute('data-test-script-state') === 'running';
        if (running && root.dataset.playing === 'true') window.__runs += 1;
    }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def _player(page):
    player = page.locator(PLAYER).first
    player.locator("canvas.search").wait_for()
    player.scroll_into_view_if_needed()
    return player


def _wait(page, player, condition: str) -> None:
    """Wait until ``condition`` (JavaScript about ``root``, the player's element) holds."""
    page.wait_for_function(f"(root) => {condition}", arg=player.element_handle())


def _shown(player) -> int:
    return int(player.get_attribute("data-step"))


def _expected_colours(G, trace, step: int, start, goal) -> list[str]:
    """Each place's colour at ``step`` from the trace: frontier over explored over its own."""
    state = trace_state(trace, step)
    frontier = {entry.node for entry in state.frontier}
    looks = animation.look_colours(G)
    own = {start: looks[animation.START], goal: looks[animation.GOAL]}
    return [
        colour.lower()
        for colour in (
            looks[animation.FRONTIER]
            if node in frontier
            else looks[animation.EXPLORED]
            if node in state.explored
            else own.get(node, looks[animation.PLAIN])
            for node in G.nodes
        )
    ]


def _go_to(page, player, step: int) -> None:
    """Move the player's own slider to ``step`` with the keyboard."""
    slider = player.locator("input.steps")
    slider.focus()
    page.keyboard.press("Home")
    for _ in range(step):
        page.keyboard.press("ArrowRight")
    _wait(page, player, f"root.dataset.step === '{step}'")


@pytest.mark.parametrize(
    "query",
    ["", "source=Random+graph&n=2000&algos=A*", "source=Grid+with+obstacles&rows=60&cols=80"],
)
def test_watch_plays_in_the_page_pause_stops_it_and_the_slider_steps(page, query):
    open_page(page, f"routes?{query}")
    wait_settled(page)  # a run that follows the first one is not the player's
    player = _player(page)
    last = int(player.get_attribute("data-last"))
    assert _shown(player) == 0
    assert player.locator(".label").inner_text() == "step 0: start on the frontier"
    player.evaluate(COUNT_RUNS_WHILE_PLAYING)
    before = player.evaluate(CANVAS_SUM)
    player.locator("button.watch").click()
    _wait(page, player, "Number(root.dataset.step) > 0")
    page.wait_for_timeout(400)
    assert player.evaluate(CANVAS_SUM) != before  # the frames repaint the places
    assert page.evaluate("() => window.__runs") == 0  # no script run while watching
    player.locator("button.pause").click()
    page.wait_for_timeout(300)
    paused = _shown(player)
    page.wait_for_timeout(700)
    assert _shown(player) == paused > 0  # Pause stopped it (or the play ended on the last step)
    assert player.get_attribute("data-playing") == "false"
    assert paused == last or paused in animation.frame_steps(last)
    # the slider reaches every step, not only a play's frames
    player.locator("input.steps").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    _wait(page, player, "root.dataset.step === '1'")
    label = player.locator(".label").inner_text()
    assert label.startswith("step 1: ") and "frontier" in label
    assert player.locator(".number").inner_text() == f"1 / {last}"
    # where the slider rests, the page's sentence and table follow (one run, not one a frame)
    _sentence(page, 1).wait_for()
    wait_idle(page)


@pytest.mark.parametrize("width", [800, 1400])
def test_each_place_is_drawn_in_the_colour_of_the_trace_at_every_step_shown(page, width):
    page.set_viewport_size({"width": width, "height": 1000})
    open_page(page, "routes")
    player = _player(page)
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    last = len(traced.trace) - 1
    assert int(player.get_attribute("data-places")) == G.number_of_nodes()
    for step in (0, 5, last, 3, 9):  # forwards, to the end, then back and on again
        _go_to(page, player, step)
        shown = player.evaluate(COLOURS)
        assert shown == _expected_colours(G, traced.trace, step, "Arad", "Bucharest"), step
        assert player.locator(".label").inner_text() == step_label(
            trace_state(traced.trace, step), traced.trace[step]
        )


def test_the_page_s_step_control_moves_the_map_without_redrawing_it_all(page):
    open_page(page, "routes")
    player = _player(page)
    player.evaluate("(root) => { root.dataset.mark = 'kept'; }")
    page.locator(".st-key-rt_w_next button").click()
    _wait(page, player, "root.dataset.step === '1'")
    wait_idle(page)
    assert player.locator(".label").inner_text().startswith("step 1: pop Arad")
    assert player.get_attribute("data-mark") == "kept"  # the same player, moved to step 1


def test_hovering_a_place_on_the_step_map_shows_its_name(page):
    open_page(page, "routes")
    player = _player(page)
    index = list(graphs.romania().nodes).index("Sibiu")
    x, y = player.evaluate(f"(root) => root.pixelOf({index})")
    player.locator("canvas.marks").scroll_into_view_if_needed()  # the code is under the map
    box = player.locator("canvas.marks").bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    tip = player.locator(".tip")
    tip.wait_for()
    assert tip.inner_text() == "Sibiu"


def test_uploaded_names_are_written_as_text_on_the_step_map(page):
    open_page(page, "routes?source=Upload")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Upload an edges CSV").wait_for()
    evil = "<img src=x onerror=document.title=1>"
    csv = f"source,target,weight\n{evil},B,1\nB,C,2\n".encode()
    uploader = page.locator('[data-testid="stFileUploaderDropzoneInput"]').first
    uploader.set_input_files(files=[{"name": "ok.csv", "mimeType": "text/csv", "buffer": csv}])
    player = _player(page)
    wait_idle(page)
    assert player.locator("img").count() == 0
    assert evil in player.locator(".legend").inner_text()  # start: <img ...>, as typed
    x, y = player.evaluate("(root) => root.pixelOf(0)")
    box = player.locator("canvas.marks").bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    player.locator(".tip").wait_for()
    assert player.locator(".tip").inner_text() == evil
    assert page.title() != "1"


@pytest.mark.parametrize("width", [1024, 1400])
def test_a_grid_s_cells_are_square_and_big_enough_to_see(page, width):
    page.set_viewport_size({"width": width, "height": 1000})
    open_page(page, "routes?source=Grid+with+obstacles&rows=60&cols=80&obstacles=25&seed=1")
    player = _player(page)
    G = graphs.grid(60, 80, obstacles=0.25, diagonal=False, seed=1, corridor=True)
    nodes = list(G.nodes)
    assert int(player.get_attribute("data-places")) == len(nodes)
    (r0, c0), (r1, c1) = min(nodes), max(nodes)  # cells far apart: their px per cell
    (x0, y0), (x1, y1) = (
        player.evaluate(f"(root) => root.pixelOf({nodes.index(cell)})")
        for cell in (min(nodes), max(nodes))
    )
    cell_w, cell_h = (x1 - x0) / (c1 - c0), (y1 - y0) / (r1 - r0)
    assert abs(cell_w - cell_h) < 0.01 and cell_w >= 8, (cell_w, cell_h)


#: The first and last columns and rows of the marks canvas (names, stars, road lengths)
#: that have anything drawn on them: a name cut by the canvas's edge shows there.
MARKS_AT_EDGES = """(root) => {
    const canvas = root.querySelector('canvas.marks');
    const { width, height } = canvas;
    const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const drawn = (x, y) => pixels[(y * width + x) * 4 + 3] > 0;
    const edges = { left: 0, right: 0, top: 0, bottom: 0 };
    for (let y = 0; y < height; y += 1) {
        if (drawn(0, y)) edges.left += 1;
        if (drawn(width - 1, y)) edges.right += 1;
    }
    for (let x = 0; x < width; x += 1) {
        if (drawn(x, 0)) edges.top += 1;
        if (drawn(x, height - 1)) edges.bottom += 1;
    }
    return edges;
}"""


def _sentence(page, step: int):
    """The page's sentence on step ``step`` (its frontier table is at the same step)."""
    markdown = page.locator('[data-testid="stMarkdownContainer"]')
    return markdown.filter(has_text=f"Step {step}: ").first


def _drag_to(player, step: int) -> None:
    """Let the player's slider go at ``step`` at once (as a drag released there)."""
    player.evaluate(
        """(root, step) => {
            const slider = root.querySelector('input.steps');
            slider.value = String(step);
            slider.dispatchEvent(new Event('input'));
            slider.dispatchEvent(new Event('change'));
        }""",
        step,
    )


def _projector(page) -> None:
    """The classroom's window: 1024 x 768."""
    page.set_viewport_size({"width": 1024, "height": 768})


def test_the_caption_names_the_place_pushed_and_where_it_was_reached_from(page):
    _projector(page)
    open_page(page, "routes")
    player = _player(page)
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    for step in (1, 2):  # Step ▶ as the class did
        page.locator(".st-key-rt_w_next button").click()
        _wait(page, player, f"root.dataset.step === '{step}'")
        wait_idle(page)
    label = player.locator(".label").inner_text()
    assert label == step_label(trace_state(traced.trace, 2), traced.trace[2])
    assert label.startswith("step 2: push Zerind from Arad,")
    _go_to(page, player, 15)
    label = player.locator(".label").inner_text()
    assert label.startswith("step 15: update Bucharest via Pitesti,")


def test_the_player_s_slider_drives_the_page_s_frontier_table(page):
    _projector(page)
    open_page(page, "routes")
    player = _player(page)
    assert page.locator(".st-key-rt_w_step").count() == 0  # no second step slider
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    _go_to(page, player, 6)
    sentence = _sentence(page, 6)
    sentence.wait_for()
    wait_idle(page)
    assert "push **Oradea**" not in sentence.inner_text()  # rendered, not markdown
    assert "push Oradea, reached from Sibiu" in sentence.inner_text()
    frontier = [graphs.node_label(e.node) for e in trace_state(traced.trace, 6).frontier]
    table = page.locator('[data-testid="stDataFrame"]').filter(has_text=frontier[0]).first
    table.wait_for()
    assert _shown(player) == 6  # the page's rerun did not move the player
    page.locator(".st-key-rt_w_next button").click()  # the buttons move both as well
    _wait(page, player, "root.dataset.step === '7'")
    _sentence(page, 7).wait_for()


#: The player alone in a blank page: its module imported, its default function called
#: with ``data`` as Streamlit calls it; what it sends is kept in ``window.__sent``.
LONE_PLAYER = """async ([code, data]) => {
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const player = (await import(url)).default;
    const host = document.getElementById('host');
    window.__sent = [];
    window.__deliver = (step) => player({
        data: { ...data, step }, parentElement: host,
        setTriggerValue: (name, value) => window.__sent.push([name, value]),
    });
    window.__deliver(data.step);
}"""


def test_the_player_tells_the_page_again_where_it_rests_when_the_page_follows_late(page):
    """The page followed to step 60 after the player had gone back to the page's step 50."""
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    data = animation.player_data(G, traced.trace, step=10, path=traced.path, start="Arad")
    page.set_content('<div id="host" style="width: 700px"></div>')
    page.evaluate(LONE_PLAYER, [PLAYER_JS.read_text(encoding="utf-8"), data])
    player = page.locator("#host .route-player")
    _drag_to(player, 14)
    page.wait_for_timeout(400)
    assert page.evaluate("() => window.__sent") == [["step", 14]]
    _drag_to(player, 10)  # back to the page's step: nothing to tell it
    page.wait_for_timeout(400)
    assert page.evaluate("() => window.__sent") == [["step", 14]]
    page.evaluate("() => window.__deliver(14)")  # the page follows to 14, late
    page.wait_for_timeout(400)
    assert _shown(player) == 10  # the player stays where it rests
    assert page.evaluate("() => window.__sent") == [["step", 14], ["step", 10]]  # told again
    page.evaluate("() => window.__deliver(10)")
    page.evaluate("() => window.__deliver(12)")  # the page's own step (its ▶ button)
    assert _shown(player) == 12
    page.wait_for_timeout(400)
    assert page.evaluate("() => window.__sent") == [["step", 14], ["step", 10]]


@pytest.mark.parametrize("path", ["routes", "routes?algos=A*|BFS&goal=Vaslui"])
def test_place_names_on_the_step_map_are_not_cut_at_1024_px(page, path):
    _projector(page)
    open_page(page, path)
    player = _player(page)
    _wait(page, player, "root.querySelector('canvas.marks').width > 0")
    assert player.evaluate(MARKS_AT_EDGES) == {"left": 0, "right": 0, "top": 0, "bottom": 0}


#: Rows of the code panel whose text runs past the panel's right edge (their line numbers).
OVERFLOWING_ROWS = """(root) => {
    const source = root.querySelector('.code pre.source');
    const right = source.getBoundingClientRect().right;
    return [...source.querySelectorAll('.row')]
        .filter((row) => [...row.querySelectorAll('span')]
            .some((span) => span.getBoundingClientRect().right > right + 0.5))
        .map((row) => row.querySelector('.gutter').textContent);
}"""


def test_no_code_line_is_cut_at_1024_px(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "routes")
    player = page.locator(PLAYER).first
    player.locator(".code pre.source .row").first.wait_for(timeout=60_000)
    player.scroll_into_view_if_needed()
    wait_idle(page)
    assert player.locator(".code pre.source .row").count() > 20
    assert player.evaluate(OVERFLOWING_ROWS) == []
    # wrapped, not squeezed: a long row is taller than a short one
    heights = player.evaluate(
        "(root) => [...root.querySelectorAll('.code .row')].map((r) => r.offsetHeight)"
    )
    assert max(heights) > min(heights)


def test_step_writes_the_step_to_the_address_and_the_address_reopens_there(page):
    open_page(page, "routes")
    player = _player(page)
    page.locator(".st-key-rt_w_next button").click()
    _wait(page, player, "root.dataset.step === '1'")
    _sentence(page, 1).wait_for()
    wait_idle(page)
    page.wait_for_function("() => window.location.search.includes('step=1')", timeout=30_000)
    assert "anim=A" in page.url
    open_page(page, "routes?step=6&anim=A*")
    player = _player(page)
    _wait(page, player, "root.dataset.step === '6'")
    _sentence(page, 6).wait_for()


def test_an_empty_frontier_is_a_line_that_does_not_cover_the_rule_under_it(page):
    """Step 1 (Arad popped, nothing waiting): the frontier is said in a line, and the
    rule's caption under it is not drawn over (a zero-row table's "empty" was)."""
    open_page(page, "routes")
    player = _player(page)
    page.locator(".st-key-rt_w_next button").click()
    _wait(page, player, "root.dataset.step === '1'")
    said = page.locator('[data-testid="stMarkdownContainer"]', has_text="Frontier: empty").first
    said.wait_for()
    wait_idle(page)
    rule = page.locator('[data-testid="stCaptionContainer"]', has_text="f = g + h").first
    top, bottom = said.bounding_box(), rule.bounding_box()
    assert top["y"] + top["height"] <= bottom["y"]  # one under the other, no overlap
    assert page.locator('[data-testid="stDataFrame"]', has_text="empty").count() == 0
