"""Questions about the structure of each causal statement graph: set-valued and pairwise (issue 16).

Seven tasks over every causal statement with relations (ClimateCause, PubMedCausal, or the graphs of
:func:`causalgraph.extraction.producer.corpus_from_extraction`), asked over the graph alone:

================  =========================================  =========================================
task              one item per                               gold
================  =========================================  =========================================
``parents``       event (node order)                         events with an edge into it
``children``      event                                      events it has an edge to
``sources``       statement                                  events with no edge into them
``sinks``         statement                                  events with no edge out of them
``mediators``     ordered pair (A, B) with a mediator        events A leads to that lead to B (not A, B)
``common-cause``  pair A before B (node order) with one      events that lead to both A and B (not A, B)
``reachability``  ordered pair A ≠ B, as many unreachable    ``yes`` when a directed path leads from A
                  as reachable, chosen by hash                to B, else ``no``
================  =========================================  =========================================

"Leads to" is a directed path of one or more edges, so the mediators of (A, B) are
descendants(A) ∩ ancestors(B) minus A and B, and the common causes ancestors(A) ∩ ancestors(B)
minus A and B (networkx's ``descendants``/``ancestors``); a self-loop makes an event its own parent
and child, as in networkx.  Set golds list events in node order.

Reachability takes every reachable pair of a statement and as many unreachable ones (or the
reverse when unreachable pairs are fewer), chosen by the SHA-256 of ``statement/i/j`` — the same
whatever ``PYTHONHASHSEED`` — and listed in node order.

Variants: the catalog ``prompts/structure/<task>.json`` stores two templates (``A_1``, ``A_2``);
every encoding of :data:`causalgraph.prompts.ENCODING_PREFIXES` gives its variant (``MX_1`` …), and
``.integer``/``.letters``/``.nonsense`` show the events under other names (:mod:`causalgraph.graph.naming`).
Item ids: ``<task>/<variant>/<statement>/e<i>`` (per event), ``…/g`` (per statement),
``…/e<i>-e<j>`` (per pair), indices 0-based in node order.
"""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Any, Iterator, Optional, Sequence

from ..taskkit.item import Item, item_id
from ..encodings import check_order, prompt_graph
from ..errors import ConfigError, SchemaError
from ..scoring.event_lists import parse_event_list, set_scores, unreadable_event
from ..graph import CausalGraph, compile_graph
from ..model import Statement, as_statements
from ..graph.edits import SIGN_EDITS, edit_graph, join_edit, parse_edit, resolve_edit, split_edit
from ..graph.naming import event_names as _event_names, join_variant, rename_graph, split_variant
from .continuations import answer_continuations
from ..prompts import (ENCODING_PREFIXES, PromptVariant, catalog_variants, encoded_ids_hint, encoding_variant_id,
                       find_variant, with_encoding)
from .base import Task
from .kinds import Binary, EventSet
from .graph_first import own_graph, with_graph_first

__all__ = ["STRUCTURE_TASKS", "SET_TASKS", "items", "tasks", "list_structure_variants", "get_structure_variant",
           "descendants", "ancestors", "parents", "children", "sources", "sinks", "mediators", "common_causes",
           "reachability_pairs"]

#: The structure tasks, set-valued ones first.
STRUCTURE_TASKS = ("parents", "children", "sources", "sinks", "mediators", "common-cause", "reachability")
#: The tasks whose answer is a set of events.
SET_TASKS = STRUCTURE_TASKS[:-1]
_CATALOG = "structure"


# -- graph questions ------------------------------------------------------------------------------------

def _reach(graph: CausalGraph, start: str, step) -> set[str]:
    seen: set[str] = set()
    todo = deque(step(start))
    while todo:
        x = todo.popleft()
        if x not in seen:
            seen.add(x)
            todo.extend(step(x))
    # an event reaches itself only round a cycle, as networkx's descendants never hold the source
    seen.discard(start)
    return seen


def descendants(graph: CausalGraph, event: str) -> set[str]:
    """Events a directed path of one or more edges leads to from ``event`` (``event`` itself excluded)."""
    return _reach(graph, event, graph.successors)


def ancestors(graph: CausalGraph, event: str) -> set[str]:
    """Events from which a directed path leads to ``event`` (``event`` itself excluded)."""
    return _reach(graph, event, graph.predecessors)


