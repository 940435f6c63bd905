"""The CauseNet loader: formats, provenance counts, filters, errors naming the line, both engines alike."""

from __future__ import annotations

import json

import pytest
from causenet_files import relation, write
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.datasets import load_corpus
from causalgraph.datasets.causenet import causenet_path, find_concept, is_causenet, load_causenet
from causalgraph.errors import ConfigError, DataNotFound, SchemaError

try:
    from causalgraph.datasets.causenet import _arrow_available
    HAVE_ARROW = _arrow_available()
except ImportError:  # pragma: no cover
    HAVE_ARROW = False

ENGINES = ["python"] + (["arrow"] if HAVE_ARROW else [])

LINES = [
    relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smoking causes lung cancer."),
                                        ("clueweb12_sentence", "Lung cancer is caused by smoking.")], support=2),
    relation("lung_cancer", "death", [("wikipedia_list", None)]),
    relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smokers get lung cancer.")], support=1),
    relation("death", "death", [("wikipedia_infobox", None)]),
]


def graph_view(g):
    """Everything a loader gives, as plain values (to compare engines and formats)."""
    return {"names": g.names_list(), "src": g.src.tolist(), "dst": g.dst.tolist(), "relations": g.relations.tolist(),
            "sources": g.sources.tolist(), "types": list(g.source_types),
            "type_counts": None if g.type_counts is None else g.type_counts.tolist(),
            "support": None if g.support is None else g.support.tolist(),
            "sentences": [g.edge_sentences(e) for e in range(g.n_edges)]}


