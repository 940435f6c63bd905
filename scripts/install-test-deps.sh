#!/usr/bin/env bash
# Installs what the whole test suite needs into the virtual environment whose
# python is $1.  Called by `make test`; safe to run again.
set -euo pipefail
PY=${1:-.venv/bin/python}
PIP="$PY -m pip"

$PIP install --quiet -e '.[dev,viz,openai]'

# Headless Chromium for the browser tests (tests/test_viz_browser.py): the Debian packages, installed
# only when missing and only when this script runs as root (CI); elsewhere those tests skip with a hint.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
    else
        echo "install-test-deps: chromium/chromedriver missing and not root: browser tests will be skipped" >&2
    fi
fi
