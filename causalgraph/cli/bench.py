"""``causalgraph bench``: run benchmarks against LLMs, parse and score the answers.

Subcommands: ``run``, ``parse``, ``report``, ``batch submit|collect|status``, ``plan``, ``tasks``.
"""

from __future__ import annotations

import argparse
import sys

from ..bench.runner import DEFAULT_MAX_CONNECTION_FAILURES, RunConfig, arun_benchmark
from ..errors import ConfigError
from ..llm.registry import model_forms
from ..wording import plural
from ._common import (add_data_option, add_format_option, add_graph_edit_option, add_model_args, add_prompts_option,
                      emit_json, emit_table, model_options)
from ..llm.pricing import load_prices
from ..bench.scoring import (
    report_rows, accuracy_column, agreement_columns, loglik_columns, pending_column, compute_metrics, task_columns,
    format_mean_std as _pm
)
from ..bench.reparse import reparse_run
from ..runlog.files import Metrics
from ..runlog.store import load_run
from ..bench.epochs import parse_reducer
from ..tasks import get_task, list_tasks
from ..bench.calibration import plot_reliability
from ..outputs import safe_name, output_dir
from ..bench.batch import submit_batch, collect_batch, batch_status
from ..bench.plan import PAPER_OUTPUT_TOKENS_PER_REQUEST, plan_run
from ..tasks.climatecause import PAPER_TASKS
from . import bench_view
from .bench_import import register as register_import

__all__ = ["register"]


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--task", required=True, help="task name (see `causalgraph bench tasks`)")
    p.add_argument("--variant", required=True, metavar="V[,V…]|all", help="prompt variant ids, comma separated, or all")
    add_model_args(p, model_help=", ".join(model_forms()) + " (hf/smollm2 and llamacpp/smollm2 name the bundled "
                                 "SmolLM2-135M)",
                   option_help="backend option, repeatable (e.g. latency=0.05, n_ctx=2048, reasoning_effort=none)",
                   max_tokens_help="limit on generated tokens (default: the provider's)")
    add_data_option(p)
    add_prompts_option(p, help_extra="; a run directory resumes with the catalog it started with")
    p.add_argument("--out", metavar="DIR", help="run directory (default runs/<task>__<model>__<variants>); "
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
    p.add_argument("--prices", metavar="FILE", help="JSON price table overriding the built-in one")
    add_graph_edit_option(p)


def _add_method_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", choices=("generate", "loglik", "choice-logprobs"), default="generate",
                   help="generate (default): the model writes an answer, which is parsed; loglik: each label's "
                        "answer is scored by its log-probability and the likeliest wins, nothing generated "
                        "(closed-label tasks, local models and servers with prompt log-probabilities); "
                        "choice-logprobs: a chat model answers with top_logprobs and the choices' probabilities "
                        "are read where they diverge (openai/ and OpenAI-compatible chat servers)")


def _config(args):
    options = model_options(args)
    variants = [v.strip() for v in args.variant.split(",") if v.strip()]
    return RunConfig(task=args.task, variants=variants, model=args.model, data=args.data, out=args.out,
                     concurrency=args.concurrency, limit=args.limit, temperature=args.temperature,
                     max_tokens=args.max_tokens, seed=args.seed, model_options=options,
                     max_attempts=args.max_attempts, retry_base=args.retry_base, retry_cap=args.retry_cap,
                     request_timeout=args.timeout, max_connection_failures=args.max_connection_failures,
                     cache=not args.no_cache, epochs=getattr(args, "epochs", 1), prompts=args.prompts,
                     graph_edit=args.graph_edit,
                     method=getattr(args, "method", "generate"),
                     prices=load_prices(args.prices) if args.prices else None)


def _summary_rows(metrics, path):
    return [r for r in report_rows(metrics, run_name=str(path)) if not str(r["row"]).startswith("[")]


_RUN_COLUMNS = ["row", "items", "errors", "parse_fail_rate", "precision", "recall", "f1", "f1_ci95"]


def _cmd_run(args) -> int:
    import asyncio

    config = _config(args)
    result = asyncio.run(arun_benchmark(config, progress="auto" if not args.no_progress else False))
    m = result.metrics
    if result.epochs > config.epochs:
        print(f"causalgraph bench: note: {result.path} asks every item {result.epochs} times (the most it was ever "
              f"asked for), not {config.epochs}; counts below are of samples", file=sys.stderr)
    print(f"run {result.path}: {result.written} written, {result.skipped} already answered, "
          f"{plural(result.requests_sent, 'request')} sent, {plural(result.cache_hits, 'cache hit')}, "
          f"{plural(result.errors, 'error')}; "
          f"tokens in {m['tokens_in']:,} out {m['tokens_out']:,}, cost ${m['cost_usd']:.4f}", file=sys.stderr)
    if result.waiting_in_batch:
        print(f"causalgraph bench: {plural(result.waiting_in_batch, 'item waits', 'items wait')} in an open Batch job; "
              f"run `causalgraph bench "
              f"batch collect {result.path}` for them", file=sys.stderr)
    for v, s in m.get("variants", {}).items():
        # A high share of unreadable answers usually means a prompt/parser mismatch, not a bad model.
        if s.get("answered") and s.get("parse_failure_rate", 0) >= 0.2:
            print(f"causalgraph bench: warning: variant {v}: {s['parse_failures']} of {s['answered']} answers name no "
                  f"label (rules {s.get('rules')}); they count as wrong — inspect {result.path}/responses.jsonl",
                  file=sys.stderr)
    rows = _summary_rows(m, result.path)
    emit_table(rows, args.format, columns=_RUN_COLUMNS[:2] + pending_column(rows) + _RUN_COLUMNS[2:]
               + accuracy_column(rows) + agreement_columns(rows) + loglik_columns(rows))
    return 1 if result.errors else 0


