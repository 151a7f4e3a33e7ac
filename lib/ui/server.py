"""Server-wide helpers started once per server, whoever visits first."""

from __future__ import annotations

import streamlit as st

from lib.memory import MemoryReleaser, tune_allocator


@st.cache_resource(show_spinner=False)
def memory_releaser() -> MemoryReleaser:
    """The server's one :class:`MemoryReleaser`, started after :func:`tune_allocator`:
    what visitors free goes back to the system."""
    tune_allocator()
    return MemoryReleaser()
