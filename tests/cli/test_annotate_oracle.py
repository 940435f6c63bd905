"""mock/oracle on free text: it answers a corpus statement it knows, and says in one line when it cannot."""

from __future__ import annotations

import json

import pytest

from causalgraph.cli import main
from causalgraph.datasets import load_corpus
from causalgraph.metrics.complexity import complexity_table


def _run(args, capsys):
    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("command", [["annotate", "--text", "Rising temperatures cause droughts."],
                                     ["score", "Rising temperatures cause droughts."]])
def test_the_oracle_says_in_one_line_that_it_cannot_answer_unknown_text(command, tmp_path, isolated_cache, capsys):
    out_dir = ["--out", str(tmp_path / "a")] if command[0] == "annotate" else []
    rc, out, err = _run(command + ["--model", "mock/oracle"] + out_dir, capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "mock/oracle knows no answer to 1 of 1 item (first: annotate/few-shot/text-" in err
    assert "('Rising temperatures cause droughts.')" in err and "mock/constant --model-option text=ANSWER" in err
    assert not (tmp_path / "a" / "responses.jsonl").exists()  # nothing was asked or recorded


def test_the_oracle_annotates_a_corpus_statement_given_as_text(tmp_path, isolated_cache, capsys, climatecause_path):
    st = next(s for s in load_corpus(climatecause_path) if len(s.relations) >= 2)
    rc, out, err = _run(["annotate", "--text", st.text, "--model", "mock/oracle", "--out", str(tmp_path / "a"),
                         "--format", "json"], capsys)
    got = json.loads(out)["statements"][0]
    assert rc == 0 and not got["annotation"].get("failed")
    assert len(got["relations"]) == len(st.relations)
    assert [(r["cause"], r["effect"]) for r in got["relations"]] == [(r.cause, r.effect) for r in st.relations]


def test_score_with_the_oracle_gives_the_corpus_statements_own_complexity(isolated_cache, capsys, climatecause_path):
    corpus = load_corpus(climatecause_path)
    table = complexity_table(corpus)
    row = table.loc[table["c_raw"].idxmax()]
    st = corpus[row["statement_id"]]
    rc, out, err = _run(["score", st.text, "--model", "mock/oracle", "--format", "json"], capsys)
    assert rc == 0, err
    got = json.loads(out)["complexity"]
    assert row["c_raw"] > 0
    for m in ("com", "ex", "nest", "corr", "pol"):
        assert got[m] == pytest.approx(row[f"c_{m}"]), m
