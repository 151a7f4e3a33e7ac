"""Server caps of the route page's cached graph builders (they hold for URL settings too)."""

from __future__ import annotations

import pytest

from lib.errors import InputError
from lib.ui import routes as ui


def test_grid_and_random_graph_sizes_are_capped_in_lib():
    with pytest.raises(InputError, match="over this server's limit"):
        ui.grid(ui.MAX_GRID_ROWS + 1, 10, 0.2, False, 1)
    with pytest.raises(InputError, match="over this server's limit"):
        ui.grid(10, ui.MAX_GRID_COLS + 1, 0.2, False, 1)
    with pytest.raises(InputError, match="over this server's limit"):
        ui.random_graph(ui.MAX_RANDOM_N + 1, 1)
    G = ui.grid(ui.MAX_GRID_ROWS, ui.MAX_GRID_COLS, 0.0, False, 1)
    assert G.number_of_nodes() == ui.MAX_GRID_ROWS * ui.MAX_GRID_COLS
    assert ui.random_graph(ui.MAX_RANDOM_N, 1).number_of_nodes() == ui.MAX_RANDOM_N
