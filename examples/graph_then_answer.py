"""Graph, then answer: the model writes the statement's graph, then answers; accuracy beside edge F1.

Builds `reachability` items of the graph-first variant `GF_A_1` for two hand-written statements (no
corpus needed), shows one composed prompt, and runs three mock models through the runner:

* `mock/oracle` — the gold graph and the right answer;
* `mock/noisy` with `flip=0, graph_flip=1` — right answers, every graph perturbed (right answer, wrong graph);
* `mock/noisy` with `flip=1, graph_flip=0` — wrong answers, right graphs.

For each it prints the task accuracy beside the mean edge F1 of the same items (events aligned by the
token rule), their gap with its 95 % interval over statements, and the two counts; then `stats compare
--by variant` pairs the graph-first items with the plain `A_1` items of the same run.
"""

import tempfile
from pathlib import Path

from causalgraph.bench.runner import run_benchmark
from causalgraph.model import Correlation, Relation, Statement
from causalgraph.runlog.store import load_run
from causalgraph.stats.answer_graph import answer_graph_scores
from causalgraph.stats.compare import compare_runs
from causalgraph.tasks import get_task

P, N = Correlation.POSITIVE, Correlation.NEGATIVE
statements = [
    Statement("demo-1", "Warming melts ice, which raises sea levels.", True,
              (Relation("warming", "ice melt", correlation=P), Relation("ice melt", "sea levels", correlation=P))),
    Statement("demo-2", "Drought and heat cut crop yields.", True,
              (Relation("drought", "crop yields", correlation=N), Relation("heat", "crop yields", correlation=N))),
]

task = get_task("reachability")
variants = ["GF_A_1", "A_1"]
items = [it for v in variants for it in task.items(statements, task.variant_id(v))]
print(items[0].id, "gold:", items[0].gold)
print(items[0].prompt)
print()

with tempfile.TemporaryDirectory() as tmp:
    for name, model, options in [("oracle", "mock/oracle", {}),
                                 ("right answer, wrong graph", "mock/noisy", {"flip": "0", "graph_flip": "1"}),
                                 ("wrong answer, right graph", "mock/noisy", {"flip": "1", "graph_flip": "0"})]:
        out = Path(tmp) / name.replace(",", "").replace(" ", "-")
        run_benchmark("reachability", variants, model, items=items, out=str(out), model_options=options)
        run = load_run(out)
        s = answer_graph_scores(run.records("GF_A_1"), task)
        ci = s["gap_ci95"]
        print(f"{name:26s} accuracy {s['accuracy']:.3f}  edge F1 {s['edge_f1']:.3f}  gap {s['gap']:+.3f} "
              f"[{ci[0]:+.3f}, {ci[1]:+.3f}]  right answer/wrong graph {s['right_answer_wrong_graph']}  "
              f"wrong answer/right graph {s['wrong_answer_right_graph']}")
    table = compare_runs([out], by="variant")
    print(table[["task", "arm_a", "arm_b", "n", "accuracy_a", "edge_f1_a", "gap_a", "f1_a", "f1_b"]].to_string())
