"""The route page's edit stack under AppTest: strokes, drags, undo, reset, folding, link edits."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    """A page holding a 5x6 grid's edits: the map's trigger values come from session state."""
    import streamlit as st

    from lib.routes import graphs, search
    from lib.ui import routes_common, routes_lab

    base = graphs.grid(5, 6, obstacles=0.0, seed=0, corridor=True)
    if routes_common.get("start") is None:
        routes_common.put("start", "4,0")
        routes_common.put("goal", "4,5")
    for name in ("edit", "move"):
        event = st.session_state.pop(f"fake_{name}", None)
        if event is not None:
            st.session_state["rt_map"] = {name: event}
            G, _ = routes_lab.edited_map(base, "g", False)
            routes_lab.map_events(G, base, "rt_map", "g")[f"on_{name}"]()
    G, key = routes_lab.edited_map(base, "g", st.session_state.pop("fake_first", False))
    start = graphs.find_node(G, routes_common.get("start"))
    goal = graphs.find_node(G, routes_common.get("goal"))
    st.text(f"cost {search.run('A*', G, start, goal).cost:g} key {key}")
    st.text(f"ends {routes_common.get('start')} {routes_common.get('goal')}")
    routes_lab.edit_controls(G, "g", base)


def _cost(app: AppTest) -> float:
    return float(app.text[0].value.split()[1])


def _link(app: AppTest) -> str:
    value = app.query_params["edits"]
    return value if isinstance(value, str) else value[0]


def _wall(app: AppTest, cells: list[tuple[int, int]]) -> AppTest:
    app.session_state["fake_edit"] = {"tool": "wall", "cells": [v for c in cells for v in c]}
    return app.run()


def test_strokes_undo_and_reset():
    app = AppTest.from_function(_script, default_timeout=30).run()
    assert _cost(app) == 5 and app.text[0].value.endswith("key g")
    app = _wall(app, [(r, 3) for r in range(1, 5)])
    assert _cost(app) == 13 and "-edited-" in app.text[0].value
    assert _link(app).startswith("1")
    app.session_state["fake_edit"] = {"tool": "cost 10", "cells": [0, 3]}
    app = app.run()
    assert _cost(app) == 13 + 9  # (1 + 10) / 2 twice, in place of 1 + 1
    app.button(key="rt_w_edit_undo").click().run()
    assert _cost(app) == 13
    app.button(key="rt_w_edit_reset").click().run()
    assert _cost(app) == 5 and "edits" not in app.query_params


def test_a_wall_spares_the_start_and_goal_and_a_bad_edit_is_named():
    app = AppTest.from_function(_script, default_timeout=30).run()
    app = _wall(app, [(4, 0), (4, 5)])
    assert _cost(app) == 5  # both ends stay free
    app.session_state["fake_edit"] = {"tool": "wall", "cells": [9, 9]}
    app = app.run()
    assert any("9,9 is outside the 5x6 grid" in w.value for w in app.warning)


def test_a_drag_moves_the_goal_and_undo_puts_it_back():
    app = AppTest.from_function(_script, default_timeout=30).run()
    app.session_state["fake_move"] = {"end": "goal", "place": 5}  # cell 0,5
    app = app.run()
    assert app.text[1].value == "ends 4,0 0,5" and _cost(app) == 9
    for junk in ({"end": "goal", "place": 99}, {"end": "x", "place": 1}, {"end": "goal"}):
        app.session_state["fake_move"] = junk
        app = app.run()
        assert app.text[1].value == "ends 4,0 0,5"
    app.button(key="rt_w_edit_undo").click().run()
    assert app.text[1].value == "ends 4,0 4,5"


def test_old_strokes_fold_into_one_past_the_undo_limit():
    from lib.ui import routes_lab

    app = AppTest.from_function(_script, default_timeout=30).run()
    for i in range(routes_lab.MAX_UNDO + 5):
        tool = "wall" if i % 2 == 0 else "erase"
        app.session_state["fake_edit"] = {"tool": tool, "cells": [1, 1]}
        app = app.run()
    stack = app.session_state[routes_lab.EDITS_KEY]["stack"]
    assert len(stack) <= routes_lab.MAX_UNDO and stack[0][0] == "load"
    assert _cost(app) == 5  # the last stroke (a wall at 1,1) does not block row 4


def test_a_link_s_edits_are_read_and_a_broken_one_is_refused_by_name():
    app = AppTest.from_function(_script, default_timeout=30).run()
    app = _wall(app, [(r, 3) for r in range(1, 5)])
    text = _link(app)
    fresh = AppTest.from_function(_script, default_timeout=30)
    fresh.query_params["edits"] = text
    fresh.session_state["fake_first"] = True
    fresh = fresh.run()
    assert _cost(fresh) == 13
    broken = AppTest.from_function(_script, default_timeout=30)
    broken.query_params["edits"] = "1AB+"
    broken.session_state["fake_first"] = True
    broken = broken.run()
    assert _cost(broken) == 5
    assert any("not base64url" in w.value for w in broken.warning)


def _map_script() -> None:
    """The route map section (:func:`routes_lab.show_map`) of a 5x6 grid; counts the runs."""
    import streamlit as st

    from lib.routes import graphs
    from lib.ui import routes_common, routes_lab, routes_page

    base = graphs.grid(5, 6, obstacles=0.0, seed=0, corridor=True)
    if routes_common.get("algos") is None:
        for name, value in (("algos", ["A*"]), ("w", 1.5), ("start", "4,0"), ("goal", "4,5")):
            routes_common.put(name, value)
    st.session_state["test_runs"] = st.session_state.get("test_runs", 0) + 1
    G, _ = routes_lab.edited_map(base, "g", False)
    q = routes_page.choose_question(G, "g", False)
    results = routes_lab.show_map(base, "g", G, q)
    st.text(f"cost {results['A*'].cost:g} from {graphs.node_label(q.start)}")


def _send(app: AppTest, event: str, value: object) -> AppTest:
    """Run ``app`` as the browser does after the route map sent trigger ``event``."""
    import json

    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    (element,) = [e for e in app.get("bidi_component") if e.proto.id.endswith("-rt_map")]
    states = app._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": event, "value": value}])
    return app._run(states)


def test_a_change_on_the_map_reruns_the_page_after_the_map_and_a_refused_edit_does_not():
    from lib.ui import routes_lab

    app = AppTest.from_function(_map_script, default_timeout=30).run()
    assert not app.exception and app.text[0].value == "cost 5 from 4,0"
    runs = app.session_state["test_runs"]
    app = _send(app, "edit", {"tool": "wall", "cells": [r for r in range(1, 5) for r in (r, 3)]})
    assert not app.exception and app.text[0].value == "cost 13 from 4,0"
    assert app.session_state["test_runs"] == runs + 2  # the event's run, then the page's
    assert routes_lab.FOLLOW_KEY not in app.session_state
    app = _send(app, "edit", {"tool": "wall", "cells": [9, 9]})  # outside: refused
    assert any("9,9 is outside the 5x6 grid" in w.value for w in app.warning)
    assert app.session_state["test_runs"] == runs + 3  # the warning stays: no second run
    app = _send(app, "move", {"end": "start", "place": 0})  # the start dragged to 0,0
    assert app.text[0].value == "cost 9 from 0,0"  # the question's start read again
    assert app.session_state["test_runs"] == runs + 5
