"""``causalgraph bench``: run benchmarks against LLMs, parse and score the answers.

Subcommands: ``run``, ``parse``, ``report``, ``batch submit|collect|status``, ``plan``, ``tasks``.
"""

from __future__ import annotations

import argparse
import sys

from ..bench.runner import arun_benchmark
from ..bench.config import DEFAULT_MAX_CONNECTION_FAILURES, DEFAULT_MAX_FAILED_ITEMS, RunConfig
from ..errors import ConfigError
from ..llm.registry import model_forms
from .._core.wording import plural
from ._common import (add_data_option, add_format_option, add_graph_edit_option, add_list_option, add_model_args,
                      add_power_design_options, add_prompts_option, emit_json, emit_table, model_options,
                      add_scoring_metric_option, nonnegative_int, path_arg)
from ..llm.pricing import load_prices
from ..bench.scoring import (
    ANSWER_GRAPH_COLUMNS, report_rows, accuracy_column, agreement_columns, answer_graph_columns, loglik_columns,
    pending_column, compute_metrics, task_columns, score_notes, format_mean_std as _pm, REPORTED_NONE
)
from ..bench.reparse import reparse_run
from ..runlog.files import Metrics
from ..runlog.store import load_run
from ..bench.epochs import REDUCERS, parse_reducer, reducer_kind
from ..tasks import TASKS, find_task, get_task, list_tasks, usable_tasks
from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from ..stats.answer_graph import answer_graph_scores
from ..bench.calibration import plot_reliability
from .._core.outputs import safe_name, output_dir
from ..bench.batch import submit_batch, collect_batch, batch_status
from ..bench.plan import PAPER_OUTPUT_TOKENS_PER_REQUEST, plan_run
from ..stats.power import PLAN_POWER_COLUMNS, Design, pilot_pair, pilot_run, plan_power
from ..bench.prepare import loglik_variants
from ..bench.variant_options import with_item_options
from ..graph.naming import NAME_SCHEMES
from ..tasks.climatecause import PAPER_TASKS
from . import bench_view
from ._rank import emit_ranking
from ..stats.compare import AXES as RANK_AXES
from ..stats.ranking import rank_runs

#: Family-wise level of ``bench report --rank`` (that of ``stats compare --rank`` by default).
RANK_ALPHA = 0.05
from .bench_import import register as register_import

__all__ = ["register"]


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--task", required=True, help="task name (see `causalgraph bench tasks`)")
    add_list_option(p, "--variant", required=True, metavar="V[,V…]|all", help="prompt variant ids, or all")
    add_model_args(p, model_help=", ".join(model_forms()) + " (hf/smollm2 and llamacpp/smollm2 name the bundled "
                                 "SmolLM2-135M)",
                   option_help="backend option (e.g. latency=0.05, n_ctx=2048, reasoning_effort=none)",
                   max_tokens_help="limit on generated tokens (default: the provider's)")
    add_data_option(p, by_task=True)
    add_prompts_option(p, help_extra="; a run directory resumes with the catalog it started with")
    p.add_argument("--out", metavar="DIR", type=path_arg, help="run directory (default runs/<task>__<model>__<variants>); "
                                                "the same directory resumes the run")
    p.add_argument("--concurrency", type=int, metavar="N", help="requests in flight at most (default: the backend's)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N items of each variant")
    p.add_argument("--seed", type=int, metavar="N", help="sampling seed, where the provider supports one")
    p.add_argument("--base-url", metavar="URL", help="OpenAI-compatible server URL for openai/ models (default $OPENAI_BASE_URL)")
    p.add_argument("--max-attempts", type=int, default=6, metavar="N", help="attempts per item, retries included (default 6)")
    p.add_argument("--retry-base", type=float, default=1.0, metavar="S", help="first backoff in seconds (default 1)")
    p.add_argument("--retry-cap", type=float, default=60.0, metavar="S", help="longest backoff in seconds (default 60)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="S", help="seconds per attempt (default 600)")
    p.add_argument("--max-connection-failures", type=int, default=DEFAULT_MAX_CONNECTION_FAILURES, metavar="N",
                   help="stop the run after N attempts in a row could not reach the server (it is gone); the "
                        f"items left stay pending and the same command resumes them (default "
                        f"{DEFAULT_MAX_CONNECTION_FAILURES}; 0: never stop)")
    p.add_argument("--max-failed-items", type=int, default=DEFAULT_MAX_FAILED_ITEMS, metavar="N",
                   help="stop the run after N items in a row failed alike after all their attempts (a server "
                        "answering HTTP 500, a backend that always raises); those items stay pending and the same "
                        f"command resumes them (default {DEFAULT_MAX_FAILED_ITEMS}; 0: never stop)")
    p.add_argument("--prices", metavar="FILE", help="JSON price table overriding the built-in one")
    add_graph_edit_option(p)
    # As `items` takes them: the variant ids become those of the items built with them (A_5 → MX_5.letters).
    p.add_argument("--encoding", metavar="NAME", default=None,
                   help="write the graph of each graph variant in this encoding (A_5 with matrix is MX_5; see "
                        "`causalgraph encode --help` and docs/prompts.md)")
    p.add_argument("--event-names", choices=list(NAME_SCHEMES), default=None,
                   help="show events under their real names (default) or as integers, letters or nonsense words "
                        "(prompts that hold the graph only; the variant id gets .<scheme>)")


def _add_method_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", choices=("generate", "loglik", "choice-logprobs"), default="generate",
                   help="generate (default): the model writes an answer, which is parsed; loglik: each label's "
                        "answer is scored by its log-probability and the likeliest wins, nothing generated "
                        "(closed-label tasks, local models and servers with prompt log-probabilities); "
                        "choice-logprobs: a chat model answers with top_logprobs and the choices' probabilities "
                        "are read where they diverge (openai/ and OpenAI-compatible chat servers)")


