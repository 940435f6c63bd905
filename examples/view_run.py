"""Read what a model answered, item by item, and compare two runs: the offline run page.

Two CorrI runs over the packaged sample corpus (no data folder, no model, no
network): ``mock/oracle`` answers every item right, ``mock/constant`` always
answers "positive".  ``write_run_page`` writes one HTML page for each run and
one that compares them (flipped items, McNemar per variant, agreement per
statement); open them in a browser.  The same from the command line::

    causalgraph bench view RUN_A RUN_B -o compare.html --open

    python examples/view_run.py [OUT_DIR]
"""

import sys
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.viewer import load_views, write_run_page

out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-view-"))

oracle = cg.run_benchmark("corri", "0_1,F_1", "mock/oracle", data="sample", out=out / "oracle", cache=False)
constant = cg.run_benchmark("corri", "0_1,F_1", "mock/constant", data="sample", out=out / "constant", cache=False,
                            model_options={"text": "<Answer>positive</Answer>"})

page = write_run_page([oracle.path])                       # beside the run: oracle/view.html
both = write_run_page([oracle.path, constant.path], out / "compare.html")
print(f"run page:     {page}")
print(f"comparison:   {both}")

# What the comparison page shows, as data: the items whose correctness flipped, and McNemar per variant.
views, comparison = load_views([oracle.path, constant.path])
print(f"{len(comparison['flipped'])} of {len(views[0].records)} items flipped between the runs")
for row in comparison["pairs"][0]["mcnemar"]:
    print(f"  {row['variant_a']}: right only in oracle {row['b']}, only in constant {row['c']}, "
          f"chi2 {row['statistic']:.3f}, p {row['p']:.4f}")
