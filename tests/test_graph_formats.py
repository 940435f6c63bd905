"""Graphs out (GML, GraphML, DOT, dagitty, JSON, edge list, pgmpy, DoWhy) and graph files back in.

Each format is read by the library that users read it with: networkx's GML/GraphML/node-link readers,
pydot (and Graphviz's ``dot`` where installed) for DOT and for dagitty text (dagitty's syntax is DOT's
with ``dag`` for ``digraph``), pgmpy for the DAG.  DoWhy is not installed in the test environment (it
would downgrade scipy), so the GML it parses is checked with networkx.parse_gml, which DoWhy calls.
"""

from __future__ import annotations

import csv
import io
import random
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import pytest

from causalgraph.cli import main
from causalgraph.datasets import load_climatecause, load_corpus
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.graph import compile_graph
from causalgraph.graph_formats import edge_labels, find_cycle, to_dagitty, to_digraph, to_dot, to_dowhy, to_edgelist, to_gml, to_graphml, to_node_link, to_pgmpy
from causalgraph.metrics.chains import chain_labels
from causalgraph.metrics.complexity import complexity_table
from causalgraph.model import Correlation, Polarity, Relation
from causalgraph.tasks import get_task

ASIA = Path(__file__).parent / "data" / "asia.gml"
# The Asia network's arcs as published (Lauritzen & Spiegelhalter 1988; bnlearn's asia.bif), typed again here.
ASIA_ARCS = {("asia", "tub"), ("smoke", "lung"), ("smoke", "bronc"), ("tub", "either"), ("lung", "either"),
             ("either", "xray"), ("either", "dysp"), ("bronc", "dysp")}


@pytest.fixture(scope="module")
def climatecause():
    return load_climatecause()


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def labelled(edges_of):
    return {(u, v): dict(a) for u, v, a in edges_of}


@pytest.mark.parametrize("fmt", ["graphml", "gml", "dot", "json"])
def test_an_exported_corpus_reads_back_with_the_same_graphs_and_signed_metrics(climatecause, tmp_path, fmt,
                                                                                capsys):
    if fmt == "dot":
        pytest.importorskip("pydot")
    rc, out, err = run(capsys, "export-graphs", str(tmp_path / fmt), "--format", fmt)
    assert rc == 0, err
    back = load_corpus(tmp_path / fmt)
    causal = [s for s in climatecause if s.relations]
    assert [s.id for s in back] == [s.id for s in causal]
    for a, b in zip(causal, back):
        ga, gb = compile_graph(a), compile_graph(b)
        assert set(ga.pairs) == set(gb.pairs)
        assert {e.cause + "→" + e.effect: edge_labels(e) for e in ga.edges} == \
               {e.cause + "→" + e.effect: edge_labels(e) for e in gb.edges}
        assert chain_labels(ga) == chain_labels(gb)
    ref = complexity_table(causal)
    got = complexity_table(back)
    assert list(got.c_corr) == list(ref.c_corr) and list(got.c_pol) == list(ref.c_pol)
    assert got.c_com.isna().all() and got.c_nest.isna().all()
    assert back.lacks[0] == "text"


def test_networkx_reads_the_gml_and_graphml_with_labels_as_attributes(climatecause):
    for st in climatecause:
        if not st.relations:
            continue
        g = compile_graph(st)
        want = labelled(to_digraph(g).edges(data=True))
        assert labelled(nx.parse_gml(to_gml(g)).edges(data=True)) == want
        assert labelled(nx.parse_graphml(to_graphml(g)).edges(data=True)) == want
        assert labelled(nx.node_link_graph(__import__("json").loads(to_node_link(g)), edges="links")
                        .edges(data=True)) == want


