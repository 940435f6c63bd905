"""Counting maximal paths without enumerating them.

The negative-path term of C^corr and C^pol (ClimateCause paper, eq. 4)
counts, for every node v, the maximal walks that follow negative edges from
v until no negative edge continues, keeping the walks with at least three
nodes.  On a layered graph the number of such walks grows exponentially
with the depth, so they are counted by dynamic programming:

* on the acyclic part of the graph, ``P(v)`` = number of maximal paths
  from v (1 for a node with no successor, else the sum over successors),
  and ``A_j(v)`` = number of those with exactly j nodes, for the few j
  below the minimum length; the answer for v is ``P(v) - sum_j A_j(v)``;
* a node that can reach a directed cycle has no well-defined "follow the
  edges until they stop"; there the walks are the maximal *simple* paths
  (no node twice), enumerated depth-first with an explicit stack.  As soon
  as the walk enters a node that cannot reach a cycle, the rest is read
  from the DP table (nothing downstream of such a node can lie on the
  current path, or it would close a cycle), so only the cyclic part is
  enumerated, and after ``cycle_limit`` search steps (one step per edge
  the walk looks at, so the limit bounds the work, not the number of
  paths) :class:`~causalgraph.errors.CycleLimitExceeded` is raised.

Self-loops never extend a simple path and are ignored.  Nothing here
recurses, so long chains cannot overflow the Python stack.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Optional, Sequence

from ..errors import ConfigError, CycleLimitExceeded

__all__ = ["DEFAULT_CYCLE_LIMIT", "count_maximal_paths", "cyclic_nodes"]

#: Default number of search steps (edges looked at) of the walk through cyclic parts of a graph.
DEFAULT_CYCLE_LIMIT = 1_000_000


def _adjacency(nodes: Optional[Sequence[Hashable]], edges: Iterable[tuple[Hashable, Hashable]]):
    """Successor lists in first-appearance order, duplicates and self-loops dropped."""
    order: dict = {}
    if nodes is not None:
        for n in nodes:
            order.setdefault(n, None)
    succ: dict = {}
    for u, v in edges:
        order.setdefault(u, None)
        order.setdefault(v, None)
        if u == v:
            continue
        succ.setdefault(u, {}).setdefault(v, None)
    return list(order), {u: list(vs) for u, vs in succ.items()}


def _scc_cyclic(order: list, succ: dict) -> set:
    """Nodes that lie on a directed cycle (strongly connected component of size > 1).

    Iterative Tarjan, so that deep graphs do not hit the recursion limit.
    """
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    cyclic: set = set()
    counter = 0
    for root in order:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            nbrs = succ.get(v, ())
            if i < len(nbrs):
                work.append((v, i + 1))
                w = nbrs[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            # all successors done: propagate low-link to the parent, pop a component
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    cyclic.update(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return cyclic


def _sink_first(order: list, succ: dict) -> list:
    """Nodes that cannot reach a directed cycle, each after all of its successors (reverse Kahn).

    The nodes left out are exactly those that can reach a cycle; when none
    is left out the graph is acyclic and this is a reverse topological order.
    """
    remaining = {n: len(succ.get(n, ())) for n in order}
    pred: dict = {}
    for u, vs in succ.items():
        for v in vs:
            pred.setdefault(v, []).append(u)
    stack = [n for n in reversed(order) if remaining[n] == 0]
    out: list = []
    while stack:
        v = stack.pop()
        out.append(v)
        for u in pred.get(v, ()):
            remaining[u] -= 1
            if remaining[u] == 0:
                stack.append(u)
    return out


def _dp_step(v, nbrs, total: dict, short: dict, k: int) -> None:
    """One DP step, once every successor of ``v`` is done.

    total[v] = number of maximal paths from v; short[v][j] = those with
    exactly j+1 nodes, for the lengths 1..k that are too short to count.
    """
    if not nbrs:
        total[v] = 1
        short[v] = [1] + [0] * (k - 1) if k > 0 else []
        return
    total[v] = sum(total[w] for w in nbrs)
    row = [0] * k
    for w in nbrs:
        sw = short[w]
        for j in range(1, k):
            row[j] += sw[j - 1]
    short[v] = row


def cyclic_nodes(edges: Iterable[tuple[Hashable, Hashable]], nodes: Optional[Sequence[Hashable]] = None) -> list:
    """Nodes that lie on a directed cycle, in first-appearance order (self-loops excluded).

    Examples
    --------
    >>> cyclic_nodes([("a", "b"), ("b", "a"), ("b", "c")])
    ['a', 'b']
    """
    order, succ = _adjacency(nodes, edges)
    cyc = _scc_cyclic(order, succ)
    return [n for n in order if n in cyc]


def count_maximal_paths(
    edges: Iterable[tuple[Hashable, Hashable]],
    nodes: Optional[Sequence[Hashable]] = None,
    *,
    min_nodes: int = 3,
    cycle_limit: int = DEFAULT_CYCLE_LIMIT,
) -> int:
    """Count maximal paths with at least ``min_nodes`` nodes, from every start node.

    For every node v, the walks that start at v and follow edges until no
    edge continues (on a cycle: until every successor is already on the
    walk) are counted when they have at least ``min_nodes`` nodes; walks
    from different start nodes count separately.

    Parameters
    ----------
    edges
        Directed edges ``(u, v)``; duplicates count once, self-loops are ignored.
    nodes
        Optional extra nodes (isolated nodes contribute nothing, but fix the order).
    min_nodes
        Shortest walk that counts (3 = two or more consecutive edges, the paper's rule).
    cycle_limit
        Most search steps of the walk through the part of the graph that
        reaches a cycle; a step is one edge looked at, so the work is
        O(cycle_limit) whatever the shape of the cycle.

    Returns
    -------
    int
        The exact count (a Python int: no overflow even for 2**100 paths).

    Raises
    ------
    CycleLimitExceeded
        When the edges contain a cycle and counting through it takes more
        than ``cycle_limit`` search steps (a ring of n nodes takes about
        n * n: 1,000 nodes fit the default, 4,000 do not).

    Examples
    --------
    >>> count_maximal_paths([("a", "b"), ("b", "c"), ("b", "d")])  # a-b-c, a-b-d
    2
    >>> count_maximal_paths([("a", "b"), ("b", "c"), ("c", "d")])  # a-b-c-d, b-c-d
    2
    """
    if isinstance(min_nodes, bool) or not isinstance(min_nodes, int) or min_nodes < 1:
        raise ConfigError(f"min_nodes must be a positive integer, got {min_nodes!r}")
    if isinstance(cycle_limit, bool) or not isinstance(cycle_limit, int) or cycle_limit < 1:
        raise ConfigError(f"cycle_limit must be a positive integer, got {cycle_limit!r}")
    order, succ = _adjacency(nodes, edges)
    if not succ:
        return 0 if min_nodes > 1 else len(order)
    # DP on the part that cannot reach a cycle (closed under successors), sinks first:
    # total[v] = P(v), short[v][j] = A_{j+1}(v), the maximal paths from v with exactly j+1 nodes.
    k = min_nodes - 1  # lengths 1..k are "too short"
    total: dict = {}
    short: dict = {}
    acyclic = _sink_first(order, succ)
    for v in acyclic:
        _dp_step(v, succ.get(v), total, short, k)

    def long_enough(v, prefix_nodes: int) -> int:
        """Maximal paths from v whose total length, with ``prefix_nodes`` before v, reaches min_nodes."""
        need = min_nodes - prefix_nodes  # nodes still needed, counting v
        too_short = sum(short[v][: max(0, need - 1)]) if need > 1 else 0
        return total[v] - too_short

    count = 0
    for v in acyclic:
        count += long_enough(v, 0)
    if len(acyclic) == len(order):
        return count
    reaches_cycle = set(order) - set(acyclic)

    cyc_list: list = []
    steps = 0
    for start in order:
        if start not in reaches_cycle:
            continue
        # One frame per node on the walk: the next successor to look at, and whether any successor
        # extended the walk (if none did, every successor is on the walk and the walk is maximal).
        path = [start]
        on_path = {start}
        iters = [0]
        extended = [False]
        while path:
            u = path[-1]
            nbrs = succ.get(u, ())
            i = iters[-1]
            if i >= len(nbrs):
                if not extended[-1] and len(path) >= min_nodes:
                    count += 1
                path.pop()
                on_path.discard(u)
                iters.pop()
                extended.pop()
                continue
            iters[-1] = i + 1
            # Every successor looked at is one step, so the limit bounds the work itself: a ring of
            # n nodes has only n maximal walks but takes n * n steps to walk them.
            steps += 1
            if steps > cycle_limit:
                if not cyc_list:
                    cyc = _scc_cyclic(order, succ)
                    cyc_list = [n for n in order if n in cyc]
                shown = ", ".join(repr(n) for n in cyc_list[:5]) + (" …" if len(cyc_list) > 5 else "")
                raise CycleLimitExceeded(
                    f"counting maximal simple paths through a cycle of negative edges ({len(cyc_list):,} nodes "
                    f"on cycles: {shown}) passed the limit of {cycle_limit:,} search steps (starting from "
                    f"{start!r}); raise cycle_limit (complexity(..., cycle_limit=N), --cycle-limit N on the "
                    f"command line) to count further: the work grows with the number of simple walks"
                )
            w = nbrs[i]
            if w in on_path:
                continue
            extended[-1] = True
            if w not in reaches_cycle:
                # the rest is acyclic and disjoint from the path: read it from the DP table
                count += long_enough(w, len(path))
            else:
                path.append(w)
                on_path.add(w)
                iters.append(0)
                extended.append(False)
    return count
