"""What the viewer knows about one run: its task, its corpus, and each item's outcome, prompt and pairs.

Runs are read only through :func:`causalgraph.runlog.store.load_run` (the
manifest, ``Run.records()``/``Run.responses`` and ``metrics.json``).  The
task comes from :func:`causalgraph.tasks.get_task` when it is registered;
for any other task the labels are read from the records, so a study's own
task is shown like a built-in one.  The corpus is found from the manifest
(its dataset's file, then its name) or the task's ``default_data``; a run
whose statements cannot be found is still shown, without graphs, C(s) or
prompts, and the page says why.

A record does not hold its prompt (only the prompt's sha256): the prompt is
rebuilt from the task and the corpus and shown with the result of comparing
its sha256 with the record's.
"""

from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import CausalGraphError, ConfigError
from .._core.wording import plural
from ..datasets import load_corpus
from ..model import Corpus
from ..llm.base import canonical_json
from ..runlog.files import Manifest, Metrics
from ..runlog.record import RunRecord
from ..bench.scoring import compute_metrics, probe_usage_totals, usage_totals
from ..stats.difficulty import (
    STATEMENT_FEATURES, MIN_ITEMS, difficulty_curve, difficulty_frame, fit_difficulty, _statement_features
)
from ..tasks import get_task
from .pairs import match_pairs, pair_view_of, record_pairs
from .overlay import aligned_overlay
from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from ..extraction.embed import load_embedder
from ..runlog.samples import group_samples

__all__ = ["STATES", "RunView", "build_run_view", "item_state", "find_corpus", "asked_events", "display_value",
           "CS_BUCKETS", "cs_bucket", "dataset_of", "unique_names", "DIFFICULTY_FEATURE", "run_difficulty",
           "check_difficulty_feature"]

#: Outcome of an item, in the order the filters list them.
STATES = ("correct", "wrong", "unparsed", "error", "ungraded")
#: C(s) buckets (upper bounds included); statements outside the corpus are ``n/a``.
CS_BUCKETS = ("0", "0–0.25", "0.25–0.5", "0.5–1", "> 1", "n/a")
#: The feature of the difficulty plot by default: C(s), the normalised complexity.
DIFFICULTY_FEATURE = "c_norm"
#: Meta keys whose values name the event(s) an item asks about (highlighted in the graph).
_ASKED_KEYS = ("event", "events", "cause", "effect", "chain")


