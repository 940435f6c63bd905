"""Graph encodings (exact strings by hand) and decoding round trips with hostile events."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from causalgraph import compile_graph
from causalgraph.encoders import decode, encode
from causalgraph.errors import ConfigError, ParseError
from causalgraph.model import Correlation, Relation

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


def test_encode_adjacency_lists_edges_in_data_order(small):
    assert encode(small, "adjacency") == "(a, b) (b, c) (a, c)"


def test_encode_single_node_is_one_sentence_per_edge(small):
    assert encode(small, "single-node") == "a causes b. b causes c. a causes c."


def test_encode_multinode_groups_effects_per_cause(small):
    assert encode(small, "multinode") == "a causes b, c. b causes c."


def test_encode_json_lists_effects_of_every_event(small):
    assert json.loads(encode(small, "json")) == {"a": {"causes": ["b", "c"]}, "b": {"causes": ["c"]},
                                                 "c": {"causes": []}}
    assert list(json.loads(encode(small, "json"))) == ["a", "b", "c"]


def test_encode_with_signs(small):
    assert encode(small, "adjacency", signs=True) == "(a, b, positive) (b, c, negative) (a, c, positive)"
    assert encode(small, "single-node", signs=True) == (
        "a causes b (positive correlation). b causes c (negative correlation). a causes c (positive correlation).")
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
    assert encode(hostile, "adjacency", signs=True).endswith(f"({HOSTILE[0]}, {HOSTILE[6]}, conflicting)")


def test_encode_unknown_encoding_raises(small):
    with pytest.raises(ConfigError, match="unknown encoding 'dot'"):
        encode(small, "dot")


@pytest.mark.parametrize("encoding", ["adjacency", "single-node", "graphml"])
@pytest.mark.parametrize("signs", [False, True])
def test_decode_round_trip_simple(small, encoding, signs):
    text = encode(small, encoding, signs=signs)
    back = decode(text, encoding, signs=signs)
    assert sorted(back.pairs) == sorted(small.pairs)
    assert encode(back, encoding, signs=signs) == text
    if signs:
        assert [back.edge(c, e).correlation for c, e in small.pairs] == [P, N, P]


@pytest.mark.parametrize("encoding", ["adjacency", "single-node", "graphml"])
@pytest.mark.parametrize("signs", [False, True])
def test_decode_round_trip_hostile_events_with_known_nodes(hostile, encoding, signs):
    text = encode(hostile, encoding, signs=signs)
    back = decode(text, encoding, signs=signs, nodes=hostile.nodes)
    assert sorted(back.pairs) == sorted(hostile.pairs)
    assert back.nodes == hostile.nodes
    assert encode(back, encoding, signs=signs) == text
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
            text = encode(g, encoding, signs=True)
            back = decode(text, encoding, signs=True, nodes=g.nodes)
            assert sorted(back.pairs) == sorted(g.pairs), (st.id, encoding)
            assert encode(back, encoding, signs=True) == text, (st.id, encoding)
