"""The tolerant annotation parser: rules, label spellings, issues, and the round trip with gold."""

from __future__ import annotations

import json

import pytest

from causalgraph.annotation.answer import (
    RULES,
    parse_annotation,
    statement_to_answer,
    to_statement,
)
from causalgraph.errors import ParseError
from causalgraph.metrics.complexity import complexity

REL = {"target": "reduces", "explicitness": "E", "cause_np": "further warming", "cause_context": None,
       "cause_no_quantifier": "warming", "cause_belongs_to": None, "effect_np": "less sea ice",
       "effect_context": "in the Arctic", "effect_no_quantifier": "sea ice", "effect_belongs_to": None,
       "combined": None, "nested": None, "relation_type": "positive", "correlation": "negative"}
ANSWER = {"causal": True, "abbreviations": None, "relations": [REL]}


def test_parse_annotation_reads_a_plain_json_answer_with_rule_json():
    p = parse_annotation(json.dumps(ANSWER))
    assert p.rule == "json" and not p.failed and p.issues == ()
    r = p.relations[0]
    assert (r["cause_no_quantifier"], r["effect_no_quantifier"], r["effect_context"]) == ("warming", "sea ice",
                                                                                            "in the Arctic")
    assert (r["explicitness"], r["relation_type"], r["correlation"]) == ("explicit", "positive", "negative")


def test_parse_annotation_reads_a_fenced_block_after_prose():
    p = parse_annotation("Here is the annotation:\n```json\n" + json.dumps(ANSWER) + "\n```\nDone.")
    assert p.rule == "fenced" and p.relations[0]["cause_np"] == "further warming"


def test_parse_annotation_reads_an_object_embedded_in_an_answer_tag():
    p = parse_annotation("<Answer>" + json.dumps(ANSWER) + "</Answer>")
    assert p.rule == "embedded" and len(p.relations) == 1


def test_parse_annotation_reads_an_object_after_an_unmatched_quote_in_the_prose():
    # The inch mark opens no JSON string: the object after it is read as written, by the embedded rule
    # (a scan that paired every quote of the text took its braces for string content, and only the
    # repair rule found the object).
    text = 'On a 5" screen: ' + json.dumps(ANSWER) + ' (not {"relations": []})'
    p = parse_annotation(text)
    assert p.rule == "embedded" and p.causal is True and len(p.relations) == 1


def test_parse_annotation_repairs_trailing_commas_and_python_literals():
    text = "{'causal': True, 'abbreviations': None, 'relations': [{'cause_np': 'a', 'effect_np': 'b', " \
           "'nested': 'yes', 'combined': False},],}"
    p = parse_annotation(text)
    assert p.rule == "repaired"
    assert p.relations[0]["nested"] is True and p.relations[0]["combined"] is False


def test_parse_annotation_keeps_complete_relations_of_an_answer_cut_off_by_the_token_limit():
    full = json.dumps({"causal": True, "abbreviations": None, "relations": [REL, {**REL, "cause_np": "CO2"}]})
    cut = full[: full.index('"CO2"') + 3]
    p = parse_annotation(cut)
    assert p.rule == "repaired" and len(p.relations) == 1
    assert any("cut off" in i for i in p.issues)


def test_parse_annotation_reads_a_bare_list_and_arrow_lines():
    p = parse_annotation(json.dumps([REL, REL]))
    assert p.rule == "list" and p.causal is True and len(p.relations) == 2
    a = parse_annotation("1. deforestation -> CO2 emissions\n2. warming → sea level rise")
    assert a.rule == "arrows"
    assert [(r["cause_np"], r["effect_np"]) for r in a.relations] == [("deforestation", "CO2 emissions"),
                                                                      ("warming", "sea level rise")]
    # Arrow relations carry no no-quantifier form: the NP stands in, and each substitution is reported.
    assert sum("no_quantifier missing" in i for i in a.issues) == 4


@pytest.mark.parametrize("text,rule", [("", "empty"), ("   ", "empty"), (None, "empty"),
                                       ("I cannot annotate this.", "unparsed"), ('{"foo": 1}', "unparsed")])
def test_parse_annotation_reports_failure_without_guessing(text, rule):
    p = parse_annotation(text)
    assert p.rule == rule and p.failed and p.causal is None and p.relations == ()
    assert rule in RULES and p.issues


def test_parse_annotation_accepts_the_corpus_label_spellings_and_reports_unknown_ones():
    rel = {**REL, "correlation": "Negative_correlation", "relation_type": "Positive", "explicitness": "implicit"}
    p = parse_annotation(json.dumps({"relations": [rel]}))
    assert (p.relations[0]["correlation"], p.relations[0]["relation_type"], p.relations[0]["explicitness"]) == \
        ("negative", "positive", "implicit")
    bad = parse_annotation(json.dumps({"relations": [{**REL, "correlation": "sideways"}]}))
    assert bad.relations[0]["correlation"] is None
    assert any("correlation='sideways'" in i and "expected one of" in i for i in bad.issues)


