"""Reading or remembering signs: flip-signs, net effects over several paths, compositional consistency.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/sign_tasks.py
(CLI:  causalgraph items --task net-effect --variant A_1 --graph-edit flip-signs
       causalgraph stats consistency --signs runs/corri runs/multihop)

A mock model (``mock/noisy``, wrong on 30 % of items) answers here, so the script runs anywhere;
put ``hf/smollm2`` (``--method loglik``) or any hosted model in its place for a real measurement.
"""

import collections
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.stats import sign_consistency
from causalgraph.stats.compare import compare_runs
from causalgraph.tasks import get_task
from causalgraph.tasks.net_effect import net_effects

corpus = cg.load_climatecause()

# 1. The net effect of every pair of one statement, counted by dynamic programming over its paths.
graph = cg.compile_graph(corpus["cc-003"])
for (cause, effect), e in list(net_effects(graph).items())[:4]:
    print(f"{cause} -> {effect}: {e.positive} positive / {e.negative} negative path(s) => {e.label}")

# 2. The items, real and with every correlation flipped: same ids, golds from the flipped signs.
task = get_task("net-effect")
real, flipped = task.items(corpus, "A_1"), task.items(corpus, "A_1.flip-signs")
print(len(real), "items; real gold", dict(collections.Counter(i.gold for i in real)),
      "; flipped gold", dict(collections.Counter(i.gold for i in flipped)))
print(flipped[0].prompt[:240], "…")

# 3. Multi-hop chains under flip-signs:1 (one edge of each statement flipped, drawn with a seed).
mh = get_task("corri-multihop")
changed = sum(a.gold != b.gold for a, b in zip(mh.items(corpus, "0_3"), mh.items(corpus, "0_3.flip-signs:1")))
print("corri-multihop: flipping one edge per statement changes the gold of", changed, "of 202 chains")

# 4. Runs, the memory gap (paired by item) and whether the answers compose along chains.
out = Path(tempfile.mkdtemp())
for name, t, variants in [("corri", "corri", ["0_1"]), ("multihop", "corri-multihop", ["0_1", "0_1.flip-signs"])]:
    cg.run_benchmark(t, variants, "mock/noisy", temperature=1.0, out=str(out / name))
print(compare_runs([out / "multihop"], by="graph-edit")[["arm_a", "arm_b", "n", "f1_a", "f1_b", "p"]])
rep = sign_consistency([out / "corri", out / "multihop"])
print(rep.table[["edge_source", "endpoint_source", "answered", "consistent", "rate", "ci_low", "ci_high"]])