@pytest.mark.parametrize("engine", ENGINES)
def test_repeated_relations_merge_into_one_edge_with_their_provenance_counts(tmp_path, engine):
    g = load_causenet(write(tmp_path / "c.jsonl", LINES), keep_sentences=True, engine=engine)
    v = graph_view(g)
    assert v["names"] == ["smoking", "lung cancer", "death"]  # underscores are spaces, first appearance order
    assert list(zip(v["src"], v["dst"])) == [(0, 1), (1, 2), (2, 2)]
    assert v["relations"] == [2, 1, 1]
    assert v["sources"] == [3, 1, 1]
    assert v["types"] == ["wikipedia_sentence", "clueweb12_sentence", "wikipedia_list", "wikipedia_infobox"]
    assert v["type_counts"] == [[2, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert v["support"] == [3, 0, 0]
    assert v["sentences"] == [["Smoking causes lung cancer.", "Lung cancer is caused by smoking.",
                               "Smokers get lung cancer."], [], []]
    assert g.edge_provenance(0) == {"relations": 2, "sources": 3, "support": 3,
                                    "source_types": {"wikipedia_sentence": 2, "clueweb12_sentence": 1}}


@pytest.mark.parametrize("compression", [None, "gzip", "bz2"])
def test_plain_gzip_and_bz2_files_are_told_by_their_content_not_their_name(tmp_path, compression):
    p = write(tmp_path / "graph.data", LINES, compression)
    assert is_causenet(p)
    assert causenet_path(str(p)) == p
    assert graph_view(load_causenet(p, keep_sentences=True)) == graph_view(
        load_causenet(write(tmp_path / "plain.jsonl", LINES), keep_sentences=True, engine="python"))


def test_without_keep_sentences_no_sentence_is_held(tmp_path):
    g = load_causenet(write(tmp_path / "c.jsonl", LINES))
    assert g.sentences is None and g.edge_sentences(0) == []


def test_a_plain_string_sentence_payload_is_read_too(tmp_path):
    lines = [relation("a", "b", [("wikipedia_sentence", "A makes B.")], sentence_as_object=False)]
    g = load_causenet(write(tmp_path / "c.jsonl", lines), keep_sentences=True)
    assert g.edge_sentences(0) == ["A makes B."]


@pytest.mark.parametrize("engine", ENGINES)
def test_min_sources_keeps_edges_with_enough_sources_and_the_concepts_they_name(tmp_path, engine):
    g = load_causenet(write(tmp_path / "c.jsonl", LINES), min_sources=2, keep_sentences=True, engine=engine)
    assert g.names_list() == ["smoking", "lung cancer"]
    assert g.pairs() == [("smoking", "lung cancer")]
    assert g.edge_sentences(0)[2] == "Smokers get lung cancer."
    assert g.report["edges_before_filter"] == 3 and g.report["edges"] == 1


def test_the_sample_without_provenance_loads_with_zero_sources(tmp_path):
    lines = [relation("disease", "death"), relation("virus", "disease")]
    g = load_causenet(write(tmp_path / "sample.json", lines))
    assert g.sources.tolist() == [0, 0] and g.source_types == () and g.support is None


def test_blank_lines_are_skipped_and_do_not_shift_line_numbers(tmp_path):
    p = write(tmp_path / "c.jsonl", [LINES[0], "", "  ", '{"causal_relation": 5}'])
    with pytest.raises(SchemaError) as e:
        load_causenet(p)
    assert str(e.value) == (f"{p}, line 4: field causal_relation: found 5; expected an object "
                            '{"cause": …, "effect": …}')


BAD = [
    ("{not json", "(line)", "one JSON object (column 2"),
    ('[1, 2]', "(line)", "a JSON object"),
    ('{"causal_relation": {"cause": {"concept": ""}, "effect": {"concept": "b"}}}',
     "causal_relation.cause.concept", "a non-empty string"),
    ('{"causal_relation": {"cause": {"concept": "a"}, "effect": {"concept": 7}}}',
     "causal_relation.effect.concept", "a non-empty string"),
    ('{"causal_relation": {"cause": "a", "effect": {"concept": "b"}}}', "causal_relation.cause", "an object"),
    ('{"causal_relation": {"cause": {"concept": "a"}, "effect": {"concept": "b"}}, "sources": {}}',
     "sources", "a list of sources"),
    ('{"causal_relation": {"cause": {"concept": "a"}, "effect": {"concept": "b"}}, "sources": [{"payload": {}}]}',
     "sources[0].type", "a non-empty string"),
    ('{"causal_relation": {"cause": {"concept": "a"}, "effect": {"concept": "b"}}, "support": "many"}',
     "support", "a number"),
]


@pytest.mark.parametrize("engine", ["auto", "python"])
@pytest.mark.parametrize("line,field,expected", BAD, ids=[b[1] for b in BAD])
def test_a_malformed_line_is_an_error_naming_the_file_line_field_and_expectation(tmp_path, line, field, expected,
                                                                               engine):
    p = write(tmp_path / "c.jsonl", [LINES[0], LINES[1], line, LINES[2]])
    with pytest.raises(SchemaError) as e:
        load_causenet(p, engine=engine)
    msg = str(e.value)
    assert msg.startswith(f"{p}, line 3: field {field}: found ")
    assert f"expected {expected}" in msg


def test_lenient_loading_lists_every_problem_and_keeps_every_good_line(tmp_path):
    lines = [LINES[0]] + [b[0] for b in BAD] + [LINES[1]]
    g = load_causenet(write(tmp_path / "c.jsonl", lines), strict=False)
    assert [p.row for p in g.problems] == list(range(2, 2 + len(BAD)))
    assert [p.column for p in g.problems] == [b[1] for b in BAD]
    assert g.pairs() == [("smoking", "lung cancer"), ("lung cancer", "death")]
    assert g.report["skipped"] == len(BAD) and g.report["lines"] == len(lines)


def test_a_truncated_compressed_file_is_an_error_naming_it(tmp_path):
    p = write(tmp_path / "c.jsonl.gz", LINES * 200, "gzip")
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(SchemaError) as e:
        load_causenet(p)
    assert str(e.value).startswith(f"{p}: cannot be read to the end")


def test_causenet_prefix_names_a_file_and_a_missing_one_is_data_not_found(tmp_path):
    p = write(tmp_path / "c.jsonl", LINES)
    assert causenet_path(f"causenet:{p}") == p
    with pytest.raises(DataNotFound):
        causenet_path(f"causenet:{tmp_path / 'missing.jsonl'}")
    assert causenet_path("climatecause") is None and causenet_path(None) is None
    not_causenet = tmp_path / "rows.jsonl"
    not_causenet.write_text('{"sentence": "x", "pairs": []}\n')
    assert causenet_path(str(not_causenet)) is None


def test_load_corpus_refuses_causenet_in_one_clear_error(tmp_path):
    p = write(tmp_path / "c.jsonl", LINES)
    with pytest.raises(ConfigError, match="CauseNet is one merged graph, not a corpus of statements"):
        load_corpus(f"causenet:{p}")


def test_find_concept_takes_underscores_or_spaces_and_names_a_missing_one(tmp_path):
    g = load_causenet(write(tmp_path / "c.jsonl", LINES))
    assert find_concept(g, "lung_cancer") == find_concept(g, "lung cancer") == 1
    with pytest.raises(SchemaError, match="no concept 'asbestos' among its 3 concepts"):
        find_concept(g, "asbestos")


concepts = st.sampled_from(["a", "b", "c_d", "c d", "e", "fé", "g_h_i"])
sources = st.lists(st.tuples(st.sampled_from(["wikipedia_sentence", "clueweb12_sentence", "wikipedia_list"]),
                             st.one_of(st.none(), st.text(min_size=1, max_size=12))), max_size=3)
lines_st = st.lists(st.builds(relation, concepts, concepts, sources,
                              support=st.one_of(st.none(), st.integers(0, 5))), min_size=1, max_size=25)


@pytest.mark.skipif(not HAVE_ARROW, reason="pyarrow with pyarrow.json.open_json is not installed")
@settings(max_examples=60)
@given(lines=lines_st, keep=st.booleans(), min_sources=st.integers(0, 3))
def test_the_arrow_and_python_engines_give_the_same_graph(tmp_path_factory, lines, keep, min_sources):
    p = write(tmp_path_factory.mktemp("cn") / "c.jsonl", lines)
    a = load_causenet(p, keep_sentences=keep, min_sources=min_sources, engine="arrow")
    b = load_causenet(p, keep_sentences=keep, min_sources=min_sources, engine="python")
    assert a.report["engine"] == "arrow" and b.report["engine"] == "python"
    assert graph_view(a) == graph_view(b)


@settings(max_examples=60)
@given(lines=lines_st)
def test_counts_match_a_count_made_line_by_line(tmp_path_factory, lines):
    p = write(tmp_path_factory.mktemp("cn") / "c.jsonl", lines)
    g = load_causenet(p)
    expect: dict = {}
    for obj in lines:
        cr = obj["causal_relation"]
        key = (cr["cause"]["concept"].replace("_", " "), cr["effect"]["concept"].replace("_", " "))
        rel, src = expect.get(key, (0, 0))
        expect[key] = (rel + 1, src + len(obj.get("sources", [])))
    assert dict(zip(g.pairs(), zip(g.relations.tolist(), g.sources.tolist()))) == expect
    assert list(expect) == g.pairs()  # first-appearance order
    assert json.dumps(g.report)  # the report is plain JSON


json_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, width=32),
                        st.text(max_size=4), st.lists(st.integers(0, 2), max_size=2),
                        st.dictionaries(st.sampled_from(["concept", "surface", "type"]), st.text(max_size=3),
                                        max_size=2))


