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
