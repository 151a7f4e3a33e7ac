"""Benchmark: the bytes of the route page's figures on its largest maps.

For the 60x80 grid (25 % obstacles, seed 1) and the 2,000-place random graph
(seed 1), with the map's default start, goal and heuristic, and each algorithm:

- ``route map``: the clickable map with that algorithm's route, as the page draws it;
- ``step map``: the search animation opened at step 0 (as the page opens it) and at
  its last step (the route drawn too); the larger of the two is printed;

in KB of the JSON Streamlit sends (goal: under 300 KB): the canvas maps' data
(``lib.routes.animation.route_map_data`` and ``player_data``) as JSON, or, for an older
checkout, ``plotly.io.to_json`` of its figures.
The page can also draw every algorithm's route on one map: ``all routes``.
IDA* gives up on 2,000 places (a million expansions), so the page draws no route.

``--compare DIR`` measures another checkout too (e.g. an older commit from ``git
archive``), each in its own process, and prints its bytes and this one's as a
ratio of them.

    python -m bench.route_payloads [--compare /tmp/old-app]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 300_000


def measure(root: Path) -> dict[str, int]:
    """``{"<map> / <algorithm> / <figure>": bytes}`` for the checkout at ``root``."""
    sys.path.insert(0, str(root))
    from lib.errors import InputError
    from lib.routes import animation, graphs, places, plots, search

    maps = {
        "grid 60x80": graphs.grid(60, 80, obstacles=0.25, diagonal=False, seed=1, corridor=True),
        "2,000 places": graphs.random_geometric(2_000, seed=1),
    }
    found: dict[str, int] = {}
    for map_name, G in maps.items():
        start, goal = (graphs.find_node(G, label) for label in places.default_endpoints(G))
        heuristic = graphs.make_heuristic(G, graphs.heuristic_choices(G)[0])
        routes = []
        for name in search.ALGORITHMS:
            if (map_name, name) == ("2,000 places", "IDA*"):
                continue  # gives up after a million expansions (12 s): no route to draw
            try:
                r = search.run(name, G, start, goal, heuristic, record_trace=True)
            except InputError:
                continue
            label = f"{name}: {r.cost:.4g} ({r.expanded} expanded)"
            routes.append((label, r.path))
            found[f"{map_name} / {name} / route map"] = route_map_bytes(
                animation, plots, G, [(label, r.path)], start, goal
            )
            found[f"{map_name} / {name} / step map"] = max(
                step_map_bytes(animation, G, r, step, start, goal, name)
                for step in (0, len(r.trace) - 1)
            )
        found[f"{map_name} / all routes / route map"] = route_map_bytes(
            animation, plots, G, routes, start, goal
        )
    return found


def route_map_bytes(animation, plots, G, routes, start, goal) -> int:
    """Bytes of the route map: the canvas map's JSON, or (older checkouts) plotly's figure."""
    if hasattr(animation, "route_map_data"):
        data = animation.route_map_data(G, routes=routes, start=start, goal=goal, title="t")
        return len(json.dumps(data))
    fig = plots.map_figure(G, routes=routes, start=start, goal=goal, title="t")
    return len(fig.to_json())


def step_map_bytes(animation, G, result, step: int, start, goal, title: str) -> int:
    """Bytes of the step map: the canvas player's JSON, or (older checkouts) plotly's figure."""
    if hasattr(animation, "player_data"):
        data = animation.player_data(
            G, result.trace, step=step, path=result.path, start=start, goal=goal, title=title
        )
        return len(json.dumps(data))
    fig = animation.animation_figure(
        G, result.trace, step=step, path=result.path, start=start, goal=goal, title=title
    )
    return len(fig.to_json())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", type=Path, default=None, help="another checkout to measure")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one checkout
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(measure(args.root)))
        return

    def run(root: Path) -> dict[str, int]:
        command = [sys.executable, str(Path(__file__).resolve()), "--json", "--root", str(root)]
        output = subprocess.run(command, capture_output=True, text=True, check=True, cwd=root)
        return json.loads(output.stdout)

    mine = run(ROOT)
    theirs = run(args.compare) if args.compare else {}
    header = f"{'map / algorithm / figure':<48}{'KB':>8}{'< 300 KB':>10}"
    print(header + (f"{'compared KB':>13}{'ratio':>7}" if theirs else ""))
    for key, size in mine.items():
        row = f"{key:<48}{size / 1e3:>8.1f}{'yes' if size < GOAL else 'NO':>10}"
        if key in theirs:
            row += f"{theirs[key] / 1e3:>13.1f}{size / theirs[key]:>7.2f}"
        print(row)
    worst = max(mine, key=mine.__getitem__)
    print(f"largest: {worst}, {mine[worst] / 1e3:.1f} KB")


if __name__ == "__main__":
    main()