def _cmd_parse(args) -> int:
    rows = reparse_run(args.run, dry_run=args.dry_run)
    emit_table(rows, args.format, columns=["variant", "lines", "changed", "parse_failures_before",
                                           "parse_failures_after"])
    return 0


def _cmd_report(args) -> int:
    reducer = parse_reducer(args.reducer) if args.reducer else None
    plot_dir = None
    if args.plot:
        plot_dir = output_dir(args.plot, "plot folder")  # checked before any run is scored
    allm = []
    rows = []
    for path in args.runs:
        run = load_run(path)
        if reducer is not None and reducer.name == "mean" and run.epochs == 1:
            print(f"causalgraph bench: note: --reducer mean: {path} has one answer per item (no --epochs); "
                  f"its plain scores are shown", file=sys.stderr)
        m = compute_metrics(run, n_boot=args.bootstrap, seed=args.seed, reducer=reducer)
        if (args.per_class or args.confusion) and m["variants"] and not any(
                "per_class" in s or "confusion" in s for s in m["variants"].values()):
            spec = get_task(m["task"]) if m["task"] in list_tasks() else None
            what = (f"a binary task: its precision, recall and F1 are those of the positive class {spec.positive!r}"
                    if spec is not None and spec.kind == "binary" else "a task scored without classes")
            opts = " and ".join(o for o, on in (("--per-class", args.per_class), ("--confusion", args.confusion)) if on)
            print(f"causalgraph bench: note: {opts}: {path} ({m['task']}) is {what}; per-class scores and "
                  f"confusion matrices are for multiclass tasks", file=sys.stderr)
        allm.append({"run": str(path), "metrics": m})
        if plot_dir is not None:
            _plot_run(plot_dir, path, m)
        rows += report_rows(m, run_name=str(path))
        if args.per_class:
            for v, s in m["variants"].items():
                for lab, pc in (s.get("per_class") or {}).items():
                    rows.append({"run": str(path), "task": m["task"], "model": m["model"], "row": f"{v}:{lab}",
                                 "strategy": s.get("strategy"), "items": pc["support"],
                                 "precision": pc["precision"], "recall": pc["recall"], "f1": pc["f1"]})
            # Per class, mean ± std over the variants of each strategy (the layout of Table 18).
            for strat, agg in m.get("strategies", {}).items():
                labels = [k.split(".")[1] for k in agg if k.startswith("per_class.") and k.endswith(".f1")]
                for lab in labels:
                    rows.append({"run": str(path), "task": m["task"], "model": m["model"], "row": f"[{strat}]:{lab}",
                                 "strategy": strat, **{met: _pm(agg[f"per_class.{lab}.{met}"])
                                                       for met in ("precision", "recall", "f1")}})
    if args.format == "json":
        emit_json(allm)
        return 0
    pass_cols = sorted({k for r in rows for k in r if k.startswith(("pass@", "pass^"))})
    # A stopped run's table says how much is left to ask; a complete run's keeps its columns.
    counts = ["run", "task", "model", "row", "items", *pending_column(rows), "errors", "parse_fail_rate"]
    if pass_cols:
        cols = [*counts, *pass_cols, "pass_ci95"]
    else:
        cols = [*counts, "precision", "recall", "f1",
                "f1_ci95"] + (["f1_sd"] if any("f1_sd" in r for r in rows) else []) + accuracy_column(rows)
    cols += task_columns(rows)
    cols += agreement_columns(rows) + loglik_columns(rows)
    if len(args.runs) == 1:
        cols = cols[1:]
    emit_table(rows, args.format, columns=cols)
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
    return 0


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


