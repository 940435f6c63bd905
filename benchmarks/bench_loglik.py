"""Benchmark: scoring by log-likelihood against generating, on the same backend and items, in one process.

Two measurements (``--what speed`` or ``--what accuracy``; both by default):

* **speed** — for each engine in ``--engines`` (``hf``, ``vllm``, ``llamacpp``), the first ``--items``
  items of ``--task``/``--variant`` (default: 200 of ccr-member A_5) go through the runner twice with the
  response cache off: ``--method generate --max-tokens 16``, then ``--method loglik``.  Each method first
  answers one warm-up item (the model loads; not timed).  Figures: items per second of each, their ratio,
  and — for every engine after the first — the share of items whose loglik label equals the first
  engine's (llama.cpp reads quantised weights, hf and vllm float32 ones).
* **accuracy** — for each model in ``--models`` and each task:variant of ``--cells`` (default: corri 0_1,
  ccr-member A_5, ccr-position A_5, reachability A_1, pubmedcausal-detect zero-shot; ``--items`` each):
  accuracy and parse-failure rate under ``generate`` (``--max-tokens``, default 16) and under ``loglik``
  (``acc`` and ``acc_norm``), McNemar between the two methods on correctness (chi-squared with continuity
  correction), and ECE (15 bins), adaptive ECE and Brier of the loglik run.

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_loglik.py --what speed --engines hf
    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_loglik.py --what accuracy --models llamacpp/smollm2
    python benchmarks/bench_loglik.py --what speed --items 20 --engines hf      # quicker

``--json FILE`` writes every figure (and the per-cell metrics) as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time

DEFAULT_CELLS = "corri:0_1,ccr-member:A_5,ccr-position:A_5,reachability:A_1,pubmedcausal-detect:zero-shot"


def timed_run(backend, spec: str, task: str, variant: str, items: int, method: str, out: str, max_tokens: int,
              data=None, concurrency=None) -> dict:
    """Warm up on one item, then time the run of ``items`` items (cache off); the figures and the records."""
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.bench.store import load_run

    kw = dict(cache=False, progress=False, backend=backend, method=method, data=data)
    if method == "generate":
        kw["max_tokens"] = max_tokens
    if concurrency:
        kw["concurrency"] = concurrency
    t0 = time.perf_counter()
    run_benchmark(task, [variant], spec, limit=1, out=os.path.join(out, f"warm-{method}"), **kw)
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = run_benchmark(task, [variant], spec, limit=items, out=os.path.join(out, method), **kw)
    wall = time.perf_counter() - t0
    recs = load_run(res.path).responses
    return {"method": method, "items": len(recs), "errors": res.errors, "warm_s": warm, "wall_s": wall,
            "items_per_s": len(recs) / wall, "path": str(res.path), "metrics": res.metrics,
            "labels": {r["item_id"]: r["label"] for r in recs}}


def engine_spec(name: str, threads: int, hf_batch: int):
    """(model spec, options, concurrency) of an engine on the bundled SmolLM2-135M-Instruct."""
    if name == "hf":
        return "hf/smollm2", {"batch_size": hf_batch, "threads": threads}, hf_batch
    if name == "llamacpp":
        return "llamacpp/smollm2", {"n_threads": threads, "n_ctx": 4096}, None
    if name == "vllm":
        return "vllm/smollm2", {"max_model_len": 4096}, None
    raise SystemExit(f"unknown engine {name!r}; expected hf, vllm or llamacpp")


def speed(args, tmp: str) -> dict:
    from causalgraph.llm import get_backend

    out: dict = {}
    first = None
    for name in [e.strip() for e in args.engines.split(",") if e.strip()]:
        spec, opts, conc = engine_spec(name, args.threads, args.hf_batch)
        backend = get_backend(spec, **opts)
        try:
            gen = timed_run(backend, spec, args.task, args.variant, args.items, "generate", os.path.join(tmp, name),
                            args.max_tokens, args.data, conc)
            ll = timed_run(backend, spec, args.task, args.variant, args.items, "loglik", os.path.join(tmp, name),
                           args.max_tokens, args.data, conc)
        finally:
            asyncio.run(backend.aclose())
        row = {"engine": name, "model": spec, "items": ll["items"], "generate_items_per_s": gen["items_per_s"],
               "loglik_items_per_s": ll["items_per_s"], "ratio": ll["items_per_s"] / gen["items_per_s"],
               "generate_s": gen["wall_s"], "loglik_s": ll["wall_s"], "errors": gen["errors"] + ll["errors"],
               "loglik_acc": ll["metrics"]["variants"][args.variant]["loglik"]["acc"]}
        if first is None:
            first = ll["labels"]
        else:
            common = [k for k in first if k in ll["labels"]]
            row["same_loglik_label_as_first"] = sum(first[k] == ll["labels"][k] for k in common) / len(common)
        out[name] = row
        print(f"{name:9} {row['items']} items: generate {row['generate_items_per_s']:.3f} items/s "
              f"({row['generate_s']:.1f} s), loglik {row['loglik_items_per_s']:.3f} items/s ({row['loglik_s']:.1f} s), "
              f"ratio {row['ratio']:.2f}" + (f", same label as {list(out)[0]}: {row['same_loglik_label_as_first']:.3f}"
                                             if "same_loglik_label_as_first" in row else ""), flush=True)
    return out


def accuracy(args, tmp: str) -> list[dict]:
    from causalgraph.llm import get_backend
    from causalgraph.llm.registry import parse_model_options
    from causalgraph.stats import mcnemar_runs

    rows = []
    opts = parse_model_options(args.model_option)
    for model in [m.strip() for m in args.models.split(",") if m.strip()]:
        backend = get_backend(model, **opts)
        try:
            for cell in args.cells.split(","):
                task, variant = cell.split(":")
                where = os.path.join(tmp, model.replace("/", "-"), task)
                gen = timed_run(backend, model, task, variant, args.items, "generate", where, args.max_tokens)
                ll = timed_run(backend, model, task, variant, args.items, "loglik", where, args.max_tokens)
                g, s = gen["metrics"]["variants"][variant], ll["metrics"]["variants"][variant]
                mc = mcnemar_runs(gen["path"], ll["path"]).iloc[0]
                cal = s["calibration"]
                row = {"model": model, "task": task, "variant": variant, "items": s["items"],
                       "generate_accuracy": g["accuracy"], "generate_parse_failure_rate": g["parse_failure_rate"],
                       "loglik_acc": s["loglik"]["acc"], "loglik_acc_norm": s["loglik"]["acc_norm"],
                       "mcnemar_b": int(mc["b"]), "mcnemar_c": int(mc["c"]), "mcnemar_p": float(mc["p"]),
                       "ece": cal["ece"], "ece_adaptive": cal["ece_adaptive"], "brier": cal["brier"],
                       "generate_s": gen["wall_s"], "loglik_s": ll["wall_s"]}
                rows.append(row)
                print(f"{model} {task} {variant} ({row['items']} items): generate acc {row['generate_accuracy']:.3f} "
                      f"(unparsed {row['generate_parse_failure_rate']:.3f}), loglik acc {row['loglik_acc']:.3f} "
                      f"acc_norm {row['loglik_acc_norm']:.3f}, McNemar b={row['mcnemar_b']} c={row['mcnemar_c']} "
                      f"p={row['mcnemar_p']:.3g}, ECE {row['ece']:.3f} (adaptive {row['ece_adaptive']:.3f}), "
                      f"Brier {row['brier']:.3f}  [{row['generate_s']:.0f} s + {row['loglik_s']:.0f} s]", flush=True)
        finally:
            asyncio.run(backend.aclose())
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--what", default="speed,accuracy", help="speed, accuracy or both (comma separated)")
    ap.add_argument("--items", type=int, default=200, help="items per run (default 200)")
    ap.add_argument("--task", default="ccr-member", help="speed: the task (default ccr-member)")
    ap.add_argument("--variant", default="A_5", help="speed: the variant (default A_5)")
    ap.add_argument("--engines", default="hf,llamacpp", help="speed: hf, vllm, llamacpp (comma separated)")
    ap.add_argument("--models", default="llamacpp/smollm2", help="accuracy: model specs (comma separated)")
    ap.add_argument("--model-option", action="append", default=[], help="accuracy: backend option KEY=VALUE")
    ap.add_argument("--cells", default=DEFAULT_CELLS, help="accuracy: task:variant pairs (comma separated)")
    ap.add_argument("--max-tokens", type=int, default=16, help="generate: tokens per answer (default 16)")
    ap.add_argument("--data", default=None, help="speed: corpus (default: the task's)")
    ap.add_argument("--hf-batch", type=int, default=8)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-loglik-")
    result: dict = {"items": args.items, "max_tokens": args.max_tokens}
    what = args.what.split(",")
    if "speed" in what:
        result["speed"] = speed(args, tmp)
    if "accuracy" in what:
        result["accuracy"] = accuracy(args, tmp)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
