"""The annotator on the runner with the mock backends: known answers, failures, retries, resume, structured output."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest

from causalgraph.annotation.schema import ANNOTATION_SCHEMA
from causalgraph.apps.annotator import annotate, annotate_corpus, annotate_texts, statements_from_run
from causalgraph.annotation.evaluate import evaluate_annotation
from causalgraph.apps.text_score import score_text
from causalgraph.llm.structured import StructuredBackend, structured_backend
from causalgraph.errors import BackendError, ConfigError, ParseError
from causalgraph.llm.base import Request, request_key
from causalgraph.llm.mock import ConstantBackend

ANSWER = json.dumps({"causal": True, "abbreviations": "GHG = greenhouse gases", "relations": [
    {"target": "reduce", "explicitness": "E", "cause_np": "higher GHG emissions", "cause_context": None,
     "cause_no_quantifier": "greenhouse gas emissions", "cause_belongs_to": None, "effect_np": "lower crop yields",
     "effect_context": "in the tropics", "effect_no_quantifier": "crop yields", "effect_belongs_to": None,
     "combined": None, "nested": None, "relation_type": "positive", "correlation": "negative"},
    {"target": "/", "explicitness": "I", "cause_np": "lower crop yields", "cause_context": None,
     "cause_no_quantifier": "crop yields", "cause_belongs_to": None, "effect_np": "food insecurity",
     "effect_context": None, "effect_no_quantifier": "food insecurity", "effect_belongs_to": None,
     "combined": None, "nested": None, "relation_type": "positive", "correlation": "negative"}]})
TEXT = "Higher GHG emissions reduce crop yields in the tropics, and food insecurity follows."


def test_annotate_returns_the_relations_of_a_known_answer():
    st = annotate(TEXT, "mock/constant", model_options={"text": ANSWER}, cache=False, id="d1")
    assert st.id == "d1" and st.text == TEXT and st.causal
    assert [(r.cause, r.effect, r.correlation.value, r.explicitness.value) for r in st.relations] == [
        ("greenhouse gas emissions", "crop yields", "negative", "explicit"),
        ("crop yields", "food insecurity", "negative", "implicit")]
    assert st.relations[0].effect_context == "in the tropics" and st.relations[1].trigger is None
    assert st.relations[0].abbreviations == "GHG = greenhouse gases"
    info = st.meta["annotation"]
    assert info["rule"] == "json" and info["model"] == "mock/constant" and info["variant"] == "few-shot"
    assert info["exemplars"] == ["B.5.2-table7", "B.5.3-table10", "B.5.3-table11", "B.5.4-shellfish"]


def test_annotate_raises_on_an_unreadable_answer_unless_told_not_to():
    with pytest.raises(ParseError, match="unparsed"):
        annotate(TEXT, "mock/constant", model_options={"text": "Sorry, I cannot."}, cache=False)
    st = annotate(TEXT, "mock/constant", model_options={"text": "Sorry, I cannot."}, cache=False, strict=False)
    assert st.relations == () and st.meta["annotation"]["failed"] is True


def test_annotate_retries_transient_errors_and_reports_permanent_ones():
    st = annotate(TEXT, "mock/flaky", model_options={"pattern": "xs.", "text": ANSWER}, cache=False,
                  retry_base=0.001, retry_cap=0.01)
    assert len(st.relations) == 2
    with pytest.raises(BackendError, match="permanent error"):
        annotate(TEXT, "mock/flaky", model_options={"pattern": "f", "text": ANSWER}, cache=False)


def test_annotate_on_one_text_writes_no_run_folder_and_gives_what_a_run_folder_gives(tmp_path, monkeypatch):
    from causalgraph.runlog.store import RunStore

    monkeypatch.chdir(tmp_path)
    run = annotate_texts([TEXT], "mock/constant", model_options={"text": ANSWER}, cache=False, ids=["d1"],
                         out=tmp_path / "run")
    from_folder = statements_from_run(run.path)[0]

    def no_folder(*args, **kwargs):
        raise AssertionError("annotate() on one text touched a run folder")

    for name in ("acquire", "append", "write_manifest", "write_metrics"):
        monkeypatch.setattr(RunStore, name, no_folder)
    before = sorted(p.name for p in tmp_path.iterdir())
    st = annotate(TEXT, "mock/constant", model_options={"text": ANSWER}, cache=False, id="d1")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert st == from_folder and st.meta == from_folder.meta


def test_annotate_texts_resumes_without_asking_again(tmp_path):
    out = tmp_path / "run"
    texts = [TEXT, "Deforestation increases runoff."]
    r1 = annotate_texts(texts, "mock/constant", out=out, model_options={"text": ANSWER}, cache=False)
    assert (r1.requests_sent, r1.skipped) == (2, 0)
    r2 = annotate_texts(texts, "mock/constant", out=out, model_options={"text": ANSWER}, cache=False)
    assert (r2.requests_sent, r2.skipped) == (0, 2)
    sts = statements_from_run(out)
    assert [s.id for s in sts] == ["text-1", "text-2"] and all(len(s.relations) == 2 for s in sts)
    assert r1.metrics.variants["few-shot"]["evaluated"] is False  # free text has no gold


def test_annotate_corpus_with_the_oracle_reproduces_gold_exactly(tmp_path, climatecause):
    out = tmp_path / "oracle"
    res = annotate_corpus(climatecause, "mock/oracle", out=out, limit=8, cache=False)
    m = res.metrics.variants["few-shot"]
    assert m["parse_failures"] == 0 and m["rules"] == {"embedded": 8}  # the oracle wraps its answer in <Answer>
    rep = evaluate_annotation(out)
    assert rep.pairs["exact"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert all(v["accuracy"] == 1.0 for v in rep.labels.values())
    assert rep.complexity["mae"]["c_s"] == 0.0 and rep.complexity["spearman_rho"] == pytest.approx(1.0)
    assert rep.counts["gold_pairs"] == sum(len({(r.cause.lower(), r.effect.lower()) for r in s.relations})
                                           for s in list(climatecause)[:8])
    # The run's metrics.json carries the same evaluation.
    assert m["pairs"]["exact"]["f1"] == 1.0


def test_annotate_corpus_with_a_constant_wrong_answer_scores_as_computed_by_hand(tmp_path, climatecause):
    out = tmp_path / "const"
    annotate_corpus(climatecause, "mock/constant", out=out, limit=3, cache=False, model_options={"text": ANSWER})
    rep = evaluate_annotation(out, reference="paper")
    gold = list(climatecause)[:3]
    n_gold = sum(len({(r.cause.lower(), r.effect.lower()) for r in s.relations}) for s in gold)
    assert rep.counts == {"statements": 3, "failed": 0, "predicted_pairs": 6, "gold_pairs": n_gold}
    assert rep.pairs["exact"]["precision"] == 0.0
    # Each predicted statement has two negative edges in a chain: C^corr = 2 + 1 path = 3; C^pol = 0.
    assert [r["pred_corr"] for r in rep.per_statement] == [3, 3, 3]
    assert rep.per_statement[0]["pred_c_s"] == pytest.approx(3 / 70)


def test_structured_backend_adds_the_schema_and_changes_the_cache_identity():
    seen = []

    class Capture(ConstantBackend):
        provider = "openai"

        async def complete(self, request):
            # Record what a real structured backend would receive; the mock itself answers without it.
            seen.append(request.params)
            return await super().complete(dataclasses.replace(request, params={}))

    inner = Capture("constant", text="{}")
    wrapped = StructuredBackend(inner, {"response_format": {"type": "json_schema"}})
    assert wrapped.identity()["structured_output"] != StructuredBackend(inner, {"response_format": {}}).identity()[
        "structured_output"]
    req = Request(messages=({"role": "user", "content": "x"},))
    asyncio.run(wrapped.complete(req))
    assert seen == [{"response_format": {"type": "json_schema"}}]
    # what the inner backend declares holds for the wrapper (a mock's free-text option, no batch client)
    assert wrapped.text_options == ("text",) and wrapped.accepted_options == ("latency", "text")
    assert wrapped.batch_client is None and wrapped.greedy_only is False
    assert request_key(wrapped.identity(), req) != request_key(inner.identity(), req)
    # mock has no structured-output mode: the backend is returned as it is.
    assert not isinstance(structured_backend("mock/constant", {"text": "x"}, ANNOTATION_SCHEMA, "a"), StructuredBackend)


def test_score_text_writes_the_graph_page_and_refuses_other_file_names(tmp_path):
    page = tmp_path / "draft.html"
    s = score_text(TEXT, "mock/constant", reference="paper", view=str(page), model_options={"text": ANSWER},
                   cache=False)
    assert s.complexity["corr"] == 3 and page.is_file() and "crop yields" in page.read_text(encoding="utf-8")
    with pytest.raises(ConfigError, match="ending in .html"):
        score_text(TEXT, "mock/constant", reference="paper", view=str(tmp_path / "draft.png"),
                   model_options={"text": ANSWER}, cache=False)


@pytest.mark.model
@pytest.mark.slow
def test_annotate_corpus_end_to_end_with_smollm2(tmp_path, climatecause, smollm2_gguf):
    out = tmp_path / "smol"
    # Checks the pipeline, not the quality: one statement, zero-shot, a short answer.
    res = annotate_corpus(climatecause, "llamacpp/smollm2", out=out, limit=1, variant="zero-shot", max_tokens=48,
                          model_options={"n_ctx": 2048}, cache=False)
    line = json.loads((out / "responses.jsonl").read_text().splitlines()[0])
    assert line["error"] is None and line["response"] and line["rule"] in (
        "json", "fenced", "embedded", "repaired", "list", "arrows", "unparsed", "empty")
    rep = evaluate_annotation(out, reference="paper")
    assert rep.counts["statements"] == 1 and rep.counts["failed"] == int(line["label"] is None)
    assert res.metrics.variants["zero-shot"]["parse_failures"] == rep.counts["failed"]


def test_statements_from_run_restores_input_order_whatever_the_finishing_order(tmp_path):
    out = tmp_path / "run"
    texts = [f"Text number {i} says warming reduces ice." for i in range(12)]
    # latency with concurrency: requests finish in an order the runner does not control.
    annotate_texts(texts, "mock/constant", out=out, model_options={"text": ANSWER, "latency": 0.001},
                   concurrency=6, cache=False)
    assert [s.text for s in statements_from_run(out)] == texts
    assert [s.id for s in statements_from_run(out, ids=["text-3", "text-1"])] == ["text-3", "text-1"]
    with pytest.raises(ConfigError, match="no answer for statement\\(s\\) text-99"):
        statements_from_run(out, ids=["text-99"])
