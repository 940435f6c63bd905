"""PubMedCausal tasks on the benchmark runner: registration, scoring, resume, predictions.json."""

import json

import pytest

from causalgraph.tasks import get_task
from causalgraph.apps import run_extraction
from causalgraph.extraction import evaluate_extraction, load_predictions, parse_tuples
from causalgraph.extraction.catalog import DETECT_TASK, EXTRACT_TASK
from causalgraph.llm.base import Backend, Completion


class GoldTuples(Backend):
    """Answers each extraction item with its gold pairs in the paper's tuple format."""

    provider = "test"

    def __init__(self, gold_by_item, **kw):
        super().__init__("gold-tuples", **kw)
        self.gold = gold_by_item
        self.calls = 0

    async def complete(self, request):
        self.calls += 1
        pairs = self.gold[request.meta["item_id"]]
        text = "\n".join(f"Tuple {i}: {{Cause: {p['cause']}, Effect: {p['effect']}, Causality_Type: "
                         f"{p['causality'] or 'Explicit'}, Sententiality: {p['sententiality'] or 'intra'}}}"
                         for i, p in enumerate(pairs, start=1))
        return Completion(text=text, prompt_tokens=1, completion_tokens=1, latency_s=0.0, finish_reason="stop",
                          model="gold-tuples", raw={})


def test_tasks_are_registered_with_the_runner():
    ext, det = get_task(EXTRACT_TASK), get_task(DETECT_TASK)
    assert ext.kind == "pairs" and det.kind == "binary" and det.positive == "1"
    assert ext.list_variants() == ["zero-shot", "few-shot", "cot", "cot-few-shot", "least-to-most", "react"]
    assert ext.strategy_of("least-to-most") == "L2M"
    assert det.parse_answer("Final Answer: 0", "react") == ("0", "final-marker")


def test_run_extraction_with_gold_answers_scores_one_and_resumes(tmp_path, pubmed_test):
    from causalgraph.extraction.catalog import extraction_items

    items = extraction_items(pubmed_test, "few-shot", limit=4)
    backend = GoldTuples({i.id: i.meta["pairs"] for i in items})
    out = tmp_path / "run"
    r = run_extraction("test/gold-tuples", "few-shot", limit=4, out=out, backend=backend, cache=False)
    m = r.metrics.variants["few-shot"]
    assert m["token_pair_f1"] == 1.0 and m["exact_pair_f1"] == 1.0 and m["parse_failures"] == 0
    # The headline scores `bench report` prints are the token pair scores.
    assert (m["precision"], m["recall"], m["f1"]) == (1.0, 1.0, 1.0)
    assert m["gold_pairs"] == sum(len(i.meta["pairs"]) for i in items)
    preds = load_predictions(out)
    assert list(preds.rows) == ["8084", "22166", "2892", "154"] and set(preds.rules()) == {"braces"}
    rep = evaluate_extraction(out, pubmed_test, only_predicted=True)
    assert rep.metric("exact")["f1"] == 1.0
    again = run_extraction("test/gold-tuples", "few-shot", limit=4, out=out, backend=backend, cache=False)
    assert again.requests_sent == 0 and again.skipped == 4 and backend.calls == 4


def test_run_extraction_null_answers_count_as_parse_failures_and_missed_pairs(tmp_path, pubmed_test):
    r = run_extraction("mock/constant", "zs", limit=3, out=tmp_path / "r", cache=False,
                       model_options={"text": "I do not know."})
    m = r.metrics.variants["zero-shot"]
    assert m["parse_failures"] == 3 and m["null_predictions"] == 3 and m["token_pair_recall"] == 0.0
    saved = json.loads((tmp_path / "r" / "predictions.json").read_text())
    assert [p["null"] for p in saved["predictions"]] == [True, True, True]
    assert saved["strategy"] == "zero-shot" and saved["model"] == "mock/constant"


def test_run_extraction_detection_scores_the_causal_class(tmp_path):
    r = run_extraction("mock/constant", "cot", task="detect", limit=5, out=tmp_path / "d", cache=False,
                       model_options={"text": "Reasoning... Final Output: \"1\""})
    m = r.metrics.variants["cot"]
    # The prepared split holds causal rows only: all five are true positives.
    assert (m["precision"], m["recall"], m["f1"]) == (1.0, 1.0, 1.0)


def test_run_extraction_refuses_an_unknown_task_before_running(tmp_path):
    from causalgraph.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown PubMedCausal task 'summarise'"):
        run_extraction("mock/constant", task="summarise", out=tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_run_extraction_several_strategies_write_one_predictions_file_each(tmp_path):
    out = tmp_path / "m"
    run_extraction("mock/constant", "zs,fs", limit=2, out=out, cache=False,
                   model_options={"text": "No relations extracted."})
    assert (out / "predictions.zero-shot.json").is_file() and (out / "predictions.few-shot.json").is_file()
    from causalgraph.errors import SchemaError

    with pytest.raises(SchemaError, match="predictions.zero-shot.json"):
        load_predictions(out)


@pytest.mark.model
@pytest.mark.slow
def test_run_extraction_end_to_end_with_smollm2(tmp_path, pubmed_test, smollm2_gguf):
    out = tmp_path / "smol"
    r = run_extraction("llamacpp/smollm2", "zero-shot", limit=2, out=out, max_tokens=48,
                       model_options={"n_ctx": 2048}, cache=False)
    lines = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()]
    assert len(lines) == 2 and all(x["error"] is None for x in lines)
    preds = load_predictions(out)
    for line in lines:
        parsed = parse_tuples(line["response"])
        row = preds.rows[str(line["meta"]["s/n"])]
        assert row.rule == parsed.rule and row.null == parsed.null
        assert [p.cause for p in row.pairs] == [p.cause for p in parsed.pairs]
    m = r.metrics.variants["zero-shot"]
    rep = evaluate_extraction(out, pubmed_test, only_predicted=True)
    assert m["token_pair_f1"] == pytest.approx(rep.metric("token")["f1"])
    assert m["parse_failures"] == rep.summary["null_predictions"]


def test_records_to_predictions_follows_the_given_row_order_not_completion_order():
    from causalgraph.extraction.predictions import records_to_predictions
    from causalgraph.runlog import RunRecord

    recs = [RunRecord("pubmedcausal-extract", "zero-shot", f"pmc-{sn}",
                      meta={"s/n": sn, "pairs": [{"cause": "a", "effect": "b"}]}, label=[], rule="none-stated",
                      error=None) for sn in ("3", "1", "2")]
    recs.append(RunRecord("pubmedcausal-extract", "zero-shot", "pmc-4", meta={"s/n": "4"}, label=None, rule=None,
                          error="timeout"))
    preds, gold = records_to_predictions(recs, order=["1", "2", "3", "4"])
    assert list(preds.rows) == ["1", "2", "3"] and list(gold.rows) == ["1", "2", "3"]
    assert gold.n_pairs == 3 and preds.n_pairs == 0 and not preds.rows["1"].null
