"""Server-wide helpers started once per server, whoever visits first."""

from __future__ import annotations

import streamlit as st

from lib.memory import MemoryReleaser


@st.cache_resource(show_spinner=False)
def memory_releaser() -> MemoryReleaser:
    """The server's one :class:`MemoryReleaser`: what visitors freed goes back to the system."""
    return MemoryReleaser()
