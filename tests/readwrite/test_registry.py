"""Graph file formats register like encodings: export-graphs writes a registered one, --data reads it back."""

from __future__ import annotations

import networkx as nx
import pytest

from causalgraph.datasets import load_corpus
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.graph import compile_graph
from causalgraph.interop.graph_export import export_graphs
from causalgraph.model import Correlation, Corpus, Relation, Statement
from causalgraph.readwrite import (FORMATS, GRAPH_FORMATS, GraphFormat, edge_labels, format_names, get_format,
                                   graph_text, reader_for, register_format, unregister_format)


def _write_pairs(graph) -> str:
    return "".join(f"{e.cause}|{e.effect}|{edge_labels(e).get('correlation', '')}\n" for e in graph.edges)


def _read_pairs(path):
    g = nx.MultiDiGraph()
    for line in open(path, encoding="utf-8").read().splitlines():
        cause, effect, sign = line.split("|")
        g.add_edge(cause, effect, **({"correlation": sign} if sign else {}))
    return g


@pytest.fixture
def pairs_format():
    fmt = register_format(GraphFormat("pairs", ".pairs", _write_pairs, _read_pairs, description="a|b|sign lines"))
    yield fmt
    unregister_format("pairs")


def test_the_six_builtin_formats_are_records_with_a_writer_and_a_reader():
    assert format_names(plugins=False)[:6] == GRAPH_FORMATS == ("graphml", "gml", "dot", "dagitty", "json", "edgelist")
    for name in GRAPH_FORMATS:
        fmt = get_format(name)
        assert callable(fmt.write) and callable(fmt.read) and fmt.suffix.startswith(".")
    assert [n for n in GRAPH_FORMATS if get_format(n).dag] == ["dagitty"]


def test_a_registered_format_is_written_by_export_graphs_and_read_back_by_load_corpus(pairs_format, tmp_path):
    corpus = load_corpus("sample")
    res = export_graphs(corpus, tmp_path, "pairs")
    assert [p.name for p in res.files] == ["sample-001.pairs", "sample-002.pairs", "sample-003.pairs"]
    want = compile_graph(corpus["sample-001"])
    assert (tmp_path / "sample-001.pairs").read_text(encoding="utf-8") == _write_pairs(want)
    back = load_corpus(str(tmp_path / "sample-001.pairs"))
    got = compile_graph(back["sample-001"])
    # the format keeps the correlation only (not the relation type)
    assert [(e.cause, e.effect, edge_labels(e).get("correlation")) for e in got.edges] == \
        [(e.cause, e.effect, edge_labels(e).get("correlation")) for e in want.edges]
    assert "text" in back.lacks


def test_a_registered_format_never_takes_a_builtin_suffix_from_its_reader(tmp_path):
    register_format(GraphFormat("fake-gml", ".gml", lambda g: "x", lambda p: nx.DiGraph([("fake", "graph")])))
    try:
        assert reader_for(".gml") is get_format("gml").read
        f = tmp_path / "a.gml"
        nx.write_gml(nx.DiGraph([("smoking", "cancer")]), f)
        assert compile_graph(load_corpus(str(f))["a"]).pairs == [("smoking", "cancer")]
        # its writer is still asked for by its own name
        assert graph_text(compile_graph([Relation("a", "b")]), "fake-gml") == "x"
    finally:
        unregister_format("fake-gml")


@pytest.mark.parametrize("record, message", [
    (GraphFormat("Bad", ".x", str), "expected lower-case letters"),
    (GraphFormat("nosuffix", "x", str), "suffix 'x'; expected '.' and lower-case"),
    (GraphFormat("neither", ".n"), "neither a writer nor a reader"),
    (GraphFormat("notcallable", ".n", "write me"), "its writer 'write me' is not callable"),
    ("causalgraph.readwrite:NOPE", "needs name="),
    (42, "register_format takes a GraphFormat record"),
])
def test_a_record_that_cannot_be_used_is_refused_in_one_line(record, message):
    with pytest.raises(ConfigError, match=message) as err:
        register_format(record)
    assert "\n" not in str(err.value)
    assert set(format_names(plugins=False)) == set(GRAPH_FORMATS)


def test_a_taken_name_a_builtin_removal_and_an_unknown_name_are_refused(pairs_format):
    with pytest.raises(ConfigError, match="already registered"):
        register_format(GraphFormat("pairs", ".pairs", _write_pairs))
    with pytest.raises(ConfigError, match="built in"):
        unregister_format("graphml")
    with pytest.raises(ConfigError, match="unknown graph format 'pair'; .*did you mean 'pairs'"):
        get_format("pair")


def test_a_format_writer_that_gives_no_text_or_a_dag_format_given_a_cycle_is_one_line(tmp_path):
    register_format(GraphFormat("seven", ".seven", lambda g: 7))
    register_format(GraphFormat("dagonly", ".dagonly", _write_pairs, dag=True))
    try:
        with pytest.raises(ConfigError, match=r"its writer returned 7 \(int\); expected the graph as text"):
            graph_text(compile_graph([Relation("a", "b")]), "seven")
        rels = (Relation("a", "b", correlation=Correlation.POSITIVE), Relation("b", "a", correlation=Correlation.POSITIVE))
        cyclic = Corpus("cyclic", [Statement("s1", "A b. B a.", True, rels)])
        with pytest.raises(SchemaError, match="graph format 'dagonly' needs a DAG, and the graph has the cycle"):
            graph_text(compile_graph(cyclic["s1"]), "dagonly")  # the mechanism, whoever calls it
        with pytest.raises(SchemaError, match="statement s1: graph format 'dagonly' needs a DAG, and the graph has "
                                              "the cycle 'a' -> 'b' -> 'a'"):
            export_graphs(cyclic, tmp_path / "d", "dagonly")
        assert not (tmp_path / "d").exists()  # refused before the folder is made
    finally:
        unregister_format("seven")
        unregister_format("dagonly")


def test_the_registry_is_the_one_registry_kind_with_the_formats_entry_point_group():
    assert FORMATS.group == "causalgraph.formats" and FORMATS.kind == "graph format"
