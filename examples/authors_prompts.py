"""The two prompt catalogs of the ClimateCause paper tasks: what the authors sent (default) and the printed tables.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/authors_prompts.py
(CLI:  causalgraph items --task ccr-position --variant SN_5                  # the authors' text
       causalgraph items --task ccr-position --variant SN_5 --prompts tables # Table 26 as printed
       causalgraph bench run --task ccr-position --variant SN_5 --model mock/oracle --prompts tables
       causalgraph stats compare RUN_AUTHORS RUN_TABLES --by prompts)
"""

import difflib
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.prompts import AUTHORS_TASKS, list_variants
from causalgraph.tasks import get_task

corpus = cg.load_climatecause()

# How many prompts of each task differ between the catalogs (the items, ids and golds are the same).
for task in AUTHORS_TASKS:
    spec = get_task(task)
    changed = total = 0
    for v in list_variants(task):
        authors, tables = spec.items(corpus, v.id), spec.items(corpus, v.id, prompts="tables")
        assert [i.id for i in authors] == [i.id for i in tables]
        changed += sum(a.prompt != t.prompt for a, t in zip(authors, tables))
        total += len(authors)
    print(f"{task:<17} {changed:>5,} of {total:>5,} prompts differ")

# One item under both catalogs: the authors' template writes "{G_SN}." after a text that ends in a full stop.
spec = get_task("ccr-position")
a, t = spec.items(corpus, "SN_5")[0], spec.items(corpus, "SN_5", prompts="tables")[0]
for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, t.prompt, a.prompt, autojunk=False).get_opcodes():
    if op != "equal":
        print(f"\n{a.id}: tables {t.prompt[i1 - 20:i2 + 10]!r}\n{' ' * len(a.id)}  authors {a.prompt[j1 - 20:j2 + 10]!r}")

# Runs record their catalog; the same items under the two catalogs pair in stats compare --by prompts.
out = Path(tempfile.mkdtemp())
runs = [cg.run_benchmark("ccr-position", ["SN_5"], "mock/oracle", limit=20, out=out / p, prompts=p).path
        for p in ("authors", "tables")]
print("\nmanifests:", [cg.load_run(r).manifest.prompts for r in runs])
from causalgraph.stats.compare import compare_runs

print(compare_runs(runs, by="prompts")[["task", "arm_a", "arm_b", "n", "f1_a", "f1_b", "diff"]].to_string(index=False))
