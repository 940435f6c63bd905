"""Graph encodings (exact strings by hand) and decoding round trips with hostile events."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET

import pytest

from causalgraph import compile_graph
from causalgraph.encodings import decode, encode, ordered_edges
from causalgraph.errors import ConfigError, ParseError
from causalgraph.model import Correlation, Relation, Statement

P, N = Correlation.POSITIVE, Correlation.NEGATIVE
NS = "{http://graphml.graphdrawing.org/xmlns}"

HOSTILE = [
    "costs, risks",                       # comma: the adjacency separator
    "policy causes change",               # the single-node verb
    'so-called "green" jobs',             # double quotes
    "farmers' income",                    # apostrophe
    "CO2 < 350 ppm",                      # XML special
    "R&D spending",                       # XML special
    "sea level (global mean). rise",      # brackets and a period
]


@pytest.fixture
def small():
    return compile_graph([Relation("a", "b", correlation=P), Relation("b", "c", correlation=N),
                          Relation("a", "c", correlation=P)])


@pytest.fixture
def hostile():
    h = HOSTILE
    rels = [Relation(h[0], h[1], correlation=P), Relation(h[1], h[2], correlation=N),
            Relation(h[2], h[3], correlation=P), Relation(h[3], h[4], correlation=N),
            Relation(h[4], h[5], correlation=P), Relation(h[5], h[6], correlation=P),
            Relation(h[0], h[6], correlation=N), Relation(h[0], h[6], correlation=P)]  # conflicting pair
    return compile_graph(rels)


def test_encode_adjacency_lists_edges_node_by_node_by_default(small):
    # paper order: a's effects (b, then c), then b's
    assert encode(small, "adjacency") == "(a, b) (a, c) (b, c)"
    assert encode(small, "adjacency", order="data") == "(a, b) (b, c) (a, c)"


def test_encode_single_node_is_one_sentence_per_edge(small):
    assert encode(small, "single-node") == "a causes b. a causes c. b causes c."
    assert encode(small, "single-node", order="data") == "a causes b. b causes c. a causes c."


@pytest.fixture
def reordered():
    """A statement whose edge orders differ: 'drought' is seen first as an effect, then as a cause,
    and 'heat' gains a second effect after it."""
    return compile_graph(Statement("t-9", "Heat causes drought, which lowers yields; fires follow heat; "
                                          "drought also raises prices.", True,
                                   (Relation("heat", "drought", correlation=P),
                                    Relation("drought", "yields", correlation=N),
                                    Relation("heat", "fires", correlation=P),
                                    Relation("drought", "prices", correlation=P))))


def test_encodings_list_edges_in_the_authors_networkx_order_by_default(reordered):
    # Written by hand: networkx iterates heat's effects (drought, fires), then drought's (yields, prices).
    assert encode(reordered, "adjacency") == "(heat, drought) (heat, fires) (drought, yields) (drought, prices)"
    assert encode(reordered, "single-node") == (
        "heat causes drought. heat causes fires. drought causes yields. drought causes prices.")
    assert encode(reordered, "adjacency", signs=True) == (
        "(heat, drought, positive) (heat, fires, positive) (drought, yields, negative) (drought, prices, positive)")
    assert encode(reordered, "single-node", signs=True) == (
        "heat causes drought (positive correlation). heat causes fires (positive correlation). "
        "drought causes yields (negative correlation). drought causes prices (positive correlation).")
    assert encode(reordered, "multinode") == "heat causes drought, fires. drought causes yields, prices."
    assert encode(reordered, "json") == (
        '{"heat": {"causes": ["drought", "fires"]}, "drought": {"causes": ["yields", "prices"]}, '
        '"yields": {"causes": []}, "fires": {"causes": []}, "prices": {"causes": []}}')
    edges = [(e.get("source"), e.get("target"))
             for e in ET.fromstring(encode(reordered, "graphml")).iter(f"{NS}edge")]
    assert edges == [("heat", "drought"), ("heat", "fires"), ("drought", "yields"), ("drought", "prices")]


def test_data_order_keeps_the_order_pairs_first_appear(reordered):
    assert encode(reordered, "adjacency", order="data") == (
        "(heat, drought) (drought, yields) (heat, fires) (drought, prices)")
    assert encode(reordered, "single-node", order="data") == (
        "heat causes drought. drought causes yields. heat causes fires. drought causes prices.")
    # multinode and json group by cause either way; data order groups causes as they first cause something
    assert encode(reordered, "multinode", order="data") == "heat causes drought, fires. drought causes yields, prices."
    edges = [(e.get("source"), e.get("target"))
             for e in ET.fromstring(encode(reordered, "graphml", order="data")).iter(f"{NS}edge")]
    assert edges == [("heat", "drought"), ("drought", "yields"), ("heat", "fires"), ("drought", "prices")]
    assert ordered_edges(reordered, "data") == reordered.pairs


def test_multinode_groups_differ_between_orders_when_a_cause_first_appears_as_an_effect():
    pairs = [("a", "b"), ("c", "a"), ("b", "d")]
    # node order a, b, c, d: paper lists b's group before c's; data order meets c -> a first
    assert encode(pairs, "multinode") == "a causes b. b causes d. c causes a."
    assert encode(pairs, "multinode", order="data") == "a causes b. c causes a. b causes d."


def test_unknown_order_is_refused(small):
    with pytest.raises(ConfigError, match="unknown edge order 'sorted'; expected one of paper, data"):
        encode(small, order="sorted")


def test_encode_multinode_groups_effects_per_cause(small):
    assert encode(small, "multinode") == "a causes b, c. b causes c."


def test_encode_json_lists_effects_of_every_event(small):
    assert json.loads(encode(small, "json")) == {"a": {"causes": ["b", "c"]}, "b": {"causes": ["c"]},
                                                 "c": {"causes": []}}
    assert list(json.loads(encode(small, "json"))) == ["a", "b", "c"]


def test_encode_with_signs(small):
    assert encode(small, "adjacency", signs=True) == "(a, b, positive) (a, c, positive) (b, c, negative)"
    assert encode(small, "single-node", signs=True) == (
        "a causes b (positive correlation). a causes c (positive correlation). b causes c (negative correlation).")
    assert encode(small, "multinode", signs=True) == (
        "a causes b (positive correlation), c (positive correlation). b causes c (negative correlation).")
    assert json.loads(encode(small, "json", signs=True))["a"] == {"causes": ["b", "c"],
                                                                  "correlations": ["positive", "positive"]}


def test_encode_graphml_is_networkx_writer_output(small):
    text = encode(small, "graphml")
    assert text.startswith("<?xml version='1.0' encoding='utf-8'?>\n<graphml")
    root = ET.fromstring(text)
    graph = root.find(f"{NS}graph")
    assert graph.get("edgedefault") == "directed"
    assert [n.get("id") for n in graph.findall(f"{NS}node")] == ["a", "b", "c"]
    assert sorted((e.get("source"), e.get("target")) for e in graph.findall(f"{NS}edge")) == [
        ("a", "b"), ("a", "c"), ("b", "c")]


def test_encode_graphml_escapes_xml(hostile):
    text = encode(hostile, "graphml")
    assert 'id="CO2 &lt; 350 ppm"' in text and 'id="R&amp;D spending"' in text
    assert 'id="so-called &quot;green&quot; jobs"' in text
    ids = [n.get("id") for n in ET.fromstring(text).iter(f"{NS}node")]
    assert ids == HOSTILE


def test_encode_marks_conflicting_pairs(hostile):
    assert encode(hostile, "adjacency", signs=True, order="data").endswith(
        f"({HOSTILE[0]}, {HOSTILE[6]}, conflicting)")
    assert f"({HOSTILE[0]}, {HOSTILE[6]}, conflicting)" in encode(hostile, "adjacency", signs=True)


def test_encode_unknown_encoding_raises(small):
    with pytest.raises(ConfigError, match="unknown encoding 'tikz'"):
        encode(small, "tikz")


@pytest.mark.parametrize("encoding", ["adjacency", "single-node", "graphml"])
@pytest.mark.parametrize("signs", [False, True])
def test_decode_keeps_the_text_edge_order_so_data_order_reencodes_the_text(small, encoding, signs):
    text = encode(small, encoding, signs=signs)
    back = decode(text, encoding, signs=signs)
    assert back.pairs == [("a", "b"), ("a", "c"), ("b", "c")]
    assert encode(back, encoding, signs=signs, order="data") == text
    if signs:
        assert [back.edge(c, e).correlation for c, e in small.pairs] == [P, N, P]


@pytest.mark.parametrize("encoding", ["adjacency", "single-node", "graphml"])
@pytest.mark.parametrize("signs", [False, True])
def test_decode_of_data_order_text_rebuilds_the_same_graph(small, encoding, signs):
    back = decode(encode(small, encoding, signs=signs, order="data"), encoding, signs=signs)
    assert back.pairs == small.pairs and back.nodes == small.nodes
    for order in ("paper", "data"):
        assert encode(back, encoding, signs=signs, order=order) == encode(small, encoding, signs=signs, order=order)


@pytest.mark.parametrize("encoding", ["adjacency", "single-node", "graphml"])
@pytest.mark.parametrize("signs", [False, True])
@pytest.mark.parametrize("order", ["paper", "data"])
def test_decode_round_trip_hostile_events_with_known_nodes(hostile, encoding, signs, order):
    text = encode(hostile, encoding, signs=signs, order=order)
    back = decode(text, encoding, signs=signs, nodes=hostile.nodes)
    assert back.pairs == ordered_edges(hostile, order)
    assert encode(back, encoding, signs=signs, order="data") == text
    if order == "data":
        assert back.nodes == hostile.nodes
    if signs:
        assert back.edge(HOSTILE[0], HOSTILE[6]).conflicting


def test_decode_graphml_needs_no_nodes(hostile):
    back = decode(encode(hostile, "graphml"), "graphml")
    assert back.nodes == hostile.nodes and sorted(back.pairs) == sorted(hostile.pairs)


def test_decode_ambiguous_adjacency_without_nodes_raises():
    # "(a, b, c)" is a -> "b, c" or "a, b" -> c
    with pytest.raises(ParseError, match="can be read in 2 ways"):
        decode("(a, b, c)", "adjacency")
    assert decode("(a, b, c)", "adjacency", nodes=["a, b", "c"]).pairs == [("a, b", "c")]


def test_decode_prefers_parse_with_most_edges():
    # one edge "a" -> "b) (c, d" is possible but two edges explain the text better
    assert decode("(a, b) (c, d)", "adjacency").pairs == [("a", "b"), ("c", "d")]


def test_decode_single_node_with_causes_inside_event_needs_nodes():
    text = "policy causes change causes harm."
    with pytest.raises(ParseError, match="2 ways"):
        decode(text, "single-node")
    assert decode(text, "single-node", nodes=["policy causes change", "harm"]).pairs == [
        ("policy causes change", "harm")]


def test_decode_garbage_raises_with_found_and_expected():
    with pytest.raises(ParseError, match=r"found 'a -> b', expected '\(cause, effect\)' groups"):
        decode("a -> b", "adjacency")
    with pytest.raises(ParseError, match="not valid GraphML"):
        decode("<graphml><oops", "graphml")
    with pytest.raises(ConfigError, match="cannot decode encoding 'json'"):
        decode("{}", "json")


def test_decode_undirected_graphml_raises():
    text = ('<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
            '<graph edgedefault="undirected"><node id="a"/><node id="b"/><edge source="a" target="b"/>'
            '</graph></graphml>')
    with pytest.raises(ParseError, match="undirected"):
        decode(text, "graphml")


def test_decode_round_trip_every_corpus_graph(climatecause):
    for st in climatecause.statements:
        if not st.causal:
            continue
        g = compile_graph(st)
        for encoding in ("adjacency", "single-node", "graphml"):
            for order in ("paper", "data"):
                text = encode(g, encoding, signs=True, order=order)
                back = decode(text, encoding, signs=True, nodes=g.nodes)
                assert back.pairs == ordered_edges(g, order), (st.id, encoding, order)
                assert encode(back, encoding, signs=True, order="data") == text, (st.id, encoding, order)


def _networkx_graphs_from_spreadsheet(path):
    """Each causal statement's DiGraph as the ClimateCause authors built it, straight from the rows:
    ``add_edge(Cause_no_quantifier, Effect_no_quantifier)`` for every row of the statement, in sheet order.
    Read with pandas, not through causalgraph's loader or graph code."""
    import networkx as nx
    import pandas as pd

    df = pd.read_excel(path)
    df = df[df["Causal?"].astype(str).str.strip() == "Yes"]
    graphs: dict[str, nx.DiGraph] = {}
    for _, row in df.iterrows():
        g = graphs.setdefault(row["ipccText"], nx.DiGraph())
        g.add_edge(row["Cause_no_quantifier"], row["Effect_no_quantifier"])
    return graphs