def test_parse_annotation_leaves_out_and_reports_a_relation_without_effect():
    rel = {k: v for k, v in REL.items() if not k.startswith("effect_")}
    p = parse_annotation(json.dumps({"causal": True, "relations": [rel, REL]}))
    assert len(p.relations) == 1 and p.relations[0]["effect_no_quantifier"] == "sea ice"
    assert any(i == "relation 1: no effect; left out" for i in p.issues)


def test_parse_annotation_sets_causal_when_relations_contradict_it():
    p = parse_annotation(json.dumps({"causal": False, "relations": [REL]}))
    assert p.causal is True and any("causal is false" in i for i in p.issues)
    n = parse_annotation('{"causal": false, "abbreviations": null, "relations": []}')
    assert n.causal is False and n.rule == "json" and n.issues == ()


def test_parse_annotation_treats_slash_and_dash_as_empty_fields():
    p = parse_annotation(json.dumps({"relations": [{**REL, "target": "/", "cause_context": "-"}]}))
    assert p.relations[0]["target"] is None and p.relations[0]["cause_context"] is None


def test_to_statement_raises_on_an_unreadable_answer_when_strict():
    p = parse_annotation("no idea")
    with pytest.raises(ParseError, match="unparsed"):
        to_statement(p, "Some text.", id="d1")
    st = to_statement(p, "Some text.", id="d1", strict=False)
    assert st.causal is False and st.relations == () and st.meta["annotation"]["failed"] is True


def test_to_statement_uses_no_quantifier_forms_as_events():
    st = to_statement(parse_annotation(json.dumps(ANSWER)), "Warming reduces sea ice.", id="d1")
    r = st.relations[0]
    assert (r.cause, r.effect, r.cause_np, r.effect_np) == ("warming", "sea ice", "further warming", "less sea ice")
    assert r.correlation.value == "negative" and r.polarity.value == "positive" and r.trigger == "reduces"
    assert st.causal is True and st.meta["annotation"]["rule"] == "json"


def _key(r, fields):
    return tuple(" ".join(v.split()) if isinstance(v, str) else v for v in (getattr(r, f) for f in fields))


def test_statement_to_answer_round_trips_every_climatecause_statement(climatecause):
    fields = ("cause", "effect", "cause_np", "effect_np", "cause_context", "effect_context", "cause_belongs_to",
              "effect_belongs_to", "trigger", "combined", "nested", "explicitness", "polarity", "correlation")
    for s in climatecause:
        p = parse_annotation(json.dumps(statement_to_answer(s)))
        assert p.rule == "json", s.id
        back = to_statement(p, s.text, id=s.id)
        assert back.causal == s.causal, s.id
        # The parser collapses runs of whitespace (the corpus has a few double spaces in noun phrases).
        assert [_key(r, fields) for r in back.relations] == [_key(r, fields) for r in s.relations], s.id
        assert complexity(back) == complexity(s), s.id


def test_parsed_from_label_reads_a_stored_label_back_with_its_rule_and_issues():
    from causalgraph.annotation.records import parse_for_run, parsed_from_label

    label, rule = parse_for_run("Answer: " + json.dumps({"causal": True, "relations": [REL]}), "few-shot")
    label["issues"] = ["kept from the run"]
    p = parsed_from_label(label, rule)
    assert (p.causal, p.rule, p.issues) == (True, "embedded", ("kept from the run",))
    r = p.relations[0]
    assert (r["cause_no_quantifier"], r["effect_no_quantifier"], r["explicitness"]) == ("warming", "sea ice",
                                                                                          "explicit")
    # A hand-written label without a rule reads as plain JSON; its spelled-short labels are normalised.
    hand = parsed_from_label({"relations": [{"cause_np": "a", "effect_np": "b", "explicitness": "I"}]})
    assert (hand.rule, hand.causal, hand.relations[0]["explicitness"]) == ("json", True, "implicit")


def test_parse_annotation_leaves_out_a_relation_whose_event_shows_nothing_and_says_so():
    blank = {**REL, "effect_np": "\u200b", "effect_no_quantifier": "\u200b \ufeff"}
    p = parse_annotation(json.dumps({**ANSWER, "relations": [REL, blank]}))
    assert [r["effect_no_quantifier"] for r in p.relations] == ["sea ice"]
    assert "relation 2: no effect; left out" in p.issues