@st.composite
def hostile_lines(draw):
    """A valid line with one field replaced by an arbitrary JSON value."""
    obj = relation("a", "b", [("wikipedia_sentence", "A makes B.")], support=1)
    where = draw(st.sampled_from(["cause", "effect", "concept", "support", "sources", "type", "payload",
                                  "sentence", "surface"]))
    value = draw(json_values)
    cr = obj["causal_relation"]
    if where in ("cause", "effect"):
        cr[where] = value
    elif where == "concept":
        cr["cause"]["concept"] = value
    elif where in ("support", "sources"):
        obj[where] = value
    elif where in ("type", "payload"):
        obj["sources"][0][where] = value
    elif where == "sentence":
        obj["sources"][0]["payload"]["sentence"] = value
    else:
        obj["sources"][0]["payload"]["sentence"]["surface"] = value
    return obj


@pytest.mark.skipif(not HAVE_ARROW, reason="pyarrow with pyarrow.json.open_json is not installed")
@settings(max_examples=150)
@given(line=hostile_lines(), keep=st.booleans())
def test_on_hostile_fields_the_default_engine_accepts_exactly_what_the_python_reader_accepts(tmp_path_factory, line,
                                                                                            keep):
    p = write(tmp_path_factory.mktemp("cn") / "c.jsonl", [LINES[0], line])
    try:
        expect = graph_view(load_causenet(p, keep_sentences=keep, engine="python"))
    except SchemaError as exc:
        with pytest.raises(SchemaError) as got:
            load_causenet(p, keep_sentences=keep)
        assert str(got.value) == str(exc)
    else:
        assert graph_view(load_causenet(p, keep_sentences=keep)) == expect


