"""Identification questions about each causal graph: d-separation and back-door adjustment sets (issue 27).

================  ===========================================  ==============================================
task              one item per                                 gold
================  ===========================================  ==============================================
``d-separation``  unordered pair X, Y (X before Y in node      ``yes`` when X and Y are d-separated given Z
                  order) with a conditioning set Z drawn        (``networkx.is_d_separator``)
                  from the other events
``adjustment-     ordered pair X, Y with Y a descendant of X,  ``yes`` when Z satisfies the back-door criterion
set``             with a set Z drawn from the other events     for X → Y: no event of Z descends from X, and Z
                                                               d-separates X and Y once X's out-edges are cut
================  ===========================================  ==============================================

Z is drawn per pair from the events other than X and Y, :data:`DRAWS` times: a size from 0 to
:data:`MAX_Z` (at most the events left) and then the events, both by the SHA-256 of
``seed/statement/i/j/draw`` — the same on every machine whatever ``PYTHONHASHSEED``.  Each statement
asks every pair of the smaller class and as many of the larger, chosen by the same hash, so yes
and no are balanced per statement (as reachability is).  Both tasks are defined on DAGs: a
statement whose graph has a directed cycle gives no items.  Like the structure tasks they ask
about the graph alone, so they run on graph files and relations files too; every encoding and
event-name scheme gives a variant (``A_1``, ``MX_2.letters`` …).

Item ids: ``<task>/<variant>/<statement>/e<i>-e<j>-z<d>`` (0-based indices in node order, ``d`` the
draw of Z: :data:`DRAWS` sets are drawn per pair, duplicates dropped); the meta
holds Z as shown (``given``) and its indices (``given_indices``).
"""

from __future__ import annotations

import hashlib
from typing import Any, Optional

from ..taskkit.item import Item, item_id
from ..encodings import check_order, prompt_graph
from ..errors import ConfigError
from ..graph import CausalGraph, compile_graph
from ..readwrite import find_cycle, to_digraph
from ..model import as_statements
from ..graph.naming import event_names as _event_names, join_variant, rename_graph, split_variant
from ..prompts import (ENCODING_PREFIXES, PromptVariant, catalog_variants, encoded_ids_hint, encoding_variant_id,
                       find_variant, with_encoding)
from .base import Task
from .kinds import Binary

__all__ = ["IDENTIFICATION_TASKS", "MAX_Z", "DRAWS", "d_separated", "is_backdoor_set", "identification_questions", "items",
           "tasks", "list_identification_variants"]

#: The identification tasks.
IDENTIFICATION_TASKS = ("d-separation", "adjustment-set")
#: Most events in a drawn conditioning set.
MAX_Z = 3
#: Conditioning sets drawn per pair (fewer where two draws agree).
DRAWS = 3
_CATALOG = "identification"


def d_separated(graph: CausalGraph, x: str, y: str, z) -> bool:
    """Whether ``x`` and ``y`` are d-separated given the events ``z`` (``networkx.is_d_separator``).

    Examples
    --------
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    >>> d_separated(g, "a", "c", []), d_separated(g, "a", "c", ["b"])
    (False, True)
    """
    import networkx as nx

    return bool(nx.is_d_separator(to_digraph(graph), {x}, {y}, set(z)))


def is_backdoor_set(graph: CausalGraph, x: str, y: str, z) -> bool:
    """Pearl's back-door criterion: no event of ``z`` descends from ``x``, and ``z`` blocks every path from
    ``x`` to ``y`` that starts with an edge into ``x`` (d-separation once ``x``'s out-edges are removed).

    Examples
    --------
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("u", "x"), Relation("u", "y"), Relation("x", "m"), Relation("m", "y")])
    >>> is_backdoor_set(g, "x", "y", []), is_backdoor_set(g, "x", "y", ["u"]), is_backdoor_set(g, "x", "y", ["u", "m"])
    (False, True, False)
    """
    import networkx as nx

    g = to_digraph(graph)
    z = set(z)
    if z & nx.descendants(g, x):
        return False
    cut = g.copy()
    cut.remove_edges_from(list(g.out_edges(x)))
    return bool(nx.is_d_separator(cut, {x}, {y}, z))


def _hash(*parts: Any) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).hexdigest()


def _draw_z(nodes: list[str], i: int, j: int, key: str, seed: int) -> list[list[int]]:
    """:data:`DRAWS` conditioning sets for the pair (i, j), duplicates dropped, in draw order."""
    rest = [k for k in range(len(nodes)) if k not in (i, j)]
    out: list[list[int]] = []
    for d in range(DRAWS):
        size = int(_hash(seed, key, i, j, d, "size"), 16) % (min(MAX_Z, len(rest)) + 1)
        z = sorted(sorted(rest, key=lambda k: _hash(seed, key, i, j, d, k))[:size])
        if z not in out:
            out.append(z)
    return out