def _config(args):
    options = model_options(args)
    variants = list(args.variant)
    if args.encoding is not None or args.event_names is not None:
        spec = get_task(args.task)
        # As prepare.resolve_variants reads `all`: a method that reads the choices' log-probabilities
        # (loglik, choice-logprobs) takes the variants with continuations.
        every = list(loglik_variants(spec)) if getattr(args, "method", "generate") != "generate" else None
        variants = with_item_options(spec, variants, encoding=args.encoding, event_names=args.event_names,
                                     every=every)
    return RunConfig(task=args.task, variants=variants, model=args.model, data=args.data, out=args.out,
                     concurrency=args.concurrency, limit=args.limit, temperature=args.temperature,
                     max_tokens=args.max_tokens, seed=args.seed, model_options=options,
                     max_attempts=args.max_attempts, retry_base=args.retry_base, retry_cap=args.retry_cap,
                     request_timeout=args.timeout, max_connection_failures=args.max_connection_failures,
                     max_failed_items=args.max_failed_items,
                     cache=not args.no_cache, epochs=getattr(args, "epochs", 1), prompts=args.prompts,
                     graph_edit=args.graph_edit,
                     method=getattr(args, "method", "generate"),
                     scoring_metrics=getattr(args, "scoring_metric", None) or (),
                     prices=load_prices(args.prices) if args.prices else None)


def _summary_rows(metrics, path):
    return [r for r in report_rows(metrics, run_name=str(path)) if not str(r["variant"]).startswith("[")]


def _dash_unscored(rows, fmt: str):
    """Rows for a table with the empty scores of a variant nothing was answered for shown as "—"
    (JSON keeps ``null`` and ``n_scored`` 0; CSV an empty cell); likewise a graph-first variant's
    answer-graph figures that are undefined (no graph read, one statement: noted on stderr)."""
    if fmt != "table":
        return rows
    keep = {"run", "task", "model", "variant", "strategy", "items", "errors", "pending", "samples_pending", "method",
            "n_scored"}
    out = []
    for r in rows:
        if r.get("n_scored") == 0:
            r = {**r, **{k: "—" for k, v in r.items() if v is None and k not in keep}}
        elif "graph_items" in r and r.get("gap") is None:
            # a graph-first row with no item scored: its figures are undefined, not blank; an interval alone
            # left out (one statement: noted; --bootstrap 0: not asked) stays blank as f1_ci95 does
            r = {**r, **{k: "—" for k in ANSWER_GRAPH_COLUMNS if r.get(k) is None}}
        out.append(r)
    return out


_RUN_COLUMNS = ["variant", "items", "errors", "parse_fail_rate", "precision", "recall", "f1", "f1_ci95"]


