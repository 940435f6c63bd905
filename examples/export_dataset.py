"""Write benchmark items as a Hugging Face ``datasets`` folder and load it back without causalgraph.

Needs pyarrow (``pip install 'causalgraph[dataset]'``); loading uses the
``datasets`` library when it is installed, else pyarrow.  The command line::

    causalgraph export-dataset hf-items                       # every task, every variant
    causalgraph export-dataset hf-items --task ccr-member --task corri
    causalgraph items --task corri --variant 0_1 --format parquet -o corri-0_1.parquet

    python examples/export_dataset.py [OUT_DIR]
"""

import sys
import tempfile

from causalgraph.interop.export import export_dataset

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-dataset-")

res = export_dataset(f"{out}/hf-items", ["ccr-member", "corri"])
for name, cfg in res.configs.items():
    print(f"{name}: {cfg['items']} items in {cfg['file']} ({len(cfg['variants'])} variants)")
card = (res.path / "README.md").read_text(encoding="utf-8")
print("card header:", card.split("---")[1].strip().splitlines()[:3])

try:
    from datasets import load_dataset
except ImportError:  # datasets is optional: pyarrow reads the same file
    import pyarrow.parquet as pq

    rows = pq.read_table(res.path / res.configs["ccr-member"]["file"]).to_pylist()
else:
    rows = load_dataset(str(res.path), name="ccr-member", split="test", cache_dir=f"{out}/hf-cache")
a5 = [row for row in rows if row["variant"] == "A_5"]
print(f"ccr-member A_5: {len(a5)} items; first {a5[0]['id']} gold {a5[0]['gold']!r}")
print(a5[0]["prompt"][:160] + " …")
