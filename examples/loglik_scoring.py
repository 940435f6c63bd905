"""Score closed-label questions by log-likelihood, not by parsing generated text, and read its calibration.

Under ``method="loglik"`` nothing is generated: every label's answer, as the
prompt asks for it (``Yes`` / ``No`` here), is scored by the sum of its
tokens' log-probabilities after the chat-templated prompt, and the likeliest
label wins (``acc``; ``acc_norm`` divides by the answer's length in bytes).
Each record keeps the continuations, their log-probabilities and the
probabilities normalised over the choices, which calibration reads: ECE over
15 equal-width bins and over 15 equal-size bins, and the Brier score.

``mock/noisy`` stands in for a model (all its mass on one label, a seeded
wrong one with probability ``flip``); with a real local model pass
``hf/smollm2`` (transformers) or ``llamacpp/smollm2`` (llama.cpp), which
score the bundled SmolLM2-135M-Instruct.

    python examples/loglik_scoring.py [OUT_DIR] [MODEL]

The same from the command line:

    causalgraph bench run --task ccr-member --variant A_5 --model hf/smollm2 --method loglik --limit 200
    causalgraph bench report runs/ccr-member__hf-smollm2__A_5 --plot plots/
    causalgraph stats mcnemar runs/generated runs/ccr-member__hf-smollm2__A_5   # pairs on correctness
"""

import sys
import tempfile

import causalgraph as cg
from causalgraph.bench.calibration import plot_reliability
from causalgraph.stats import mcnemar_runs

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-loglik-")
model = sys.argv[2] if len(sys.argv) > 2 else "mock/noisy"
options = {"flip": 0.25} if model == "mock/noisy" else {}

# Chain membership, the first 80 events: scored, not generated.
ll = cg.run_benchmark("ccr-member", "A_5", model, limit=80, method="loglik", model_options=options,
                      out=f"{out}/loglik")
first = cg.load_run(ll.path).responses[0]
print(f"{first.item_id}: gold {first.gold}, continuations {first.continuations}")
print(f"  log-probabilities {first.logprobs}, probabilities {first.probs} -> {first.label}")

v = ll.metrics.variants["A_5"]
cal = v["calibration"]
print(f"acc {v['loglik']['acc']:.4f}  acc_norm {v['loglik']['acc_norm']:.4f}  "
      f"(figures above use rule {v['loglik']['scores_rule']!r})")
print(f"ECE {cal['ece']:.4f} (15 bins)  adaptive ECE {cal['ece_adaptive']:.4f}  Brier {cal['brier']:.4f}")
plot_reliability(cal, f"{out}/reliability.png", title=f"{model} ccr-member A_5")
print(f"reliability diagram: {out}/reliability.png")

# The same items generated and parsed, then McNemar on which method answers right (item by item).
gen_model = "mock/noisy" if model == "mock/noisy" else model
gen = cg.run_benchmark("ccr-member", "A_5", gen_model, limit=80, out=f"{out}/generate",
                       **({"temperature": 0.8, "model_options": {"flip": 0.4}} if model == "mock/noisy"
                          else {"max_tokens": 16}))
print(mcnemar_runs(gen.path, ll.path)[["variant_a", "n", "b", "c", "statistic", "p", "paired_on"]].to_string(index=False))

# Reasoning-first variants cannot be scored this way, and say why.
try:
    cg.run_benchmark("ccr-member", "A_4", model, limit=1, method="loglik", out=f"{out}/refused")
except cg.errors.ConfigError as exc:
    print(f"refused: {exc}")
