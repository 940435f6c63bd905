"""Benchmark: the tolerant annotation parser against plain ``json.loads``, and its scaling on bad answers.

Measured in the same process:

* clean answers: the 75 ClimateCause gold annotations written in the answer
  format (what ``mock/oracle`` answers), read by ``parse_annotation`` and by
  ``json.loads`` (the baseline: no tolerance, no field normalisation);
  ratio = parser time / ``json.loads`` time;
* the slow paths small models trigger, at growing sizes (16 KB … 1 MB):
  an answer cut off by the token limit (``repaired``: the complete
  relations are kept), prose with a degenerate loop and no JSON
  (``unparsed``: every rule tried and failed).  The time per KB should stay
  flat as size doubles (the parser is linear: no rule backtracks);
* ``evaluate_statements`` on the oracle's 75 statements (one-to-one
  matching, complexity of both sides), against ``complexity`` alone on the
  gold statements (the part of the work that is not matching).

Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_annotation.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json

import causalgraph as cg
from causalgraph.annotation.evaluate import evaluate_statements
from causalgraph.annotation.answer import parse_annotation, statement_to_answer, to_statement
from causalgraph.metrics.complexity import complexity

from _common import best, load_average, min_median_max, side_by_side


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    corpus = cg.load_climatecause()
    answers = [json.dumps(statement_to_answer(s)) for s in corpus]
    size = sum(len(a) for a in answers)

    print(f"load average {load_average()}; {args.repeat} alternating rounds, min / median / max", flush=True)
    r = side_by_side(lambda: [parse_annotation(a) for a in answers], lambda: [json.loads(a) for a in answers],
                     args.repeat)
    print(f"clean answers: {len(answers)} answers, {size / 1024:.0f} KB")
    print(f"  parse_annotation {min_median_max(r['ours'], 1, scale=1e3)} ms; json.loads {min_median_max(r['baseline'], 1, scale=1e3)} ms; "
          f"ratio {' / '.join(f'{x:.1f}' for x in r['ratio'])}x")

    rel = json.dumps(statement_to_answer(corpus["cc-059"])["relations"][0])
    print("slow paths (time per KB should stay flat as size doubles):")
    for kb in (16, 64, 256, 1024):
        n = max(1, kb * 1024 // (len(rel) + 2))
        cut = ('{"causal": true, "abbreviations": null, "relations": [' + ", ".join([rel] * n))[: kb * 1024]
        loop = ("The cause is false, " * (kb * 1024 // 20 + 1))[: kb * 1024]
        t_cut = best(lambda: parse_annotation(cut), max(1, args.repeat // 2))
        t_loop = best(lambda: parse_annotation(loop), max(1, args.repeat // 2))
        p = parse_annotation(cut)
        print(f"  {kb:5d} KB  cut-off answer {t_cut * 1e3:8.2f} ms ({t_cut * 1e3 / kb:.3f} ms/KB, rule {p.rule}, "
              f"{len(p.relations)} relations kept)  degenerate prose {t_loop * 1e3:8.2f} ms "
              f"({t_loop * 1e3 / kb:.3f} ms/KB, rule {parse_annotation(loop).rule})")

    preds = [to_statement(parse_annotation(a), s.text, id=s.id) for a, s in zip(answers, corpus)]
    golds = list(corpus)
    r = side_by_side(lambda: evaluate_statements(preds, golds, reference="paper"),
                     lambda: [complexity(s) for s in golds], args.repeat)
    print(f"evaluation of 75 statements: {min_median_max(r['ours'], 1, scale=1e3)} ms; complexity of the gold side alone "
          f"{min_median_max(r['baseline'], 1, scale=1e3)} ms; ratio {' / '.join(f'{x:.1f}' for x in r['ratio'])}x "
          "(two complexity passes + matching)")
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
