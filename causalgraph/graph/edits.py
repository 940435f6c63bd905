"""Counterfactual graphs: the statement's graph as annotated, reversed, or with its events shuffled.

A model that answers a chain question about a climate statement may read the graph it is given or
recall what it knows about the world (IPCC text is in every model's training data).  Editing the
graph so that it states causes the world does not know separates the two, as CLadder's
anti-commonsense variants do:

``real``
    the graph as annotated;
``reverse``
    every edge reversed (each relation's cause and effect swapped, with what describes them), so
    ``start`` and ``end`` trade places and "drought causes crop failure" becomes "crop failure
    causes drought";
``shuffle``
    the statement's events permuted over its nodes: the graph keeps its structure (it is isomorphic
    to the real one) but the event on each node is another, so it states causes such as "drought
    causes climate change";
``flip-signs``
    every edge keeps its events but states the opposite correlation (``positive`` ↔ ``negative``;
    a pair annotated with both signs, or with none, stays so), so "warming raises sea level"
    becomes "warming lowers sea level".  Only prompts that state signs can show it (multi-hop
    CorrI's chain facts, the signed graph encodings, ``net-effect``);
``flip-signs:k``
    the same for ``k`` of the statement's signed edges (``k`` ≥ 1): the edges are put in an order
    drawn from the seed and the statement id and the first ``k`` are flipped, so the edges flipped
    under ``flip-signs:2`` include those of ``flip-signs:1`` (a dose–response).  A statement with
    ``k`` or fewer signed edges has all of them flipped; :attr:`EditedGraph.flipped` says which.

The permutation is drawn from a generator seeded by the seed and the statement id, as the event
names are (:mod:`causalgraph.graph.naming`; ``random.Random(str)`` hashes the string with SHA-512), so it
is the same on every run whatever ``PYTHONHASHSEED`` is.  It is never the identity nor a symmetry of
the graph (a permutation that maps the edge set onto itself would show the real graph); only a graph
every permutation maps onto itself (no edge, or every ordered pair an edge) keeps its edges.

Variant ids carry a non-real edit after a dot, after the event-name scheme: ``A_5.reverse``,
``A_5.nonsense.shuffle`` (``A_5.real`` is ``A_5``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Optional

from ..errors import ConfigError
from . import compile_graph
from ..model import Correlation

__all__ = ["GRAPH_EDITS", "SIGN_EDITS", "DEFAULT_SEED", "EditedGraph", "check_edit", "parse_edit", "is_edit",
           "edit_graph", "reverse_graph", "shuffle_graph", "shuffle_permutation", "flip_signs", "flip_order",
           "split_edit", "join_edit", "resolve_edit"]

#: Graph edits, ``real`` first (``flip-signs`` also takes a count: ``flip-signs:3``).
GRAPH_EDITS = ("real", "reverse", "shuffle", "flip-signs")
#: The edits that change edge signs only: a prompt must state signs to show them.
SIGN_EDITS = ("flip-signs",)
#: Seed of the shuffle in item builders.
DEFAULT_SEED = 0

# More draws than any graph needs: a drawn permutation is a symmetry with probability |Aut|/n! <= 1/2
# once the graph has an edge, so 64 failed draws happen with probability below 2^-64.
_MAX_DRAWS = 64


_COUNTED = re.compile(r"(flip-signs):([1-9][0-9]*)")


def parse_edit(edit: str) -> tuple[str, Optional[int]]:
    """``(edit name, count)`` of an edit: ``"flip-signs:3"`` → ``("flip-signs", 3)``, ``"reverse"`` → ``("reverse", None)``.

    Raises
    ------
    ConfigError
        For anything but one of :data:`GRAPH_EDITS` or ``flip-signs:k`` with ``k`` a positive integer
        written without leading zeros (so that each edit has one spelling, and one variant id).

    Examples
    --------
    >>> parse_edit("flip-signs:3"), parse_edit("shuffle")
    (('flip-signs', 3), ('shuffle', None))
    >>> parse_edit("flip-signs:0")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: unknown graph edit 'flip-signs:0'; expected one of real, reverse, shuffle, flip-signs, or flip-signs:k (k = 1, 2, …: flip k edges)
    """
    if not isinstance(edit, str):
        raise ConfigError(f"graph edit {edit!r}: expected a string, found {type(edit).__name__}")
    if edit in GRAPH_EDITS:
        return edit, None
    m = _COUNTED.fullmatch(edit)
    if m:
        return m.group(1), int(m.group(2))
    raise ConfigError(f"unknown graph edit {edit!r}; expected one of {', '.join(GRAPH_EDITS)}, or flip-signs:k "
                      f"(k = 1, 2, …: flip k edges)")


def is_edit(text: str) -> bool:
    """Whether ``text`` names a graph edit (``flip-signs:2`` included).

    Examples
    --------
    >>> is_edit("reverse"), is_edit("flip-signs:2"), is_edit("nonsense")
    (True, True, False)
    """
    return isinstance(text, str) and (text in GRAPH_EDITS or _COUNTED.fullmatch(text) is not None)


def check_edit(edit: str) -> None:
    """Raise :class:`~causalgraph.errors.ConfigError` unless ``edit`` names a graph edit (:func:`parse_edit`)."""
    parse_edit(edit)


@dataclass(frozen=True)
class EditedGraph:
    """A statement's graph after an edit.

    Attributes
    ----------
    graph
        The edited :class:`~causalgraph.graph.CausalGraph` (its node order is the order of first
        appearance in the edited relations, as a spreadsheet of them would give).
    edit
        One of :data:`GRAPH_EDITS`.
    permutation
        ``shuffle``: real event → the event the shuffled graph puts on its node (every event of
        the graph, in real node order); empty otherwise.
    flipped
        ``flip-signs``: the ``(cause, effect)`` pairs whose correlation was flipped, in edge order;
        empty otherwise.
    """

    graph: object
    edit: str
    permutation: dict
    flipped: tuple = ()


def _swap(r):
    return replace(r, cause=r.effect, effect=r.cause, cause_np=r.effect_np, effect_np=r.cause_np,
                   cause_context=r.effect_context, effect_context=r.cause_context,
                   cause_belongs_to=r.effect_belongs_to, effect_belongs_to=r.cause_belongs_to)


def reverse_graph(graph):
    """The graph with every edge reversed (relations kept, in edge order, cause and effect swapped).

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation
    >>> reverse_graph(compile_graph([Relation("a", "b"), Relation("b", "c")])).pairs
    [('b', 'a'), ('c', 'b')]
    """
    g = compile_graph([_swap(r) for e in graph.edges for r in e.relations])
    return replace(g, statement_id=graph.statement_id)


def _edge_set(graph, perm: dict) -> frozenset:
    return frozenset((perm[a], perm[b]) for a, b in graph.pairs)


def shuffle_permutation(graph, *, key: object = "", seed: int = DEFAULT_SEED) -> dict:
    """The seeded permutation ``shuffle`` applies: real event → the event put on its node.

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    >>> p = shuffle_permutation(g, key="cc-001")
    >>> sorted(p) == sorted(p.values()) == ["a", "b", "c"], p == shuffle_permutation(g, key="cc-001")
    (True, True)
    """
    nodes = list(graph.nodes)
    identity = {n: n for n in nodes}
    if len(nodes) < 2:
        return identity
    real = _edge_set(graph, identity)
    rng = random.Random(f"causalgraph-graph-edit/{seed}/shuffle/{key}")
    n = len(nodes)
    # Every permutation maps the edge set onto itself only when it holds no pair of distinct events
    # or all of them (self-loops: none or all); then no shuffle can show another graph.
    off = {(a, b) for a, b in real if a != b}
    loops = {a for a, b in real if a == b}
    invariant = (not off or len(off) == n * (n - 1)) and (not loops or len(loops) == n)
    for _ in range(_MAX_DRAWS):
        order = nodes[:]
        rng.shuffle(order)
        perm = dict(zip(nodes, order))
        if perm == identity:
            continue
        if invariant or _edge_set(graph, perm) != real:
            return perm
    raise ConfigError(f"statement {graph.statement_id}: no shuffle of its {n} events that changes the graph was "
                      f"drawn in {_MAX_DRAWS} tries")


def shuffle_graph(graph, *, key: object = "", seed: int = DEFAULT_SEED):
    """``(shuffled graph, permutation)``: each relation's events replaced through :func:`shuffle_permutation`.

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    >>> h, p = shuffle_graph(g, key="cc-001")
    >>> h.pairs == [(p["a"], p["b"]), (p["b"], p["c"])]
    True
    """
    perm = shuffle_permutation(graph, key=key, seed=seed)
    # The noun-phrase forms, contexts and belongs-to events describe the real events, not the ones
    # now on their nodes, so they are dropped (as renamed graphs drop them).
    rels = [replace(r, cause=perm[r.cause], effect=perm[r.effect], cause_np=None, effect_np=None,
                    cause_context=None, effect_context=None, cause_belongs_to=None, effect_belongs_to=None)
            for e in graph.edges for r in e.relations]
    g = compile_graph(rels)
    return replace(g, statement_id=graph.statement_id), perm


_FLIP = {Correlation.POSITIVE: Correlation.NEGATIVE, Correlation.NEGATIVE: Correlation.POSITIVE}


def _signed(edge) -> bool:
    return edge.correlation is not None


def flip_order(graph, *, key: object = "", seed: int = DEFAULT_SEED) -> list[tuple[str, str]]:
    """The signed edges (one correlation label) in the seeded order ``flip-signs:k`` flips them.

    The order depends on the statement (``key``) and the seed only, not on ``k``, so ``flip-signs:k``
    flips the first ``k`` edges of one list.

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation, Correlation
    >>> P = Correlation.POSITIVE
    >>> g = compile_graph([Relation("a", "b", correlation=P), Relation("b", "c", correlation=P), Relation("c", "d")])
    >>> sorted(flip_order(g, key="s1"))          # c -> d carries no label
    [('a', 'b'), ('b', 'c')]
    """
    pairs = [(e.cause, e.effect) for e in graph.edges if _signed(e)]
    random.Random(f"causalgraph-graph-edit/{seed}/flip-signs/{key}").shuffle(pairs)
    return pairs


def flip_signs(graph, k: Optional[int] = None, *, key: object = "", seed: int = DEFAULT_SEED):
    """``(graph, flipped pairs)``: the correlation of every edge (``k=None``) or of ``k`` edges reversed.

    Every labelled relation of a flipped pair gets the opposite correlation (one left unlabelled beside
    a labelled one stays so); a pair whose relations carry both signs, or none, is never drawn and
    stays as it is (flipping both signs gives both signs).
    The events, edges, polarity and everything else are kept.

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation, Correlation
    >>> P, N = Correlation.POSITIVE, Correlation.NEGATIVE
    >>> g = compile_graph([Relation("a", "b", correlation=P), Relation("b", "c", correlation=N)])
    >>> h, flipped = flip_signs(g)
    >>> [str(e.correlation) for e in h.edges], flipped
    (['negative', 'positive'], (('a', 'b'), ('b', 'c')))
    >>> len(flip_signs(g, 1, key="s1")[1])
    1
    """
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ConfigError(f"flip-signs: k must be a positive integer, found {k!r}")
    if k is None:
        chosen = {(e.cause, e.effect) for e in graph.edges if _signed(e)}
    else:
        chosen = set(flip_order(graph, key=key, seed=seed)[:k])
    rels = [replace(r, correlation=_FLIP[r.correlation]) if (e.cause, e.effect) in chosen and r.correlation else r
            for e in graph.edges for r in e.relations]
    g = replace(compile_graph(rels), statement_id=graph.statement_id)
    return g, tuple((e.cause, e.effect) for e in graph.edges if (e.cause, e.effect) in chosen)


def edit_graph(graph, edit: str, *, key: object = "", seed: int = DEFAULT_SEED) -> EditedGraph:
    """Apply one of :data:`GRAPH_EDITS` to a statement's graph.

    Parameters
    ----------
    graph
        A compiled :class:`~causalgraph.graph.CausalGraph`.
    edit
        ``real`` (the graph itself), ``reverse``, ``shuffle``, ``flip-signs`` or ``flip-signs:k``.
    key, seed
        What makes the shuffle (and the edges ``flip-signs:k`` draws) the statement's own (its id)
        and its seed.

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    >>> edit_graph(g, "reverse").graph.pairs, edit_graph(g, "real").graph is g
    ([('b', 'a'), ('c', 'b')], True)
    """
    name, k = parse_edit(edit)
    if name == "real":
        return EditedGraph(graph, edit, {})
    if name == "reverse":
        return EditedGraph(reverse_graph(graph), edit, {})
    if name == "flip-signs":
        g, flipped = flip_signs(graph, k, key=key, seed=seed)
        return EditedGraph(g, edit, {}, flipped)
    g, perm = shuffle_graph(graph, key=key, seed=seed)
    return EditedGraph(g, edit, perm)


def split_edit(variant: str) -> tuple[str, str]:
    """``(variant without the edit suffix, edit)``: ``"A_5.nonsense.reverse"`` → ``("A_5.nonsense", "reverse")``.

    Examples
    --------
    >>> split_edit("A_5.shuffle"), split_edit("A_5.letters"), split_edit("A_5")
    (('A_5', 'shuffle'), ('A_5.letters', 'real'), ('A_5', 'real'))
    >>> split_edit("0_3.flip-signs:2")
    ('0_3', 'flip-signs:2')
    """
    head, dot, last = str(variant).rpartition(".")
    if dot and is_edit(last):
        return head, last
    return str(variant), "real"


def resolve_edit(variant: str, graph_edit: Optional[str] = None) -> tuple[str, str]:
    """``(variant without its edit suffix, edit)`` of a variant id and a ``graph_edit`` option together.

    The option may repeat the suffix or stand for it; naming two different edits is refused.

    Examples
    --------
    >>> resolve_edit("A_5.reverse"), resolve_edit("A_5", "shuffle"), resolve_edit("A_5.reverse", "reverse")
    (('A_5', 'reverse'), ('A_5', 'shuffle'), ('A_5', 'reverse'))
    >>> resolve_edit("A_5.reverse", "shuffle")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: variant 'A_5.reverse' edits the graph ('reverse') but graph edit 'shuffle' was asked
    """
    rest, edit = split_edit(str(variant))
    if edit == "real" and str(variant).rpartition(".")[2].startswith("flip-signs"):
        # A miswritten count (A_1.flip-signs:0): parse_edit's error, not an unknown event-name scheme.
        parse_edit(str(variant).rpartition(".")[2])
    if graph_edit is not None:
        check_edit(graph_edit)
        if edit != "real" and graph_edit != edit:
            raise ConfigError(f"variant {variant!r} edits the graph ({edit!r}) but graph edit {graph_edit!r} was asked")
        edit = graph_edit
    return rest, edit


def join_edit(variant: str, edit: Optional[str]) -> str:
    """The variant id of ``variant`` under ``edit`` (``real`` adds nothing).

    Examples
    --------
    >>> join_edit("A_5", "reverse"), join_edit("A_5.integer", "shuffle"), join_edit("A_5", "real")
    ('A_5.reverse', 'A_5.integer.shuffle', 'A_5')
    """
    if edit is None or edit == "real":
        return variant
    check_edit(edit)
    return f"{variant}.{edit}"
