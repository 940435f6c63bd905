"""``causalgraph readability`` on the command line."""

from __future__ import annotations

import csv
import io

from causalgraph.cli import main


def test_readability_cli_csv_has_the_issue_columns(capsys, climatecause_path):
    assert main(["readability", "--data", str(climatecause_path), "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["statement_id", "statement", "fre", "fkg", "ari", "cli", "dcrs"]
    assert len(rows) == 76


def test_readability_cli_summary_is_laid_out_like_table_17(capsys, climatecause_path):
    assert main(["readability", "--data", str(climatecause_path), "--summary", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["metric", "median", "mean", "std", "min", "max", "higher_is_more_readable"]
    assert [r[0] for r in rows[1:]] == ["FRE", "FKG", "CLI", "ARI", "DCRS"]
    assert round(float(rows[1][1]), 2) == 26.95 and round(float(rows[5][5]), 2) == 15.62


def test_readability_file_scores_each_line_with_its_row(capsys, tmp_path):
    from causalgraph.metrics.readability import readability

    p = tmp_path / "texts.txt"
    p.write_text("The cat sat on the mat.\n\nCarbon emissions rise. The oceans warm quickly.\n", encoding="utf-8")
    assert main(["readability", "--file", str(p), "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["row", "text", "fre", "fkg", "ari", "cli", "dcrs"]
    assert [r[:2] for r in rows[1:]] == [["1", "The cat sat on the mat."],
                                        ["3", "Carbon emissions rise. The oceans warm quickly."]]
    assert float(rows[1][2]) == readability("The cat sat on the mat.").fre


def test_readability_file_reads_a_csv_column_and_summarises_it(capsys, tmp_path):
    p = tmp_path / "a.csv"
    p.write_text("id,abstract\n1,The cat sat on the mat.\n2,Carbon emissions rise.\n", encoding="utf-8")
    assert main(["readability", "--file", str(p), "--column", "abstract", "--format", "json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert [r["row"] for r in out] == [2, 3] and out[0]["text"] == "The cat sat on the mat."
    assert main(["readability", "--file", str(p), "--column", "abstract", "--summary", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [r[0] for r in rows[1:]] == ["FRE", "FKG", "CLI", "ARI", "DCRS"]


def test_readability_file_errors_are_one_line_with_exit_code_2(capsys, tmp_path):
    p = tmp_path / "a.csv"
    p.write_text("id,text\n1,Seas rise.\n2,\n", encoding="utf-8")
    for argv, message in (
            (["--file", str(p)], f"{p}, row 3, column 'text': found ''; expected a non-empty text"),
            (["--file", str(p), "--column", "abstract"], "no column 'abstract'"),
            (["--file", str(p), "--data", "climatecause"], "give one or the other"),
            (["--column", "text"], "--column names the column of a --file"),
            (["--file", str(tmp_path / "none.txt")], "no such file")):
        assert main(["readability", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and "Traceback" not in err
