"""Run a benchmark on vLLM's offline engine: SmolLM2-135M-Instruct, every request of the run in one batch.

``vllm/smollm2`` is the bundled GGUF converted once to a float32 safetensors folder (vLLM reads no GGUF);
``vllm/<folder>`` runs any Hugging Face model folder.  The runner sends every item at once (the backend's
concurrency is its batch size, 256), the backend hands them to ``LLM.generate`` together, and each answer
is written, cached and resumable exactly as with any other backend.  The second run asks the same items
under a JSON schema (vLLM's structured outputs); it shares the engine the first run loaded.

vLLM needs an environment of its own here (``bash scripts/install-vllm.sh`` makes .venv-vllm); run this
with its python, or with any python: it restarts itself under .venv-vllm when vLLM is missing.

    .venv-vllm/bin/python examples/vllm_offline.py [OUT_DIR]
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path


def python_with_vllm():
    """``None`` when this python has vLLM, else the vLLM environment's python (or an error)."""
    try:
        import vllm  # noqa: F401

        return None
    except ImportError:
        pass
    other = os.environ.get("CAUSALGRAPH_VLLM_PYTHON") or str(Path(__file__).resolve().parents[1] / ".venv-vllm" /
                                                              "bin" / "python")
    if not Path(other).is_file():
        sys.exit("vLLM is not installed here and .venv-vllm does not exist: run bash scripts/install-vllm.sh")
    return other


def main(out: str) -> None:
    import causalgraph as cg
    from causalgraph.llm import get_backend
    from causalgraph.llm.structured import structured_backend
    from causalgraph.llm.vllm import cpu_env

    # On a CPU: 1 GiB of KV cache, every core, none reserved (vLLM reads these when its engine starts).
    for k, v in cpu_env(kv_cache_gib=1).items():
        os.environ.setdefault(k, v)
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")  # vLLM logs to stdout
    options = {"max_model_len": 4096}  # on a GPU add e.g. tensor_parallel_size=2, dtype="bfloat16"

    backend = get_backend("vllm/smollm2", **options)
    try:
        t0 = time.perf_counter()
        res = cg.run_benchmark("ccr-member", ["A_5"], "vllm/smollm2", limit=8, max_tokens=8, backend=backend,
                               out=f"{out}/plain", progress=False)
        print(f"plain: {res.requests_sent} requests in one batch, {time.perf_counter() - t0:.1f} s "
              "(the engine loads first)")
        for r in cg.load_run(res.path).responses:
            print(f"  gold={r.gold:<4} label={str(r.label):<5} answer={r.response!r}")

        schema = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["Yes", "No"]}},
                  "required": ["answer"], "additionalProperties": False}
        constrained = structured_backend("vllm/smollm2", options, schema, "answer")  # the same engine
        try:
            res = cg.run_benchmark("ccr-member", ["A_5"], "vllm/smollm2", limit=8, max_tokens=16,
                                   backend=constrained, out=f"{out}/json", progress=False)
        finally:
            import asyncio

            asyncio.run(constrained.aclose())
        print("json schema:")
        for r in cg.load_run(res.path).responses:
            print(f"  gold={r.gold:<4} label={str(r.label):<5} answer={json.loads(r.response)}")
    finally:
        import asyncio

        asyncio.run(backend.aclose())


if __name__ == "__main__":  # vLLM starts its engine in a new process, which imports this module again
    other = python_with_vllm()
    if other is not None:
        os.execv(other, [other, *sys.argv])
    main(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-vllm-"))