def _cmd_run(args) -> int:
    import asyncio

    config = _config(args)
    result = asyncio.run(arun_benchmark(config, progress="auto" if not args.no_progress else False))
    m = result.metrics
    if result.epochs > config.epochs:
        print(f"causalgraph bench: note: {result.path} asks every item {result.epochs} times (the most it was ever "
              f"asked for), not {config.epochs}; counts below are of samples", file=sys.stderr)
    # written = asked + cache hits + shared failures; requests sent counts every attempt of the asked ones, so
    # the items asked are named apart when some were retried.
    shared = f", {result.shared_failures} sharing a failed request" if result.shared_failures else ""
    asked = (f"; {plural(result.asked, 'item')} asked, retries included"
             if result.requests_sent != result.asked + result.probes else "")
    probes = f" ({plural(result.probes, 'probe')})" if result.probes else ""
    print(f"run {result.path}: {result.written} written, {result.skipped} already answered; "
          f"{plural(result.requests_sent, 'request')} sent{probes}, {plural(result.cache_hits, 'cache hit')}{shared}"
          f"{asked}; {plural(result.errors, 'error')}; "
          f"tokens in {m.tokens_in:,} out {m.tokens_out:,}, cost ${m.cost_usd:.4f}", file=sys.stderr)
    if result.waiting_in_batch:
        print(f"causalgraph bench: {plural(result.waiting_in_batch, 'item waits', 'items wait')} in an open Batch job; "
              f"run `causalgraph bench "
              f"batch collect {result.path}` for them", file=sys.stderr)
    for v, s in (m.variants or {}).items():
        # A high share of unreadable answers usually means a prompt/parser mismatch, not a bad model.
        if s.get("answered") and s.get("parse_failure_rate", 0) >= 0.2:
            print(f"causalgraph bench: warning: variant {v}: {s['parse_failures']} of {s['answered']} answers name no "
                  f"label (rules {s.get('rules')}); they count as wrong — inspect {result.path}/responses.jsonl",
                  file=sys.stderr)
    rows = _summary_rows(m, result.path)
    for v, s in (m.variants or {}).items():
        if s.get("n_scored") == 0:
            print(f"causalgraph bench: note: variant {v}: {s.get('note')}", file=sys.stderr)
    emit_table(_dash_unscored(rows, args.format), args.format,
               columns=_RUN_COLUMNS[:2] + pending_column(rows) + _RUN_COLUMNS[2:]
               + accuracy_column(rows) + agreement_columns(rows) + loglik_columns(rows) + _scored_column(rows, args)
               + [c for name in (m.scoring_metrics or {}) for c in (name, f"{name}_ci95")])
    for line in score_notes(m):  # undefined scores are blank in the table; say why
        print(f"causalgraph bench: note: {line}", file=sys.stderr)
    return 1 if result.errors else 0


def _scored_column(rows, args) -> list[str]:
    """``["n_scored"]`` in JSON and CSV when a variant had nothing answered (its ``null`` scores say why there)."""
    return ["n_scored"] if args.format != "table" and any(r.get("n_scored") == 0 for r in rows) else []


def _cmd_parse(args) -> int:
    rows = reparse_run(args.run, dry_run=args.dry_run)
    emit_table(rows, args.format, columns=["variant", "lines", "changed", "parse_failures_before",
                                           "parse_failures_after"])
    return 0


