"""Deterministic perturbations of gold annotations, for the before/after (byte-for-byte) check."""
import csv, json, random, sys
sys.path.insert(0, "/work/wt/i40-align")
from causalgraph.datasets import load_corpus

rng = random.Random(40)

def perturb(name):
    r = rng.random()
    w = name.split()
    if r < 0.4:
        return name
    if r < 0.6:
        return "The " + name[:1].upper() + name[1:] + "."
    if r < 0.8 and len(w) > 1:
        del w[rng.randrange(len(w))]
        return " ".join(w)
    if r < 0.9 and len(w) > 2:
        return " ".join(w[1:] + w[:1])
    return name + " changes"

# 1. relations CSV from climatecause
cc = load_corpus("climatecause")
with open("/tmp/i40/perturb/cc_pred.csv", "w", newline="") as fh:
    wr = csv.writer(fh)
    wr.writerow(["text", "statement_id", "cause", "effect", "correlation"])
    for s in cc:
        names = {}
        for rel in s.relations:
            if rng.random() < 0.15:
                continue
            c = names.setdefault(rel.cause, perturb(rel.cause))
            e = names.setdefault(rel.effect, perturb(rel.effect))
            if rng.random() < 0.1:
                c, e = e, c
            corr = rel.correlation.value if rel.correlation is not None else ""
            if rng.random() < 0.1:
                corr = "negative" if corr == "positive" else "positive"
            wr.writerow([s.text, s.id, c, e, corr])
# 2. annotate run: labels perturbed
import os, shutil
src, dst = "/tmp/i40/run-noisy", "/tmp/i40/perturb/run"
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
lines = []
for line in open(f"{src}/responses.jsonl"):
    r = json.loads(line)
    lab = r.get("label")
    if isinstance(lab, dict) and lab.get("relations"):
        names = {}
        keep = []
        for rel in lab["relations"]:
            if rng.random() < 0.15:
                continue
            for k in ("cause_no_quantifier", "effect_no_quantifier"):
                rel[k] = names.setdefault(rel[k], perturb(rel[k]))
            keep.append(rel)
        lab["relations"] = keep
    lines.append(json.dumps(r, ensure_ascii=False))
open(f"{dst}/responses.jsonl", "w").write("\n".join(lines) + "\n")
# 3. PubMedCausal predictions
rows = json.load(open("/work/shared/data/pubmedcausal/extraction_test.json"))
preds = []
for row in rows[:400]:
    pairs = []
    names = {}
    for p in row["pairs"]:
        if rng.random() < 0.15:
            continue
        pairs.append({"cause": names.setdefault(p["cause"], perturb(p["cause"])),
                      "effect": names.setdefault(p["effect"], perturb(p["effect"]))})
    preds.append({"s/n": row["s/n"], "sentence": row["sentence"], "pairs": pairs})
json.dump({"predictions": preds}, open("/tmp/i40/perturb/pm_pred.json", "w"))
print("ok")
