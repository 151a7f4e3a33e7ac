"""The presentation view: every page's main output large on a projector, the settings hidden.

The entry script calls :func:`presentation_toggle` once per run, before the page
runs, so every page honours the view without naming it: the toggle sits at the
top of the sidebar and is kept in the link as ``?present=1``. When it is on, the
page's settings (the sidebar's, and any main-area block a page wraps in
:func:`settings_block`) are hidden with CSS, not left out: hidden widgets keep
their values, so switching the view off shows the same settings again. Pages
that can draw their main output larger ask :func:`presenting`.

The view is for a room's back row: body text of at least :data:`BODY_TEXT_PX` px and
chart text of at least :data:`CHART_TEXT_PX` px, set with CSS so that every page's text
and charts follow without naming the view. A metric's label keeps its size (its value is
large): at 20 px a row of metrics wrapped and pushed the page's chart off the screen.

Whatever the view, narrow screens (a 1024x768 projector) get smaller page
margins than Streamlit's, so the main output fits beside the open sidebar.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from lib.links import LinkField
from lib.ui.common import read_query
from lib.ui.navigation import MENU_KEY

PRESENT_FIELD = LinkField("present", bool, False)
"""The link's ``?present=1``: open the page in the presentation view."""
TOGGLE_KEY = "app_w_present"
"""Widget key of the toggle (kept across pages: the entry script draws it)."""
BOX_KEY = "app_presentation"
"""Key of the sidebar container holding the toggle (the one sidebar block left shown)."""
SETTINGS_PREFIX = "present_hide_"
"""Key prefix of the main-area blocks the presentation view hides (see :func:`settings_block`)."""
SIDEBAR_WIDTH = 210
"""Pixel width of the sidebar in the presentation view: the page menu and the toggle."""
NARROW_SCREEN = 1200
"""Screens up to this many pixels wide get the narrow page margins."""

# Streamlit pads the main column by 5rem at each side and 6rem on top: at 1024 px with the
# sidebar open that left 564 px for the page, too little for a board with its panel beside it.
COMPACT_CSS = f"""
@media (max-width: {NARROW_SCREEN}px) {{
  [data-testid="stMainBlockContainer"] {{
    padding-left: 1.5rem !important;
    padding-right: 1.5rem !important;
    padding-top: 4rem !important;
  }}
  [data-testid="stMetricValue"] {{
    font-size: 1.6rem;  /* three metrics side by side in half the page keep their figures */
  }}
}}
"""

BODY_TEXT_PX = 20
"""Smallest body text in the presentation view (read from a room's back row)."""
CHART_TEXT_PX = 16
"""Smallest chart text in the presentation view (axes, legends, a board's labels)."""
_SMALLER = range(6, CHART_TEXT_PX)
# chart texts drawn smaller than CHART_TEXT_PX: plotly writes the size in the style
# attribute ("font-size: 14px"), the game board in the font-size attribute ("14")
_SMALL_PLOTLY_TEXT = ", ".join(
    f'[style*="font-size: {n}px"], [style*="font-size: {n}."]' for n in _SMALLER
)
_SMALL_BOARD_TEXT = ", ".join(f'[font-size="{n}"], [font-size^="{n}."]' for n in _SMALLER)

PRESENTATION_CSS = f"""
[data-testid="stSidebar"] {{
  width: {SIDEBAR_WIDTH}px !important;
  min-width: {SIDEBAR_WIDTH}px !important;
  max-width: {SIDEBAR_WIDTH}px !important;
}}
[data-testid="stSidebarUserContent"] [data-testid="stVerticalBlock"]:has(.st-key-{BOX_KEY})
  > :not(.st-key-{BOX_KEY}):not(:has(.st-key-{BOX_KEY}))\
:not(.st-key-{MENU_KEY}):not(:has(.st-key-{MENU_KEY})) {{
  display: none !important;
}}
[class*="st-key-{SETTINGS_PREFIX}"] {{
  display: none !important;
}}
[data-testid="stMainBlockContainer"] {{
  padding-left: 1.5rem !important;
  padding-right: 1.5rem !important;
  padding-top: 2.75rem !important;
}}
[data-testid="stMain"] h1 {{
  font-size: 2rem !important;
  padding-top: 0 !important;
  padding-bottom: 0.25rem !important;
}}
[data-testid="stMain"] :is(p, li, summary, label, code)\
:not(:is(h1, h2, h3, h4, h5, h6, [data-testid="stMetricLabel"]) *) {{
  font-size: {BODY_TEXT_PX}px !important;
}}
[data-testid="stMain"] .js-plotly-plot text:is({_SMALL_PLOTLY_TEXT}),
[data-testid="stMain"] .game-board-svg text:is({_SMALL_BOARD_TEXT}) {{
  font-size: {CHART_TEXT_PX}px !important;
}}
"""


def presentation_toggle() -> bool:
    """Draw the sidebar's "Presentation view" toggle and apply the view; True when it is on.

    The first run of a session takes the toggle's value from the link
    (``?present=1``; a value that is not yes/no is noted in the sidebar and
    ignored); after that the toggle is mirrored in the link.
    """
    notes: list[str] = []
    if TOGGLE_KEY not in st.session_state:
        values, notes = read_query((PRESENT_FIELD,))
        st.session_state[TOGGLE_KEY] = bool(values[PRESENT_FIELD.name])
    with st.sidebar.container(key=BOX_KEY):
        on = st.toggle(
            "Presentation view",
            key=TOGGLE_KEY,
            help="For a projector: hides the settings and draws the board, the map or the "
            "GA's answer larger. Switch it off to change the settings.",
        )
        for note in notes:
            st.caption(note)
    if on:
        if st.query_params.get(PRESENT_FIELD.name) != "1":
            st.query_params[PRESENT_FIELD.name] = "1"
    elif PRESENT_FIELD.name in st.query_params:
        del st.query_params[PRESENT_FIELD.name]
    st.html(f"<style>{COMPACT_CSS}{PRESENTATION_CSS if on else ''}</style>")
    return on


def presenting() -> bool:
    """Whether the presentation view is on (False on a page run outside the app, as in AppTest)."""
    return bool(st.session_state.get(TOGGLE_KEY, False))


def settings_block(name: str) -> DeltaGenerator:
    """A main-area container of settings that the presentation view hides (values kept)."""
    return st.container(key=f"{SETTINGS_PREFIX}{name}")
