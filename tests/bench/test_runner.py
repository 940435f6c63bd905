"""The runner with the deterministic mock backends (no network)."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter

import pytest

from causalgraph.bench.runner import arun_benchmark, run_benchmark
from causalgraph.bench.config import RunConfig, default_run_dir
from causalgraph.bench.retry import backoff_delay
from causalgraph.runlog.store import load_run
from causalgraph.datasets.fetch import sha256_file
from causalgraph.errors import ConfigError
from causalgraph.llm.base import Backend, Completion

from bench_helpers import YN_TASK, prompt_of, yn_items


def test_run_benchmark_oracle_scores_one_on_real_corri_items(climatecause_path, isolated_cache, tmp_path):
    res = run_benchmark("corri", "0_1,0_2,0_3", "mock/oracle", data=str(climatecause_path), limit=30,
                        out=tmp_path / "run")
    run = load_run(res.path)
    # Repeated event pairs with the same gold share one request at temperature 0.
    distinct = len({(r.variant, r.prompt_sha256, r.gold) for r in run.responses})
    assert len(run.responses) == 90 and res.requests_sent == distinct and res.cache_hits == 90 - distinct
    for v in ("0_1", "0_2", "0_3"):
        m = run.metrics.variants[v]
        assert (m["precision"], m["recall"], m["f1"], m["parse_failures"]) == (1.0, 1.0, 1.0, 0)
    # The oracle answers in each variant's own wording, and the parser maps it back.
    words = {r.variant: set() for r in run.responses}
    for r in run.responses:
        words[r.variant].add(r.response)
    assert words["0_2"] == {"<Answer>same</Answer>", "<Answer>opposite</Answer>"}
    assert words["0_3"] == {"<Answer>increase</Answer>", "<Answer>decrease</Answer>"}
    first = run.responses[0]
    assert first.task == "corri" and first.gold in ("positive", "negative")
    assert first.meta["statement_id"].startswith("cc-") and first.meta["cause"]
    assert run.manifest.dataset["sha256"] == sha256_file(climatecause_path)
    assert run.manifest.parameters["temperature"] == 0.0 and run.manifest.items == {"0_1": 30, "0_2": 30,
                                                                                          "0_3": 30}


def test_run_benchmark_rerun_resumes_and_a_new_run_is_served_by_the_cache(isolated_cache, tmp_path):
    items = yn_items(12)
    first = run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/oracle", items=items, out=tmp_path / "a")
    assert (first.requests_sent, first.cache_hits, first.written) == (24, 0, 24)
    again = run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/oracle", items=items, out=tmp_path / "a")
    assert (again.requests_sent, again.cache_hits, again.skipped, again.written) == (0, 0, 24, 0)
    assert json.loads((tmp_path / "a" / "metrics.json").read_text())["requests_sent"] == 0
    fresh = run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/oracle", items=items, out=tmp_path / "b")
    assert (fresh.requests_sent, fresh.cache_hits) == (0, 24)
    assert {r.source for r in load_run(tmp_path / "b").responses} == {"cache"}
    assert load_run(tmp_path / "b").metrics.variants["v_1"]["f1"] == 1.0


def test_run_benchmark_cache_is_keyed_by_model_and_parameters(isolated_cache, tmp_path):
    items = yn_items(4, variants=("v_1",))
    run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=items, out=tmp_path / "a",
                  model_options={"text": "Yes"})
    other_text = run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=items, out=tmp_path / "b",
                               model_options={"text": "No"})
    assert other_text.requests_sent == 4 and other_text.cache_hits == 0
    other_tokens = run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=items, out=tmp_path / "c",
                                 model_options={"text": "Yes"}, max_tokens=5)
    assert other_tokens.requests_sent == 4
    no_cache = run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=items, out=tmp_path / "d",
                             model_options={"text": "Yes"}, cache=False)
    assert no_cache.requests_sent == 4
    assert [r.label for r in load_run(tmp_path / "b").responses] == ["no"] * 4


def test_run_benchmark_refuses_a_directory_of_another_model(isolated_cache, tmp_path):
    items = yn_items(2, variants=("v_1",))
    run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=tmp_path / "a")
    with pytest.raises(ConfigError, match=r"different .*model \('mock/oracle' there, 'mock/constant' now\)"):
        run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=items, out=tmp_path / "a")
    with pytest.raises(ConfigError, match="temperature"):
        run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=tmp_path / "a", temperature=0.7)


def test_run_benchmark_flaky_backend_stops_after_max_attempts(isolated_cache, tmp_path):
    items = yn_items(3, variants=("v_1",))
    res = run_benchmark(YN_TASK, ["v_1"], "mock/flaky", items=items, out=tmp_path / "a",
                        model_options={"pattern": "xsxsxsxs", "retry_after": 0.001}, max_attempts=3,
                        retry_base=0.001, retry_cap=0.01)
    assert res.errors == 3 and res.requests_sent == 9
    run = load_run(res.path)
    assert all("attempt 3 of 3" in r.error for r in run.responses)
    # Nothing answered: no score (issue 35, 5), not recall 0.
    v = run.metrics.variants["v_1"]
    assert v["errors"] == 3 and v["n_scored"] == 0 and v["recall"] is None and v["f1"] is None


def test_run_benchmark_permanent_error_is_not_retried(isolated_cache, tmp_path):
    res = run_benchmark(YN_TASK, ["v_1"], "mock/flaky", items=yn_items(2, variants=("v_1",)), out=tmp_path / "a",
                        model_options={"pattern": "f"}, max_attempts=5)
    assert res.requests_sent == 2 and res.errors == 2
    assert all("HTTP 400" in r.error for r in load_run(res.path).responses)


class _CountingBackend(Backend):
    provider = "counting"

    def __init__(self):
        super().__init__("c")
        self.in_flight = 0
        self.peak = 0

    async def complete(self, request):
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        return Completion(text="Yes", prompt_tokens=3, completion_tokens=1)


def test_arun_benchmark_never_exceeds_the_concurrency_limit(isolated_cache, tmp_path):
    backend = _CountingBackend()
    cfg = RunConfig(task=YN_TASK, variants=["v_1", "v_2"], model="counting/c", out=str(tmp_path / "a"),
                    concurrency=3, cache=False)
    res = asyncio.run(arun_benchmark(cfg, items=yn_items(12), backend=backend, progress=False))
    assert backend.peak == 3 and res.requests_sent == 24


def test_run_benchmark_prices_tokens_from_an_overriding_table(isolated_cache, tmp_path):
    items = yn_items(4, variants=("v_1",))
    res = run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=items,
                        out=tmp_path / "a", model_options={"text": "Yes"},
                        prices={"constant": {"input": 1_000_000.0, "output": 2_000_000.0}})
    run = load_run(res.path)
    tok_in = sum(r.usage["prompt_tokens"] for r in run.responses)
    tok_out = sum(r.usage["completion_tokens"] for r in run.responses)
    # The mocks count words: the prompt's, and one for "Yes".
    assert tok_in == sum(len(prompt_of(it).split()) for it in items)
    assert tok_out == 4 and run.metrics.tokens_in == tok_in
    assert run.metrics.cost_usd == pytest.approx(tok_in * 1.0 + tok_out * 2.0)


def test_run_benchmark_limit_takes_the_first_items_of_each_variant(isolated_cache, tmp_path):
    res = run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/oracle", items=yn_items(12), out=tmp_path / "a", limit=5)
    ids = Counter(r.variant for r in load_run(res.path).responses)
    assert ids == {"v_1": 5, "v_2": 5}


def test_run_benchmark_rejects_items_of_another_variant(tmp_path):
    with pytest.raises(ConfigError, match="variant 'v_2'"):
        run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(2), out=tmp_path / "a")


def test_backoff_delay_is_bounded_and_honours_retry_after():
    rng = random.Random(1)
    for attempt in range(1, 12):
        d = backoff_delay(attempt, base=0.5, cap=8.0, rng=rng)
        assert 0 <= d <= min(8.0, 0.5 * 2 ** (attempt - 1))
    assert 3.0 <= backoff_delay(1, base=0.5, cap=8.0, retry_after=3.0, rng=rng) <= 3.3
    assert backoff_delay(1, base=0.5, cap=8.0, retry_after=100.0, rng=rng) == 8.0


def test_default_run_dir_is_the_same_for_the_same_command():
    assert default_run_dir("corri", "openai/gpt-5.1", ["0_1"]) == default_run_dir("corri", "openai/gpt-5.1", ["0_1"])
    long = default_run_dir("corri", "mock/oracle", [f"V_{i}" for i in range(20)])
    assert len(long.name) < 80


def test_run_benchmark_shares_answers_of_identical_prompts_only_at_temperature_zero(climatecause_path,
                                                                                   isolated_cache, tmp_path):
    from causalgraph import load_climatecause
    from causalgraph.tasks.climatecause import items as build_items

    its = build_items(load_climatecause(climatecause_path), "corri", "0_1")
    distinct = len({it.prompt for it in its})
    assert distinct < len(its)  # CorrI repeats event pairs across statements
    greedy = run_benchmark("corri", ["0_1"], "mock/constant", data=str(climatecause_path), out=tmp_path / "t0",
                           model_options={"text": "positive"}, temperature=0.0)
    assert greedy.requests_sent == distinct and greedy.cache_hits == len(its) - distinct
    assert greedy.written == len(its)
    sampled = run_benchmark("corri", ["0_1"], "mock/constant", data=str(climatecause_path), out=tmp_path / "td",
                            model_options={"text": "positive"}, temperature=None)
    assert sampled.requests_sent == len(its)
    again = run_benchmark("corri", ["0_1"], "mock/constant", data=str(climatecause_path), out=tmp_path / "td2",
                          model_options={"text": "positive"}, temperature=None)
    assert again.requests_sent == 0 and again.cache_hits == len(its)


def test_run_benchmark_keeps_answers_a_parser_rejects_as_parse_failures(isolated_cache, tmp_path):
    from causalgraph.tasks import Binary, Task, register_task
    from causalgraph.errors import ParseError

    def strict(text, variant):
        raise ParseError(f"cannot read {text!r}")

    register_task(Task(name="strict-test", answers=Binary(labels=("yes", "no"), positive="yes"), parse=strict,
                           build_items=lambda c, v: [], list_variants=lambda: ["v_1"], default_data="climatecause"),
                  replace=True)
    its = [it.__class__(**{**it.to_dict(), "task": "strict-test"}) for it in yn_items(3, variants=("v_1",))]
    res = run_benchmark("strict-test", ["v_1"], "mock/constant", items=its, out=tmp_path / "a",
                        model_options={"text": "Yes"})
    run = load_run(res.path)
    assert res.errors == 0 and run.metrics.variants["v_1"]["parse_failures"] == 3
    assert all(r.response == "Yes" and r.rule.startswith("parse_error: cannot read") for r in run.responses)


def test_arun_benchmark_progress_bar_shows_tokens_and_cost(isolated_cache, tmp_path, capsys):
    cfg = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/oracle", out=str(tmp_path / "a"))
    asyncio.run(arun_benchmark(cfg, items=yn_items(4, variants=("v_1",)), progress=True))
    err = capsys.readouterr().err
    assert "4/4" in err and "item/s" in err and "tok in" in err and "$0.0000" in err
    # tqdm's [elapsed<remaining, rate] block: the ETA is the part after '<'.
    import re
    assert re.search(r"\[\d\d:\d\d<\d\d:\d\d, +[\d.?]+ ?item/s", err), err


def test_constant_answers_score_the_paper_label_distribution(climatecause_path, isolated_cache, tmp_path):
    # §6.1: membership yes 115 / no 397; position start 32, middle 48, end 35, none 397 (512 events).
    yes = run_benchmark("ccr-member", ["SN_5"], "mock/constant", data=str(climatecause_path), out=tmp_path / "m",
                        model_options={"text": "Yes"})
    m = yes.metrics.variants["SN_5"]
    assert (m["items"], m["precision"], m["recall"]) == (512, 115 / 512, 1.0)
    start = run_benchmark("ccr-position", ["ML_4"], "mock/constant", data=str(climatecause_path), out=tmp_path / "p",
                          model_options={"text": "<Answer>start</Answer>"})
    p = start.metrics.variants["ML_4"]
    assert {k: v["support"] for k, v in p["per_class"].items()} == {"start": 32, "middle": 48, "end": 35, "none": 397}
    assert p["per_class"]["start"]["precision"] == 32 / 512 and p["accuracy"] == 32 / 512
    # The authors' start-against-none figure keeps the 32 start and 397 none events only.
    assert p["authors"]["n"] == 32 + 397 and p["authors"]["precision"] == 32 / 429


class _ToggleBackend(Backend):
    provider = "toggle"

    def __init__(self, broken: bool):
        super().__init__("t")
        self.broken = broken
        self.calls = 0

    async def complete(self, request):
        from causalgraph.errors import BackendUnavailable

        self.calls += 1
        await asyncio.sleep(0.001)
        if self.broken:
            raise BackendUnavailable("HTTP 401: invalid key")
        return Completion(text="Yes", prompt_tokens=3, completion_tokens=1)


def test_arun_benchmark_stops_when_the_backend_refuses_everything_and_resumes_later(isolated_cache, tmp_path):
    from causalgraph.errors import BackendUnavailable

    cfg = RunConfig(task=YN_TASK, variants=["v_1", "v_2"], model="toggle/t", out=str(tmp_path / "a"),
                    concurrency=2, max_attempts=5)
    broken = _ToggleBackend(broken=True)
    with pytest.raises(BackendUnavailable, match=r"refuses every request \(HTTP 401: invalid key\).* resumes"):
        asyncio.run(arun_benchmark(cfg, items=yn_items(20), backend=broken, progress=False))
    assert broken.calls <= 2  # not 40 items x 5 attempts
    first = load_run(tmp_path / "a")
    assert 1 <= len(first.attempts) <= 2 and all(r.error for r in first.attempts)
    assert first.metrics.pending == 40 - len(first.attempts) and first.metrics.items == len(first.attempts)
    fixed = _ToggleBackend(broken=False)
    res = asyncio.run(arun_benchmark(cfg, items=yn_items(20), backend=fixed, progress=False))
    assert res.requests_sent == 40 and res.errors == 0
    answered = Counter(r.item_id for r in load_run(tmp_path / "a").attempts if not r.error)
    assert len(answered) == 40 and set(answered.values()) == {1}


@pytest.mark.parametrize("option, value, message", [
    ("request_timeout", -1.0, r"--timeout -1\.0: expected a number of seconds > 0 \(0: no limit\)"),
    ("retry_base", -0.5, r"--retry-base -0\.5: expected a number of seconds >= 0"),
    ("retry_cap", float("nan"), r"--retry-cap nan: expected a number of seconds >= 0"),
    ("max_connection_failures", -1, r"--max-connection-failures -1: expected an integer >= 0 \(0: never stop\)"),
])
def test_run_config_refuses_negative_times_and_counts(option, value, message):
    from causalgraph.bench.config import RunConfig
    from causalgraph.errors import ConfigError

    with pytest.raises(ConfigError, match=message):
        RunConfig(task="t", variants=["v"], model="mock/oracle", **{option: value}).validate()


def test_run_benchmark_works_where_an_event_loop_is_already_running_as_in_a_notebook(isolated_cache, tmp_path):
    items = yn_items(4, variants=("v_1",))

    async def cell():
        # A notebook cell runs inside Jupyter's loop; asyncio.run() there raises RuntimeError.
        return run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=tmp_path / "nb")

    res = asyncio.run(cell())
    assert res.written == 4 and res.metrics.variants["v_1"]["f1"] == 1.0
    # An error inside reaches the caller as itself.
    async def failing():
        return run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=tmp_path / "nb", limit=0)

    with pytest.raises(ConfigError, match="--limit 0"):
        asyncio.run(failing())


def test_interrupting_a_run_started_inside_an_event_loop_stops_it_instead_of_leaving_it_running(
        isolated_cache, tmp_path):
    import signal
    import threading

    items = yn_items(40, variants=("v_1",))

    async def cell():
        return run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=tmp_path / "nb", concurrency=1,
                             model_options={"latency": 0.1})

    # The notebook's stop button: SIGINT to the main thread, which waits for the run (a kernel's loop runs
    # the cell with Python's own SIGINT handler, so the wait raises KeyboardInterrupt).
    main = threading.main_thread().ident
    responses = tmp_path / "nb" / "responses.jsonl"

    def press_stop():
        import time

        deadline = time.monotonic() + 30
        # Once two answers are written: the run is under way, with 38 still to ask.
        while time.monotonic() < deadline and (
                not responses.is_file() or len(responses.read_bytes().splitlines()) < 2):
            time.sleep(0.02)
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Thread(target=press_stop)
    loop = asyncio.new_event_loop()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.run_until_complete(cell())
    finally:
        timer.join()
        loop.close()
    assert not any(t.name.startswith("causalgraph-run") for t in threading.enumerate())
    done = len((tmp_path / "nb" / "responses.jsonl").read_text().splitlines())
    assert 0 < done < 40
    # The lock went with the cancelled run: the same call resumes and finishes.
    res = run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=tmp_path / "nb")
    assert res.skipped == done and res.written == 40 - done
