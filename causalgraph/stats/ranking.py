"""Which arms are separable: tie groups after Holm (a compact letter display) and bootstrap intervals of ranks.

For three or more arms (models, encodings, prompt variants, graph edits) answering the same items,
:func:`rank_arms` reports per arm its score (the task's F1, as ``stats compare``) with a CR2 t interval
over statements, its **group letters** — two arms that share a letter were not told apart by the
pairwise tests after Holm's correction over all pairs (Piepho's 2004 insert-and-absorb algorithm) —
and a **rank interval**: the 2.5 and 97.5 percentiles of the arm's rank (1 = best, ties averaged)
over bootstrap resamples of statements (an arm whose score is undefined — F1 with no positive in gold or
answers — gets no rank, and a note; a resample in which a ranked arm's F1 is undefined is dropped, and the
note counts the dropped resamples). Holm controls the family-wise rate of splitting any two equal
arms at ``alpha`` whenever the pairwise tests hold their level (measured in tests/stats/test_ranking.py).

:func:`rank_runs` applies it to runs (``causalgraph stats compare RUN… --by AXIS --rank``), on the
items every arm of a task answered.
"""

from __future__ import annotations

import itertools
import math
import string
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from ..tasks import get_task
from .compare import AXES, arm_cells, f1_influence
from .corrections import holm
from .resampling import cluster_t_interval, statement_weights

__all__ = ["RANK_COLUMNS", "MIN_STATEMENTS_SCORE_INTERVAL", "MIN_STATEMENTS_RANK_INTERVAL", "letters", "rank_arms",
           "rank_runs"]

#: Fewest statements for an arm's score interval (the CR2 t interval of its F1): with fewer it covers 83-93 %
#: against the 93 % asked (benchmarks/bench_rank_level.py; 0.905-0.928 at 30 statements, 0.920-0.939 at 40).
MIN_STATEMENTS_SCORE_INTERVAL = 40

#: Fewest statements for the rank intervals: with fewer, four arms 0.02 apart in accuracy get their true rank
#: inside the interval 72-86 % of the time at 8 statements and 85-95 % at 15; 95-98 % at 30
#: (benchmarks/bench_rank_level.py, docs/statistics.md).
MIN_STATEMENTS_RANK_INTERVAL = 30

#: Columns of the table :func:`rank_runs` returns.
RANK_COLUMNS = ["task", "metric", "arm", "score", "ci_low", "ci_high", "group", "rank", "rank_low", "rank_high",
                "n", "statements", "note"]


def letters(arms: Sequence[str], separated: Sequence[tuple[str, str]], order: Sequence[str]) -> dict[str, str]:
    """Compact letter display: arm → letters; arms sharing a letter are not separated.

    ``separated`` lists the pairs the tests told apart; ``order`` (best first) decides which group
    gets ``a``.

    Examples
    --------
    >>> letters(["x", "y", "z"], [("x", "z")], ["x", "y", "z"])
    {'x': 'a', 'y': 'ab', 'z': 'b'}
    """
    groups: list[frozenset] = [frozenset(arms)]
    for i, j in separated:
        new: list[frozenset] = []
        for g in groups:
            if i in g and j in g:
                new += [g - {j}, g - {i}]
            else:
                new.append(g)
        # absorb: a group inside another says nothing more
        uniq = list(dict.fromkeys(new))
        groups = [g for g in uniq if not any(g < h for h in uniq)]
    rank = {a: k for k, a in enumerate(order)}
    groups.sort(key=lambda g: (min(rank[a] for a in g), sorted(rank[a] for a in g)))
    names = list(string.ascii_lowercase) + [f"{a}{b}" for a in string.ascii_lowercase for b in string.ascii_lowercase]
    out = {a: "" for a in arms}
    for name, g in zip(names, groups):
        for a in g:
            out[a] += name
    return out


def _f1_batch(sums: np.ndarray) -> np.ndarray:
    """F1 of each row of ``sums``: ``(B, 3)`` tp/fp/fn (binary or micro) or ``(B, C, 3)`` (macro over classes present)."""
    sums = np.asarray(sums, dtype=float)
    tp, fp, fn = sums[..., 0], sums[..., 1], sums[..., 2]
    den = 2 * tp + fp + fn
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), np.nan)
    if f.ndim == 2:
        present = den > 0
        with np.errstate(invalid="ignore"):
            f = np.where(present.any(axis=1), np.nansum(np.where(present, f, 0), axis=1) / present.sum(axis=1),
                         np.nan)
    return f


