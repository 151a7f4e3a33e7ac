"""Custom Streamlit components of the app: inline HTML/CSS/JS shipped in this folder, no build."""
