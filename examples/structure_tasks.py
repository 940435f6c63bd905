"""Structure questions over a causal graph, in three encodings and with anonymised events, compared as arms.

Builds `parents` items for two hand-written statements (no corpus needed), shows one prompt with a
matrix and nonsense event names, runs the oracle mock and a model that always answers "none", and
compares the two with `stats compare --by model` (F1 difference, bootstrap interval, McNemar/Holm).
"""

import tempfile
from pathlib import Path

from causalgraph.bench.runner import run_benchmark
from causalgraph.model import Relation, Statement
from causalgraph.stats.compare import compare_runs
from causalgraph.tasks import get_task

statements = [
    Statement("demo-1", "Warming melts ice, which raises sea levels and floods coasts.", True,
              (Relation("warming", "ice melt"), Relation("ice melt", "sea level rise"),
               Relation("sea level rise", "coastal flooding"), Relation("warming", "coastal flooding"))),
    Statement("demo-2", "Drought and heat cut crop yields.", True,
              (Relation("drought", "crop yields"), Relation("heat", "crop yields"))),
]

task = get_task("parents")
items = task.items(statements, "A_1", encoding="matrix", event_names="nonsense")
print(items[3].id, "gold:", items[3].gold)
print(items[3].prompt)

with tempfile.TemporaryDirectory() as tmp:
    variants = ["A_1", "MX_1", "INC_1"]
    built = [it for v in variants for it in task.items(statements, v)]
    oracle = run_benchmark("parents", variants, "mock/oracle", items=built, out=str(Path(tmp) / "oracle"))
    blank = run_benchmark("parents", variants, "mock/constant", items=built, out=str(Path(tmp) / "none"),
                          model_options={"text": "<Answer>none</Answer>"})
    for v in variants:
        s = blank.metrics.variants[v]
        print(f"always 'none' on {v}: micro F1 {s['f1']:.3f}, exact-set accuracy {s['exact_match']:.3f}")
    table = compare_runs([oracle.path, blank.path], by="model")
    print(table[["task", "arm_a", "arm_b", "n", "diff", "ci_low", "ci_high", "b", "c", "p_holm"]].to_string())
