"""Run a coroutine to completion from synchronous code, inside a running event loop too.

``asyncio.run`` refuses to start while an event loop runs in the calling
thread, which is always the case in Jupyter (and in any async application):
``run_benchmark(...)`` in a notebook cell would fail with "asyncio.run()
cannot be called from a running event loop".  There the coroutine runs in a
worker thread with a loop of its own, and the caller waits for it; elsewhere
it is plain ``asyncio.run``.  Interrupting the caller (the notebook's stop
button: ``KeyboardInterrupt``) cancels the coroutine and waits for it to wind
down, so no run goes on asking a model in the background.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Coroutine, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """The result of ``coro``, whether or not an event loop is running in this thread.

    Examples
    --------
    >>> async def answer():
    ...     return 42
    >>> run_sync(answer())
    42
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    handle: dict[str, Any] = {}

    async def main() -> T:
        # Where the worker's loop and task are, so that the caller can cancel them.
        handle["loop"], handle["task"] = asyncio.get_running_loop(), asyncio.current_task()
        return await coro

    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="causalgraph-run") as pool:
        future = pool.submit(asyncio.run, main())
        try:
            return future.result()
        except KeyboardInterrupt:
            loop, task = handle.get("loop"), handle.get("task")
            if loop is not None and task is not None:
                loop.call_soon_threadsafe(task.cancel)
            concurrent.futures.wait([future])  # the run's own clean-up (lock, backend) happens first
            raise
