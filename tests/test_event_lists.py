"""List answers: reading, matching to events (unknown ones are false positives), and set scores by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from causalgraph.event_lists import match_events, normalize_event, parse_event_list, set_outcome, set_scores


@pytest.mark.parametrize("text, fragments, rule", [
    ("<Answer>rain\nfloods</Answer>", ["rain", "floods"], "tag+lines"),
    ("Reasoning… <Answer>x</Answer> then <Answer>- rain\n- floods</Answer>", ["- rain", "- floods"], "tag+lines"),
    ("The graph is:\n<Answer>\n1. rain\n2. floods", ["1. rain", "2. floods"], "open-tag+lines"),
    ('Final answer: ["rain", "heat, drought"]', ["rain", "heat, drought"], "answer+json"),
    ("rain, floods", ["rain, floods"], "text+line"),
    ("<Answer>None.</Answer>", [], "tag+none"),
    ("Answer: there are none", [], "answer+none"),
    ("", None, "empty"),
])
def test_parse_event_list_reads_the_answer_region_and_names_the_rule(text, fragments, rule):
    assert parse_event_list(text) == (fragments, rule)


def test_normalised_match_ignores_case_quotes_bullets_and_final_punctuation():
    m = match_events(['- "Rain".', "**FLOODS**", "3) heat,  drought"], ["rain", "floods", "heat, drought"])
    assert m.events == ("rain", "floods", "heat, drought") and m.unknown == () and m.normalised == 3


def test_pieces_that_are_no_event_are_unknown_and_counted_once_each():
    m = match_events(["rain, dragons and unicorns", "Dragons"], ["rain", "floods"])
    assert m.events == ("rain",) and m.unknown == ("dragons", "unicorns")


def test_an_event_holding_separators_is_kept_whole():
    events = ["land, ocean and air temperature", "land", "sea level"]
    assert match_events(["land, ocean and air temperature; sea level"], events).events == (
        "land, ocean and air temperature", "sea level")
    assert match_events(["land and sea level"], events).events == ("land", "sea level")


def test_set_outcome_counts_unknown_answers_as_false_positives():
    o = set_outcome(["rain", "ghosts", "floods"], ["rain", "heat"], ["rain", "floods", "heat"])
    assert (o.tp, o.fp, o.fn, o.exact) == (1, 2, 1, False)
    assert set_outcome(None, [], ["a"]).exact is False  # unanswered is never right
    assert set_outcome([], [], ["a"]).scores == (1.0, 1.0, 1.0)


def test_set_scores_by_hand():
    ev = {"events": ["a", "b", "c"]}
    recs = [
        {"gold": ["a", "b"], "label": ["a"], "meta": {**ev, "statement_id": "s1"}},          # tp1 fn1: P1 R.5
        {"gold": ["c"], "label": ["c", "zz"], "meta": {**ev, "statement_id": "s1"}},        # tp1 fp1: P.5 R1
        {"gold": [], "label": [], "meta": {**ev, "statement_id": "s2"}},                    # empty = empty: 1
        {"gold": ["a"], "label": None, "meta": {**ev, "statement_id": "s3"}},               # unparsed: fn1
        {"gold": ["b"], "label": ["b"], "error": "boom", "meta": {**ev, "statement_id": "s3"}},  # failed: fn1
    ]
    s = set_scores(recs)
    assert (s["tp"], s["fp"], s["fn"]) == (2, 1, 3)
    assert s["precision"] == pytest.approx(2 / 3) and s["recall"] == pytest.approx(2 / 5)
    assert s["f1"] == pytest.approx(2 * (2 / 3) * (2 / 5) / (2 / 3 + 2 / 5))
    f1_1, f1_2 = 2 * 0.5 / 1.5, 2 * 0.5 / 1.5
    assert s["macro"]["f1"] == pytest.approx((f1_1 + f1_2 + 1 + 0 + 0) / 5)
    assert s["macro"]["precision"] == pytest.approx((1 + 0.5 + 1) / 5)
    assert s["exact_match"] == pytest.approx(1 / 5) and s["unknown_answers"] == 1
    lo, hi = s["f1_ci95"]
    assert 0 <= lo <= s["f1"] <= hi <= 1


@given(st.lists(st.sampled_from(["rain", "floods", "heat, drought", "sea level rise"]), unique=True),
       st.sampled_from(["\n", "; "]))
def test_a_list_of_the_graphs_events_is_read_back_exactly(chosen, sep):
    events = ["rain", "floods", "heat, drought", "sea level rise"]
    text = f"<Answer>{sep.join(chosen) if chosen else 'none'}</Answer>"
    frags, _ = parse_event_list(text)
    assert set(match_events(frags, events).events) == set(chosen)


@given(st.text())
def test_parse_never_raises_and_always_names_a_rule(text):
    frags, rule = parse_event_list(text)
    assert rule and (frags is None or all(isinstance(f, str) for f in frags))
    match_events(frags, ["a", "b"])


def test_normalize_event_examples():
    assert normalize_event("  The  ÉVENT. ") == "the évent"
