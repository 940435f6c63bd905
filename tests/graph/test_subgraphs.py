"""Neighbourhood subgraphs of a merged graph: networkx's ego graphs when nothing is cut, the size bound and
the hop bound always, the seed, and the relations file read back with csv and pandas."""

from __future__ import annotations

import csv
import json

import networkx as nx
import pandas as pd
import pytest
from causenet_files import relation, write
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.datasets.causenet import find_concept, load_causenet
from causalgraph.errors import ConfigError
from causalgraph.graph.merged import merge_pairs
from causalgraph.graph.subgraphs import (RELATION_COLUMNS, check_relations_path, sample_subgraphs, subgraph_rows,
                                   write_relations)

edges = st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), min_size=1, max_size=40)


def undirected(g):
    u = nx.Graph()
    u.add_nodes_from(range(g.n_nodes))
    u.add_edges_from((a, b) for a, b in zip(g.src.tolist(), g.dst.tolist()) if a != b)
    return u


@settings(max_examples=200)
@given(edges, st.integers(1, 3), st.integers(2, 8), st.integers(0, 5))
def test_every_subgraph_is_within_the_hops_and_the_size_and_induced(pairs, hops, max_nodes, seed):
    g = merge_pairs(pairs)
    u = undirected(g)
    centre = int(g.src[0])
    subs, counts = sample_subgraphs(g, around=[centre], hops=hops, max_nodes=max_nodes, seed=seed)
    (sg,) = subs
    nodes = sg.nodes.tolist()
    assert nodes[0] == centre and len(nodes) == len(set(nodes)) <= max_nodes
    dist = nx.single_source_shortest_path_length(u, centre, cutoff=hops)
    assert all(v in dist for v in nodes)
    members = set(nodes)
    induced = [e for e in range(g.n_edges) if int(g.src[e]) in members and int(g.dst[e]) in members]
    assert sg.edges.tolist() == induced
    if not sg.truncated:  # nothing cut: exactly networkx's ego graph
        assert members == set(nx.ego_graph(u, centre, radius=hops).nodes)
    else:
        assert len(nodes) == max_nodes
    again, _ = sample_subgraphs(g, around=[centre], hops=hops, max_nodes=max_nodes, seed=seed)
    assert again[0].nodes.tolist() == nodes


def test_random_centres_are_distinct_seeded_and_duplicates_are_dropped():
    path = merge_pairs([(i, i + 1) for i in range(100)])  # distinct centres, distinct neighbourhoods
    subs, counts = sample_subgraphs(path, n_random=10, hops=1, max_nodes=4, seed=3)
    again, _ = sample_subgraphs(path, n_random=10, hops=1, max_nodes=4, seed=3)
    other, _ = sample_subgraphs(path, n_random=10, hops=1, max_nodes=4, seed=4)
    assert [s.centre for s in subs] == [s.centre for s in again] != [s.centre for s in other]
    assert len({s.centre for s in subs}) == 10 and counts == {"asked": 10, "written": 10, "duplicates": 0}
    g = merge_pairs([(f"a{i}", f"b{i}") for i in range(50)])
    # a centre and its partner give the same two-node subgraph: kept once
    subs, counts = sample_subgraphs(g, around=[0, 1], hops=1, max_nodes=4)
    assert counts == {"asked": 2, "written": 1, "duplicates": 1}
    assert [s.statement_id for s in subs] == ["subgraph-0001"]
    assert [s.statement_id for s in sample_subgraphs(g, around=[0], hops=1, max_nodes=4, id_prefix="cn")[0]] == [
        "cn-0001"]


def test_bad_sizes_and_too_many_random_centres_are_errors():
    g = merge_pairs([("a", "b")])
    with pytest.raises(ConfigError, match="max_nodes must be an integer from 2 to 10,000, got 1"):
        sample_subgraphs(g, around=[0], max_nodes=1)
    with pytest.raises(ConfigError, match="hops must be an integer >= 1, got 0"):
        sample_subgraphs(g, around=[0], hops=0)
    with pytest.raises(ConfigError, match="only 2 concepts of the graph have an edge"):
        sample_subgraphs(g, n_random=3)
    with pytest.raises(ConfigError, match="name the centres"):
        sample_subgraphs(g)