def test_a_file_without_any_relation_is_an_error(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(SchemaError, match="no CauseNet relation in the file$"):
        load_causenet(empty)
    bad = write(tmp_path / "bad.jsonl", ["{oops"])
    with pytest.raises(SchemaError, match=r"no CauseNet relation in the file; 1 malformed line\(s\), the first: .*line 1"):
        load_causenet(bad, strict=False)


@pytest.mark.skipif(not HAVE_ARROW, reason="pyarrow with pyarrow.json.open_json is not installed")
def test_a_line_longer_than_a_block_is_read_with_larger_blocks(tmp_path, monkeypatch):
    import causalgraph.datasets.causenet as cn

    monkeypatch.setattr(cn, "_BLOCK", 1024)
    long_line = relation("a", "b", [("wikipedia_sentence", "x" * 5000)])
    g = load_causenet(write(tmp_path / "c.jsonl", [LINES[0], long_line, LINES[1]]), keep_sentences=True)
    assert g.report["engine"] == "arrow" and g.edge_sentences(1) == ["x" * 5000]


# -- the parallel bz2 reader (issue 41, item 2) ----------------------------------------------------------------------

def test_a_release_like_multi_stream_file_reads_the_same_on_several_threads_as_on_one(tmp_path, monkeypatch):
    pytest.importorskip("indexed_bzip2")
    if not HAVE_ARROW:
        pytest.skip("pyarrow with pyarrow.json.open_json is not installed")
    import indexed_bzip2

    from causalgraph.datasets.causenet_standin import write_standin

    p = tmp_path / "standin.jsonl.bz2"
    write_standin(p, 3000, stream_bytes=100_000)  # several streams, cut mid-line as pbzip2 cuts
    opened = []
    real_open = indexed_bzip2.open
    monkeypatch.setattr(indexed_bzip2, "open", lambda *a, **k: opened.append(k) or real_open(*a, **k))
    one = load_causenet(p, keep_sentences=True, threads=1)
    assert opened == []  # one thread: the single-threaded decompressor, as before
    four = load_causenet(p, keep_sentences=True, threads=4)
    assert opened == [{"parallelization": 4}]
    assert graph_view(four) == graph_view(one)
    assert graph_view(one) == graph_view(load_causenet(p, keep_sentences=True, engine="python"))
    assert one.report["relations"] == four.report["relations"] == 3000


@pytest.mark.parametrize("tail, parallel", [(b"", True), (b"\0\0\0", False), (b"BZh9 not a stream", False)])
def test_only_a_file_that_ends_at_its_last_stream_goes_to_the_parallel_reader(tmp_path, monkeypatch, tail, parallel):
    # Padding is read (and skipped) by the loader's own decompressor and a damaged stream refused by it in one
    # line; indexed_bzip2 would skip both and print a warning of its own, so it is not used for them.
    pytest.importorskip("indexed_bzip2")
    import bz2

    import indexed_bzip2

    p = tmp_path / "c.jsonl.bz2"
    body = "".join(json.dumps(x) + "\n" for x in LINES).encode()
    p.write_bytes(bz2.compress(body[:100]) + bz2.compress(body[100:]) + tail)
    opened = []
    real_open = indexed_bzip2.open
    monkeypatch.setattr(indexed_bzip2, "open", lambda *a, **k: opened.append(k) or real_open(*a, **k))
    if tail.startswith(b"BZh"):
        with pytest.raises(SchemaError, match="cannot be decompressed|ends before its end marker"):
            load_causenet(p, threads=2)
    else:
        assert graph_view(load_causenet(p, threads=2)) == graph_view(load_causenet(p, threads=1))
    assert bool(opened) == (parallel and HAVE_ARROW)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=300), min_size=1, max_size=4), st.integers(1, 9), st.binary(min_size=1, max_size=12))
def test_a_bz2_file_ends_at_a_stream_end_exactly_when_no_byte_follows_its_last_stream(tmp_path_factory, parts, level,
                                                                                     extra):
    import bz2

    from causalgraph.datasets.causenet import _ends_at_stream_end

    p = tmp_path_factory.mktemp("bz") / "x.bz2"
    whole = b"".join(bz2.compress(x, level) for x in parts)
    p.write_bytes(whole)
    assert _ends_at_stream_end(p)
    p.write_bytes(whole + extra)
    assert not _ends_at_stream_end(p)
    p.write_bytes(whole[:-1])
    assert not _ends_at_stream_end(p)


def test_threads_must_be_a_positive_integer(tmp_path):
    p = write(tmp_path / "c.jsonl", LINES)
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ConfigError, match="threads must be a positive integer"):
            load_causenet(p, threads=bad)