def cs_bucket(value: Optional[float]) -> str:
    """The C(s) bucket of a statement score (``n/a`` for ``None``/NaN).

    Examples
    --------
    >>> [cs_bucket(v) for v in (0.0, 0.1, 0.5, 0.7, 1.8, None)]
    ['0', '0–0.25', '0.25–0.5', '0.5–1', '> 1', 'n/a']
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if value <= 0:
        return "0"
    if value <= 0.25:
        return "0–0.25"
    if value <= 0.5:
        return "0.25–0.5"
    if value <= 1:
        return "0.5–1"
    return "> 1"


def item_state(record: RunRecord, graded: bool = True) -> str:
    """``correct``, ``wrong``, ``unparsed``, ``error`` or ``ungraded`` (no gold to compare with).

    A failed request is an ``error``; an answer no rule could read is
    ``unparsed`` (the scorer counts both as wrong).

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> [item_state(RunRecord("t", "v", "i", **f)) for f in ({"gold": "yes", "label": "yes"}, {"gold": "yes", "label": "no"},
    ...  {"gold": "yes", "label": None}, {"gold": "yes", "error": "HTTP 500"}, {"gold": None, "label": "x"})]
    ['correct', 'wrong', 'unparsed', 'error', 'ungraded']
    """
    if record.error:
        return "error"
    if record.label is None:
        return "unparsed"
    if not graded or record.gold is None:
        return "ungraded"
    return "correct" if record.label == record.gold else "wrong"


def asked_events(meta: dict) -> list[str]:
    """The events an item asks about, from its ``meta`` (``event``, ``cause``, ``effect``, ``events``, ``chain``).

    Examples
    --------
    >>> asked_events({"statement_id": "cc-1", "cause": "heat", "effect": "drought"})
    ['heat', 'drought']
    """
    out: list[str] = []
    for key in _ASKED_KEYS:
        v = (meta or {}).get(key)
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, str) and x and x not in out:
                out.append(x)
    return out


def display_value(value: Any, view: Any = None) -> str:
    """A short text for a gold label or a parsed answer in the item table.

    ``view`` is the run's :class:`~causalgraph.tasks.ItemView` (or ``None``),
    whose ``display`` gives the text where it has one.

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> view = get_task("pubmedcausal-extract").answers.item_view
    >>> display_value("yes"), display_value(None), display_value([{"cause": "a", "effect": "b"}], view)
    ('yes', '', '1 pair')
    """
    if value is None:
        return ""
    if view is not None and getattr(view, "display", None) is not None:
        shown = view.display(value)
        if shown is not None:
            return shown
    if isinstance(value, (dict, list)):
        import json

        s = json.dumps(value, ensure_ascii=False, sort_keys=True)
        return s if len(s) <= 60 else s[:57] + "…"
    return str(value)


@dataclass
class RunView:
    """One run as the page shows it.

    Attributes
    ----------
    name, path
        How the page names the run (its folder name, made unique) and its folder.
    task_name, model, task
        From the manifest; ``task`` is the registered
        :class:`~causalgraph.tasks.Task` or ``None``.
    kind, labels
        The task's kind (:data:`causalgraph.tasks.KINDS`) and the labels, from the task;
        for an unregistered task ``unknown`` and the labels seen in the records.
    pairs
        The name of the run's item view (``None``: labels); see :func:`causalgraph.viewer.pairs.pair_view_of`.
    item_view
        The :class:`~causalgraph.tasks.ItemView` itself (the task's, or read from an unregistered task's records).
    records
        ``Run.responses`` (one per item: in a run with epochs, the majority answer).
    states
        :func:`item_state` of each record (for pair runs: ``correct`` when the
        normalised predicted pairs equal the gold pairs one to one).
    matches
        For pair runs, :func:`causalgraph.viewer.pairs.match_pairs` of each record.
    prompts
        ``{"system", "user", "check"}`` per record, ``None`` when it could not be rebuilt.
    corpus, statements
        The corpus found (or ``None``) and statement id → statement.
    summary
        One dict per variant: counts, scores and intervals (from ``metrics.json``), tokens and cost.
    notes
        What the page should tell the reader (no corpus, unregistered task …).
    epochs
        In a run with several epochs, per record its samples ``[epoch, label,
        response, error]`` in epoch order; empty otherwise.
    prompt_catalog
        The prompt catalog the run's items were built from (``authors`` or
        ``tables``; a run whose manifest names none is a ``tables`` run), or
        ``None`` for a task without a choice; prompts are rebuilt from it.
    difficulty
        Per variant, :func:`run_difficulty`: the difficulty plot's numbers, or
        ``{"variant", "feature", "note"}`` saying why there is no plot.
    run
        The loaded :class:`~causalgraph.runlog.store.Run` itself (the page's sign chains are
        counted from it by :func:`causalgraph.stats.sign_consistency`).
    """

    name: str
    path: str
    task_name: str
    model: str
    task: Any
    kind: str
    labels: tuple
    pairs: Optional[str]
    records: list[RunRecord]
    states: list[str]
    matches: list[Optional[dict]]
    prompts: list[Optional[dict]]
    corpus: Any
    statements: dict
    summary: list[dict]
    totals: dict
    manifest: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    epochs: list = field(default_factory=list)
    prompt_catalog: Optional[str] = None
    item_view: Any = None
    difficulty: list = field(default_factory=list)
    run: Any = field(default=None, repr=False, compare=False)


def _load_candidate(key: Any, cache: dict):
    if isinstance(key, Corpus):
        return key
    ck = str(key)
    if ck not in cache:
        try:
            cache[ck] = load_corpus(ck)
        except (CausalGraphError, OSError, ValueError) as exc:
            cache[ck] = exc
    return cache[ck]


def find_corpus(run, data: Any = None, *, cache: Optional[dict] = None, task: Any = None) -> tuple[Any, list[str]]:
    """The corpus a run's items came from, and notes on what was tried.

    Parameters
    ----------
    run
        A loaded :class:`~causalgraph.runlog.store.Run`.
    data
        A :class:`~causalgraph.model.Corpus` or a ``--data`` value to use
        instead of what the manifest names (trusted without a sha256 check).
    cache
        Corpora already loaded, by key (shared between the runs of a page).
    task
        The run's :class:`~causalgraph.tasks.Task`, whose ``default_data`` is tried last.

    Returns
    -------
    (corpus or None, notes)
        A candidate whose sha256 differs from the manifest's is passed over.

    Examples
    --------
    >>> corpus, notes = find_corpus(load_run("runs/corri"))   # doctest: +SKIP
    """
    cache = {} if cache is None else cache
    notes: list[str] = []
    if data is not None:
        got = _load_candidate(data, cache)
        if isinstance(got, Exception):
            return None, [f"--data {data}: {got}"]
        return got, []
    ds = dataset_of(run.manifest)
    candidates: list[str] = []
    # The dataset's name first: a file read under another name gets other statement ids (the
    # packaged sample read as a plain CSV file is "climatecause", its ids cc-001 …).
    if ds.get("name"):
        candidates.append(str(ds["name"]))
    src = ds.get("source")
    if src and Path(str(src)).exists():
        candidates.append(str(src))
    if task is not None and task.default_data:
        candidates.append(str(task.default_data))
    want = ds.get("sha256")
    for key in dict.fromkeys(candidates):
        got = _load_candidate(key, cache)
        if isinstance(got, Exception):
            notes.append(f"corpus {key}: {got}")
            continue
        if want and got.sha256 and got.sha256 != want:
            notes.append(f"corpus {key}: sha256 {got.sha256[:12]}… differs from the run's {str(want)[:12]}…")
            continue
        return got, []
    if not candidates:
        notes.append("the run names no dataset and its task names no default one (or is not registered); "
                     "pass --data")
    return None, notes


def dataset_of(manifest: "Manifest | dict") -> dict:
    """The manifest's ``dataset`` as ``{"name", "source", "sha256"}`` (a bare name is accepted too).

    Examples
    --------
    >>> dataset_of({"dataset": "sample"}), dataset_of(Manifest())
    ({'name': 'sample'}, {})
    """
    ds = Manifest.of(manifest).dataset
    if isinstance(ds, dict):
        return ds
    return {"name": str(ds)} if ds else {}


def _prompt_sha(messages: list[dict]) -> str:
    return hashlib.sha256(canonical_json(messages).encode("utf-8")).hexdigest()


def _rebuild_prompts(task, corpus, run, records: Sequence[RunRecord], notes: list[str]) -> list[Optional[dict]]:
    """Each record's prompt, rebuilt from the task and corpus and checked against its sha256."""
    out: list[Optional[dict]] = [None] * len(records)
    if task is None or corpus is None:
        notes.append("prompts are not stored in a run (only their sha256) and could not be rebuilt: "
                     + ("the task is not registered" if task is None else "the corpus was not found"))
        return out
    items: dict[str, Any] = {}
    # The run's own catalog: prompts rebuilt from another would all read as "differs".
    catalog = task.manifest_prompts(run.manifest)
    for v in run.variants:
        try:
            for it in task.items(corpus, v, prompts=catalog):
                items[str(it.id)] = it
        except (CausalGraphError, ValueError, KeyError, TypeError) as exc:
            notes.append(f"variant {v}: its items could not be rebuilt to show the prompts ({exc})")
    differs = 0
    for n, rec in enumerate(records):
        it = items.get(str(rec.item_id))
        if it is None:
            continue
        msgs = it.messages()
        sha = rec.prompt_sha256
        check = "unverified" if not sha else ("verified" if _prompt_sha(msgs) == sha else "differs")
        differs += check == "differs"
        out[n] = {"system": it.system, "user": it.prompt, "check": check}
    missing = sum(1 for p in out if p is None)
    if missing:
        notes.append(f"{missing} item(s) are not among the items the task builds from the corpus: no prompt shown")
    if differs:
        notes.append(f"{differs} rebuilt prompt(s) differ from the prompt that was sent (sha256); they are "
                     "marked on the item")
    return out


