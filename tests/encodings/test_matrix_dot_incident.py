"""The matrix, DOT and incident encodings: worked examples, round trips, and DOT read by Graphviz itself.

DOT text is checked against the reference reader, Graphviz's own ``dot -Tjson`` (installed by
scripts/install-test-deps.sh): every event it reads back must be the event written, and an event is
refused exactly when no quoted string can hold it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph import compile_graph
from causalgraph.encodings import DECODABLE, ENCODINGS, decode, encode, ordered_edges, prompt_graph
from causalgraph.errors import ConfigError, ParseError
from causalgraph.model import Correlation, Relation, is_blank

P, N = Correlation.POSITIVE, Correlation.NEGATIVE

# Pieces that collide with the three formats' own marks: quotes, backslashes, line ends, DOT keywords and
# operators, legend numbering, JSON escapes, the incident words.
TRICKY = ['"', "\\", "\\\\", "\n", "\r", "\r\n", "graph", "node", "digraph", "-1.5", "->", "--", "{", "}", ";",
          "[", "]", "=", "//", "/*", "*/", "#", "<", ">", ", ", "1. ", "2. ", "Events:", "\\n", "\\u0041",
          " causes ", "causes nothing.", "Event ", "(positive)", "é", "\u2028", "\x85", "\t", " ", "a", "b"]
names = st.lists(st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=())), min_size=1,
                 max_size=5).map("".join).filter(lambda s: not is_blank(s))


@st.composite
def graphs(draw, event=names, max_edges=6):
    pool = draw(st.lists(event, min_size=1, max_size=5, unique=True))
    rels = draw(st.lists(st.builds(Relation, st.sampled_from(pool), st.sampled_from(pool),
                                   correlation=st.sampled_from([None, P, N])), min_size=1, max_size=max_edges))
    return compile_graph(rels)


def _signed(g):
    def sign(e):
        if e.correlation is not None:
            return e.correlation.value
        return "conflicting" if e.conflicting_correlation else "unknown"
    return {(e.cause, e.effect): sign(e) for e in g.edges}


@pytest.fixture
def small():
    return compile_graph([Relation("rain", "floods", correlation=P), Relation("heat, drought", "rain", correlation=N),
                          Relation("rain", "crops")])


# -- worked examples, written by hand ------------------------------------------------------------------

def test_matrix_lists_a_numbered_legend_then_rows_that_cause_columns(small):
    assert encode(small, "matrix") == (
        "Events:\n1. rain\n2. floods\n3. heat, drought\n4. crops\n"
        "Adjacency matrix (row event causes column event; 1 = yes, 0 = no):\n"
        "  1 2 3 4\n1 0 1 0 1\n2 0 0 0 0\n3 1 0 0 0\n4 0 0 0 0")


def test_matrix_with_signs_marks_each_cell_with_its_correlation(small):
    rows = encode(small, "matrix", signs=True).split("\n")[-4:]
    assert rows == ["1 0 + 0 ?", "2 0 0 0 0", "3 - 0 0 0", "4 0 0 0 0"]


def test_matrix_pads_numbers_to_the_widest_one():
    g = compile_graph([Relation(f"e{i}", f"e{i + 1}") for i in range(10)])
    lines = encode(g, "matrix").split("\n")
    assert lines[13] == "    1  2  3  4  5  6  7  8  9 10 11"
    assert lines[14] == " 1  0  1  0  0  0  0  0  0  0  0  0"
    assert lines[-1] == "11  0  0  0  0  0  0  0  0  0  0  0"


def test_matrix_writes_an_event_with_a_line_end_as_a_json_string():
    g = compile_graph([Relation("a\nb", '"q"')])
    assert encode(g, "matrix").split("\n")[1:3] == ['1. "a\\nb"', '2. "\\"q\\""']
    assert decode(encode(g, "matrix"), "matrix").pairs == [("a\nb", '"q"')]


def test_dot_quotes_every_event_and_escapes_its_quotes(small):
    g = compile_graph([Relation("graph", 'say "no"'), Relation("node", "graph")])
    assert encode(g, "dot") == ('digraph {\n  "graph";\n  "say \\"no\\"";\n  "node";\n'
                                '  "graph" -> "say \\"no\\"";\n  "node" -> "graph";\n}')
    assert encode(small, "dot", signs=True).split("\n")[5] == '  "rain" -> "floods" [correlation="positive"];'


def test_incident_gives_every_event_a_line_in_node_order(small):
    assert encode(small, "incident") == (
        'In this causal graph:\nEvent "rain" causes "floods", "crops".\nEvent "floods" causes nothing.\n'
        'Event "heat, drought" causes "rain".\nEvent "crops" causes nothing.')
    assert 'Event "rain" causes "floods" (positive), "crops" (unknown).' in encode(small, "incident", signs=True)


def test_incident_lists_each_events_effects_in_data_order_under_both_orders():
    g = compile_graph([Relation("a", "b"), Relation("c", "a"), Relation("a", "d"), Relation("c", "b")])
    assert encode(g, "incident", order="data") == encode(g, "incident", order="paper")
    assert encode(g, "incident", order="data").split("\n")[1:4] == [
        'Event "a" causes "b", "d".', 'Event "b" causes nothing.', 'Event "c" causes "a", "b".']


@pytest.mark.parametrize("encoding", ["matrix", "dot", "incident"])
def test_an_empty_graph_encodes_and_decodes(encoding):
    assert decode(encode([], encoding), encoding).nodes == ()


def test_prompt_graph_keeps_the_papers_punctuation_and_sets_the_others_on_their_own_lines(small):
    assert prompt_graph(small, "adjacency") == encode(small, "adjacency") + "."
    assert prompt_graph(small, "single-node") == encode(small, "single-node")
    assert prompt_graph(small, "graphml").endswith("</graphml>\n.")
    for enc in ("matrix", "dot", "incident", "json", "multinode"):
        assert prompt_graph(small, enc) == "\n" + encode(small, enc) + "\n"


def test_every_encoding_is_registered_and_the_new_ones_decode():
    assert ENCODINGS[-3:] == ("matrix", "dot", "incident")
    assert set(DECODABLE) == {"adjacency", "single-node", "graphml", "matrix", "dot", "incident"}


# -- round trips ------------------------------------------------------------------------------------------

@settings(max_examples=300)
@given(graphs(), st.booleans(), st.sampled_from(["paper", "data"]))
def test_matrix_and_incident_decode_back_to_the_same_graph_whatever_the_events_hold(g, signs, order):
    for enc in ("matrix", "incident"):
        back = decode(encode(g, enc, signs=signs, order=order), enc, signs=signs)
        assert back.nodes == g.nodes
        if signs:
            assert _signed(back) == _signed(g)
        else:
            assert set(back.pairs) == set(g.pairs)
    # incident lines follow node order, each cause's effects in data order: the paper's edge order
    # whichever order is asked (as json's); the matrix reads rows in node order
    assert decode(encode(g, "incident", order=order), "incident").pairs == ordered_edges(g, "paper")


def _dot_encodable(event: str) -> bool:
    """Written from Graphviz's scanner: a quoted string turns \\" into a quote, keeps \\\\ as two characters
    and drops a backslash before a line feed, so an odd run of backslashes just before a quote, a line
    feed or the end of the event cannot be produced; NUL ends a C string; UTF-8 has no lone surrogates."""
    if "\x00" in event or any(0xD800 <= ord(c) <= 0xDFFF for c in event):
        return False
    for m in re.finditer(r"\\+", event):
        after = event[m.end():m.end() + 1]
        if len(m.group()) % 2 == 1 and after in ('"', "\n", ""):
            return False
    return True


@settings(max_examples=300)
@given(graphs(), st.booleans(), st.sampled_from(["paper", "data"]))
def test_dot_decodes_back_or_is_refused_exactly_when_an_event_has_no_quoted_string(g, signs, order):
    if all(_dot_encodable(n) for n in g.nodes):
        back = decode(encode(g, "dot", signs=signs, order=order), "dot", signs=signs)
        assert back.nodes == g.nodes and back.pairs == ordered_edges(g, order)
        if signs:
            assert _signed(back) == _signed(g)
    else:
        with pytest.raises(ConfigError, match="no DOT encoding"):
            encode(g, "dot", signs=signs, order=order)


def _graphviz_read(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    out = subprocess.run(["dot", "-Tjson"], input=text.encode("utf-8"), capture_output=True, timeout=30)
    assert out.returncode == 0, out.stderr.decode("utf-8", "replace")
    # Graphviz writes control characters into its JSON as they are, so read it leniently.
    doc = json.loads(out.stdout.decode("utf-8"), strict=False)
    names = [o["name"] for o in doc.get("objects", [])]
    return names, [(names[e["tail"]], names[e["head"]]) for e in doc.get("edges", [])]


needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (scripts/install-test-deps.sh installs it)")


@needs_dot
@settings(max_examples=120, deadline=None)
@given(graphs(max_edges=4))
def test_graphviz_reads_every_event_and_edge_of_the_dot_text_as_written(g):
    # Graphviz's library (not its grammar) takes a name starting with % for one of its anonymous nodes
    # ("%5"), whatever follows; such events are valid DOT and decode exactly here, but not there.
    if not all(_dot_encodable(n) and not n.startswith("%") for n in g.nodes):
        return
    text = encode(g, "dot", signs=True)
    names, edges = _graphviz_read(text)
    assert names == list(g.nodes)
    # Graphviz lists edges in an order of its own (self-loops first); each edge once, as written
    assert sorted(edges) == sorted(g.pairs) and len(edges) == len(g.pairs)


@needs_dot
def test_graphviz_renames_an_event_starting_with_percent_which_the_docs_note():
    names, _ = _graphviz_read(encode([("%x", "a%b")], "dot"))
    assert names[1] == "a%b" and names[0] != "%x"
    assert decode(encode([("%x", "a%b")], "dot"), "dot").pairs == [("%x", "a%b")]


@needs_dot
def test_graphviz_reads_keywords_numerals_operators_and_unicode_as_plain_events():
    odd = ["graph", "Node", "-1.5", "a -> b", "x; y", "[z]", "// not a comment", "é ü 😀", "say \"hi\"",
           "back\\slash", "two\\\\", "line\nbreak", "cr\rlf\r\n", "tab\t", "#hash"]
    g = compile_graph([Relation(a, b) for a, b in zip(odd, odd[1:])])
    names, edges = _graphviz_read(encode(g, "dot"))
    assert names == odd and sorted(edges) == sorted(zip(odd, odd[1:]))


@pytest.mark.parametrize("event", ["ends\\", 'quote\\"d', "feed\\\nx", "three\\\\\\", "nul\x00"])
def test_dot_refuses_an_event_no_quoted_string_can_hold_naming_it(event):
    with pytest.raises(ConfigError, match="no DOT encoding") as err:
        encode([(event, "b")], "dot")
    assert repr(event) in str(err.value)


def test_graphml_decoder_refuses_a_node_without_edges_too():
    text = ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed"><node id="a"/>'
            '<node id="b"/><node id="c"/><edge source="a" target="b"/></graph></graphml>')
    with pytest.raises(ParseError, match=r"GraphML nodes \['c'\] have no causal edge"):
        decode(text, "graphml")


def test_dot_decoder_reads_dot_written_by_hand():
    text = ('strict digraph G {\n  rankdir=LR; // a comment\n  node [shape=box];\n  /* block */ a -> "b c" -> d'
            ' [correlation=negative, color=red]\n  "x" + "y" -> a;\n}')
    g = decode(text, "dot", signs=True)
    assert g.pairs == [("a", "b c"), ("b c", "d"), ("xy", "a")]
    assert [e.correlation for e in g.edges] == [N, N, None]


@pytest.mark.parametrize("text, message", [
    ("graph { a -- b }", "undirected"),
    ("digraph { a -- b }", "undirected edge"),
    ("digraph { subgraph s { a -> b } }", "subgraph"),
    ('digraph { "a -> b }', "never closed"),
    ("digraph { a -> b ", "closing"),
    ("digraph { a -> b } c", "continues after"),
])
def test_dot_decoder_refuses_what_it_does_not_read(text, message):
    with pytest.raises(ParseError, match=message):
        decode(text, "dot")


@pytest.mark.parametrize("text, message", [
    ("Event: a", "line 1"),
    ("Events:\n1. a\n3. b\nAdjacency matrix (x):\n  1\n1 0", r"line 3: found '3\. b'"),
    ("Events:\n1. a\n2. b\nAdjacency matrix (x):\n  1 2\n1 0 1\n2 0 2", r"row 2, column 2: found '2'"),
    ("Events:\n1. a\n2. b\nAdjacency matrix (x):\n  1 2\n1 0 1", "1 rows .* expected 2"),
    ("Events:\n1. a\n2. b\n3. c\nAdjacency matrix (x):\n  1 2 3\n1 0 1 0\n2 0 0 0\n3 0 0 0", "no causal edge"),
])
def test_matrix_decoder_names_the_line_it_cannot_read(text, message):
    with pytest.raises(ParseError, match=message):
        decode(text, "matrix")


@pytest.mark.parametrize("text, message", [
    ("In this graph:", "line 1"),
    ('In this causal graph:\nEvent a causes "b".', "line 2: expected a quoted event"),
    ('In this causal graph:\nEvent "a" leads to "b".', "line 2: found ' leads to"),
    ('In this causal graph:\nEvent "a" causes "b"; "c".', "after an effect"),
])
def test_incident_decoder_names_the_line_it_cannot_read(text, message):
    with pytest.raises(ParseError, match=message):
        decode(text, "incident")


# -- every ClimateCause graph, against networkx -------------------------------------------------------------

def test_every_climatecause_graph_round_trips_and_its_matrix_is_networkx_adjacency(climatecause):
    n = 0
    for s in climatecause:
        if not (s.causal and s.relations):
            continue
        g = compile_graph(s)
        ref = g.to_networkx()
        rows = encode(g, "matrix").split("\n")[-len(g.nodes):]
        cells = [[int(c) for c in row.split()[1:]] for row in rows]
        assert cells == nx.to_numpy_array(ref, nodelist=list(g.nodes), dtype=int).tolist()
        for enc in ("matrix", "dot", "incident"):
            back = decode(encode(g, enc, signs=True), enc, signs=True)
            assert back.nodes == g.nodes and _signed(back) == _signed(g), (s.id, enc)
        n += 1
    assert n == 63
