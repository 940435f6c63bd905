"""Answer parsing: rules, wordings, negation, failures counted, offline re-parse."""

from __future__ import annotations

import json

import pytest

from causalgraph.bench import parse
from causalgraph.taskkit.labels import parse_labels
from causalgraph.bench.reparse import reparse_run
from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run

from bench_helpers import YN_TASK, yn_items

SAME = {"positive": "same", "negative": "opposite"}
YN = {"yes": "Yes", "no": "No"}
POS = {k: k for k in ("start", "middle", "end", "none")}


@pytest.mark.parametrize("text, words, expected", [
    ("Reasoning first.\n<Answer>opposite</Answer>", SAME, ("negative", "tag")),
    ("<answer> Same. </answer>", SAME, ("positive", "tag")),
    ("... so the answer is <Answer>middle", POS, ("middle", "tag")),  # unclosed tag at the end
    ("Answer: increase", {"positive": "increase", "negative": "decrease"}, ("positive", "answer_colon")),
    ("**Final answer:** Decrease.", {"positive": "increase", "negative": "decrease"}, ("negative", "answer_colon")),
    ("[MASK] = negative", {"positive": "positive", "negative": "negative"}, ("negative", "mask")),
    ("  \"YES\"  ", YN, ("yes", "exact")),
    ("No.", YN, ("no", "exact")),
    ("Both change in the same direction.", SAME, ("positive", "last_label")),
    ("It is not the start of the chain; it is the end.", POS, ("end", "last_label")),
    ("The correlation is not positive but negative.", {"positive": "positive", "negative": "negative"},
     ("negative", "last_label")),
    ("Positive rather than negative.", {"positive": "positive", "negative": "negative"}, ("positive", "last_label")),
    ("not start, end", POS, ("end", "last_label")),
    # The canonical label is accepted even when the variant asks for another word.
    ("Answer: positive", SAME, ("positive", "answer_colon")),
])
def test_parse_labels_finds_the_committed_label(text, words, expected):
    assert parse_labels(text, words) == expected


@pytest.mark.parametrize("text, words", [
    ("not yes", YN),
    ("It is certainly not the middle.", POS),
    ("neither start nor end", POS),
    ("I cannot tell.", SAME),
    ("<Answer>{start, middle, end, none}</Answer>", POS),  # an echo of the answer set commits to nothing
])
def test_parse_labels_returns_none_when_nothing_is_committed(text, words):
    assert parse_labels(text, words) == (None, "unparsed")


def test_parse_labels_empty_answer_is_its_own_rule():
    assert parse_labels("   ", YN) == (None, "empty")
    assert parse_labels(None, YN) == (None, "empty")


def test_parse_labels_tag_skips_an_echoed_answer_set_for_a_later_commitment():
    text = "Format: <Answer>{start, middle, end, none}</Answer>. Thinking... <Answer>start</Answer>"
    assert parse_labels(text, POS) == ("start", "tag")


def test_parse_uses_the_variant_wording_of_the_catalog():
    # corri 0_3 asks increase/decrease: "increase" in reasoning about 0_1 is no answer there.
    assert parse("If X were to increase, Y would decrease.", "corri", "0_3") == ("negative", "last_label")
    assert parse("If X were to increase... Answer: negative", "corri", "0_1") == ("negative", "answer_colon")
    assert parse("If X were to increase, Y would too.", "corri", "0_1") == (None, "unparsed")
    assert parse("<Answer>Yes</Answer>", "ccr-member", "A_4") == ("yes", "tag")


def test_unparsed_answers_count_as_wrong_and_as_parse_failures(isolated_cache, tmp_path):
    res = run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=yn_items(6, variants=("v_1",)),
                        out=tmp_path / "a", model_options={"text": "I would rather not say."})
    m = load_run(res.path).metrics.variants["v_1"]
    assert (m["parse_failures"], m["parse_failure_rate"], m["recall"], m["accuracy"]) == (6, 1.0, 0.0, 0.0)
    assert m["rules"] == {"unparsed": 6}


def test_reparse_run_rescores_stored_answers_offline(isolated_cache, tmp_path):
    res = run_benchmark(YN_TASK, ["v_1"], "mock/constant", items=yn_items(4, variants=("v_1",)),
                        out=tmp_path / "a", model_options={"text": "Yes"})
    path = res.path / "responses.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    # Pretend an older parser had failed on these answers.
    for rec in lines:
        rec["label"], rec["rule"] = None, "unparsed"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    dry = reparse_run(res.path, dry_run=True)
    assert dry == [{"variant": "v_1", "lines": 4, "changed": 4, "parse_failures_before": 4,
                    "parse_failures_after": 0}]
    assert all(json.loads(x)["label"] is None for x in path.read_text().splitlines())
    reparse_run(res.path)
    run = load_run(res.path)
    assert [r.label for r in run.responses] == ["yes"] * 4 and {r.rule for r in run.responses} == {"exact"}
    assert run.metrics.variants["v_1"]["recall"] == 1.0 and run.metrics.requests_sent == 4