def _summary(run, task, records: Sequence[RunRecord], notes: list[str], *,
             scoring_metrics: Optional[Sequence[str]] = None) -> tuple[list[dict], dict]:
    metrics = Metrics.of(run.metrics)
    if scoring_metrics:
        if task is None:
            raise ConfigError(f"--scoring-metric: {run.path} is a run of task {run.task!r}, which is not registered "
                              "here; its answers cannot be scored")
        # Asked for by name: the run scored with them (metrics.json may predate them), a bad ask one error line.
        metrics = compute_metrics(run, spec=task, scoring_metrics=scoring_metrics)
    elif not metrics.variants and task is not None:
        try:
            metrics = compute_metrics(run, spec=task)
        except (CausalGraphError, ValueError, KeyError, TypeError) as exc:
            notes.append(f"scores could not be computed ({exc}); counts only")
    rows = []
    epochs = run.epochs
    for v in run.variants:
        recs = run.records(v)
        m = metrics.variant(v)
        answered = [r for r in recs if not r.error]
        # Tokens and cost of every request: in a run with epochs, of every epoch's sample. Counted by scoring's
        # own sum, per variant (metrics.json holds the run's totals only, and may predate lines still coming).
        tokens_in, tokens_out, cost, recorded = usage_totals(run.sample_records(v) if epochs > 1 else answered)
        row = {
            "variant": v,
            "strategy": m.get("strategy", task.strategy_of(v) if task is not None else v),
            "items": len(recs),
            "answered": len(answered),
            "errors": sum(1 for r in recs if r.error),
            "parse_failures": sum(1 for r in answered if r.label is None),
            "tokens_in": tokens_in,
            "tokens_out": tokens_out,
            "cost_usd": cost if recorded else None,
        }
        if "macro_f1" in m:
            row.update(precision=m.get("macro_precision"), recall=m.get("macro_recall"), f1=m.get("macro_f1"),
                       f1_ci95=m.get("macro_f1_ci95"), accuracy=m.get("accuracy"), averaged="macro")
        elif "f1" in m:
            row.update(precision=m.get("precision"), recall=m.get("recall"), f1=m.get("f1"),
                       precision_ci95=m.get("precision_ci95"), recall_ci95=m.get("recall_ci95"),
                       f1_ci95=m.get("f1_ci95"), accuracy=m.get("accuracy"))
        if m.get("scoring_metrics"):  # asked for by name (--scoring-metric, or the run's metrics.json)
            cis = m.get("scoring_metrics_ci95") or {}
            row["scoring_metrics"] = [[name, value, cis.get(name)] for name, value in m["scoring_metrics"].items()]
            # their notes (undefined value, interval not estimable) start with the metric's name or its interval's
            own = tuple(f"{name}{x} " for name in m["scoring_metrics"] for x in ("", "_ci95"))
            notes.extend(f"variant {v}: {n}" for n in m.get("notes") or () if n.startswith(own))
        if m.get("n_scored") == 0:  # nothing answered: no score (shown "—"), and why
            row["n_scored"] = 0
            notes.append(f"variant {v}: {m.get('note') or 'no score: no item was answered'}")
        if "loglik" in m:  # scored by log-likelihood: the choice rules and calibration (generated runs: none)
            cal = m.get("calibration") or {}
            row.update(method="loglik", acc=m["loglik"].get("acc"), acc_norm=m["loglik"].get("acc_norm"),
                       ece=cal.get("ece"), ece_adaptive=cal.get("ece_adaptive"), brier=cal.get("brier"),
                       calibrated=cal.get("n"), reliability=cal.get("reliability"))
        elif "choice_logprobs" in m:  # read from generated-token log-probabilities (acc_norm undefined)
            cal = m.get("calibration") or {}
            row.update(method="choice-logprobs", acc=m["choice_logprobs"].get("acc"), acc_norm=None,
                       reached=m["choice_logprobs"].get("reached"), ece=cal.get("ece"),
                       ece_adaptive=cal.get("ece_adaptive"), brier=cal.get("brier"), calibrated=cal.get("n"),
                       reliability=cal.get("reliability"))
            if cal.get("n") == 0 and cal.get("note"):  # answered, none read: the figures are undefined, say why
                notes.append(f"variant {v}: ECE, adaptive ECE and Brier {cal['note']}")
        rows.append(row)
    totals = {k: sum(r[k] for r in rows) for k in ("items", "answered", "errors", "parse_failures", "tokens_in",
                                                   "tokens_out")}
    costs = [r["cost_usd"] for r in rows if r["cost_usd"] is not None]
    # The choice-logprobs probe: no variant's request, but the run's (as metrics.json counts it).
    p_in, p_out, p_cost = probe_usage_totals(run.manifest.invocations)
    totals["tokens_in"] += p_in
    totals["tokens_out"] += p_out
    totals["cost_usd"] = round(sum(costs) + p_cost, 6) if costs else None
    return rows, totals


