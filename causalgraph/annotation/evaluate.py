"""How far an annotator lands from gold: relation pairs, labels and complexity.

Measures, over the statements of a run (or two aligned lists of statements):

* **pairs** on the no-quantifier forms (the events graphs and metrics are
  built on).  The unit is a distinct (cause, effect) pair of a statement:
  ClimateCause repeats a pair once per context or confidence level, and a
  repetition is not a second relation to find.  ``exact`` compares the
  pairs normalised as the PubMedCausal span measures do
  (:func:`causalgraph.extraction.spans.exact_key`); ``token`` matches
  predicted to gold pairs one-to-one per statement (Hungarian, cost 1 − S
  with S the mean of cause and effect token F1,
  :func:`causalgraph.extraction.spans.pair_score`): precision = Σ S /
  predicted pairs, recall = Σ S / gold pairs; ``token>=τ`` counts a matched
  pair as found when S ≥ τ (default 0.5).
* **labels** on matched pairs (the one-to-one matches with S ≥ τ): accuracy
  of correlation, relation type and explicitness (a missing predicted label
  counts as wrong; a pair whose gold label is empty is not counted for that
  label).  For a repeated pair the first gold relation's labels are used.
* **complexity**: each statement's five metrics from the predicted and from
  the gold annotation; mean absolute error per metric and of C(s), and
  Spearman's ρ of C(s) across statements.  C(s) of both is normalised with
  the same reference ranges (default: ClimateCause, see
  :mod:`causalgraph.annotation.reference`).
* **causal**: accuracy of the predicted presence of causality.

A statement whose answer failed (request error or unreadable answer) counts
as an annotation with no relation: its gold pairs are missed and its
predicted complexity is 0.  The number of such statements is reported.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Union

from ..errors import ConfigError, CycleLimitExceeded, SchemaError
from ..scoring.scores import prf
from ..extraction.spans import exact_key, pair_score
from ..extraction.embed import load_embedder
from ..metrics.complexity import complexity, metric_names
from ..metrics.graph_scores import compare_graphs
from ..alignment.events import ALIGN_RULES, EMBEDDING_THRESHOLD, TOKEN_THRESHOLD
from ..alignment.scores import EDGE_COLUMNS, align_statement, pooled_scores
from ..alignment.scores import edge_scores as edge_scores_of
from ..model import Relation, Statement
from .answer import parse_annotation, to_statement
from .reference import ReferenceRanges, normalized_complexity, resolve_reference
from .records import TASK, input_order, parsed_from_label
from ..runlog.store import load_run
from ..runlog.record import RunRecord

__all__ = ["AnnotationReport", "evaluate_statements", "evaluate_records", "evaluate_annotation", "distinct_pairs",
           "LABELS", "MATCH_THRESHOLD"]

#: Labels compared on matched pairs: report name → Relation attribute.
LABELS = {"correlation": "correlation", "relation_type": "polarity", "explicitness": "explicitness"}
#: Token S at or above which two pairs count as the same relation.
MATCH_THRESHOLD = 0.5
# The graph scores a --graphs evaluation reports per statement and as means (counts, not normalised).
GRAPH_MEANS = ("shd", "sid", "parent_aid", "ancestor_aid", "oset_aid")


def distinct_pairs(statement: Statement) -> list[tuple[tuple[str, str], Relation]]:
    """The statement's distinct normalised (cause, effect) pairs with their first relation, in order.

    Examples
    --------
    >>> s = Statement("s", "t", True, (Relation("Warming", "ice loss"), Relation("warming", "Ice loss."),
    ...                                Relation("warming", "sea level")))
    >>> [k for k, _ in distinct_pairs(s)]
    [('warming', 'ice loss'), ('warming', 'sea level')]
    """
    seen: dict[tuple[str, str], Relation] = {}
    for r in statement.relations:
        k = exact_key(r.cause, r.effect)
        if k not in seen:
            seen[k] = r
    return list(seen.items())


def _match(pred: list, gold: list) -> list[tuple[int, int, float]]:
    """One-to-one matching maximising Σ S (Hungarian); (pred index, gold index, S) in pred order."""
    if not pred or not gold:
        return []
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    s = np.array([[pair_score(p, g) for g in gold] for p in pred], dtype=float)
    ri, ci = linear_sum_assignment(1.0 - s)
    return sorted((int(i), int(j), float(s[i, j])) for i, j in zip(ri, ci))


def _label_value(r: Relation, attr: str) -> Optional[str]:
    v = getattr(r, attr)
    return None if v is None else getattr(v, "value", str(v))


@dataclass
class AnnotationReport:
    """The evaluation of predicted against gold annotations.

    Attributes
    ----------
    pairs
        ``{"exact": {precision, recall, f1}, "token": {…}, "token>=0.5": {…}}``.
    labels
        Label → ``{"accuracy", "n", "missing"}`` on matched pairs.
    complexity
        ``{"spearman_rho", "spearman_p", "mae": {metric: …, "c_s": …}, "n"}``.
    causal
        ``{"accuracy", "n"}`` of the presence of causality.
    per_statement
        One dict per statement: id, pair counts, exact and token hits, gold
        and predicted metrics and C(s), parse rule.
    counts
        statements, failed (errors + unreadable answers), predicted and gold pairs.
    reference
        The ranges C(s) was normalised with.
    """

    pairs: dict[str, dict[str, float]]
    labels: dict[str, dict[str, Any]]
    complexity: dict[str, Any]
    causal: dict[str, Any]
    per_statement: list[dict[str, Any]]
    counts: dict[str, Any]
    reference: dict[str, Any] = field(default_factory=dict)
    threshold: float = MATCH_THRESHOLD
    #: With ``graphs=True``: the mean SHD, SID and AIDs over the statements (``{"shd": …, "n": …}``)
    #: and their notes; empty otherwise, so that reports without it keep their bytes.
    graph: dict[str, Any] = field(default_factory=dict)
    #: With ``graphs=True``: every statement's event alignment (rows of
    #: :data:`causalgraph.alignment.events.ALIGNMENT_COLUMNS`); not part of the summary.
    alignment: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Everything but the per-statement rows, as plain JSON values."""
        out = {"pairs": self.pairs, "labels": self.labels, "complexity": self.complexity, "causal": self.causal,
               "counts": self.counts, "threshold": self.threshold, "reference": self.reference}
        if self.graph:
            out["graph"] = self.graph
        return out

    def rows(self) -> list[dict[str, Any]]:
        """A flat table: one row per figure (``measure``, ``value``, ``n``)."""
        out = []
        for name, d in self.pairs.items():
            for k in ("precision", "recall", "f1"):
                out.append({"measure": f"pairs.{name}.{k}", "value": d[k], "n": None})
        for name, d in self.labels.items():
            out.append({"measure": f"label.{name}.accuracy", "value": d["accuracy"], "n": d["n"]})
        out.append({"measure": "causal.accuracy", "value": self.causal["accuracy"], "n": self.causal["n"]})
        out.append({"measure": "complexity.spearman_rho.c_s", "value": self.complexity["spearman_rho"],
                    "n": self.complexity["n"]})
        for m, v in self.complexity["mae"].items():
            out.append({"measure": f"complexity.mae.{m}", "value": v, "n": self.complexity["n"]})
        out.append({"measure": "statements.failed", "value": self.counts["failed"], "n": self.counts["statements"]})
        for k, v in self.graph.items():
            if k not in ("n", "notes", "align", "pooled"):
                out.append({"measure": f"graph.{k}.mean", "value": v, "n": self.graph["n"]})
        for d in self.graph.get("pooled", ()):
            for part in ("value", "ci_low", "ci_high"):
                out.append({"measure": f"graph.pooled.{d['measure']}.{part}", "value": d[part], "n": d["n"]})
        return out