def _in_node_order(graph: CausalGraph, events) -> list[str]:
    keep = set(events)
    return [n for n in graph.nodes if n in keep]


def parents(graph: CausalGraph, event: str) -> list[str]:
    """Events with an edge into ``event``, in node order.

    Examples
    --------
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "c"), Relation("b", "c"), Relation("c", "d")])
    >>> parents(g, "c"), children(g, "c"), sources(g), sinks(g)
    (['a', 'b'], ['d'], ['a', 'b'], ['d'])
    >>> mediators(g, "a", "d"), common_causes(g, "c", "d")
    (['c'], ['a', 'b'])
    """
    return _in_node_order(graph, graph.predecessors(event))


def children(graph: CausalGraph, event: str) -> list[str]:
    """Events ``event`` has an edge to, in node order."""
    return _in_node_order(graph, graph.successors(event))


def sources(graph: CausalGraph) -> list[str]:
    """Events with no edge into them (a self-loop counts as one), in node order."""
    return [n for n in graph.nodes if graph.in_degree(n) == 0]


def sinks(graph: CausalGraph) -> list[str]:
    """Events with no edge out of them, in node order."""
    return [n for n in graph.nodes if graph.out_degree(n) == 0]


def mediators(graph: CausalGraph, a: str, b: str) -> list[str]:
    """Events ``a`` leads to that lead to ``b``, other than ``a`` and ``b``, in node order."""
    return _in_node_order(graph, (descendants(graph, a) & ancestors(graph, b)) - {a, b})


def common_causes(graph: CausalGraph, a: str, b: str) -> list[str]:
    """Events that lead to both ``a`` and ``b``, other than ``a`` and ``b``, in node order."""
    return _in_node_order(graph, (ancestors(graph, a) & ancestors(graph, b)) - {a, b})


def _pick_key(statement_id: Any, i: int, j: int) -> str:
    return hashlib.sha256(f"{statement_id}/{i}/{j}".encode("utf-8")).hexdigest()


def reachability_pairs(graph: CausalGraph, nodes: Optional[Sequence[str]] = None) -> list[tuple[int, int, bool]]:
    """``(i, j, reachable)`` of the pairs asked: every pair of the smaller class and as many of the other.

    ``i`` and ``j`` index ``nodes`` (default the graph's node order; an edited graph's items index
    the real graph's events, so that each pairs with its real version).

    Examples
    --------
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    >>> sorted(r for _, _, r in reachability_pairs(g))
    [False, False, False, True, True, True]
    """
    nodes = list(graph.nodes) if nodes is None else list(nodes)
    reach, unreach = [], []
    for i, a in enumerate(nodes):
        d = descendants(graph, a)
        for j, b in enumerate(nodes):
            if i != j:
                (reach if b in d else unreach).append((i, j))
    k = min(len(reach), len(unreach))
    chosen = set()
    for group in (reach, unreach):
        chosen.update(sorted(group, key=lambda p: _pick_key(graph.statement_id, *p))[:k])
    reachable = set(reach)
    return [(i, j, (i, j) in reachable) for i, j in sorted(chosen)]


# -- variants -------------------------------------------------------------------------------------------

def list_structure_variants(task: str) -> list[PromptVariant]:
    """Every variant of a structure task: each stored template in each encoding (``A_1``, ``A_2``, ``SN_1`` …)."""
    _check_task(task)
    stored = catalog_variants(_CATALOG, task)
    return [with_encoding(v, enc) for enc in ENCODING_PREFIXES for v in stored]


def get_structure_variant(task: str, variant_id: str) -> PromptVariant:
    """One variant by id (without the names suffix)."""
    return find_variant(list_structure_variants(task), variant_id, task,
                        encoded_ids_hint() + ", optionally followed by .integer, .letters or .nonsense")


def _check_task(task: str) -> None:
    if task not in STRUCTURE_TASKS:
        raise ConfigError(f"unknown structure task {task!r}; expected one of {', '.join(STRUCTURE_TASKS)}")


def _resolve(task: str, variant: str, encoding: Optional[str], names: Optional[str]) -> tuple[PromptVariant, str]:
    base, scheme = split_variant(str(variant))
    if names is not None and scheme != "real" and names != scheme:
        raise ConfigError(f"variant {variant!r} names events {scheme!r} but event names {names!r} were asked")
    if names is not None:
        scheme = names
    if encoding is not None:
        base = encoding_variant_id(get_structure_variant(task, base).id, encoding,
                                   stored=[v.id for v in catalog_variants(_CATALOG, task)])
    return get_structure_variant(task, base), scheme


