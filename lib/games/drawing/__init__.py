"""Shared drawing of boards, search trees and search charts (plotly; no Streamlit)."""