def test_encodings_of_all_63_causal_statements_equal_networkx_built_from_the_spreadsheet(climatecause,
                                                                                         climatecause_path):
    import io

    import networkx as nx

    reference = _networkx_graphs_from_spreadsheet(climatecause_path)
    causal = [st for st in climatecause.statements if st.causal and st.relations]
    assert len(reference) == len(causal) == 63
    differs_from_data_order = 0
    for st, (text, g) in zip(causal, reference.items()):
        assert st.text == text.strip()
        ours = compile_graph(st)
        assert encode(ours, "adjacency") == " ".join(f"({u}, {v})" for u, v in g.edges()), st.id
        assert encode(ours, "single-node") == " ".join(f"{u} causes {v}." for u, v in g.edges()), st.id
        buf = io.BytesIO()
        nx.write_graphml_xml(g, buf)
        assert encode(ours, "graphml") == buf.getvalue().decode("utf-8"), st.id
        assert list(ours.nodes) == list(g.nodes()), st.id
        differs_from_data_order += encode(ours, "adjacency", order="data") != encode(ours, "adjacency")
    # the authors' order and data order disagree for 16 of the 63 statements (issue #12)
    assert differs_from_data_order == 16


def test_decode_with_nodes_refuses_a_text_with_a_second_reading_of_more_edges():
    # The event "a) (b, c" makes "(p, a) (b, c)" one edge; read as two edges between the same
    # nodes it gives a four-edge graph, which the decoder once returned because it had more edges.
    g = compile_graph([Relation("p", "a) (b, c"), Relation("a", "c"), Relation("b", "p")])
    text = encode(g, "adjacency", order="data")
    assert text == "(p, a) (b, c) (a, c) (b, p)"
    with pytest.raises(ParseError, match=r"can be read in 2 ways between the given nodes .* GraphML"):
        decode(text, "adjacency", nodes=g.nodes)
    # without the event that holds the separators the text has one reading between the nodes
    assert decode(text, "adjacency", nodes=["p", "a", "b", "c"]).pairs == [
        ("p", "a"), ("b", "c"), ("a", "c"), ("b", "p")]