# -- items ----------------------------------------------------------------------------------------------

def _causal(corpus) -> Iterator[Statement]:
    for st in as_statements(corpus):
        if st.causal and st.relations:
            yield st


def items(corpus, task: str, variant: str, *, order: str = "paper", encoding: Optional[str] = None,
          event_names: Optional[str] = None, graph_edit: Optional[str] = None) -> list[Item]:
    """The items of one structure task and variant.

    Parameters
    ----------
    corpus
        A corpus or statements; every causal statement with relations gives its graph.
    task
        One of :data:`STRUCTURE_TASKS`.
    variant
        ``A_1`` … (see the module docstring), optionally with ``.integer``, ``.letters`` or ``.nonsense``.
    order
        Edge order of the graph text (``paper`` or ``data``).
    encoding, event_names
        Another encoding (``A_1`` with ``matrix`` is ``MX_1``) and event-name scheme.
    graph_edit
        ``real`` (default), ``reverse`` or ``shuffle`` (:mod:`causalgraph.graph.edits`): the prompt
        shows the edited graph and the golds are computed on it; items keep the real graph's event
        indices (``e<i>`` names the same event), and the variant id gets ``.<edit>``.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> st = Statement("s1", "A and B raise C.", True, (Relation("a", "c"), Relation("b", "c")))
    >>> it = items([st], "parents", "A_1")[1]      # events in node order: a, c, b
    >>> it.id, it.gold
    ('parents/A_1/s1/e001', ['a', 'b'])
    >>> items([st], "sources", "A_1", event_names="letters")[0].variant
    'A_1.letters'
    """
    _check_task(task)
    check_order(order)
    rest, edit = resolve_edit(variant, graph_edit)
    v, scheme = _resolve(task, rest, encoding, event_names)
    if parse_edit(edit)[0] in SIGN_EDITS:
        raise ConfigError(f"task {task} variant {v.id} cannot take graph edit {edit!r}: its graph is shown without "
                          f"correlation signs, so flipped signs would be nowhere in the prompt (flip-signs is for "
                          f"corri-multihop and net-effect)")
    vid = join_edit(join_variant(v.id, scheme), edit)
    out: list[Item] = []
    for st in _causal(corpus):
        real = compile_graph(st)
        # Golds come from the edited graph the prompt shows; events keep the real graph's indices.
        edited = edit_graph(real, edit, key=st.id)
        g = edited.graph
        shown = _event_names(real.nodes, scheme, key=st.id)
        if task in SET_TASKS:
            _check_readable(st, shown, task, vid)
        graph_text = prompt_graph(g if scheme == "real" else rename_graph(g, shown), v.encoding, order=order)
        base_meta: dict[str, Any] = {"statement_id": st.id, "events": [shown[n] for n in real.nodes],
                                     "encoding": v.encoding, "event_names": scheme, "edge_order": order}
        if scheme != "real":
            base_meta["real_events"] = list(real.nodes)
        if edit != "real":
            base_meta["graph_edit"] = edit
            if edited.permutation:
                base_meta["permutation"] = dict(edited.permutation)
        if st.meta.get("context") is not None:
            base_meta["context"] = st.meta["context"]  # e.g. the CauseNet provenance of a sampled subgraph

        def item(key: str, gold, **asked: tuple[int, str]) -> Item:
            values = {"graph": graph_text}
            meta = dict(base_meta)
            for ph, (idx, ev) in asked.items():
                values[ph] = shown[ev]
                suffix = "" if ph == "e_i" else "_j"
                meta[f"event{suffix}"] = shown[ev]
                meta[f"event{suffix}_index"] = idx
            if isinstance(gold, list):
                gold = [shown[x] for x in gold]
            return Item(id=item_id(task, vid, st.id, key), task=task, variant=vid,
                        prompt=v.render(**{k: values[k] for k in v.placeholders}), gold=gold, meta=meta)

        nodes = list(real.nodes)
        if task in ("parents", "children"):
            fn = parents if task == "parents" else children
            out += [item(f"e{i:03d}", fn(g, x), e_i=(i, x)) for i, x in enumerate(nodes)]
        elif task in ("sources", "sinks"):
            out.append(item("g", sources(g) if task == "sources" else sinks(g)))
        elif task == "reachability":
            out += [item(f"e{i:03d}-e{j:03d}", "yes" if r else "no", e_i=(i, nodes[i]), e_j=(j, nodes[j]))
                    for i, j, r in reachability_pairs(g, nodes)]
        else:
            for i, a in enumerate(nodes):
                for j, b in enumerate(nodes):
                    if i == j or (task == "common-cause" and j < i):
                        continue
                    gold = mediators(g, a, b) if task == "mediators" else common_causes(g, a, b)
                    if gold:
                        out.append(item(f"e{i:03d}-e{j:03d}", gold, e_i=(i, a), e_j=(j, b)))
    return out


