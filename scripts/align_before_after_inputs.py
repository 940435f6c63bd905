"""Inputs of scripts/align_before_after.sh: gold annotations rewritten as a model might, deterministically.

Writes into OUT: ``cc_pred.csv`` (ClimateCause relations with events rewritten, some relations dropped,
reversed or with the other sign, in the relations format), ``run/`` (an annotate run of mock/oracle over
ClimateCause whose stored labels have their events rewritten and some relations dropped) and
``pm_pred.json`` (predictions for the first 400 PubMedCausal test rows, spans rewritten).

    python scripts/align_before_after_inputs.py OUT
"""

import csv
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

from causalgraph.datasets import load_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _common import rewrite_event  # noqa: E402  (benchmarks/_common.py, shared with bench_alignment.py)

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
rng = random.Random(40)


def perturb(name):
    return rewrite_event(name, rng, added="changes")


cc = load_corpus("climatecause")
with open(out / "cc_pred.csv", "w", newline="") as fh:
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

oracle = out / "oracle-run"
shutil.rmtree(oracle, ignore_errors=True)
subprocess.run([sys.executable, "-m", "causalgraph", "annotate", "--data", "climatecause", "--model", "mock/oracle",
                "--no-progress", "--out", str(oracle)], check=True, stdout=subprocess.DEVNULL)
run = out / "run"
shutil.rmtree(run, ignore_errors=True)
shutil.copytree(oracle, run)
lines = []
for line in open(oracle / "responses.jsonl", encoding="utf-8"):
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
(run / "responses.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

rows = json.loads((Path(load_corpus("pubmedcausal:test").source)).read_text(encoding="utf-8"))
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
(out / "pm_pred.json").write_text(json.dumps({"predictions": preds}), encoding="utf-8")
print(f"inputs written to {out}")
