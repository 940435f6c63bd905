"""Runs started where an event loop already runs (a notebook): results, errors, interrupts at any moment,
backends that hold loop-bound resources (an HTTP pool) across runs and across the close."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time

import pytest

from causalgraph._core.sync import run_sync
from causalgraph.bench.runner import arun_benchmark, run_benchmark
from causalgraph.bench.config import RunConfig
from causalgraph.llm.mock import OracleBackend
from causalgraph.llm.registry import get_backend

from bench_helpers import YN_TASK, yn_items


def _in_a_running_loop(fn):
    """Call ``fn()`` from a coroutine, as a notebook cell does; Python's own SIGINT handler stays in place."""
    async def cell():
        return fn()

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(cell())
    finally:
        loop.close()


def _workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "causalgraph-run"]


def test_run_sync_returns_and_raises_as_the_coroutine_does_inside_a_running_loop():
    async def ok():
        return "done"

    async def bad():
        raise ValueError("inside")

    assert _in_a_running_loop(lambda: run_sync(ok())) == "done"
    with pytest.raises(ValueError, match="inside"):
        _in_a_running_loop(lambda: run_sync(bad()))
    assert _workers() == []


@pytest.mark.parametrize("delay", [0.0, 0.0005, 0.001, 0.002, 0.004, 0.01, 0.05, 0.2])
def test_an_interrupt_at_any_moment_stops_the_run_before_it_returns(delay, isolated_cache, tmp_path):
    items = yn_items(20, variants=("v_1",))
    out = tmp_path / "r"
    main = threading.main_thread().ident
    timer = threading.Timer(delay, signal.pthread_kill, (main, signal.SIGINT))
    try:
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            _in_a_running_loop(lambda: run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=items, out=out,
                                                      concurrency=1, model_options={"latency": 0.05}))
            time.sleep(5)  # the run ended before the interrupt came: wait here for it
    finally:
        timer.join()
    assert _workers() == []
    lines = out / "responses.jsonl"
    before = lines.read_bytes() if lines.exists() else b""
    time.sleep(0.3)  # nothing goes on writing in the background
    assert (lines.read_bytes() if lines.exists() else b"") == before
    assert len(before.splitlines()) < 20


def test_an_interrupt_while_the_backend_closes_waits_for_the_close(isolated_cache, tmp_path):
    closing = threading.Event()

    class SlowClose(OracleBackend):
        closed = False

        async def aclose(self):
            closing.set()
            await asyncio.sleep(0.5)
            SlowClose.closed = True

    main = threading.main_thread().ident

    def press_stop():
        closing.wait(10)
        signal.pthread_kill(main, signal.SIGINT)

    config = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/oracle", out=str(tmp_path / "r"), cache=False)
    backend = SlowClose()
    stopper = threading.Thread(target=press_stop)

    async def run_owning_the_backend():
        # As run_benchmark does with a backend it made itself: the close is part of the run.
        from causalgraph._core.sync import close_quietly

        try:
            return await arun_benchmark(config, items=yn_items(3, variants=("v_1",)), backend=backend,
                                        progress=False)
        finally:
            await close_quietly(backend.aclose)

    try:
        with pytest.raises(KeyboardInterrupt):
            stopper.start()
            _in_a_running_loop(lambda: run_sync(run_owning_the_backend()))
    finally:
        stopper.join()
    assert SlowClose.closed and _workers() == []


def test_one_openai_backend_serves_two_runs_and_the_annotator_closes_its_own_in_the_runs_loop(
        standin, isolated_cache, tmp_path):
    backend = get_backend("openai/standin-model", base_url=standin.url)
    items = yn_items(3, variants=("v_1",))
    for n in (1, 2):  # a new event loop each time (each call a notebook cell of its own)
        res = _in_a_running_loop(lambda: run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=items,
                                                        backend=backend, out=tmp_path / f"r{n}", cache=False))
        assert (res.written, res.errors) == (3, 0)
    asyncio.run(backend.aclose())

    from causalgraph.apps.annotator import annotate_texts

    standin.answer = lambda body: json.dumps({"causal": False, "abbreviations": None, "relations": []})
    for where in ("script", "cell"):
        call = lambda: annotate_texts(["Rain falls."], "openai/standin-model", out=tmp_path / f"a-{where}",  # noqa: E731
                                      model_options={"base_url": standin.url}, cache=False)
        res = call() if where == "script" else _in_a_running_loop(call)
        assert (res.written, res.errors) == (1, 0)
