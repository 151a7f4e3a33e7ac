"""The route page under AppTest with the map's own trigger values: edits, drags, the race."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.routes import animation
from lib.ui import routes_common, routes_page

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "routes.py")
GRID = {
    "source": "Grid with obstacles", "rows": "6", "cols": "8", "obstacles": "0", "seed": "1",
    "algos": "A*", "start": "5,0", "goal": "5,7",
}  # fmt: skip


def _app(**query) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    return app.run()


def _component(app: AppTest, key: str) -> tuple[object, dict]:
    (element,) = [e for e in app.get("bidi_component") if e.proto.id.endswith(f"-{key}")]
    return element, json.loads(element.proto.json)


def _send(app: AppTest, event: str, value: object) -> AppTest:
    """Run ``app`` as the browser does after the route map sent trigger ``event``."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    element, _ = _component(app, routes_page.MAP_KEY)
    states = app._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": event, "value": value}])
    return app._run(states)


def _legend(app: AppTest) -> str:
    return _component(app, routes_page.MAP_KEY)[1]["routes"][0]["name"]


def test_a_wall_sent_by_the_map_reroutes_and_undo_and_reset_take_it_back():
    app = _app(**GRID)
    _, data = _component(app, routes_page.MAP_KEY)
    assert data["editable"] and _legend(app).startswith("A*: 7 ")
    app = _send(app, "edit", {"tool": "wall", "cells": [r for r in range(1, 6) for r in (r, 4)]})
    assert not app.exception and _legend(app).startswith("A*: 17 ")
    obstacles = animation.unpack(_component(app, routes_page.MAP_KEY)[1]["obstacles"])
    assert sorted(zip(obstacles[::2], obstacles[1::2], strict=True)) == [
        (r, 4) for r in range(1, 6)
    ]
    app = _send(app, "edit", {"tool": "cost 10", "cells": [0, 4]})
    costs = animation.unpack(_component(app, routes_page.MAP_KEY)[1]["costs"])
    assert list(costs) == [0, 4, 10] and _legend(app).startswith("A*: 26 ")  # 1 + 1 -> 5.5 + 5.5
    app.button(key="rt_w_edit_undo").click().run()
    assert _legend(app).startswith("A*: 17 ")
    app.button(key="rt_w_edit_reset").click().run()
    assert _legend(app).startswith("A*: 7 ") and "edits" not in app.query_params


def test_a_bad_edit_is_named_and_the_map_stays():
    app = _send(_app(**GRID), "edit", {"tool": "wall", "cells": [99, 0]})
    assert any("99,0 is outside the 6x8 grid" in w.value for w in app.warning)
    assert _legend(app).startswith("A*: 7 ")


def test_the_goal_dragged_on_romania_becomes_the_goal():
    app = _app(algos="A*")
    _, data = _component(app, routes_page.MAP_KEY)
    assert not data["editable"]
    from lib.routes.graphs import romania

    app = _send(app, "move", {"end": "goal", "place": list(romania().nodes).index("Fagaras")})
    assert _legend(app).startswith("A*: 239 ") and app.query_params["goal"] == "Fagaras"


def test_the_race_section_gets_each_racer():
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state[routes_common.RACE_OPEN_KEY] = True
    app.run()
    assert not app.exception
    _, data = _component(app, routes_common.RACE_KEY)
    assert data["mode"] == "race" and [r["name"] for r in data["racers"]] == ["A*", "Uniform-cost"]
    assert all(r["cost"] == 418 for r in data["racers"])
    race_box = next(m for m in app.multiselect if m.label.startswith("Algorithms to race"))
    race_box.set_value(["A*"]).run()
    assert any("at least two" in i.value for i in app.info)


def test_a_link_walling_every_cell_says_the_ends_are_walled_in_and_finds_no_route():
    import numpy as np

    from lib.routes import edits

    base = np.ones((6, 8), np.uint8)
    app = _app(**GRID, edits=edits.encode_terrain(base, np.zeros_like(base)))
    assert not app.exception
    (warning,) = [w.value for w in app.warning if "walled in" in w.value]
    assert "start 5,0" in warning and "goal 5,7" in warning
    assert any("none of the chosen algorithms returned a route" in i.value for i in app.info)
