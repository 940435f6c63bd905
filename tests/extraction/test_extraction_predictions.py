"""Reading predictions: the authors' format, plain row lists, list-shaped pairs, bad files."""

import json

import pytest

from causalgraph.errors import SchemaError
from causalgraph.extraction.predictions import load_predictions, write_predictions


def _write(tmp_path, obj, name="p.json"):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return p


def test_load_predictions_reads_the_authors_format_and_keeps_spans_as_written(tmp_path):
    p = _write(tmp_path, {"model": "m", "predictions": [
        {"s/n": 5.0, "sentence": "s", "pairs": [{"Cause": " (a) ", "Effect": "b}", "Causality_Type": "Explcit"}]}]})
    ps = load_predictions(p)
    (row,) = ps.rows.values()
    assert ps.kind == "predictions" and ps.meta == {"model": "m"} and row.sn == "5"
    # Data, not model output: only trimmed (a parser would strip the brackets).
    assert (row.pairs[0].cause, row.pairs[0].effect) == ("(a)", "b}")
    assert row.pairs[0].causality.value == "explicit"


def test_load_predictions_accepts_list_shaped_pairs(tmp_path):
    p = _write(tmp_path, [{"s/n": 1, "sentence": "s", "pairs": [["smoking", "cancer", "Explicit", "Intra"]]}])
    pair = load_predictions(p).rows["1"].pairs[0]
    assert (pair.cause, pair.effect, pair.sententiality.value) == ("smoking", "cancer", "intra")


@pytest.mark.parametrize("obj, match", [
    ({"rows": []}, "without a 'predictions' list"),
    ([{"sentence": "s", "pairs": []}], "record 1: no 's/n'"),
    ([{"s/n": 1, "pairs": []}, {"s/n": 1, "pairs": []}], "record 2: s/n '1' appears twice"),
    ([{"s/n": 1, "pairs": "a -> b"}], "field 'pairs': expected a list"),
    ([{"s/n": 1, "pairs": [{"effect": "b"}]}], r"pairs\[1\]': no cause"),
    ([{"s/n": 1, "pairs": [42]}], "expected an object with cause and effect"),
    ("text", "found str"),
])
def test_load_predictions_rejects_bad_files_naming_record_and_field(tmp_path, obj, match):
    with pytest.raises(SchemaError, match=match):
        load_predictions(_write(tmp_path, obj))


def test_load_predictions_names_a_file_that_is_not_json(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(SchemaError, match="x.json: not valid JSON"):
        load_predictions(p)
    with pytest.raises(SchemaError, match="no such run directory"):
        load_predictions(tmp_path / "missing.json")


def test_write_predictions_round_trips(tmp_path):
    ps = load_predictions(_write(tmp_path, {"predictions": [
        {"s/n": 7, "sentence": "s", "pairs": [{"cause": "a", "effect": "b", "sententiality": "Inter"}]}]}))
    out = write_predictions(ps, tmp_path / "out.json", model="mock/x")
    again = load_predictions(out)
    assert again.meta["model"] == "mock/x" and again.rows["7"].pairs == ps.rows["7"].pairs