def identification_questions(graph: CausalGraph, task: str, *,
                             seed: int = 0) -> list[tuple[int, int, int, list[int], bool]]:
    """``(i, j, d, z, answer)`` of the questions asked on one graph (``d``: which draw of Z): balanced yes/no.

    Examples
    --------
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c"), Relation("d", "c")], )
    >>> qs = identification_questions(g, "d-separation")
    >>> sum(a for *_, a in qs) * 2 == len(qs) > 0
    True
    """
    _check_task(task)
    if find_cycle(graph) is not None:
        return []
    import networkx as nx

    nodes = list(graph.nodes)
    dg = to_digraph(graph)  # built once: every question of the graph reads it
    key = graph.statement_id
    yes, no = [], []
    for i, x in enumerate(nodes):
        if task == "adjustment-set":
            desc = nx.descendants(dg, x)
            cut = dg.copy()
            cut.remove_edges_from(list(dg.out_edges(x)))
        for j, y in enumerate(nodes):
            if i == j or (task == "d-separation" and j < i) or (task == "adjustment-set" and y not in desc):
                continue
            for d, z in enumerate(_draw_z(nodes, i, j, key, seed)):
                names = {nodes[k] for k in z}
                if task == "d-separation":
                    ans = nx.is_d_separator(dg, {x}, {y}, names)
                else:  # the back-door criterion, as is_backdoor_set states it
                    ans = not (names & desc) and nx.is_d_separator(cut, {x}, {y}, names)
                (yes if ans else no).append((i, j, d, z, bool(ans)))
    k = min(len(yes), len(no))
    chosen = []
    for group in (yes, no):
        chosen += sorted(group, key=lambda q: _hash(seed, key, q[0], q[1], q[2], "pick"))[:k]
    return sorted(chosen, key=lambda q: (q[0], q[1], q[2]))


def _check_task(task: str) -> None:
    if task not in IDENTIFICATION_TASKS:
        raise ConfigError(f"unknown identification task {task!r}; expected one of {', '.join(IDENTIFICATION_TASKS)}")


def list_identification_variants(task: str) -> list[PromptVariant]:
    """Every variant: each stored template in each encoding (``A_1``, ``A_2``, ``SN_1`` …)."""
    _check_task(task)
    stored = catalog_variants(_CATALOG, task)
    return [with_encoding(v, enc) for enc in ENCODING_PREFIXES for v in stored]


def _variant(task: str, variant_id: str) -> PromptVariant:
    return find_variant(list_identification_variants(task), variant_id, task,
                        encoded_ids_hint() + ", optionally followed by .integer, .letters or .nonsense")


def items(corpus, task: str, variant: str, *, order: str = "paper", encoding: Optional[str] = None,
          event_names: Optional[str] = None, seed: int = 0) -> list[Item]:
    """The items of one identification task and variant.

    Parameters
    ----------
    corpus
        A corpus or statements; every causal statement whose graph is a DAG gives its questions.
    task
        ``d-separation`` or ``adjustment-set``.
    variant
        ``A_1`` …, optionally with ``.integer``, ``.letters`` or ``.nonsense``.
    order, encoding, event_names
        As for the structure tasks.
    seed
        Draws other conditioning sets and another balanced selection.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> st = Statement("s1", "t", True, (Relation("a", "b"), Relation("b", "c")))
    >>> [(it.meta["event"], it.meta["event_j"], it.meta["given"], it.gold) for it in items([st], "d-separation", "A_1")]
    [('a', 'c', ['b'], 'yes'), ('b', 'c', ['a'], 'no')]
    """
    _check_task(task)
    check_order(order)
    base, scheme = split_variant(str(variant))
    if event_names is not None and scheme != "real" and event_names != scheme:
        raise ConfigError(f"variant {variant!r} names events {scheme!r} but event names {event_names!r} were asked")
    if event_names is not None:
        scheme = event_names
    if encoding is not None:
        base = encoding_variant_id(_variant(task, base).id, encoding)
    v = _variant(task, base)
    vid = join_variant(v.id, scheme)
    out: list[Item] = []
    for st in as_statements(corpus):
        if not (st.causal and st.relations):
            continue
        g = compile_graph(st)
        shown = _event_names(g.nodes, scheme, key=st.id)
        graph_text = prompt_graph(g if scheme == "real" else rename_graph(g, shown), v.encoding, order=order)
        nodes = list(g.nodes)
        for i, j, d, z, ans in identification_questions(g, task, seed=seed):
            given = [shown[nodes[k]] for k in z]
            values = {"graph": graph_text, "e_i": shown[nodes[i]], "e_j": shown[nodes[j]],
                      "z": ", ".join(given) if given else "no event"}
            meta: dict[str, Any] = {"statement_id": st.id, "events": [shown[n] for n in nodes], "encoding": v.encoding,
                                    "event_names": scheme, "edge_order": order, "event": shown[nodes[i]],
                                    "event_index": i, "event_j": shown[nodes[j]], "event_j_index": j, "given": given,
                                    "given_indices": z, "seed": seed}
            if scheme != "real":
                meta["real_events"] = nodes
            out.append(Item(id=item_id(task, vid, st.id, f"e{i:03d}-e{j:03d}-z{d}"), task=task, variant=vid,
                            prompt=v.render(**{k: values[k] for k in v.placeholders}), gold="yes" if ans else "no",
                            meta=meta))
    return out


def _task(name: str) -> Task:
    def build(corpus, variant, _name=name, **options):
        return items(corpus, _name, variant, **options)

    def canonical(variant, _name=name):
        base, scheme = split_variant(variant)
        return join_variant(_variant(_name, base).id, scheme)

    def strategy(variant, _name=name):
        return _variant(_name, split_variant(variant)[0]).strategy

    def words(variant, _name=name):
        return dict(_variant(_name, split_variant(variant)[0]).answer_labels)

    what = ("are two events d-separated given a drawn set (yes/no, balanced per statement)" if name == "d-separation"
            else "is a drawn set a valid back-door adjustment set for X -> Y (yes/no, balanced per statement)")
    return Task(name=name, build_items=build, list_variants=lambda _n=name: [v.id for v in list_identification_variants(_n)],
                answers=Binary(labels=("yes", "no"), positive="yes", answer_words=words), strategy=strategy,
                canonical_variant=canonical, default_data="climatecause",
                item_options=("order", "encoding", "event_names", "seed"), description=what)


def tasks() -> list[Task]:
    """The two identification tasks.

    Examples
    --------
    >>> [t.name for t in tasks()]
    ['d-separation', 'adjustment-set']
    """
    return [_task(name) for name in IDENTIFICATION_TASKS]