def _metrics(st: Statement, ref: ReferenceRanges) -> tuple[Optional[dict], Optional[str]]:
    try:
        return normalized_complexity(complexity(st), ref), None
    except CycleLimitExceeded as exc:
        return None, f"{st.id}: {exc}"


def evaluate_statements(predicted: Sequence[Optional[Statement]], gold: Sequence[Statement], *,
                        reference: Union[None, str, ReferenceRanges] = None, threshold: float = MATCH_THRESHOLD,
                        rules: Optional[Sequence[Optional[str]]] = None, graphs: bool = False, align: str = "exact",
                        token_threshold: float = TOKEN_THRESHOLD, embedding_threshold: float = EMBEDDING_THRESHOLD,
                        embedder: Any = None, edge_scores: bool = False, alignment: bool = False) -> AnnotationReport:
    """Compare predicted annotations with gold ones, statement by statement.

    Parameters
    ----------
    predicted
        One statement per gold statement, in the same order; ``None`` for a
        failed annotation (counted, and scored as no relation).
    gold
        The gold statements.
    reference
        Ranges C(s) is normalised with (see :func:`~causalgraph.annotation.reference.resolve_reference`).
    threshold
        τ: token S at or above which a matched pair counts as found and its labels are compared.
    rules
        Parse rule of each prediction (reported per statement).
    graphs
        Also score each predicted graph against the gold one (SHD, SID and
        the AIDs of :func:`causalgraph.metrics.graph_scores.compare_graphs`):
        per statement in ``per_statement`` (``graph_shd`` …), and their means
        in ``graph``.
    align, token_threshold, embedding_threshold, embedder
        With ``graphs``: how predicted events are aligned to gold events before the graph
        scores (:func:`causalgraph.alignment.scores.align_statement`).  The default, ``exact``,
        aligns nothing (the scores of causalgraph before alignment existed); any other rule adds
        ``graph["align"]`` and fills :attr:`AnnotationReport.alignment`.
    edge_scores
        With ``graphs``: also edge precision, recall and F1 without and with correlation signs
        per statement (``graph_edge_f1`` …) and pooled over statements with bootstrap intervals
        (``graph["pooled"]``, :func:`causalgraph.alignment.scores.pooled_scores`).
    alignment
        With ``graphs``: fill :attr:`AnnotationReport.alignment` under ``exact`` too (``--alignment
        FILE``); an exact alignment renames nothing, so no score changes.

    Examples
    --------
    >>> from causalgraph.model import Correlation as C
    >>> g = Statement("s1", "t", True, (Relation("warming", "ice", correlation=C.NEGATIVE),))
    >>> p = Statement("s1", "t", True, (Relation("warming", "ice", correlation=C.POSITIVE),))
    >>> rep = evaluate_statements([p], [g], reference="paper")
    >>> rep.pairs["exact"]["f1"], rep.labels["correlation"]["accuracy"]
    (1.0, 0.0)
    """
    if len(predicted) != len(gold):
        raise ConfigError(f"{len(predicted)} predicted statements for {len(gold)} gold statements; expected one each")
    if not 0.0 <= threshold <= 1.0:
        raise ConfigError(f"threshold {threshold!r}: expected a number in [0, 1]")
    if align not in ALIGN_RULES:
        raise ConfigError(f"align {align!r}: expected one of {', '.join(ALIGN_RULES)}")
    ref = resolve_reference(reference)
    rules = list(rules) if rules is not None else [None] * len(gold)
    n_pred = n_gold = exact_hits = 0
    tok_sum = 0.0
    thr_hits = 0
    lab = {k: {"correct": 0, "n": 0, "missing": 0} for k in LABELS}
    causal_ok = 0
    failed = 0
    rows = []
    issues: list[str] = []
    cs_pred, cs_gold = [], []
    # Read now, not at import: a metric registered later (or by a plugin) is scored too.
    metrics = metric_names()
    abs_err = {m: 0.0 for m in (*metrics, "c_s")}
    n_cx = 0
    graph_notes: list[str] = []
    alignment_rows: list[dict[str, Any]] = []
    score_rows: list[dict[str, Any]] = []
    if graphs and align == "embedding" and embedder is None:
        embedder = load_embedder()
    for p, g, rule in zip(predicted, gold, rules):
        if p is None:
            failed += 1
            p = Statement(g.id, g.text, False)
        pp, gp = distinct_pairs(p), distinct_pairs(g)
        n_pred += len(pp)
        n_gold += len(gp)
        gkeys = {k for k, _ in gp}
        ex = sum(1 for k, _ in pp if k in gkeys)
        exact_hits += ex
        matches = _match([k for k, _ in pp], [k for k, _ in gp])
        tok = sum(s for _, _, s in matches)
        tok_sum += tok
        found = [(i, j) for i, j, s in matches if s >= threshold]
        thr_hits += len(found)
        for i, j in found:
            for name, attr in LABELS.items():
                pv, gv = _label_value(pp[i][1], attr), _label_value(gp[j][1], attr)
                if gv is None:  # the corpus does not annotate this label here (PubMedCausal has no correlation)
                    continue
                lab[name]["n"] += 1
                lab[name]["correct"] += int(pv is not None and pv == gv)
                lab[name]["missing"] += int(pv is None)
        causal_ok += int(bool(p.causal and p.relations) == bool(g.causal))
        row = {"statement_id": g.id, "rule": rule, "gold_pairs": len(gp), "pred_pairs": len(pp), "exact": ex,
               "token": tok, "matched": len(found)}
        mp, ep = _metrics(p, ref)
        mg, eg = _metrics(g, ref)
        issues += [e for e in (ep, eg) if e]
        if mp is not None and mg is not None:
            n_cx += 1
            for m in metrics:
                abs_err[m] += abs(float(mp[m]) - float(mg[m]))
            abs_err["c_s"] += abs(mp["c_s"] - mg["c_s"])
            cs_pred.append(mp["c_s"])
            cs_gold.append(mg["c_s"])
            row.update({f"gold_{m}": mg[m] for m in metrics})
            row.update({f"pred_{m}": mp[m] for m in metrics})
            row.update({"gold_c_s": mg["c_s"], "pred_c_s": mp["c_s"]})
        if graphs:
            al = None
            if align != "exact" or edge_scores or alignment:
                p, al = align_statement(g, p, rule=align, token_threshold=token_threshold,
                                        embedding_threshold=embedding_threshold, embedder=embedder)
                alignment_rows.extend(al.rows(g.id))
            gc = compare_graphs(g, p if p is not None else [], name=g.id)
            row.update({f"graph_{k}": v for k, v in gc.as_row().items() if k in GRAPH_MEANS})
            graph_notes.extend(gc.notes)
            if edge_scores:
                es = edge_scores_of(g, p if p.relations else [])
                es.update(aligned_events=len(al.matches), merged_events=len(al.merges))
                row.update({f"graph_{k}": es[k] for k in EDGE_COLUMNS})
                score_rows.append({**gc.as_row(), **es})
        rows.append(row)
    graph_summary: dict[str, Any] = {}
    if graphs:
        for k in GRAPH_MEANS:
            vals = [r[f"graph_{k}"] for r in rows if not math.isnan(r[f"graph_{k}"])]
            graph_summary[k] = sum(vals) / len(vals) if vals else None
        graph_summary.update(n=len(rows), notes=graph_notes)
        if align != "exact":
            graph_summary["align"] = align
        if edge_scores:
            graph_summary["pooled"] = pooled_scores(score_rows)
    pairs = {
        "exact": prf(exact_hits, n_pred, exact_hits, n_gold),
        "token": prf(tok_sum, n_pred, tok_sum, n_gold),
        f"token>={threshold:g}": prf(thr_hits, n_pred, thr_hits, n_gold),
    }
    labels = {k: {"accuracy": (v["correct"] / v["n"]) if v["n"] else None, "n": v["n"], "missing": v["missing"]}
              for k, v in lab.items()}
    rho, pval = _spearman(cs_pred, cs_gold)
    cx = {"spearman_rho": rho, "spearman_p": pval, "n": n_cx,
          "mae": {m: (abs_err[m] / n_cx if n_cx else None) for m in (*metrics, "c_s")},
          "mean_c_s": {"predicted": _mean(cs_pred), "gold": _mean(cs_gold)}, "issues": issues}
    counts = {"statements": len(gold), "failed": failed, "predicted_pairs": n_pred, "gold_pairs": n_gold}
    causal = {"accuracy": causal_ok / len(gold) if gold else None, "n": len(gold)}
    return AnnotationReport(pairs=pairs, labels=labels, complexity=cx, causal=causal, per_statement=rows,
                            counts=counts, reference=ref.to_dict(), threshold=threshold, graph=graph_summary,
                            alignment=alignment_rows)


