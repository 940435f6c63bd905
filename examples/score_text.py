"""Score any text: C^com … C^pol and C(s) on the ClimateCause scale, plus classic readability.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/score_text.py [PROVIDER/MODEL] [OUT.html]
      (default mock/constant with a hand-written annotation; the ClimateCause ranges need the corpus,
       downloaded on first use or read from CAUSALGRAPH_DATA)
CLI:  causalgraph score "Deforestation ... lowers crop yields." --model llamacpp/smollm2 --view draft.html
"""

import json
import sys
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.annotation import climatecause_ranges

TEXT = ("Deforestation increases regional warming and reduces rainfall, which lowers crop yields, "
        "and lower crop yields reduce food security.")
model = sys.argv[1] if len(sys.argv) > 1 else "mock/constant"
page = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp()) / "draft.html"

options = {"n_ctx": 8192} if model.startswith("llamacpp/") else {}
if model == "mock/constant":
    def rel(c, e, corr):
        return dict(target=None, explicitness="E", cause_np=c, cause_context=None, cause_no_quantifier=c,
                    cause_belongs_to=None, effect_np=e, effect_context=None, effect_no_quantifier=e,
                    effect_belongs_to=None, combined=None, nested=None, relation_type="positive", correlation=corr)
    options = {"text": json.dumps({"causal": True, "abbreviations": None, "relations": [
        rel("deforestation", "regional warming", "positive"), rel("deforestation", "rainfall", "negative"),
        rel("rainfall", "crop yields", "positive"), rel("crop yields", "food security", "positive")]})}

ref = climatecause_ranges()
print("reference ranges (ClimateCause, 75 statements):", {m: r[1] for m, r in ref.ranges.items()})
score = cg.score_text(TEXT, model, model_options=options, view=str(page), strict=False, max_tokens=1024)
for row in score.rows():
    norm = "" if row["normalised"] is None else f"  (normalised {row['normalised']:.4f})"
    print(f"  {row['metric']:<10} {row['value']:10.4f}{norm}")
print(f"C(s) = {score.c_s:.4f} (the most complex IPCC statement scores 1.821); graph page: {page}")
