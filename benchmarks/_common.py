"""Helpers the benchmarks share: best-of timing, and event names rewritten as a model might.

Benchmarks run as scripts (``python benchmarks/bench_x.py``), so this folder is first on
``sys.path`` and they import it as ``_common``; scripts/align_before_after_inputs.py puts the
folder there itself.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Callable

__all__ = ["best", "spread", "side_by_side", "load_average", "min_median_max", "rewrite_event", "run_records"]


def run_records(path) -> list[dict]:
    """A run's records as the dicts its lines hold (``RunRecord.to_dict``): the benchmarks read them by field
    name, compare them across runs and dump them as JSON."""
    from causalgraph.runlog.store import load_run

    return [r.to_dict() for r in load_run(path).responses]


def best(fn: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` wall-clock timings of ``fn()``, in seconds.

    Examples
    --------
    >>> best(lambda: None, 3) >= 0
    True
    """
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def spread(fn: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Min, median and max of ``repeat`` wall-clock timings of ``fn()``, in seconds.

    Examples
    --------
    >>> lo, mid, hi = spread(lambda: None, 3)
    >>> 0 <= lo <= mid <= hi
    True
    """
    times = sorted(_timed(fn) for _ in range(repeat))
    return times[0], statistics.median(times), times[-1]


def side_by_side(ours: Callable[[], object], baseline: Callable[[], object], repeat: int) -> dict:
    """``ours`` and ``baseline`` timed alternately, ``repeat`` rounds (ours first in odd rounds, the
    baseline first in even ones, so neither always runs on a warmer cache): min/median/max of each, and
    of the ratio ours / baseline taken round by round.

    Examples
    --------
    >>> r = side_by_side(lambda: None, lambda: sum(range(1000)), 3)
    >>> sorted(r), len(r["ratio"])
    (['baseline', 'ours', 'ratio'], 3)
    """
    a, b = [], []
    for i in range(repeat):
        if i % 2 == 0:
            a.append(_timed(ours))
            b.append(_timed(baseline))
        else:
            b.append(_timed(baseline))
            a.append(_timed(ours))
    ratios = sorted(x / y for x, y in zip(a, b))

    def mmm(v: list[float]) -> tuple[float, float, float]:
        v = sorted(v)
        return v[0], statistics.median(v), v[-1]

    return {"ours": mmm(a), "baseline": mmm(b), "ratio": (ratios[0], statistics.median(ratios), ratios[-1])}


def min_median_max(values, digits: int = 3, scale: float = 1.0) -> str:
    """``"min / median / max"`` of ``values`` (times in seconds, shown × ``scale``): the one format of the
    benchmarks' spreads.  A ``(min, median, max)`` triple, as :func:`spread` returns, prints as itself.

    Examples
    --------
    >>> min_median_max([0.3, 0.1, 0.2]), min_median_max((0.001, 0.002, 0.004), 1, scale=1e3)
    ('0.100 / 0.200 / 0.300', '1.0 / 2.0 / 4.0')
    """
    v = sorted(values)
    return " / ".join(f"{x * scale:.{digits}f}" for x in (v[0], statistics.median(v), v[-1]))


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages as ``"a / b / c"`` (``"n/a"`` where the system has none)."""
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def rewrite_event(name: str, rng: random.Random, *, added: str = "levels") -> str:
    """``name`` rewritten deterministically by ``rng`` as a model might write it, so that every alignment
    rule has work: kept (40 %), re-cased with an article and a full stop (20 %), a word dropped (20 %),
    words rotated (10 %), or the word ``added`` appended.

    Examples
    --------
    >>> rng = random.Random(0)
    >>> [rewrite_event("sea level rise", rng) for _ in range(4)]
    ['level rise sea', 'sea rise', 'sea level rise', 'sea level rise levels']
    """
    w = name.split()
    r = rng.random()
    if r < 0.4:
        return name
    if r < 0.6:
        return "The " + name[:1].upper() + name[1:] + "."
    if r < 0.8 and len(w) > 1:
        del w[rng.randrange(len(w))]
        return " ".join(w)
    if r < 0.9 and len(w) > 2:
        return " ".join(w[1:] + w[:1])
    return name + " " + added