def _cmd_report(args) -> int:
    reducer = parse_reducer(args.reducer) if args.reducer else None
    if args.rank and args.reducer:
        raise ConfigError("--rank pairs each item's one answer, as stats compare --rank does; runs with epochs are "
                          "reduced by Run.responses (the majority answer): drop --reducer")
    plot_dir = None
    if args.plot:
        plot_dir = output_dir(args.plot, "plot folder")  # checked before any run is scored
    ranking = None
    if args.rank:
        # before anything is printed (the runs' score notes included): a ranking the runs cannot support is one
        # error line, not half a report
        ranking = rank_runs(args.runs, by=args.rank, n_boot=args.bootstrap, seed=args.seed)
    allm = []
    rows = []
    for path in args.runs:
        run = load_run(path)
        if reducer is not None and reducer.name == "mean" and run.epochs == 1:
            print(f"causalgraph bench: note: --reducer mean: {path} has one answer per item (no --epochs); "
                  f"its plain scores are shown", file=sys.stderr)
        m = compute_metrics(run, n_boot=args.bootstrap, seed=args.seed, reducer=reducer,
                            scoring_metrics=args.scoring_metric)
        _add_answer_graph(m, run, args)
        if (args.per_class or args.confusion) and m.variants and not any(
                "per_class" in s or "confusion" in s for s in m.variants.values()):
            spec = get_task(m.task) if m.task in list_tasks() else None
            what = (f"a binary task: its precision, recall and F1 are those of the positive class {spec.positive!r}"
                    if spec is not None and spec.kind == "binary" else "a task scored without classes")
            opts = " and ".join(o for o, on in (("--per-class", args.per_class), ("--confusion", args.confusion)) if on)
            print(f"causalgraph bench: note: {opts}: {path} ({m.task}) is {what}; per-class scores and "
                  f"confusion matrices are for multiclass tasks", file=sys.stderr)
        # the JSON output: the written form, with the parse-failure rate of a run with no answer as null
        allm.append({"run": str(path), "metrics": m.to_dict(keep=REPORTED_NONE)})
        for line in score_notes(m):
            print(f"causalgraph bench: note: {path}: {line}", file=sys.stderr)
        if plot_dir is not None:
            _plot_run(plot_dir, path, m)
        rows += report_rows(m, run_name=str(path))
        if args.per_class:
            for v, s in m.variants.items():
                for lab, pc in (s.get("per_class") or {}).items():
                    rows.append({"run": str(path), "task": m.task, "model": m.model, "variant": f"{v}:{lab}",
                                 "strategy": s.get("strategy"), "items": pc["support"],
                                 "precision": pc["precision"], "recall": pc["recall"], "f1": pc["f1"]})
            # Per class, mean ± std over the variants of each strategy (the layout of Table 18).
            for strat, agg in (m.strategies or {}).items():
                labels = [k.split(".")[1] for k in agg if k.startswith("per_class.") and k.endswith(".f1")]
                for lab in labels:
                    rows.append({"run": str(path), "task": m.task, "model": m.model,
                                 "variant": f"[{strat}]:{lab}",
                                 "strategy": strat, **{met: _pm(agg[f"per_class.{lab}.{met}"])
                                                       for met in ("precision", "recall", "f1")}})
    if args.format == "json":
        if ranking is None:
            emit_json(allm)
        else:
            rows_r = emit_ranking("bench", ranking, "json", alpha=RANK_ALPHA, n_boot=args.bootstrap, test="mcnemar",
                                  json_out=False)
            emit_json({"runs": allm, "ranking": {"by": args.rank, "alpha": RANK_ALPHA, "n_boot": args.bootstrap,
                                                 "seed": args.seed, "test": "mcnemar", "rows": rows_r}})
        return 0
    # The column of any per-item reducer (pass@3, pass^2, a plugin's half~3), not only the built-in names.
    pass_cols = sorted({k for r in rows for k in r if _is_pass_column(k)})
    # A stopped run's table says how much is left to ask; a complete run's keeps its columns.
    counts = ["run", "task", "model", "variant", "items", *pending_column(rows), "errors", "parse_fail_rate"]
    if pass_cols:
        cols = [*counts, *pass_cols, "pass_ci95"]
    else:
        cols = [*counts, "precision", "recall", "f1",
                "f1_ci95"] + (["f1_sd"] if any("f1_sd" in r for r in rows) else []) + accuracy_column(rows)
    cols += task_columns(rows) + answer_graph_columns(rows)
    cols += [c for name in args.scoring_metric or () for c in (name, f"{name}_ci95")]
    cols += agreement_columns(rows) + loglik_columns(rows)
    if len(args.runs) == 1:
        cols = cols[1:]
    for entry in allm:
        for v, s in entry["metrics"]["variants"].items():
            if s.get("n_scored") == 0:
                print(f"causalgraph bench: note: {entry['run']} variant {v}: {s.get('note')}", file=sys.stderr)
    emit_table(_dash_unscored(rows, args.format), args.format, columns=cols)
    if args.confusion and args.format == "table":
        for entry in allm:
            for v, s in entry["metrics"]["variants"].items():
                conf = s.get("confusion")
                if not conf:
                    continue
                print(f"\n{entry['run']} {v}: confusion (rows gold, columns predicted)")
                emit_table([{"gold": lab, **dict(zip(conf["columns"], row))}
                            for lab, row in zip(conf["labels"], conf["matrix"])],
                           "table", columns=["gold"] + conf["columns"])
    if ranking is not None:
        # a second table: after a blank line (and, as a table, a heading), as stats compare --rank prints it
        print()
        if args.format == "table":
            print(f"ranking by {args.rank} (stats compare --by {args.rank} --rank)")
        emit_ranking("bench", ranking, args.format, alpha=RANK_ALPHA, n_boot=args.bootstrap, test="mcnemar")
    return 0


