"""The ClimateCause tasks (paper §6) and multi-hop CorrI: items, labels, strategies, scoring extras.

``items(corpus, task, variant)`` turns a corpus into :class:`~causalgraph.taskkit.item.Item`
records: a rendered prompt, the canonical gold label and provenance; ``tasks()``
declares one :class:`~causalgraph.tasks.Task` per task of the prompt catalog.

========================  ==================================  ======================
task                      one item per                        gold
========================  ==================================  ======================
``corri``                 causal relation row (data order)    correlation
``corri-rc``              causal relation row, with statement correlation
``ccr-member``            event of each causal graph          ``yes`` / ``no``
``ccr-position``          event of each causal graph          start/middle/end/none
``ccr-eci-member``        event, statement + event list       ``yes`` / ``no``
``ccr-eci-position``      event, statement + event list       start/middle/end/none
``corri-multihop``        chain with unambiguous edge signs   composed correlation
========================  ==================================  ======================

Events are the no-quantifier forms; graph events follow graph node order
(first appearance in the data).  Graphs embedded in prompts list their edges
in the ClimateCause authors' order by default (``order="paper"``, see
:mod:`causalgraph.encodings`); ``order="data"`` keeps data order.  The paper's
six tasks build their prompts from the authors' catalog by default
(``prompts="authors"``: the text their code sent) or from the printed tables
(``prompts="tables"``); see :mod:`causalgraph.prompts`.  Item ids read
``<task>/<variant>/<statement id>/r<relation index>`` (CorrI),
``…/e<event index>`` (CCR) and ``…/p<chain index>`` (multi-hop), indices
0-based within the statement, so the same data always gives the same ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Optional, Sequence

from ..encodings import check_order, prompt_graph
from ..errors import ConfigError, SchemaError
from ..graph import CausalGraph, compile_graph
from ..metrics.chains import RULES, chain_labels, chain_stats
from ..model import Statement, as_statements
from ..taskkit.item import Item, item_id
from ..graph.edits import SIGN_EDITS, check_edit, edit_graph, join_edit, parse_edit, resolve_edit, split_edit
from ..graph.naming import event_names as _event_names, join_variant, rename_graph, split_variant
from ..prompts import PromptVariant, catalog_variants, encoding_variant_id, get_variant, resolve_catalog
from ..scoring.scores import binary_scores
from .base import Task
from .kinds import AnswerKind, Binary, Multiclass, Signs
from .continuations import answer_continuations
from .graph_first import GRAPH_FIRST_TASKS, own_graph, with_graph_first
from .. import prompts

__all__ = ["TASK_NAMES", "PAPER_TASKS", "items", "multihop_chains", "MultihopChain", "DEFAULT_MAX_CHAINS", "tasks",
           "variant_strategy", "collapse_position", "authors_position_score", "POSITION_LABELS", "MEMBERSHIP_LABELS"]

TASK_NAMES = ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position",
              "corri-multihop")

#: The ClimateCause benchmark tasks of the paper (§6.1, Table 4), what ``bench plan --task all`` runs.
PAPER_TASKS = ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position")

#: Chain-position labels; ``none`` means "not in a chain".
POSITION_LABELS = ("start", "middle", "end", "none")
#: Chain-membership labels.
MEMBERSHIP_LABELS = ("yes", "no")

#: Words in the paper's variant ids (``CorrI_RC_F_2``, ``CCR_ECI_member_0_4``) that name the task.
VARIANT_WORDS = ("rc", "corri", "ccr", "eci", "member", "membership", "position", "pos", "mem")

#: Per-statement bound on the chains the multi-hop task enumerates.
DEFAULT_MAX_CHAINS = 10_000


@dataclass(frozen=True)
class MultihopChain:
    """A chain whose edges all carry one correlation, and the composed sign.

    ``index`` numbers every chain of the statement (also those skipped for
    ambiguous labels) in enumeration order, so ids stay stable.
    """

    statement_id: Optional[str]
    index: int
    events: tuple[str, ...]
    correlations: tuple[str, ...]
    composed: str


def _causal(corpus) -> Iterator[Statement]:
    for st in as_statements(corpus):
        if st.causal and st.relations:
            yield st


def _variant(task: str, variant, prompts: Optional[str] = None) -> PromptVariant:
    if task not in TASK_NAMES:
        raise ConfigError(f"unknown task {task!r}; expected one of {', '.join(TASK_NAMES)}")
    if isinstance(variant, PromptVariant):
        if variant.task != task:
            raise ConfigError(f"variant {variant.task}/{variant.id} does not belong to task {task}")
        if prompts is not None and variant.catalog is not None and variant.catalog != prompts:
            raise ConfigError(f"variant {variant.task}/{variant.id} comes from the {variant.catalog!r} prompts, "
                              f"not {prompts!r}")
        return variant
    return get_variant(task, str(variant), prompts)


def _graph_text(g: CausalGraph, v: PromptVariant, order: str) -> str:
    # One rule (encodings.prompt_graph): the encoding's line breaks everywhere; the full stop after the
    # graph is the template's where it has one.  The authors' templates carry it ("${graph}. Based"), so
    # the paper's encodings go in as their code put networkx's text; a multi-line encoding still stands
    # on its own lines, as it does in the tables' prompts and the structure tasks'.
    return prompt_graph(g, v.encoding, order=order, full_stop=v.graph_text != "encoded")


def _edit_of(task: str, variant, graph_edit: Optional[str]) -> tuple[Any, str]:
    """``(variant without its edit suffix, graph edit)`` of a variant id (``A_5.reverse``) plus the option."""
    if isinstance(variant, PromptVariant):
        if graph_edit is not None:
            check_edit(graph_edit)
        return variant, graph_edit if graph_edit is not None else "real"
    return resolve_edit(variant, graph_edit)


def _check_edit_prompt(task: str, v: PromptVariant, edit: str) -> None:
    """An edited graph must be what the prompt shows: refuse prompts without a graph or with the statement."""
    if edit == "real":
        return
    if "graph" not in v.placeholders:
        raise ConfigError(f"task {task} variant {v.id} cannot take graph edit {edit!r}: its prompt holds no graph, so "
                          f"the edited graph would be nowhere in the prompt and its gold not answerable from it "
                          f"(graph variants: ccr-member and ccr-position A_/SN_/ML_ ids)")
    if "s" in v.placeholders:
        raise ConfigError(f"task {task} variant {v.id} cannot take graph edit {edit!r}: its prompt holds the "
                          f"statement text, which states the real causes")


def _resolve(task: str, variant, encoding: Optional[str], names: Optional[str],
             prompts: Optional[str] = None) -> tuple[PromptVariant, str]:
    """The prompt variant and event-name scheme of a variant id (``MX_5.nonsense``) plus the options."""
    if isinstance(variant, PromptVariant):
        base, scheme = variant.id, "real"
    else:
        base, scheme = split_variant(str(variant))
    if names is not None and names != scheme and scheme != "real":
        raise ConfigError(f"variant {variant!r} names events {scheme!r} but event names {names!r} were asked")
    scheme = names if names is not None else scheme
    if encoding is not None:
        v = _variant(task, base if not isinstance(variant, PromptVariant) else variant, prompts)
        if "graph" not in v.placeholders:
            raise ConfigError(f"task {task} variant {v.id}: its prompt holds no graph, so it takes no encoding "
                              f"(graph variants: ccr-member and ccr-position A_/SN_/ML_ ids)")
        base = encoding_variant_id(v.id, encoding, stored=[c.id for c in catalog_variants("climatecause", task)])
        variant = base
    v = _variant(task, variant if isinstance(variant, PromptVariant) else base, prompts)
    if scheme != "real":
        if "s" in v.placeholders:
            raise ConfigError(f"task {task} variant {v.id} cannot take event names {scheme!r}: its prompt holds the "
                              f"statement text, which names the real events")
        if "graph" not in v.placeholders:
            raise ConfigError(f"task {task} variant {v.id} cannot take event names {scheme!r}: its prompt holds no "
                              f"graph, only the events, so renamed events leave nothing to answer from")
    return v, scheme


def _corri_items(corpus, task: str, v: PromptVariant) -> list[Item]:
    out = []
    for st in _causal(corpus):
        for i, r in enumerate(st.relations):
            if r.correlation is None:
                src = r.source_file or st.source_file or "corpus"
                # JSON corpora (PubMedCausal) number records, spreadsheets rows.
                unit = "record" if str(src).lower().endswith(".json") else "row"
                where = f"{src}, {unit} {r.source_row}" if r.source_row else st.id
                raise SchemaError(
                    f"{where}: statement {st.id} relation {i} ({r.cause!r} -> {r.effect!r}) has no correlation "
                    f"label (ClimateCause column 'Correlation'); expected positive or negative for task {task}")
            values = {"e_i": r.cause, "e_j": r.effect}
            if "s" in v.placeholders:
                values["s"] = st.text
            out.append(Item(
                id=item_id(task, v.id, st.id, f"r{i:03d}"), task=task, variant=v.id, prompt=v.render(**values),
                gold=r.correlation.value,
                meta=_with_catalog({"statement_id": st.id, "relation_index": i, "source_row": r.source_row,
                                    "cause": r.cause, "effect": r.effect}, v),
            ))
    return out


def _with_catalog(meta: dict, v: PromptVariant) -> dict:
    # Items of the tables keep the meta they always had (runs written before the choice are tables
    # runs and read as such); the authors' items say so.
    if v.catalog not in (None, "tables"):
        meta["prompts"] = v.catalog
    return meta


def _ccr_items(corpus, task: str, v: PromptVariant, rule: str, order: str, scheme: str = "real",
               edit: str = "real") -> list[Item]:
    member = task.endswith("member")
    vid = join_edit(join_variant(v.id, scheme), edit)
    out = []
    for st in _causal(corpus):
        g = compile_graph(st)
        # A graph edit (graph_edits): the prompt shows the edited graph and the golds are its positions,
        # while items stay those of the real graph's events (same ids), so each pairs with its real version.
        edited = edit_graph(g, edit, key=st.id)
        shown_graph = edited.graph
        labels = chain_labels(shown_graph, rule)
        # Renamed events (event_names): the graph and the asked event are shown under their names.
        shown = _event_names(g.nodes, scheme, key=st.id)
        shared: dict[str, str] = {}
        if "graph" in v.placeholders:
            shared["graph"] = _graph_text(shown_graph if scheme == "real" else rename_graph(shown_graph, shown),
                                          v, order)
        if "event_list" in v.placeholders:
            shared["event_list"] = "[" + ", ".join(g.nodes) + "]"
        if "s" in v.placeholders:
            shared["s"] = st.text
        for i, event in enumerate(g.nodes):
            pos = labels[event]
            membership = "yes" if pos.member else "no"
            meta = {"statement_id": st.id, "event": event, "event_index": i, "rule": rule,
                    "membership": membership, "position": pos.value}
            if "graph" in shared:
                meta["edge_order"] = order
            if scheme != "real":
                meta.update(event=shown[event], real_event=event, event_names=scheme)
            _with_catalog(meta, v)
            if edit != "real":
                meta["graph_edit"] = edit
                if edited.permutation:
                    meta["permutation"] = dict(edited.permutation)
            if st.meta.get("context") is not None:
                # a relations file's statement context (sample-subgraphs: the CauseNet provenance) travels along
                meta["context"] = st.meta["context"]
            out.append(Item(
                id=item_id(task, vid, st.id, f"e{i:03d}"), task=task, variant=vid,
                prompt=v.render(e_i=shown[event], **shared),
                gold=membership if member else pos.value,
                meta=meta,
            ))
    return out


def multihop_chains(graph: CausalGraph, max_chains: int = DEFAULT_MAX_CHAINS) -> list[MultihopChain]:
    """Chains (simple paths of >= 3 events) whose edges all carry one correlation label.

    The composed correlation multiplies the edge signs (positive · negative =
    negative, negative · negative = positive).  Chains are enumerated from
    each event in node order, following effects in edge order; before
    enumerating, the chains are counted by dynamic programming and more than
    ``max_chains`` raises :class:`~causalgraph.errors.ConfigError`.

    Examples
    --------
    >>> from causalgraph.model import Relation, Correlation
    >>> P, N = Correlation.POSITIVE, Correlation.NEGATIVE
    >>> g = compile_graph([Relation("a", "b", correlation=P), Relation("b", "c", correlation=N)])
    >>> [(c.events, c.composed) for c in multihop_chains(g)]
    [(('a', 'b', 'c'), 'negative')]
    """
    stats = chain_stats(graph)
    if stats.n_chains > max_chains:
        raise ConfigError(f"statement {graph.statement_id}: its graph has {stats.n_chains} chains, more than "
                          f"max_chains={max_chains}; raise the limit to build multi-hop items for it")
    out: list[MultihopChain] = []
    counter = 0
    for root in graph.nodes:
        # iterative DFS over simple paths; self-loops never extend a simple path
        stack: list[tuple[str, int]] = [(root, 0)]
        on_path = {root}
        while stack:
            v, i = stack[-1]
            succ = graph.successors(v)
            if i >= len(succ):
                stack.pop()
                on_path.discard(v)
                continue
            stack[-1] = (v, i + 1)
            u = succ[i]
            if u in on_path:
                continue
            stack.append((u, 0))
            on_path.add(u)
            if len(stack) >= 3:
                events = tuple(n for n, _ in stack)
                corrs = [graph.edge(a, b).correlation for a, b in zip(events, events[1:])]
                if all(c is not None for c in corrs):
                    sign = 1
                    for c in corrs:
                        sign *= c.sign
                    out.append(MultihopChain(graph.statement_id, counter, events,
                                             tuple(c.value for c in corrs),
                                             "positive" if sign > 0 else "negative"))
                counter += 1
    return out


def _multihop_items(corpus, task: str, v: PromptVariant, max_chains: int, edit: str = "real") -> list[Item]:
    vid = join_edit(v.id, edit)
    out = []
    for st in _causal(corpus):
        # flip-signs (graph_edits) keeps every edge, so the edited graph has the same chains, in the same
        # order and with the same indices: each item pairs with its real version; only signs and golds change.
        edited = edit_graph(compile_graph(st), edit, key=st.id)
        flipped = set(edited.flipped)
        for ch in multihop_chains(edited.graph, max_chains):
            facts = " ".join(v.render_fact(a, b, c) for a, b, c in zip(ch.events, ch.events[1:], ch.correlations))
            meta = {"statement_id": st.id, "chain_index": ch.index, "events": list(ch.events),
                    "edge_correlations": list(ch.correlations), "cause": ch.events[0], "effect": ch.events[-1],
                    "hops": len(ch.events) - 1,
                    "negative_edges": sum(1 for c in ch.correlations if c == "negative")}
            if edit != "real":
                meta["graph_edit"] = edit
                meta["flipped"] = [[a, b] for a, b in zip(ch.events, ch.events[1:]) if (a, b) in flipped]
            out.append(Item(
                id=item_id(task, vid, st.id, f"p{ch.index:04d}"), task=task, variant=vid,
                prompt=v.render(chain=facts, e_i=ch.events[0], e_j=ch.events[-1]),
                gold=ch.composed, meta=meta,
            ))
    return out


def items(corpus, task: str, variant, *, rule: str = "path", max_chains: int = DEFAULT_MAX_CHAINS,
          order: str = "paper", encoding: Optional[str] = None, event_names: Optional[str] = None,
          prompts: Optional[str] = None, graph_edit: Optional[str] = None) -> list[Item]:
    """Build the benchmark items of one task and prompt variant.

    Parameters
    ----------
    corpus
        A :class:`~causalgraph.model.Corpus` (or a sequence of statements);
        only causal statements contribute.
    task
        One of :data:`TASK_NAMES`.
    variant
        A variant id (``"0_1"``, ``"RC_F_2"``, ``"SN_5"``, ``"CoT_6"`` …), a
        paper name (``"CCR_member_SN_5"``) or a
        :class:`~causalgraph.prompts.PromptVariant`.
    rule
        Chain rule for the CCR golds: ``"path"`` (the paper's definition,
        default) or ``"shortest-distance"``.
    max_chains
        Per-statement bound for ``corri-multihop``.
    order
        Edge order of graphs embedded in prompts: ``"paper"`` (default, the
        authors' networkx order) or ``"data"`` (see :mod:`causalgraph.encodings`).
    encoding
        Write the graph of a graph variant in another encoding: ``A_5`` with
        ``"matrix"`` is variant ``MX_5`` (see :mod:`causalgraph.prompts`).
    event_names
        ``real`` (default), ``integer``, ``letters`` or ``nonsense``
        (:mod:`causalgraph.graph.naming`); the variant id gets ``.<scheme>``.  Only
        for prompts that hold the graph and not the statement text.
    prompts
        The prompt catalog: ``"authors"`` (default for the paper's six tasks:
        the text the ClimateCause authors sent) or ``"tables"`` (Tables 23–29
        as printed; multi-hop has only this one).  Item ids, golds and answer
        words are the same under both; items of the authors' catalog carry
        ``meta["prompts"] = "authors"``.
    graph_edit
        ``real`` (default), ``reverse`` or ``shuffle`` (:mod:`causalgraph.graph.edits`): the
        prompt shows the edited graph and the gold is the asked event's membership or position
        in it; the variant id gets ``.<edit>``.  Only for prompts that hold the graph and not the
        statement text (the CCR graph variants).  ``flip-signs`` and ``flip-signs:k`` are for
        ``corri-multihop`` only: its chain facts state the flipped signs and the gold composes them.

    Examples
    --------
    >>> import causalgraph as cg
    >>> from causalgraph.tasks.climatecause import items
    >>> corpus = cg.load_climatecause()                       # doctest: +SKIP
    >>> len(items(corpus, "corri", "0_1"))                    # doctest: +SKIP
    874
    >>> items(corpus, "ccr-member", "SN_5")[0].gold           # doctest: +SKIP
    'no'
    """
    if rule not in RULES:
        raise ConfigError(f"unknown chain rule {rule!r}; expected one of {', '.join(RULES)}")
    check_order(order)
    rest, edit = _edit_of(task, variant, graph_edit)
    if task in TASK_NAMES and not isinstance(variant, PromptVariant):
        prompts = resolve_catalog(task, prompts)
    v, scheme = _resolve(task, rest, encoding, event_names, prompts)
    name = parse_edit(edit)[0]
    if task in ("corri", "corri-rc") and edit != "real":
        raise ConfigError(f"task {task} takes no graph edit ({edit!r}): its prompts hold no graph and state no "
                          f"sign (graph edits are for the CCR graph variants and the structure tasks; flip-signs "
                          f"for corri-multihop and net-effect)")
    if task == "corri-multihop" and name not in ("real",) + SIGN_EDITS:
        raise ConfigError(f"task {task} takes no graph edit {edit!r}: its prompts state the chain's signs but hold no "
                          f"graph; it takes flip-signs or flip-signs:k")
    if task != "corri-multihop" and name in SIGN_EDITS:
        raise ConfigError(f"task {task} variant {v.id} cannot take graph edit {edit!r}: its prompt states no "
                          f"correlation sign, so flipped signs would be nowhere in the prompt (flip-signs is for "
                          f"corri-multihop and net-effect)")
    if task != "corri-multihop":  # multi-hop states the edited signs in its chain facts, not in a graph
        _check_edit_prompt(task, v, edit)
    if task in ("corri", "corri-rc"):
        return _corri_items(corpus, task, v)
    if task == "corri-multihop":
        return _multihop_items(corpus, task, v, max_chains, edit)
    return _ccr_items(corpus, task, v, rule, order, scheme, edit)


def authors_position_score(gold: Sequence[Any], pred: Sequence[Any], *, positive: str = "start",
                           negative: str = "none") -> dict[str, Any]:
    """The position score as we reconstruct the authors' released scorer: ``start`` against ``none`` only.

    Only items whose gold label *and* prediction are ``start`` or ``none``
    are kept; on them, P/R/F1 of ``start``.  Items involving ``middle`` or
    ``end`` (and unparsed answers) are ignored, which is why this figure is
    not a position score in the usual sense; see docs/reproduction.md.

    Examples
    --------
    >>> s = authors_position_score(["start", "start", "none", "middle"], ["start", "middle", "start", "middle"])
    >>> s["n"], round(s["precision"], 2), s["recall"]
    (2, 0.5, 1.0)
    """
    keep = [(g, p) for g, p in zip(gold, pred) if g in (positive, negative) and p in (positive, negative)]
    s = binary_scores([g for g, _ in keep], [p for _, p in keep], positive)
    s["n"] = len(keep)
    return s


def collapse_position(label: Optional[str]) -> Optional[str]:
    """Map a chain-position label to chain membership (the paper's Table 21 b, c).

    ``start``/``middle``/``end`` → ``yes``, ``none`` → ``no``; ``None`` (an
    unparsed answer) stays ``None``; membership labels pass through.

    Examples
    --------
    >>> [collapse_position(x) for x in ("start", "none", "yes", None)]
    ['yes', 'no', 'yes', None]
    """
    if label is None:
        return None
    if label in ("start", "middle", "end"):
        return "yes"
    if label == "none":
        return "no"
    if label in MEMBERSHIP_LABELS:
        return label
    raise ConfigError(f"collapse_position: label {label!r} is neither a position "
                      f"({', '.join(POSITION_LABELS)}) nor a membership label (yes, no)")


_STRATEGY_NAMES = {"0": "0-shot", "F": "F-shot", "CoT": "CoT", "A": "Adjacency", "SN": "Single N.", "ML": "GraphML"}


def variant_strategy(variant: str) -> str:
    """Strategy of a variant id by the paper's naming (``F_2`` → ``F-shot``, ``SN_5`` → ``Single N.``).

    Examples
    --------
    >>> variant_strategy("RC_CoT_3"), variant_strategy("A_4"), variant_strategy("0_1")
    ('CoT', 'Adjacency', '0-shot')
    """
    parts = [p for p in re.split(r"[_\-\s]+", variant) if p]
    # The last part is the variation number; the strategy comes just before it.
    if len(parts) >= 2 and parts[-1].isdigit():
        key = parts[-2]
    else:
        key = parts[-1] if parts else variant
    return _STRATEGY_NAMES.get(key, _STRATEGY_NAMES.get(key.upper(), key))


def _authors_extra(gold: list, pred: list) -> dict[str, Any]:
    return {"authors": authors_position_score(gold, pred)}


# What each task's items depend on besides corpus and variant: the CCR golds on the chain rule and
# their graphs on the edge order; CorrI prompts hold no graph; multi-hop has its chain bound.
# encoding/event_names: CCR graph variants take them; CorrI and the ECI variants refuse them saying why.
# graph_edit likewise: the CCR graph variants take it; CorrI and the ECI variants refuse a non-real edit saying why.
_ITEM_OPTIONS = {"corri": ("encoding", "event_names", "prompts", "graph_edit"),
                 "corri-rc": ("encoding", "event_names", "prompts", "graph_edit"),
                 "corri-multihop": ("max_chains", "prompts", "graph_edit")}


#: The kind of each task of the catalog, declared (not read off its labels): CorrI and membership are
#: binary, chain position is multiclass.
_KINDS = {"corri": "binary", "corri-rc": "binary", "corri-multihop": "binary", "ccr-member": "binary",
          "ccr-eci-member": "binary", "ccr-position": "multiclass", "ccr-eci-position": "multiclass"}
_POSITIVE = {"corri": "positive", "corri-rc": "positive", "corri-multihop": "positive", "ccr-member": "yes",
             "ccr-eci-member": "yes"}


def _corri_path(record) -> Optional[tuple[str, tuple[str, ...]]]:
    """The statement and relation (cause, effect) a CorrI answer is the sign of."""
    meta = record.meta or {}
    if not (meta.get("statement_id") and meta.get("cause") and meta.get("effect")):
        return None
    return str(meta["statement_id"]), (str(meta["cause"]), str(meta["effect"]))


def _multihop_path(record) -> Optional[tuple[str, tuple[str, ...]]]:
    """The statement and chain a multi-hop answer is the composed sign of."""
    meta = record.meta or {}
    if not (meta.get("statement_id") and meta.get("events")):
        return None
    return str(meta["statement_id"]), tuple(meta["events"])


def _task(name: str) -> Task:
    """The :class:`Task` of one task of the prompt catalog."""
    variants = prompts.list_variants(name)
    labels = tuple(variants[0].answer_labels)
    if name not in _KINDS:
        raise ConfigError(f"ClimateCause task {name!r} of the prompt catalog declares no kind; add it to _KINDS "
                          f"in causalgraph/tasks/climatecause.py")
    kind, positive = _KINDS[name], _POSITIVE.get(name)
    # The chain-position tasks: the authors' position score, and answers that collapse to membership.
    position = name.endswith("-position")

    def build(corpus, variant, _name=name, **options):
        return list(items(corpus, _name, variant, **options))

    def words(variant, _name=name):
        return dict(prompts.get_variant(_name, split_variant(split_edit(variant)[0])[0]).answer_labels)

    def strategy(variant, _name=name):
        rest = split_edit(variant)[0]
        return prompts.get_variant(_name, split_variant(rest)[0]).strategy or variant_strategy(rest)

    def canonical(variant, _name=name):
        rest, edit = split_edit(variant)
        base, scheme = split_variant(rest)
        return join_edit(join_variant(prompts.get_variant(_name, base).id, scheme), edit)

    def continuations(variant, _name=name):
        # The edit and event-name suffixes change the graph shown, not the answer asked for.
        v = prompts.get_variant(_name, split_variant(split_edit(variant)[0])[0])
        return answer_continuations(v.template, dict(v.answer_labels), f"{_name} variant {variant}")

    # CorrI answers state one relation's sign, multi-hop answers a chain's (stats consistency --signs).
    path = _multihop_path if name == "corri-multihop" else _corri_path if name.startswith("corri") else None
    signs = Signs(path=path, labels={"positive": 1, "negative": -1}) if path is not None else None
    if kind == "binary":
        answers: AnswerKind = Binary(labels=labels, positive=positive, answer_words=words,
                                     continuations=continuations, signs=signs)
    else:
        # The chain-position tasks: the authors' released scorer of chain position, reported beside ours
        # (docs/reproduction.md), and answers that collapse to membership (Table 21 b, c).
        answers = Multiclass(labels=labels, answer_words=words, continuations=continuations, signs=signs,
                             extra_scores=_authors_extra if position else None,
                             extra_metrics=("authors.precision", "authors.recall", "authors.f1") if position else (),
                             report_columns=("authors.f1",) if position else (),
                             coarsen=collapse_position if position else None,
                             coarse_labels=MEMBERSHIP_LABELS if position else ())
    return Task(name=name, build_items=build, list_variants=lambda _n=name: [v.id for v in prompts.list_variants(_n)],
                answers=answers, strategy=strategy, canonical_variant=canonical, default_data="climatecause",
                item_options=_ITEM_OPTIONS.get(name, ("rule", "order", "encoding", "event_names", "prompts",
                                                      "graph_edit")),
                # The authors' text by default; runs written before the choice existed used the tables.
                prompt_catalogs=prompts.task_catalogs(name), unrecorded_prompts="tables",
                # CorrI asks about a pair as the statement relates it; ECI first finds the events in the text.
                requires=(("text", "correlation") if name.startswith("corri") else
                          ("text",) if name.startswith("ccr-eci") else ()),
                variant_words=VARIANT_WORDS,
                description=f"ClimateCause {name} ({len(variants)} prompt variants, labels {', '.join(labels)})")


def _ccr_question(item: Item, base: str) -> tuple[str, None]:
    """The question of a CCR item in a graph-first prompt (:mod:`causalgraph.tasks.graph_first`).

    A variant asked from the statement text (ECI) is sent as it is; one that shows the gold graph
    shows the model's own in its place (the rest of its text unchanged).
    """
    meta = item.meta or {}
    v = prompts.get_variant(item.task, base, meta.get("prompts") or "tables")
    if "graph" not in v.placeholders:
        return item.prompt, None
    values = {"graph": own_graph(v.template), "e_i": meta.get("event")}
    return v.render(**{k: values[k] for k in v.placeholders}), None


def tasks() -> list[Task]:
    """One :class:`~causalgraph.tasks.Task` per ClimateCause task of the prompt catalog.

    The CCR tasks also take the graph-first variants ``GF_<variant>`` (:mod:`causalgraph.tasks.graph_first`).
    """
    return [with_graph_first(t, _ccr_question) if t.name in GRAPH_FIRST_TASKS else t
            for t in (_task(name) for name in prompts.list_tasks())]