def _check_readable(st: Statement, shown: dict, task: str, variant: str) -> None:
    """Refuse a statement with an event no set-valued answer can name exactly (a line break, ``none`` …)."""
    for name in shown.values():
        why = unreadable_event(name)
        if why is None:
            continue
        rows = st.source_rows
        place = (f"row {rows[0]}" if len(rows) == 1 else f"rows {', '.join(map(str, rows))}") if rows else ""
        where = (f"{st.source_file}: " if st.source_file else "") + (f"{place} (statement {st.id})" if place
                                                                     else f"statement {st.id}")
        raise SchemaError(f"{where}: event {name!r} {why}; a set-valued "
                          f"task ({task} {variant}) cannot ask about this statement: rename the event in the corpus, or "
                          f"show events under other names (--event-names integer)")


# -- the tasks ------------------------------------------------------------------------------------------

def _parse_set(text: str, variant: str) -> tuple[Any, str]:
    return parse_event_list(text)


def _task(name: str) -> Task:
    def build(corpus, variant, _name=name, **options):
        return items(corpus, _name, variant, **options)

    def canonical(variant, _name=name):
        rest, edit = split_edit(variant)
        base, scheme = split_variant(rest)
        return join_edit(join_variant(get_structure_variant(_name, base).id, scheme), edit)

    def strategy(variant, _name=name):
        return get_structure_variant(_name, split_variant(split_edit(variant)[0])[0]).strategy

    def words(variant, _name=name):
        return dict(get_structure_variant(_name, split_variant(split_edit(variant)[0])[0]).answer_labels)

    common = dict(name=name, build_items=build,
                  list_variants=lambda _n=name: [v.id for v in list_structure_variants(_n)],
                  strategy=strategy, canonical_variant=canonical, default_data="climatecause",
                  item_options=("order", "encoding", "event_names", "graph_edit"))
    def continuations(variant, _name=name):
        # The edit and event-name suffixes change the graph shown, not the answer asked for.
        v = get_structure_variant(_name, split_variant(split_edit(variant)[0])[0])
        return answer_continuations(v.template, dict(v.answer_labels), f"{_name} variant {variant}")

    if name == "reachability":
        return Task(answers=Binary(labels=("yes", "no"), positive="yes", answer_words=words,
                                   continuations=continuations),
                    description="does one event lead to another through the graph (yes/no, balanced per statement)",
                    **common)
    # An answer is right when its set of events is exactly the gold set (EventSet's own rule).
    return Task(answers=EventSet(score=set_scores), parse=_parse_set,
                description=f"the set of {name.replace('-', ' ')} events of each causal graph "
                            f"(micro/macro P/R/F1, exact-set accuracy)", **common)


def tasks() -> list[Task]:
    """The seven structure tasks.

    Examples
    --------
    >>> [t.name for t in tasks()][:3], tasks()[-1].kind
    (['parents', 'children', 'sources'], 'binary')
    """
    return [with_graph_first(_task(name), _structure_question) for name in STRUCTURE_TASKS]


def _structure_question(item: Item, base: str) -> tuple[str, list[str]]:
    """A structure item's question in a graph-first prompt: the template with the model's own graph."""
    stored = [v.id for v in catalog_variants(_CATALOG, item.task)]
    if base not in stored:
        raise ConfigError(f"task {item.task} variant {base}: a graph-first variant asks a stored question "
                          f"({', '.join('GF_' + v for v in stored)}); the encoding of the graph is the model's own")
    v = get_structure_variant(item.task, base)
    meta = item.meta
    values = {"graph": own_graph(v.template), "e_i": meta.get("event"), "e_j": meta.get("event_j")}
    return v.render(**{k: values[k] for k in v.placeholders}), list(meta["events"])
