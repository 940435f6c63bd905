"""The wall-clock time a run writes down (``time`` of a line, ``started``/``finished`` of an invocation)."""

from __future__ import annotations

import datetime as _dt
import time

__all__ = ["utc_now"]

_clock: list = [None, ""]  # the last second utc_now formatted, and its text


def utc_now() -> str:
    """The current UTC second in ISO format (``2026-01-31T12:00:00+00:00``).

    Whole seconds, formatted once per second rather than once per line: a
    cached re-run writes thousands of lines a second.

    Examples
    --------
    >>> len(utc_now()), utc_now().endswith("+00:00")
    (25, True)
    """
    second = int(time.time())
    if second != _clock[0]:
        _clock[1] = _dt.datetime.fromtimestamp(second, _dt.timezone.utc).isoformat(timespec="seconds")
        _clock[0] = second
    return _clock[1]
