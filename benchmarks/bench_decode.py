"""Benchmark: decoding adjacency and single-node text without ``nodes=``.

A path graph ``event 0 -> event 1 -> … -> event N`` is encoded and decoded
back, in every text form (adjacency, single-node, each with and without
signs).  Measured in the same process:

* the decoder as it was before issue #13 (kept below as ``old_decode_text``,
  a verbatim copy of the earlier ``_decode_text``/``_edge_parses``: a DP over
  edge starts that lists every (separator, closing mark) pair from each
  start), run only up to ``--baseline-max`` edges because it grows with the
  cube of the text;
* the current decoder (``causalgraph.encodings._text._decode_text``, the text part
  of :func:`~causalgraph.encodings.decode`), and :func:`decode` as a whole
  (which also compiles the graph).

Both must read the same edges.  Two further rows show texts the old decoder
could not finish quickly either: an ambiguous text (events holding ``", "``;
the time to the "can be read in N ways" error) and the same text decoded
exactly with ``nodes=``.

Figures are ratios old / new in this process (best of 3; one run for the
old decoder above 200 edges).  Run::

    python benchmarks/bench_decode.py
    python benchmarks/bench_decode.py --sizes 200,400,10000 --baseline-max 400
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from typing import Iterable, Optional

from _common import load_average, min_median_max

from causalgraph.encodings import decode, encode
from causalgraph.encodings._text import _decode_text
from causalgraph.errors import ParseError

REPEAT = 5  # rounds of the new decoder and of decode()

# -- the decoder before issue #13 (baseline only) --------------------------------------------

_SIGN_WORDS = ("positive", "negative", "conflicting", "unknown")


def _old_find_all(text: str, sub: str, start: int = 0) -> list[int]:
    out = []
    i = text.find(sub, start)
    while i != -1:
        out.append(i)
        i = text.find(sub, i + 1)
    return out


def _old_edge_parses(text: str, pos: int, fmt: str, signs: bool, known: Optional[set]) -> list[tuple[int, tuple]]:
    if fmt == "adjacency":
        prefix, sep, close = "(", ", ", ")"
    else:
        prefix, sep, close = "", " causes ", "."
    if not text.startswith(prefix, pos):
        return []
    start = pos + len(prefix)
    out = []
    for k in _old_find_all(text, sep, start):
        cause = text[start:k]
        if not cause or (known is not None and cause not in known):
            continue
        estart = k + len(sep)
        for m in _old_find_all(text, close, estart):
            body = text[estart:m]
            after = m + len(close)
            if after != len(text) and not text.startswith(" ", after):
                continue
            sign = "unknown"
            if signs:
                tail = next((w for w in _SIGN_WORDS
                             if body.endswith((f", {w}" if fmt == "adjacency" else f" ({w} correlation)"))), None)
                if tail is None:
                    continue
                sign = tail
                body = body[: -len(f", {tail}" if fmt == "adjacency" else f" ({tail} correlation)")]
            if not body or (known is not None and body not in known):
                continue
            out.append((after, (cause, body, sign)))
    return out


def old_decode_text(text: str, fmt: str, signs: bool, nodes: Optional[Iterable[str]]) -> list[tuple]:
    """The decoder before issue #13, verbatim but for names (baseline)."""
    known = set(nodes) if nodes is not None else None
    n = len(text)
    best: list = [None] * (n + 1)
    best[n] = (0, 1, None)
    for i in range(n - 1, -1, -1):
        if i > 0 and text[i - 1] != " ":
            continue
        cand = None
        for end, edge in _old_edge_parses(text, i, fmt, signs, known):
            nxt = end + 1 if end < n else end
            tail = best[nxt]
            if tail is None:
                continue
            score = tail[0] + 1
            if cand is None or score > cand[0]:
                cand = (score, tail[1], (edge, nxt))
            elif score == cand[0]:
                cand = (score, cand[1] + tail[1], cand[2])
        best[i] = cand
    if not text.strip():
        return []
    if best[0] is None:
        raise ParseError(f"cannot read {fmt} text as edges")
    if best[0][1] > 1:
        raise ParseError(f"{fmt} text can be read in {best[0][1]} ways (events contain separators); "
                         f"pass nodes= with the known events to decode it exactly")
    out, i = [], 0
    while i < n:
        edge, i = best[i][2]
        out.append(edge)
    return out


# -- measurement -----------------------------------------------------------------------------

FORMS = [("adjacency", False), ("adjacency", True), ("single-node", False), ("single-node", True)]


def path_pairs(n_edges: int, name: str = "event {}") -> list[tuple[str, str, str]]:
    return [(name.format(i), name.format(i + 1), "negative" if i % 3 == 0 else "positive")
            for i in range(n_edges)]