def test_every_edge_label_is_written_and_a_conflicting_pair_is_marked_conflicting():
    g = compile_graph([Relation("a", "b", correlation=Correlation.NEGATIVE, polarity=Polarity.POSITIVE),
                       Relation("a", "b", correlation=Correlation.POSITIVE, polarity=Polarity.POSITIVE),
                       Relation("b", "c")])
    assert dict(nx.parse_gml(to_gml(g)).edges) == {("a", "b"): {"correlation": "conflicting",
                                                               "polarity": "positive"}, ("b", "c"): {}}


def pydot_edges(text):
    pydot = pytest.importorskip("pydot")
    (graph,) = pydot.graph_from_dot_data(text)
    g = nx.nx_pydot.from_pydot(graph)
    return {(u, v) for u, v, *_ in g.edges}, graph


AWKWARD = [Relation('the "heat" index', "back\\slash"), Relation("back\\slash", "two\nlines"),
           Relation("two\nlines", "ünïcode, commas; and -> arrows")]


def test_pydot_reads_the_dot_and_the_dagitty_text_with_awkward_names():
    g = compile_graph(AWKWARD)
    for text in (to_dot(g), to_dagitty(g).replace("dag {", "digraph {", 1)):
        edges, graph = pydot_edges(text)
        # pydot keeps DOT's escapes in the names it returns; unescape them as DOT defines
        un = {(_unescape(u), _unescape(v)) for u, v in edges}
        assert un == set(g.pairs)


def _unescape(name: str) -> str:
    s = name[1:-1] if name.startswith('"') else name
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "r": "\r"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_dot_accepts_every_exported_graph(climatecause):
    for st in list(climatecause)[:20]:
        if st.relations:
            r = subprocess.run(["dot", "-Tcanon"], input=to_dot(compile_graph(st)), capture_output=True, text=True)
            assert r.returncode == 0, r.stderr


def test_dag_formats_refuse_a_cycle_naming_it(capsys, tmp_path):
    g = compile_graph([Relation("a", "b"), Relation("b", "c"), Relation("c", "a"), Relation("c", "d")])
    assert find_cycle(g) == ["a", "b", "c", "a"]
    for fn in (to_dagitty, to_dowhy, to_pgmpy):
        with pytest.raises(SchemaError, match="cycle 'a' -> 'b' -> 'c' -> 'a'"):
            fn(g)
    # the formats without the DAG requirement write it
    assert "->" in to_dot(g) and nx.parse_gml(to_gml(g)).number_of_edges() == 4
    f = tmp_path / "cyc.csv"
    f.write_text("text,cause,effect\nT,a,b\nT,b,a\n", encoding="utf-8")
    rc, out, err = run(capsys, "export-graphs", str(tmp_path / "o"), "--format", "dagitty", "--data", str(f))
    assert rc == 2 and "cycle 'a' -> 'b' -> 'a'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def random_dag(rng, n, p):
    order = list(range(n))
    rng.shuffle(order)
    return [(f"v{order[i]}", f"v{order[j]}") for i in range(n) for j in range(i + 1, n) if rng.random() < p]


def test_pgmpy_d_separation_equals_networkx_on_200_random_triples():
    pytest.importorskip("pgmpy")
    rng = random.Random(27)
    checked = 0
    while checked < 200:
        n = rng.randint(3, 8)
        edges = random_dag(rng, n, rng.uniform(0.2, 0.6))
        if not edges:
            continue
        g = compile_graph([Relation(u, v) for u, v in edges])
        dag = to_pgmpy(g)
        ref = nx.DiGraph(edges)
        nodes = list(g.nodes)
        if len(nodes) < 3:
            continue
        x, y = rng.sample(nodes, 2)
        rest = [v for v in nodes if v not in (x, y)]
        z = rng.sample(rest, rng.randint(0, len(rest)))
        assert (not dag.is_dconnected(x, y, observed=z)) == nx.is_d_separator(ref, {x}, {y}, set(z))
        checked += 1
    assert set(to_pgmpy(compile_graph([Relation(u, v) for u, v in ASIA_ARCS])).edges) == ASIA_ARCS