def _mean(xs: list[float]) -> Optional[float]:
    return sum(xs) / len(xs) if xs else None


def _spearman(a: list[float], b: list[float]) -> tuple[Optional[float], Optional[float]]:
    """Spearman's ρ and p; ``None`` when it is undefined (fewer than 3 values or a constant side)."""
    if len(a) < 3 or len(set(a)) < 2 or len(set(b)) < 2:
        return None, None
    from scipy.stats import spearmanr

    res = spearmanr(a, b)
    rho, p = float(res.statistic), float(res.pvalue)
    return (None if math.isnan(rho) else rho), (None if math.isnan(p) else p)


def evaluate_records(records: Iterable[RunRecord], *, reference: Union[None, str, ReferenceRanges] = None,
                     threshold: float = MATCH_THRESHOLD, source: str = "run", graphs: bool = False,
                     **graph_options: Any) -> AnnotationReport:
    """Evaluate the response records of an ``annotate`` run (each carries its gold annotation).

    Records without gold are refused: a run on free text has nothing to compare with.
    ``graph_options`` (``align``, thresholds, ``embedder``, ``edge_scores``, ``alignment``) go to
    :func:`evaluate_statements`.
    """
    preds, golds, rules = [], [], []
    for n, r in enumerate(records, start=1):
        gid = r.meta.get("statement_id") or r.item_id
        if not r.gold:
            raise SchemaError(f"{source}, record {n} ({gid}): no gold annotation; evaluate-annotation needs a run "
                              "over an annotated corpus (e.g. --data climatecause)")
        text = r.meta.get("text", "")
        g = parse_annotation(r.gold)
        if g.failed:
            raise SchemaError(f"{source}, record {n} ({gid}): the gold annotation is not readable JSON")
        golds.append(to_statement(g, text, id=str(gid)))
        label = r.label
        if r.error or not isinstance(label, dict):
            preds.append(None)
        else:
            preds.append(to_statement(parsed_from_label(label, r.rule), text, id=str(gid)))
        rules.append("error" if r.error else r.rule)
    return evaluate_statements(preds, golds, reference=reference, threshold=threshold, rules=rules, graphs=graphs,
                               **graph_options)