def check_difficulty_feature(feature: str) -> str:
    """``feature`` when it is a numeric statement feature of :mod:`causalgraph.stats.difficulty`, else a one-line error.

    Examples
    --------
    >>> check_difficulty_feature("depth")
    'depth'
    """
    if feature not in STATEMENT_FEATURES:
        raise ConfigError(f"--difficulty-feature {feature!r}: expected a numeric statement feature, one of "
                          f"{', '.join(STATEMENT_FEATURES)}")
    return feature


def run_difficulty(run, task, corpus, *, feature: str = DIFFICULTY_FEATURE, cache: Optional[dict] = None,
                   alpha: float = 0.05) -> list[dict]:
    """Per variant of a run, the difficulty plot of ``stats difficulty --features F --plot``: observed
    accuracy by decile of ``feature`` and the fitted logistic curve with its band.

    Each variant is fitted alone with ``feature`` as the one term (logistic regression, standard
    errors clustered by statement: :func:`causalgraph.stats.difficulty.fit_difficulty`), so the
    curve is the accuracy the model is expected to have at each value of the feature.  A variant
    that cannot be fitted gets ``{"variant", "feature", "note"}`` with the reason, the one line
    ``stats difficulty`` would print (fewer than 30 answered items, every item right, separation …).

    Parameters
    ----------
    run
        A loaded run.
    task, corpus
        Its :class:`~causalgraph.tasks.Task` and corpus (``None``: one note for the whole run).
    feature
        A numeric statement feature (:data:`causalgraph.stats.difficulty.STATEMENT_FEATURES`).
    cache
        Shared between the runs of a page: the corpus's statement features are computed once.

    Returns
    -------
    list of dict
        :func:`causalgraph.stats.difficulty.difficulty_curve` of each variant's fit, with
        ``variant`` added.

    Examples
    --------
    >>> run_difficulty(load_run("runs/ccr-position"), get_task("ccr-position"), load_corpus("climatecause"))[0]["feature"]   # doctest: +SKIP
    'c_norm'
    """
    check_difficulty_feature(feature)
    if task is None or corpus is None:
        why = "the task is not registered" if task is None else "the corpus was not found"
        return [{"variant": v, "feature": feature, "note": f"no difficulty plot: {why}"} for v in run.variants]
    out: list[dict] = []
    values = None
    for v in run.variants:
        answered = sum(1 for r in run.records(v) if not r.error)
        if answered < MIN_ITEMS:
            # Said before the statement features are computed: most small runs stop here.
            out.append({"variant": v, "feature": feature,
                        "note": f"no difficulty plot: only {plural(answered, 'answered item')}; a difficulty "
                                f"model needs at "
                                f"least {MIN_ITEMS}"})
            continue
        try:
            if values is None:
                key = ("difficulty-features", id(corpus))
                if cache is not None and key in cache:
                    values = cache[key]
                else:
                    values = _statement_features(corpus)
                    if cache is not None:
                        cache[key] = values
            frame = difficulty_frame(run, values, [v])
            fit = fit_difficulty(frame, [feature], alpha=alpha, label={"variant": v})
            out.append({"variant": v, **difficulty_curve(fit, feature, alpha=alpha)})
        except (CausalGraphError, ValueError, KeyError, TypeError) as exc:
            out.append({"variant": v, "feature": feature, "note": f"no difficulty plot: {exc}"})
    return out


