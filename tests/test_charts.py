"""lib.charts: every chart's text is at least MIN_FONT px, titles TITLE_FONT px."""

from __future__ import annotations

import re
from pathlib import Path

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from lib.charts import MIN_FONT, TEXT_COLOR, TITLE_FONT, readable

ROOT = Path(__file__).resolve().parents[1]


def test_readable_raises_small_text_and_keeps_larger_text():
    fig = go.Figure(
        [
            go.Bar(x=["a"], y=[1], text=["1"], textfont={"size": 9}),
            go.Scatter(
                x=[1, 2], y=[1, 2], mode="text", text=["p", "q"], textfont={"size": [10, 20]}
            ),
        ]
    )
    fig.add_annotation(text="big", font={"size": 22})
    fig.add_annotation(text="small", font={"size": 8})
    readable(fig)
    assert fig.layout.font.size == MIN_FONT and fig.layout.title.font.size == TITLE_FONT
    assert (
        fig.layout.xaxis.tickfont.size == MIN_FONT and fig.layout.yaxis.title.font.size == MIN_FONT
    )
    assert fig.data[0].textfont.size == MIN_FONT
    assert list(fig.data[1].textfont.size) == [MIN_FONT, 20]
    assert [a.font.size for a in fig.layout.annotations] == [22, MIN_FONT]


def test_readable_at_the_projector_s_size_raises_every_text_plotly_lays_out():
    fig = go.Figure(go.Scatter(x=[1], y=[1], name="a long legend entry", textfont={"size": 20}))
    readable(fig, min_font=16)
    assert fig.layout.font.size == 16 and fig.layout.legend.font.size == 16
    assert fig.layout.xaxis.tickfont.size == 16 and fig.layout.title.font.size == TITLE_FONT
    assert fig.data[0].textfont.size == 20
    assert readable(go.Figure(), min_font=24).layout.title.font.size == 24


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` or ``rgb(r, g, b)`` colours."""

    def luminance(colour: str) -> float:
        if colour.startswith("#"):
            channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        else:
            channels = [int(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3]]
        linear = [
            c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
            for c in channels
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def app_background() -> str:
    config = (ROOT / ".streamlit" / "config.toml").read_text()
    return re.search(r'^backgroundColor = "(#[0-9a-fA-F]{6})"', config, re.MULTILINE).group(1)


def test_contrast_ratio_matches_the_wcag_examples():
    assert round(contrast_ratio("#000000", "#ffffff"), 1) == 21.0
    assert contrast_ratio("#777777", "#ffffff") < 4.5 < contrast_ratio("#767676", "#ffffff")
    # Streamlit's grey for chart axis text: the "about 3.6:1"
    assert 3.5 < contrast_ratio("rgb(128, 132, 149)", "#ffffff") < 3.8


def test_every_chart_text_is_coloured_for_4_5_to_1_contrast():
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Scatter(x=[1], y=[1], name="a"))
    fig.add_trace(go.Scatter(x=[1], y=[2], name="b"), secondary_y=True)
    fig.add_trace(go.Heatmap(z=[[1, 2]], colorbar={"title": {"text": "z"}}))
    fig.add_annotation(text="note")
    fig.add_annotation(text="on a dark piece", font={"color": "#ffffff"})
    readable(fig)
    assert contrast_ratio(TEXT_COLOR, app_background()) >= 4.5
    layout = fig.layout
    assert layout.font.color == layout.title.font.color == layout.legend.font.color == TEXT_COLOR
    for axis in (layout.xaxis, layout.yaxis, layout.yaxis2):
        assert axis.tickfont.color == axis.title.font.color == TEXT_COLOR
    colorbar = fig.data[2].colorbar
    assert colorbar.tickfont.color == colorbar.title.font.color == TEXT_COLOR
    assert [a.font.color for a in layout.annotations] == [TEXT_COLOR, "#ffffff"]
