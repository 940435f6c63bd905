"""``causalgraph extract`` on a mock model."""

import json

from causalgraph.cli import main


def test_extract_writes_a_run_with_predictions_and_prints_a_summary(tmp_path, capsys, pubmed_test_path):
    out = tmp_path / "run"
    rc = main(["extract", "--model", "mock/constant", "--strategy", "FS", "--limit", "2", "--out", str(out),
               "--model-option", "text=Tuple 1: {Cause: a, Effect: b}", "--no-cache", "--format", "json"])
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["variants"][0]["strategy"] == "few-shot" and res["requests_sent"] == 2
    saved = json.loads((out / "predictions.json").read_text())
    assert [p["pairs"] for p in saved["predictions"]] == [[{"cause": "a", "effect": "b", "causality": None,
                                                            "sententiality": None}]] * 2


def test_extract_unknown_strategy_is_one_line_on_stderr_with_exit_2(tmp_path, capsys):
    rc = main(["extract", "--model", "mock/constant", "--strategy", "tot", "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and "unknown prompting strategy 'tot'" in err and len(err.strip().splitlines()) == 1
