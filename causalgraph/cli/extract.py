"""``causalgraph extract``: run PubMedCausal extraction (or detection) prompts on a model."""

from __future__ import annotations


from ..llm.registry import model_forms
from ._common import add_list_option, add_model_args, emit_json, emit_table, model_options
from ..apps.extraction_run import run_extraction

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "extract", help="run PubMedCausal extraction/detection prompts on a model (cached, resumable)",
        description="Ask a model to extract {Cause, Effect, Causality_Type, Sententiality} tuples from PubMedCausal "
                    "rows with one of the paper's six prompting strategies (App. E), on the benchmark runner "
                    "(response cache, resume, retries, progress). The run directory gets responses.jsonl, "
                    "metrics.json and predictions.json (the authors' format), which evaluate-extraction reads.")
    add_model_args(p, model_help="backend and model: " + ", ".join(model_forms()),
                   option_help="backend option (e.g. n_ctx=4096)",
                   max_tokens_help="completion tokens at most")
    add_list_option(p, "--strategy", metavar="S[,S…]|all",
                    help="zero-shot, few-shot, cot, cot-few-shot, least-to-most, react (or ZS, FS, CoT, CoT-FS, "
                         "L2M, ReAct), or all (default: zero-shot)")
    p.add_argument("--task", choices=["extract", "detect"], default="extract",
                   help="extract pairs (default) or detect causality (answer 1/0)")
    p.add_argument("--split", choices=["test", "train"], default="test", help="PubMedCausal split (default: test)")
    p.add_argument("--data", metavar="NAME|PATH", default=None,
                   help="a PubMedCausal dataset name (pubmedcausal:train), file or folder instead of the split")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="first N rows only")
    p.add_argument("--out", metavar="DIR", default=None, help="run directory (default: runs/<task>__<model>__<s>)")
    p.add_argument("--concurrency", type=int, default=None, metavar="N", help="requests in flight at most")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table",
                   help="summary output format (default: table)")
    p.set_defaults(func=run)


def run(args) -> int:
    task = "pubmedcausal-extract" if args.task == "extract" else "pubmedcausal-detect"
    strategy = "zero-shot" if args.strategy is None else "all" if args.strategy == ["all"] else args.strategy
    res = run_extraction(args.model, strategy, task=task, split=args.split, data=args.data, limit=args.limit,
                         out=args.out, progress="auto" if not args.no_progress else False,
                         concurrency=args.concurrency, max_tokens=args.max_tokens, temperature=args.temperature,
                         model_options=model_options(args), cache=not args.no_cache)
    rows = []
    for v, m in (res.metrics.variants or {}).items():
        row = {"strategy": v, "items": m.get("items"), "answered": m.get("answered"), "errors": m.get("errors"),
               "parse_failures": m.get("parse_failures")}
        if task == "pubmedcausal-extract":
            row.update({"token_pair_f1": m.get("token_pair_f1"), "exact_pair_f1": m.get("exact_pair_f1")})
        else:
            row.update({"precision": m.get("precision"), "recall": m.get("recall"), "f1": m.get("f1")})
        rows.append(row)
    if args.format == "json":
        emit_json({"run": str(res.path), "requests_sent": res.requests_sent, "cache_hits": res.cache_hits,
                   "skipped": res.skipped, "variants": rows})
    else:
        emit_table(rows, args.format)
        if args.format == "table":
            print(f"run: {res.path} (requests {res.requests_sent}, cache hits {res.cache_hits}, "
                  f"already answered {res.skipped})")
    return 0