def test_the_pgmpy_dag_of_a_climatecause_graph_keeps_its_edge_labels(climatecause):
    pytest.importorskip("pgmpy")
    g = compile_graph(climatecause["cc-001"])
    dag = to_pgmpy(g)
    # pgmpy adds its own weight=None to every edge; the labels are ours
    assert {k: {a: v for a, v in d.items() if a != "weight"} for k, d in labelled(dag.edges(data=True)).items()} \
        == labelled(to_digraph(g).edges(data=True))
    assert all(d.get("correlation") in ("positive", "negative", "conflicting") for *_, d in dag.edges(data=True))


def test_to_dowhy_gives_the_gml_dowhy_parses(climatecause):
    g = compile_graph(climatecause["cc-001"])
    parsed = nx.parse_gml(to_dowhy(g))  # DoWhy's CausalModel reads a GML string with networkx.parse_gml
    assert nx.is_directed_acyclic_graph(parsed) and set(parsed.edges) == set(g.pairs)
    try:
        import dowhy  # noqa: F401
    except ImportError:
        return
    import numpy as np
    import pandas as pd
    from dowhy import CausalModel

    data = pd.DataFrame(np.zeros((4, len(g.nodes))), columns=list(g.nodes))
    e = g.edges[0]
    CausalModel(data=data, treatment=e.cause, outcome=e.effect, graph=to_dowhy(g))


def test_the_methods_on_a_causal_graph_are_the_library_calls():
    g = compile_graph(AWKWARD)
    assert g.to_gml() == to_gml(g) and g.to_dagitty() == to_dagitty(g) and g.to_dowhy() == to_dowhy(g)


def test_the_edge_list_is_a_tsv_with_a_header_that_csv_reads_back():
    g = compile_graph(AWKWARD + [Relation("x", "y", correlation=Correlation.NEGATIVE)])
    rows = list(csv.DictReader(io.StringIO(to_edgelist(g)), delimiter="\t"))
    assert [(r["cause"], r["effect"]) for r in rows] == g.pairs
    assert rows[-1]["correlation"] == "negative" and rows[0]["correlation"] == ""


def test_merged_and_chosen_statements_and_an_existing_file(climatecause, tmp_path, capsys):
    rc, out, _ = run(capsys, "export-graphs", str(tmp_path), "--format", "gml", "--statement", "cc-001", "cc-003",
                     "--merged")
    assert rc == 0 and out.strip().endswith("merged.gml")
    merged = nx.read_gml(tmp_path / "merged.gml")
    assert set(merged.edges) == set(compile_graph(climatecause["cc-001"]).pairs) | \
        set(compile_graph(climatecause["cc-003"]).pairs)
    rc, _, err = run(capsys, "export-graphs", str(tmp_path), "--format", "gml", "--statement", "cc-001", "cc-003",
                     "--merged")
    assert rc == 2 and "exists" in err and "--overwrite" in err
    rc, _, err = run(capsys, "export-graphs", str(tmp_path), "--statement", "cc-999")
    assert rc == 2 and "no such statement" in err


# -- graph files in ------------------------------------------------------------------------------------

def test_the_asia_file_holds_the_published_arcs_and_ccr_position_gold_equals_networkx(capsys):
    corpus = load_corpus(ASIA)
    (st,) = corpus.statements
    assert {(r.cause, r.effect) for r in st.relations} == ASIA_ARCS
    rc, out, err = run(capsys, "items", "--task", "ccr-position", "--variant", "A_5", "--data", str(ASIA))
    assert rc == 0, err
    import json

    items = [json.loads(line) for line in out.splitlines()]
    ref = nx.read_gml(ASIA)
    want = {}
    for v in ref.nodes:
        # a chain is a directed path of >= 3 nodes; the position rule of docs/tasks.md on networkx's graph
        long_from = any(len(nx.shortest_path(ref, v, w)) >= 3 for w in nx.descendants(ref, v)) or \
            any(ref.out_degree(c) for c in ref.successors(v))
        long_to = any(ref.in_degree(c) for c in ref.predecessors(v))
        if ref.in_degree(v) == 0:
            want[v] = "start" if long_from else "none"
        elif ref.out_degree(v) == 0:
            want[v] = "end" if long_to else "none"
        else:
            want[v] = "middle"
    assert {it["meta"]["event"]: it["gold"] for it in items} == want
    assert all(it["meta"]["statement_text"] is False for it in items)
    assert len(items) == ref.number_of_nodes()


