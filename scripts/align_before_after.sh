#!/usr/bin/env bash
# stdout and stderr of the base commit (f71bf4e) against this branch with --align exact
cd /tmp
export CAUSALGRAPH_DATA=/work/shared/data CAUSALGRAPH_OFFLINE=1 CAUSALGRAPH_CACHE=/tmp/i40/cache
PY=/work/main/.venv/bin/python
P=/tmp/i40/perturb
n=0; bad=0
check() {
  n=$((n+1))
  PYTHONPATH=/tmp/i40/base $PY -m causalgraph "$@" >$P/base.out 2>$P/base.err; rb=$?
  PYTHONPATH=/work/wt/i40-align $PY -m causalgraph "$@" --align exact >$P/new.out 2>$P/new.err; rn=$?
  if cmp -s $P/base.out $P/new.out && cmp -s $P/base.err $P/new.err && [ $rb = $rn ]; then
    echo "same ($(wc -c <$P/new.out) bytes out, $(wc -c <$P/new.err) err, rc $rn): $*"
  else
    bad=$((bad+1)); echo "DIFFERENT: $*"; diff $P/base.out $P/new.out | head -5; diff $P/base.err $P/new.err | head -5
  fi
}
for f in table csv json; do
  check compare-graphs climatecause $P/cc_pred.csv --format $f
  check evaluate-annotation $P/run --graphs --format $f
  check evaluate-annotation $P/run --graphs --per-statement --format $f
  check evaluate-extraction $P/pm_pred.json --graphs --only-predicted --format $f
done
check compare-graphs /work/wt/i40-align/tests/data/asia.gml /work/wt/i40-align/tests/data/asia.gml
echo "$n checks, $bad different"
