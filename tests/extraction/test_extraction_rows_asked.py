"""Which gold rows an extraction evaluation scores (the rows asked, or --all-rows), and repeated pairs counted the
same way on the parsed side as in the gold."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.cli import main
from causalgraph.extraction.evaluate import evaluate_extraction
from causalgraph.scoring.scores import prf
from causalgraph.extraction.tuples import parse_tuples


def _extract(tmp_path, limit: int, pubmed_test_path):
    out = tmp_path / "x"
    rc = main(["extract", "--model", "mock/oracle", "--data", str(pubmed_test_path), "--limit", str(limit),
               "--out", str(out)])
    assert rc == 0
    return out


def _gold_rows(pubmed_test_path):
    return json.loads(pubmed_test_path.read_text(encoding="utf-8"))


def test_a_limited_run_is_scored_on_the_rows_it_asked_and_says_how_many_it_did_not(tmp_path, isolated_cache,
                                                                                      capsys, pubmed_test_path):
    out = _extract(tmp_path, 20, pubmed_test_path)
    capsys.readouterr()
    rc = main(["evaluate-extraction", str(out), "--gold", str(pubmed_test_path)])
    text = capsys.readouterr().out
    gold = _gold_rows(pubmed_test_path)
    lines = text.splitlines()
    assert rc == 0 and lines[0].startswith("mode paper; gold rows 20 (0 without prediction, 0 null)")
    notes = [x for x in lines if x.startswith("note: ")]
    assert notes == [f"note: {len(gold) - 20:,} rows of the gold were not asked by {out} and are left out "
                     "(--all-rows counts them as missed)"]
    rep = evaluate_extraction(out, pubmed_test_path)
    assert rep.metric("token", "pair")["f1"] == 1.0 and rep.summary["gold_rows_not_asked"] == len(gold) - 20
    # --all-rows: today's behaviour, every gold row, the 1,953 never asked counting as missed.
    every = evaluate_extraction(out, pubmed_test_path, all_rows=True)
    asked_pairs = sum(len(r["pairs"]) for r in gold[:20])
    all_pairs = sum(len(r["pairs"]) for r in gold)
    assert every.summary["gold_rows"] == len(gold) and every.summary["gold_pairs"] == all_pairs
    assert every.metric("exact")["f1"] == pytest.approx(prf(asked_pairs, asked_pairs, asked_pairs, all_pairs)["f1"])


def test_a_failed_request_is_asked_and_its_gold_pairs_count_as_missed(tmp_path, isolated_cache, pubmed_test_path):
    out = _extract(tmp_path, 3, pubmed_test_path)
    lines = (out / "responses.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec.update(error="HTTP 500: server error", response=None, label=None, rule=None)
    (out / "responses.jsonl").write_text("\n".join([json.dumps(rec)] + lines[1:]) + "\n")
    (out / "predictions.json").unlink()
    rep = evaluate_extraction(out, pubmed_test_path)
    gold = _gold_rows(pubmed_test_path)[:3]
    assert rep.summary["gold_rows"] == 3 and rep.summary["rows_without_prediction"] == 1
    got = sum(len(r["pairs"]) for r in gold[1:])
    assert rep.metric("exact")["recall"] == pytest.approx(got / sum(len(r["pairs"]) for r in gold))


def test_predictions_of_every_row_score_the_same_with_or_without_all_rows(tmp_path, pubmed_test_path):
    # The authors' file predicts all 1,973 rows: Table 5 is computed on every row either way.
    gold = _gold_rows(pubmed_test_path)
    pred = tmp_path / "p.json"
    pred.write_text(json.dumps({"model": "hand", "predictions": [
        {"s/n": r["s/n"], "sentence": r["sentence"], "pairs": r["pairs"][:1]} for r in gold]}), encoding="utf-8")
    a = evaluate_extraction(pred, pubmed_test_path).to_dict()
    b = evaluate_extraction(pred, pubmed_test_path, all_rows=True).to_dict()
    assert a["summary"].pop("rows_scored") == "asked" and b["summary"].pop("rows_scored") == "all"
    assert a == b and a["summary"]["gold_rows"] == len(gold) and a["notes"] == []


def test_all_rows_and_only_predicted_exclude_each_other(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["evaluate-extraction", str(tmp_path), "--all-rows", "--only-predicted"])
    assert exc.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_an_oracle_copying_the_gold_scores_exact_pair_f1_one_repeated_pairs_included(tmp_path, isolated_cache,
                                                                                      pubmed_test_path):
    out = _extract(tmp_path, 50, pubmed_test_path)
    rep = evaluate_extraction(out, pubmed_test_path)
    assert rep.metric("exact")["f1"] == 1.0 and rep.metric("token", "pair")["f1"] == 1.0
    gold = {str(r["s/n"]): r for r in _gold_rows(pubmed_test_path)}
    # s/n 21640 lists two pairs twice each: 4 gold tuples, 4 parsed ones.
    assert len(gold["21640"]["pairs"]) == 4
    row = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()
           if str(json.loads(x)["meta"]["s/n"]) == "21640"]
    assert row and len(row[0]["label"]) == 4


_SPAN = st.text(alphabet=st.sampled_from("abcdefgh "), min_size=1, max_size=8).map(str.strip).filter(bool)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_SPAN, _SPAN), min_size=1, max_size=8).flatmap(
    lambda pairs: st.lists(st.sampled_from(pairs), min_size=1, max_size=12)))
def test_the_parser_keeps_every_listed_pair_as_often_as_it_is_listed(pairs):
    text = "\n".join(f"Tuple {i}: {{Cause: {c}, Effect: {e}}}" for i, (c, e) in enumerate(pairs, start=1))
    r = parse_tuples(text)
    assert [(p.cause, p.effect) for p in r.pairs] == pairs
    repeated = {p: n for p, n in Counter(pairs).items() if n > 1}
    assert len(r.issues) == len(repeated)
