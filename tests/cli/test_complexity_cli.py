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


def test_complexity_cli_metrics_names_the_composite_and_every_output_says_it(capsys, climatecause_path):
    """Issue 35, item 2: --metrics picks what c_raw and C(s) sum; the weights follow it, one per metric."""
    assert main(["complexity", "--data", str(climatecause_path), "--format", "json", "--metrics", "corr,pol",
                 "--weights", "1,2"]) == 0
    rows = json.loads(capsys.readouterr().out)
    # By hand: the corpus ranges are C^corr [0, 70] and C^pol [0, 40] (the paper's, §5.2.1).
    for r in rows:
        assert r["c_raw"] == r["c_corr"] + r["c_pol"]
        assert r["c_norm"] == pytest.approx(r["c_corr"] / 70 + 2 * r["c_pol"] / 40)
        assert (r["c_metrics"], r["c_weights"]) == ("corr,pol", "1,2")
    assert main(["complexity", "--data", str(climatecause_path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "c_raw and C(s) (c_norm) over com, ex, nest, corr, pol with weights 1, 1, 1, 1, 1 (the paper's five)"
    assert main(["complexity", "--data", str(climatecause_path), "--summary", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["composite"] == {"metrics": ["com", "ex", "nest", "corr", "pol"],
                                                                "weights": [1.0] * 5}


@pytest.mark.parametrize("argv, message", [
    (["--metrics", "corr,corr"], "--metrics 'corr,corr': corr named twice"),
    (["--metrics", "com,cor"], "unknown metric 'cor'; expected one of com, ex, nest, corr, pol; did you mean 'corr'?"),
    (["--metrics", "corr,pol", "--weights", "1,1,1"], "expected 2 weights (corr, pol), got 3: [1.0, 1.0, 1.0]"),
])
def test_complexity_cli_a_bad_composite_is_one_line(argv, message, capsys):
    assert main(["complexity", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"causalgraph complexity: error: {message}\n"
