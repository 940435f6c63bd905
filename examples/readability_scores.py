"""Classic readability of ClimateCause statements (the paper's App. E, Table 17), offline.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/readability_scores.py
CLI:  causalgraph readability --summary
      causalgraph readability --file abstracts.csv --column abstract    (any texts: lines, CSV or JSONL)
"""

import csv
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

import causalgraph as cg

# Any text: Flesch Reading Ease, Flesch-Kincaid Grade, ARI, Coleman-Liau, Dale-Chall.
print(cg.readability("Human-caused climate change is already affecting many weather and climate extremes."))

# A corpus: one row per statement, then the summary laid out like Table 17.
corpus = cg.load_climatecause()
table = cg.readability_table(corpus)
print(table.sort_values("fre").head(3)[["statement_id", "fre", "fkg", "dcrs"]].to_string(index=False))
print(cg.readability_summary(table).round(2))

# Classic readability against causal complexity, statement by statement.
both = table.merge(cg.complexity_table(corpus)[["statement_id", "c_norm"]], on="statement_id")
print("Spearman rho(FRE, C(s)):", round(both["fre"].corr(both["c_norm"], method="spearman"), 3))

# Plain texts: a list of strings or a pandas Series (scores indexed like the Series, so they join back).
abstracts = pd.DataFrame({"abstract": ["Warming raises sea levels.",
                                       "Permafrost thaw releases methane, which amplifies further warming."]},
                         index=["doc-1", "doc-2"])
print(abstracts.join(cg.readability_table(abstracts["abstract"])[["fre", "dcrs"]]).round(2))

# The same from the command line, on a CSV file (rows numbered as a spreadsheet shows them).
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "abstracts.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["id", "abstract"], *abstracts["abstract"].items()])
    out = subprocess.run([sys.executable, "-m", "causalgraph", "readability", "--file", str(path),
                          "--column", "abstract", "--format", "csv"], capture_output=True, text=True, check=True)
    print(out.stdout)
