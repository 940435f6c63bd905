"""Build benchmark items for every ClimateCause task and write an OpenAI Batch API input file.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/build_items.py [OUT_DIR]
(CLI:  causalgraph items --task ccr-member --variant SN_5
       causalgraph items --task corri --variant F_1 --openai-batch batch.jsonl --model gpt-5.1)
"""

import collections
import sys
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.tasks.climatecause import items
from causalgraph.cli.items import write_openai_batch
from causalgraph.prompts import get_variant, list_tasks, list_variants

corpus = cg.load_climatecause()
for task in list_tasks():
    variants = list_variants(task)
    its = items(corpus, task, variants[0].id)
    print(f"{task:<17} {len(variants)} variants, {len(its)} items, gold {dict(collections.Counter(i.gold for i in its))}")

variant = get_variant("ccr-position", "A_5")
item = items(corpus, "ccr-position", variant)[40]
print("\n", item.id, "gold:", item.gold, "answer word:", variant.answer_labels[item.gold])
print(item.prompt)

out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
path = out_dir / "corri_F_1.batch.jsonl"
n = write_openai_batch(items(corpus, "corri", "F_1"), path, model="gpt-5.1")
print(f"\nwrote {n} Batch API requests to {path}")
