"""SHD (ours) and SID/AIDs (gadjid's) of predicted graphs: hand-computed cases, gadjid on random DAGs, the CLI."""

from __future__ import annotations

import json
import math
import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.cli import main
from causalgraph.metrics.graph_scores import compare_graphs, shd

gadjid = pytest.importorskip("gadjid")

CHAIN = [("a", "b"), ("b", "c")]


def test_shd_counts_a_reversed_edge_once_and_each_missing_or_extra_edge_once():
    assert shd(CHAIN, CHAIN) == 0
    assert shd(CHAIN, [("b", "a"), ("b", "c")]) == 1
    assert shd(CHAIN, []) == 2 and shd([], CHAIN) == 2
    assert shd(CHAIN, CHAIN + [("a", "c")]) == 1
    assert shd(CHAIN, [("c", "b"), ("b", "a")]) == 2


def test_sid_of_a_chain_against_the_empty_graph_is_three_and_zero_the_other_way():
    # Peters & Bühlmann's SID by hand: with no parents the guess says "no effect" for every pair;
    # that is wrong exactly for (a, b), (a, c), (b, c), the descendants of the chain a -> b -> c.
    # Against an empty truth every adjustment set is valid, so the chain as a guess makes no mistake.
    c = compare_graphs(CHAIN, [])
    assert (c.shd, c.sid) == (2, 3) and c.sid_norm == 3 / 6
    assert compare_graphs([], [("a", "b")]).sid == 0


def test_sid_of_a_chain_against_a_fork_at_its_middle_is_three():
    # Guess b -> a, b -> c.  Pairs (a, b): b in Pa(a) says no effect, but b is a's descendant: wrong.
    # (a, c): adjusting for {b} blocks a's effect through b: wrong.  (b, a): {} leaves b <- a open: wrong.
    # (b, c): {} is valid.  (c, a): {b} is valid, c has no effect.  (c, b): b in Pa(c), no effect: right.
    c = compare_graphs(CHAIN, [("b", "a"), ("b", "c")])
    assert (c.shd, c.sid, c.parent_aid) == (1, 3, 3)


def random_dag(rng, names, p):
    order = names[:]
    rng.shuffle(order)
    return [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order)) if rng.random() < p]


def matrix(edges, names):
    m = np.zeros((len(names), len(names)), dtype=np.int8)
    for u, v in edges:
        m[names.index(u), names.index(v)] = 1
    return m


def test_compare_graphs_equals_gadjid_on_100_random_dag_pairs(tmp_path, capsys):
    rng = random.Random(2027)
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    expected = {}
    for k in range(100):
        names = [f"x{i}" for i in range(rng.randint(2, 9))]
        gold, pred = random_dag(rng, names, rng.uniform(0.1, 0.7)), random_dag(rng, names, rng.uniform(0.1, 0.7))
        if not gold:
            gold = [(names[0], names[1])]
        if not pred:
            pred = [(names[1], names[0])]
        for folder, edges in (("gold", gold), ("pred", pred)):
            g = nx.DiGraph(edges)
            g.add_nodes_from(names)
            nx.write_gml(g, tmp_path / folder / f"g{k:03d}.gml")
        # every event of the files, those without an edge included, as gadjid and cdt count them
        G, P = matrix(gold, names), matrix(pred, names)
        expected[f"g{k:03d}"] = {
            "n_events": len(names), "shd": gadjid.shd(G, P)[1], "shd_norm": pytest.approx(gadjid.shd(G, P)[0]),
            **{name: fn(G, P, edge_direction="from row to column")[1]
               for name, fn in (("sid", gadjid.sid), ("parent_aid", gadjid.parent_aid),
                                ("ancestor_aid", gadjid.ancestor_aid), ("oset_aid", gadjid.oset_aid))},
            **{f"{name}_norm": pytest.approx(fn(G, P, edge_direction="from row to column")[0])
               for name, fn in (("sid", gadjid.sid), ("oset_aid", gadjid.oset_aid))}}
    assert main(["compare-graphs", str(tmp_path / "gold"), str(tmp_path / "pred"), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 100
    for r in rows:
        assert {k: r[k] for k in expected[r["statement_id"]]} == expected[r["statement_id"]], r["statement_id"]


def test_a_cyclic_prediction_has_an_shd_and_nan_sid_with_a_note_naming_the_cycle():
    c = compare_graphs(CHAIN, [("a", "b"), ("b", "c"), ("c", "a")], name="s1")
    assert c.shd == 1 and math.isnan(c.sid) and math.isnan(c.oset_aid)
    assert c.notes == ("s1: SID and AIDs are NaN: the predicted graph has the cycle 'a' -> 'b' -> 'c' -> 'a' "
                       "(they are defined for DAGs)",)


edges = st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("abcde")), max_size=12)


