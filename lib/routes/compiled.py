"""A graph's search index: its adjacency as integer-indexed dicts {neighbour: length}.

:func:`lib.routes.search.astar`, :func:`~lib.routes.search.weighted_astar` and
:func:`~lib.routes.search.uniform_cost` search a :class:`CompiledGraph` instead of
networkx's dicts when the graph has one (:mod:`lib.routes.kernel`): the same
search (same path, cost, counts and ties), with cheaper bookkeeping. The
index lives in the graph's own ``G.__networkx_cache__``, which networkx
empties whenever the graph is changed through its methods, so it can never
describe a graph that has changed since.

A graph gets its index in one of three ways:

- the generators in :mod:`lib.routes.graphs` build it with the graph, from the
  NumPy arrays they already hold (:meth:`CompiledGraph.from_edge_arrays`,
  :func:`attach`): a tenth to a quarter of the graph's build time;
- :func:`prepare` indexes any graph's nodes (one pass over the nodes: a
  ninth to a quarter of one networkx A* query on the benchmark graphs); each
  node's roads are read off the graph's dicts on its first expansion;
- the searches call :func:`prepare` by themselves on the second query of a
  graph that has none (a single query is cheaper on the dicts), or on its
  first when a road has no weight (the index reads it as 1).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import networkx as nx
import numpy as np

#: Key of this module's entry in ``G.__networkx_cache__`` (networkx clears it on mutation).
CACHE_KEY = "lib.routes.compiled"
#: At most this many compiled versions (one per weight attribute) are kept per graph.
MAX_COMPILED = 2


class CompiledGraph:
    """A graph's adjacency as integer-indexed dicts, for the fast search (:mod:`lib.routes.kernel`).

    Node ``nodes[i]`` has ``edges[i]``, a dict from neighbour index to road
    length, in networkx's adjacency order (so searches break ties
    exactly as on the graph itself). A road without the weight attribute
    has length 1, as networkx and the textbook search count it.

    Read off a graph (:func:`prepare`), the index is lazy: ``edges[i]`` is
    ``None`` until :meth:`fill` reads node ``i`` on its first expansion. So
    indexing a graph costs one pass over its nodes, not its edges, and a
    query pays only for the nodes it expands (searches rarely expand them all;
    reading every edge, which the flat lists also did, is what took the time).
    The generators' index (:meth:`from_edge_arrays`) is complete from the start.

    Why dicts per node and not flat lists (``ptr``, ``nbr``, ``wt``, which
    read in full about twice as fast as dicts): the kernel's one loop reads
    ``adjacency[u].items()``, the same on this index as on networkx's own
    dicts (a graph's first query); flat lists would need a second loop, and
    making either form look like the other costs more per expanded node than
    the build saves (measured with ``python -m bench.route_kernel_history``).

    It is kept in ``G.__networkx_cache__`` (see :func:`attach` and
    :func:`prepare`), which networkx empties whenever the graph is changed
    through its methods (``add_edge``, ``remove_node``, ...). After changing
    an attribute in place (``G[u][v]["weight"] = 5``) call
    ``G.__networkx_cache__.clear()``, as networkx asks for its own cached
    conversions: a lazy index would otherwise mix old and new lengths.
    """

    __slots__ = ("_coords", "_own", "_roads", "edges", "index", "nodes", "weight")

    def __init__(self, G: nx.Graph, weight: str = "weight") -> None:
        """Index ``G``'s nodes; each node's roads are read off ``G``'s dicts when first needed."""
        adj = G._adj  # read-only use of networkx's adjacency
        self.weight = weight
        self.nodes: list = list(adj)
        self.index: dict = {node: i for i, node in enumerate(self.nodes)}
        count = len(self.nodes)
        # Nodes 0..n-1 in order are their own index: no lookup per neighbour.
        own = all(type(node) is int for node in self.nodes)
        self._own = own and self.nodes == list(range(count))
        self._roads: list[dict] | None = list(adj.values())  # networkx's, by index
        # Dicts of numbers only: once the garbage collector has seen them it stops tracking
        # them, so a big index does not slow every later collection (lists of them would).
        self.edges: list[dict[int, float] | None] = [None] * count
        # (positions mapping, its size, points): the last heuristic's coordinates by index
        self._coords: tuple | None = None

    def fill(self, i: int) -> dict[int, float]:
        """``edges[i]``, read off the graph's dicts now (node ``i``'s first expansion).

        A road without the weight attribute counts as 1, as in networkx. Threads
        may fill one index at once: each entry is one assignment, and two reads
        of a node give equal dicts.
        """
        if self._roads is None:  # complete from the start: nothing to read
            return self.edges[i]
        weight, index = self.weight, self.index
        if self._own:
            roads = {v: data.get(weight, 1) for v, data in self._roads[i].items()}
        else:
            roads = {index[v]: data.get(weight, 1) for v, data in self._roads[i].items()}
        self.edges[i] = roads
        return roads

    def read_all(self) -> list[dict[int, float]]:
        """:attr:`edges` with every node read."""
        for i, roads in enumerate(self.edges):
            if roads is None:
                self.fill(i)
        return self.edges

    @classmethod
    def from_edge_arrays(
        cls,
        nodes: Sequence[Hashable],
        first: np.ndarray,
        second: np.ndarray,
        weights: np.ndarray,
        weight: str = "weight",
    ) -> CompiledGraph:
        """The index of the undirected graph built by adding ``nodes``, then these edges in order.

        Edge ``k`` joins ``nodes[first[k]]`` and ``nodes[second[k]]`` at
        ``weights[k]``. networkx lists a node's neighbours in the order their
        edges were added, so each node's entries are sorted by edge number:
        the result equals ``CompiledGraph(G)`` of the graph built by
        ``G.add_nodes_from(nodes)`` and then ``G.add_weighted_edges_from`` of
        those edges, as long as no edge repeats and none is a loop (the
        generators' edges never do; tests compare the two).
        """
        n, m = len(nodes), len(first)
        tails = np.concatenate([first, second])
        edge = np.concatenate([np.arange(m), np.arange(m)])
        order = np.lexsort((edge, tails))
        # Entries share one int object per node and one float per edge (object arrays
        # copy references in C), which saves memory against fresh objects per entry.
        numbers = np.arange(n).astype(object)
        heads = numbers[np.concatenate([second, first])[order]].tolist()
        lengths = weights.astype(float).astype(object)[edge[order]].tolist()
        ends = np.cumsum(np.bincount(tails, minlength=n)).tolist()
        compiled = cls.__new__(cls)
        compiled.weight = weight
        compiled.nodes = list(nodes)
        compiled.index = dict(zip(compiled.nodes, numbers.tolist(), strict=True))
        spans = zip([0, *ends][:-1], ends, strict=True)  # none on a graph of no nodes
        compiled.edges = [dict(zip(heads[a:b], lengths[a:b], strict=True)) for a, b in spans]
        compiled._own, compiled._roads = False, None  # complete: nothing to read later
        compiled._coords = None
        return compiled

    def coordinates(self, pos: dict) -> list | None:
        """The ``(x, y)`` of every node by index from ``pos`` (``None`` if a node has none).

        The list is kept for the last ``pos`` mapping seen (a heuristic's own
        copy of the positions), so repeated queries with one heuristic object
        do not rebuild it; the mapping must not be changed in place.
        """
        cached = self._coords
        if cached is not None and cached[0] is pos and cached[1] == len(pos):
            return cached[2]
        try:
            points = list(map(pos.__getitem__, self.nodes))
            for _x, _y in points:  # each an (x, y) pair
                pass
        except (KeyError, TypeError, ValueError):
            return None  # a node without a usable position: the dict loop handles it
        self._coords = (pos, len(pos), points)
        return points


def _cache_of(G: nx.Graph) -> dict | None:
    """The networkx cache dict of ``G``, or ``None`` when caching there would be unsafe.

    Graph views (subgraphs, reversed views) share their parent's adjacency, so
    a change to the parent would not clear the view's cache: they are never
    cached, nor are multigraphs (no compiled form).
    """
    if G.is_multigraph() or "_graph" in vars(G):
        return None
    cache = getattr(G, "__networkx_cache__", None)
    return cache if isinstance(cache, dict) else None


def attach(G: nx.Graph, compiled: CompiledGraph) -> bool:
    """Keep ``compiled`` as ``G``'s index for its weight attribute; ``False`` if ``G`` can't.

    At most :data:`MAX_COMPILED` indexes (weight attributes) are kept per
    graph, the oldest dropped first. The table is copied, then published, so
    a thread reading it meanwhile sees the old or the new one, whole.
    """
    cache = _cache_of(G)
    if cache is None:
        return False
    entry = cache.setdefault(CACHE_KEY, {"queries": 0, "compiled": {}})
    table = dict(entry["compiled"])
    table.pop(compiled.weight, None)
    while len(table) >= MAX_COMPILED:
        table.pop(next(iter(table)))
    table[compiled.weight] = compiled
    entry["compiled"] = table
    return True


def prepare(G: nx.Graph, weight: str = "weight") -> CompiledGraph | None:
    """``G``'s index for ``weight``, read off its dicts and kept on it if it has none yet.

    Returns ``None`` (and builds nothing) for graph views and multigraphs.
    """
    cache = _cache_of(G)
    if cache is None:
        return None
    compiled = cache.get(CACHE_KEY, {}).get("compiled", {}).get(weight)
    if compiled is None:
        compiled = CompiledGraph(G, weight)
        attach(G, compiled)
    return compiled


def for_query(G: nx.Graph, weight: str) -> CompiledGraph | None:
    """The index to search ``G`` with, built on the second query of ``G`` (else ``None``).

    A single query on a big graph is cheaper on networkx's dicts than
    building the index first; from the second query on, the index pays for
    itself. Graphs from :mod:`lib.routes.graphs`'s generators have theirs
    from the start.
    """
    cache = _cache_of(G)
    if cache is None:
        return None
    entry = cache.get(CACHE_KEY)
    if entry is None:
        cache[CACHE_KEY] = {"queries": 1, "compiled": {}}
        return None
    compiled = entry["compiled"].get(weight)
    if compiled is None:
        entry["queries"] += 1
        if entry["queries"] >= 2:
            compiled = prepare(G, weight)
    return compiled
