"""Run a coroutine to completion from synchronous code, inside a running event loop too.

``asyncio.run`` refuses to start while an event loop runs in the calling
thread, which is always the case in Jupyter (and in any async application):
``run_benchmark(...)`` in a notebook cell would fail with "asyncio.run()
cannot be called from a running event loop".  There the coroutine runs in a
worker thread with a loop of its own, and the caller waits for it; elsewhere
it is plain ``asyncio.run``.

Interrupting the caller (the notebook's stop button: ``KeyboardInterrupt``)
at any moment cancels the coroutine — or, when the worker has not started it
yet, keeps it from starting — and waits for it to wind down before the
interrupt goes on, so no run is left asking a model in the background.  A
second interrupt during that wait is passed on at once (the worker then
finishes its clean-up on its own).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Coroutine, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")


def close_quietly(awaitable_factory) -> Coroutine[Any, Any, None]:
    """A coroutine that runs ``awaitable_factory()`` to its end even when the task awaiting it is cancelled.

    For clean-up (closing a backend: a model engine's memory, an HTTP pool)
    that a cancel must not cut short: the cancel is held back until the
    clean-up is done, then raised.
    """

    async def run() -> None:
        closing = asyncio.ensure_future(awaitable_factory())
        cancelled = False
        while not closing.done():
            try:
                await asyncio.wait({closing})
            except asyncio.CancelledError:
                cancelled = True  # asyncio.wait leaves `closing` running; keep waiting for it
        closing.result()
        if cancelled:
            raise asyncio.CancelledError

    return run()


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

    state: dict[str, Any] = {"cancelled": False}
    lock = threading.Lock()
    begun, done = threading.Event(), threading.Event()

    async def main() -> T:
        with lock:
            if state["cancelled"]:  # interrupted before the worker got here: never start the run
                coro.close()
                raise asyncio.CancelledError
            state["loop"], state["task"] = asyncio.get_running_loop(), asyncio.current_task()
        return await coro

    def worker() -> None:
        begun.set()
        try:
            state["result"] = asyncio.run(main())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller as it is
            state["error"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=worker, name="causalgraph-run")
    try:
        thread.start()
        done.wait()
    except KeyboardInterrupt:
        with lock:
            state["cancelled"] = True
            loop, task = state.get("loop"), state.get("task")
        if loop is not None and task is not None:
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the worker's loop has just closed: the run is over anyway
                pass
        # Thread.start returns once the thread runs; an interrupt inside it may come just before.
        if begun.wait(timeout=5.0):
            done.wait()
        raise
    if "error" in state:
        raise state["error"]
    return state["result"]
