"""Texts from a file: lines, a CSV column, a JSONL key; rows numbered as a person sees them, bad rows named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from causalgraph.errors import ConfigError, SchemaError
from causalgraph.readwrite.texts import read_texts, text_file_kind


def test_a_text_file_gives_one_text_per_line_numbered_by_line(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_bytes(b"  Seas rise.  \r\n\r\nIce melts.\n   \nRivers flood\n")
    s = read_texts(p)
    assert s.to_dict() == {1: "Seas rise.", 3: "Ice melts.", 5: "Rivers flood"}
    assert s.index.name == "row"


def test_a_csv_column_is_numbered_as_a_spreadsheet_shows_its_rows(tmp_path):
    p = tmp_path / "a.csv"
    p.write_text('\ufeffid,abstract\n1,"Seas rise, and ice melts."\n2,"Two\nlines"\n\n3,Rivers flood.\n',
                 encoding="utf-8")
    s = read_texts(p, "abstract")
    # header = row 1; the quoted newline is inside row 3's cell; the blank line is an empty row 4 in a
    # spreadsheet, holding no text
    assert s.to_dict() == {2: "Seas rise, and ice melts.", 3: "Two\nlines", 5: "Rivers flood."}


def test_a_jsonl_key_defaults_to_text(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_text('{"text": "Seas rise."}\n\n{"text": "Ice melts.", "id": 4}\n', encoding="utf-8")
    assert read_texts(p).to_dict() == {1: "Seas rise.", 3: "Ice melts."}


@pytest.mark.parametrize("name, content, column, message", [
    ("a.csv", "id,abstract\n1,x\n", None, r"a\.csv: no column 'text'; the header has 'id', 'abstract'"),
    ("a.csv", "id,text\n1,Seas rise.\n2,\n", None, r"a\.csv, row 3, column 'text': found ''; expected a non-empty"),
    ("a.csv", "id,text\n1,Seas rise.\n2\n", None, r"row 3, column 'text': found 'nothing \(a short row\)'"),
    ("a.csv", "", None, r"a\.csv: empty; expected a header row"),
    ("a.jsonl", '{"text": "Seas rise."}\n{"text": 3}\n', None, r"a\.jsonl, row 2, column 'text': found 3; expected"),
    ("a.jsonl", '{"text": "Seas rise."}\n{"abstract": "x"}\n', None, r"row 2: no key 'text'; the object has 'abstract'"),
    ("a.jsonl", '{"text": "Seas rise."}\n[1, 2]\n', None, r"row 2: found \[1, 2\]; expected a JSON object"),
    ("a.jsonl", '{"text": "Seas rise."}\n{"text": \n', None, r"a\.jsonl, row 2: not JSON"),
    ("a.jsonl", '{"text": null}\n', None, r"row 1, column 'text': found None"),
    ("a.txt", "Seas rise.\n", "text", r"a text file has no columns"),
    ("a.txt", "\n \n", None, r"a\.txt: no text in it; expected one text per line"),
])
def test_bad_files_are_one_error_naming_file_row_column_and_value(tmp_path, name, content, column, message):
    p = tmp_path / name
    p.write_text(content, encoding="utf-8")
    with pytest.raises((ConfigError, SchemaError), match=message):
        read_texts(p, column)


def test_unreadable_files_say_what_is_wrong(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        read_texts(tmp_path / "missing.txt")
    with pytest.raises(ConfigError, match="a folder"):
        read_texts(tmp_path)
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Caf\xe9 rises.\n".encode("latin-1"))
    with pytest.raises(SchemaError, match=r"latin1\.txt: not UTF-8 text \(byte 3\)"):
        read_texts(bad)


def test_the_kind_of_file_is_read_from_its_name():
    assert [text_file_kind(n) for n in ("a.csv", "a.CSV", "a.jsonl", "a.ndjson", "a.txt", "a", "a.json")] == \
        ["csv", "csv", "jsonl", "jsonl", "lines", "lines", "lines"]


texts = st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1).filter(
    lambda t: t.strip()), min_size=1, max_size=20)


@given(texts)
def test_any_texts_written_as_csv_or_jsonl_read_back_unchanged(tmp_path_factory, values):
    import csv

    d = tmp_path_factory.mktemp("rt")
    with open(d / "a.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["text", "n"])
        for i, v in enumerate(values):
            w.writerow([v, i])
    (d / "a.jsonl").write_text("".join(json.dumps({"text": v}) + "\n" for v in values), encoding="utf-8")
    assert read_texts(d / "a.csv").tolist() == values
    assert read_texts(d / "a.csv").index.tolist() == list(range(2, len(values) + 2))
    assert read_texts(d / "a.jsonl").tolist() == values
