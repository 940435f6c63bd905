"""Causal chains: ground-truth membership and position labels, and graph statistics.

A *causal chain* is a directed path of at least three distinct nodes in a
causal graph (ClimateCause §6.1, after Pearl 2009).  Every event of a causal
statement's graph gets one :class:`Position`:

``start``
    the event has no cause and is the source of a chain;
``end``
    the event has no effect and is the sink of a chain;
``middle``
    the event lies inside a chain: it has a cause and an effect that are two
    different events;
``none``
    anything else.  Membership is ``position != none``.

Two rules decide ``start`` and ``end``:

``"path"`` (the paper's definition)
    a source ``v`` is ``start`` when one of its effects has an effect of its
    own (so ``v → u → w`` is a path of three distinct nodes); symmetrically
    for ``end``.  Only degrees and the neighbours' degrees are needed, so the
    labelling is O(V + E).
``"shortest-distance"`` (the authors' released benchmark files)
    a source is ``start`` only when some descendant lies at *shortest*
    distance >= 2, i.e. some node reachable in two steps is not also a direct
    effect.  ``a → b → c`` plus the shortcut ``a → c`` leaves ``a`` as
    ``none`` (and ``c`` likewise).  Checked per source with the pigeonhole
    shortcut ``outdeg(u) > outdeg(v)``, which bounds the work by
    O(V + Σ_v outdeg(v)²) and is linear on sparse graphs.

Both rules label ``middle`` the same way.

Self-loops and 2-cycles
-----------------------
A self-loop ``a → a`` never helps to build a path of *distinct* nodes, so
self-loops are ignored everywhere in this module (degrees, chains, depth):
an event whose only cause is itself counts as having no cause.  In a 2-cycle
``a ⇄ b`` each event has a cause and an effect, but they are the same event,
so neither is a ``middle`` (nor a ``start``/``end``, since each has a cause
and an effect): both are ``none`` unless a third event joins them.  A longer
cycle ``a → b → c → a`` makes every member ``middle``.  ClimateCause has
neither self-loops nor 2-cycles.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..errors import ConfigError, CycleLimitExceeded
from ..graph import as_graph, is_graph_source
from ..model import as_statements
from .paths import DEFAULT_CYCLE_LIMIT

__all__ = [
    "Position",
    "RULES",
    "ChainStats",
    "chain_labels",
    "chain_membership",
    "chain_stats",
    "chain_table",
    "CHAIN_TABLE_COLUMNS",
]

RULES = ("path", "shortest-distance")

#: Columns of :func:`chain_table` (and of ``causalgraph chains``).
CHAIN_TABLE_COLUMNS = ("statement_id", "event", "membership", "position",
                       "depth", "breadth", "n_nodes", "n_chains")


class Position(str, enum.Enum):
    """The position of an event in the causal chains of its graph."""

    START = "start"
    MIDDLE = "middle"
    END = "end"
    NONE = "none"

    def __str__(self) -> str:
        return self.value

    @property
    def member(self) -> bool:
        """True for ``start``, ``middle`` and ``end``."""
        return self is not Position.NONE


@dataclass(frozen=True)
class ChainStats:
    """Chain statistics of one causal graph (self-loops ignored).

    Attributes
    ----------
    depth
        Length in edges of the longest simple directed path.
    breadth
        Largest out-degree.
    n_nodes
        Number of events.
    n_chains
        Number of simple directed paths with at least three nodes.
    acyclic
        Whether the graph (without self-loops) is a DAG; on cyclic graphs
        ``depth`` and ``n_chains`` come from a bounded search.
    """

    depth: int
    breadth: int
    n_nodes: int
    n_chains: int
    acyclic: bool


# -- graph input -------------------------------------------------------------

def _as_indexed(graph) -> tuple[list, list[list[int]], list[list[int]]]:
    """Nodes in order plus successor and predecessor index lists, self-loops dropped.

    Accepts what :func:`~causalgraph.graph.as_graph` takes (a
    :class:`~causalgraph.graph.CausalGraph`, a statement, relations), a
    ``networkx.DiGraph`` or a sequence of ``(cause, effect)`` pairs.
    Parallel duplicates collapse.
    """
    pos: dict = {}
    if is_graph_source(graph):
        g = as_graph(graph)
        for node in g.nodes:
            pos.setdefault(node, len(pos))
        pairs = g.pairs
    elif hasattr(graph, "succ") and hasattr(graph, "pred") and hasattr(graph, "edges"):
        for node in graph.nodes:
            pos.setdefault(node, len(pos))
        pairs = list(graph.edges())
    else:
        pairs = graph
    fixed = bool(pos)
    succ: list[list[int]] = [[] for _ in pos]
    pred: list[list[int]] = [[] for _ in pos]

    def index(event, c, e) -> int:
        i = pos.get(event)
        if i is None:
            if fixed:
                raise ConfigError(f"edge ({c!r}, {e!r}) names event {event!r}, which is not a node")
            i = pos[event] = len(pos)
            succ.append([])
            pred.append([])
        return i

    for c, e in pairs:
        i, j = index(c, c, e), index(e, c, e)
        if i != j:
            succ[i].append(j)
            pred[j].append(i)
    # Parallel duplicates (the same pair listed twice) count once.
    for lists in (succ, pred):
        for k, lst in enumerate(lists):
            if len(lst) > 1 and len(set(lst)) != len(lst):
                lists[k] = list(dict.fromkeys(lst))
    return list(pos), succ, pred


def _check_rule(rule: str) -> None:
    if rule not in RULES:
        raise ConfigError(f"unknown chain rule {rule!r}; expected one of {', '.join(RULES)}")


# -- labels ------------------------------------------------------------------

def _reaches_two_steps(v: int, succ: list[list[int]], rule: str) -> bool:
    """Whether source ``v`` starts a chain under ``rule`` (or ends one, on the reversed graph)."""
    out = succ[v]
    if rule == "path":
        # v has no cause, so a successor's successor can never be v itself.
        return any(succ[u] for u in out)
    direct = None
    k = len(out)
    for u in out:
        nxt = succ[u]
        if not nxt:
            continue
        if len(nxt) > k:  # pigeonhole: some successor of u is not a direct successor of v
            return True
        if direct is None:
            direct = set(out)
        for w in nxt:
            if w not in direct:
                return True
    return False


def _positions(nodes, succ, pred, rule: str) -> list[Position]:
    out: list[Position] = []
    for v in range(len(nodes)):
        s, p = succ[v], pred[v]
        if s and p:
            # Inside a chain when some cause differs from some effect.
            if len(s) > 1 or len(p) > 1 or s[0] != p[0]:
                out.append(Position.MIDDLE)
            else:
                out.append(Position.NONE)  # only partner is the same event: a 2-cycle
        elif s:
            out.append(Position.START if _reaches_two_steps(v, succ, rule) else Position.NONE)
        elif p:
            out.append(Position.END if _reaches_two_steps(v, pred, rule) else Position.NONE)
        else:
            out.append(Position.NONE)
    return out


def chain_labels(graph, rule: str = "path") -> dict[str, Position]:
    """The chain position of every event, in node order.

    Parameters
    ----------
    graph
        A :class:`~causalgraph.graph.CausalGraph` (events are its nodes), a
        statement or relations (compiled by :func:`~causalgraph.graph.as_graph`),
        a ``networkx.DiGraph``, or a sequence of ``(cause, effect)`` pairs.
    rule
        ``"path"`` (the paper's definition, default) or
        ``"shortest-distance"`` (the rule behind the authors' released gold
        labels); see the module docstring.

    Returns
    -------
    dict
        event → :class:`Position`; membership is ``position.member``.

    Examples
    --------
    >>> labels = chain_labels([("a", "b"), ("b", "c"), ("a", "c"), ("d", "c")])
    >>> {k: str(v) for k, v in labels.items()}
    {'a': 'start', 'b': 'middle', 'c': 'end', 'd': 'none'}
    >>> str(chain_labels([("a", "b"), ("b", "c"), ("a", "c")], rule="shortest-distance")["a"])
    'none'
    """
    _check_rule(rule)
    nodes, succ, pred = _as_indexed(graph)
    return dict(zip(nodes, _positions(nodes, succ, pred, rule)))


def chain_membership(graph, rule: str = "path") -> dict[str, bool]:
    """Whether each event belongs to a causal chain (``position != none``).

    Examples
    --------
    >>> chain_membership([("a", "b"), ("b", "c"), ("x", "y")])
    {'a': True, 'b': True, 'c': True, 'x': False, 'y': False}
    """
    return {k: v.member for k, v in chain_labels(graph, rule).items()}


# -- statistics --------------------------------------------------------------

def _sink_first_order(succ: list[list[int]], pred: list[list[int]]) -> list[int]:
    """Nodes that cannot reach a cycle, each after all of its successors (reverse Kahn).

    The nodes left out are exactly those that can reach a directed cycle.
    """
    remaining = [len(s) for s in succ]
    stack = [v for v in range(len(succ) - 1, -1, -1) if remaining[v] == 0]
    order: list[int] = []
    while stack:
        v = stack.pop()
        order.append(v)
        for p in pred[v]:
            remaining[p] -= 1
            if remaining[p] == 0:
                stack.append(p)
    return order


def _cyclic_part(succ: list[list[int]], done: list[bool], paths: list[int], longest: list[int],
                 limit: int) -> tuple[int, int]:
    """(longest simple path, simple paths with >= 2 edges) starting at nodes that reach a cycle.

    Simple paths are followed depth-first only while they stay among nodes
    that reach a cycle; on entering a node ``w`` that does not, the rest is
    read from the DP tables (nothing downstream of ``w`` can lie on the
    current path, or ``w`` would reach a cycle).  At most ``limit`` steps
    are taken.
    """
    n = len(succ)
    steps = depth = count = 0
    on_path = [False] * n
    for root in range(n):
        if done[root]:
            continue
        stack = [(root, 0)]
        on_path[root] = True
        while stack:
            v, i = stack[-1]
            if i >= len(succ[v]):
                on_path[v] = False
                stack.pop()
                continue
            stack[-1] = (v, i + 1)
            u = succ[v][i]
            if on_path[u]:
                continue
            length = len(stack)  # edges on the path once u is appended
            if done[u]:
                # the path ending at u, plus every extension beyond u (all >= 2 edges)
                count += (1 if length >= 2 else 0) + paths[u] - 1
                depth = max(depth, length + longest[u])
                continue
            steps += 1
            if steps > limit:
                raise CycleLimitExceeded(
                    f"counting simple paths through the cycles of a graph of {n} nodes passed the limit of "
                    f"{limit} search steps; raise cycle_limit to count further")
            on_path[u] = True
            stack.append((u, 0))
            depth = max(depth, length)
            if length >= 2:
                count += 1
    return depth, count


def chain_stats(graph, cycle_limit: int = DEFAULT_CYCLE_LIMIT) -> ChainStats:
    """Depth, breadth, node count and number of chains of a graph.

    Chains are counted by dynamic programming in reverse topological order:
    with ``P(v) = 1 + Σ_{v→u} P(u)`` the number of paths leaving ``v``
    (the empty one included), ``v`` starts ``P(v) - 1 - outdeg(v)`` chains
    (paths of >= 2 edges), and the depth is the longest path ``L(v) = max
    (1 + L(u))``.  No path is enumerated, so graphs with astronomically many
    chains are counted exactly (Python integers do not overflow).

    Cycles are handled as in :mod:`causalgraph.metrics.paths`: only nodes
    that can reach a directed cycle are searched depth-first over simple
    paths, reading the rest from the DP tables, for at most ``cycle_limit``
    steps; beyond that :class:`CycleLimitExceeded` is raised.

    Examples
    --------
    >>> chain_stats([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")])
    ChainStats(depth=3, breadth=2, n_nodes=4, n_chains=4, acyclic=True)
    """
    if isinstance(cycle_limit, bool) or not isinstance(cycle_limit, int) or cycle_limit < 1:
        raise ConfigError(f"cycle_limit must be a positive integer, got {cycle_limit!r}")
    nodes, succ, pred = _as_indexed(graph)
    n = len(nodes)
    breadth = max((len(x) for x in succ), default=0)
    order = _sink_first_order(succ, pred)
    paths = [1] * n
    longest = [0] * n
    done = [False] * n
    n_chains = depth = 0
    for v in order:
        p, d = 1, 0
        for u in succ[v]:
            p += paths[u]
            if longest[u] + 1 > d:
                d = longest[u] + 1
        paths[v], longest[v], done[v] = p, d, True
        n_chains += p - 1 - len(succ[v])
        if d > depth:
            depth = d
    acyclic = len(order) == n
    if not acyclic:
        cyc_depth, cyc_chains = _cyclic_part(succ, done, paths, longest, cycle_limit)
        depth = max(depth, cyc_depth)
        n_chains += cyc_chains
    return ChainStats(depth, breadth, n, n_chains, acyclic)


def chain_table(corpus, rule: str = "path") -> list[dict]:
    """One row per event of every causal statement: labels and graph statistics.

    Columns are :data:`CHAIN_TABLE_COLUMNS`; ``membership`` is ``"yes"`` or
    ``"no"``.  Events follow statement order, then graph node order.

    Examples
    --------
    >>> import causalgraph as cg
    >>> rows = chain_table(cg.load_climatecause())      # doctest: +SKIP
    >>> len(rows)                                       # doctest: +SKIP
    512
    """
    _check_rule(rule)
    rows: list[dict] = []
    for st in as_statements(corpus):
        if not st.causal or not st.relations:
            continue
        g = as_graph(st)
        stats = chain_stats(g)
        for event, pos in chain_labels(g, rule).items():
            rows.append({
                "statement_id": st.id, "event": event,
                "membership": "yes" if pos.member else "no", "position": pos.value,
                "depth": stats.depth, "breadth": stats.breadth,
                "n_nodes": stats.n_nodes, "n_chains": stats.n_chains,
            })
    return rows
