"""The route page's race link under AppTest: which algorithms race and at what speed, on the
link's map; a bad value is named; a speed chosen in the race goes into the link."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from lib.ui import routes_common

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "routes.py")
GRID = {"source": "Grid with obstacles", "rows": "6", "cols": "8", "obstacles": "0", "seed": "1"}


def _app(**query: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    return app.run()


def _race(app: AppTest) -> tuple[object, dict]:
    key = routes_common.RACE_KEY
    (element,) = [e for e in app.get("bidi_component") if e.proto.id.endswith(f"-{key}")]
    return element, json.loads(element.proto.json)


def _param(app: AppTest, name: str) -> str | None:
    value = app.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def test_a_race_link_opens_the_race_with_its_algorithms_speed_and_map():
    app = _app(**GRID, race="BFS|A*|Greedy best-first", race_speed="4")
    assert not app.exception and not app.warning
    assert app.session_state[routes_common.RACE_OPEN_KEY] is True
    _, data = _race(app)
    assert [r["name"] for r in data["racers"]] == ["BFS", "A*", "Greedy best-first"]
    assert data["speed"] == 4.0
    assert data["title"] == f"{_param(app, 'start')} → {_param(app, 'goal')}"  # the link's map
    assert _param(app, "race") == "BFS|A*|Greedy best-first" and _param(app, "race_speed") == "4"
    assert _param(app, "rows") == "6" and _param(app, "cols") == "8"


def test_bad_race_values_are_named_and_the_defaults_race():
    app = _app(race="A*|Nope", race_speed="3")
    warnings = [w.value for w in app.warning]
    assert any(
        w.startswith("The link's race=A\\*\\|Nope is not 2 to 4 different") for w in warnings
    )
    assert "The link's race_speed=3 is not one of 0.25, 0.5, 1, 2, 4, 8; using 1." in warnings
    _, data = _race(app)
    assert [r["name"] for r in data["racers"]] == list(routes_common.DEFAULT_RACERS)
    assert data["speed"] == 1.0


def test_a_speed_chosen_in_the_race_goes_into_the_link():
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    app = _app(race="A*|BFS")
    element, _ = _race(app)
    states = app._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": "speed", "value": 0.25}])
    app = app._run(states)
    assert not app.exception
    assert _param(app, "race_speed") == "0.25" and _race(app)[1]["speed"] == 0.25
