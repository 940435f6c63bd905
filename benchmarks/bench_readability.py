"""Benchmark: the first ``readability()`` of a process, and ``readability_table`` over 2,000 texts.

1. First call.  Fresh processes, alternating: one times ``import textstat``
   alone (the floor: textstat imports nltk, which imports scipy.stats and
   scikit-learn), the other ``import causalgraph`` and then times its first
   ``causalgraph.readability(text)`` (textstat's import included, and
   causalgraph's syllable cache read).  ``--before TREE`` adds a third kind of
   process running the causalgraph of another checkout (an older commit), in
   the same alternation.  The syllable cache is built before the first round
   (its one-off cost is timed separately); medians of ``--rounds`` (5).
2. Many texts.  2,000 real texts (the 1,973 PubMedCausal test sentences and
   the first 27 ClimateCause statements), alternating in one process: textstat's
   five calls per text (FRE, FKG, ARI, CLI, DCRS) against
   ``readability_table(texts)``; both read the same loaded dictionary, and
   every value must be equal.  Median of ``--rounds`` passes each, in CPU
   seconds of the process (the wall clock of a shared machine varies more).

Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_readability.py
    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_readability.py --before /tmp/causalgraph-459c51c
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = "Rising sea levels increase coastal flooding, which damages infrastructure."

# Each timed process prints wall-clock seconds and its own CPU seconds (process_time), which a loaded
# machine inflates far less than the wall clock.
_TIMED = ("import time; w, c = time.perf_counter(), time.process_time(); {body}; "
          "print(time.perf_counter() - w, time.process_time() - c)")
_IMPORT_TEXTSTAT = _TIMED.format(body="import textstat")
_FIRST_CALL = "import causalgraph; " + _TIMED.format(body=f"causalgraph.readability({TEXT!r})")
_IMPORT_CAUSALGRAPH = _TIMED.format(body="import causalgraph")


def _fresh(code: str, tree: Path, cache: str) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(tree), "CAUSALGRAPH_CACHE": cache}
    res = subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True,
                         timeout=600)
    if res.returncode:
        raise SystemExit(f"a timed process failed: {res.stderr.strip()[-500:]}")
    wall, cpu = res.stdout.split()[-2:]
    return float(wall), float(cpu)


def first_call(rounds: int, before: Path | None, cache: str) -> list[dict]:
    # The one-off cost: parsing the dictionary into the cache (a machine's first call ever).
    build = _fresh("from causalgraph.metrics.syllables import build_syllable_cache; "
                   + _TIMED.format(body="build_syllable_cache()"), ROOT, cache)
    _fresh(_FIRST_CALL, ROOT, cache)  # warm the disk cache for every kind alike
    if before is not None:
        _fresh(_FIRST_CALL, before, cache + "-before")  # the old tree builds its NLTK folder once
    kinds = {"import textstat": (_IMPORT_TEXTSTAT, ROOT, cache),
             # the floor once causalgraph has loaded numpy and pandas, which textstat's nltk imports too
             "import textstat after import causalgraph": ("import causalgraph; " + _IMPORT_TEXTSTAT, ROOT, cache),
             "import causalgraph": (_IMPORT_CAUSALGRAPH, ROOT, cache),
             "first readability()": (_FIRST_CALL, ROOT, cache)}
    if before is not None:
        kinds["first readability(), --before tree"] = (_FIRST_CALL, before, cache + "-before")
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in kinds}
    for _ in range(rounds):
        for name, (code, tree, c) in kinds.items():  # alternating: one of each kind per round
            times[name].append(_fresh(code, tree, c))
    floor_wall = statistics.median(w for w, _ in times["import textstat"])
    floor_cpu = statistics.median(c for _, c in times["import textstat"])
    rows = []
    for name, v in times.items():
        wall, cpu = statistics.median(w for w, _ in v), statistics.median(c for _, c in v)
        rows.append({"process": name, "wall_s": wall, "cpu_s": cpu, "wall_minus_import_textstat": wall - floor_wall,
                     "cpu_minus_import_textstat": cpu - floor_cpu})
    rows.append({"process": "building the syllable cache (once per machine)", "wall_s": build[0], "cpu_s": build[1],
                 "wall_minus_import_textstat": float("nan"), "cpu_minus_import_textstat": float("nan")})
    return rows


def texts_2000() -> list[str]:
    from causalgraph import load_climatecause
    from causalgraph.datasets.fetch import data_dir

    root = data_dir()
    if root is None:
        raise SystemExit("set CAUSALGRAPH_DATA to the folder holding pubmedcausal/extraction_test.json")
    rows = json.loads((root / "pubmedcausal" / "extraction_test.json").read_text(encoding="utf-8"))
    texts = [r["sentence"] for r in rows] + [s.text for s in load_climatecause().statements][:27]
    assert len(texts) == 2000, len(texts)
    return texts


def many_texts(rounds: int) -> list[dict]:
    from textstat.textstat import textstatistics

    from causalgraph.metrics.readability import readability_table

    texts = texts_2000()
    readability_table(texts[:1])  # load textstat and the dictionary (both sides read the same one)
    ts = textstatistics()
    ts.set_lang("en_US")
    calls = (ts.flesch_reading_ease, ts.flesch_kincaid_grade, ts.automated_readability_index, ts.coleman_liau_index,
             ts.dale_chall_readability_score)
    base_t, ours_t = [], []
    for _ in range(rounds):
        # textstat keeps the last 128 texts' counts; 2,000 texts a pass leave none for the next pass.
        t0 = time.process_time()
        base = [[float(f(t)) for f in calls] for t in texts]
        base_t.append(time.process_time() - t0)
        t0 = time.process_time()
        table = readability_table(texts)
        ours_t.append(time.process_time() - t0)
        ours = table[["fre", "fkg", "ari", "cli", "dcrs"]].values.tolist()
        if ours != base:
            raise SystemExit("readability_table and textstat disagree on a value")
    b, o = statistics.median(base_t), statistics.median(ours_t)
    return [{"way": "textstat, five calls per text", "texts": len(texts), "median_s": b, "us_per_text": b / 2000 * 1e6,
             "ratio_to_textstat": 1.0},
            {"way": "readability_table(texts)", "texts": len(texts), "median_s": o, "us_per_text": o / 2000 * 1e6,
             "ratio_to_textstat": o / b}]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="fresh processes of each kind, and passes (default 5)")
    ap.add_argument("--before", type=Path, default=None, help="a checkout of another commit to time alongside")
    args = ap.parse_args()
    from causalgraph.cli._common import emit_table

    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        print(f"First readability() in a fresh process (median of {args.rounds}, alternating):")
        emit_table(first_call(args.rounds, args.before, cache), "table",
                   columns=["process", "wall_s", "cpu_s", "wall_minus_import_textstat", "cpu_minus_import_textstat"])
        os.environ["CAUSALGRAPH_CACHE"] = cache
        print(f"\nreadability_table of 2,000 texts against textstat (median of {args.rounds}, alternating):")
        emit_table(many_texts(args.rounds), "table",
                   columns=["way", "texts", "median_s", "us_per_text", "ratio_to_textstat"])
    try:
        load = os.getloadavg()
        print(f"\nload average while it ran: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    except OSError:  # pragma: no cover - not on POSIX
        pass


if __name__ == "__main__":
    main()