def _add_answer_graph(metrics, run, args) -> None:
    """A graph-first variant's accuracy beside the edge F1 of its graphs (``answer_graph``; stats.answer_graph)."""
    spec = find_task(run.task)
    if spec is None or spec.graph_first is None:
        return
    for v, s in (metrics.variants or {}).items():
        ag = answer_graph_scores(run.records(v), spec, rule=args.align, n_boot=args.bootstrap, seed=args.seed)
        if ag is not None:
            s["answer_graph"] = ag
            s.setdefault("notes", []).extend(ag.get("notes", ()))
            if ag["scored"] and ag["statements"] < 2 and args.bootstrap:
                s["notes"].append("answer-graph intervals not estimable: the graphs come from one statement")


def _plot_run(folder, path, metrics) -> None:
    """Reliability diagrams of a run's log-likelihood variants: ``<folder>/<run>__<variant>.png``."""
    from pathlib import Path

    name = safe_name(Path(str(path)).resolve().name, replace="-", collapse=True, default="run")
    done = 0
    metrics = Metrics.of(metrics)
    for v, s in (metrics.variants or {}).items():
        cal = s.get("calibration")
        if cal and cal.get("n"):
            out = Path(folder) / f"{name}__{safe_name(v, replace='-', collapse=True, default='variant')}.png"
            plot_reliability(cal, out, title=f"{metrics.model} · {metrics.task} {v}")
            print(f"causalgraph bench: reliability diagram {out}", file=sys.stderr)
            done += 1
    if not done:
        print(f"causalgraph bench: note: {path} holds no run scored by log-likelihood (--method loglik); "
              "no reliability diagram for it", file=sys.stderr)


def _cmd_batch_submit(args) -> int:
    res = submit_batch(_config(args))
    print(f"run {res.path}: {plural(res.requests, 'request')} in {plural(len(res.batch_ids), 'batch', 'batches')} "
          f"({res.cache_hits} answered from the cache, {res.skipped} already answered or waiting); "
          f"collect with: causalgraph bench batch collect {res.path}", file=sys.stderr)
    emit_table([{"batch_id": b} for b in res.batch_ids], args.format, columns=["batch_id"])
    return 0


def _cmd_batch_collect(args) -> int:
    res = collect_batch(args.run, wait=args.wait, poll_interval=args.poll, timeout=args.wait_timeout,
                        cache=not args.no_cache)
    print(f"run {res.path}: {plural(res.ingested, 'line')} ingested ({plural(res.errors, 'error')}), "
          f"{plural(res.pending, 'batch', 'batches')} pending",
          file=sys.stderr)
    emit_table([{"batch": k, "status": v} for k, v in res.statuses.items()], args.format, columns=["batch", "status"])
    return 0


def _cmd_batch_status(args) -> int:
    emit_table(batch_status(args.run), args.format,
               columns=["local_id", "batch_id", "state", "status", "requests", "created", "collected"])
    return 0


def _plan_design(args) -> "Design | None":
    """The discordance, Δ and ρ ``bench plan --power`` sizes the planned items for, by ``stats power``'s rules:
    a pilot pair measures p_b, p_c and ρ (``--delta`` replaces its Δ); one pilot run and ``--delta`` (its ρ,
    ``--discordance`` or the independent-arms bound); no pilot: ``--discordance`` and ``--delta``, ``--icc``
    (default 0). The planned variant's statement sizes then replace the pilot's."""
    given = [f for f, v in (("--delta", args.delta), ("--discordance", args.discordance), ("--icc", args.icc),
                            ("--pilot", args.pilot), ("--alpha", args.alpha)) if v is not None]
    if args.power is None:
        if given:
            raise ConfigError(f"{', '.join(given)}: only with --power (the power of a paired comparison of the "
                              f"planned items)")
        return None
    if not 0 < args.power < 1:
        raise ConfigError(f"--power {args.power:g}: expected a number between 0 and 1")
    pilots = list(args.pilot or [])
    if len(pilots) > 2:
        raise ConfigError(f"--pilot: got {len(pilots)} runs; give a pilot pair (two runs) or one run with --delta")
    if len(pilots) == 2:
        if args.discordance is not None:
            raise ConfigError("--discordance: a pilot pair measures it; leave it out")
        design = pilot_pair(pilots[0], pilots[1])
        if args.delta is not None:
            design = design.with_delta(args.delta)
    elif len(pilots) == 1:
        if args.delta is None:
            raise ConfigError("--pilot RUN: give the difference to detect with --delta (or a second pilot run)")
        design = pilot_run(pilots[0], delta=args.delta, discordance=args.discordance)
    else:
        missing = [f for f, v in (("--discordance", args.discordance), ("--delta", args.delta)) if v is None]
        if missing:
            raise ConfigError(f"--power without --pilot needs {' and '.join(missing)} (and optionally --icc)")
        if not 0 <= args.discordance <= 1:
            raise ConfigError(f"--discordance {args.discordance:g}: expected a share in [0, 1]")
        design = Design([1], 0.0, args.discordance, 0.0).with_delta(args.delta)
    if args.icc is not None:
        if not 0 <= args.icc < 1:
            raise ConfigError(f"--icc {args.icc:g}: expected a correlation in [0, 1)")
        design.icc = args.icc
    return design