@settings(max_examples=100)
@given(edges, edges, edges)
def test_shd_is_a_metric_on_graphs(x, y, z):
    assert shd(x, y) == shd(y, x)
    assert (shd(x, y) == 0) == ({e for e in x if e[0] != e[1]} == {e for e in y if e[0] != e[1]})
    assert shd(x, z) <= shd(x, y) + shd(y, z)


def test_a_gold_statement_without_prediction_is_scored_against_an_empty_graph(tmp_path, capsys):
    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    nx.write_gml(nx.DiGraph(CHAIN), tmp_path / "g" / "s1.gml")
    nx.write_gml(nx.DiGraph([("x", "y")]), tmp_path / "g" / "s2.gml")
    nx.write_gml(nx.DiGraph(CHAIN), tmp_path / "p" / "s1.gml")
    nx.write_gml(nx.DiGraph([("q", "r")]), tmp_path / "p" / "s9.gml")
    assert main(["compare-graphs", str(tmp_path / "g"), str(tmp_path / "p"), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    rows = json.loads(out)
    assert [(r["statement_id"], r["pred_id"], r["shd"], r["sid"]) for r in rows] == [("s1", "s1", 0, 0),
                                                                                     ("s2", None, 1, 1)]
    assert "1 gold statement has no predicted graph and is scored against an empty one: s2" in err and "s9" in err


# -- in the evaluations ----------------------------------------------------------------------------------

def test_evaluate_statements_with_graphs_reports_shd_and_sid_per_statement_and_their_means():
    from causalgraph.annotation.evaluate import evaluate_statements
    from causalgraph.model import Relation, Statement

    gold = [Statement("s1", "t", True, (Relation("a", "b"), Relation("b", "c"))),
            Statement("s2", "u", True, (Relation("x", "y"),))]
    pred = [Statement("s1", "t", True, (Relation("b", "a"), Relation("b", "c"))), None]
    rep = evaluate_statements(pred, gold, reference="paper", graphs=True)
    assert [(r["graph_shd"], r["graph_sid"]) for r in rep.per_statement] == [(1, 3), (1, 1)]
    assert rep.graph["shd"] == 1.0 and rep.graph["sid"] == 2.0 and rep.graph["n"] == 2
    assert {"measure": "graph.sid.mean", "value": 2.0, "n": 2} in rep.rows()
    plain = evaluate_statements(pred, gold, reference="paper")
    assert "graph" not in plain.summary() and "graph_shd" not in plain.per_statement[0]


def test_evaluate_extraction_graphs_scores_each_row_and_gold_against_itself_is_zero(tmp_path, capsys,
                                                                                   pubmed_test_path):
    rows = json.loads(pubmed_test_path.read_text())
    k = next(i for i, r in enumerate(rows) if len(r["pairs"]) == 1)
    rows = rows[k:k + 6]
    pred = tmp_path / "pred.json"
    # the first row (one pair) predicts its pair reversed, the others as gold
    first = dict(rows[0], pairs=[dict(p, cause=p["effect"], effect=p["cause"]) for p in rows[0]["pairs"]])
    pred.write_text(json.dumps({"predictions": [first] + rows[1:]}))
    assert main(["evaluate-extraction", str(pred), "--gold", str(pubmed_test_path), "--only-predicted", "--graphs",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out) == len([r for r in rows if r["pairs"]])
    # one reversed edge: SHD 1; the guess says the effect causes the cause, and SID counts both ordered pairs
    assert (out[0]["shd"], out[0]["sid"], out[0]["n_events"]) == (1, 2, 2)
    assert all(r["shd"] == 0 and r["sid"] == 0 for r in out[1:])


# -- edgeless golds, isolated events, graphs without a shared event (issue 35, item 15) ---------------------

def gadjid_scores(gold, pred, names):
    G, P = matrix(gold, names), matrix(pred, names)
    return {"shd": gadjid.shd(G, P)[1], "shd_norm": gadjid.shd(G, P)[0],
            "sid": gadjid.sid(G, P, edge_direction="from row to column")[1],
            "sid_norm": gadjid.sid(G, P, edge_direction="from row to column")[0]}


def test_an_edgeless_gold_graph_is_scored_and_one_spurious_edge_is_shd_one(tmp_path, capsys):
    gold = nx.DiGraph()
    gold.add_nodes_from(["a", "b", "c"])
    nx.write_gml(gold, tmp_path / "gold.gml")
    pred = nx.DiGraph([("a", "b")])
    pred.add_node("c")
    nx.write_gml(pred, tmp_path / "pred.gml")
    assert main(["compare-graphs", str(tmp_path / "gold.gml"), str(tmp_path / "pred.gml"), "--format", "json",
                 "--align", "exact"]) == 0
    out, err = capsys.readouterr()
    (row,) = json.loads(out)
    want = gadjid_scores([], [("a", "b")], ["a", "b", "c"])
    assert (row["n_events"], row["gold_edges"], row["pred_edges"]) == (3, 0, 1)
    assert {k: row[k] for k in want} == want and row["shd"] == 1 and row["shd_norm"] == 1 / 3
    assert err == ""


def test_events_without_an_edge_count_in_the_normalised_scores_as_gadjid_counts_them(tmp_path, capsys):
    # gold a -> b, and d with no edge; prediction b -> a: SHD 1 over 3 unordered pairs, not over 1
    gold = nx.DiGraph([("a", "b")])
    gold.add_node("d")
    nx.write_graphml(gold, tmp_path / "g.graphml")
    nx.write_graphml(nx.DiGraph([("b", "a")]), tmp_path / "p.graphml")
    assert main(["compare-graphs", str(tmp_path / "g.graphml"), str(tmp_path / "p.graphml"), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    want = gadjid_scores([("a", "b")], [("b", "a")], ["a", "b", "d"])
    assert row["n_events"] == 3 and {k: row[k] for k in want} == want
    assert (row["shd"], row["shd_norm"], row["sid"], row["sid_norm"]) == (1, 1 / 3, 2, 2 / 6)


def test_graphs_without_a_shared_event_are_scored_with_a_note(tmp_path, capsys):
    nx.write_gml(nx.DiGraph([("a", "b"), ("b", "c")]), tmp_path / "g.gml")
    nx.write_gml(nx.DiGraph([("x", "y")]), tmp_path / "p.gml")
    assert main(["compare-graphs", str(tmp_path / "g.gml"), str(tmp_path / "p.gml"), "--format", "json",
                 "--align", "exact"]) == 0
    out, err = capsys.readouterr()
    (row,) = json.loads(out)
    want = gadjid_scores([("a", "b"), ("b", "c")], [("x", "y")], ["a", "b", "c", "x", "y"])
    assert {k: row[k] for k in want} == want and (row["shd"], row["sid"]) == (3, 3)
    assert err == ("causalgraph compare-graphs: note: 1 statement shares no event between gold and prediction "
                   "(events match by exact name), so every edge of both counts as an error: g\n")


def test_every_gold_statement_is_a_row_and_fewer_than_two_events_leave_the_shares_undefined():
    from causalgraph.metrics.graph_scores import compare_corpora
    from causalgraph.model import Corpus, Relation, Statement

    gold = Corpus("g", [Statement("s1", "t", True, (Relation("a", "b"),)), Statement("s2", "u", False, ())])
    pred = Corpus("p", [Statement("s1", "t", True, (Relation("a", "b"),)),
                        Statement("s2", "u", True, (Relation("a", "b"),))])
    rows, notes = compare_corpora(gold, pred)
    assert [(r["statement_id"], r["shd"], r["shd_norm"]) for r in rows] == [("s1", 0, 0.0), ("s2", 1, 1.0)]
    rows, notes = compare_corpora(gold, Corpus("p", [pred["s1"], Statement("s2", "u", False, ())]))
    assert rows[1]["n_events"] == 0 and rows[1]["shd"] == 0 and rows[1]["sid"] == 0
    assert math.isnan(rows[1]["shd_norm"]) and math.isnan(rows[1]["sid_norm"])
    assert notes == ["1 statement has fewer than two events, so no pair: their *_norm scores are undefined "
                     "(NaN): s2"]
    # evaluate-extraction keeps its documented rule: one row per gold row with pairs
    assert [r["statement_id"] for r in compare_corpora(gold, pred, edgeless=False)[0]] == ["s1"]
