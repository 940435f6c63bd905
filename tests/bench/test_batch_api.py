"""The OpenAI Batch API path, end to end.

These tests run the real ``openai`` client pointed at a LOCAL STAND-IN for
the Files and Batches endpoints (tests/llm_standin.py on 127.0.0.1), not at
OpenAI: the stand-in stores uploads, creates batches, reports them
``in_progress`` for a set number of polls, then answers every request line
and writes output and error files the way the Batch API documents them
(output lines in another order than the input).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from causalgraph.bench import batch as batch_mod
from causalgraph.bench.batch import batch_status, collect_batch, submit_batch
from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.config import RunConfig
from causalgraph.runlog.store import load_run
from causalgraph.errors import ConfigError

from bench_helpers import YN_TASK, prompt_of, yn_items

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(120)]


def _config(standin, out, **kw):
    return RunConfig(task=YN_TASK, variants=["v_1", "v_2"], model="openai/standin-model", out=str(out),
                     temperature=None, model_options={"base_url": standin.url}, **kw)


def test_submit_batch_records_the_batch_before_returning_and_collect_ingests_once(standin, isolated_cache, tmp_path):
    standin.batch_polls = 2
    items = yn_items(10)
    sub = submit_batch(_config(standin, tmp_path / "run"), items=items)
    assert sub.requests == 20 and len(sub.batch_ids) == 1 and standin.batch_creates == 1
    ledger = json.loads((tmp_path / "run" / "batches.json").read_text())
    entry = ledger["batches"][0]
    assert entry["state"] == "submitted" and entry["batch_id"] == sub.batch_ids[0]
    sent = (tmp_path / "run" / entry["input_path"]).read_text().splitlines()
    assert len(sent) == 20 and json.loads(sent[0])["url"] == "/v1/chat/completions"
    assert "temperature" not in json.loads(sent[0])["body"]  # the provider's default, as in the paper

    # First poll: still running; nothing is written.
    c1 = collect_batch(tmp_path / "run")
    assert c1.pending == 1 and c1.ingested == 0 and not (tmp_path / "run" / "responses.jsonl").exists()
    # A live run meanwhile leaves the waiting items alone.
    live = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "run",
                         temperature=None, model_options={"base_url": standin.url})
    assert live.requests_sent == 0 and standin.chat_calls == 0
    assert live.waiting_in_batch == live.skipped == 20  # counted for the caller, not printed by the library

    c2 = collect_batch(tmp_path / "run")
    assert c2.pending == 0 and c2.ingested == 20 and c2.errors == 0
    run = load_run(tmp_path / "run")
    assert Counter(r.item_id for r in run.attempts) == Counter(it.id for it in items)
    assert {r.source for r in run.responses} == {"batch"}
    assert all(r.label == "yes" and r.rule == "tag" for r in run.responses)
    assert run.metrics.variants["v_1"]["recall"] == 1.0 and run.metrics.batch_requests == 20

    # Collecting again (an interrupted collect re-run) adds nothing.
    c3 = collect_batch(tmp_path / "run")
    assert c3.ingested == 0 and len(load_run(tmp_path / "run").attempts) == 20
    assert [b["state"] for b in batch_status(tmp_path / "run")] == ["collected"]

    # The results went into the response cache: a live run elsewhere sends nothing.
    again = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "live",
                          temperature=None, model_options={"base_url": standin.url})
    assert again.requests_sent == 0 and again.cache_hits == 20


def test_collect_batch_prices_tokens_at_the_batch_discount(standin, isolated_cache, tmp_path):
    standin.batch_polls = 1
    items = yn_items(4)
    submit_batch(_config(standin, tmp_path / "run"), items=items)
    collect_batch(tmp_path / "run", wait=True, poll_interval=0.01, timeout=10,
                  prices={"standin-model": {"input": 1_000_000.0, "output": 2_000_000.0}})
    run = load_run(tmp_path / "run")
    # The stand-in counts words: the prompt's, and one for "<Answer>Yes</Answer>"; the Batch API bills half.
    expected = {it.id: (len(prompt_of(it).split()) * 1.0 + 1 * 2.0) / 2 for it in items}
    assert {r.item_id: r.cost_usd for r in run.responses} == pytest.approx(expected)
    assert run.metrics.cost_usd == pytest.approx(sum(expected.values()))


def test_collect_batch_records_failed_lines_and_a_live_run_fills_only_those(standin, isolated_cache, tmp_path):
    standin.batch_polls = 1
    standin.batch_error_every = 4
    items = yn_items(10)
    submit_batch(_config(standin, tmp_path / "run"), items=items)
    c = collect_batch(tmp_path / "run", wait=True, poll_interval=0.01, timeout=10)
    assert c.pending == 0 and c.ingested == 20 and c.errors == 5
    run = load_run(tmp_path / "run")
    errs = [r for r in run.responses if r.error]
    assert len(errs) == 5 and all("HTTP 500" in r.error for r in errs)
    live = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", items=items, out=tmp_path / "run",
                         temperature=None, model_options={"base_url": standin.url})
    assert live.requests_sent == 5 and live.skipped == 15
    run = load_run(tmp_path / "run")
    answered = Counter(r.item_id for r in run.attempts if not r.error)
    assert len(answered) == 20 and set(answered.values()) == {1}


def test_submit_batch_after_a_crash_finds_the_created_batch_instead_of_creating_another(
        standin, isolated_cache, tmp_path, monkeypatch):
    items = yn_items(4)
    real_advance = batch_mod._advance

    def crash_after_create(client, store, ledger, entry, token):
        # Create the batch on the server, then die before the ledger records its id.
        real_create = client.create

        def create(*a, **kw):
            real_create(*a, **kw)
            raise KeyboardInterrupt("killed")

        monkeypatch.setattr(client, "create", create)
        return real_advance(client, store, ledger, entry, token)

    monkeypatch.setattr(batch_mod, "_advance", crash_after_create)
    with pytest.raises(KeyboardInterrupt):
        submit_batch(_config(standin, tmp_path / "run"), items=items)
    ledger = json.loads((tmp_path / "run" / "batches.json").read_text())
    assert ledger["batches"][0]["state"] == "uploaded" and standin.batch_creates == 1
    monkeypatch.setattr(batch_mod, "_advance", real_advance)

    sub = submit_batch(_config(standin, tmp_path / "run"), items=items)
    assert standin.batch_creates == 1 and standin.file_uploads == 1
    assert sub.batch_ids == ["batch_1"] and sub.requests == 0
    c = collect_batch(tmp_path / "run", wait=True, poll_interval=0.01, timeout=10)
    assert c.ingested == 8 and len(load_run(tmp_path / "run").attempts) == 8


def test_submit_batch_refuses_a_model_that_is_not_openai(tmp_path):
    cfg = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/oracle", out=str(tmp_path / "r"))
    with pytest.raises(ConfigError, match=r"Batch API needs a backend with batch support \(openai/<model>\)"):
        submit_batch(cfg, items=yn_items(2, variants=("v_1",)))


def test_submit_batch_error_echoing_the_key_is_redacted_and_the_same_call_resumes(standin, isolated_cache, tmp_path,
                                                                                 monkeypatch):
    from causalgraph.errors import BackendError

    key = "sk-test-BatchNoLeak-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    standin.refuse_batches = True
    out = tmp_path / "run"
    from causalgraph.llm.openai_batch import OpenAIBatchClient

    monkeypatch.setattr(OpenAIBatchClient, "find", lambda *a, **k: None)
    items = yn_items(4)
    # Before the fix the SDK's AuthenticationError escaped with the key in its text (a CLI traceback).
    with pytest.raises(BackendError, match="HTTP 401") as info:
        submit_batch(_config(standin, out), items=items)
    assert key not in str(info.value) and "[redacted]" in str(info.value)
    assert f"Bearer {key}" in standin.auth_headers  # the key was sent, and echoed back
    ledger = json.loads((out / "batches.json").read_text())
    assert [b["state"] for b in ledger["batches"]] == ["uploaded"]  # the upload is kept for the next try
    standin.refuse_batches = False
    sub = submit_batch(_config(standin, out), items=items)
    assert len(sub.batch_ids) == 1 and standin.file_uploads == 1 and standin.batch_creates == 1
    for p in list(out.rglob("*")) + list(isolated_cache.rglob("*")):
        if p.is_file():
            assert b"BatchNoLeak" not in p.read_bytes(), p


def test_batch_run_stores_the_base_url_without_login_and_collects_with_the_login_from_the_environment(
        standin, isolated_cache, tmp_path, monkeypatch):
    secret = "KEY-BatchLogin-55"
    login_url = standin.url.replace("http://", f"http://user:{secret}@")
    standin.batch_polls = 1
    cfg = RunConfig(task=YN_TASK, variants=["v_1"], model="openai/standin-model", out=str(tmp_path / "run"),
                    temperature=None, model_options={"base_url": login_url})
    submit_batch(cfg, items=yn_items(3, variants=("v_1",)))
    monkeypatch.setenv("OPENAI_BASE_URL", login_url)  # the login comes back from the environment only
    res = collect_batch(tmp_path / "run")
    assert res.pending == 0 and res.ingested == 3
    assert all(h.startswith("Basic ") for h in standin.auth_headers)
    assert load_run(tmp_path / "run").manifest.parameters["model_options"]["base_url"] == standin.url
    for p in (tmp_path / "run").rglob("*"):
        if p.is_file():
            assert secret.encode() not in p.read_bytes(), p


# -- issue 35, item 17: a batch that never reached the server -----------------------------------------------------

def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again on leaving: nothing listens there


def _cli(argv, capsys):
    from causalgraph.cli import main

    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _submit_args(out, *extra):
    return ["bench", "batch", "submit", "--data", "sample", "--task", "reachability", "--variant", "A_1",
            "--model", "openai/m", "--out", str(out), *extra]


def test_a_batch_that_never_reached_the_server_is_named_so_by_submit_status_and_collect(isolated_cache, tmp_path,
                                                                                        capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    port = _closed_port()
    out = tmp_path / "run"
    rc, _, err = _cli(_submit_args(out, "--base-url", f"http://127.0.0.1:{port}/v1"), capsys)
    assert rc == 2 and err.count("\n") == 1, err
    assert f"Batch API: connection to 127.0.0.1:{port} failed (Connection error.)" in err
    rc, table, _ = _cli(["bench", "batch", "status", str(out), "--format", "json"], capsys)
    (entry,) = json.loads(table)
    assert rc == 0 and (entry["state"], entry["batch_id"]) == ("prepared", None)
    assert entry["status"] == "never submitted: `bench batch collect` submits it"
    rc, _, err = _cli(["bench", "batch", "collect", str(out)], capsys)
    assert rc == 2 and err.count("\n") == 1, err
    assert (f"batch b0001 of {out} was never submitted and submitting it failed: Batch API: connection to "
            f"127.0.0.1:{port} failed") in err


def test_the_batch_commands_honour_the_offline_setting_before_sending_anything(isolated_cache, tmp_path, capsys,
                                                                              monkeypatch, standin):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("CAUSALGRAPH_OFFLINE", "1")
    rc, _, err = _cli(_submit_args(tmp_path / "hosted"), capsys)
    assert rc == 2 and err == ("causalgraph bench: error: CAUSALGRAPH_OFFLINE is set: bench batch submit would "
                               "contact api.openai.com:443; nothing was sent (unset CAUSALGRAPH_OFFLINE to reach it)\n")
    assert not (tmp_path / "hosted").exists()
    # A server on this machine is not the network: offline, the stand-in is reached as before.
    standin.html_everywhere = True  # the upload is refused, leaving a batch never submitted
    out = tmp_path / "run"
    rc, _, err = _cli(_submit_args(out, "--base-url", standin.url), capsys)
    assert rc == 2 and "file upload request is not the OpenAI API" in err and standin.file_uploads == 0
    uploads = len(standin.requests)
    assert uploads >= 1
    # The same ledger pointed at a hosted API: collect would submit it, and says so instead.
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["parameters"]["model_options"]["base_url"] = "https://api.example.org/v1"
    (out / "manifest.json").write_text(json.dumps(manifest))
    rc, _, err = _cli(["bench", "batch", "collect", str(out)], capsys)
    assert rc == 2 and err == ("causalgraph bench: error: CAUSALGRAPH_OFFLINE is set: bench batch collect (which "
                               "submits batch b0001, never submitted) would contact api.example.org:443; nothing was "
                               "sent (unset CAUSALGRAPH_OFFLINE to reach it)\n")
    assert len(standin.requests) == uploads