def evaluate_annotation(run: Union[str, os.PathLike, Any], *, variant: Optional[str] = None,
                        reference: Union[None, str, ReferenceRanges] = None,
                        threshold: float = MATCH_THRESHOLD, graphs: bool = False,
                        **graph_options: Any) -> AnnotationReport:
    """Evaluate an ``annotate`` run directory against the gold annotations it carries.

    Parameters
    ----------
    run
        A run directory (``causalgraph annotate --data climatecause --out DIR``) or a loaded run.
    variant
        Only this variant (default: the run's only variant; required when it has several).
    reference, threshold, graphs, graph_options
        See :func:`evaluate_statements` (``graph_options``: ``align``, ``token_threshold``,
        ``embedding_threshold``, ``embedder``, ``edge_scores``, ``alignment``).

    Examples
    --------
    >>> rep = evaluate_annotation("runs/annotate-smollm2")         # doctest: +SKIP
    >>> rep.pairs["token"]["f1"], rep.complexity["spearman_rho"]   # doctest: +SKIP
    """
    r = load_run(run) if isinstance(run, (str, os.PathLike)) else run
    if r.task != TASK:
        raise ConfigError(f"{r.path}: a run of task {r.task!r}; evaluate-annotation reads runs of task 'annotate'")
    variants = r.variants
    if variant is None:
        if len(variants) > 1:
            raise ConfigError(f"{r.path} holds variants {', '.join(variants)}; choose one with --variant")
        variant = variants[0] if variants else None
    elif variant not in variants:
        raise ConfigError(f"{r.path} has no variant {variant!r}; it has {', '.join(variants)}")
    return evaluate_records(input_order(r.records(variant)), reference=reference, threshold=threshold,
                            source=str(r.path), graphs=graphs, **graph_options)
