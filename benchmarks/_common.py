"""Helpers the benchmarks share: best-of timing, and event names rewritten as a model might.

Benchmarks run as scripts (``python benchmarks/bench_x.py``), so this folder is first on
``sys.path`` and they import it as ``_common``; scripts/align_before_after_inputs.py puts the
folder there itself.
"""

from __future__ import annotations

import random
import time
from typing import Callable

__all__ = ["best", "rewrite_event"]


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
