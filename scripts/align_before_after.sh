#!/usr/bin/env bash
# `--align exact` against the code before event alignment: stdout, stderr and exit codes of 13 commands.
#
#   scripts/align_before_after.sh BASE OUT
#
# BASE: a checkout of causalgraph just before alignment (`git archive ef831b4^1 | tar -x -C BASE`; an older base
# such as f71bf4e differs in 9 of 13 by the graph scores' own changes of 549a54e); OUT: a folder
# for the inputs (scripts/align_before_after_inputs.py writes them) and the outputs. Reads the corpora through
# CAUSALGRAPH_DATA; PYTHON (default python) must have causalgraph's dependencies.
set -u
BASE=$(cd "$1" && pwd); OUT=$(mkdir -p "$2" && cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python}
export CAUSALGRAPH_OFFLINE=1 CAUSALGRAPH_CACHE="$OUT/cache"
cd "$OUT"   # not a checkout: `python -m` puts the working folder first on sys.path
[ -f "$OUT/pm_pred.json" ] || PYTHONPATH="$HERE" $PY "$HERE/scripts/align_before_after_inputs.py" "$OUT"
n=0; bad=0
check() {
  n=$((n+1))
  PYTHONPATH="$BASE" $PY -m causalgraph "$@" >"$OUT/base.out" 2>"$OUT/base.err"; rb=$?
  PYTHONPATH="$HERE" $PY -m causalgraph "$@" --align exact >"$OUT/new.out" 2>"$OUT/new.err"; rn=$?
  if cmp -s "$OUT/base.out" "$OUT/new.out" && cmp -s "$OUT/base.err" "$OUT/new.err" && [ $rb = $rn ]; then
    echo "same ($(wc -c <"$OUT/new.out") bytes out, $(wc -c <"$OUT/new.err") err, rc $rn): $*"
  else
    bad=$((bad+1)); echo "DIFFERENT: $*"
  fi
}
for f in table csv json; do
  check compare-graphs climatecause "$OUT/cc_pred.csv" --format $f
  check evaluate-annotation "$OUT/run" --graphs --format $f
  check evaluate-annotation "$OUT/run" --graphs --per-statement --format $f
  check evaluate-extraction "$OUT/pm_pred.json" --graphs --only-predicted --format $f
done
check compare-graphs "$HERE/tests/data/asia.gml" "$HERE/tests/data/asia.gml"
echo "$n checks, $bad different"
[ $bad = 0 ]
