"""The runner against a local OpenAI-compatible stand-in that injects faults.

Every request goes through the real ``openai`` client to a server on
127.0.0.1: HTTP 429 with Retry-After, HTTP 500, answers slower than the
request timeout, dropped connections, and 401 errors that echo the key.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.errors import BackendUnavailable

from bench_helpers import YN_TASK, prompt_of, yn_items

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(120)]

FAULTS = ["429", "500", "drop", "slow", "ok"]


def _fault_of(prompt: str) -> str:
    return FAULTS[int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % len(FAULTS)]


def _answered_lines(run) -> Counter:
    return Counter((r.variant, r.item_id) for r in run.attempts if not r.error)


def test_run_benchmark_completes_under_faults_with_each_item_answered_once(standin, isolated_cache, tmp_path):
    # The first attempt at each prompt fails in one of five ways; later attempts succeed.
    standin.faults = lambda prompt, attempt: _fault_of(prompt) if attempt == 1 else "ok"
    standin.slow_seconds = 2.5
    items = yn_items(12)
    kinds = Counter(_fault_of(prompt_of(it)) for it in items)
    assert all(kinds[k] > 0 for k in FAULTS), kinds  # every fault is exercised

    res = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "run",
                        model_options={"base_url": standin.url}, concurrency=6, retry_base=0.01, retry_cap=0.2,
                        request_timeout=1.0, max_attempts=4)
    run = load_run(res.path)
    lines = _answered_lines(run)
    assert len(lines) == len(items) and set(lines.values()) == {1}
    assert res.errors == 0 and run.metrics.errors == 0
    # Every failed first attempt was retried, within the bound on attempts.  (A loaded machine can
    # also time out an ordinary first request, so "exactly one retry each" would be flaky.)
    attempts = {r.item_id: r.attempts for r in run.responses}
    for it in items:
        kind = _fault_of(prompt_of(it))
        assert 1 + (kind != "ok") <= attempts[it.id] <= 4, (kind, attempts[it.id])
        if kind in ("429", "500"):
            assert standin.attempts[prompt_of(it)] >= 2
    failing = sum(v for k, v in kinds.items() if k != "ok")
    assert len(items) + failing <= res.requests_sent <= 4 * len(items)
    assert res.requests_sent == sum(attempts.values())
    # The model always says Yes: recall 1, precision = share of gold yes.
    v1 = run.metrics.variants["v_1"]
    assert v1["recall"] == 1.0 and v1["precision"] == pytest.approx(6 / 12)


def test_run_benchmark_bounds_retries_and_records_errors_then_resume_fills_them(standin, isolated_cache, tmp_path):
    always_failing = {prompt_of(it) for it in yn_items(12)[:4]}
    standin.faults = lambda prompt, attempt: "500" if prompt in always_failing else "ok"
    items = yn_items(12)
    opts = dict(items=items, out=tmp_path / "run", model_options={"base_url": standin.url}, retry_base=0.001,
                retry_cap=0.01, max_attempts=3)
    res = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", **opts)
    assert res.errors == 4
    assert res.requests_sent == (len(items) - 4) + 4 * 3  # three attempts each, then it stops
    run = load_run(res.path)
    failed = [r for r in run.responses if r.error]
    assert len(failed) == 4 and all("HTTP 500" in r.error and "attempt 3 of 3" in r.error for r in failed)
    assert all(r.label is None and r.attempts == 3 for r in failed)
    assert run.metrics.errors == 4 and run.metrics.answered == len(items) - 4

    # The server recovers; the same command asks only the four failed items again.
    standin.faults = lambda prompt, attempt: "ok"
    res2 = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", **opts)
    assert res2.requests_sent == 4 and res2.skipped == len(items) - 4 and res2.errors == 0
    run = load_run(res.path)
    lines = _answered_lines(run)
    assert len(lines) == len(items) and set(lines.values()) == {1}
    assert len(run.attempts) == len(items) + 4  # the four error lines stay, superseded


def test_api_key_never_reaches_a_written_file(standin, isolated_cache, tmp_path, monkeypatch):
    key = "sk-test-DoNotLeak-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    items = yn_items(6)
    bad = {prompt_of(it) for it in items[:2]}
    standin.faults = lambda prompt, attempt: "401" if prompt in bad else "ok"
    # A 401 means every request would fail: the run stops at once and says how to go on.
    with pytest.raises(BackendUnavailable, match="refuses every request") as info:
        run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "run",
                      model_options={"base_url": standin.url}, retry_base=0.001, max_attempts=2, concurrency=1)
    assert key not in str(info.value) and "[redacted]" in str(info.value)
    # The key was really used (so its absence below means something) and the 401 answers echoed it.
    assert f"Bearer {key}" in standin.auth_headers
    run = load_run(tmp_path / "run")
    errs = [r.error for r in run.responses if r.error]
    assert len(errs) == 1 and "HTTP 401" in errs[0] and "[redacted]" in errs[0]
    assert len(run.responses) < len(items)  # the rest was not asked
    written = list((tmp_path / "run").rglob("*")) + list(isolated_cache.rglob("*"))
    assert any(p.name == "responses.sqlite" for p in written)
    for p in written:
        if p.is_file():
            data = p.read_bytes()
            assert key.encode() not in data, p
            assert b"DoNotLeak" not in data, p
    assert "api_key" not in json.dumps(run.manifest.to_dict())


def test_run_benchmark_waits_the_retry_after_the_server_asks_for_and_no_longer_than_the_cap(
        standin, isolated_cache, tmp_path):
    items = yn_items(2, variants=("v_1",))
    standin.faults = lambda prompt, attempt: "429" if attempt <= 2 else "ok"
    standin.retry_after = "0.8"
    # Without Retry-After the backoff would be at most retry_base * 2 = 0.002 s.
    res = run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=items, out=tmp_path / "run",
                        model_options={"base_url": standin.url}, retry_base=0.001, retry_cap=5.0, max_attempts=3)
    assert res.errors == 0 and res.requests_sent == 6
    for it in items:
        t = standin.arrivals[prompt_of(it)]
        gaps = [b - a for a, b in zip(t, t[1:])]
        # Lower bound: Retry-After honoured.  Upper bound: far below a second back-off round; the slack
        # absorbs a loaded 2-core CI machine.
        assert len(gaps) == 2 and all(0.8 <= g < 0.8 * 1.1 + 3.0 for g in gaps), gaps

    # A Retry-After longer than --retry-cap waits the cap, so that a run always ends.
    standin.attempts.clear()
    standin.arrivals.clear()
    standin.retry_after = "30"
    res = run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=items, out=tmp_path / "run2",
                        model_options={"base_url": standin.url}, retry_base=0.001, retry_cap=0.3, max_attempts=2,
                        cache=False)
    assert res.errors == 2 and res.requests_sent == 4
    for it in items:
        a, b = standin.arrivals[prompt_of(it)]
        assert 0.3 <= b - a < 10.0  # the cap (0.3 s), nowhere near the 30 s asked for


def test_manifest_records_token_parameters_but_no_credential(standin, isolated_cache, tmp_path):
    key = "sk-test-OptionNoLeak-0123456789abcdef"
    from causalgraph.errors import ConfigError

    opts = {"base_url": standin.url, "api_key": key, "max_tokens_param": "max_completion_tokens"}
    with pytest.raises(ConfigError, match="hf_token looks like a credential"):
        run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=yn_items(2, variants=("v_1",)),
                      out=tmp_path / "r", model_options={**opts, "hf_token": "hf_secret_value"})
    res = run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=yn_items(2, variants=("v_1",)),
                        out=tmp_path / "r", model_options=opts, max_tokens=5)
    assert res.errors == 0 and f"Bearer {key}" in standin.auth_headers
    run = load_run(tmp_path / "r")
    opts = run.manifest.parameters["model_options"]
    assert opts == {"base_url": standin.url, "max_tokens_param": "max_completion_tokens"}
    for p in (tmp_path / "r").rglob("*"):
        if p.is_file():
            assert b"OptionNoLeak" not in p.read_bytes() and b"hf_secret_value" not in p.read_bytes(), p


def test_a_login_inside_the_base_url_reaches_the_server_and_no_written_file(standin, isolated_cache, tmp_path):
    # Issue #13: http://user:KEY@host/v1 was written verbatim into manifest.json.
    secret = "KEY-DoNotStore-77"
    login_url = standin.url.replace("http://", f"http://user:{secret}@")
    items = yn_items(4)
    standin.faults = lambda prompt, attempt: "500" if prompt == prompt_of(items[0]) else "ok"
    res = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "run",
                        model_options={"base_url": login_url}, retry_base=0.001, retry_cap=0.01, max_attempts=2)
    assert res.errors == 1 and res.written == len(items)
    assert standin.auth_headers and all(h.startswith("Basic ") for h in standin.auth_headers)
    run = load_run(tmp_path / "run")
    assert run.manifest.parameters["model_options"]["base_url"] == standin.url
    assert run.manifest.parameters["backend_identity"]["base_url"] == standin.url
    written = [p for p in list((tmp_path / "run").rglob("*")) + list(isolated_cache.rglob("*")) if p.is_file()]
    assert any(p.name == "responses.sqlite" for p in written)
    for p in written:
        assert secret.encode() not in p.read_bytes(), p
    # The same command with the login resumes the run: the stored URL is the same.
    standin.faults = lambda prompt, attempt: "ok"
    again = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "run",
                          model_options={"base_url": login_url}, retry_base=0.001)
    assert again.requests_sent == 1 and again.skipped == len(items) - 1
