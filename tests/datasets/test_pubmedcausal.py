"""PubMedCausal loader: prepared split, raw hub format, label normalisation."""

from __future__ import annotations

import json
import re

import pytest

from causalgraph import Explicitness, SchemaError, Sententiality, load_pubmedcausal


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
    c = load_pubmedcausal(p)
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
                                         (["x"], "found a list (['x']); expected the cause as text")])
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
