"""List answers: reading, matching to events (unknown ones are false positives), and set scores by hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from causalgraph.runlog import RunRecord
from causalgraph.scoring.event_lists import match_events, normalize_event, parse_event_list, set_outcome, set_scores


def _rec(item_id, **fields):
    """A run record of the sinks task (list answers) for item ``item_id``."""
    return RunRecord("sinks", "zero-shot", item_id, **fields)


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
        _rec("i1", gold=["a", "b"], label=["a"], meta={**ev, "statement_id": "s1"}),          # tp1 fn1: P1 R.5
        _rec("i2", gold=["c"], label=["c", "zz"], meta={**ev, "statement_id": "s1"}),        # tp1 fp1: P.5 R1
        _rec("i3", gold=[], label=[], meta={**ev, "statement_id": "s2"}),                    # empty = empty: 1
        _rec("i4", gold=["a"], label=None, meta={**ev, "statement_id": "s3"}),               # unparsed: fn1
        _rec("i5", gold=["b"], label=["b"], error="boom", meta={**ev, "statement_id": "s3"}),  # failed: fn1
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


# Issue 23 item 12: an event holding a newline was split in two, one named `none` (or holding `</Answer>`) read
# as the empty set. Names are refused when items are built (tasks/structure.py); every name accepted must be
# read back exactly from an answer listing it among other events, in any order.
_NAMES = st.one_of(st.text(max_size=12),
                   st.sampled_from(["none", "None.", "n/a", "- ", "a\nb", "a\u2028b", "x</Answer>", "<answer>y",
                                    "```py", "[1, 2]", "1. rain", "rain, heat", "(warming)"]),
                   st.builds(lambda a, b, c: a + b + c, st.text(max_size=4),
                             st.sampled_from(["\n", "\r", "</Answer>", "<Answer>", "Answer:", "none", ",", "```"]),
                             st.text(max_size=4)))


@given(name=_NAMES, others=st.lists(st.sampled_from(["rain", "sea level rise", "heat, drought"]), unique=True),
       position=st.integers(0, 3))
def test_an_event_unreadable_event_accepts_is_read_back_exactly_from_a_list_answer(name, others, position):
    from hypothesis import assume

    from causalgraph.scoring.event_lists import format_event_list, unreadable_event

    assume(all(normalize_event(name) != normalize_event(o) for o in others))
    why = unreadable_event(name)
    if why is not None:
        return
    events = [name] + others
    listed = list(others)
    listed.insert(min(position, len(listed)), name)
    frags, _ = parse_event_list(f"<Answer>{format_event_list(listed)}</Answer>")
    m = match_events(frags, events)
    assert set(m.events) == set(listed) and m.unknown == ()


@pytest.mark.parametrize("name, why, parser_splits", [
    ("warm\nsummers", "holds a line break ('\\n')", True),
    # The parser itself breaks at \n only, but a prompt shows U+2029 as a new line and a model asked for one
    # event per line may well write it as one: refused too.
    ("a\u2029b", "holds a line break ('\\u2029')", False),
    ("none", "mean 'no event'", True), ("Nothing.", "mean 'no event'", True), ("N/A", "mean 'no event'", True),
    ("rise </Answer> fall", "holds an <Answer> tag", True),
    # An opening tag inside a closed answer is harmless, but an answer cut off by the token limit is read from
    # its last opening tag on, which would be inside the event: refused too.
    ("< answer >", "holds an <Answer> tag", False),
    ("**", "holds nothing an answer can name", True), ("```python code", "is read back from an answer naming it as", True),
])
def test_unreadable_event_names_why(name, why, parser_splits):
    from causalgraph.scoring.event_lists import unreadable_event

    assert why in unreadable_event(name)
    # and the parser indeed misreads it: listed alone, it is not read back as the event
    frags, _ = parse_event_list(f"<Answer>{name}</Answer>")
    assert (match_events(frags, [name]).events != (name,)) is parser_splits


def test_the_set_f1_interval_leaves_out_resamples_where_micro_f1_is_undefined_instead_of_scoring_them_0():
    # Statement s0 holds every gold event and the answers name them exactly; s1-s3 have empty gold sets answered
    # "none". Micro F1 is 1; a resample without s0 has no tp, fp or fn, so its F1 is undefined, not 0. Scored 0
    # (before), the interval was [0, 1] ((3/4)^4 = 32 % of the resamples miss s0); left out, it is [1, 1].
    ev = {"events": ["a", "b"]}
    recs = [_rec("i0", gold=["a", "b"], label=["a", "b"], meta={**ev, "statement_id": "s0"})]
    recs += [_rec(f"i{k}", gold=[], label=[], meta={**ev, "statement_id": f"s{k}"}) for k in (1, 2, 3)]
    s = set_scores(recs, n_boot=400)
    assert s["f1"] == 1.0 and s["f1_ci95"] == [1.0, 1.0]


def test_the_set_f1_interval_is_the_percentile_interval_widened_for_few_statements():
    # Recomputed here from the resample weights (the same multinomial draws): the plain 2.5/97.5 percentiles of
    # micro F1, widened around the point by sqrt(G/(G-1)) t_{G-1} / z as the binary tasks' interval is.
    from scipy.stats import norm, t

    ev = {"events": ["a", "b", "c"]}
    answers = [(["a"], ["a"]), (["a", "b"], ["a"]), (["c"], ["c", "b"]), (["b"], []), (["a", "c"], ["a", "c"]),
               (["b"], ["b"])]
    recs = [_rec(f"i{k}", gold=g, label=p, meta={**ev, "statement_id": f"s{k}"}) for k, (g, p) in enumerate(answers)]
    s = set_scores(recs, n_boot=500, seed=3)
    counts = np.array([[len(set(g) & set(p)), len(set(p) - set(g)), len(set(g) - set(p))] for g, p in answers])
    w = np.random.default_rng(3).multinomial(6, np.full(6, 1 / 6), size=500)
    tp, fp, fn = (w @ counts).T
    f1 = 2 * tp / (2 * tp + fp + fn)
    lo, hi = np.quantile(f1, [0.025, 0.975])
    c = np.sqrt(6 / 5) * t.ppf(0.975, 5) / norm.ppf(0.975)
    point = 2 * 6 / (2 * 6 + 1 + 2)
    assert s["f1"] == pytest.approx(point)
    assert s["f1_ci95"] == pytest.approx([max(0, point - c * (point - lo)), min(1, point + c * (hi - point))])


def test_a_run_report_withholds_the_set_f1_interval_below_30_statements_with_a_note():
    from causalgraph.bench.scoring import MIN_STATEMENTS_INTERVAL, score_records
    from causalgraph.tasks import get_task

    spec = get_task("sinks")
    def recs(n):
        return [_rec(f"i{k}", gold=["a"], label=["a"] if k % 3 else ["b"], rule="r",
                     meta={"events": ["a", "b"], "statement_id": f"s{k}"}) for k in range(n)]
    few = score_records(recs(MIN_STATEMENTS_INTERVAL - 1), spec, n_boot=200)
    assert few["f1_ci95"] is None
    assert f"{MIN_STATEMENTS_INTERVAL - 1} statements, at least {MIN_STATEMENTS_INTERVAL} needed" in " ".join(few["notes"])
    enough = score_records(recs(MIN_STATEMENTS_INTERVAL), spec, n_boot=200)
    assert enough["f1_ci95"] is not None and "notes" not in enough
