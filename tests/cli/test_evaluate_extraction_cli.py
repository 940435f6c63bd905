"""``causalgraph evaluate-extraction`` on authors'-format prediction files."""

import json

from causalgraph.cli import main


def _write(tmp_path, rows, name="pred.json"):
    p = tmp_path / name
    p.write_text(json.dumps({"predictions": rows}))
    return p


def test_evaluate_extraction_json_gold_against_gold_file(tmp_path, capsys, pubmed_test_path):
    rows = json.loads(pubmed_test_path.read_text())[:5]
    pred = _write(tmp_path, rows)
    rc = main(["evaluate-extraction", str(pred), "--gold", str(pubmed_test_path), "--only-predicted",
               "--format", "json"])
    assert rc == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["summary"]["gold_rows"] == 5
    assert all(m["f1"] == 1.0 for m in rep["metrics"])


def test_evaluate_extraction_table_lists_measures_labels_and_buckets(tmp_path, capsys, pubmed_test_path):
    pred = _write(tmp_path, [{"s/n": 8084, "sentence": "", "pairs": [
        {"cause": "high insulin level", "effect": "endometrial cancer"}]}])
    rc = main(["evaluate-extraction", str(pred), "--split", "test", "--mode", "hungarian"])
    out = capsys.readouterr().out
    assert rc == 0
    # The one row the file asks is scored; a note says how many gold rows it did not ask.
    assert "mean_matched" in out and "cause-correct" in out and "gold rows 1 (0 without prediction" in out
    assert "note: 1,972 rows of the gold were not asked by" in out
    rc = main(["evaluate-extraction", str(pred), "--split", "test", "--mode", "hungarian", "--all-rows"])
    out = capsys.readouterr().out
    assert rc == 0 and "1972 without prediction" in out and "1,972 rows of the gold were not asked" in out


def test_evaluate_extraction_csv_has_one_line_per_measure(tmp_path, capsys, pubmed_test_path):
    pred = _write(tmp_path, [])
    assert main(["evaluate-extraction", str(pred), "--format", "csv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "measure,part,precision,recall,f1" and len(lines) == 1 + 4


def test_evaluate_extraction_bad_file_is_an_error_naming_it(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": []}')
    assert main(["evaluate-extraction", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "predictions" in err
    broken = _write(tmp_path, [{"s/n": 8084, "pairs": [{"cause": "x"}]}], name="broken.json")
    assert main(["evaluate-extraction", str(broken)]) == 2
    assert "record 1" in capsys.readouterr().err
