#!/usr/bin/env bash
# Write the output of every causalgraph command on the real corpora into one folder, so that a
# refactor can be checked byte for byte:
#
#   bash scripts/snapshot_outputs.sh OUT_DIR            # then, after the change,
#   bash scripts/snapshot_outputs.sh OUT_DIR2 && python scripts/compare_snapshots.py OUT_DIR OUT_DIR2
#
# Each command's stdout, stderr and exit status are kept (NAME.out, NAME.err, NAME.rc); folders a
# command writes (report, run folders, export-dataset, export-graphs, bench view) are kept under
# NAME.d/. What varies from run to run by design is masked: the absolute snapshot folder (written
# as $OUT), timestamps, durations and latencies in run manifests and records, and lock files. Mock models only: no network, no model files.
#
# CAUSALGRAPH (default: causalgraph on PATH) and CAUSALGRAPH_DATA (default ../shared/data) are read.
# CAUSALGRAPH is one program (no arguments). To snapshot another checkout, point it at a wrapper such as
#   #!/bin/sh
#   PYTHONSAFEPATH=1 PYTHONPATH=/path/to/checkout exec python -m causalgraph "$@"
# PYTHONSAFEPATH=1 matters: `python -m` puts the current folder first on sys.path, so that without it a
# wrapper run from inside another checkout imports that checkout's causalgraph instead.
set -u
OUT=${1:?usage: snapshot_outputs.sh OUT_DIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CG=${CAUSALGRAPH:-causalgraph}
export CAUSALGRAPH_DATA=${CAUSALGRAPH_DATA:-$(cd "$(dirname "$0")/../../shared/data" 2>/dev/null && pwd)}
export CAUSALGRAPH_OFFLINE=1 PYTHONHASHSEED=0
# Progress lines on stderr (bench run, export-dataset: one every CAUSALGRAPH_PROGRESS_INTERVAL seconds when
# stderr is a file) say how many seconds have passed and where the clock found the job: no two snapshots
# agree on them. No job here runs this long, so none prints any.
export CAUSALGRAPH_PROGRESS_INTERVAL=1000000000
# The response cache lives in the snapshot, so that mock runs are asked afresh each time.
export CAUSALGRAPH_CACHE="$OUT/.cache"

run() {  # run NAME ARGS...: one command, its three outputs kept
  local name=$1; shift
  "$CG" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  echo $? >"$OUT/$name.rc"
}

run info info
run info-pubmed info --data pubmedcausal
for f in table csv json; do
  run complexity-$f complexity --format $f
  run readability-$f readability --format $f
  run chains-$f chains --format $f
done
run complexity-summary complexity --summary
run complexity-test complexity --split test --format csv
run chains-sd chains --rule shortest-distance --format csv
run extract extract --model mock/oracle --limit 30 --strategy zero-shot,few-shot --out "$OUT/extract.d"
run evaluate-extraction evaluate-extraction "$OUT/extract.d/predictions.zero-shot.json" --format csv
run evaluate-extraction-hungarian evaluate-extraction "$OUT/extract.d/predictions.few-shot.json" --mode hungarian --format json
run extraction-chains extraction-chains pubmedcausal:test --format csv
run extraction-chains-run extraction-chains "$OUT/extract.d/predictions.zero-shot.json" --merge normalized --format csv
run bench-tasks bench tasks --format csv
for s in cc-007 cc-042 cc-063; do
  for e in adjacency single-node graphml json multinode matrix dot incident; do
    run encode-$s-$e encode --statement $s --encoding $e
  done
  run encode-$s-signs encode --statement $s --encoding adjacency --signs
done
run items-corri items --task corri --variant 0_1 --format json
run items-ccr-member-dot items --task ccr-member --variant A_5 --encoding dot --format json
run items-reach-letters items --task reachability --variant A_1 --event-names letters --format json
run items-detect items --task pubmedcausal-detect --variant zero-shot --format json
run items-tables items --task ccr-position --variant SN_5 --prompts tables --format json
run export-dataset export-dataset "$OUT/export-dataset.d"
run export-graphs export-graphs --format graphml "$OUT/export-graphs.d"
run export-graphs-dagitty export-graphs --format dagitty "$OUT/export-graphs-dagitty.d"
run compare-graphs compare-graphs --format csv climatecause climatecause
for t in corri ccr-position ccr-member reachability parents; do
  v=$("$CG" bench tasks --format json | python3 -c "import json,sys; print([r for r in json.load(sys.stdin) if r['task']=='$t'][0]['variants'].split(',')[0])")
  run run-$t bench run --task $t --variant "$v" --model mock/oracle --limit 40 --out "$OUT/run-$t.d"
  # mock/noisy is wrong with probability flip per item at any temperature (issue 35, item 10: it used to be the
  # oracle at temperature 0 and on annotate). These runs sample (--temperature 1), whose draws did not change;
  # a snapshot taken before that fix differs in every bench run's closing summary on stderr (it now adds up:
  # written = asked + sharing a failed request + cache hits) and in a noisy answer that had no other label to
  # give (now an empty answer, scored wrong, where it was the right one).
  run run-$t-noisy bench run --task $t --variant "$v" --model mock/noisy --temperature 1 --limit 40 --out "$OUT/run-$t-noisy.d"
  run report-$t-table bench report "$OUT/run-$t.d"
  run report-$t-json bench report "$OUT/run-$t-noisy.d" --format json
done
run loglik bench run --task ccr-member --variant A_5 --model mock/noisy --method loglik --limit 40 --out "$OUT/loglik.d"
run loglik-report bench report "$OUT/loglik.d" --format json
run mcnemar stats mcnemar "$OUT/run-corri.d" "$OUT/run-corri-noisy.d" --format csv
run bench-view bench view "$OUT/run-ccr-position.d" "$OUT/run-ccr-position-noisy.d" -o "$OUT/bench-view.html"
run annotate annotate --data climatecause --limit 5 --model mock/oracle --out "$OUT/annotate.d"
run evaluate-annotation evaluate-annotation "$OUT/annotate.d" --format csv
run view view --statement cc-007 -o "$OUT/view.html"
run report report -o "$OUT/report.d" --max-graphs 5 --runs "$OUT/run-corri.d"

# CauseNet: no corpus file is shipped, so a small one is written here, the same bytes every time (Python's
# standard library only): 400 CauseNet-shaped lines over 60 concepts, compressed as four bz2 streams (as a
# parallel bzip2 writes the release), read by the loader, the seek index and sample-subgraphs --sources.
CN="$OUT/causenet-small.jsonl.bz2"
python3 - "$CN" <<'PYEOF'
import bz2, json, sys
lines = []
for i in range(400):
    c, e = (i * 7) % 60, (i * 11 + 3) % 60
    if c == e:
        e = (e + 1) % 60
    src = ({"type": "wikipedia_sentence", "payload": {"sentence": {"surface": f"term {c} causes term {e} ({i})."}}}
           if i % 3 else {"type": "wikipedia_infobox", "payload": {"infobox_argument": "causes"}})
    lines.append(json.dumps({"causal_relation": {"cause": {"concept": f"term_{c}"}, "effect": {"concept": f"term_{e}"}},
                             "sources": [src]}) + "\n")
with open(sys.argv[1], "wb") as f:
    for k in range(4):
        f.write(bz2.compress("".join(lines[k * 100:(k + 1) * 100]).encode("utf-8"), 9))
PYEOF
run causenet-chains chains --data "causenet:$CN" --format csv
run causenet-index causenet index --data "$CN" --format json
run causenet-sources causenet sources --data "$CN" "term 7" "term 14" --format json
run causenet-subgraphs sample-subgraphs --data "causenet:$CN" --random 5 --seed 1 --sources -o "$OUT/causenet-subgraphs.jsonl"
run causenet-strata sample-subgraphs --data "causenet:$CN" --random 8 --seed 2 --stratify support,size -o "$OUT/causenet-strata.jsonl"

# SNAPSHOT_ITEMS=1: also the items of every task and prompt variant `bench tasks` lists (220 commands,
# about 700 MB) and `score` of one text with a fixed answer.
if [ "${SNAPSHOT_ITEMS:-0}" = 1 ]; then
  "$CG" bench tasks --format csv | python3 -c '
import csv, sys
for row in csv.DictReader(sys.stdin):
    for v in row["variants"].split(","):
        print(row["task"], v)' | while read -r task variant; do
    run "items-$task-$variant" items --task "$task" --variant "$variant" --format json
  done
  answer='{"causal": true, "relations": [{"target": "reduces", "explicitness": "E", "cause_np": "warming", "cause_no_quantifier": "warming", "effect_np": "sea ice", "effect_no_quantifier": "sea ice", "relation_type": "positive", "correlation": "negative"}]}'
  run score score "Warming reduces sea ice." --model mock/constant --model-option "text=$answer" --no-cache --format json
  run score-table score "Warming reduces sea ice." --model mock/constant --model-option "text=$answer" --no-cache
fi

# Mask what varies by design: the snapshot's own path, and times in manifests and metrics.
find "$OUT" -type f ! -path "$OUT/.cache/*" -print0 | xargs -0 sed -i -E \
  -e "s#$OUT#\$OUT#g" \
  -e 's/"(started|finished|created|updated|written)(_at)?": ?"[^"]*"/"\1\2": "T"/g' \
  -e 's/"(elapsed|duration|wall|latency)(_s|_ms)?": ?[0-9.e+-]+/"\1\2": 0/g' \
  -e 's/"time": ?"[^"]*"/"time": "T"/g' 2>/dev/null
# A run folder's lock names the writer's pid.  The item details of bench view pages and report --runs
# pages are gzipped (base64) and hold times and latencies the sed above cannot reach: compare those two
# pages after decompressing them.
find "$OUT" -name .lock -delete
rm -rf "$OUT/.cache"
echo "snapshot in $OUT: $(find "$OUT" -type f | wc -l) files"
