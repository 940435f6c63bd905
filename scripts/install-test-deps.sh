#!/usr/bin/env bash
# Installs what the whole test suite needs into the virtual environment whose
# python is $1.  Called by `make test`; safe to run again.
set -euo pipefail
PY=${1:-.venv/bin/python}
PIP="$PY -m pip"

$PIP install --quiet -e '.[dev,viz,openai]'
