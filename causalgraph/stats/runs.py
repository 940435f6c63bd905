"""The ClimateCause paper's statistical analyses over benchmark runs (§6.3, App. H).

A run is a directory written by the benchmark runner and read with
:func:`causalgraph.runlog.store.load_run`; every response carries ``task``,
``variant``, ``item_id``, the parsed ``label``, ``gold`` and ``meta``
(``statement_id``, event …), so the analyses need nothing but the runs (and,
for :func:`kruskal_runs`, one number per statement).

* :func:`mcnemar_runs` — Table 21: per prompt variant, McNemar's test of run A
  against run B (CorrI against CorrI+RC; membership against position
  collapsed to membership), Bonferroni-corrected over the variants.
* :func:`kruskal_runs` — Table 22: per variant, Kruskal-Wallis of a
  statement-level score (``C(s)``) across the predicted labels, with ε² and
  Dunn's post-hoc test (Holm).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..errors import ConfigError
from ..tasks import Multiclass, Task, get_task
from .corrections import bonferroni
from .kruskal import dunn, kruskal
from .mcnemar import mcnemar
from .pairing import as_run, pair_key, prediction as _prediction, run_name as _run_name, show_keys as _show
from ..runlog.files import Manifest
from ..runlog.record import RunRecord

__all__ = [
    "task_of", "task_words", "variant_key",
    "pair_variants", "mcnemar_runs", "run_method", "PAIRINGS", "KruskalAnalysis", "kruskal_runs", "label_order",
]

# Labels are shown in the task's order (Task.labels); labels of an unknown task in order of appearance.


def variant_key(variant: str, task_words: Iterable[str] = ()) -> str:
    """A variant id without the words that name the task (a task's ``Task.variant_words``).

    Examples
    --------
    >>> variant_key("CCR_ECI_position_CoT_4", {"ccr", "eci", "position"}), variant_key("RC_0_1", {"rc"})
    ('CoT_4', '0_1')
    """
    words = {w.lower() for w in task_words}
    parts = [p for p in re.split(r"[_\-]", str(variant)) if p and p.lower() not in words]
    return "_".join(parts)


def pair_variants(variants_a: Sequence[str], variants_b: Sequence[str],
                  pairs: Optional[Iterable[tuple[str, str]]] = None,
                  task_words: Iterable[str] = (), *,
                  hint: str = "pass the pairs explicitly (--pair A:B)") -> list[tuple[str, str]]:
    """Match the variants of two runs: same id, else same :func:`variant_key` (without ``task_words``).

    Raises :class:`~causalgraph.errors.ConfigError` naming the variants left
    without a partner (pass ``pairs`` explicitly then).  ``hint`` ends that
    message: the advice of the caller (the ``stats`` commands take
    ``--pair A:B``; a caller without such an option passes its own, or ``""``).

    Examples
    --------
    >>> pair_variants(["0_1", "F_2"], ["RC_F_2", "RC_0_1"], task_words={"rc"})
    [('0_1', 'RC_0_1'), ('F_2', 'RC_F_2')]
    """
    va, vb = list(variants_a), list(variants_b)
    if pairs is not None:
        out = [(str(a), str(b)) for a, b in pairs]
        bad = [a for a, _ in out if a not in va] + [b for _, b in out if b not in vb]
        if bad:
            raise ConfigError(f"variant pairs name variants not in the runs: {bad!r} "
                              f"(run A has {va!r}, run B has {vb!r})")
        return out
    out = []
    used: list[str] = []
    for a in va:
        if a in vb:
            match = a
        else:
            cands = [b for b in vb if variant_key(b, task_words) == variant_key(a, task_words)]
            if len(cands) > 1:
                raise ConfigError(f"variant {a!r} of run A matches several of run B: {cands!r}"
                                  + ("; pass pairs explicitly" if hint else ""))
            match = cands[0] if cands else None
        if match is not None:
            if match in used:
                raise ConfigError(f"variant {match!r} of run B matches several variants of run A"
                              + ("; pass pairs explicitly" if hint else ""))
            used.append(match)
            out.append((a, match))
    left_a = [a for a in va if a not in [p[0] for p in out]]
    left_b = [b for b in vb if b not in used]
    if left_a or left_b:
        raise ConfigError(f"variants without a partner: run A {left_a!r}, run B {left_b!r}"
                          + (f"; {hint}" if hint else ""))
    return out


def _labels_of(records: Sequence[RunRecord]) -> set:
    return ({r.gold for r in records} | {r.label for r in records}) - {None}


def task_of(records: Sequence[RunRecord], run: Any = None) -> Optional[Task]:
    """The registered :class:`~causalgraph.tasks.Task` of a run's records (``None`` for an unknown task)."""
    name = records[0].task if records else getattr(run, "task", None)
    try:
        return get_task(str(name))
    except ConfigError:
        return None


def task_words(*tasks: Optional[Task]) -> set:
    """The words that name the tasks in their variant ids (for :func:`pair_variants`)."""
    return {w for t in tasks if t is not None for w in t.variant_words}


def _coarsener(task: Optional[Task], own: Sequence[RunRecord], other: Sequence[RunRecord]):
    """The task's ``Multiclass.coarsen`` when the other run answers in the coarse labels it maps to, else ``None``."""
    kind = task.answers if task is not None else None
    if not isinstance(kind, Multiclass) or kind.coarsen is None:
        return None
    coarse = set(kind.coarse_labels)
    theirs, mine = _labels_of(other), _labels_of(own)
    if theirs and theirs <= coarse and not mine <= coarse:
        return kind.coarsen
    return None


def _keyed(records, coarsen, where: str) -> dict[str, Optional[str]]:
    out: dict[str, Optional[str]] = {}
    for r in records:
        k = pair_key(r)
        if k in out:
            raise ConfigError(f"{where}: item key {k!r} occurs twice in variant {r.variant!r}")
        lab = _prediction(r)
        out[k] = coarsen(lab) if coarsen is not None and lab is not None else lab
    return out


def _keyed_correct(records, where: str, task: Optional[Task] = None) -> dict[str, Optional[bool]]:
    """Item key → whether the answer is right (an unparsed answer is wrong; a failed request is ``None``).

    Right as the task declares it (:meth:`~causalgraph.tasks.Task.paired_score`: by its kind or its
    ``paired_counts`` hook); for a task not registered here (or one that declares no paired counts),
    the label equals the gold label.
    """
    right = None
    if task is not None:
        try:
            task.check_paired()
            right = task.paired_score
        except ConfigError:
            right = None
    out: dict[str, Optional[bool]] = {}
    for r in records:
        k = pair_key(r)
        if k in out:
            raise ConfigError(f"{where}: item key {k!r} occurs twice in variant {r.variant!r}")
        if r.error:
            out[k] = None
        elif right is not None:
            out[k] = right(r)[1]
        else:
            out[k] = r.label is not None and r.label == r.gold
    return out


def run_method(run: Any) -> str:
    """How a run answered: ``generate`` (a parsed answer) or ``loglik`` (``bench run --method loglik``).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> run_method(SimpleNamespace(manifest={"parameters": {"method": "loglik"}})), run_method(SimpleNamespace(manifest={}))
    ('loglik', 'generate')
    """
    manifest = getattr(run, "manifest", None) or {}
    # A loaded Run holds the typed manifest; a hand-made stand-in may hold its dict.
    return Manifest.of(manifest).method


#: What ``mcnemar_runs`` pairs: the predicted labels (Table 21), or whether each answer is right.
PAIRINGS = ("auto", "labels", "correct")


def mcnemar_runs(run_a: Any, run_b: Any, *, alpha: float = 0.05, exact: bool = False, correction: bool = True,
                 midp: bool = False, pairs: Optional[Iterable[tuple[str, str]]] = None, on: str = "auto"):
    """Table 21: McNemar's test per prompt variant between two runs.

    Parameters
    ----------
    run_a, run_b
        Run directories or loaded runs.  Items are paired by
        :func:`pair_key` and variants by :func:`pair_variants`.  When one run
        answers in labels another run's task maps to (its ``Multiclass.coarsen``:
        chain position → membership), that run's answers are mapped first,
        as in the paper's Table 21(b, c).
    alpha
        Family-wise level; each test is judged at the Bonferroni threshold
        ``alpha / m`` for ``m`` variant pairs (``0.05 / 9 ≈ 0.0056`` in the paper).
    exact, correction, midp
        The McNemar variant (see :func:`causalgraph.stats.mcnemar`); the
        paper used χ² with continuity correction, the default.
    pairs
        Explicit ``(variant_a, variant_b)`` pairs.
    on
        ``labels``: the two runs' predicted labels, as the paper's Table 21
        (binary, or collapsed to membership).  ``correct``: whether each
        answer is right, so ``b`` counts items run A got right and run B
        wrong (``c`` the reverse) — the comparison of two ways of answering
        the same items, where an unparsed answer counts as wrong rather
        than being left out (only failed requests are).  ``auto`` (default):
        ``correct`` when one run was generated and the other scored by
        log-likelihood (``bench run --method``), ``labels`` otherwise.  The
        table gets a ``paired_on`` column under ``correct``.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``task_a``, ``variant_a``, ``task_b``,
        ``variant_b``, ``n`` (pairs tested), ``excluded`` (pairs with an
        unparsed or failed answer on either side, left out and counted),
        ``b``, ``c``, ``statistic``, ``p``, ``p_bonferroni``, ``threshold``,
        ``significant`` and ``sig`` (``*`` or empty).

    Raises
    ------
    ConfigError
        Items present in only one run (listed), unpaired variants, or
        labels that are neither binary nor collapsible.

    Examples
    --------
    >>> table = mcnemar_runs("runs/corri", "runs/corri-rc")   # doctest: +SKIP
    >>> table[["variant_a", "variant_b", "statistic", "p", "sig"]]  # doctest: +SKIP
    """
    import pandas as pd

    ra, rb = as_run(run_a), as_run(run_b)
    for r in (ra, rb):
        if not r.responses:
            raise ConfigError(f"{_run_name(r)}: the run has no responses yet")
    if on not in PAIRINGS:
        raise ConfigError(f"mcnemar: pairing {on!r}, expected one of {', '.join(PAIRINGS)}")
    if on == "auto":
        on = "correct" if run_method(ra) != run_method(rb) else "labels"
    words = task_words(task_of(ra.responses, ra), task_of(rb.responses, rb))
    vpairs = pair_variants(ra.variants, rb.variants, pairs, words)
    rows = []
    for va, vb in vpairs:
        reca, recb = ra.records(va), rb.records(vb)
        ta, tb = task_of(reca, ra), task_of(recb, rb)
        if on == "correct":
            pa = _keyed_correct(reca, f"{_run_name(ra)} variant {va}", ta)
            pb = _keyed_correct(recb, f"{_run_name(rb)} variant {vb}", tb)
        else:
            pa = _keyed(reca, _coarsener(ta, reca, recb), f"{_run_name(ra)} variant {va}")
            pb = _keyed(recb, _coarsener(tb, recb, reca), f"{_run_name(rb)} variant {vb}")
        only_a = [k for k in pa if k not in pb]
        only_b = [k for k in pb if k not in pa]
        if only_a or only_b:
            raise ConfigError(
                f"variants {va} (run A) and {vb} (run B) do not cover the same items: "
                f"only in A ({len(only_a)}): {_show(only_a)}; only in B ({len(only_b)}): {_show(only_b)}")
        keys = [k for k in pa if pa[k] is not None and pb[k] is not None]
        excluded = len(pa) - len(keys)
        task_a = reca[0].task if reca else ra.task
        task_b = recb[0].task if recb else rb.task
        if not keys:
            raise ConfigError(f"variants {va} and {vb}: no item has a parsed answer in both runs")
        res = mcnemar({k: pa[k] for k in keys}, {k: pb[k] for k in keys}, exact=exact, correction=correction,
                      midp=midp, **({"labels": (True, False)} if on == "correct" else {}))
        rows.append({"task_a": task_a, "variant_a": va, "task_b": task_b, "variant_b": vb, "n": res.n,
                     "excluded": excluded, "b": res.b, "c": res.c, "statistic": res.statistic, "p": res.p,
                     "method": res.method})
    corr = bonferroni([r["p"] for r in rows], alpha=alpha)
    for r, padj, rej in zip(rows, corr.p_adjusted, corr.reject):
        r["p_bonferroni"] = padj
        r["threshold"] = corr.threshold
        r["significant"] = bool(rej)
        r["sig"] = "*" if rej else ""
    for r in rows if on == "correct" else ():
        r["paired_on"] = "correct"
    return pd.DataFrame(rows, columns=["task_a", "variant_a", "task_b", "variant_b", "n", "excluded", "b", "c",
                                       "statistic", "p", "p_bonferroni", "threshold", "significant", "sig",
                                       "method"] + (["paired_on"] if on == "correct" else []))


def label_order(labels: Iterable[Any], canonical: Sequence[Any] = ()) -> list:
    """The labels that occur, those of ``canonical`` (a task's labels) first in its order, others after.

    Examples
    --------
    >>> label_order(["none", "x", "start"], ("start", "middle", "end", "none"))
    ['start', 'none', 'x']
    """
    labs = []
    for x in labels:
        if x not in labs:
            labs.append(x)
    known = [x for x in canonical if x in labs]
    return known + [x for x in labs if x not in known]


@dataclass(frozen=True)
class KruskalAnalysis:
    """Outcome of :func:`kruskal_runs`.

    Attributes
    ----------
    table
        One row per variant (Table 22): ``task``, ``variant``, ``k``, ``n``,
        ``excluded``, ``H``, ``p``, ``epsilon2``, ``significant``, ``sig``,
        ``dunn_significant`` (pairs with ``p_adj < alpha``) and ``note``.
    dunn
        One row per variant and pair of predicted labels: ``task``,
        ``variant``, ``group_a``, ``group_b``, ``n_a``, ``n_b``, ``z``, ``p``,
        ``p_adj``, ``significant``.
    """

    table: Any
    dunn: Any


def kruskal_runs(run: Any, values: Mapping[str, float], *, alpha: float = 0.05, p_adjust: str = "holm",
                 metric: str = "value") -> KruskalAnalysis:
    """Table 22: per variant, Kruskal-Wallis of a statement score across predicted labels.

    Parameters
    ----------
    run
        Run directory or loaded run (e.g. CCR+ECI+RC membership or position).
    values
        Statement id → score (``C(s)``: the ``c_norm`` column of
        :func:`causalgraph.complexity_table`).  Each item takes the score of
        its statement (``meta["statement_id"]``).
    alpha
        Significance level for H and for the adjusted Dunn p-values.
    p_adjust
        Correction of Dunn's pairwise p-values (``holm``, ``bonferroni``, ``none``).
    metric
        Name of the score, copied into the table.

    Returns
    -------
    KruskalAnalysis
        Items with an unparsed or failed answer are left out and counted in
        ``excluded``.  A variant whose answers all carry one label gets a row
        with ``k = 1``, empty H and a ``note`` instead of an error.

    Raises
    ------
    ConfigError
        An item without ``meta.statement_id`` or whose statement has no value
        (listed).

    Examples
    --------
    >>> from causalgraph import complexity_table, load_climatecause  # doctest: +SKIP
    >>> c = complexity_table(load_climatecause())["c_norm"]           # doctest: +SKIP
    >>> kruskal_runs("runs/eci-member", c.to_dict()).table             # doctest: +SKIP
    """
    import pandas as pd

    r = as_run(run)
    rows, drows = [], []
    for variant in r.variants:
        recs = r.records(variant)
        missing_sid = [x.item_id for x in recs if not x.meta.get("statement_id")]
        if missing_sid:
            raise ConfigError(f"{_run_name(r)} variant {variant}: {len(missing_sid)} items have no meta.statement_id "
                              f"(e.g. {missing_sid[:5]!r})")
        unknown = []
        for x in recs:
            sid = x.meta["statement_id"]
            if sid not in values and sid not in unknown:
                unknown.append(sid)
        if unknown:
            raise ConfigError(f"{_run_name(r)} variant {variant}: no {metric} value for statements {unknown[:20]!r}; "
                              "is the run from the same corpus as --data?")
        used = [x for x in recs if _prediction(x) is not None]
        vals = [float(values[x.meta["statement_id"]]) for x in used]
        groups = [_prediction(x) for x in used]
        spec = task_of(recs, r)
        order = label_order(groups, spec.labels if spec is not None else ())
        task = recs[0].task if recs else r.task
        row = {"task": task, "variant": variant, "metric": metric, "k": len(order), "n": len(used),
               "excluded": len(recs) - len(used), "H": None, "p": None, "epsilon2": None,
               "significant": None, "sig": "", "dunn_significant": None, "note": ""}
        if len(order) < 2:
            row["note"] = f"only one predicted label ({order[0] if order else 'none'}); H undefined"
        elif len(set(vals)) == 1:
            row["note"] = "all items have the same value; H undefined"
        else:
            res = kruskal(vals, groups, order=order)
            d = dunn(vals, groups, p_adjust=p_adjust, order=order)
            sig_pairs = int((d["p_adj"] < alpha).sum())
            row.update({"H": res.H, "p": res.p, "epsilon2": res.epsilon2, "significant": res.p < alpha,
                        "sig": "*" if res.p < alpha else "", "dunn_significant": sig_pairs})
            for rec in d.to_dict(orient="records"):
                drows.append({"task": task, "variant": variant, **rec, "significant": rec["p_adj"] < alpha})
        rows.append(row)
    table = pd.DataFrame(rows, columns=["task", "variant", "metric", "k", "n", "excluded", "H", "p", "epsilon2",
                                        "significant", "sig", "dunn_significant", "note"])
    dcols = ["task", "variant", "group_a", "group_b", "n_a", "n_b", "mean_rank_a", "mean_rank_b", "z", "p",
             "p_adj", "significant"]
    return KruskalAnalysis(table, pd.DataFrame(drows, columns=dcols))
