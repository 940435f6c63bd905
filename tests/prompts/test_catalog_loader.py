"""The one prompt-catalog loader: packaged files read as written, every fault named by file, entry and field."""

from __future__ import annotations

from pathlib import Path

import pytest

import causalgraph.prompts.catalog as catalog
from causalgraph.errors import SchemaError
from causalgraph.prompts.catalog import catalog_path, check_fields, load_catalog, read_json, read_text

PROMPTS = Path(catalog.__file__).resolve().parent


def test_read_text_returns_the_packaged_file_byte_for_byte():
    for rel in ("annotation/instructions.txt", "pubmedcausal/extraction/cot.txt"):
        folder, name = rel.split("/", 1)
        assert read_text(folder, name) == (PROMPTS / rel).read_bytes().decode("utf-8")


def test_a_missing_file_names_its_path_in_the_package():
    with pytest.raises(SchemaError, match=r"^prompt catalog file causalgraph/prompts/annotation/nope\.txt is missing"):
        read_text("annotation", "nope.txt")


def test_every_catalog_module_reads_through_the_loader():
    # The three catalogs (and any later one) load their files with these calls, so a file read by a
    # module equals the loader's reading of it.
    from causalgraph.annotation.prompt import exemplars as annotation_exemplars
    from causalgraph.extraction.catalog import strategies
    from causalgraph.prompts import exemplars as climatecause_exemplars, list_variants

    doc = read_json("climatecause", "corri.json")
    assert [v.template for v in list_variants("corri", "tables")] == [v["template"] for v in doc["variants"]]
    assert [e.name for e in climatecause_exemplars()] == [e["name"] for e in
                                                          read_json("climatecause", "exemplars.json")["exemplars"]]
    assert [e.answer for e in annotation_exemplars()] == [e["answer"] for e in
                                                          read_json("annotation", "exemplars.json")["exemplars"]]
    zs = strategies("pubmedcausal-extract")[0]
    assert zs.template == read_text("pubmedcausal", "extraction/zero_shot.txt").strip()


def _fake_file(monkeypatch, text: str) -> None:
    monkeypatch.setattr(catalog, "read_text", lambda folder, name: text)


def test_invalid_json_names_file_line_and_column(monkeypatch):
    _fake_file(monkeypatch, '{\n  "variants": [,]\n}')
    with pytest.raises(SchemaError, match=r"^prompt catalog file causalgraph/prompts/demo/x\.json, line 2 column 16: "
                                          r"not valid JSON"):
        read_json("demo", "x.json")


@pytest.mark.parametrize("text, message", [
    ('[]', r"^causalgraph/prompts/demo/x\.json: found list \[\]; expected an object with fields 'variants'$"),
    ('{}', r"^causalgraph/prompts/demo/x\.json: field 'variants' is missing; expected a list$"),
    ('{"variants": {}}', r"^causalgraph/prompts/demo/x\.json: field 'variants' is dict \{\}; expected a list$"),
    ('{"variants": [{"id": "a", "template": "t"}, {"id": "b"}]}',
     r"^causalgraph/prompts/demo/x\.json, variants\[1\] \(id 'b'\): field 'template' is missing; expected a string$"),
    ('{"variants": [{"id": "a", "template": 3}]}',
     r"^causalgraph/prompts/demo/x\.json, variants\[0\] \(id 'a'\): field 'template' is int 3; expected a string$"),
    ('{"variants": [{"template": "t"}]}', r"^causalgraph/prompts/demo/x\.json, variants\[0\]: field 'id' is missing"),
    ('{"variants": ["t"]}', r"^causalgraph/prompts/demo/x\.json, variants\[0\]: found str 't'; expected an object"),
    ('{"variants": [{"id": "a", "template": "t", "shots": true}]}',
     r"variants\[0\] \(id 'a'\): field 'shots' is bool True; expected an integer or null$"),
])
def test_load_catalog_names_file_entry_and_field(monkeypatch, text, message):
    _fake_file(monkeypatch, text)
    with pytest.raises(SchemaError, match=message):
        load_catalog("demo", "x.json", required={"variants": list}, entries="variants",
                     entry_required={"id": str, "template": str}, entry_optional={"shots": int})


def test_load_catalog_accepts_null_or_missing_optional_fields_and_unknown_ones(monkeypatch):
    _fake_file(monkeypatch, '{"note": "kept", "variants": [{"id": "a", "template": "t", "shots": null, "x": 1},'
                            ' {"id": "b", "template": "u", "shots": 2}]}')
    doc = load_catalog("demo", "x.json", required={"variants": list}, entries="variants",
                       entry_required={"id": str, "template": str}, entry_optional={"shots": int})
    assert doc["note"] == "kept" and [v["id"] for v in doc["variants"]] == ["a", "b"]


def test_check_fields_takes_any_of_several_types():
    assert check_fields({"n": 1.5}, "w", {"n": (int, float)}) == {"n": 1.5}
    with pytest.raises(SchemaError, match=r"^w: field 'n' is str '1'; expected an integer or a number$"):
        check_fields({"n": "1"}, "w", {"n": (int, float)})


def test_catalog_path_is_the_path_inside_the_package():
    assert catalog_path("structure", "parents.json") == "causalgraph/prompts/structure/parents.json"