def rank_arms(counts: Mapping[str, np.ndarray], correct: Mapping[str, np.ndarray], groups: Sequence[Any], *,
              alpha: float = 0.05, n_boot: int = 1000, seed: int = 0, test: str = "mcnemar") -> list[dict[str, Any]]:
    """Scores, tie groups and rank intervals of arms answering the same items.

    Parameters
    ----------
    counts
        Arm → per-item F1 counts, ``n × 3`` (tp, fp, fn) or ``n × C × 3`` (per class).
    correct
        Arm → per-item correctness (for the pairwise tests).
    groups
        Each item's statement.
    alpha
        Family-wise level of Holm's correction over all pairs; intervals at ``1 - alpha``.
    n_boot, seed
        Statement resamples for the rank intervals.
    test
        ``mcnemar`` (exact, on correctness) or ``clustered`` (accuracy difference, CR2 t over statements).

    Returns
    -------
    list of dict
        One per arm, best score first: ``arm``, ``score``, ``ci_low``, ``ci_high``, ``group``, ``rank``,
        ``rank_low``, ``rank_high``, ``n``, ``statements``, ``note`` (why the score or rank is undefined;
        ``None`` when both are given).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> g = np.repeat(np.arange(40), 10)
    >>> right = {a: rng.random(400) < p for a, p in (("good", 0.9), ("mid", 0.6), ("bad", 0.3))}
    >>> counts = {a: np.column_stack([r, ~r, ~r]).astype(int) for a, r in right.items()}
    >>> [(r["arm"], r["group"]) for r in rank_arms(counts, right, g, n_boot=200)]
    [('good', 'a'), ('mid', 'b'), ('bad', 'c')]
    """
    from scipy.stats import binom, rankdata

    arms = list(counts)
    if len(arms) < 2:
        raise ConfigError(f"ranking needs at least two arms (got {len(arms)})")
    if test not in ("mcnemar", "clustered"):
        raise ConfigError(f"unknown test {test!r}; expected mcnemar or clustered")
    labels = list(groups)
    stmts = list(dict.fromkeys(labels))
    index = {s: i for i, s in enumerate(stmts)}
    codes = np.array([index[s] for s in labels])
    scores, intervals, per = {}, {}, {}
    for a in arms:
        c = np.asarray(counts[a])
        f, u = f1_influence(c)
        scores[a] = f
        intervals[a] = cluster_t_interval(f, u, labels, level=1 - alpha)
        s = np.zeros((len(stmts),) + c.shape[1:])
        np.add.at(s, codes, c)
        per[a] = s
    pairs = list(itertools.combinations(arms, 2))
    pvals = []
    for a, b in pairs:
        ra, rb = np.asarray(correct[a], dtype=bool), np.asarray(correct[b], dtype=bool)
        if test == "mcnemar":
            # McNemar's exact test (stats.mcnemar's, counted with numpy for 10 arms × 34,164 items)
            nb, nc = int((ra & ~rb).sum()), int((~ra & rb).sum())
            pvals.append(1.0 if nb + nc == 0 else min(1.0, 2 * float(binom.cdf(min(nb, nc), nb + nc, 0.5))))
        else:
            d = rb.astype(float) - ra.astype(float)
            p = cluster_t_interval(float(d.mean()), d - d.mean(), labels, bounds=None)["p"]
            pvals.append(1.0 if p != p else p)
    corr = holm(pvals, alpha=alpha)
    separated = [pair for pair, rej in zip(pairs, corr.reject) if rej]
    order = sorted(arms, key=lambda a: (-(scores[a] if scores[a] == scores[a] else -math.inf), arms.index(a)))
    groups_of = letters(arms, separated, order)
    # Ranks over statement resamples: 1 = best, among the arms whose score is defined on the data (an arm
    # whose score is undefined gets no rank at all, NaN with a note, never "last"). A resample in which one of
    # those arms' F1 is undefined (its positives all left out) is dropped rather than ranking that arm last
    # there: ranking it last widened a perfect arm's interval beyond a worse arm's. The rank intervals are
    # then over the remaining resamples, and the note says how many were dropped.
    w = statement_weights(len(stmts), n_boot, seed)
    defined = [a for a in arms if scores[a] == scores[a]]
    cols = [arms.index(a) for a in defined]
    boot = np.column_stack([_f1_batch(np.tensordot(w, per[a], axes=1)) for a in arms]) if n_boot else \
        np.empty((0, len(arms)))
    kept = boot[:, cols][~np.isnan(boot[:, cols]).any(axis=1)] if cols else np.empty((0, 0))
    ranks = rankdata(-kept, axis=1) if len(kept) else np.empty((0, len(cols)))
    point = rankdata([-scores[a] for a in defined]) if defined else np.empty(0)
    dropped = n_boot - len(kept)
    G = len(stmts)
    few_for_score = G < MIN_STATEMENTS_SCORE_INTERVAL
    few_for_rank = G < MIN_STATEMENTS_RANK_INTERVAL
    rows = []
    for a in order:
        if a not in defined:
            rank = lo = hi = math.nan
            note = "score undefined (no positive in gold or answers): no rank"
        else:
            j = defined.index(a)
            rank, note = float(point[j]), None
            if len(kept):
                lo, hi = np.quantile(ranks[:, j], [alpha / 2, 1 - alpha / 2])
            else:
                lo = hi = math.nan
                note = (f"rank interval undefined: an arm's F1 was undefined in all {n_boot} resamples" if n_boot
                        else "rank interval undefined: no statement resample asked (0 resamples)")
            if dropped and len(kept):
                note = (f"rank interval over {len(kept)} of {n_boot} resamples (in {dropped} an arm's F1 "
                        f"was undefined: its positives were all left out)")
            if few_for_rank and n_boot:
                # Computed, not given: on so few statements the rank interval undercovers (the constant's note).
                lo = hi = math.nan
                note = (f"rank interval not estimable: {G} statements, at least {MIN_STATEMENTS_RANK_INTERVAL} "
                        "needed for it to cover (docs/statistics.md)")
        ci_low, ci_high = intervals[a]["low"], intervals[a]["high"]
        if few_for_score and scores[a] == scores[a]:
            ci_low = ci_high = math.nan
            why = (f"score interval not estimable: {G} statements, at least {MIN_STATEMENTS_SCORE_INTERVAL} needed "
                   "for the CR2 interval to cover (docs/statistics.md)")
            note = why if note is None else f"{why}; {note}"
        rows.append({"arm": a, "score": scores[a], "ci_low": ci_low, "ci_high": ci_high,
                     "group": groups_of[a], "rank": rank, "rank_low": float(lo), "rank_high": float(hi),
                     "n": len(labels), "statements": len(stmts), "note": note})
    return rows


