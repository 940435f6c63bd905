"""Why models fail: counterfactual graphs, difficulty models and item response theory, on mock runs.

Runs offline on the bundled sample corpus when the ClimateCause spreadsheet is not available
(``CAUSALGRAPH_DATA``); mocks stand in for models:

1. the items of ``ccr-position A_5`` on the real, reversed and shuffled graphs (golds recomputed);
2. ``mock/noisy`` answering each of them, and ``stats compare --by graph-edit``;
3. a difficulty model of one run (which features predict its errors);
4. a Rasch model of three runs (each run's ability, each item's difficulty).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from causalgraph.bench.runner import run_benchmark
from causalgraph.datasets import load_corpus
from causalgraph.errors import DataNotFound
from causalgraph.stats.compare import compare_runs
from causalgraph.stats.difficulty import difficulty_runs, table_rows
from causalgraph.stats.irt import irt_runs
from causalgraph.tasks import get_task

try:
    corpus, data = load_corpus("climatecause"), "climatecause"
except DataNotFound:
    corpus, data = load_corpus("sample"), "sample"

task = get_task("ccr-position")
# The first event that starts a chain in its real graph, under each edit.
first = next(k for k, it in enumerate(task.items(corpus, "A_5")) if it.gold == "start")
for edit in ("real", "reverse", "shuffle"):
    it = task.items(corpus, "A_5", graph_edit=edit)[first]
    print(f"{it.variant:12s} {it.meta['event']!r}: gold {it.gold}")

work = Path(tempfile.mkdtemp())
os.environ.setdefault("CAUSALGRAPH_CACHE", str(work / "cache"))
runs = []
for salt, edit in (("0", "real"), ("0", "reverse"), ("0", "shuffle")):
    r = run_benchmark("ccr-position", ["A_5"], "mock/noisy", data=data, out=str(work / f"noisy-{edit}"),
                      temperature=1.0, model_options={"salt": salt}, graph_edit=edit)
    runs.append(r.path)
table = compare_runs(runs, by="graph-edit")
print(table[["arm_a", "arm_b", "n", "f1_a", "f1_b", "diff", "b", "c", "p_holm"]].to_string(index=False))

# Difficulty: the sample corpus is too small for a model (four statements), the real one is not.
if data == "climatecause":
    for row in table_rows(difficulty_runs([runs[0]], ["c_norm", "n_tokens", "position"], data=data)):
        print(f"{row['feature']:16s} OR {row['odds_ratio']:.2f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}] "
              f"p_holm {row['p_holm']:.3f}")
    others = [run_benchmark("ccr-position", ["A_5"], "mock/noisy", data=data, out=str(work / f"noisy-{s}"),
                            temperature=1.0, model_options={"salt": s, "flip": flip}).path
              for s, flip in (("1", 0.1), ("2", 0.5))]
    res = irt_runs([runs[0], *others], data=data)
    print(res.abilities[["respondent", "ability", "ci_low", "ci_high", "accuracy"]].to_string(index=False))
    print(res.items.head(3)[["item", "statement_id", "event", "difficulty", "n_right"]].to_string(index=False))
else:
    print("difficulty and IRT models need the ClimateCause corpus (set CAUSALGRAPH_DATA); skipped")
