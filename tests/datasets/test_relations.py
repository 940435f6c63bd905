"""The minimal relations format: detection, row-by-row validation, and the metrics its labels define."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.cli import main
from causalgraph.datasets import example_relations_path, load_climatecause, load_corpus, load_relations
from causalgraph.datasets.detect import detect_file
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.metrics.complexity import complexity_table
from causalgraph.tasks import get_task

ALL_OPTIONAL = ["statement_id", "text", "cause", "effect", "correlation", "relation_type", "explicitness",
                "cause_belongs_to", "effect_belongs_to", "nested", "combined"]


def relation_rows(corpus):
    """The corpus's relations written out by hand in the minimal format (a row per non-causal text too)."""
    rows = []
    for s in corpus:
        if not s.relations:
            rows.append({"statement_id": s.id, "text": s.text})
        for r in s.relations:
            rows.append({"statement_id": s.id, "text": s.text, "cause": r.cause, "effect": r.effect,
                         "correlation": r.correlation.value if r.correlation else None,
                         "relation_type": r.polarity.value if r.polarity else None,
                         "explicitness": r.explicitness.value if r.explicitness else None,
                         "cause_belongs_to": r.cause_belongs_to, "effect_belongs_to": r.effect_belongs_to,
                         "nested": {True: "Yes", False: "No", None: None}[r.nested],
                         "combined": {True: "Yes", False: "No", None: None}[r.combined]})
    return pd.DataFrame(rows, columns=ALL_OPTIONAL)


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_a_file_with_every_optional_column_scores_as_the_climatecause_loader_does(climatecause, tmp_path, capsys):
    f = tmp_path / "relations.csv"
    relation_rows(climatecause).to_csv(f, index=False)
    rc, out, err = run(capsys, "complexity", "--data", str(f), "--format", "csv")
    assert rc == 0 and err == ""
    rc, ref, _ = run(capsys, "complexity", "--format", "csv")
    assert out == ref


def test_a_three_column_file_gives_nan_metrics_with_one_note_per_metric(climatecause, tmp_path, capsys):
    f = tmp_path / "relations.csv"
    relation_rows(climatecause)[["text", "cause", "effect"]].to_csv(f, index=False)
    rc, out, err = run(capsys, "complexity", "--data", str(f), "--format", "json")
    assert rc == 0
    rows = json.loads(out)
    assert len(rows) == len(climatecause)
    assert [r["statement"] for r in rows] == [s.text for s in climatecause]
    for r in rows:
        assert all(r[c] is None for c in ("c_com", "c_ex", "c_nest", "c_corr", "c_pol", "c_raw", "c_norm"))
    notes = err.strip().splitlines()
    assert len(notes) == 6
    assert "c_corr is NaN" in notes[3] and "'correlation'" in notes[3]
    assert "c_pol is NaN" in notes[4] and "'relation_type'" in notes[4]


def test_a_file_with_only_the_correlation_label_scores_c_corr_and_leaves_the_rest_nan(climatecause, tmp_path):
    f = tmp_path / "relations.tsv"
    relation_rows(climatecause)[["text", "cause", "effect", "correlation"]].to_csv(f, index=False, sep="\t")
    t = complexity_table(load_corpus(f))
    ref = complexity_table(climatecause)
    assert list(t.c_corr) == list(ref.c_corr)
    assert t.c_pol.isna().all() and t.c_com.isna().all() and t.c_norm.isna().all()
    assert any("relation_type" in n for n in t.attrs["notes"])


def test_jsonl_and_parquet_files_read_like_the_csv(climatecause, tmp_path):
    frame = relation_rows(climatecause)
    frame.to_csv(tmp_path / "r.csv", index=False)
    with open(tmp_path / "r.jsonl", "w", encoding="utf-8") as fh:
        for rec in frame.to_dict(orient="records"):
            fh.write(json.dumps({k: v for k, v in rec.items() if isinstance(v, str)}) + "\n")
    ref = complexity_table(load_corpus(tmp_path / "r.csv"))
    pd.testing.assert_frame_equal(complexity_table(load_corpus(tmp_path / "r.jsonl")), ref)
    pytest.importorskip("pyarrow")
    frame.to_parquet(tmp_path / "r.parquet")
    for name in ("r.parquet",):
        t = complexity_table(load_corpus(tmp_path / name))
        pd.testing.assert_frame_equal(t, ref)


def test_the_released_corpora_and_the_sample_are_detected_as_before():
    assert load_corpus("sample").name == "sample"
    assert detect_file(example_relations_path()) == "relations"


