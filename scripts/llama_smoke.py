"""Decode a few tokens of SmolLM2 with llama-cpp-python: exit 0 when the build works on this CPU.

Run by scripts/install-test-deps.sh in a child process, so that a build that
crashes (a segmentation fault in ggml's CPU kernels) is found before the
test suite, whose process it would take down.
"""

from __future__ import annotations

import llama_cpp

from causalgraph.llm.local import smollm2_path

model = llama_cpp.Llama(model_path=str(smollm2_path()), n_ctx=2048, n_threads=2, verbose=False, seed=0)
out = model.create_completion("Warming reduces sea ice, which in turn", max_tokens=8, temperature=0.0)
print(repr(out["choices"][0]["text"]))
