"""A blank event in a corpus file is one stderr line naming the row, for every command that builds graphs.

Issue #13: an empty event was accepted, ``encode`` wrote it as an empty name and ``decode`` gave a
different graph back without a word.
"""

from __future__ import annotations

import csv
import json

import pytest

from causalgraph.cli import main

HEADERS = ["ipccText", "Causal?", "Explicit/implicit", "Causation: Positive/Negative", "Correlation",
           "Cause_no_quantifier", "Effect_no_quantifier", "cause belongs to", "effect belongs to", "Combined",
           "Nested causality"]


def _corpus(tmp_path, effect):
    p = tmp_path / "cc.csv"
    with open(p, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(HEADERS)
        w.writerow(["A raises B, B lowers C.", "Yes", "E", "Positive", "Positive_correlation", "a", "b", "", "", "",
                    ""])
        w.writerow(["A raises B, B lowers C.", "Yes", "E", "Positive", "Negative_correlation", "b", effect, "", "",
                    "", ""])
    return p


@pytest.mark.parametrize("command", [["encode", "--statement", "cc-001"], ["chains"], ["complexity"],
                                     ["view", "--statement", "cc-001", "-o", "page.html"]])
@pytest.mark.parametrize("effect, found", [(" ", "found an empty cell"),
                                           ("\u200b", "found '\\u200b', which shows nothing")])
def test_a_blank_event_in_a_corpus_file_is_one_line_naming_the_row(command, effect, found, tmp_path, capsys,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = _corpus(tmp_path, effect)
    rc = main([command[0], "--data", str(p), *command[1:]])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert f"{p}: row 3, column 'Effect_no_quantifier': {found}; expected an effect (the row is causal)" in err
    assert not (tmp_path / "page.html").exists()


def test_a_blank_span_in_pubmedcausal_rows_is_one_line_naming_record_and_field(tmp_path, capsys):
    p = tmp_path / "rows.json"
    p.write_text(json.dumps([{"s/n": 1, "sentence": "s", "pairs": [{"cause": "\u200b", "effect": "b"}]}]))
    rc = main(["info", "--data", str(p)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert f"{p}: record 1, field 'pairs[1].cause' (pair 1): found '\\u200b', which shows nothing" in err
