"""Benchmark: vLLM offline batches against llama.cpp and transformers on the same items, and their agreement.

The same ``--items`` benchmark items (default: the first 200 of ccr-member A_5, ClimateCause) go through
the runner three times, with the response cache off, each time with one backend on SmolLM2-135M-Instruct:

* ``vllm/smollm2`` — the float32 safetensors folder converted from the bundled GGUF, vLLM's offline
  engine, requests gathered into batches of up to 256 (the runner's concurrency is the batch size);
* ``llamacpp/smollm2`` — the Q4_1 GGUF itself, llama.cpp, one request at a time (llama.cpp is not
  re-entrant);
* ``hf/<the same folder>`` — transformers, float32, greedy, batches of ``--hf-batch`` with left padding.

Each backend first answers one warm-up item (the model loads; not timed), then the timed run.  Figures
are items per second, generated tokens per second, the ratio to llama.cpp, and the share of items whose
answer text (and parsed label) equals vLLM's.  vLLM and transformers read the same float32 weights;
llama.cpp reads them quantised (Q4_1, with 8-bit activations in its dot products), so its greedy answers
may part from theirs where two tokens are nearly tied.

Every number comes from one process: run it with the vLLM environment's python (scripts/install-vllm.sh),
with llama-cpp-python added there for the llama.cpp figure::

    .venv-vllm/bin/pip install llama-cpp-python==0.3.36
    CAUSALGRAPH_DATA=../shared/data .venv-vllm/bin/python benchmarks/bench_vllm.py
    .venv-vllm/bin/python benchmarks/bench_vllm.py --items 40 --engines vllm,hf      # quicker

On a GPU machine, ``--model vllm/<folder> --model-option dtype=bfloat16`` and ``--full-plan`` time the
paper's whole plan (every ClimateCause benchmark task and variant) on vLLM alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time


def run_one(spec: str, options: dict, task: str, variants: list[str], limit: int | None, max_tokens: int,
            data: str | None, out: str, concurrency: int | None = None) -> dict:
    """Warm the backend up on one item, then time the run of every item; the records and the figures."""
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.llm import get_backend
    from _common import run_records

    backend = get_backend(spec, **options)
    kw = dict(data=data, max_tokens=max_tokens, cache=False, progress=False, backend=backend)
    if concurrency:
        kw["concurrency"] = concurrency
    try:
        t0 = time.perf_counter()
        run_benchmark(task, variants[:1], spec, limit=1, out=os.path.join(out, "warm"), **kw)
        load_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        res = run_benchmark(task, variants, spec, limit=limit, out=os.path.join(out, "run"), **kw)
        wall = time.perf_counter() - t0
    finally:
        asyncio.run(backend.aclose())
    recs = sorted(run_records(res.path), key=lambda r: (r["variant"], r["item_id"]))
    gen = sum((r.get("usage") or {}).get("completion_tokens") or 0 for r in recs)
    return {"model": spec, "items": len(recs), "requests": res.requests_sent, "errors": res.errors,
            "load_s": load_s, "wall_s": wall, "items_per_s": len(recs) / wall, "tokens_per_s": gen / wall,
            "generated_tokens": gen, "records": recs}


def agreement(a: list[dict], b: list[dict]) -> dict:
    """Shares of items (matched by variant and id) with the same answer text and the same parsed label."""
    ka = {(r["variant"], r["item_id"]): r for r in a}
    kb = {(r["variant"], r["item_id"]): r for r in b}
    common = sorted(set(ka) & set(kb))
    same_text = sum(ka[k]["response"] == kb[k]["response"] for k in common)
    same_label = sum(ka[k]["label"] == kb[k]["label"] for k in common)
    n = len(common) or 1
    return {"items": len(common), "same_text": same_text / n, "same_label": same_label / n}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=200, help="items per variant (default 200)")
    ap.add_argument("--task", default="ccr-member")
    ap.add_argument("--variant", default="A_5", help="comma-separated variants")
    ap.add_argument("--max-tokens", type=int, default=16)
    ap.add_argument("--data", default=None, help="corpus (default: climatecause)")
    ap.add_argument("--engines", default="vllm,llamacpp,hf", help="any of vllm, llamacpp, hf (comma separated)")
    ap.add_argument("--model", default="vllm/smollm2", help="the vLLM model (default: the bundled SmolLM2)")
    ap.add_argument("--model-option", action="append", default=[], help="vLLM option KEY=VALUE (repeatable)")
    ap.add_argument("--hf-batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="CPU threads for llama.cpp and torch")
    ap.add_argument("--full-plan", action="store_true",
                    help="vLLM alone on every ClimateCause benchmark task and variant (for a GPU machine)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    from causalgraph.llm.registry import parse_model_options
    from causalgraph.llm.vllm import cpu_env

    for k, v in cpu_env().items():
        os.environ.setdefault(k, v)
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")  # vLLM logs to stdout, among the figures
    vopts = {"max_model_len": 4096, **parse_model_options(args.model_option)}
    variants = args.variant.split(",")
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    tmp = tempfile.mkdtemp(prefix="bench-vllm-")

    if args.full_plan:
        from causalgraph.tasks import get_task, list_tasks

        rows = []
        for name in list_tasks():
            spec = get_task(name)
            if spec.default_data != "climatecause" or name == "annotate":
                continue
            r = run_one(args.model, vopts, name, list(spec.list_variants()), None, args.max_tokens, args.data,
                        os.path.join(tmp, name))
            rows.append({k: v for k, v in r.items() if k != "records"} | {"task": name})
            print(f"{name:22} {r['items']:7d} items {r['wall_s']:9.1f} s {r['items_per_s']:8.1f} items/s", flush=True)
        total = sum(r["items"] for r in rows)
        wall = sum(r["wall_s"] for r in rows)
        print(f"{'all':22} {total:7d} items {wall:9.1f} s {total / wall:8.1f} items/s")
        return

    results: dict[str, dict] = {}
    folder = None
    if "vllm" in engines or "hf" in engines:
        from causalgraph.llm.vllm import resolve_model_folder

        folder = resolve_model_folder(args.model.split("/", 1)[1])
    plan = {"vllm": (args.model, vopts, None),
            "llamacpp": ("llamacpp/smollm2", {"n_threads": args.threads, "n_ctx": 4096}, None),
            "hf": (f"hf/{folder}", {"batch_size": args.hf_batch, "threads": args.threads}, args.hf_batch)}
    for name in engines:
        spec, opts, conc = plan[name]
        results[name] = run_one(spec, opts, args.task, variants, args.items, args.max_tokens, args.data,
                                os.path.join(tmp, name), concurrency=conc)
        r = results[name]
        print(f"{name:9} {r['items']} items ({r['requests']} requests, {r['errors']} errors) in {r['wall_s']:.1f} s "
              f"(load {r['load_s']:.1f} s): {r['items_per_s']:.2f} items/s, {r['tokens_per_s']:.1f} tokens/s",
              flush=True)
    base = results.get("llamacpp")
    summary = {}
    for name, r in results.items():
        row = {k: v for k, v in r.items() if k != "records"}
        if base:
            row["speed_vs_llamacpp"] = r["items_per_s"] / base["items_per_s"]
        if "vllm" in results and name != "vllm":
            row["agreement_with_vllm"] = agreement(results["vllm"]["records"], r["records"])
        summary[name] = row
    print()
    print(f"{'engine':9} {'items/s':>8} {'tokens/s':>9} {'x llama.cpp':>12} {'same text':>10} {'same label':>11}")
    for name, row in summary.items():
        ag = row.get("agreement_with_vllm", {})
        ratio = f"{row['speed_vs_llamacpp']:.2f}" if "speed_vs_llamacpp" in row else "-"
        st = f"{ag['same_text']:.3f}" if ag else "-"
        sl = f"{ag['same_label']:.3f}" if ag else "-"
        print(f"{name:9} {row['items_per_s']:8.2f} {row['tokens_per_s']:9.1f} {ratio:>12} {st:>10} {sl:>11}")
    if args.json:
        print(json.dumps(summary, indent=2, default=str))


if __name__ == "__main__":  # vLLM starts its engine in a new process, which imports this module again
    main()