def test_the_shipped_example_has_every_optional_column_and_a_non_causal_statement():
    c = load_relations(example_relations_path())
    assert c.lacks == ()
    assert [s.causal for s in c] == [True, True, False]
    assert c["ex-1"].meta["context"].startswith("A made-up")


def write(tmp_path, text, name="r.csv"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def test_a_bad_label_names_the_file_row_column_value_and_what_was_expected(tmp_path):
    f = write(tmp_path, "text,cause,effect,correlation\nT,a,b,positive\nT,b,c,sideways\n")
    with pytest.raises(SchemaError) as e:
        load_relations(f)
    msg = str(e.value)
    assert f"{f}: row 3, column 'correlation': found 'sideways'; expected Positive_correlation" in msg


def test_an_empty_label_cell_is_an_error_when_the_column_is_present(tmp_path):
    f = write(tmp_path, "text,cause,effect,relation_type\nT,a,b,\n")
    with pytest.raises(SchemaError, match=r"row 2, column 'relation_type': found an empty cell; expected Positive"):
        load_relations(f)


def test_a_cause_without_an_effect_is_refused_and_lenient_loading_lists_every_problem(tmp_path):
    f = write(tmp_path, "text,cause,effect\nT,a,\nU,,b\nV,x,y\n")
    corpus, problems = load_relations(f, strict=False)
    assert [(p.row, p.column) for p in problems] == [(2, "effect"), (3, "cause")]
    assert [len(s.relations) for s in corpus] == [0, 0, 1]


def test_a_value_under_no_header_is_refused_naming_its_column(tmp_path):
    f = write(tmp_path, "text,cause,effect\nT,a,b,stray\n")
    with pytest.raises(SchemaError, match=r"row 2: found 'stray' in column 4, which has no header"):
        load_relations(f)


def test_a_misspelt_optional_column_is_refused_rather_than_read_as_missing(tmp_path):
    f = write(tmp_path, "text,cause,effect,corelation\nT,a,b,positive\n")
    with pytest.raises(SchemaError, match="column 'corelation'.*expected 'correlation'"):
        load_relations(f)


def test_a_statement_id_shared_by_two_texts_is_refused(tmp_path):
    f = write(tmp_path, "statement_id,text,cause,effect\ns1,T,a,b\ns1,U,b,c\n")
    with pytest.raises(SchemaError, match="row 3, column 'text'.*same statement_id 's1'"):
        load_relations(f)


def test_a_jsonl_line_that_is_not_json_is_named_by_its_line(tmp_path):
    f = write(tmp_path, '{"text": "T", "cause": "a", "effect": "b"}\n{oops\n', "r.jsonl")
    with pytest.raises(SchemaError, match=r"r.jsonl: line 2: not JSON"):
        load_corpus(f)


def test_a_jsonl_cause_that_is_a_list_is_refused_not_printed_as_text(tmp_path):
    f = write(tmp_path, '{"text": "T", "cause": ["a", "b"], "effect": "c"}\n', "r.jsonl")
    with pytest.raises(SchemaError, match=r"r.jsonl: line 1, column 'cause': found a list \['a', 'b'\]; expected an event"):
        load_corpus(f)


def test_a_task_needing_a_missing_label_is_refused_in_one_line(tmp_path, capsys):
    f = write(tmp_path, "text,cause,effect\nWarming melts ice.,warming,ice\n")
    with pytest.raises(ConfigError, match="needs 'correlation' labels"):
        get_task("corri").items(load_corpus(f), "0_1")
    rc, out, err = run(capsys, "items", "--task", "corri", "--variant", "0_1", "--data", str(f))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    # the graph-only tasks run
    assert get_task("ccr-member").items(load_corpus(f), "A_5")


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp", "Cf")), min_size=1,
                max_size=8).filter(lambda s: s.strip() and s == s.strip())


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(["T1", "T2", "T3"]), names, names,
                          st.sampled_from(["positive", "negative"])), min_size=1, max_size=12))
def test_any_relations_round_trip_through_a_csv_file(tmp_path_factory, rows):
    f = tmp_path_factory.mktemp("h") / "r.csv"
    pd.DataFrame(rows, columns=["text", "cause", "effect", "correlation"]).to_csv(f, index=False)
    c = load_relations(f)
    got = [(s.text, r.cause, r.effect, r.correlation.value) for s in c for r in s.relations]
    texts = list(dict.fromkeys(t for t, *_ in rows))
    assert got == [row for t in texts for row in rows if row[0] == t]
    assert math.isnan(complexity_table(c).c_pol.iloc[0])


