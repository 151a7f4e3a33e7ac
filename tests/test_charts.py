"""lib.charts: every chart's text is at least MIN_FONT px, titles TITLE_FONT px."""

from __future__ import annotations

import plotly.graph_objects as go

from lib.charts import MIN_FONT, TITLE_FONT, readable


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
