"""Micro-batching: requests made concurrently on an event loop, run together by one worker thread.

The runner calls :meth:`~causalgraph.llm.base.Backend.complete` once per item,
many at a time.  A local engine is far faster on a batch than on the same
requests one by one (transformers pads them into one tensor; vLLM schedules
them together), so :class:`MicroBatcher` queues the requests, and a worker
takes every request waiting — those that arrived while the engine was busy
with the previous batch, plus those arriving within ``wait`` seconds — up to
``max_size``, runs them in one call in a thread (the event loop stays free),
and hands each caller its own result.  Per-item bookkeeping (records, cache,
resume) stays in the runner: a batch only changes when answers arrive.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Callable, Generic, Optional, Sequence, TypeVar, Union

from ..errors import BackendError

__all__ = ["MicroBatcher"]

Req = TypeVar("Req")
Res = TypeVar("Res")

#: What the batch function returns for one request: its result, or the error of that request alone.
Outcome = Union[Res, BaseException]


def _as_backend_error(exc: BaseException) -> BaseException:
    # The runner retries or records BackendErrors; anything else from a model library is one too.
    return exc if isinstance(exc, BackendError) else BackendError(f"{type(exc).__name__}: {exc}")


class MicroBatcher(Generic[Req, Res]):
    """Gather concurrent :meth:`submit` calls into batches for a function that runs a whole batch.

    Parameters
    ----------
    run_batch
        ``run_batch(requests) -> outcomes``, called in a worker thread, never
        twice at once; ``outcomes[i]`` answers ``requests[i]`` and is either
        the result or an exception for that request alone.  An exception
        raised by ``run_batch`` itself fails every request of the batch.
        Exceptions other than :class:`~causalgraph.errors.BackendError`
        reach the callers as one.
    max_size
        The most requests in one batch.
    wait
        Seconds the worker waits for a batch to fill once its first request
        is there (requests already queued are taken at once).

    Examples
    --------
    >>> import asyncio
    >>> sizes = []
    >>> def double(batch):
    ...     sizes.append(len(batch))
    ...     return [2 * x for x in batch]
    >>> async def main():
    ...     b = MicroBatcher(double, max_size=8, wait=0.05)
    ...     try:
    ...         return await asyncio.gather(*[b.submit(i) for i in range(5)])
    ...     finally:
    ...         await b.aclose()
    >>> asyncio.run(main()), sizes
    ([0, 2, 4, 6, 8], [5])
    """

    def __init__(self, run_batch: Callable[[list[Req]], Sequence[Outcome]], *, max_size: int, wait: float):
        if int(max_size) < 1:
            raise ValueError(f"max_size={max_size}: expected an integer >= 1")
        self.run_batch = run_batch
        self.max_size = int(max_size)
        self.wait = max(0.0, float(wait))
        self._queue: Optional[asyncio.Queue] = None
        self._worker: Optional[asyncio.Task] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        # Held by the thread running a batch: a batch left running by an event loop that ended (or by a
        # caller that gave up) must finish before another starts; engines are not re-entrant.
        self._thread_lock = threading.Lock()

    def _run_locked(self, requests: list[Req]) -> Sequence[Outcome]:
        with self._thread_lock:
            outcomes = self.run_batch(requests)
        if len(outcomes) != len(requests):
            raise BackendError(f"the batch function returned {len(outcomes)} results for {len(requests)} requests")
        return outcomes

    async def _collect(self) -> list[tuple[Req, asyncio.Future]]:
        assert self._queue is not None
        batch = [await self._queue.get()]
        while len(batch) < self.max_size and not self._queue.empty():
            batch.append(self._queue.get_nowait())  # what queued up while the last batch ran
        deadline = time.monotonic() + self.wait
        while len(batch) < self.max_size:
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                break
            try:
                batch.append(await asyncio.wait_for(self._queue.get(), timeout))
            except asyncio.TimeoutError:
                break
        return batch

    async def _run_worker(self) -> None:
        while True:
            batch = await self._collect()
            live = [(req, fut) for req, fut in batch if not fut.cancelled()]
            if not live:
                continue
            try:
                outcomes = await asyncio.to_thread(self._run_locked, [req for req, _ in live])
            except asyncio.CancelledError:  # closed while the batch runs: its callers get no answer
                for _, fut in live:
                    if not fut.done():
                        fut.set_exception(BackendError("the backend was closed while this request ran"))
                raise
            except Exception as exc:  # delivered to every waiting request, not swallowed
                for _, fut in live:
                    if not fut.done():
                        fut.set_exception(_as_backend_error(exc))
                continue
            for (_, fut), out in zip(live, outcomes):
                if fut.done():  # its caller gave up (timeout, cancelled run)
                    continue
                if isinstance(out, BaseException):
                    fut.set_exception(_as_backend_error(out))
                else:
                    fut.set_result(out)

    async def submit(self, request: Req) -> Res:
        """Queue ``request`` for the next batch and wait for its result."""
        loop = asyncio.get_running_loop()
        if self._queue is None or self._loop is not loop:
            # A new event loop (another asyncio.run with the same backend): a new queue and worker;
            # the engine behind run_batch is kept.
            self._queue = asyncio.Queue()
            self._worker = asyncio.ensure_future(self._run_worker())
            self._loop = loop
        fut = loop.create_future()
        await self._queue.put((request, fut))
        return await fut

    async def aclose(self) -> None:
        """Stop the worker, fail what is still queued, and wait for a batch still running in its thread."""
        worker, queue, loop = self._worker, self._queue, self._loop
        self._worker, self._queue, self._loop = None, None, None
        # A worker of an event loop that has ended went with it; its queue's futures cannot be resolved.
        if worker is not None and loop is asyncio.get_running_loop():
            worker.cancel()
            try:
                await worker
            except (asyncio.CancelledError, Exception):
                pass
            while queue is not None and not queue.empty():
                _, fut = queue.get_nowait()
                if not fut.done():
                    fut.set_exception(BackendError("the backend was closed before this request ran"))
        # After this, the caller may free the engine: no thread is using it.
        await asyncio.to_thread(self._thread_lock.acquire)
        self._thread_lock.release()
