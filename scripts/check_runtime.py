"""Check that the installed runtime dependencies work together: import each and use it once.

Run by ``scripts/test_lower_bounds.sh`` in an environment where pip chose the highest
versions requirements.txt allows beside ``numpy<2``: a package whose metadata admits
NumPy 1.x but fails with it at import (pyarrow 26 did) shows up here. Exits non-zero
with the failing step named.

    python scripts/check_runtime.py
"""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("streamlit", "plotly", "pandas", "numpy", "scipy", "networkx", "numba", "pyarrow")


def main() -> int:
    """Import every runtime dependency and the app's modules, and touch each once."""
    sys.path.insert(0, str(ROOT))
    print("versions:", ", ".join(f"{p} {importlib.metadata.version(p)}" for p in PACKAGES))
    import networkx as nx
    import numba
    import numpy as np
    import pandas as pd
    import plotly.graph_objects as go
    import pyarrow as pa
    from scipy.optimize import linprog
    from streamlit.dataframe_util import convert_pandas_df_to_arrow_bytes

    frame = pd.DataFrame({"x": np.arange(3, dtype=np.float64), "name": ["a", "b", "c"]})
    assert pa.Table.from_pandas(frame).num_rows == 3
    assert convert_pandas_df_to_arrow_bytes(frame)  # what st.dataframe sends
    assert linprog([1.0, 1.0], A_ub=[[-1.0, -1.0]], b_ub=[-1.0], method="highs").success
    assert numba.njit(lambda n: n * 2)(21) == 42  # compiles against this NumPy
    assert nx.shortest_path_length(nx.path_graph(4), 0, 3) == 3
    assert go.Figure(go.Scatter(x=np.arange(3), y=np.arange(3))).to_json()
    for module in ("lib.portfolio", "lib.games.arena", "lib.routes", "lib.ui.arena_page"):
        __import__(module)
    print("runtime check: every dependency imports and works")
    return 0


if __name__ == "__main__":
    sys.exit(main())