def _time(fn, repeat: int):
    """(min, median, max) of ``repeat`` timings of ``fn()``, and its last result (or the ParseError raised)."""
    times = []
    out = None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        try:
            out = fn()
        except ParseError as exc:
            out = exc
        times.append(time.perf_counter() - t0)
    times.sort()
    return (times[0], statistics.median(times), times[-1]), out


def _label(fmt: str, signs: bool) -> str:
    return fmt + ("+signs" if signs else "")


def bench_paths(sizes: list[int], baseline_max: int, forms: list[tuple[str, bool]]) -> None:
    if not sizes or not forms:
        return
    print("## path graphs, decoded without nodes=")
    print(f"min/median/max of {REPEAT} runs for the new decoder and decode(), 3 (1 above 200 edges) for the old; "
          f"old/new and us/edge from the medians; load average {load_average()}")
    print(f"{'form':>26} {'edges':>7} {'chars':>9} {'old s':>26} {'new s':>26} {'old/new':>9} "
          f"{'decode() s':>26} {'new us/edge':>11}")
    for fmt, signs in forms:
        for n in sizes:
            pairs = path_pairs(n)
            text = encode(pairs, fmt, signs=signs)
            expected = [(c, e, s if signs else "unknown") for c, e, s in pairs]
            new_s, got = _time(lambda: _decode_text(text, fmt, signs, None), REPEAT)
            assert got == expected, (fmt, signs, n)
            full_s, g = _time(lambda: decode(text, fmt, signs=signs), REPEAT)
            assert len(g.pairs) == n
            if n <= baseline_max:
                old_s, old = _time(lambda: old_decode_text(text, fmt, signs, None), 3 if n <= 200 else 1)
                assert old == expected, (fmt, signs, n)
                old_col = f"{min_median_max(old_s, 3):>26} {min_median_max(new_s, 4):>26} {old_s[1] / new_s[1]:>9,.0f}"
            else:
                old_col = f"{'-':>26} {min_median_max(new_s, 4):>26} {'-':>9}"
            print(f"{_label(fmt, signs):>26} {n:>7,} {len(text):>9,} {old_col} {min_median_max(full_s, 4):>26} "
                  f"{1e6 * new_s[1] / n:>11.1f}", flush=True)
    print()


def bench_hostile(sizes: list[int], baseline_max: int) -> None:
    """Events holding the adjacency separator: ambiguous without nodes=, exact with them."""
    if not sizes:
        return
    print("## events holding ', ' (adjacency): time to the ambiguity error, and exact decoding with nodes=")
    print(f"{'case':>26} {'edges':>7} {'chars':>9} {'old s':>26} {'new s':>26} {'old/new':>9}  outcome")
    for n in sizes:
        pairs = path_pairs(n, "costs, risks {}")
        nodes = [f"costs, risks {i}" for i in range(n + 1)]
        text = encode(pairs, "adjacency")
        for case, known in (("ambiguous, no nodes", None), ("with nodes=", nodes)):
            new_s, got = _time(lambda: _decode_text(text, "adjacency", False, known), REPEAT)
            outcome = (f"refused: {str(got)[:60]}…" if isinstance(got, ParseError) else f"{len(got):,} edges")
            if n <= baseline_max:
                old_s, old = _time(lambda: old_decode_text(text, "adjacency", False, known), 3 if n <= 200 else 1)
                # the same edges, or both refused (the old message printed every digit of the count)
                assert isinstance(old, ParseError) == isinstance(got, ParseError)
                assert isinstance(got, ParseError) or old == got
                old_col = f"{min_median_max(old_s, 3):>26} {min_median_max(new_s, 4):>26} {old_s[1] / new_s[1]:>9,.0f}"
            else:
                old_col = f"{'-':>26} {min_median_max(new_s, 4):>26} {'-':>9}"
            print(f"{case:>26} {n:>7,} {len(text):>9,} {old_col}  {outcome}", flush=True)
    print()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="200,400,800,10000", help="path lengths in edges (comma-separated)")
    ap.add_argument("--baseline-max", type=int, default=800,
                    help="run the old decoder only up to this many edges")
    ap.add_argument("--hostile-sizes", default="200,10000",
                    help="path lengths for the hostile-event rows (empty: none)")
    ap.add_argument("--forms", default=",".join(_label(f, s) for f, s in FORMS),
                    help="text forms to measure (comma-separated, e.g. single-node,adjacency+signs)")
    args = ap.parse_args(argv)
    forms = [(f, s) for f, s in FORMS if _label(f, s) in args.forms.split(",")]
    print(f"python {sys.version.split()[0]}")
    bench_paths([int(x) for x in args.sizes.split(",") if x], args.baseline_max, forms)
    bench_hostile([int(x) for x in args.hostile_sizes.split(",") if x], args.baseline_max)
    print(f"load average {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
