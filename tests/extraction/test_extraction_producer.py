"""Extracted pairs as graphs: node merging and chain statistics."""

import json

import pytest

from causalgraph import compile_graph, corpus_from_extraction
from causalgraph.errors import ConfigError
from causalgraph.extraction.producer import SpanMerger, chain_statistics
from causalgraph.model import Corpus, Relation, Statement


@pytest.fixture
def rows_file(tmp_path):
    rows = [
        {"s/n": 1, "sentence": "s1", "pairs": [
            {"cause": "smoking", "effect": "lung inflammation", "causality": "Implicit", "sententiality": "Intra"},
            {"cause": "The lung inflammation.", "effect": "cancer"}]},
        {"s/n": 2, "sentence": "s2", "pairs": [
            {"cause": "smoking", "effect": "chronic lung inflammation"},
            {"cause": "lung inflammation", "effect": "cancer"}]},
        {"s/n": 3, "sentence": "s3", "pairs": []},
    ]
    p = tmp_path / "pred.json"
    p.write_text(json.dumps({"predictions": rows}))
    return p


def test_corpus_from_extraction_exact_keeps_spans_as_nodes(rows_file):
    c = corpus_from_extraction(rows_file)
    assert [s.id for s in c] == ["pmc-1", "pmc-2", "pmc-3"]
    assert c.report["rows_with_chain"] == 0 and c.report["merged_spans"] == 0
    g = compile_graph(c["pmc-1"])
    assert g.pairs == [("smoking", "lung inflammation"), ("The lung inflammation.", "cancer")]
    assert c["pmc-1"].relations[0].explicitness.value == "implicit"
    assert c["pmc-3"].causal is False


def test_corpus_from_extraction_normalized_links_a_chain_through_equal_spans(rows_file):
    c = corpus_from_extraction(rows_file, merge="normalized")
    g = compile_graph(c["pmc-1"])
    assert g.successors("lung inflammation") == ["cancer"]
    assert c["pmc-1"].relations[1].cause_np == "The lung inflammation."
    # Row 2 differs by a word: not merged by normalisation.
    assert c.report["rows_with_chain"] == 1 and c.report["merged_spans"] == 1


def test_corpus_from_extraction_fuzzy_links_near_spans_above_the_threshold(rows_file):
    # "chronic lung inflammation" vs "lung inflammation": token F1 = 2*2/(3+2) = 0.8.
    c = corpus_from_extraction(rows_file, merge="fuzzy", threshold=0.8)
    g = compile_graph(c["pmc-2"])
    assert g.pairs == [("smoking", "chronic lung inflammation"), ("chronic lung inflammation", "cancer")]
    assert c.report["rows_with_chain"] == 2
    strict = corpus_from_extraction(rows_file, merge="fuzzy", threshold=0.81)
    assert strict.report["rows_with_chain"] == 1


def test_span_merger_never_merges_across_rows_and_rejects_bad_options():
    m = SpanMerger("normalized")
    assert m.node("The virus") == "The virus"
    m.reset()
    assert m.node("virus") == "virus"
    with pytest.raises(ConfigError, match="merge rule"):
        SpanMerger("loose")
    with pytest.raises(ConfigError, match="threshold"):
        SpanMerger("fuzzy", threshold=1.5)


def test_chain_statistics_counts_rows_chains_and_events_without_back_and_forth():
    rows = [Statement("a", "t", True, (Relation("A", "B"), Relation("B", "C"), Relation("B", "D"))),
            Statement("b", "t", True, (Relation("X", "Y"), Relation("Y", "X"))),
            Statement("c", "t", True, (Relation("P", "P"),))]
    st = chain_statistics(Corpus("x", rows))
    # Row a: chains A→B→C and A→B→D over events A, B, C, D. Row b: X ⇄ Y only goes back.
    # Row c: a self-loop is no chain.
    assert st == {"rows_with_chain": 1, "chains": 2, "chain_events": 4}


def test_corpus_from_extraction_gold_split_chain_counts_grow_with_looser_merging(pubmed_test):
    counts = [corpus_from_extraction(pubmed_test, merge=m).report["rows_with_chain"]
              for m in ("exact", "normalized", "fuzzy")]
    assert counts[0] <= counts[1] <= counts[2]
    exact = corpus_from_extraction(pubmed_test)
    assert exact.report["pairs"] == 3199 and exact.name == "pubmedcausal-gold"
    # Independent count of rows with an exact-string chain u → v → w (three distinct spans).
    expect = 0
    for st in pubmed_test:
        pairs = {(r.cause, r.effect) for r in st.relations}
        expect += any((v, w) in pairs for (u, v) in pairs for (v2, w) in pairs if v2 == v and w != u and w != v and u != v)
    assert counts[0] == expect