def test_the_summary_is_refused_in_one_line_when_metrics_are_missing(tmp_path, capsys):
    f = write(tmp_path, "text,cause,effect,correlation\nT,a,b,negative\nT,b,c,negative\n")
    rc, out, err = run(capsys, "complexity", "--data", str(f), "--summary")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "c_com, c_ex, c_nest, c_pol" in err


def test_the_report_of_a_three_column_file_says_its_metrics_are_missing(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    f = write(tmp_path, "text,cause,effect\nWarming melts ice and raises seas.,warming,ice\n"
                        "Warming melts ice and raises seas.,ice,seas\n")
    rc, out, err = run(capsys, "report", "--data", str(f), "-o", str(tmp_path / "rep"))
    assert rc == 0, err
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert "note: c_corr is NaN" in page


# -- typed cells, repeated columns, what --data reads (issue 35, items 3, 11, 18) --------------------------

@pytest.mark.parametrize("line, column, found, expected", [
    ('{"text": "t", "cause": 5, "effect": "b"}', "cause", "the number 5", "an event name as text"),
    ('{"text": "t", "cause": true, "effect": "b"}', "cause", "the boolean true", "an event name as text"),
    ('{"text": 12, "cause": "a", "effect": "b"}', "text", "the number 12", "the statement text as text"),
    ('{"text": "t", "cause": "a", "effect": 1.5}', "effect", "the number 1.5", "an event name as text"),
    ('{"text": "t", "cause": "a", "effect": "b", "statement_id": 7}', "statement_id", "the number 7",
     "a statement id as text"),
    ('{"text": "t", "cause": "a", "effect": "b", "correlation": 1}', "correlation", "the number 1",
     "a label as text"),
    ('{"text": "t", "cause": "a", "effect": "b", "nested": 1}', "nested", "the number 1",
     "Yes/No as text, or a boolean"),
])
def test_a_jsonl_cell_of_another_type_than_text_is_refused_naming_line_column_value_and_type(
        tmp_path, capsys, line, column, found, expected):
    f = write(tmp_path, line + "\n", "r.jsonl")
    with pytest.raises(SchemaError) as e:
        load_corpus(f)
    assert str(e.value) == f"{f}: line 1, column '{column}': found {found}; expected {expected}"
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == "" and err == f"causalgraph info: error: {e.value}\n"


def test_a_boolean_nested_or_combined_is_its_yes_or_no(tmp_path):
    f = write(tmp_path, '{"text": "t", "cause": "a", "effect": "b", "nested": true, "combined": false}\n', "r.jsonl")
    (r,) = load_corpus(f).relations
    assert (r.nested, r.combined) == (True, False)


def test_lenient_loading_lists_every_typed_cell_and_keeps_the_good_rows(tmp_path):
    f = write(tmp_path, '{"text": "t", "cause": 5, "effect": false}\n{"text": "t", "cause": "a", "effect": "b"}\n'
                        '{"text": ["u"], "cause": "a", "effect": "b"}\n', "r.jsonl")
    corpus, problems = load_relations(f, strict=False)
    assert [(p.row, p.column, p.value) for p in problems] == [(1, "cause", 5), (1, "effect", False),
                                                              (3, "text", ["u"])]
    assert [(r.cause, r.effect) for r in corpus.relations] == [("a", "b")]


def test_a_csv_cell_is_text_so_a_number_there_is_the_event_it_spells(tmp_path):
    # CSV has no types: the cell 5 is the text "5", the event a JSONL "5" gives too
    csv_events = [(r.cause, r.effect) for r in load_corpus(write(tmp_path, "text,cause,effect\nt,5,true\n")).relations]
    jsonl = write(tmp_path, '{"text": "t", "cause": "5", "effect": "true"}\n', "r.jsonl")
    assert csv_events == [(r.cause, r.effect) for r in load_corpus(jsonl).relations] == [("5", "true")]


def test_a_parquet_float_cause_is_refused_naming_the_record(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    f = tmp_path / "r.parquet"
    # record 1 is a statement without causality (null cause and effect), record 2 a float cause
    pq.write_table(pa.table({"text": ["t", "u"], "cause": [None, 1.5], "effect": [None, "b"]}), f)
    with pytest.raises(SchemaError) as e:
        load_corpus(f)
    assert str(e.value).startswith(f"{f}: record 2, column 'cause': found the number 1.5; expected an event name as "
                                   "text")


@pytest.mark.parametrize("text, message", [
    ("text,cause,effect,effect\nT,a,b,c\n", "column 'effect' appears twice ('effect' as column 3, 'effect' as "
                                            "column 4); expected each column once"),
    ("Text,cause,Cause,effect\nT,a,b,c\n", "column 'cause' appears twice ('cause' as column 2, 'Cause' as column 3)"),
])
def test_a_column_given_twice_is_refused_not_read_from_its_first_place(tmp_path, capsys, text, message):
    f = write(tmp_path, text)
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == "" and message in err and len(err.splitlines()) == 1


def test_a_jsonl_key_given_twice_in_a_record_is_refused(tmp_path):
    f = write(tmp_path, '{"text": "t", "cause": "a", "effect": "b", "cause": "c"}\n', "r.jsonl")
    with pytest.raises(SchemaError, match=r"r.jsonl: line 1: the key 'cause' appears twice in one object"):
        load_corpus(f)


def test_a_relations_file_without_a_column_is_told_which_relations_column_it_lacks(tmp_path, capsys):
    f = write(tmp_path, "text,cause\nT,a\n", "missing_col.csv")
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == "" and len(err.splitlines()) == 1
    assert f"{f}: missing required column(s) 'effect'; found columns ['text', 'cause'] (the relations format" in err
    assert "Causal?" not in err


def test_an_exported_edge_list_and_dagitty_file_read_back_as_graphs_and_a_csv_edge_list_is_told_it_lacks_text(
        tmp_path, capsys):
    from causalgraph.datasets import load_corpus
    from causalgraph.graph import compile_graph

    want = load_corpus("sample")["sample-001"]
    for fmt, suffix in (("edgelist", ".tsv"), ("dagitty", ".dagitty")):
        rc, _, err = run(capsys, "export-graphs", str(tmp_path / fmt), "--format", fmt, "--data", "sample")
        assert rc == 0, err
        f = tmp_path / fmt / f"sample-001{suffix}"
        back = load_corpus(str(f))
        assert back.name == "graphs" and "text" in back.lacks
        assert compile_graph(back["sample-001"]).pairs == compile_graph(want).pairs
        rc, out, err = run(capsys, "info", "--data", str(f))
        assert rc == 0 and "statements         1" in out, err
    f = tmp_path / "e.csv"
    f.write_text((tmp_path / "edgelist" / "sample-001.tsv").read_text(encoding="utf-8").replace("\t", ","),
                 encoding="utf-8")
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == "" and len(err.splitlines()) == 1
    assert "missing required column(s) 'text'; found columns ['cause', 'effect', 'correlation', 'relation_type']" in err
    assert "read it as the .tsv export-graphs writes" in err and "ipccText" not in err


def test_a_file_type_that_is_not_read_is_refused_listing_every_type_that_is(tmp_path, capsys):
    from causalgraph.datasets.detect import FILE_FORMATS, READ_SUFFIXES

    f = write(tmp_path, "%PDF-1.4\n", "x.pdf")
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == "" and len(err.splitlines()) == 1
    assert "unsupported file type '.pdf'" in err and "expected .xlsx or .csv" not in err
    # the list is the loaders' own: every suffix of every format, each under its format
    assert all(f"{name}: {', '.join(sfx)}" in err.replace(" (node-link)", "").replace(" (an edge list)", "")
               for name, sfx in FILE_FORMATS.items())
    assert {".tsv", ".jsonl", ".parquet", ".gml", ".graphml", ".dot", ".json"} <= set(READ_SUFFIXES)


def test_a_jsonl_line_holding_a_list_is_refused_not_read_as_records(tmp_path, capsys):
    f = write(tmp_path, "[1,2,3]\n", "notobj.jsonl")
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == ""
    assert err == f"causalgraph info: error: {f}: line 1: found a list [1, 2, 3]; expected an object (JSON Lines: " \
                  "one record per line)\n"


def test_more_problems_than_the_first_name_the_call_that_lists_them(tmp_path, capsys):
    f = tmp_path / "two.jsonl"
    f.write_text('{"text": 12, "cause": "a", "effect": "b"}\n{"text": "t", "cause": null, "effect": "b"}\n',
                 encoding="utf-8")
    rc, out, err = run(capsys, "info", "--data", str(f))
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "line 1, column 'text': found the number 12" in err
    assert "(and 1 more problem; in Python, causalgraph.datasets.load_relations(path, strict=False) lists every one)" \
        in err
    from causalgraph.datasets.relations import load_relations

    _, problems = load_relations(f, strict=False)
    assert [(p.row, p.column) for p in problems] == [(1, "text"), (2, "cause")]
