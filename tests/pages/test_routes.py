"""The route-search page under AppTest: Romania, a generated grid, uploads, URL settings."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import networkx as nx
import pytest
from streamlit.testing.v1 import AppTest

from lib.routes import animation, compare, explain, graphs, search
from lib.ui import routes_common, routes_page
from lib.ui.common import escape_markdown

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "routes.py")


def _app(*, sections_open: bool = True, **query) -> AppTest:
    """The page with ``query`` in its URL; ``sections_open``: the comparison and the
    heuristic check opened from the first run on (as a visitor's click on them would)."""
    app = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    if sections_open:
        app.session_state[routes_page.COMPARISON_OPEN_KEY] = True
        app.session_state[routes_page.CHECK_OPEN_KEY] = True
    return app.run()


def _markdown(app: AppTest) -> str:
    return "\n".join(m.value for m in app.markdown)


def _compare_algos(app: AppTest):
    """The comparison form's algorithm choice (the page's own is in the sidebar)."""
    return next(m for m in app.multiselect if m.label == "Algorithms to compare")


def test_romania_first_load_shows_routes_comparison_and_heuristic_report():
    app = _app()
    assert not app.exception and not app.error
    assert app.title[0].value == "Route search"
    text = _markdown(app)
    assert "**A\\*** route (cost 418): Arad → Sibiu → Rimnicu Vilcea → Pitesti → Bucharest" in text
    assert "Shortest route length (Dijkstra): **418**" in text
    assert "**Straight line**, checked towards every goal: **NOT admissible**" in text
    assert "longer than the road on 3 road(s)" in text
    warnings = " ".join(w.value for w in app.warning)
    assert 'The course\'s "B*" returns a longer route' in warnings
    G, line = graphs.romania(), graphs.StraightLine.of(graphs.romania())
    astar_always_shortest = all(
        search.astar(G, s, t, line).cost <= nx.dijkstra_path_length(G, s, t) + 1e-9
        for s, t in itertools.permutations(G.nodes, 2)
    )
    said = any(i.value.startswith("A\\* found the shortest route on every pair") for i in app.info)
    assert said == astar_always_shortest
    assert "Sibiu → Mehadia: 439 instead of 421" in warnings
    assert app.query_params["start"] == "Arad" and app.query_params["goal"] == "Bucharest"
    keys = {b.key for b in app.get("download_button")}
    assert {"rt_w_dl_routes", "rt_w_dl_summary", "rt_w_dl_roads"} <= keys


def test_changing_goal_and_algorithms_updates_the_routes():
    app = _app()
    app.selectbox(key="rt_w_goal").set_value("Neamt")
    app.multiselect(key="rt_w_algos").set_value(["BFS", "IDA*"]).run()
    assert not app.exception
    best = nx.dijkstra_path_length(graphs.romania(), "Arad", "Neamt")
    text = _markdown(app)
    assert f"**IDA\\*** route (cost {best:.4g})" in text
    assert "**BFS** route" in text
    assert app.query_params["goal"] == "Neamt"


def test_settings_survive_a_visit_to_upload():
    app = _app()
    app.multiselect(key="rt_w_algos").set_value(["BFS", "Weighted A*"])
    app.slider(key="rt_w_w").set_value(3.0)
    app.selectbox(key="rt_w_goal").set_value("Neamt").run()
    app.radio(key="rt_w_source").set_value("Upload").run()
    assert not app.exception
    app.radio(key="rt_w_source").set_value("Romania (AIMA)").run()
    assert not app.exception and not app.error
    assert app.multiselect(key="rt_w_algos").value == ["BFS", "Weighted A*"]
    assert app.slider(key="rt_w_w").value == 3.0
    assert app.selectbox(key="rt_w_goal").value == "Neamt"
    app.run()  # the next run still searches with them
    text = _markdown(app)
    assert "**Weighted A\\*** route" in text and "**BFS** route" in text
    assert _route_map(app)[1]["title"] == "Romania (AIMA): Arad → Neamt"
    assert app.query_params["w"] == "3.0" and app.query_params["goal"] == "Neamt"


def test_a_link_with_only_unknown_algorithms_uses_the_defaults_and_says_so():
    app = _app(algos="Foo|Bar")
    assert not app.exception
    assert app.multiselect(key="rt_w_algos").value == [
        "A*",
        'Course "B*"',
        "Uniform-cost",
        "Greedy best-first",
    ]
    assert any("algos=Foo\\|Bar is not algorithm names joined by |" in w.value for w in app.warning)
    assert "**A\\*** route (cost 418)" in _markdown(app)


def test_a_link_with_an_unknown_place_or_heuristic_says_what_is_used_instead():
    app = _app(start="Paris", goal="Mehadia", heuristic="Book table: km to Paris")
    assert not app.exception
    said = [w.value for w in app.warning if w.value.startswith("The link's")]
    assert said == [
        "The link's start “Paris” is not on this map's list, so “Arad” is used.",
        "The link's heuristic “Book table\\: km to Paris” is not on this map's list, so "
        "“Straight line” is used.",
    ]
    assert app.query_params["goal"] == "Mehadia" and app.query_params["start"] == "Arad"
    app.run()  # said once, for the link
    assert not [w for w in app.warning if w.value.startswith("The link's")]


def test_a_link_with_numbers_out_of_range_is_clamped_and_says_so():
    app = _app(source="Grid with obstacles", rows="9999", w="999", seed="12")
    assert not app.exception
    said = [w.value for w in app.warning if w.value.startswith("The link's")]
    assert said == [
        "The link's rows=9999 is outside this page's range 5–60; using 60.",
        "The link's w=999 is outside this page's range 1–5; using 5.",
    ]
    assert app.slider(key="rt_w_rows").value == 60 and app.slider(key="rt_w_w").value == 5.0
    assert app.number_input(key="rt_w_seed").value == 12  # in range: no message
    app.run()  # said once, for the link
    assert not [w for w in app.warning if w.value.startswith("The link's")]


def test_a_link_with_some_unknown_algorithms_keeps_the_known_ones():
    app = _app(algos="BFS|Foo")
    assert app.multiselect(key="rt_w_algos").value == ["BFS"]
    assert any("unknown algorithm(s) Foo" in w.value for w in app.warning)


def test_every_table_on_screen_has_readable_column_labels():
    app = _app()
    assert len(app.dataframe) >= 4  # routes, frontier, summary, roads
    for frame in app.dataframe:
        config = json.loads(frame.proto.columns)
        for column in frame.value.columns:
            label = config[column]["label"]
            # "ms" is already readable (a unit, with a help text): the one column kept as named
            assert "_" not in label and (label != column or column == "ms"), (column, label)
    labels = [json.loads(f.proto.columns) for f in app.dataframe]
    summary = next(c for c in labels if "optimal_share" in c)
    assert summary["optimal_share"]["label"] == "Shortest"
    assert summary["optimal_share"]["type_config"]["format"] == "percent"
    # on screen the summary leaves out mean_generated (it is in the CSV) to fit 1024 px
    shown = next(f for f in app.dataframe if "optimal_share" in f.value.columns)
    assert list(shown.proto.column_order) == [
        "algorithm",
        "pairs",
        "optimal_share",
        "suboptimal_pairs",
        "mean_excess_pct",
        "max_excess_pct",
        "mean_expanded",
        "mean_ms",
    ]
    assert "mean_generated" in shown.value.columns


def _rest_player_on(app: AppTest, step: int) -> AppTest:
    """Run the page as when the player's slider rests on ``step``.

    AppTest cannot drive the player: this sets the page's step as the player's
    callback does (``routes_steps._follow_player``, tested on its own).
    """
    app.session_state[routes_common.value_key("step")] = step
    return app.run()


def test_the_player_s_step_shows_the_frontier_at_that_step():
    app = _app()
    _rest_player_on(app, 2)
    assert not app.exception
    assert "Step 2: push **Zerind**, reached from **Arad**" in _markdown(app)
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    expected = [graphs.node_label(e.node) for e in search.trace_state(traced.trace, 2).frontier]
    table = next(d.value for d in app.dataframe if "f" in d.value.columns)
    assert list(table["node"]) == expected
    assert "side" not in table.columns  # one-directional search: no empty "Side" column
    app.multiselect(key="rt_w_algos").set_value(["Bidirectional UCS"]).run()
    table = next(d.value for d in app.dataframe if "f" in d.value.columns)
    assert set(table["side"]) <= {"forward", "backward"} and "side" in table.columns


def test_generated_grid_from_the_url():
    app = _app(source="Grid with obstacles", rows="12", cols="15", obstacles="30", seed="3")
    assert not app.exception and not app.error
    G = graphs.grid(12, 15, obstacles=0.3, seed=3, corridor=True)
    best = nx.dijkstra_path_length(G, (0, 0), (11, 14))
    assert f"**A\\*** route (cost {best:.4g}): 0,0 →" in _markdown(app)
    assert app.slider(key="rt_w_rows").value == 12
    # the goal's label names the bottom-right cell as row,column
    assert G.nodes[(11, 14)]["pos"] == (14, 11)
    assert any(c.value.startswith("Cells are named *row,column*") for c in app.caption)


def test_random_graph_and_diagonal_grid_run():
    app = _app()
    app.radio(key="rt_w_source").set_value("Random graph").run()
    assert not app.exception and not app.error
    assert "route (cost" in _markdown(app)
    app.radio(key="rt_w_source").set_value("Grid with obstacles").run()
    app.toggle(key="rt_w_diagonal").set_value(True).run()
    assert not app.exception and not app.error
    assert app.selectbox(key="rt_w_heuristic").value == graphs.OCTILE


def test_upload_reports_bad_files_and_searches_good_ones():
    app = _app(source="Upload")
    assert not app.exception
    edges = app.get("file_uploader")[0]
    edges.set_value(("roads.csv", b"source,target,weight\nA,B,1\nB,C,lots\n", "text/csv")).run()
    assert not app.exception
    expected = "roads.csv, line 3, column 'weight': 'lots' is not a number"
    assert escape_markdown(expected) in app.error[0].value
    edges = app.get("file_uploader")[0]
    edges.set_value(("roads.csv", b"source,target,weight\nA,B,1\nB,C,2\nA,C,5\n", "text/csv"))
    app.run()
    assert not app.exception and not app.error
    assert "(cost 3)" in _markdown(app)


def test_upload_in_two_parts_says_no_path_and_which_pairs_were_left_out():
    app = _app(source="Upload")
    data = b"source,target,weight\nA,B,1\nB,C,2\nD,E,1\n"
    app.get("file_uploader")[0].set_value(("parts.csv", data, "text/csv")).run()
    assert not app.exception and not app.error  # it opens on a pair that has a route
    assert (app.selectbox(key="rt_w_start").value, app.selectbox(key="rt_w_goal").value) == (
        "A",
        "C",
    )
    app.selectbox(key="rt_w_goal").set_value("E").run()  # in the other part of the map
    assert [e.value for e in app.error] == [
        "No path: E cannot be reached from A (they are in different parts of the map)."
    ]
    assert any(i.value.startswith("Nothing to animate: none of the") for i in app.info)
    G = graphs.load_graph_csv(data)
    ordered = list(itertools.permutations(G.nodes, 2))
    linked = [(s, t) for s, t in ordered if nx.has_path(G, s, t)]
    captions = " ".join(c.value for c in app.caption)
    assert f"{len(ordered) - len(linked)} of the {len(ordered)} pairs have no route" in captions
    summary = next(d.value for d in app.dataframe if "pairs" in d.value.columns)
    assert set(summary["pairs"]) == {len(linked)}


def test_uploaded_place_names_are_shown_as_text_not_markdown():
    app = _app(source="Upload")
    edges = app.get("file_uploader")[0]
    evil = "![x](http://attacker.example/i.png)"
    data = f'source,target,weight\n"{evil}",B,1\nB,"[c](javascript:alert(1))",2\n'
    edges.set_value(("roads.csv", data.encode(), "text/csv")).run()
    assert not app.exception and not app.error
    app.selectbox(key="rt_w_start").set_value(evil).run()
    app.selectbox(key="rt_w_goal").set_value("[c](javascript:alert(1))").run()
    assert not app.exception and not app.error
    text = _markdown(app)
    assert "(cost 3)" in text
    assert escape_markdown(evil) in text and "](" not in text


def test_upload_accepts_a_semicolon_separated_file():
    app = _app(source="Upload")
    edges = app.get("file_uploader")[0]
    edges.set_value(("roads.csv", b"source;target;weight\nA;B;1,5\nB;C;2\nA;C;5\n", "text/csv"))
    app.run()
    assert not app.exception and not app.error
    assert "(cost 3.5)" in _markdown(app)


def test_book_table_only_works_towards_bucharest():
    app = _app(heuristic=graphs.BOOK)
    assert not app.exception and not app.error
    # the course's "B*" also needs h(start, n): one note, not a red error
    assert [i.value for i in app.info][:1] == [
        'The course\'s "B*" also needs h(start, n), the distance from the start to each place, '
        "which a table of distances to Bucharest does not have: choose a straight-line "
        "heuristic to run it."
    ]
    assert "**A\\*** route (cost 418)" in _markdown(app)
    indexes = [list(d.value.get("algorithm", [])) for d in app.dataframe]
    assert ["A*", "Uniform-cost", "Greedy best-first"] in indexes
    assert "checked towards Bucharest, the only goal its table knows" in _markdown(app)
    app.selectbox(key="rt_w_goal").set_value("Iasi").run()
    assert not app.exception and not app.error
    blocked = [w.value for w in app.warning if "only gives distances to Bucharest" in w.value]
    assert len(blocked) == 1  # one message for every algorithm that needs the table
    assert escape_markdown('A*, Course "B*", Greedy best-first') in blocked[0]
    best = nx.dijkstra_path_length(graphs.romania(), "Arad", "Iasi")
    assert f"**Uniform\\-cost** route (cost {best:.4g})" in _markdown(app)  # h-free ones run


def test_romania_straight_line_warns_next_to_the_choice_and_names_the_admissible_ones():
    app = _app()
    roads = graphs.romania()
    longer = sorted(
        f"{u}–{v}"
        for u, v, w in roads.edges(data="weight")
        if graphs.StraightLine.of(roads)(u, v) > w
    )
    warning = app.warning[0].value
    assert warning.startswith("**Straight line is not admissible on this map**")
    assert f"on {len(longer)} road(s)" in warning
    for road in longer:
        assert road in warning or "–".join(reversed(road.split("–"))) in warning
    assert escape_markdown(graphs.SCALED) in warning and escape_markdown(graphs.BOOK) in warning
    text = _markdown(app)
    assert "Multiplied by at most 0.508" in text
    for name in (graphs.SCALED, graphs.ZERO):
        app.selectbox(key="rt_w_heuristic").set_value(name).run()
        assert not app.exception
        assert not any("not admissible" in w.value for w in app.warning)
    app.selectbox(key="rt_w_heuristic").set_value(graphs.SCALED).run()
    assert "**admissible**, **consistent**" in _markdown(app)


def test_compare_form_runs_the_chosen_algorithms():
    app = _app()
    _compare_algos(app).set_value(["BFS", "Uniform-cost"])
    next(b for b in app.button if b.label == "Compare on all pairs").click().run()
    assert not app.exception
    indexes = [list(d.value.get("algorithm", [])) for d in app.dataframe]
    assert ["BFS", "Uniform-cost"] in indexes


def test_compare_unordered_pairs_as_the_course_counts_them():
    app = _app()
    G = graphs.romania()
    pairs = list(itertools.combinations(G.nodes, 2))
    radio = next(r for r in app.radio if r.label == "Pairs")
    assert radio.options == ["Ordered: A→B and B→A (380)", "Unordered, as the course (190)"]
    radio.set_value("Unordered, as the course (190)")
    _compare_algos(app).set_value(['Course "B*"', "A*"])
    next(b for b in app.button if b.label == "Compare on all pairs").click().run()
    assert not app.exception
    summary = next(d.value for d in app.dataframe if "pairs" in d.value.columns)
    assert set(summary["pairs"]) == {len(pairs)}
    h = graphs.StraightLine.of(G)
    longer = [
        (s, t)
        for s, t in pairs
        if search.ALGORITHMS['Course "B*"'](G, s, t, h).cost
        > nx.dijkstra_path_length(G, s, t) + 1e-9
    ]
    assert longer  # the course's variant does lose on some unordered pairs
    warning = next(w.value for w in app.warning if "returns a longer route" in w.value)
    assert f"on {len(longer)} of {len(pairs)} pairs" in warning


def _route_map(app: AppTest) -> tuple[object, dict]:
    """The route map's element (an ``UnknownElement`` under AppTest) and the data it got."""
    (element,) = [e for e in app.get("bidi_component") if e.proto.id.endswith("-rt_map")]
    return element, json.loads(element.proto.json)


def _click_map(app: AppTest, place: object) -> AppTest:
    """Run ``app`` as the browser does after a click on the map: its trigger ``click``."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    element, _ = _route_map(app)
    states = app._tree.get_widget_states()  # the other widgets as they are
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": "click", "value": place}])
    return app._run(states)


def test_the_route_map_gets_the_routes_found_and_the_ends():
    app = _app(algos="A*|BFS")
    assert not app.exception
    _, data = _route_map(app)
    G = graphs.romania()
    nodes = list(G.nodes)
    h = graphs.make_heuristic(G, "Straight line")
    found = {name: search.run(name, G, "Arad", "Bucharest", h) for name in ("A*", "BFS")}
    assert [r["name"] for r in data["routes"]] == [
        f"{name}: {r.cost:.4g} ({r.expanded} expanded)" for name, r in found.items()
    ]
    assert [[nodes[i] for i in animation.unpack(r["places"])] for r in data["routes"]] == [
        list(found[name].path) for name in found
    ]
    assert (data["start"], data["goal"]) == (nodes.index("Arad"), nodes.index("Bucharest"))
    assert data["title"] == "Romania (AIMA): Arad → Bucharest"
    assert len(json.dumps(data)) < 20_000


def test_clicks_on_the_map_alternate_start_and_goal_and_the_same_place_works_twice():
    app = _app(algos="A*")
    nodes = list(graphs.romania().nodes)
    next_click = lambda: _route_map(app)[1]["clickNext"]  # noqa: E731 (the map's hint)
    assert next_click() == "start"
    _click_map(app, nodes.index("Timisoara"))
    assert not app.exception
    assert app.query_params["start"] == "Timisoara" and app.query_params["goal"] == "Bucharest"
    assert next_click() == "goal"
    _click_map(app, nodes.index("Fagaras"))
    assert app.query_params["start"] == "Timisoara" and app.query_params["goal"] == "Fagaras"
    _, data = _route_map(app)
    assert (data["start"], data["goal"]) == (nodes.index("Timisoara"), nodes.index("Fagaras"))
    best = nx.dijkstra_path_length(graphs.romania(), "Timisoara", "Fagaras")
    assert f"**A\\*** route (cost {best:.4g})" in _markdown(app)
    _click_map(app, nodes.index("Oradea"))
    _click_map(app, nodes.index("Oradea"))  # the same place again: now the goal
    assert app.query_params["start"] == "Oradea" and app.query_params["goal"] == "Oradea"


@pytest.mark.parametrize("place", [-1, 20, 2.5, "Arad", None, True])
def test_a_click_that_names_no_place_changes_nothing(place):
    app = _app(algos="A*")
    _click_map(app, place)
    assert not app.exception
    assert app.query_params["start"] == "Arad" and app.query_params["goal"] == "Bucharest"
    assert _route_map(app)[1]["clickNext"] == "start"


def test_upload_offers_the_bundled_examples_as_they_are_on_disk():
    import pandas as pd

    from lib.common import safe_csv_bytes

    app = _app(source="Upload")
    keys = {b.key for b in app.get("download_button")}
    assert {"rt_w_example_edges", "rt_w_example_nodes"} <= keys
    for path in (graphs.ROMANIA_EDGES_CSV, graphs.ROMANIA_NODES_CSV):  # what the page serves
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
        # as on disk, written for spreadsheets: a UTF-8 byte order mark and CR LF row ends
        on_disk = path.read_bytes()
        assert safe_csv_bytes(table) == b"\xef\xbb\xbf" + on_disk.replace(b"\n", b"\r\n")


def test_comparison_leaves_out_an_algorithm_that_gives_up(monkeypatch):
    monkeypatch.setattr("lib.ui.routes_common.MAX_EXPANSIONS", 5)
    app = _app(source="Grid with obstacles", rows="10", cols="10", algos="A*|IDA*")
    assert not app.exception
    # the route search names IDA* once
    assert next(e.value for e in app.error if "gave up" in e.value).startswith("IDA\\* gave up")
    _compare_algos(app).set_value(["A*", "IDA*"])
    next(b for b in app.button if b.label == "Compare on a sample of pairs").click().run()
    assert not app.exception
    assert any(w.value.startswith("IDA\\* is left out of this comparison") for w in app.warning)
    summary = next(d.value for d in app.dataframe if "pairs" in d.value.columns)
    assert list(summary["algorithm"]) == ["A*"]


def test_the_frontier_table_says_what_f_and_h_hold_and_they_do():
    app = _app(algos='Weighted A*|Course "B*"', w="2.0", start="Sibiu", goal="Mehadia")
    G = graphs.romania()
    line = graphs.StraightLine.of(G)
    node = {graphs.node_label(n): n for n in G}
    checks = {
        "Weighted A*": lambda n: 2.0 * line(n, "Mehadia"),
        'Course "B*"': lambda n: line(n, "Mehadia") + line("Sibiu", n),
    }
    for name, h in checks.items():
        app.selectbox(key="rt_w_anim").set_value(name).run()
        _rest_player_on(app, 3)
        assert not app.exception
        table = next(d.value for d in app.dataframe if "f" in d.value.columns)
        assert len(table) > 0
        for row in table.itertuples():
            assert row.f == pytest.approx(row.g + row.h)
            assert row.h == pytest.approx(h(node[row.node]))
        caption = next(c.value for c in app.caption if c.value.startswith(escape_markdown(name)))
        assert "w = 2.0" in caption if name == "Weighted A*" else "h(start, n)" in caption


def test_upload_with_lengths_too_large_to_add_up_is_refused_with_its_line():
    app = _app(source="Upload")
    data = b"source,target,weight\nA,B,1\nB,C,1e308\n"
    app.get("file_uploader")[0].set_value(("big.csv", data, "text/csv")).run()
    assert not app.exception
    assert [e.value for e in app.error] == [
        escape_markdown(
            "big.csv, line 3, column 'weight': '1e308' is too large; numbers up to "
            "1,000,000,000,000 in size are accepted (route lengths add many of them up)."
        )
    ]


def _animation(app: AppTest) -> dict:
    """The step map player's data as sent to the browser (a custom component's JSON)."""
    (player,) = [c for c in app.get("bidi_component") if c.proto.id.endswith("-rt_animation")]
    return json.loads(player.proto.json)


def _step_view(app: AppTest) -> tuple[int, str, str, str]:
    """What the step section shows: the step, the map's step label, the marked code line, the step.

    The map's label and the code's marked line are drawn by the player from its data
    (``stepLabel`` and ``markLine`` in ``route_player.js``): those of the step it opens at.
    """
    data = _animation(app)
    step = k = data["step"]
    current = int(animation.unpack(data["current"])[k])
    about = int(animation.unpack(data["about"])[k])
    part = data["parts"][animation.unpack(data["part"])[k]]
    label = f"step {k}: " + (data["notes"].get(str(k), "start") if current < 0 else part)
    if current >= 0:
        label += " " + data["names"][about]
        if about != current:
            label += f" {'via' if part == 'update' else 'from'} {data['names'][current]}"
    line = int(animation.unpack(data["code"]["stepLine"])[k])  # the code panel's marked line
    marked = "".join(text for _, text in data["code"]["lines"][line - 1]) if line else ""
    sentence = next(m.value for m in app.markdown if m.value.startswith("Step "))
    return step, label, marked, sentence


def test_one_step_control_drives_the_map_the_code_and_the_table():
    app = _app()
    G = graphs.romania()
    traced = search.astar(G, "Arad", "Bucharest", graphs.StraightLine.of(G), record_trace=True)
    source, parts = explain.pseudocode(explain.CODE["A*"])
    lines = source.splitlines()
    step, title, marked, sentence = _step_view(app)
    assert step == 0 and "step 0:" in title and sentence.startswith("Step 0: the start")
    assert marked == lines[parts[search.Part.PUSH][0] - 1]  # the start's push
    app.button(key="rt_w_next").click().run()
    step, title, marked, sentence = _step_view(app)
    assert step == 1 and "step 1: pop Arad" in title and sentence.startswith("Step 1: pop **Arad**")
    assert "heappop(frontier)" in marked
    _rest_player_on(app, 3)
    step, title, marked, _ = _step_view(app)
    state = search.trace_state(traced.trace, 3)
    assert step == 3 and "step 3:" in title and "heappush(frontier" in marked
    table = next(d.value for d in app.dataframe if "f" in d.value.columns)
    assert list(table["node"]) == [graphs.node_label(e.node) for e in state.frontier]
    app.button(key="rt_w_back").click().run()
    assert _step_view(app)[0] == 2
    assert not app.exception


def test_the_player_s_slider_is_the_one_step_control():
    """No second step slider on the page: the player's reports its step (the callback's key)."""
    app = _app()
    assert not [s for s in app.slider if "step" in s.label.lower()]
    assert any(c.value.startswith("One step control:") for c in app.caption)
    assert _animation(app)["step"] == 0 and not app.exception


def test_the_map_holds_the_whole_search_and_plays_it_without_the_server():
    app = _app()
    last = len(animation.unpack(_animation(app)["current"])) - 1
    _rest_player_on(app, 5)
    data = _animation(app)
    assert data["frames"] == animation.frame_steps(last)  # a play's frames, sent once
    assert data["step"] == 5 and len(animation.unpack(data["current"])) == last + 1
    before = data["digest"]
    app.button(key="rt_w_next").click().run()
    assert _animation(app)["step"] == 6 and _animation(app)["digest"] == before  # kept drawn
    assert not [b for b in app.button if "Play" in b.label]  # no server-side play: no timer
    assert not app.exception


def test_a_new_question_starts_the_steps_again_with_that_algorithm_s_code():
    app = _app(algos="A*|BFS")
    _rest_player_on(app, 3)
    app.selectbox(key="rt_w_anim").set_value("BFS").run()
    step, label, _, _ = _step_view(app)
    assert step == 0 and label.startswith("step 0:")
    assert _animation(app)["title"] == "BFS"
    first_line = "".join(text for _, text in _animation(app)["code"]["lines"][0])
    assert first_line.strip() == "def bfs(" and not app.code  # the code is in the player
    app.button(key="rt_w_next").click().run()
    assert "[expand]" in _step_view(app)[2]


def test_bidirectional_steps_say_which_side_expanded():
    app = _app(algos="Bidirectional UCS")
    G = graphs.romania()
    traced = search.bidirectional_uniform_cost(G, "Arad", "Bucharest", record_trace=True)
    for step in (1, 2, 3):
        _rest_player_on(app, step)
        state = search.trace_state(traced.trace, step)
        assert state.side in ("forward", "backward")
        expected = (
            f"Step {step}: expanded **{escape_markdown(str(state.current))}** ({state.side});"
        )
        assert expected in _markdown(app)


@pytest.mark.parametrize(("diagonal", "name"), [("False", "Manhattan"), ("True", "Octile")])
def test_grid_heuristic_report_names_the_grid_distance_not_a_straight_line(diagonal, name):
    app = _app(source="Grid with obstacles", rows="8", cols="10", diagonal=diagonal)
    assert not app.exception and app.selectbox(key="rt_w_heuristic").value == name
    G = graphs.grid(8, 10, obstacles=0.25, diagonal=diagonal == "True", seed=1, corridor=True)
    h = graphs.make_heuristic(G, name)
    roads = [(u, v, w) for u, v, w in G.edges(data="weight")]
    excess = max(h(u, v) - w for u, v, w in roads)
    assert excess <= 1e-9  # the grid distance never exceeds a step: the report must say so
    text = _markdown(app) + " ".join(c.value for c in app.caption)
    assert f"The {name} distance is never longer than a road" in text
    assert f"against the {name} distance between its ends" in text
    assert "straight line" not in text.lower()
    roads_table = next(f for f in app.dataframe if "straight_line" in f.value.columns)
    assert json.loads(roads_table.proto.columns)["straight_line"]["label"] == f"{name} distance"


def test_a_big_map_says_its_comparison_is_a_sample_of_how_many_pairs():
    app = _app(source="Grid with obstacles", rows="10", cols="12")
    G = graphs.grid(10, 12, obstacles=0.25, seed=1, corridor=True)
    ordered = G.number_of_nodes() * (G.number_of_nodes() - 1)
    assert ordered > 400  # over the page's all-pairs cap: nothing runs until asked
    assert [i.value for i in app.info if "ordered pairs" in i.value] == [
        f"This map has {ordered:,} ordered pairs of places, too many to search on every "
        "visit: press the button to compare the algorithms on a seeded random sample of them "
        "(*At most* sets its size)."
    ]
    next(b for b in app.button if b.label == "Compare on a sample of pairs").click().run()
    assert not app.exception and not [i for i in app.info if "ordered pairs" in i.value]
    captions = " ".join(c.value for c in app.caption)
    assert f"pair(s), a seeded random sample of 400 of the map's {ordered:,}." in captions
    summary = next(d.value for d in app.dataframe if "pairs" in d.value.columns)
    linked = [
        (s, t) for s, t in compare.choose_pairs(G, max_pairs=400, seed=0) if nx.has_path(G, s, t)
    ]
    assert set(summary["pairs"]) == {len(linked)}


def test_a_first_visit_compares_and_checks_nothing_until_their_sections_are_opened(monkeypatch):
    calls = {"all_pairs": 0, "check": 0}
    all_pairs, check = compare.all_pairs, compare.check_heuristic

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(compare, "all_pairs", counted("all_pairs", all_pairs))
    monkeypatch.setattr(compare, "check_heuristic", counted("check", check))
    routes_common.heuristic_check.clear()  # shared by sessions: another test may have filled it
    app = _app(sections_open=False)
    assert not app.exception and not app.error
    assert calls == {"all_pairs": 0, "check": 0}
    labels = [e.label for e in app.expander]
    assert any(label.startswith("Compare the algorithms on every pair") for label in labels)
    assert any(label.startswith("Check the heuristic") for label in labels)
    assert not any("pairs" in d.value.columns for d in app.dataframe)  # no summary yet
    assert "checked towards" not in _markdown(app)

    app.session_state[routes_page.COMPARISON_OPEN_KEY] = True  # the visitor opens it
    app.run()
    assert calls["all_pairs"] == 1 and calls["check"] == 0
    assert "Compared on 380 ordered pair(s)." in " ".join(c.value for c in app.caption)
    app.session_state[routes_page.CHECK_OPEN_KEY] = True
    app.run()
    assert calls["all_pairs"] == 1  # kept in the session, not compared again
    assert "**Straight line**, checked towards every goal" in _markdown(app)
    assert calls == {"all_pairs": 1, "check": 1}


def test_romania_compares_every_pair_without_calling_it_a_sample():
    app = _app()
    captions = " ".join(c.value for c in app.caption)
    assert "Compared on 380 ordered pair(s)." in captions and "sample" not in captions


def test_upload_names_places_of_the_nodes_csv_that_no_road_reaches():
    app = _app(source="Upload")
    edges = b"source,target,weight\nA,B,1\nB,C,2\n"
    nodes = b"node,x,y\nA,0,0\nB,1,0\nC,2,0\nBucarest,5,5\n"
    uploaders = app.get("file_uploader")
    uploaders[0].set_value(("roads.csv", edges, "text/csv"))
    uploaders[1].set_value(("places.csv", nodes, "text/csv")).run()
    assert not app.exception and not app.error
    G = graphs.load_graph_csv(edges, nodes)
    assert list(nx.isolates(G)) == ["Bucarest"]
    assert [w.value for w in app.warning if "no road" in w.value] == [
        "1 place(s) of the nodes CSV have no road in the edges CSV: Bucarest. No route "
        "reaches them; check their spelling in both files."
    ]
    assert not any(c.value.startswith("No nodes CSV") for c in app.caption)


def test_upload_without_coordinates_says_why_the_only_heuristic_is_zero():
    app = _app(source="Upload")
    edges = b"source,target,weight\nA,B,1\nB,C,2\n"
    app.get("file_uploader")[0].set_value(("roads.csv", edges, "text/csv")).run()
    assert not app.exception and not app.error
    assert app.selectbox(key="rt_w_heuristic").options == graphs.heuristic_choices(
        graphs.load_graph_csv(edges)
    )
    assert len(app.selectbox(key="rt_w_heuristic").options) == 1
    assert any(c.value.startswith("No nodes CSV: the places are drawn") for c in app.caption)
    assert not [w for w in app.warning if "no road" in w.value]


def test_comparing_only_the_course_bstar_with_the_book_table_says_why_nothing_runs():
    app = _app(heuristic=graphs.BOOK)
    _compare_algos(app).set_value(['Course "B*"'])
    next(b for b in app.button if b.label.startswith("Compare on")).click().run()
    assert not app.exception
    warnings = [w.value for w in app.warning]
    assert [w for w in warnings if "cannot run with the book" in w] == [
        "The course's \"B*\" cannot run with the book's table (it needs h(start, n)): "
        "choose another algorithm or heuristic to compare."
    ]
    assert "Choose at least one algorithm to compare." not in warnings


def test_comparing_no_algorithm_says_to_choose_one():
    app = _app()
    _compare_algos(app).set_value([])
    next(b for b in app.button if b.label == "Compare on all pairs").click().run()
    assert not app.exception
    assert "Choose at least one algorithm to compare." in [w.value for w in app.warning]


def test_a_link_with_a_diagonal_value_not_understood_says_so():
    app = _app(source="Grid with obstacles", rows="6", cols="8", diagonal="maybe")
    assert not app.exception
    assert "The link's diagonal=maybe is not yes or no; using false." in [
        w.value for w in app.warning
    ]
    assert app.toggle(key="rt_w_diagonal").value is False
    app = _app(source="Grid with obstacles", rows="6", cols="8", diagonal="yes")
    assert not app.warning and app.toggle(key="rt_w_diagonal").value is True
    assert app.query_params["diagonal"] == "True"  # the link is rewritten as the page writes it


def test_replacing_only_the_edges_file_opens_the_new_map_on_a_pair_with_a_route():
    # the old goal (D) is on the new map too, but in another part of it: the page kept it
    # and opened on "No path", where the README promises a map never opens on such a pair
    app = _app(source="Upload")
    first = b"source,target,weight\nA,B,1\nB,C,1\nC,D,1\n"
    app.get("file_uploader")[0].set_value(("roads.csv", first, "text/csv")).run()
    assert (app.selectbox(key="rt_w_start").value, app.selectbox(key="rt_w_goal").value) == (
        "A",
        "D",
    )
    second = b"source,target,weight\nA,B,2\nB,E,1\nC,D,1\n"
    app.get("file_uploader")[0].set_value(("roads.csv", second, "text/csv")).run()
    assert not app.exception and not app.error
    G = graphs.load_graph_csv(second)
    start, goal = app.selectbox(key="rt_w_start").value, app.selectbox(key="rt_w_goal").value
    assert nx.has_path(G, start, goal) and (start, goal) == ("A", "E")  # the map's own pair
    assert f"(cost {nx.dijkstra_path_length(G, start, goal):.4g})" in _markdown(app)


def test_a_new_map_keeps_the_chosen_pair_when_a_route_still_joins_it():
    app = _app(source="Grid with obstacles", rows="10", cols="10", obstacles="0")
    app.selectbox(key="rt_w_goal").set_value("5,5").run()
    app.number_input(key="rt_w_seed").set_value(7).run()  # another grid, still no obstacle
    assert not app.exception and not app.error
    assert app.selectbox(key="rt_w_goal").value == "5,5"


def test_random_graph_road_report_writes_road_and_straight_line_to_the_same_decimals():
    # the closest call read "0.0 against a road of 0.04102": the straight line to one decimal
    app = _app(source="Random graph", n="300", seed="1")
    assert not app.exception
    G = graphs.random_geometric(300, seed=1)
    roads = compare.road_checks(G, graphs.StraightLine.of(G))
    places = compare.length_decimals(roads["road"])
    closest = roads.iloc[0]
    said = next(m.value for m in app.markdown if "closest" in m.value)
    line, road = f"{closest['straight_line']:.{places}f}", f"{closest['road']:.{places}f}"
    assert f"{line} against a road of {road}" in said
    assert float(line) > 0 and len(line.split(".")[1]) == len(road.split(".")[1])
    # three significant figures at least, for the typical road
    assert float(road) == pytest.approx(closest["road"], rel=5e-3)


def test_the_settings_are_in_the_sidebar_and_the_heuristic_warning_under_the_map():
    app = _app()
    in_sidebar = {w.key for w in app.sidebar.selectbox} | {w.key for w in app.sidebar.radio}
    in_sidebar |= {w.key for w in app.sidebar.multiselect} | {w.key for w in app.sidebar.slider}
    assert {"rt_w_source", "rt_w_start", "rt_w_goal", "rt_w_algos", "rt_w_heuristic"} <= in_sidebar
    assert "rt_w_w" in in_sidebar
    # in the main column: the title, the intro, the caption and then the map, no warning first
    main = [n for n in app.main.children.values() if n.type not in ("markdown", "caption", "title")]
    if main[0].type == "flex_container":  # the map's own section (a fragment): its first element
        main = [n for n in main[0].children.values() if n.type not in ("markdown", "caption")]
    assert main[0].type == "bidi_component", [node.type for node in main[:3]]
    assert main[0].proto.id.endswith("-rt_map")  # the route map
    assert app.main.warning[0].value.startswith("**Straight line is not admissible")


def test_a_big_map_checks_its_heuristic_when_asked():
    app = _app(source="Random graph", n="600", seed="2")
    assert not app.exception
    assert not any("checked towards" in m.value for m in app.markdown)  # not on the first visit
    app.button(key="rt_w_check").click().run()
    verdict = next(m.value for m in app.markdown if "checked towards" in m.value)
    assert "sampled goal(s)" in verdict and "admissible" in verdict
    app.run()  # and it stays for this map and heuristic
    assert any("checked towards" in m.value for m in app.markdown)


def test_an_empty_frontier_is_said_in_words_not_drawn_as_an_empty_table_over_its_caption():
    """Step 1 of A* pops Arad: nothing is left on the frontier. A zero-row table drew its
    "empty" placeholder over the caption under it; the page says it in a sentence instead,
    above the rule's caption."""
    app = _app()
    _rest_player_on(app, 1)
    assert not app.exception
    assert not [d for d in app.dataframe if "f" in d.value.columns and d.value.empty]
    texts = [(e.type, e.value) for e in app.main if e.type in ("markdown", "caption")]
    said = [i for i, (_, value) in enumerate(texts) if value.startswith("Frontier: empty")]
    rule = [i for i, (_, value) in enumerate(texts) if value == "A\\*: f = g + h."]
    assert len(said) == 1 and len(rule) == 1 and said[0] < rule[0]
    _rest_player_on(app, 2)  # Zerind pushed: a table again, no sentence
    assert next(d.value for d in app.dataframe if "f" in d.value.columns)["node"].tolist()
    assert not [m for m in app.markdown if m.value.startswith("Frontier: empty")]


def test_the_step_is_kept_in_the_link_and_a_link_opens_at_its_step():
    """Step ▶ writes the step (and the algorithm stepped through) to the address; a link
    with them opens the step-through there, past its end at the last step."""
    app = _app()
    app.button(key="rt_w_next").click().run()
    app.button(key="rt_w_next").click().run()
    assert app.query_params["step"] in ("2", ["2"])
    assert app.query_params["anim"] in ("A*", ["A*"])
    _rest_player_on(app, 7)  # the player's slider: the link follows it too
    assert app.query_params["step"] in ("7", ["7"])
    opened = _app(step="5", anim="A*")
    assert not opened.exception and not [w for w in opened.warning if "link" in w.value]
    step, _, _, sentence = _step_view(opened)
    assert step == 5 and sentence.startswith("Step 5:")
    G = graphs.romania()
    ucs = search.run("Uniform-cost", G, "Arad", "Bucharest", None, record_trace=True)
    other = _app(step="9999", anim="Uniform-cost", algos="A*|Uniform-cost")
    assert other.selectbox(key="rt_w_anim").value == "Uniform-cost"
    assert _step_view(other)[0] == len(ucs.trace) - 1  # past the end: the last step