def test_chain_rows_keeps_only_rows_whose_graph_has_a_middle_event(rows_file):
    from causalgraph.extraction.producer import chain_rows

    c = corpus_from_extraction(rows_file, merge="normalized")
    assert [s.id for s in chain_rows(c)] == ["pmc-1"]


def test_chain_items_give_ccr_positions_over_pubmedcausal_graphs(rows_file):
    from causalgraph.tasks.extraction_chains import chain_items

    items = chain_items(rows_file, "ccr-position", "A_4", merge="normalized")
    # Row 1 under normalised merging: smoking → lung inflammation → cancer.
    assert [(i.meta["event"], i.gold) for i in items] == [
        ("smoking", "start"), ("lung inflammation", "middle"), ("cancer", "end")]
    assert "(smoking, lung inflammation)" in items[0].prompt
    member = chain_items(rows_file, "ccr-member", "A_4", merge="exact")
    assert member == []


def test_chain_items_on_the_real_split_label_every_event_of_chain_rows(pubmed_test):
    from causalgraph.tasks.extraction_chains import chain_items

    items = chain_items(pubmed_test, "ccr-member", "A_4", merge="normalized")
    stats = corpus_from_extraction(pubmed_test, merge="normalized").report
    assert sum(i.gold == "yes" for i in items) == stats["chain_events"]
    assert len({i.meta["statement_id"] for i in items}) == stats["rows_with_chain"]


def test_chain_items_with_exact_merging_match_membership_worked_out_from_the_pairs(pubmed_test):
    from causalgraph.tasks.extraction_chains import chain_items

    items = chain_items(pubmed_test, "ccr-member", "A_4", merge="exact")
    # Independent of metrics.chains: from each row's pairs (self-loops dropped), an event is a member when it
    # has a cause and an effect that differ, or is a source whose effect has an effect, or a sink whose cause
    # has a cause; a row is kept when some event has a cause and an effect that differ.
    expect = {}
    for st in pubmed_test:
        pairs = {(r.cause, r.effect) for r in st.relations if r.cause != r.effect}
        succ, pred = {}, {}
        for a, b in pairs:
            succ.setdefault(a, set()).add(b)
            pred.setdefault(b, set()).add(a)

        def member(x):
            s, p = succ.get(x, set()), pred.get(x, set())
            if s and p:
                return any(a != b for a in p for b in s)
            return any(succ.get(u) for u in s) or any(pred.get(u) for u in p)

        events = {x for pair in pairs for x in pair}
        if any(x in succ and x in pred and member(x) for x in events):
            expect.update({(st.id, x): "yes" if member(x) else "no" for x in events})
    assert {(i.meta["statement_id"], i.meta["event"]): i.gold for i in items} == expect
    assert len(expect) == 131 and sum(g == "yes" for g in expect.values()) == 99


def test_corpus_from_extraction_rejects_a_blank_span_naming_row_and_pair():
    from causalgraph.errors import SchemaError

    rows = Corpus("pubmedcausal", [Statement("pmc-4", "t", True, (Relation("a", "b"), Relation("b", "\u200b")),
                                             meta={"s/n": 4})], source="hand-built")
    with pytest.raises(SchemaError, match=r"hand-built: row s/n 4, pair 2 \('b' -> '\\u200b'\): found '\\u200b' as "
                                          r"the effect; expected a span that shows something"):
        corpus_from_extraction(rows)


def test_corpus_from_extraction_reading_a_blank_span_from_a_file_names_record_and_pair(tmp_path):
    from causalgraph.errors import SchemaError

    p = tmp_path / "pred.json"
    p.write_text(json.dumps({"predictions": [{"s/n": 1, "sentence": "s", "pairs": [{"cause": "\u200b",
                                                                                     "effect": "b"}]}]}))
    with pytest.raises(SchemaError, match=r"pred\.json: record 1, field 'pairs\[1\]': no cause; expected both"):
        corpus_from_extraction(p)