def build_run_view(run, name: Optional[str] = None, *, data: Any = None, cache: Optional[dict] = None,
                   difficulty_feature: str = DIFFICULTY_FEATURE, align: str = DEFAULT_RULE,
                   scoring_metrics: Optional[Sequence[str]] = None) -> RunView:
    """Everything the page shows about one loaded run.

    Parameters
    ----------
    run
        A :class:`~causalgraph.runlog.store.Run` (``load_run(path)``).
    name
        How the page names it (default: the folder name).
    data
        Corpus (or ``--data`` value) to use instead of the manifest's.
    cache
        Corpora already loaded (shared between the runs of one page).
    difficulty_feature
        The feature of the difficulty plot (:func:`run_difficulty`; default C(s)).
    align
        For pair runs: the event alignment rule of each item's overlay graph
        (:func:`causalgraph.viewer.overlay.aligned_overlay`; default the one ``compare-graphs`` uses).
    scoring_metrics
        Registered scoring metrics (:mod:`causalgraph.scoring.scoring_metrics`) to score the run
        with, shown beside each variant's scores; without them, those its ``metrics.json`` holds.

    Examples
    --------
    >>> view = build_run_view(load_run("runs/corri"))   # doctest: +SKIP
    >>> view.states[:3]                                 # doctest: +SKIP
    ['correct', 'correct', 'wrong']
    """
    notes: list[str] = []
    records = list(run.responses)
    task_name = str(run.task or (records[0].task if records else ""))
    try:
        task = get_task(task_name)
    except CausalGraphError:
        task = None
        notes.append(f"task {task_name!r} is not registered here: labels are read from the records")
    if task is not None:
        kind, labels = task.kind, tuple(task.labels)
    else:
        kind = "unknown"
        seen: list = []
        for r in records:
            for v in (r.gold, r.label):
                if isinstance(v, (str, int, float, bool)) and v not in seen:
                    seen.append(v)
        labels = tuple(seen)
    item_view = pair_view_of(records, task)
    pairs = item_view.name if item_view is not None else None
    corpus, cnotes = find_corpus(run, data, cache=cache, task=task)
    notes += [f"no graphs, C(s) or prompts: {n}" for n in cnotes] if corpus is None else []
    statements = {s.id: s for s in corpus.statements} if corpus is not None else {}
    matches: list[Optional[dict]] = [None] * len(records)
    if align not in ALIGN_RULES:
        raise ConfigError(f"--align {align!r}: expected one of {', '.join(ALIGN_RULES)}")
    embedder = None
    if pairs is not None and align == "embedding":
        # loaded once per page: every item of every pair run aligns with the same encoder
        cache = {} if cache is None else cache
        if ("embedder",) not in cache:
            cache[("embedder",)] = load_embedder()
        embedder = cache[("embedder",)]
    if pairs is not None:
        states = []
        for n, rec in enumerate(records):
            item = record_pairs(rec, item_view)
            m = match_pairs(item, str(rec.item_id))
            m["pairs"] = {"gold": [list(p) for p in item.gold], "predicted": [list(p) for p in item.predicted]}
            m["overlay"] = aligned_overlay(item.gold, item.predicted, rule=align, embedder=embedder)
            matches[n] = m
            if rec.error:
                states.append("error")
            elif item.unread:
                states.append("unparsed")
            else:
                ex = m["scores"]["hungarian"]["exact"]["hits"]
                states.append("correct" if ex == len(item.predicted) == len(item.gold) else "wrong")
    else:
        # Label tasks (and unregistered ones) are graded; others where their records hold a gold value.
        graded = kind in ("binary", "multiclass", "unknown") or any(r.gold is not None for r in records)
        states = [item_state(r, graded) for r in records]
    prompts = _rebuild_prompts(task, corpus, run, records, notes)
    per_epoch: list = []
    n_epochs = run.epochs
    if n_epochs > 1:
        by_item = {(g[0].variant, g[0].item_id): g for g in group_samples(run.samples)}
        per_epoch = [[[int(x.epoch or 1), x.label, x.response, x.error]
                      for x in by_item.get((r.variant, r.item_id), [])] for r in records]
        notes.append(f"every item was asked {n_epochs} times (--epochs); the table shows each item's majority answer "
                     "(ties: the earliest epoch's), and the item lists the answer of every epoch")
    summary, totals = _summary(run, task, records, notes, scoring_metrics=scoring_metrics)
    # Pair runs (extraction, annotation) have no right-or-wrong label per item to model.
    difficulty = run_difficulty(run, task, corpus, feature=difficulty_feature, cache=cache) if pairs is None else []
    return RunView(name=name or Path(str(run.path)).name, path=str(run.path), task_name=task_name, model=run.model,
                   task=task, kind=kind, labels=labels, pairs=pairs, records=records, states=states,
                   matches=matches, prompts=prompts, corpus=corpus, statements=statements, summary=summary,
                   totals=totals, manifest=run.manifest.to_dict(), notes=notes, epochs=per_epoch,
                   prompt_catalog=task.manifest_prompts(run.manifest) if task is not None
                   else run.manifest.prompts, item_view=item_view, difficulty=difficulty, run=run)


def unique_names(paths: Sequence[Any]) -> list[str]:
    """Short, distinct names for runs: folder names, with the parent added where two collide.

    Examples
    --------
    >>> unique_names(["a/run", "b/run", "c/other"])
    ['a/run', 'b/run', 'other']
    """
    parts = [Path(os.fspath(p)).resolve().parts if p else ("run",) for p in paths]
    names = [p[-1] for p in parts]
    for depth in range(2, 6):
        dup = {n for n in names if names.count(n) > 1}
        if not dup:
            break
        names = ["/".join(p[-depth:]) if n in dup else n for p, n in zip(parts, names)]
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return out
