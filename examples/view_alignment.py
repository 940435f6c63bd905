"""See how a model's free-text events align to gold ones: the run viewer's aligned overlay graph.

A hand-written extraction run (one PubMedCausal-style row; no data folder, no model, no network):
the model wrote "loss of sea ice" for the gold "sea ice loss" and "albedo" for "albedo drop".
``aligned_overlay`` gives the alignment the page draws (the rules of ``compare-graphs --align``),
and ``write_run_page`` writes the page; open it and click the item.  The same from the command
line::

    causalgraph bench view RUN --align token -o page.html --open

    python examples/view_alignment.py [OUT_DIR]
"""

import sys
import tempfile
from pathlib import Path

from causalgraph.runlog.store import RunStore
from causalgraph.viewer import write_run_page
from causalgraph.viewer.overlay import aligned_overlay

out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-align-view-"))
gold = [("warming", "sea ice loss"), ("sea ice loss", "albedo drop"), ("ocean heat uptake", "warming")]
pred = [("The warming.", "loss of sea ice"), ("loss of sea ice", "albedo"), ("ice", "albedo")]

for rule in ("exact", "token"):
    o = aligned_overlay(gold, pred, rule=rule)
    kinds = [e["kind"] for e in o["edges"] if e["kind"] in ("matched", "gold", "predicted")]
    print(f"--align {rule}: {kinds.count('matched')} of {kinds.count('matched') + kinds.count('gold')} gold edges "
          f"matched; alignment:")
    for r in o["alignment"]:
        score = "" if r["score"] is None else f" {r['score']:.3f}"
        print(f"  {r['predicted'] or '—':>16} → {r['gold'] or '—':<18} {r['rule']}{score}")

store = RunStore(out / "extraction")
store.write_manifest({"task": "pubmedcausal-extract", "variants": ["zero-shot"], "model": "hand/written",
                      "dataset": {"name": "none"}})
store.append([{"task": "pubmedcausal-extract", "variant": "zero-shot", "item_id": "pubmedcausal-extract/zero-shot/r1",
               "gold": None, "meta": {"statement_id": "r1", "s/n": 1,
                                      "sentence": "Warming melts sea ice, lowering the albedo.",
                                      "pairs": [{"cause": c, "effect": e} for c, e in gold]},
               "response": "(written by hand)", "label": [{"cause": c, "effect": e} for c, e in pred],
               "rule": "json", "error": None}])
print(f"page: {write_run_page([out / 'extraction'], out / 'alignment.html')}")
