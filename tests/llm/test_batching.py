"""MicroBatcher: concurrent submissions gathered into batches, each caller answered on its own."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from causalgraph.errors import BackendError, ConfigError
from causalgraph.llm.batching import MicroBatcher


def test_requests_made_together_form_batches_of_at_most_max_size_in_order():
    seen: list[list[int]] = []

    def square(batch):
        seen.append(list(batch))
        return [x * x for x in batch]

    async def main():
        b = MicroBatcher(square, max_size=4, wait=0.05)
        try:
            return await asyncio.gather(*[b.submit(i) for i in range(10)])
        finally:
            await b.aclose()

    assert asyncio.run(main()) == [i * i for i in range(10)]
    assert [len(s) for s in seen] == [4, 4, 2]
    assert [x for s in seen for x in s] == list(range(10))


def test_requests_arriving_while_a_batch_runs_form_the_next_batch():
    seen: list[list[int]] = []
    started = threading.Event()

    def slow(batch):
        seen.append(list(batch))
        started.set()
        time.sleep(0.3)
        return batch

    async def main():
        b = MicroBatcher(slow, max_size=100, wait=0.0)
        first = asyncio.ensure_future(b.submit(0))
        await asyncio.to_thread(started.wait)  # the engine is busy with [0]
        later = [asyncio.ensure_future(b.submit(i)) for i in range(1, 6)]
        out = await asyncio.gather(first, *later)
        await b.aclose()
        return out

    assert asyncio.run(main()) == list(range(6))
    assert seen == [[0], [1, 2, 3, 4, 5]]


def test_an_error_of_one_request_reaches_only_its_caller_and_a_batch_error_reaches_all():
    def judge(batch):
        if "all" in batch:
            raise RuntimeError("engine died")
        return [ValueError(f"bad {x}") if x == "bad" else x.upper() for x in batch]

    async def main():
        b = MicroBatcher(judge, max_size=8, wait=0.05)
        try:
            one = await asyncio.gather(b.submit("a"), b.submit("bad"), b.submit("c"), return_exceptions=True)
            every = await asyncio.gather(b.submit("x"), b.submit("all"), return_exceptions=True)
            return one, every
        finally:
            await b.aclose()

    one, every = asyncio.run(main())
    assert one[0] == "A" and one[2] == "C"
    assert isinstance(one[1], BackendError) and str(one[1]) == "ValueError: bad bad"
    assert all(isinstance(e, BackendError) and str(e) == "RuntimeError: engine died" for e in every)


def test_a_backend_error_passes_unchanged_and_a_wrong_number_of_results_is_an_error():
    cfg = ConfigError("refused")

    async def main(fn):
        b = MicroBatcher(fn, max_size=8, wait=0.0)
        try:
            return await asyncio.gather(b.submit(1), return_exceptions=True)
        finally:
            await b.aclose()

    assert asyncio.run(main(lambda batch: [BackendError("as is")]))[0].args == ("as is",)
    # A ConfigError is not a BackendError: it reaches the caller as one, naming its type.
    assert str(asyncio.run(main(lambda batch: [cfg]))[0]) == "ConfigError: refused"
    err = asyncio.run(main(lambda batch: []))[0]
    assert isinstance(err, BackendError) and "returned 0 results for 1 requests" in str(err)


def test_two_event_loops_never_run_two_batches_at_once():
    running, overlap = [0], [0]
    lock = threading.Lock()

    def work(batch):
        with lock:
            running[0] += 1
            overlap[0] = max(overlap[0], running[0])
        time.sleep(0.2)
        with lock:
            running[0] -= 1
        return batch

    b = MicroBatcher(work, max_size=4, wait=0.0)

    async def ask(x, timeout=None):
        try:
            return await asyncio.wait_for(b.submit(x), timeout)
        except asyncio.TimeoutError:
            return "gave up"

    # The first loop gives up while its batch still runs; the second loop's batch must wait for it.
    assert asyncio.run(ask(1, timeout=0.05)) == "gave up"
    assert asyncio.run(ask(2)) == 2
    asyncio.run(b.aclose())
    assert overlap[0] == 1


def test_closing_fails_what_is_still_queued_and_waits_for_the_running_batch():
    done = []
    go = threading.Event()

    def work(batch):
        go.wait(5)
        done.append(batch)
        return batch

    async def main():
        b = MicroBatcher(work, max_size=1, wait=0.0)
        first = asyncio.ensure_future(b.submit(1))
        second = asyncio.ensure_future(b.submit(2))
        await asyncio.sleep(0.1)  # [1] runs, [2] waits in the queue
        closing = asyncio.ensure_future(b.aclose())
        await asyncio.sleep(0.1)
        assert not closing.done()  # it waits for the batch still in its thread
        go.set()
        await closing
        return await asyncio.gather(first, second, return_exceptions=True)

    first, second = asyncio.run(main())
    assert done == [[1]]
    assert isinstance(second, BackendError) and "closed before this request ran" in str(second)
    # Closed while its batch ran: the caller is told so, not left waiting.
    assert isinstance(first, BackendError) and "closed while this request ran" in str(first)


def test_max_size_below_one_is_refused():
    with pytest.raises(ValueError, match="max_size=0"):
        MicroBatcher(lambda b: b, max_size=0, wait=0.0)
