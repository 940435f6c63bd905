"""``causalgraph extraction-chains`` over a hand-made predictions file."""

import json

from causalgraph.cli import main


def test_extraction_chains_reports_each_merging_rule(tmp_path, capsys):
    p = tmp_path / "p.json"
    p.write_text(json.dumps({"predictions": [{"s/n": 1, "sentence": "s", "pairs": [
        {"cause": "smoking", "effect": "lung inflammation"}, {"cause": "The lung inflammation", "effect": "cancer"}]}]}))
    assert main(["extraction-chains", str(p), "--format", "json"]) == 0
    rows = {r["merge"]: r for r in json.loads(capsys.readouterr().out)}
    assert [rows[m]["rows_with_chain"] for m in ("exact", "normalized", "fuzzy")] == [0, 1, 1]
    assert rows["normalized"]["chains"] == 1 and rows["normalized"]["chain_events"] == 3


def test_extraction_chains_rejects_a_bad_threshold(tmp_path, capsys):
    p = tmp_path / "p.json"
    p.write_text(json.dumps([{"s/n": 1, "sentence": "s", "pairs": []}]))
    assert main(["extraction-chains", str(p), "--merge", "fuzzy", "--threshold", "2"]) == 2
    assert "threshold" in capsys.readouterr().err