def test_decode_gives_the_order_of_magnitude_of_a_count_python_cannot_print():
    # each "(a, b, c, d)" reads three ways, so 1,400 of them read 3**1400 (668 digits) ways; with
    # Python's limit lowered to 640 digits printing the count raised ValueError before
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        with pytest.raises(ParseError, match=r"can be read in about 9\.33e667 ways .* pass nodes="):
            decode(" ".join(["(a, b, c, d)"] * 1400), "adjacency")
    finally:
        sys.set_int_max_str_digits(limit)
    with pytest.raises(ParseError, match=r"can be read in 19683 ways"):
        decode(" ".join(["(a, b, c, d)"] * 9), "adjacency")


@pytest.mark.parametrize("char", ["\x00", "\x08", "\ud800", "\ufffe"])
def test_graphml_refuses_an_event_xml_cannot_hold_naming_it(char):
    with pytest.raises(ConfigError, match=rf"event 'a{re.escape(repr(char)[1:-1])}b' holds .* \(U\+{ord(char):04X}\), "
                                          r"a character XML cannot hold, so it has no GraphML encoding"):
        encode([(f"a{char}b", "c")], "graphml")
    # the text encodings have no such limit
    assert encode([(f"a{char}b", "c")]) == f"(a{char}b, c)"


@pytest.mark.parametrize("pair", [("a", " "), ("", "b"), ("a", "\u200b"), ("a", None)])
def test_encode_refuses_a_blank_event_given_as_a_pair(pair):
    # a CausalGraph cannot hold one (compile_graph refuses it); plain pairs are checked the same way
    with pytest.raises(ConfigError, match=r"edge 1 .*: found .*; expected an event name"):
        encode([pair])
