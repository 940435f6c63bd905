#!/usr/bin/env bash
# The second half of a refactor check (scripts/snapshot_outputs.sh is the first): the items of every
# task and prompt variant `bench tasks` lists, as JSON, and `score` of one text with a fixed answer.
#
#   bash scripts/snapshot_items.sh OUT_DIR
#
# CAUSALGRAPH (default: causalgraph on PATH) and CAUSALGRAPH_DATA (default ../shared/data) are read.
set -u
OUT=${1:?usage: snapshot_items.sh OUT_DIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CG=${CAUSALGRAPH:-causalgraph}
export CAUSALGRAPH_DATA=${CAUSALGRAPH_DATA:-$(cd "$(dirname "$0")/../../shared/data" 2>/dev/null && pwd)}
export CAUSALGRAPH_OFFLINE=1 PYTHONHASHSEED=0
export CAUSALGRAPH_CACHE="$OUT/.cache"

run() {  # run NAME ARGS...: one command, its three outputs kept
  local name=$1; shift
  "$CG" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  echo $? >"$OUT/$name.rc"
}

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
rm -rf "$OUT/.cache"
echo "items snapshot in $OUT: $(find "$OUT" -type f | wc -l) files"
