"""``causalgraph complexity`` on the command line."""

from __future__ import annotations

import csv
import io
import json

import pytest

from causalgraph.cli import main


def test_complexity_cli_csv_has_the_issue_columns_and_75_rows(capsys, climatecause_path):
    assert main(["complexity", "--data", str(climatecause_path), "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    # The last two columns say what c_raw and C(s) are made of (issue 35, item 2).
    assert rows[0] == ["statement_id", "statement", "c_com", "c_ex", "c_nest", "c_corr", "c_pol",
                       "c_raw", "c_norm", "density", "n_tokens", "c_metrics", "c_weights"]
    assert len(rows) == 76
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["cc-030"][2] == "12" and by_id["cc-064"][5] == "70"
    assert {(r[-2], r[-1]) for r in rows[1:]} == {("com,ex,nest,corr,pol", "1,1,1,1,1")}


def test_complexity_cli_weights_change_the_total(capsys, climatecause_path):
    main(["complexity", "--data", str(climatecause_path), "--format", "json", "--weights", "0,0,0,0,1"])
    rows = json.loads(capsys.readouterr().out)
    by_id = {r["statement_id"]: r for r in rows}
    # only C^pol counts: cc-028 has the maximum C^pol (40), so C(s) = 1
    assert by_id["cc-028"]["c_norm"] == pytest.approx(1.0)
    assert all(r["c_norm"] == pytest.approx(r["c_pol"] / 40) for r in rows)


def test_complexity_cli_summary_prints_the_paper_figures(capsys, climatecause_path):
    assert main(["complexity", "--data", str(climatecause_path), "--summary", "--format", "json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["n_complex"] == 43 and round(s["max_c_norm"], 3) == 1.821
    assert s["cooccurrence"]["corr"]["corr"] == 24


def test_complexity_cli_bad_weights_exit_2_with_one_line(capsys):
    assert main(["complexity", "--weights", "1,1,1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected 5 weights" in err


def test_complexity_cli_negative_weight_exit_2_with_one_line(capsys):
    # Issue #13: accepted before, and made C(s) fall as the structure it weighs grew.
    assert main(["complexity", "--data", "sample", "--weights", "1,1,-1,1,1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("causalgraph complexity: error: weight for nest is -1.0; expected a number >= 0 "
                                 "(0 leaves the metric out)\n")
