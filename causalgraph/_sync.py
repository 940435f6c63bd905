"""Run a coroutine to completion from synchronous code, inside a running event loop too.

``asyncio.run`` refuses to start while an event loop runs in the calling
thread, which is always the case in Jupyter (and in any async application):
``run_benchmark(...)`` in a notebook cell would fail with "asyncio.run()
cannot be called from a running event loop".  There the coroutine runs in a
worker thread with a loop of its own, and the caller waits for it; elsewhere
it is plain ``asyncio.run``.
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
    # A loop runs here (a notebook): give the coroutine a thread and a loop of its own. The worker's
    # exception, KeyboardInterrupt aside, reaches the caller through result().
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="causalgraph-run") as pool:
        return pool.submit(asyncio.run, coro).result()
