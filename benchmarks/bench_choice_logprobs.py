"""Benchmark: choice probabilities from a chat model's top_logprobs against true log-likelihood, on one server.

One ``python -m llama_cpp.server`` with the bundled SmolLM2-135M (Q4_1) on 127.0.0.1, started with
``--logits_all true`` so that it serves both ways.  For each task:variant of ``--cells`` (default: ccr-member
A_5, corri 0_1, reachability A_1), the first ``--items`` items go through the runner three times, cache off,
concurrency 1:

* ``loglik`` — true log-likelihood of the same GGUF: ``--reference llamacpp`` (default) scores in-process with
  ``llamacpp/smollm2`` (the same llama.cpp build and chat template; the context evaluated once per item);
  ``--reference server`` asks the server, ``openai-compatible/smollm2`` (``POST /completions`` with the
  chat-templated prompt followed by each continuation, ``echo``, ``logprobs``).  The server's echo path sorts
  the whole vocabulary in Python for every prompt token (llama-cpp-python 0.3.36), 20–40 s per request on the
  shared 2-core machine, so the default reference is the in-process one; tests/bench/test_choice_logprobs_server.py
  checks on the server itself that both paths give the same probabilities (within 2e-3);
  ``--reference hf`` scores with ``hf/smollm2`` (transformers, the float32 weights de-quantized from the GGUF:
  the same model family, not the same numbers);
* ``choice-logprobs`` — ``openai/smollm2``, ``POST /chat/completions`` with ``logprobs`` and ``top_logprobs`` 20,
  the choices read at the answer position;
* ``generate`` — ``openai/smollm2``, ``--max-tokens 16`` (the generation of docs/benchmarks.md), for items/s.

Figures per cell: the share of items read at the answer position (``reached``); on those, the share whose
choice-logprobs label equals the loglik label (argmax agreement); ECE (15 equal-width bins) and Brier of both
methods over the items read (like for like) and of loglik over every item; the largest difference between the
two methods' probabilities on the read items; acc of each; items/s of each method; the 1-minute load average
before and after each run.

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_choice_logprobs.py --items 200 --json choice.json
    python benchmarks/bench_choice_logprobs.py --items 20 --cells ccr-member:A_5        # quicker

``--inprocess`` measures the in-process chat mode instead: per cell, ``--method choice-logprobs`` through
``llamacpp/smollm2`` (``create_chat_completion`` with ``logprobs``, no server) against the same method through
the server (``openai/smollm2``), on the same items and model, temperature 0, top_logprobs 20: the share of items
with the same scoring mode and label, the largest difference of their probabilities, and in-process true
log-likelihood as the reference for the items read (argmax agreement, |ΔECE|, |ΔBrier|).

    python benchmarks/bench_choice_logprobs.py --inprocess --items 20 --json inprocess.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

DEFAULT_CELLS = "ccr-member:A_5,corri:0_1,reachability:A_1"


def start_server(threads: int, log: Path) -> tuple[subprocess.Popen, str]:
    import socket

    from causalgraph.llm.local import smollm2_path

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    fh = open(log, "wb")
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_path()), "--host",
                             "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", str(threads),
                             "--model_alias", "smollm2", "--logits_all", "true"],
                            stdout=fh, stderr=subprocess.STDOUT, env=dict(os.environ, HF_HUB_OFFLINE="1"))
    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(480):
        try:
            urllib.request.urlopen(url + "/models", timeout=1)
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"the server exited: {log.read_text()[-1500:]}")
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("the server did not answer within 240 s")


def timed(task, variant, model, method, items, out, options, data):
    from causalgraph.bench.runner import run_benchmark
    from _common import run_records

    kw = dict(cache=False, progress=False, method=method, data=data, limit=items, concurrency=1,
              model_options=options, out=out, request_timeout=600)
    if method == "generate":
        kw["max_tokens"] = 16
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    res = run_benchmark(task, [variant], model, **kw)
    secs = time.perf_counter() - t0
    recs = {r["item_id"]: r for r in run_records(res.path)}
    return {"seconds": secs, "items_per_s": len(recs) / secs, "load": [load0, os.getloadavg()[0]],
            "metrics": res.metrics["variants"][variant], "records": recs}


def calib(recs):
    from causalgraph.bench.calibration import calibration
    from causalgraph.runlog.record import RunRecord

    c = calibration([RunRecord.of(r) for r in recs])
    return None if c is None or not c["n"] else {"n": c["n"], "ece": c["ece"], "brier": c["brier"]}


def cell(task, variant, items, url, data, root, reference="llamacpp", threads=2) -> dict:
    if reference == "hf":  # the float32 weights de-quantized from the same GGUF, by transformers
        ll = timed(task, variant, "hf/smollm2", "loglik", items, root / "loglik", {"threads": threads, "batch_size": 4},
                   data)
    elif reference == "server":
        ll = timed(task, variant, "openai-compatible/smollm2", "loglik", items, root / "loglik",
                   {"base_url": url, "tokenizer": "smollm2"}, data)
    else:
        ll = timed(task, variant, "llamacpp/smollm2", "loglik", items, root / "loglik",
                   {"n_threads": threads, "n_ctx": 4096}, data)
    ch = timed(task, variant, "openai/smollm2", "choice-logprobs", items, root / "choice",
               {"base_url": url}, data)
    gen = timed(task, variant, "openai/smollm2", "generate", items, root / "generate", {"base_url": url}, data)
    read = [i for i, r in ch["records"].items() if r.get("scoring") == "logprobs"]
    answered = [i for i, r in ch["records"].items() if not r.get("error")]
    agree = sum(ch["records"][i]["label"] == ll["records"][i]["label"] for i in read)
    cal_ch = calib(ch["records"][i] for i in read)
    cal_ll_read = calib(ll["records"][i] for i in read)
    cal_ll_all = calib(ll["records"].values())
    dp = max((abs(ch["records"][i]["probs"][k] - ll["records"][i]["probs"][k]) for i in read
              for k in ch["records"][i]["probs"]), default=None)
    gold = {i: r["gold"] for i, r in ll["records"].items()}

    def acc(recs):
        return sum(r.get("label") == gold[i] for i, r in recs.items()) / len(recs)

    reasons: dict = {}
    for r in ch["records"].values():
        if r.get("scoring") == "parsed":
            why = r["choice_read"].get("reason")
            reasons[why] = reasons.get(why, 0) + 1
    return {
        "task": task, "variant": variant, "items": len(ll["records"]), "answered": len(answered),
        "reached": len(read) / len(answered) if answered else None, "read": len(read), "parsed_reasons": reasons,
        "bounded_items": sum(1 for i in read if ch["records"][i]["choice_read"]["bounded"]),
        "argmax_agreement": agree / len(read) if read else None,
        "ece_choice": cal_ch and cal_ch["ece"], "ece_loglik_read": cal_ll_read and cal_ll_read["ece"],
        "brier_choice": cal_ch and cal_ch["brier"], "brier_loglik_read": cal_ll_read and cal_ll_read["brier"],
        "ece_loglik_all": cal_ll_all and cal_ll_all["ece"], "brier_loglik_all": cal_ll_all and cal_ll_all["brier"],
        "abs_delta_ece": None if not cal_ch else abs(cal_ch["ece"] - cal_ll_read["ece"]),
        "abs_delta_brier": None if not cal_ch else abs(cal_ch["brier"] - cal_ll_read["brier"]),
        "max_abs_delta_prob": dp,
        "acc_loglik": acc(ll["records"]), "acc_choice": acc(ch["records"]), "acc_generate": acc(gen["records"]),
        "generate_unparsed": sum(1 for r in gen["records"].values() if r.get("label") is None) / len(gen["records"]),
        "items_per_s": {"loglik": ll["items_per_s"], "choice-logprobs": ch["items_per_s"],
                        "generate": gen["items_per_s"]},
        "seconds": {"loglik": ll["seconds"], "choice-logprobs": ch["seconds"], "generate": gen["seconds"]},
        "load": {"loglik": ll["load"], "choice-logprobs": ch["load"], "generate": gen["load"]},
    }


def inprocess_cell(task, variant, items, url, data, root, threads=2) -> dict:
    """In-process ``llamacpp/`` choice-logprobs against the server's, and against in-process true loglik."""
    opts = {"n_threads": threads, "n_ctx": 4096}
    srv = timed(task, variant, "openai/smollm2", "choice-logprobs", items, root / "server-choice", {"base_url": url},
                data)
    inp = timed(task, variant, "llamacpp/smollm2", "choice-logprobs", items, root / "inprocess-choice", opts, data)
    ll = timed(task, variant, "llamacpp/smollm2", "loglik", items, root / "loglik", opts, data)
    s, i = srv["records"], inp["records"]
    same_mode = sum(s[k].get("scoring") == i[k].get("scoring") for k in s)
    same_label = sum(s[k].get("label") == i[k].get("label") for k in s)
    both = [k for k in s if s[k].get("scoring") == i[k].get("scoring") == "logprobs"]
    dp = max((abs(s[k]["probs"][c] - i[k]["probs"][c]) for k in both for c in s[k]["probs"]), default=None)
    read = [k for k in i if i[k].get("scoring") == "logprobs"]
    cal_i, cal_ll = calib(i[k] for k in read), calib(ll["records"][k] for k in read)
    return {
        "task": task, "variant": variant, "items": len(s), "errors": sum(bool(r.get("error")) for r in i.values()),
        "same_scoring": same_mode / len(s), "same_label": same_label / len(s), "read_both": len(both),
        "read_inprocess": len(read), "max_abs_delta_prob_vs_server": dp,
        "argmax_agreement_vs_loglik": (sum(i[k]["label"] == ll["records"][k]["label"] for k in read) / len(read)
                                       if read else None),
        "abs_delta_ece_vs_loglik": None if not cal_i else abs(cal_i["ece"] - cal_ll["ece"]),
        "abs_delta_brier_vs_loglik": None if not cal_i else abs(cal_i["brier"] - cal_ll["brier"]),
        "items_per_s": {"server choice": srv["items_per_s"], "in-process choice": inp["items_per_s"],
                        "in-process loglik": ll["items_per_s"]},
        "load": {"server choice": srv["load"], "in-process choice": inp["load"], "in-process loglik": ll["load"]},
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", default=DEFAULT_CELLS)
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reference", choices=("llamacpp", "server", "hf"), default="llamacpp")
    ap.add_argument("--data", default=None)
    ap.add_argument("--out", default=None, help="keep the runs here (default: a temporary folder)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--inprocess", action="store_true",
                    help="compare llamacpp/ in-process choice-logprobs with the server's (module docstring)")
    args = ap.parse_args(argv)
    root = Path(args.out or tempfile.mkdtemp(prefix="cg-choice-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    proc, url = start_server(args.threads, root / "server.log")
    results = []
    try:
        for spec in args.cells.split(","):
            task, variant = spec.split(":")
            where = root / f"{task}__{variant}"
            got = (inprocess_cell(task, variant, args.items, url, args.data, where, args.threads) if args.inprocess
                   else cell(task, variant, args.items, url, args.data, where, args.reference, args.threads))
            results.append(got)
            print(json.dumps({k: v for k, v in got.items()}, default=str), flush=True)
            if args.json:
                Path(args.json + ".partial").write_text(json.dumps(results, indent=1))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    if args.json:
        Path(args.json).write_text(json.dumps({"threads": args.threads, "reference": args.reference,
                                               "cells": results}, indent=1))


if __name__ == "__main__":
    main()
