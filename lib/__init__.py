"""AI Search Lab: the algorithms behind the dashboard, importable without Streamlit."""