def _cmd_plan(args) -> int:
    tasks = list(PAPER_TASKS) if args.task == "all" else [t.strip() for t in args.task.split(",") if t.strip()]
    variants = None if args.variant in (None, "all") else [v.strip() for v in args.variant.split(",") if v.strip()]
    rows = plan_run(tasks, args.model, variants=variants, data=args.data, batch=args.batch,
                    output_tokens=args.output_tokens if args.output_tokens is not None
                    else PAPER_OUTPUT_TOKENS_PER_REQUEST,
                    prices=load_prices(args.prices) if args.prices else None, epochs=args.epochs,
                    prompts=args.prompts, method=args.method, graph_edit=args.graph_edit,
                    named=args.task != "all")
    left = [t for t in tasks if t not in {r["task"] for r in rows}]
    if left:
        print(f"causalgraph bench: note: --graph-edit {args.graph_edit}: {', '.join(left)} left out (their prompts "
              "hold no graph)", file=sys.stderr)
    if len(rows) > 1:
        rows.append({"task": "total", "variant": "", **{k: sum(r[k] for r in rows) for k in
                     ("requests", "prompt_chars", "input_tokens_est", "output_tokens_est", "cost_usd_est")}})
    emit_table(rows, args.format, columns=["task", "variant", "requests", "prompt_chars", "input_tokens_est",
                                           "output_tokens_est", "cost_usd_est"])
    return 0


def _cmd_tasks(args) -> int:
    rows = []
    for name in list_tasks():
        spec = get_task(name)
        try:
            variants = ",".join(spec.list_variants())
        except ConfigError as exc:
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

    p = sub.add_parser("run", help="ask a model every item of a task's variants (cached, resumable)")
    _add_run_options(p)
    p.add_argument("--epochs", type=int, default=1, metavar="N",
                   help="ask every item N times (repeated sampling; needs --temperature above 0 or 'default'); "
                        "each epoch is its own cache entry, and `bench report --reducer` reduces them (default 1)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_method_option(p)
    add_format_option(p)
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("parse", help="parse a run's stored answers again and rescore it (offline)")
    p.add_argument("run", metavar="RUN", help="run directory")
    p.add_argument("--dry-run", action="store_true", help="report what would change, write nothing")
    add_format_option(p)
    p.set_defaults(func=_cmd_parse)

    p = sub.add_parser("report", help="scores of runs: per variant, per strategy (mean ± std), bootstrap CIs")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run directories")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples of statements (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--per-class", action="store_true", help="add per-class rows (position tasks)")
    p.add_argument("--confusion", action="store_true", help="print confusion matrices (position tasks)")
    p.add_argument("--reducer", metavar="NAME", help="for runs with epochs: majority (default), mean, pass@k, pass^k, "
                                                     "or pass@K/pass^K with a number K (k: every epoch)")
    p.add_argument("--plot", metavar="DIR", help="write a reliability diagram (PNG) of every variant scored by "
                                                 "log-likelihood into DIR")
    add_format_option(p)
    p.set_defaults(func=_cmd_report)

    b = sub.add_parser("batch", help="the OpenAI Batch API: submit, collect, status")
    bsub = b.add_subparsers(dest="batch_command", metavar="SUBCOMMAND")
    bsub.required = True
    p = bsub.add_parser("submit", help="write, upload and create Batch jobs for a run's unanswered items")
    _add_run_options(p)
    add_format_option(p)
    p.set_defaults(func=_cmd_batch_submit)
    p = bsub.add_parser("collect", help="poll a run's batches and ingest finished ones (safe to re-run)")
    p.add_argument("run", metavar="RUN", help="run directory")
    p.add_argument("--wait", action="store_true", help="poll until every batch has finished")
    p.add_argument("--poll", type=float, default=30.0, help="seconds between polls with --wait (default 30)")
    p.add_argument("--wait-timeout", type=float, help="give up waiting after this many seconds")
    p.add_argument("--no-cache", action="store_true", help="do not store the results in the response cache")
    add_format_option(p)
    p.set_defaults(func=_cmd_batch_collect)
    p = bsub.add_parser("status", help="the run's batch ledger (no API call)")
    p.add_argument("run", metavar="RUN", help="run directory")
    add_format_option(p)
    p.set_defaults(func=_cmd_batch_status)

    p = sub.add_parser("plan", help="requests, estimated tokens and cost of a run, before running it")
    p.add_argument("--task", default="all", help="task names, comma separated, or all (the paper's six; default)")
    p.add_argument("--variant", default="all", help="variant ids, comma separated, or all (default)")
    p.add_argument("--model", default="openai/gpt-5.1-2025-11-13", help="provider/model priced (default GPT-5.1)")
    add_data_option(p)
    add_prompts_option(p)
    p.add_argument("--batch", action="store_true", help="price at the Batch API discount")
    p.add_argument("--epochs", type=int, default=1, metavar="N", help="every item asked N times (bench run --epochs)")
    p.add_argument("--output-tokens", type=float, help="output tokens assumed per request "
                                                         "(default 288, the paper's average)")
    p.add_argument("--prices", metavar="FILE", help="JSON price table overriding the built-in one")
    _add_method_option(p)
    add_graph_edit_option(p)
    add_format_option(p)
    p.set_defaults(func=_cmd_plan)

    p = sub.add_parser("tasks", help="registered tasks, their labels and variants")
    add_format_option(p)
    p.set_defaults(func=_cmd_tasks)

    bench_view.register(sub)

    register_import(sub)
