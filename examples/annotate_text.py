"""Annotate your own text into ClimateCause-style causal relations.

Run:  python examples/annotate_text.py [PROVIDER/MODEL]
      (default: mock/constant answering a fixed annotation, so the script runs offline;
       try llamacpp/smollm2 for the bundled 135M model, or openai/gpt-5.1-2025-11-13 with OPENAI_API_KEY set)
CLI:  causalgraph annotate --model llamacpp/smollm2 --model-option n_ctx=8192 --text "Deforestation increases ..."
      causalgraph annotate --model openai/gpt-5.1-2025-11-13 --file drafts.txt --split paragraphs --out runs/drafts
"""

import json
import sys

import causalgraph as cg
from causalgraph.annotation import render_messages

TEXT = ("Deforestation in the Amazon increases regional warming and reduces rainfall, "
        "which lowers crop yields (medium confidence).")

model = sys.argv[1] if len(sys.argv) > 1 else "mock/constant"
options = {}
if model == "mock/constant":
    # What a good annotator answers for TEXT (written by hand, in the prompt's answer format).
    rel = dict(target="increases", explicitness="E", cause_np="deforestation", cause_context="in the Amazon",
               cause_no_quantifier="deforestation", cause_belongs_to=None, effect_np="increased regional warming",
               effect_context=None, effect_no_quantifier="regional warming", effect_belongs_to=None,
               combined=None, nested=None, relation_type="positive", correlation="positive")
    answer = {"causal": True, "abbreviations": None, "relations": [
        rel,
        {**rel, "target": "reduces", "effect_np": "reduced rainfall", "effect_no_quantifier": "rainfall",
         "correlation": "negative"},
        {**rel, "target": "lowers", "cause_np": "reduced rainfall", "cause_no_quantifier": "rainfall",
         "cause_context": None, "effect_np": "lower crop yields", "effect_no_quantifier": "crop yields",
         "correlation": "positive"}]}
    options = {"text": json.dumps(answer)}
elif model.startswith("llamacpp/"):
    options = {"n_ctx": 8192}  # the few-shot prompt is about 3,500 tokens

print("prompt:", len(render_messages(TEXT)[1]["content"]), "characters (guidelines + 4 worked examples)")
statement = cg.annotate(TEXT, model, model_options=options, strict=False, max_tokens=1024)
info = statement.meta["annotation"]
print(f"parse rule: {info['rule']}; issues: {len(info['issues'])}; relations: {len(statement.relations)}")
for r in statement.relations:
    print(f"  {r.cause} -> {r.effect}  correlation={r.correlation}  relation type={r.polarity}  "
          f"explicitness={r.explicitness}  context={r.cause_context or r.effect_context}")