def rank_runs(runs: Sequence[Any], by: str, *, alpha: float = 0.05, n_boot: int = 1000, seed: int = 0,
              test: str = "mcnemar"):
    """:func:`rank_arms` per task over the items every arm answered (see ``stats compare --rank``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RANK_COLUMNS`, per task the arms best first.

    Examples
    --------
    >>> rank_runs(["runs/a", "runs/b", "runs/c"], by="model")   # doctest: +SKIP
    """
    import pandas as pd

    if by not in AXES:
        raise ConfigError(f"unknown axis {by!r}; expected one of {', '.join(AXES)}")
    rows = []
    for task_name, arms in arm_cells(runs, by).items():
        task = get_task(task_name)
        task.check_paired()
        names = list(arms)
        keys = [k for k in arms[names[0]] if all(k in arms[a] for a in names[1:])]
        if len(names) < 2 or not keys:
            raise ConfigError(f"task {task_name!r}: ranking needs two or more arms by {by} sharing items "
                              f"(arms: {', '.join(names)})")
        # An arm with no answered item among the shared ones was never asked: failed requests alone would
        # score it 0 and rank it last (compare_runs blanks such a comparison; issue 35, item 5).
        unanswered = [a for a in names if all(arms[a][k].error for k in keys)]
        names = [a for a in names if a not in unanswered]
        if len(names) < 2:
            raise ConfigError(f"task {task_name!r}: ranking needs two or more arms by {by} with answered items "
                              f"(no answered item in {', '.join(unanswered)})")
        counts, right = {}, {}
        for a in names:
            scored = [task.paired_score(arms[a][k]) for k in keys]
            counts[a] = np.asarray([c for c, _ in scored], dtype=np.int64)
            right[a] = np.asarray([r for _, r in scored], dtype=bool)
        groups = [(arms[names[0]][k].meta or {}).get("statement_id", k) for k in keys]
        for r in rank_arms(counts, right, groups, alpha=alpha, n_boot=n_boot, seed=seed, test=test):
            rows.append({"task": task_name, "metric": task.paired_metric_name(), **r})
        for a in unanswered:
            rows.append({"task": task_name, "metric": task.paired_metric_name(), "arm": a, "n": len(keys),
                         "statements": len(set(groups)), "note": "no answered item: no score, no rank"})
    return pd.DataFrame(rows, columns=RANK_COLUMNS)
