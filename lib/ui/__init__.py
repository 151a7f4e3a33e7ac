"""The Streamlit side of the pages: the only library code that imports streamlit."""
