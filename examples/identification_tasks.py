"""The identification tasks: d-separation and back-door adjustment sets on the Asia network and the sample.

Builds balanced yes/no items in two encodings and with letters for event names, prints one prompt, and runs
the oracle mock over them (every answer right) with the benchmark runner.
"""

import collections
import tempfile
from pathlib import Path

from causalgraph.bench.runner import run_benchmark
from causalgraph.datasets import load_corpus
from causalgraph.model import Relation, Statement
from causalgraph.tasks import get_task

asia = Statement("asia", "", True, tuple(Relation(c, e) for c, e in [
    ("asia", "tub"), ("smoke", "lung"), ("smoke", "bronc"), ("tub", "either"), ("lung", "either"),
    ("either", "xray"), ("either", "dysp"), ("bronc", "dysp")]))

for name in ("d-separation", "adjustment-set"):
    task = get_task(name)
    items = task.items([asia], "A_1")
    print(name, len(items), "items,", dict(collections.Counter(it.gold for it in items)))
    it = items[0]
    print("  ", it.meta["event"], "/", it.meta["event_j"], "given", it.meta["given"], "->", it.gold)

print(get_task("d-separation").items([asia], "MX_1.letters")[0].prompt)

with tempfile.TemporaryDirectory() as tmp:
    built = get_task("adjustment-set").items(load_corpus("sample"), "A_1")
    run = run_benchmark("adjustment-set", ["A_1"], "mock/oracle", items=built, out=str(Path(tmp) / "oracle"))
    print("oracle on the sample:", run.metrics.variants["A_1"]["f1"])
