"""PubMedCausal loader: prepared split, raw hub format, label normalisation."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from causalgraph import Explicitness, SchemaError, Sententiality, load_pubmedcausal
from causalgraph.model import is_blank, unprintable_char


def test_load_pubmedcausal_test_split_counts(pubmed_test):
    assert len(pubmed_test) == 1973
    assert len(pubmed_test.relations) == 3199
    assert pubmed_test.report["format"] == "prepared"
    first = pubmed_test[0]
    assert first.id == f"pmc-{first.meta['s/n']}"


def test_load_pubmedcausal_normalises_and_counts_label_typos(pubmed_test):
    rep = pubmed_test.report
    # test split: intra x4, inter x1, implicit x7, Explcit x1, Explicts x1 need normalising
    assert rep["labels_normalised_by_spelling"] == {
        "Explcit -> explicit": 1, "Explicts -> explicit": 1, "implicit -> implicit": 7,
        "inter -> inter": 1, "intra -> intra": 4,
    }
    assert rep["labels_normalised"] == 14
    assert rep["labels_empty"] == 1 and rep["labels_unknown"] == 0
    rels = pubmed_test.relations
    assert sum(r.explicitness is Explicitness.EXPLICIT for r in rels) == 2044 + 2
    assert sum(r.explicitness is None for r in rels) == 1
    assert sum(r.sententiality is Sententiality.INTER for r in rels) == 90


def test_load_pubmedcausal_train_split(pubmed_train_path):
    c = load_pubmedcausal(pubmed_train_path, split="train")
    assert (len(c), len(c.relations)) == (1972, 3295)
    assert c.report["labels_normalised_by_spelling"] == {"EXplicit -> explicit": 1, "explicit -> explicit": 1}
    assert c.report["labels_empty"] == 3


def test_load_pubmedcausal_raw_hub_format(tmp_path):
    rows = [
        {"Sentence": "Smoking causes cancer, which raises mortality.", "Cause 1": "Smoking", "Effect 1": "cancer",
         "Sententiality 1": "intra", "Causality 1": "EXplicit", "Cause 2": "cancer", "Effect 2": "mortality",
         "Sententiality 2": "Intra", "Causality 2": "weird", "Cause 3": "", "Effect 3": ""},
        {"Sentence": "Nothing causal.", "Cause 1": "", "Effect 1": ""},
    ]
    p = tmp_path / "30k_test.json"
    p.write_text(json.dumps(rows))
    # The unknown label refuses the file, as in the ClimateCause loader; lenient, it is kept as None and listed.
    with pytest.raises(SchemaError, match=r"30k_test\.json: record 1, field 'Causality 2': unknown label 'weird'; "
                                          r"expected E, I, explicit, implicit$"):
        load_pubmedcausal(p)
    c, problems = load_pubmedcausal(p, strict=False)
    assert problems == c.problems
    assert c.report["format"] == "raw"
    assert [s.id for s in c] == ["pmc-1", "pmc-2"]
    assert [s.causal for s in c] == [True, False]
    r1, r2 = c[0].relations
    assert (r1.cause, r1.effect, r1.sententiality, r1.explicitness) == ("Smoking", "cancer", Sententiality.INTRA,
                                                                        Explicitness.EXPLICIT)
    assert r2.explicitness is None
    assert c.report["labels_unknown_by_spelling"] == {"weird": 1}
    assert any("record 1, field 'Causality 2': unknown label 'weird'" in str(p) for p in c.problems)


def test_load_pubmedcausal_pair_without_effect_names_record_and_field(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"s/n": 5, "sentence": "s", "pairs": [{"cause": "a", "effect": " "}]}]))
    with pytest.raises(SchemaError, match=r"x.json: record 1, field 'pairs\[1\].effect' \(pair 1\): found an empty"):
        load_pubmedcausal(p)


def test_load_pubmedcausal_num_pairs_disagreeing_with_pairs_is_an_error(tmp_path):
    p = tmp_path / "x.json"
    rec = {"s/n": 5, "sentence": "s", "pairs": [{"cause": "a", "effect": "b"}], "num_pairs": 2}
    p.write_text(json.dumps([rec]))
    with pytest.raises(SchemaError, match=r"x.json: record 1, field 'num_pairs': found 2; expected 1, the number"):
        load_pubmedcausal(p)


def test_load_pubmedcausal_duplicate_sn_is_an_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"s/n": 5, "sentence": "s", "pairs": []}, {"s/n": 5, "sentence": "t", "pairs": []}]))
    with pytest.raises(SchemaError, match=r"record 2, field 's/n': found '5' again \(first at record 1\)"):
        load_pubmedcausal(p)


def test_load_pubmedcausal_not_json_is_an_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(SchemaError, match="x.json: not JSON"):
        load_pubmedcausal(p)


def test_load_pubmedcausal_unknown_split_is_an_error():
    with pytest.raises(SchemaError, match="unknown PubMedCausal split 'dev'"):
        load_pubmedcausal(split="dev")


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"])
def test_load_pubmedcausal_json_lines_record_holding_a_unicode_line_separator_stays_whole(tmp_path, char):
    # JSON allows these raw inside a string (json.dumps(ensure_ascii=False) writes them so);
    # str.splitlines broke the record there and the file read as neither JSON nor JSON Lines.
    rows = [{"Sentence": f"Smoking causes{char}cancer.", "Cause 1": f"Smok{char}ing", "Effect 1": "cancer"},
            {"Sentence": "Heat raises demand.", "Cause 1": "heat", "Effect 1": "demand"}]
    p = tmp_path / "rows.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    assert char in p.read_text(encoding="utf-8")
    c = load_pubmedcausal(p)
    assert [s.text for s in c] == [f"Smoking causes{char}cancer.", "Heat raises demand."]
    assert [(r.cause, r.effect) for r in c.relations] == [(f"Smok{char}ing", "cancer"), ("heat", "demand")]


@pytest.mark.parametrize("span, found", [("\u200b", "found '\\u200b', which shows nothing"),
                                         ("\t", "found an empty cause"),
                                         (["x"], "found a list ['x']; expected the cause as text")])
def test_load_pubmedcausal_blank_or_non_text_cause_names_record_and_field(tmp_path, span, found):
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"s/n": 1, "sentence": "s", "pairs": [{"cause": "a", "effect": "b"}]},
                             {"s/n": 2, "sentence": "t", "pairs": [{"cause": span, "effect": "b"}]}]))
    with pytest.raises(SchemaError, match=rf"x\.json: record 2, field 'pairs\[1\]\.cause' \(pair 1\): "
                                          rf"{re.escape(found)}"):
        load_pubmedcausal(p)


@pytest.mark.parametrize("char", ["\x00", "\x07", "\ud800", "\uffff"])
def test_load_pubmedcausal_span_with_a_character_xml_cannot_hold_names_record_and_field(tmp_path, char):
    # JSON can carry a NUL or a lone surrogate (as \u escapes); such an event has no GraphML encoding.
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"s/n": 1, "sentence": "s", "pairs": [{"cause": "a", "effect": f"b{char}c"}]}]))
    with pytest.raises(SchemaError, match=rf"x\.json: record 1, field 'pairs\[1\]\.effect' \(pair 1\): found "
                                          rf".*which holds the control character .* \(U\+{ord(char):04X}\)"):
        load_pubmedcausal(p)


def test_load_pubmedcausal_raw_format_blank_effect_names_the_raw_field(tmp_path):
    p = tmp_path / "30k_test.json"
    p.write_text(json.dumps([{"Sentence": "s", "Cause 1": "a", "Effect 1": "b", "Cause 2": "c", "Effect 2": "\u200b"}]))
    with pytest.raises(SchemaError, match=r"record 1, field 'Effect 2' \(pair 2\): found '\\u200b', which shows "
                                          r"nothing; expected both cause and effect"):
        load_pubmedcausal(p)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs os.mkfifo")
def test_loaders_call_a_path_that_is_no_regular_file_so(tmp_path):
    import os

    from causalgraph import load_climatecause

    for name, load in (("x.json", load_pubmedcausal), ("x.csv", load_climatecause)):
        fifo = tmp_path / name
        os.mkfifo(fifo)
        with pytest.raises(SchemaError, match=rf"^{re.escape(str(fifo))}: not a regular file$"):
            load(fifo)
    with pytest.raises(SchemaError, match=r"missing\.json: no such file$"):
        load_pubmedcausal(tmp_path / "missing.json")


def _write(tmp_path, records, name="x.json"):
    p = tmp_path / name
    # allow_nan: json.dumps writes NaN as the bare word NaN, which json.loads reads back (as the file had).
    p.write_text(json.dumps(records))
    return p


GOOD = {"s/n": 7, "sentence": "Smoking causes cancer.", "num_pairs": 1,
        "pairs": [{"cause": "Smoking", "effect": "cancer", "sententiality": "Intra", "causality": "Explicit"}]}


@pytest.mark.parametrize("field, value, found, expected", [
    ("sentence", ["a", "b"], "a list ['a', 'b']", "the row's text"),
    ("sentence", 12, "the number 12", "the row's text"),
    ("s/n", 3.7, "the number 3.7", "an integer"),
    ("s/n", True, "the boolean true", "an integer"),
    ("s/n", float("nan"), "the number NaN", "an integer"),
    ("s/n", "7", "the text '7'", "an integer"),
    ("num_pairs", True, "the boolean true", "an integer"),
    ("pairs", "Smoking->cancer", "the text 'Smoking->cancer'", "a list of pairs"),
])
def test_load_pubmedcausal_field_of_the_wrong_type_refuses_the_record_naming_record_field_value_and_type(
        tmp_path, field, value, found, expected):
    p = _write(tmp_path, [dict(GOOD, **{"s/n": 1}), dict(GOOD, **{field: value})])
    with pytest.raises(SchemaError, match=rf"^{re.escape(str(p))}: record 2, field {re.escape(repr(field))}: found "
                                          rf"{re.escape(found)}; expected {re.escape(expected)}"):
        load_pubmedcausal(p)
    c, problems = load_pubmedcausal(p, strict=False)
    # Lenient: the record is left out and listed, nothing stringified into a statement.
    assert [s.id for s in c] == ["pmc-1"]
    assert [(q.row, q.column) for q in problems] == [(2, field)]
    assert c.report["records_refused"] == 1


def test_load_pubmedcausal_unknown_label_refuses_the_file_like_the_csv_loader(tmp_path):
    rec = dict(GOOD, pairs=[dict(GOOD["pairs"][0], causality="Explicitish")])
    p = _write(tmp_path, [rec])
    with pytest.raises(SchemaError, match=r"record 1, field 'pairs\[1\]\.causality': unknown label 'Explicitish'"):
        load_pubmedcausal(p)
    c, problems = load_pubmedcausal(p, strict=False)
    assert c[0].relations[0].explicitness is None
    assert [q.value for q in problems] == ["Explicitish"]


def test_load_pubmedcausal_lenient_load_lists_every_problem_of_every_record(tmp_path):
    bad = {"s/n": 2.5, "sentence": None, "num_pairs": "x",
           "pairs": [{"cause": 1, "effect": ["e"], "sententiality": 0, "causality": {}}]}
    p = _write(tmp_path, [GOOD, bad, dict(GOOD, **{"s/n": 9, "pairs": [dict(GOOD["pairs"][0], causality="?")]})])
    with pytest.raises(SchemaError, match=r"record 2, field 'sentence': found null.* \(and 7 more problems; in Python, "
                                          r"causalgraph\.datasets\.load_pubmedcausal\(path, strict=False\) lists every one"):
        load_pubmedcausal(p)
    c, problems = load_pubmedcausal(p, strict=False)
    assert [(q.row, q.column) for q in problems] == [
        (2, "sentence"), (2, "num_pairs"), (2, "s/n"), (2, "pairs[1].cause"), (2, "pairs[1].effect"),
        (2, "pairs[1].sententiality"), (2, "pairs[1].causality"), (3, "pairs[1].causality")]
    assert [s.id for s in c] == ["pmc-7", "pmc-9"]


def test_load_pubmedcausal_refused_record_still_claims_its_s_n(tmp_path):
    p = _write(tmp_path, [dict(GOOD, sentence=["x"]), GOOD])
    c, problems = load_pubmedcausal(p, strict=False)
    assert [(q.row, q.column) for q in problems] == [(1, "sentence"), (2, "s/n")]
    assert "found '7' again (first at record 1)" in problems[1].message


# Values of every JSON type; the types each field accepts are those the format gives it.
_JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_infinity=False),
                         st.text(max_size=8), st.lists(st.text(max_size=3), max_size=2),
                         st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
_ACCEPTS = {"s/n": lambda v: v is None or type(v) is int,
            "sentence": lambda v: isinstance(v, str) and v.strip() != "" and not is_blank(v),
            "num_pairs": lambda v: v is None or (type(v) is int and v == 1),
            "cause": lambda v: isinstance(v, str) and not is_blank(v) and unprintable_char(v) is None,
            "effect": lambda v: isinstance(v, str) and not is_blank(v) and unprintable_char(v) is None,
            "sententiality": lambda v: v is None or (isinstance(v, str) and (is_blank(v) or
                                                                           v.strip().lower() in ("intra", "inter"))),
            "causality": lambda v: v is None or (isinstance(v, str) and (is_blank(v) or
                                                                       v.strip().lower() in ("explicit", "implicit")))}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(sorted(_ACCEPTS)), value=_JSON_VALUES)
def test_load_pubmedcausal_a_field_loads_only_when_its_value_has_the_formats_type(tmp_path, field, value):
    rec = json.loads(json.dumps(GOOD))
    if field in ("cause", "effect", "sententiality", "causality"):
        rec["pairs"][0][field] = value
        shown = f"pairs[1].{field}"
    else:
        rec[field] = value
        shown = field
    p = _write(tmp_path, [rec])
    if _ACCEPTS[field](value):
        c = load_pubmedcausal(p)
        st_ = c[0]
        # What loads is the value itself, never a str() of another type.
        assert st_.text == rec["sentence"].strip()
        assert st_.id == f"pmc-{rec['s/n'] if rec['s/n'] is not None else 1}"
        r = st_.relations[0]
        assert (r.cause, r.effect) == (rec["pairs"][0]["cause"].strip(), rec["pairs"][0]["effect"].strip())
    else:
        with pytest.raises(SchemaError, match=rf"^{re.escape(str(p))}: record 1, field {re.escape(repr(shown))}"):
            load_pubmedcausal(p)
        c, problems = load_pubmedcausal(p, strict=False)
        assert problems and all(q.row == 1 and q.column == shown for q in problems)