def _emit_plan_power(rows: list, design: "Design", args) -> int:
    alpha = 0.05 if args.alpha is None else args.alpha
    if not 0 < alpha < 1:
        raise ConfigError(f"--alpha {alpha:g}: expected a number between 0 and 1")
    out = plan_power(rows, design, alpha=alpha, target=args.power)
    for note in design.notes:
        print(f"causalgraph bench: note: {note}", file=sys.stderr)
    for row in out:
        if row["note"]:
            print(f"causalgraph bench: note: {row['task']} {row['variant']} {row['test']}: {row['note']}",
                  file=sys.stderr)
    columns = ["task", "variant", "requests", "cost_usd_est", *PLAN_POWER_COLUMNS]
    if args.format == "table":  # an undefined value shows as such, never as an empty cell or 0
        out = [{**r, **{k: "—" for k in ("power", "mde", "statements_needed", "items_needed")
                        if r[k] is None or r[k] != r[k]}} for r in out]
    emit_table(out, args.format, columns=columns if args.format != "json" else columns + ["alpha", "target_power",
                                                                                         "note"], floatfmt=".4g")
    if args.format == "table":
        print(f"\n{design.source}; as stats power (analytic) on each planned variant's items and statements: power "
              f"at alpha {alpha:g} (two-sided) to detect delta = accuracy B - A; mde: smallest |delta| detected with "
              f"power {args.power:g} at this discordance; statements_needed (items): for power {args.power:g} at "
              f"this delta, statement sizes as planned; deff = 1 + (sum n_s^2/n - 1) icc. mcnemar: exact test, items "
              f"as independent; clustered: accuracy difference with a CR2 SE over statements")
    return 0


def _cmd_plan(args) -> int:
    design = _plan_design(args)  # its options checked before the corpus is read
    every_task = args.task in (None, ["all"])
    tasks = list(PAPER_TASKS) if every_task else list(args.task)
    variants = None if args.variant in (None, ["all"]) else list(args.variant)
    rows = plan_run(tasks, args.model, variants=variants, data=args.data, batch=args.batch,
                    output_tokens=args.output_tokens if args.output_tokens is not None
                    else PAPER_OUTPUT_TOKENS_PER_REQUEST,
                    prices=load_prices(args.prices) if args.prices else None, epochs=args.epochs,
                    prompts=args.prompts, method=args.method, graph_edit=args.graph_edit,
                    named=not every_task, statement_sizes=design is not None, max_tokens=args.max_tokens)
    left = [t for t in tasks if t not in {r["task"] for r in rows}]
    if left:
        print(f"causalgraph bench: note: --graph-edit {args.graph_edit}: {', '.join(left)} left out (their prompts "
              "hold no graph)", file=sys.stderr)
    if args.power is not None:
        return _emit_plan_power(rows, design, args)
    if len(rows) > 1:
        rows.append({"task": "total", "variant": "", **{k: sum(r[k] for r in rows) for k in
                     ("requests", "prompt_chars", "input_tokens_est", "output_tokens_est", "cost_usd_est")}})
    emit_table(rows, args.format, columns=["task", "variant", "requests", "prompt_chars", "input_tokens_est",
                                           "output_tokens_est", "cost_usd_est"])
    return 0


def _is_pass_column(name: str) -> bool:
    kind = reducer_kind(name) if isinstance(name, str) else None
    return kind is not None and kind.estimator is not None and name != kind.name