LINES = [
    relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smoking causes lung cancer."),
                                        ("clueweb12_sentence", "Lung cancer follows smoking.")], support=4),
    relation("lung_cancer", "death", [("wikipedia_list", None)]),
    relation("asbestos", "lung_cancer", [("wikipedia_sentence", "Asbestos causes lung cancer.")]),
    relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smokers get cancer.")]),
]


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl"])
def test_the_relations_file_holds_the_statement_text_edges_and_provenance(tmp_path, suffix):
    g = load_causenet(write(tmp_path / "c.jsonl", LINES), keep_sentences=True)
    subs, _ = sample_subgraphs(g, around=[find_concept(g, "smoking")], hops=2, max_nodes=10, id_prefix="causenet")
    out = write_relations(subgraph_rows(g, subs), tmp_path / f"rel{suffix}")
    if suffix == ".jsonl":
        frame = pd.read_json(out, lines=True, dtype=False)
    else:
        frame = pd.read_csv(out, sep="," if suffix == ".csv" else "\t", dtype=str, keep_default_na=False)
    assert list(frame.columns) == list(RELATION_COLUMNS)
    assert list(zip(frame.cause, frame.effect)) == [("smoking", "lung cancer"), ("lung cancer", "death"),
                                                    ("asbestos", "lung cancer")]
    assert set(frame.statement_id) == {"causenet-0001"}
    # first kept sentence of each edge; the list source has none, so its relation is written out
    assert set(frame.text) == {"Smoking causes lung cancer. lung cancer causes death. Asbestos causes lung cancer."}
    context = json.loads(frame.context[0])
    assert context["centre"] == "smoking" and context["hops"] == 2 and context["truncated"] is False
    assert context["edges"][0] == {"cause": "smoking", "effect": "lung cancer", "relations": 2, "sources": 3,
                                   "support": 4, "source_types": {"wikipedia_sentence": 2, "clueweb12_sentence": 1}}
    assert len(set(frame.context)) == 1  # context belongs to the statement: the same on each of its rows


def test_without_sentences_the_text_is_the_relations_written_out(tmp_path):
    g = load_causenet(write(tmp_path / "c.jsonl", LINES))
    subs, _ = sample_subgraphs(g, around=[find_concept(g, "death")], hops=1, max_nodes=10)
    rows = subgraph_rows(g, subs)
    with open(write_relations(rows, tmp_path / "r.csv"), newline="") as f:
        got = list(csv.DictReader(f))
    assert [(r["cause"], r["effect"], r["text"]) for r in got] == [
        ("lung cancer", "death", "lung cancer causes death.")]


def test_the_output_path_is_checked_before_any_work(tmp_path):
    with pytest.raises(ConfigError, match="write the relations as .csv, .tsv or .jsonl"):
        check_relations_path(tmp_path / "r.xlsx")
    (tmp_path / "d.csv").mkdir()
    with pytest.raises(ConfigError, match="a folder of that name exists"):
        check_relations_path(tmp_path / "d.csv")


def test_ccr_and_structure_items_carry_the_statements_provenance(tmp_path):
    """The relations reader keeps a statement's context in ``meta``; built here as it would read the file."""
    from causalgraph.model import Corpus, Relation, Statement
    from causalgraph.tasks import get_task

    g = load_causenet(write(tmp_path / "c.jsonl", LINES))
    subs, _ = sample_subgraphs(g, around=[find_concept(g, "smoking")], hops=2, max_nodes=10)
    rows = subgraph_rows(g, subs)
    st_ = Statement(rows[0]["statement_id"], rows[0]["text"], True,
                    tuple(Relation(r["cause"], r["effect"]) for r in rows), meta={"context": rows[0]["context"]})
    corpus = Corpus("relations", [st_])
    for task, variant in (("ccr-position", "A_4"), ("parents", "A_1")):
        t = get_task(task)
        items = t.build_items(corpus, variant)
        assert items and all(json.loads(i.meta["context"])["centre"] == "smoking" for i in items)


def test_a_self_loop_among_the_chosen_concepts_is_a_row_and_in_the_context(tmp_path, capsys):
    """docs/data.md: every edge of the big graph among the chosen concepts is kept, self-loops included."""
    from causalgraph.cli import main
    from causalgraph.datasets import load_corpus

    f = write(tmp_path / "c.jsonl", [relation("smoking", "smoking"), relation("smoking", "lung_cancer")])
    out = tmp_path / "s.csv"
    assert main(["sample-subgraphs", "--data", f"causenet:{f}", "--around", "smoking", "--hops", "1",
                 "-o", str(out)]) == 0
    assert "2 relations" in capsys.readouterr().err
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["cause"], r["effect"]) for r in rows] == [("smoking", "smoking"), ("smoking", "lung cancer")]
    context = json.loads(rows[0]["context"])
    assert [(e["cause"], e["effect"]) for e in context["edges"]] == [("smoking", "smoking"), ("smoking", "lung cancer")]
    (st_,) = load_corpus(out).statements
    assert [(r.cause, r.effect) for r in st_.relations] == [("smoking", "smoking"), ("smoking", "lung cancer")]
    # a centre whose only edge is its self-loop is a statement too (one relation)
    g = merge_pairs([("a", "a"), ("b", "c")])
    subs, _ = sample_subgraphs(g, around=[0], hops=1, max_nodes=4)
    assert [(r["cause"], r["effect"]) for r in subgraph_rows(g, subs)] == [("a", "a")]
