"""Graph, then answer: variants in which the model first writes the statement's graph, then answers.

A *graph-first* variant of a CCR task (``ccr-member``, ``ccr-position`` and their ECI forms) or a
structure task (``parents`` … ``reachability``) is named by the prefix ``GF_`` before the id of the
variant whose question it asks: ``GF_0_1`` asks ``0_1``'s question of ``ccr-member``, ``GF_A_1``
asks ``A_1``'s question of ``parents``.  Its prompt is

1. the graph part (``prompts/annotation/graph_first.txt``): write the statement's graph in the
   annotator's answer format (one JSON object with ``relations``, each with at least
   ``cause_no_quantifier``, ``effect_no_quantifier`` and ``correlation``) between ``<Graph>`` and
   ``</Graph>``, the statement itself, and for the structure tasks the list of events to use;
2. ``Question:`` and the question of the base variant **unchanged**, except that a question showing
   the gold graph (``${graph}``: ``ccr-member``/``ccr-position`` and the structure tasks) reads
   :data:`OWN_GRAPH` — the model's own graph — in its place, since showing the gold graph would
   leave nothing to write; the ECI variants, asked from the statement text, are sent as they are.

Event names, encodings and graph edits are refused (the model writes the graph from the statement
text, under the statement's own event names); the structure tasks take their stored questions
(``GF_A_1``, ``GF_A_2``).  Item
ids keep the base items' keys (``ccr-member/GF_0_1/<statement>/e000``), so ``stats compare --by
variant`` pairs a graph-first run with its base run item by item.

Each record keeps both answers: ``label`` is the question's answer, parsed from the text after
``</Graph>`` by the base variant's parser (the graph's JSON could otherwise be read as an answer
word), and ``graph`` is ``{"rule": …, "annotation": …}``, the graph parsed by the annotator's
parser (``annotation`` is ``None`` when nothing could be read).  The items' meta holds the gold
graph (``gold_graph``: ``[cause, effect, correlation]`` per relation of the statement).

:func:`item_graph_scores` scores one record's graph against the gold graph after aligning its
events (:func:`causalgraph.alignment.scores.align_statement`, default rule ``token`` as the
commands'): edge precision, recall and F1; an unreadable graph (or a failed request) has no
score (``None``, with the reason), never 0.  The *right graph* is one whose aligned edge F1 is 1
(:func:`right_graph`): every gold edge and no other, signs not asked.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Mapping, Optional

from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from ..alignment.scores import align_statement, edge_scores
from ..annotation.answer import to_statement
from ..annotation.records import parse_for_run, parsed_from_label
from ..errors import ConfigError, SchemaError
from ..model import Correlation, Relation, Statement, as_statements
from ..prompts.catalog import read_text
from .base import Task
from .kinds import GraphFirst

__all__ = ["PREFIX", "OWN_GRAPH", "own_graph", "GRAPH_OPEN", "GRAPH_CLOSE", "is_graph_first", "base_variant", "graph_prompt",
           "split_answer", "refuse_item_options", "parse_graph", "gold_statement", "item_graph_scores", "right_graph", "with_graph_first",
           "GRAPH_FIRST_TASKS", "gold_graph_answer", "perturbed_graph_answer", "graph_answers"]

#: The prefix of a graph-first variant id.
PREFIX = "GF_"
#: Tags around the graph in the model's answer.
GRAPH_OPEN, GRAPH_CLOSE = "<Graph>", "</Graph>"
#: What a question's ``${graph}`` reads in a graph-first prompt: the model's own graph (a full stop
#: follows unless the template puts one there, as the authors' templates do: ``${graph}. Based``).
OWN_GRAPH = "the relations of the graph you wrote between <Graph> and </Graph>"
#: The tasks that have graph-first variants.
GRAPH_FIRST_TASKS = ("ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position", "parents", "children",
                     "sources", "sinks", "mediators", "common-cause", "reachability")


def own_graph(template: str) -> str:
    """The text that stands for ``${graph}`` in a graph-first question built from ``template``.

    Examples
    --------
    >>> own_graph("are- ${graph}. Based"), own_graph("are- ${graph} Based")[-9:]
    ('the relations of the graph you wrote between <Graph> and </Graph>', '</Graph>.')
    """
    return OWN_GRAPH if "${graph}." in template else OWN_GRAPH + "."


def is_graph_first(variant: Any) -> bool:
    """Whether ``variant`` names a graph-first variant (``GF_0_1``).

    Examples
    --------
    >>> is_graph_first("GF_0_1"), is_graph_first("0_1")
    (True, False)
    """
    return isinstance(variant, str) and variant.startswith(PREFIX)


def base_variant(variant: str) -> str:
    """The variant whose question a graph-first variant asks (``GF_0_1`` → ``0_1``); others unchanged.

    Examples
    --------
    >>> base_variant("GF_A_1"), base_variant("A_1")
    ('A_1', 'A_1')
    """
    return variant[len(PREFIX):] if is_graph_first(variant) else variant


def refuse_item_options(task: str, variant: str, **options: Any) -> None:
    """Refuse the item options a graph-first ``variant`` cannot take (encoding, event names, graph edit).

    Callers that rewrite a variant id for these options (``bench run --encoding``) ask this first, so
    the user reads why a graph-first variant takes none rather than what the rewrite found.

    Examples
    --------
    >>> refuse_item_options("ccr-member", "GF_A_4", encoding=None, graph_edit="real")  # nothing asked
    >>> refuse_item_options("ccr-member", "GF_A_4", encoding="matrix")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: task ccr-member variant GF_A_4: a graph-first variant takes no encoding (the model writes the graph from the statement text, under the statement's own event names)
    """
    given = sorted(k for k in ("encoding", "event_names", "graph_edit") if options.get(k) not in (None, "real"))
    if given:
        raise ConfigError(f"task {task} variant {variant}: a graph-first variant takes no "
                          f"{', '.join(k.replace('_', '-') for k in given)} (the model writes the graph from the "
                          "statement text, under the statement's own event names)")


def graph_prompt(question: str, statement: str, events: Optional[list[str]] = None) -> str:
    """The graph-first prompt: the graph part for ``statement``, then ``Question:`` and ``question`` unchanged.

    ``events``: the names the graph must use (the structure tasks, whose answers name events).

    Examples
    --------
    >>> p = graph_prompt("Is it? Answer Yes or No.", "Warming melts ice.")
    >>> p.splitlines()[-4:]
    ['Statement: Warming melts ice.', '', 'Question:', 'Is it? Answer Yes or No.']
    """
    part = read_text("annotation", "graph_first.txt").rstrip("\n")
    listed = ("" if not events else
              " Name the events exactly as in this list: [" + ", ".join(events) + "].")
    flat = " ".join(str(statement).split())
    # one pass: an event named "{statement}", or a text holding "{events}", is kept as written
    fill = {"{events}": listed, "{statement}": flat}
    return re.sub(r"\{events\}|\{statement\}", lambda m: fill[m.group(0)], part) + "\n" + question


def split_answer(text: Optional[str]) -> tuple[Optional[str], str]:
    """``(graph text | None, answer text)`` of a graph-first answer.

    The graph is the first ``<Graph>…</Graph>`` block that holds a ``{`` (else the first block: a
    model that echoes the prompt's words "between <Graph> and </Graph>" has written no graph), the
    answer what follows it; an answer cut off inside the graph has no answer text, and one without
    tags is all answer, its graph read from the whole text.

    Examples
    --------
    >>> split_answer('<Graph>{"relations": []}</Graph> <Answer>no</Answer>')
    ('{"relations": []}', ' <Answer>no</Answer>')
    >>> split_answer('the graph between <Graph> and </Graph>. <Graph>{"relations": []}</Graph> Yes')
    ('{"relations": []}', ' Yes')
    >>> split_answer("<Graph>{...")
    ('{...', '')
    >>> split_answer("Yes")
    (None, 'Yes')
    """
    text = "" if text is None else str(text)
    blocks = []
    at = text.find(GRAPH_OPEN)
    while at >= 0:
        end = text.find(GRAPH_CLOSE, at + len(GRAPH_OPEN))
        if end < 0:
            blocks.append((text[at + len(GRAPH_OPEN):], ""))
            break
        blocks.append((text[at + len(GRAPH_OPEN):end], text[end + len(GRAPH_CLOSE):]))
        at = text.find(GRAPH_OPEN, end + len(GRAPH_CLOSE))
    if not blocks:
        return None, text
    return next((b for b in blocks if "{" in b[0]), blocks[0])


def parse_graph(text: Optional[str], variant: str) -> Optional[dict]:
    """The record's ``graph`` of a graph-first answer (``None`` for other variants).

    ``{"rule": rule, "annotation": parsed annotation | None}``: the annotator's parser reads the
    text between the tags (rule ``tagged:<rule>``) or, without tags, the whole answer
    (``untagged:<rule>``).

    Examples
    --------
    >>> g = parse_graph('<Graph>{"relations": [{"cause_no_quantifier": "warming", '
    ...                 '"effect_no_quantifier": "ice", "correlation": "negative"}]}</Graph> Yes', "GF_0_1")
    >>> g["rule"], g["annotation"]["relations"][0]["effect_no_quantifier"]
    ('tagged:json', 'ice')
    >>> parse_graph("Yes", "0_1") is None
    True
    """
    if not is_graph_first(variant):
        return None
    graph, _ = split_answer(text)
    where = "tagged" if graph is not None else "untagged"
    annotation, rule = parse_for_run(graph if graph is not None else (text or ""), "graph-first")
    return {"rule": f"{where}:{rule}", "annotation": annotation}


def gold_statement(record: RunRecord) -> Optional[Statement]:
    """The gold statement graph an item's meta holds (``meta["gold_graph"]``), or ``None`` when it holds none.

    A damaged one (a run file edited by hand or cut) is refused, naming the item, not scored.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> rec = RunRecord("t", "GF_A_1", "t/GF_A_1/s/x", meta={"statement_id": "s", "gold_graph": [["a", "b", "negative"]]})
    >>> gold_statement(rec).relations[0].correlation
    <Correlation.NEGATIVE: 'negative'>
    >>> gold_statement(RunRecord("t", "GF_A_1", "t/GF_A_1/s/x", meta={"gold_graph": [["a", "b"]]}))
    Traceback (most recent call last):
    causalgraph.errors.SchemaError: t/GF_A_1/s/x: meta gold_graph row 0 ['a', 'b'], expected [cause, effect, "positive" | "negative" | null]
    """
    meta = record.meta or {}
    rows = meta.get("gold_graph")
    if rows is None:
        return None
    where = record.item_id or meta.get("statement_id")
    if not isinstance(rows, list):
        raise SchemaError(f"{where}: meta gold_graph {rows!r:.80}, expected a list of [cause, effect, correlation]")
    rels = []
    for i, row in enumerate(rows):
        ok = (isinstance(row, list) and len(row) == 3 and all(isinstance(x, str) and x for x in row[:2])
              and row[2] in ("positive", "negative", None))
        if not ok:
            raise SchemaError(f"{where}: meta gold_graph row {i} {row!r:.80}, expected "
                              '[cause, effect, "positive" | "negative" | null]')
        c, e, sign = row
        rels.append(Relation(c, e, correlation=Correlation(sign) if sign is not None else None))
    return Statement(str(meta.get("statement_id")), "", True, tuple(rels))


def item_graph_scores(record: RunRecord, *, rule: str = DEFAULT_RULE,
                      embedder: Any = None) -> dict[str, Any]:
    """Edge precision, recall and F1 of one graph-first record's graph against the gold graph, events aligned.

    Returns
    -------
    dict
        ``edge_precision``, ``edge_recall``, ``edge_f1``, ``pred_edges``, ``gold_edges``,
        ``edge_tp`` and ``note``: a value that cannot be computed is ``None`` and ``note`` says
        why (a failed request, a graph that could not be read, no gold graph; precision of a graph
        without edges).

    Examples
    --------
    >>> import dataclasses
    >>> from causalgraph.runlog import RunRecord
    >>> rec = RunRecord("t", "v", "i", meta={"statement_id": "s", "gold_graph": [["warming", "ice loss", "positive"]]},
    ...     graph={"rule": "tagged:json", "annotation": {"causal": True, "relations": [
    ...         {"cause_no_quantifier": "Warming", "effect_no_quantifier": "loss of ice"}]}})
    >>> s = item_graph_scores(rec)
    >>> s["edge_f1"], s["note"]
    (1.0, None)
    >>> unread = dataclasses.replace(rec, graph={"rule": "untagged:unparsed", "annotation": None})
    >>> item_graph_scores(unread)["edge_f1"] is None
    True
    """
    if rule not in ALIGN_RULES:
        raise ConfigError(f"unknown alignment rule {rule!r}; expected one of {', '.join(ALIGN_RULES)}")
    empty = {"edge_precision": None, "edge_recall": None, "edge_f1": None, "pred_edges": None, "gold_edges": None,
             "edge_tp": None}
    gold = gold_statement(record)
    if gold is None:
        return {**empty, "note": "no gold graph in the item (not a graph-first item)"}
    if record.error:
        return {**empty, "note": "the request failed"}
    graph = record.graph
    if not isinstance(graph, Mapping) or not isinstance(graph.get("annotation"), Mapping):
        rule_read = graph.get("rule") if isinstance(graph, Mapping) else None
        return {**empty, "note": f"no graph could be read from the answer (rule {rule_read})"}
    if not isinstance(graph["annotation"].get("relations"), list):  # a damaged record, not a graph without edges
        raise SchemaError(f"{record.item_id}: graph annotation relations "
                          f"{graph['annotation'].get('relations')!r:.80}, expected a list of relations")
    parsed = parsed_from_label(dict(graph["annotation"]), str(graph.get("rule") or "json"))
    pred = to_statement(parsed, "", id=gold.id, strict=False)
    renamed, _ = align_statement(gold, pred, rule=rule, embedder=embedder)
    s = edge_scores(gold, renamed)
    note = None
    if s["edge_precision"] is None:
        note = "the graph has no edge: precision undefined"
    return {k: s[k] for k in ("edge_precision", "edge_recall", "edge_f1", "pred_edges", "gold_edges", "edge_tp")} | \
        {"note": note}


def right_graph(f1: Optional[float]) -> Optional[bool]:
    """Whether an item's graph is right: edge F1 = 1 on the aligned graph (``None`` when F1 is undefined).

    Examples
    --------
    >>> right_graph(1.0), right_graph(0.8), right_graph(None)
    (True, False, None)
    """
    return None if f1 is None else f1 == 1.0


def _gold_rows(st: Statement) -> list[list[Optional[str]]]:
    return [[r.cause, r.effect, r.correlation.value if r.correlation is not None else None] for r in st.relations]


def gold_graph_answer(meta: Mapping[str, Any]) -> Optional[str]:
    """The gold graph as a perfect model writes it (``<Graph>…</Graph>``, the annotator's format).

    Examples
    --------
    >>> gold_graph_answer({"gold_graph": [["a", "b", "positive"]]})
    '<Graph>{"causal": true, "abbreviations": null, "relations": [{"cause_no_quantifier": "a", "effect_no_quantifier": "b", "correlation": "positive"}]}</Graph>\\n'
    """
    rows = meta.get("gold_graph")
    if not isinstance(rows, list):
        return None
    return _graph_text(rows)


def perturbed_graph_answer(meta: Mapping[str, Any]) -> Optional[str]:
    """A wrong graph (``mock/noisy``): the gold graph without its first relation, or reversed when it has one.

    A gold graph of ``n`` distinct edges loses one: edge precision 1, recall ``(n−1)/n``, F1
    ``2(n−1)/(2n−1)``; a one-edge graph written backwards scores 0 (the relation's own direction is
    what a wrong model gets wrong).

    Examples
    --------
    >>> perturbed_graph_answer({"gold_graph": [["a", "b", "positive"]]}).count('"cause_no_quantifier": "b"')
    1
    """
    rows = meta.get("gold_graph")
    if not isinstance(rows, list) or not rows:
        return None
    first = (rows[0][0], rows[0][1])
    rest = [r for r in rows if (r[0], r[1]) != first]
    return _graph_text(rest if rest else [[rows[0][1], rows[0][0], rows[0][2]]])


def _graph_text(rows) -> str:
    rels = [{"cause_no_quantifier": c, "effect_no_quantifier": e, "correlation": s} for c, e, s in rows]
    body = {"causal": bool(rels), "abbreviations": None, "relations": rels}
    return GRAPH_OPEN + json.dumps(body, ensure_ascii=False) + GRAPH_CLOSE + "\n"


# -- the variants on a task -----------------------------------------------------------------------------

def with_graph_first(task: Task, question_of) -> Task:
    """``task`` that also takes the graph-first variants ``GF_<variant>`` (its own variants unchanged).

    ``question_of(item, base variant id) -> (question, events | None)``: the question a base item
    asks in a graph-first prompt, and the events the graph must be named by (or ``None``); it raises
    :class:`~causalgraph.errors.ConfigError` for a base variant that cannot be asked after the
    model's graph.  Every function of ``task`` answers a variant without the prefix as before; the
    graph-first variants are not listed (``bench plan --task all`` runs what it ran), but every
    command that takes ``--variant`` takes them.
    """
    build0, parse0 = task.build_items, task.parse_answer

    def check(variant: str, **options: Any) -> None:
        refuse_item_options(task.name, variant, **options)
        if "." in variant:
            raise ConfigError(f"task {task.name} variant {variant}: a graph-first variant takes no suffix "
                              f"{variant[variant.index('.'):]!r} (event names, graph edits): the model writes the graph "
                              "from the statement text, under the statement's own event names")
        if is_graph_first(base_variant(variant)):
            raise ConfigError(f"task {task.name} variant {variant}: a graph-first variant is {PREFIX}<variant> of a "
                              "variant that is not graph-first (GF_0_4, GF_A_1)")

    def check_options(variant: str, **options: Any) -> None:
        if is_graph_first(variant):
            refuse_item_options(task.name, variant, **options)

    def build(corpus, variant, **options):
        if not is_graph_first(variant):
            return build0(corpus, variant, **options)
        check(variant, **options)
        base = base_variant(variant)
        statements = {st.id: st for st in as_statements(corpus)}
        out = []
        for it in build0(corpus, base, **options):
            st = statements[it.meta["statement_id"]]
            if not str(st.text or "").strip():
                # a graph file, or a relations file without text: there is nothing to write the graph from
                raise ConfigError(f"task {task.name} variant {variant}: statement {st.id} has no text, and a "
                                  "graph-first variant asks the model to write the graph from the statement text")
            question, events = question_of(it, it.variant)
            vid = PREFIX + it.variant
            prefix = f"{it.task}/{it.variant}/"
            key = it.id[len(prefix):] if it.id.startswith(prefix) else it.id
            meta = {**it.meta, "graph_first": True, "gold_graph": _gold_rows(st)}
            out.append(dataclasses.replace(it, id=f"{it.task}/{vid}/{key}", variant=vid,
                                           prompt=graph_prompt(question, st.text, events), meta=meta))
        return out

    def parse(text, variant):
        if not is_graph_first(variant):
            return parse0(text, variant)
        return parse0(split_answer(text)[1], base_variant(variant))

    def lift(fn):
        if fn is None:
            return None
        return lambda variant, _fn=fn: _fn(base_variant(variant))

    def canonical(variant):
        if not is_graph_first(variant):
            return task.variant_id(variant)
        check(variant)
        return PREFIX + task.variant_id(base_variant(variant))

    def strategy(variant):
        s = task.strategy_of(base_variant(variant))
        return f"graph-first {s}" if is_graph_first(variant) else s

    answers = task.answers
    if answers.by_labels:
        conts0 = answers.continuations

        def continuations(variant):
            if is_graph_first(variant):
                raise ConfigError(f"task {task.name} variant {variant}: a graph-first variant asks for the graph "
                                  "before the answer, so --method loglik cannot score it; use --method generate")
            return conts0(variant)

        answers = dataclasses.replace(answers, answer_words=lift(answers.answer_words),
                                      continuations=continuations if conts0 is not None else None)
    return dataclasses.replace(
        task, build_items=build, parse=parse, strategy=strategy, canonical_variant=canonical, answers=answers,
        graph_first=GraphFirst(parse=parse_graph, scores=item_graph_scores, answers=graph_answers,
                               check_options=check_options))


def graph_answers(item: Any) -> Optional[tuple[str, str]]:
    """``(gold graph text, perturbed graph text)`` of a graph-first item (``None`` for another item).

    Examples
    --------
    >>> from causalgraph.taskkit import Item
    >>> it = Item("t/GF_A_1/s/g", "t", "GF_A_1", "…", "yes", {"gold_graph": [["a", "b", "positive"]]})
    >>> right, wrong = graph_answers(it)
    >>> right.startswith("<Graph>") and '"cause_no_quantifier": "b"' in wrong
    True
    """
    meta = getattr(item, "meta", None) or {}
    right, wrong = gold_graph_answer(meta), perturbed_graph_answer(meta)
    return None if right is None or wrong is None else (right, wrong)