def _cmd_tasks(args) -> int:
    rows = []
    for name, spec in usable_tasks().items():
        try:
            variants = ",".join(spec.list_variants())
        except ConfigError as exc:
            if TASKS.origin(name) is not None:
                # A plugin that cannot list its variants breaks only its own row.
                print(f"causalgraph bench: note: {' '.join(str(exc).split())}; left out (see `causalgraph "
                      "plugins`)", file=sys.stderr)
                continue
            variants = f"({exc})"
        rows.append({"task": name, "kind": spec.kind, "labels": ",".join(spec.labels), "positive": spec.positive,
                     "variants": variants})
    emit_table(rows, args.format, columns=["task", "kind", "labels", "positive", "variants"], max_width=120)
    return 0


def register(subparsers) -> None:
    bench = subparsers.add_parser("bench", help="run LLM benchmarks; parse and score the answers",
                                  description="Run the ClimateCause benchmarks (and any registered task) against "
                                              "OpenAI, OpenAI-compatible servers, transformers, llama.cpp or mocks.")
    sub = bench.add_subparsers(dest="bench_command", metavar="SUBCOMMAND")
    sub.required = True

    p = sub.add_parser("run", help="ask a model every item of a task's variants (cached, resumable)",
                       description="Build the items of a task's prompt variants, ask a model each of them (response "
                                   "cache, retries, concurrency, progress on stderr), parse and score the answers and "
                                   "print one row per variant. The run directory keeps every answer: the same command "
                                   "resumes a stopped run and asks only what is left. See docs/benchmarks.md.")
    _add_run_options(p)
    p.add_argument("--epochs", type=int, default=1, metavar="N",
                   help="ask every item N times (repeated sampling; needs --temperature above 0 or 'default'); "
                        "each epoch is its own cache entry, and `bench report --reducer` reduces them (default 1)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_method_option(p)
    add_scoring_metric_option(p)
    add_format_option(p)
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("parse", help="parse a run's stored answers again and rescore it (offline)",
                       description="Parse every stored answer of a run again with the task's current parser and "
                                   "rescore the run, without asking the model anything; prints per variant how many "
                                   "answers changed and the parse failures before and after.")
    p.add_argument("run", metavar="RUN", help="run directory")
    p.add_argument("--dry-run", action="store_true", help="report what would change, write nothing")
    add_format_option(p)
    p.set_defaults(func=_cmd_parse)

    p = sub.add_parser("report", help="scores of runs: per variant, per strategy (mean ± std), bootstrap CIs",
                       description="Score runs from their stored answers: per variant precision, recall, F1 with a "
                                   "bootstrap interval over statements, and per prompting strategy the mean ± std "
                                   "over its variants; runs with epochs are reduced by --reducer. Nothing is asked.")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run directories")
    p.add_argument("--bootstrap", type=nonnegative_int, default=1000,
                   help="bootstrap resamples of statements (default 1000)")
    p.add_argument("--seed", type=nonnegative_int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--per-class", action="store_true", help="add per-class rows (position tasks)")
    p.add_argument("--confusion", action="store_true", help="print confusion matrices (position tasks)")
    # The reducers of causalgraph (and code): the parser reads no plugin; a plugin's reducer is taken too.
    own = REDUCERS.names(plugins=False)
    stems = "/".join(f"{n[:-1]}K" for n in own if n.endswith("k") and not n[-2].isalnum())
    p.add_argument("--reducer", metavar="NAME", help=f"for runs with epochs: {', '.join(own)} (default: majority)"
                                                     f", or {stems} with a number K (k: every epoch), or a "
                                                     "plugin's (`causalgraph plugins`)")
    p.add_argument("--plot", metavar="DIR", help="write a reliability diagram (PNG) of every variant scored by "
                                                 "log-likelihood into DIR")
    p.add_argument("--rank", metavar="AXIS", choices=list(RANK_AXES),
                   help="runs sharing items: also rank their arms along AXIS (" + ", ".join(RANK_AXES) + "), as "
                        "`stats compare --by AXIS --rank` does: each arm's score with its interval, tie groups after "
                        "Holm (compact letter display) and a bootstrap interval of its rank (--bootstrap resamples "
                        "of statements, --seed); docs/statistics.md#tie-groups-and-rank-intervals")
    p.add_argument("--align", choices=list(ALIGN_RULES), default=DEFAULT_RULE,
                   help="graph-first variants (GF_…): how the events of the graph an answer wrote are matched to the "
                        f"gold events before its edge F1 is computed (default: {DEFAULT_RULE}; "
                        "docs/graphs.md#event-alignment)")
    add_scoring_metric_option(p)
    add_format_option(p)
    p.set_defaults(func=_cmd_report)

    b = sub.add_parser("batch", help="the OpenAI Batch API: submit, collect, status",
                       description="Run a benchmark through the OpenAI Batch API (half price, answers within 24 "
                                   "hours): submit a run's unanswered items, collect finished batches into the run "
                                   "directory, and list the run's batches.")
    bsub = b.add_subparsers(dest="batch_command", metavar="SUBCOMMAND")
    bsub.required = True
    p = bsub.add_parser("submit", help="write, upload and create Batch jobs for a run's unanswered items",
                        description="Write the run's unanswered items (answers in the response cache are taken "
                                    "from it) as Batch API input files, upload them and create the jobs; prints the "
                                    "batch ids. `bench batch collect RUN` fetches the answers.")
    _add_run_options(p)
    add_format_option(p)
    p.set_defaults(func=_cmd_batch_submit)
    p = bsub.add_parser("collect", help="poll a run's batches and ingest finished ones (safe to re-run)",
                        description="Ask the API about each open batch of a run and write the answers of finished "
                                    "ones into the run directory (and the response cache); with --wait, poll until "
                                    "every batch has finished. Running it twice ingests nothing twice.")
    p.add_argument("run", metavar="RUN", help="run directory")
    p.add_argument("--wait", action="store_true", help="poll until every batch has finished")
    p.add_argument("--poll", type=float, default=30.0, help="seconds between polls with --wait (default 30)")
    p.add_argument("--wait-timeout", type=float, help="give up waiting after this many seconds")
    p.add_argument("--no-cache", action="store_true", help="do not store the results in the response cache")
    add_format_option(p)
    p.set_defaults(func=_cmd_batch_collect)
    p = bsub.add_parser("status", help="the run's batch ledger (no API call)",
                        description="List the batches a run submitted, as its ledger records them (local id, batch "
                                    "id, state, requests, times); asks the API nothing.")
    p.add_argument("run", metavar="RUN", help="run directory")
    add_format_option(p)
    p.set_defaults(func=_cmd_batch_status)

    p = sub.add_parser("plan", help="requests, estimated tokens and cost of a run, before running it",
                       description="Count the requests a run of tasks and variants would send and estimate its "
                                   "input and output tokens and cost from the price table, without asking a model.")
    add_list_option(p, "--task", metavar="T[,T…]|all", help="task names, or all (the paper's six; default)")
    add_list_option(p, "--variant", metavar="V[,V…]|all", help="variant ids, or all (default)")
    p.add_argument("--model", default="openai/gpt-5.1-2025-11-13", help="provider/model priced (default GPT-5.1)")
    add_data_option(p, by_task=True)
    add_prompts_option(p)
    p.add_argument("--batch", action="store_true", help="price at the Batch API discount")
    p.add_argument("--epochs", type=int, default=1, metavar="N", help="every item asked N times (bench run --epochs)")
    p.add_argument("--output-tokens", type=float, help="output tokens assumed per request "
                                                         "(default 288, the paper's average)")
    p.add_argument("--max-tokens", type=int, default=None, metavar="N",
                   help="bench run --max-tokens: each request's limit on output tokens (choice-logprobs: what each "
                        "request carries; generate: caps --output-tokens)")
    p.add_argument("--prices", metavar="FILE", help="JSON price table overriding the built-in one")
    _add_method_option(p)
    add_graph_edit_option(p)
    g = p.add_argument_group("power (stats power's figures for the planned items, analytic; docs/statistics.md)")
    g.add_argument("--power", type=float, nargs="?", const=0.8, default=None, metavar="P",
                   help="also size a paired comparison of two arms on each planned variant's items: power at "
                        "--delta, the smallest detectable difference at power P and the statements needed "
                        "(McNemar exact, clustered); P defaults to 0.8")
    add_list_option(g, "--pilot", metavar="RUN[,RUN]", help="a pilot pair (p_b, p_c and icc measured), or one "
                                                            "pilot run with --delta")
    add_power_design_options(g)
    g.add_argument("--alpha", type=float, default=None, help="level of the tests (default 0.05)")
    add_format_option(p)
    p.set_defaults(func=_cmd_plan)

    p = sub.add_parser("tasks", help="registered tasks, their labels and variants",
                       description="List every registered task (built-in and plugins): its kind, labels, positive "
                                   "label and prompt variants.")
    add_format_option(p)
    p.set_defaults(func=_cmd_tasks)

    bench_view.register(sub)

    register_import(sub)