def test_a_task_that_needs_the_statement_text_is_refused_on_a_graph_file(capsys):
    rc, out, err = run(capsys, "items", "--task", "ccr-eci-member", "--variant", "SN_5", "--data", str(ASIA))
    assert rc == 2 and out == "" and "needs statement text" in err and len(err.strip().splitlines()) == 1


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_edge_attributes_are_read_and_a_partial_or_bad_label_is_refused(tmp_path):
    g = nx.DiGraph()
    g.add_edge("a", "b", correlation="negative", relation_type="causes")
    g.add_edge("b", "c", correlation="positive", relation_type="prevents")
    nx.write_graphml(g, tmp_path / "g.graphml")
    (st,) = load_corpus(tmp_path / "g.graphml").statements
    assert [(r.correlation.value, r.polarity.value) for r in st.relations] == [("negative", "positive"),
                                                                               ("positive", "negative")]
    g.add_edge("c", "d")
    nx.write_gml(g, tmp_path / "partial.gml")
    with pytest.raises(SchemaError, match=r"partial.gml: edge 'c' -> 'd' has no correlation attribute while 2 of 3"):
        load_corpus(tmp_path / "partial.gml")
    g.edges["c", "d"].update(correlation="upwards", relation_type="causes")
    nx.write_gml(g, tmp_path / "bad.gml")
    with pytest.raises(SchemaError, match=r"bad.gml: edge 'c' -> 'd', attribute 'correlation': found 'upwards'"):
        load_corpus(tmp_path / "bad.gml")


def test_an_undirected_or_damaged_graph_file_is_one_clear_error(tmp_path, capsys):
    nx.write_gml(nx.Graph([("a", "b")]), tmp_path / "u.gml")
    with pytest.raises(SchemaError, match="undirected"):
        load_corpus(tmp_path / "u.gml")
    write(tmp_path / "d.graphml", "<graphml><graph edgedefault='directed'><node id=")
    rc, _, err = run(capsys, "info", "--data", str(tmp_path / "d.graphml"))
    assert rc == 2 and "cannot read as GRAPHML" in err and len(err.strip().splitlines()) == 1


def test_a_folder_of_graph_files_is_one_statement_per_file_and_a_pubmedcausal_list_is_not_a_graph(tmp_path):
    nx.write_gml(nx.DiGraph([("a", "b")]), tmp_path / "one.gml")
    write(tmp_path / "two.json", to_node_link(compile_graph([Relation("x", "y"), Relation("y", "z")])))
    corpus = load_corpus(tmp_path)
    assert [s.id for s in corpus] == ["one", "two"] and corpus.name == "graphs"
    assert [len(s.relations) for s in corpus] == [1, 2]
    assert load_corpus("pubmedcausal").name != "graphs"


def test_bench_run_refuses_a_text_task_on_a_graph_file_and_runs_a_graph_task(tmp_path, capsys):
    rc, out, err = run(capsys, "bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle",
                       "--data", str(ASIA), "--out", str(tmp_path / "r1"), "--no-cache")
    assert rc == 2 and "needs statement text" in err and len(err.strip().splitlines()) == 1
    rc, out, err = run(capsys, "bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle",
                       "--data", str(ASIA), "--out", str(tmp_path / "r2"), "--no-cache", "--format", "json")
    assert rc == 0, err
