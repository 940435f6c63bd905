"""Properties of the encoders and the decoder, on graphs whose events are arbitrary text.

The decoder is checked against a brute-force enumeration of every reading of short texts, every
encoding of any graph either decodes back (given its events) or is refused, and GraphML always
parses with networkx or is refused naming the character XML cannot hold.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph import compile_graph
from causalgraph.encodings import decode, encode, ordered_edges
from causalgraph.errors import ConfigError, ParseError
from causalgraph.model import Correlation, Relation, is_blank

SIGN_WORDS = ("positive", "negative", "conflicting", "unknown")
FORMS = {"adjacency": ("(", ", ", ")"), "single-node": ("", " causes ", ".")}

# Pieces that hold the marks of both text forms, so that events and texts built from them collide
# with the separators as often as possible.
MARKS = ["(", ")", ", ", ",", " ", ".", ". ", " causes ", "causes", ") (", ", positive", ", unknown",
         " (negative correlation)", " (conflicting correlation)"]
LETTERS = ["a", "b", "x y"]

# What XML escapes or normalises (attribute line ends and tabs, markup), and what it cannot hold at
# all (C0 controls, lone surrogates, U+FFFE).
XML_TRICKY = ["\r", "\n", "\r\n", "\t", "&", "<", ">", '"', "'", "&amp;", "\x00", "\x07", "\x1f", "\ud800",
              "\ufffe", "\x85", "\u2028"]

# Any character, surrogates and controls included, or a mark; events are never blank (blank events
# are refused when a graph is compiled).
events = st.lists(st.one_of(st.sampled_from(MARKS + LETTERS + XML_TRICKY), st.characters(exclude_categories=())),
                  min_size=1, max_size=6).map("".join).filter(lambda s: not is_blank(s))
correlations = st.sampled_from([None, Correlation.POSITIVE, Correlation.NEGATIVE])


@st.composite
def graphs(draw, event=events, max_edges=6):
    """A compiled graph of a few relations between a few events (duplicate pairs and conflicting
    signs included, as annotators write them)."""
    pool = draw(st.lists(event, min_size=1, max_size=5, unique=True))
    rels = draw(st.lists(st.builds(Relation, st.sampled_from(pool), st.sampled_from(pool),
                                   correlation=correlations), min_size=1, max_size=max_edges))
    return compile_graph(rels)


# -- a reference decoder: every reading, enumerated --------------------------------------------

def readings(text: str, fmt: str, signs: bool, nodes) -> list[tuple]:
    """Every way to read ``text`` as edges, written from the format's definition: an edge is prefix,
    cause, separator, effect, (sign tail,) closing mark; edges are joined by single spaces and a
    trailing space is tolerated.  Exponential; for short texts only."""
    prefix, sep, close = FORMS[fmt]
    tails = ([(w, f", {w}" if fmt == "adjacency" else f" ({w} correlation)") for w in SIGN_WORDS]
             if signs else [("unknown", "")])
    ok = (lambda e: bool(e)) if nodes is None else (lambda e: bool(e) and e in nodes)
    n = len(text)

    @lru_cache(maxsize=None)
    def rest(i: int) -> tuple:
        if i == n:
            return ((),)
        if not text.startswith(prefix, i):
            return ()
        s = i + len(prefix)
        out = []
        for k in range(s, n):
            if not text.startswith(sep, k) or not ok(text[s:k]):
                continue
            for m in range(k + len(sep), n):
                after = m + len(close)
                if not text.startswith(close, m) or (after < n and text[after] != " "):
                    continue
                for word, tail in tails:
                    body = text[k + len(sep):m]
                    if body.endswith(tail) and ok(body[:len(body) - len(tail)]):
                        edge = (text[s:k], body[:len(body) - len(tail)], word)
                        out.extend((edge,) + more for more in rest(after + 1 if after < n else n))
        return tuple(out)

    return list(rest(0))


piece_texts = st.lists(st.sampled_from(MARKS + LETTERS), max_size=9).map("".join)


small_events = st.lists(st.sampled_from(MARKS + LETTERS), min_size=1, max_size=3).map("".join).filter(
    lambda s: not is_blank(s))


def _cuts(sources: list[str]):
    """Substrings of the given strings."""
    return st.sampled_from(sources).flatmap(
        lambda src: st.tuples(st.integers(0, len(src)), st.integers(0, len(src))).map(
            lambda ij: src[min(ij):max(ij)]))


@st.composite
def short_texts(draw):
    """Texts of marks and letters, most of them the encoding of a small graph over such events,
    read with or without known events: the graph's own plus pieces of them and of the text, so
    that the known events overlap the marks and one another."""
    fmt = draw(st.sampled_from(sorted(FORMS)))
    signs = draw(st.booleans())
    if draw(st.integers(0, 3)) == 0:
        text = draw(piece_texts)
        events_of_text: list[str] = []
    else:
        g = draw(graphs(small_events, max_edges=3))
        text = encode(g, fmt, signs=signs, order="data")
        events_of_text = list(g.nodes)
    nodes = draw(st.none() | st.lists(_cuts(events_of_text + [text]), max_size=4).map(
        lambda extra: events_of_text + extra))
    if nodes is not None and draw(st.booleans()):
        # every piece of the text is a known event: readings of different lengths abound
        nodes = [text[i:j] for i in range(len(text)) for j in range(i + 1, len(text) + 1)]
    return text, fmt, signs, nodes


@settings(max_examples=300)
@given(short_texts())
def test_decode_agrees_with_an_enumeration_of_every_reading(case):
    text, fmt, signs, nodes = case
    found = readings(text, fmt, signs, None if nodes is None else set(nodes))
    if nodes is None and found:
        # without the events, the readings with the most edges are kept
        most = max(len(r) for r in found)
        found = [r for r in found if len(r) == most]
    if not text.strip():
        assert decode(text, fmt, signs=signs, nodes=nodes).pairs == []
    elif len(found) == 1:
        back = decode(text, fmt, signs=signs, nodes=nodes)
        assert back.pairs == list(dict.fromkeys((c, e) for c, e, _ in found[0]))
    elif not found:
        with pytest.raises(ParseError, match=f"cannot read {fmt} text as edges"):
            decode(text, fmt, signs=signs, nodes=nodes)
    else:
        with pytest.raises(ParseError, match=f"can be read in {len(found)} ways"):
            decode(text, fmt, signs=signs, nodes=nodes)


# -- round trips ----------------------------------------------------------------------------

def _signs_of(graph) -> list[str]:
    return [e.correlation.value if e.correlation else ("conflicting" if e.conflicting_correlation else "unknown")
            for e in graph.edges]


@settings(max_examples=300)
@given(graphs(), st.sampled_from(["adjacency", "single-node"]), st.booleans(), st.sampled_from(["paper", "data"]))
def test_every_text_encoding_decodes_back_with_its_events_or_is_refused(g, fmt, signs, order):
    text = encode(g, fmt, signs=signs, order=order)
    try:
        back = decode(text, fmt, signs=signs, nodes=g.nodes)
    except ParseError as exc:
        # refused only because events hold separators, and the message says so
        assert re.search(r"can be read in \d+ ways between the given nodes", str(exc))
        return
    assert back.pairs == ordered_edges(g, order)
    assert encode(back, fmt, signs=signs, order="data") == text
    if signs:
        assert _signs_of(back) == [_signs_of(g)[g.pairs.index(p)] for p in back.pairs]


def _plain(fmt: str):
    """Events that hold none of the format's marks (adjacency: no comma or bracket; single-node:
    no period and no 'causes')."""
    if fmt == "adjacency":
        alphabet = st.characters(exclude_characters=",()", exclude_categories=("Cs",))
        return st.text(alphabet, min_size=1, max_size=8).filter(lambda s: not is_blank(s))
    alphabet = st.characters(exclude_characters=".", exclude_categories=("Cs",))
    return st.text(alphabet, min_size=1, max_size=8).filter(lambda s: not is_blank(s) and "causes" not in s)


@settings(max_examples=200)
@given(st.data(), st.sampled_from(["adjacency", "single-node"]), st.booleans(), st.sampled_from(["paper", "data"]))
def test_events_without_the_formats_marks_decode_back_without_nodes(data, fmt, signs, order):
    g = data.draw(graphs(_plain(fmt)))
    text = encode(g, fmt, signs=signs, order=order)
    back = decode(text, fmt, signs=signs)
    assert back.pairs == ordered_edges(g, order)
    assert encode(back, fmt, signs=signs, order="data") == text


_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@settings(max_examples=300)
@given(graphs(), st.booleans(), st.sampled_from(["paper", "data"]))
def test_graphml_always_parses_with_networkx_or_is_refused_naming_the_character(g, signs, order):
    bad = [(n, _NOT_XML.search(n).group()) for n in g.nodes if _NOT_XML.search(n)]
    try:
        text = encode(g, "graphml", signs=signs, order=order)
    except ConfigError as exc:
        assert bad, f"refused a graph whose events XML can hold: {exc}"
        assert any(repr(n) in str(exc) and repr(ch) in str(exc) for n, ch in bad), str(exc)
        return
    assert not bad, f"wrote GraphML for events holding {bad!r}"
    read = nx.read_graphml(io.BytesIO(text.encode("utf-8")))
    assert list(read.nodes) == list(g.nodes)
    assert sorted(read.edges) == sorted(g.pairs)
    if signs:
        assert {(c, e): d["correlation"] for c, e, d in read.edges(data=True)} == dict(zip(g.pairs, _signs_of(g)))
    back = decode(text, "graphml", signs=signs)
    assert back.nodes == g.nodes and back.pairs == ordered_edges(g, order)
    assert encode(back, "graphml", signs=signs, order="data") == text
