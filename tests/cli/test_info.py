"""``causalgraph info`` on both corpora, and its one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

from causalgraph.cli import main


def test_info_json_on_climatecause(capsys):
    assert main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["statements"], info["causal_statements"], info["relations"]) == (75, 63, 874)
    assert info["labels"]["correlation"] == {"positive": 587, "negative": 287}
    assert info["labels"]["polarity"] == {"positive": 827, "negative": 47}
    assert info["labels"]["explicitness"] == {"explicit": 593, "implicit": 281}
    assert info["labels"]["nested"] == {"none": 670, "no": 158, "yes": 46}
    assert info["labels"]["combined"] == {"none": 514, "no": 257, "yes": 103}
    assert info["labels"]["confidence"]["high confidence"] == 760
    assert info["problems"] == 0


def test_info_json_on_pubmedcausal(capsys):
    assert main(["info", "--data", "pubmedcausal", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["rows"], info["pairs"]) == (1973, 3199)
    assert info["labels"]["sententiality"] == {"intra": 3109, "inter": 90}
    assert info["labels_normalised"] == 14 and info["labels_empty"] == 1


def test_info_text_lists_counts(capsys):
    assert main(["info", "--data", "climatecause"]) == 0
    out = capsys.readouterr().out
    assert "statements         75" in out and "correlation        positive=587, negative=287" in out


def test_info_bad_path_is_one_line_on_stderr_with_exit_2(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("ipccText,Causal?\nA,Maybe\n")
    r = subprocess.run([sys.executable, "-m", "causalgraph", "info", "--data", str(bad)], capture_output=True,
                       text=True)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("causalgraph info: error: ")
    assert "missing required column(s)" in lines[0]


def test_info_counts_blank_spreadsheet_rows_so_an_emptied_row_is_not_silent(climatecause_path, tmp_path, capsys):
    import openpyxl

    wb = openpyxl.load_workbook(climatecause_path)
    for cell in wb.worksheets[0][7]:
        cell.value = None
    wb.save(tmp_path / "cc.xlsx")
    assert main(["info", "--data", str(tmp_path / "cc.xlsx"), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["blank_rows"] == 1 and info["relations"] == 873
    assert main(["info", "--data", str(tmp_path / "cc.xlsx")]) == 0
    assert "blank_rows         1" in capsys.readouterr().out


def test_info_on_a_corrupted_workbook_is_one_line_on_stderr_with_exit_2(climatecause_path, tmp_path):
    # The case of issue #13: 200 zero bytes at offset 5000 broke the sheet's XML, and the
    # ParseError came out as a traceback with exit code 1.
    data = bytearray(climatecause_path.read_bytes())
    data[5000:5200] = bytes(200)
    copy = tmp_path / "copy.xlsx"
    copy.write_bytes(bytes(data))
    r = subprocess.run([sys.executable, "-m", "causalgraph", "info", "--data", str(copy)], capture_output=True,
                       text=True)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"causalgraph info: error: {copy}: cannot read as an xlsx workbook: reading row 11 "
                               "failed (ParseError: not well-formed")
