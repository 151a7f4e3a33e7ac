"""The invariant behind every page's seeded widgets: the default sent to the browser is the value.

A page seeds some widgets through ``st.session_state`` (a link's settings, a preset). The
browser draws a widget from the newest run it has received, which on a busy page can be a
later run than the seeding one, and a widget drawn that way starts at the default that run
sent. If that default is the widget's minimum or first choice, the seeded value is lost:
the race browser tests saw a link's depth 8 come back as 1 mid-game. Pages pass each seeded
widget its own value as its default (:func:`lib.ui.common.current`); this checks it.
"""

from __future__ import annotations

from typing import Any


def default_mismatches(container: Any) -> list[str]:
    """Widgets in ``container`` (an AppTest tree or block) whose default is not their value."""
    bad = []
    for widget in container.slider:
        if list(widget.proto.default) != [float(v) for v in _values(widget.value)]:
            bad.append(f"slider {widget.key}: default {list(widget.proto.default)}, {widget.value}")
    for widget in container.number_input:
        if widget.proto.default != widget.value:
            bad.append(f"number {widget.key}: default {widget.proto.default}, {widget.value}")
    for widget in [*container.toggle, *container.checkbox]:
        if widget.proto.default != widget.value:
            bad.append(f"toggle {widget.key}: default {widget.proto.default}, {widget.value}")
    for widget in [*container.selectbox, *container.radio]:
        if widget.proto.default != widget.index:
            bad.append(f"choice {widget.key}: default {widget.proto.default}, {widget.index}")
    for widget in container.date_input:
        shown = [day.isoformat() for day in _values(widget.value)]
        if list(widget.proto.default) != shown:
            bad.append(f"date {widget.key}: default {list(widget.proto.default)}, {shown}")
    return bad


def seeded_widget_count(container: Any) -> int:
    """How many value widgets ``container`` holds (so a check over none cannot pass)."""
    kinds = ("slider", "number_input", "toggle", "checkbox", "selectbox", "radio", "date_input")
    return sum(len(getattr(container, kind)) for kind in kinds)


def _values(value: Any) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)
