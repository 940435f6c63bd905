"""Benchmark: ``load_run`` of one run folder by two source trees of causalgraph, side by side.

For a refactor of the run log (how lines are read, what objects readers get): the same folder,
written once by this tree's runner store (``--lines`` whole records, as the runner writes them),
is read by ``load_run`` of the tree under test and of a baseline tree (a ``git worktree`` of the
commit before the change), each round in a fresh process per tree, the two trees alternating
round by round.  A round's figure is the best of ``--inner`` loads in its process.  Prints the
min / median / max of each tree's figures and of the round-by-round ratio (ours / baseline),
and the load average before and after.  Run::

    git worktree add /tmp/base <commit before the change>
    python benchmarks/bench_load_trees.py --baseline /tmp/base
    python benchmarks/bench_load_trees.py --baseline /tmp/base --lines 34200 --rounds 7
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import load_average, min_median_max

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter with the tree first on sys.path: the best of INNER loads, in seconds.
_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from causalgraph.runlog.store import load_run
times = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter()
    run = load_run(sys.argv[2])
    times.append(time.perf_counter() - t)
print(json.dumps({"best": min(times), "responses": len(run.responses)}))
"""


def write_run(path: Path, lines: int, seed: int) -> None:
    """A ccr-position run of 9 variants, every line a whole record as the runner writes it."""
    sys.path.insert(0, str(ROOT))
    from causalgraph.runlog import RunRecord, RunStore

    rng = random.Random(seed)
    variants = [f"v{i}" for i in range(9)]
    store = RunStore(path)
    store.write_manifest({"task": "ccr-position", "variants": variants, "model": "mock/bench"})
    recs = []
    for n in range(lines):
        v, i = variants[n % 9], n // 9
        gold = rng.choice(["start", "middle", "end", "none"])
        recs.append(RunRecord("ccr-position", v, f"ccr-position/{v}/cc-{i // 8:03d}/e{i:05d}", gold=gold,
                              meta={"statement_id": f"cc-{i // 8:03d}", "event": f"event {i}"},
                              prompt_sha256="0" * 64, request_key="k" * 64, response=gold.title(),
                              label=rng.choice([gold, "none"]), rule="exact",
                              usage={"prompt_tokens": 300, "completion_tokens": 2}, cost_usd=0.0, latency_s=0.1,
                              finish_reason="stop", source="live", attempts=1, time="2026-12-06T00:00:00+00:00"))
    store.append(recs)


def one_load(tree: Path, run: Path, inner: int) -> float:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(run), str(inner)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)["best"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, type=Path, help="the source tree to compare with (a worktree)")
    ap.add_argument("--lines", type=int, default=34200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not (args.baseline / "causalgraph" / "runlog").is_dir():
        sys.exit(f"bench_load_trees: {args.baseline} holds no causalgraph/runlog; expected a causalgraph source tree")
    before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        write_run(run, args.lines, args.seed)
        ours, base = [], []
        for _ in range(args.rounds):
            base.append(one_load(args.baseline, run, args.inner))
            ours.append(one_load(ROOT, run, args.inner))
    ratios = [o / b for o, b in zip(ours, base)]
    print(f"load_run of {args.lines} lines, {args.rounds} rounds (best of {args.inner} loads per round)")
    print(f"  this tree (s): {min_median_max(ours)}")
    print(f"  baseline (s):  {min_median_max(base)}")
    print(f"  ratio:         {min_median_max(ratios, 3)}")
    print(f"  load average before {before}, after {load_average()}")


if __name__ == "__main__":
    main()
