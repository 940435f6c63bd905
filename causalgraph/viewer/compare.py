"""Two or more runs over the same items: flipped items, McNemar per variant, agreement per statement.

The first run is the baseline.  Each other run's variants are paired with
the baseline's by :func:`causalgraph.stats.runs.pair_variants` (same id,
else same id without the words the tasks declare), and items by
:func:`causalgraph.stats.pair_key` (the item id without task and variant),
so a CorrI run and a CorrI+RC run over the same relations pair up.

* **flipped items**: aligned items whose correctness (correct against
  anything else: wrong, unparsed, failed) is not the same in every run;
* **McNemar on correctness**, per variant pair and run against the
  baseline: :func:`causalgraph.stats.mcnemar` of the two correctness vectors
  (``b``: right in the baseline only, ``c``: right in the other run only),
  Bonferroni-corrected over the variants;
* **McNemar on the answers** (the paper's Table 21):
  :func:`causalgraph.stats.mcnemar_runs` where the answers allow it (two
  labels, or labels one task coarsens to the other's), else its reason;
* **agreement per statement**: aligned items, how many get the same answer
  in every run, how many the same correctness, and each run's correct count.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..errors import CausalGraphError
from ..stats import pair_key, mcnemar, mcnemar_runs
from ..stats.corrections import bonferroni
from ..stats.runs import pair_variants
from ..runlog.record import RunRecord

__all__ = ["compare_runs"]


def _keys(view, variant: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for n, rec in enumerate(view.records):
        if rec.variant == variant:
            out.setdefault(pair_key(rec), n)
    return out


def _variants(view) -> list[str]:
    out: list[str] = []
    for rec in view.records:
        v = rec.variant
        if v not in out:
            out.append(v)
    declared = [v for v in (view.manifest.get("variants") or []) if v in out]
    return declared + [v for v in out if v not in declared]


def _answer(rec: RunRecord) -> Any:
    import json

    if rec.error:
        return None
    lab = rec.label
    return json.dumps(lab, sort_keys=True) if isinstance(lab, (dict, list)) else lab


def compare_runs(views: Sequence[Any], runs: Sequence[Any]) -> Optional[dict]:
    """The comparison section of a page with several runs (``None`` for one run).

    Parameters
    ----------
    views
        :class:`~causalgraph.viewer.runs.RunView` of each run, baseline first.
    runs
        The loaded runs, in the same order (for :func:`~causalgraph.stats.mcnemar_runs`).

    Returns
    -------
    dict
        ``pairs`` (per other run: variant pairs, McNemar rows, notes),
        ``flipped`` (``[variant of the baseline, key, statement, [record index per run]]``, each index
        local to its run: position in that view's ``records``),
        ``statements`` (agreement rows) and ``notes``.

    Examples
    --------
    >>> cmp = compare_runs([view_a, view_b], [run_a, run_b])   # doctest: +SKIP
    >>> [f[1] for f in cmp["flipped"]]                          # doctest: +SKIP
    ['cc-001/r000']
    """
    if len(views) < 2:
        return None
    base = views[0]
    notes: list[str] = []
    words: set = set()
    for v in views:
        words |= set(getattr(v.task, "variant_words", ()) or ())
    # variant of the baseline -> [variant of run k or None]
    vmap: dict[str, list[Optional[str]]] = {v: [v] + [None] * (len(views) - 1) for v in _variants(base)}
    pairs_out = []
    for k, other in enumerate(views[1:], start=1):
        entry: dict[str, Any] = {"run": k, "variants": [], "mcnemar": [], "label_mcnemar": [], "notes": []}
        try:
            # bench view takes no pairing option: the advice the stats commands give (--pair) does not apply.
            vp = pair_variants(_variants(base), _variants(other), task_words=words, hint="")
        except CausalGraphError as exc:
            vp = [(a, a) for a in _variants(base) if a in _variants(other)]
            shown = ", ".join(a for a, _ in vp) or "none"
            entry["notes"].append(f"{exc}; compared on the variants with the same id in both runs only ({shown})")
        entry["variants"] = [list(p) for p in vp]
        for va, vb in vp:
            vmap[va][k] = vb
        rows = []
        for va, vb in vp:
            ka, kb = _keys(base, va), _keys(other, vb)
            common = [key for key in ka if key in kb]
            left = (len(ka) - len(common), len(kb) - len(common))
            if left != (0, 0):
                entry["notes"].append(f"{va} / {vb}: {left[0]} item(s) only in {base.name}, {left[1]} only in "
                                      f"{other.name}; compared on the {len(common)} in both")
            if not common:
                continue
            right_a = {key: base.states[ka[key]] == "correct" for key in common}
            right_b = {key: other.states[kb[key]] == "correct" for key in common}
            res = mcnemar(right_a, right_b, labels=(True, False))
            rows.append({"variant_a": va, "variant_b": vb, "n": res.n, "both_right": res.table[0][0],
                         "b": res.b, "c": res.c, "both_wrong": res.table[1][1], "statistic": res.statistic,
                         "p": res.p, "method": res.method})
        if rows:
            corr = bonferroni([r["p"] for r in rows])
            for r, padj, rej in zip(rows, corr.p_adjusted, corr.reject):
                r.update(p_bonferroni=float(padj), significant=bool(rej))
        entry["mcnemar"] = rows
        try:
            table = mcnemar_runs(runs[0], runs[k], pairs=vp)
            entry["label_mcnemar"] = [
                {key: (None if v != v else v) if isinstance(v, float) else v
                 for key, v in row.items() if key in ("variant_a", "variant_b", "n", "excluded", "b", "c",
                                                      "statistic", "p", "p_bonferroni", "significant", "method")}
                for row in table.to_dict(orient="records")]
        except CausalGraphError as exc:
            entry["label_mcnemar_note"] = str(exc)
        pairs_out.append(entry)

    # Items aligned over every run (by the baseline's variant and key).
    flipped = []
    stmts: dict[str, dict] = {}
    for va, partners in vmap.items():
        if any(p is None for p in partners):
            continue
        keyed = [_keys(view, v) for view, v in zip(views, partners)]
        for key, n0 in keyed[0].items():
            idx = [kd.get(key) for kd in keyed]
            if any(i is None for i in idx):
                continue
            recs = [view.records[i] for view, i in zip(views, idx)]
            right = [view.states[i] == "correct" for view, i in zip(views, idx)]
            sid = str(recs[0].meta.get("statement_id") or "")
            s = stmts.setdefault(sid, {"statement": sid, "items": 0, "same_answer": 0, "same_correctness": 0,
                                       "correct": [0] * len(views)})
            s["items"] += 1
            answers = {str(_answer(r)) for r in recs}
            s["same_answer"] += len(answers) == 1 and _answer(recs[0]) is not None
            s["same_correctness"] += len(set(right)) == 1
            for j, ok in enumerate(right):
                s["correct"][j] += ok
            if len(set(right)) > 1:
                flipped.append([va, key, sid, idx])
    for s in stmts.values():
        s["agreement"] = s["same_correctness"] / s["items"] if s["items"] else None
    if not stmts:
        notes.append("no item is in every run: nothing to compare")
    return {"runs": [v.name for v in views], "pairs": pairs_out, "flipped": flipped,
            "statements": list(stmts.values()), "notes": notes}
