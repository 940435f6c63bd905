"""Write the corpus report: index.html, CSV tables and one graph page per causal statement.

This is what `make run` does.
Run:  CAUSALGRAPH_DATA=../shared/data python examples/corpus_report.py [OUT_DIR]
(CLI:  causalgraph report -o report [--data pubmedcausal --max-graphs 50])
"""

import sys
import tempfile
from pathlib import Path

import pandas as pd

import causalgraph as cg

out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "report"
report = cg.write_report(cg.load_climatecause(), out_dir, max_graphs=10)

print("index:", report.index)
print("tables:", ", ".join(p.name for p in report.tables.values()))
print(f"graph pages: {len(report.graphs)} written, {len(report.skipped_graphs)} left out (max_graphs=10)")
print()
print(pd.read_csv(report.tables["chain_counts"]).to_string(index=False))
print()
print(pd.read_csv(report.tables["readability_table17"]).round(2).to_string(index=False))
