"""The route page's search tree: the tree the animated search has built by the page's step."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import streamlit as st

from lib.routes import search_tree
from lib.routes.trace import TraceStep


def show_tree(trace: Sequence[TraceStep], step: int, goal: Hashable, title: str) -> None:
    """The search tree at ``step``, drawn at the page's step (the step section calls it).

    Big trees show the part around the node being expanded and say how many
    nodes are left out.
    """
    st.subheader("The search tree at this step")
    tree = search_tree.build(trace, step, goal=goal)
    shown = search_tree.window(tree)
    st.caption(
        "Each place reached is a node under the place it was reached from; rows are depths, "
        "children in the order they were pushed. Under each name: g + h = f. Orange: frontier, "
        "blue: explored, ringed red: the node being expanded, green: the route once the goal "
        "is reached. Hover a node for its values."
        + (
            f" This tree has {len(tree.nodes):,} nodes: shown are the expanded node's "
            "ancestors, siblings and children and the frontier nearest to it."
            if shown.hidden
            else ""
        )
    )
    st.plotly_chart(
        search_tree.tree_figure(shown, title=f"{title}: step {tree.step}"),
        key="rt_w_tree",
        config={"displayModeBar": False},
    )
