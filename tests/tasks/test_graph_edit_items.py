"""Items on counterfactual graphs: golds recomputed on the edited graph, checked against networkx."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from causalgraph.cli import main
from causalgraph.encodings import decode
from causalgraph.errors import ConfigError
from causalgraph.model import Relation, Statement
from causalgraph.tasks import get_task

TOY = [Statement("s1", "t", True, (Relation("a", "b"), Relation("b", "c"), Relation("c", "d"))),
       Statement("s2", "t", True, (Relation("x", "y"), Relation("z", "y"), Relation("y", "w")))]


def _position(G: nx.DiGraph, v) -> str:
    """The paper's chain position, from networkx paths: a chain is a simple path of >= 3 nodes."""
    def chain_from(u, graph):
        return any(len(p) >= 3 for t in graph if t != u for p in nx.all_simple_paths(graph, u, t, cutoff=2))

    preds = set(G.predecessors(v)) - {v}
    succs = set(G.successors(v)) - {v}
    if not preds and chain_from(v, G):
        return "start"
    if not succs and chain_from(v, G.reverse()):
        return "end"
    if any(p != s for p in preds for s in succs):
        return "middle"
    return "none"


def _nx_graph(st: Statement) -> nx.DiGraph:
    G = nx.DiGraph()
    for r in st.relations:
        G.add_edge(r.cause, r.effect)
    return G


def _causal(corpus):
    return [s for s in corpus.statements if s.causal and s.relations]


def _prompt_graph(prompt: str, events) -> nx.DiGraph:
    text = re.search(r"are- (.*)\. Based on this graph", prompt, re.S).group(1)
    g = decode(text, "adjacency", nodes=list(events))
    return nx.DiGraph(g.pairs)


def _items_cli(capsys, *args):
    assert main(["items", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_reverse_golds_are_networkx_positions_on_every_reversed_graph(climatecause, capsys, monkeypatch):
    items = _items_cli(capsys, "--task", "ccr-position", "--variant", "A_5", "--graph-edit", "reverse")
    statements = {s.id: s for s in _causal(climatecause)}
    assert len(statements) == 63 and {it["meta"]["statement_id"] for it in items} == set(statements)
    assert len(items) == 512
    for it in items:
        st = statements[it["meta"]["statement_id"]]
        R = _nx_graph(st).reverse()
        assert it["variant"] == "A_5.reverse" and it["meta"]["graph_edit"] == "reverse"
        assert it["gold"] == _position(R, it["meta"]["event"]), it["id"]
        assert nx.utils.graphs_equal(_prompt_graph(it["prompt"], R.nodes), R)
    # Reversal swaps start and end.
    real = {it["id"].replace("A_5/", "A_5.reverse/"): it["gold"]
            for it in _items_cli(capsys, "--task", "ccr-position", "--variant", "A_5")}
    swap = {"start": "end", "end": "start", "middle": "middle", "none": "none"}
    assert all(it["gold"] == swap[real[it["id"]]] for it in items)


def test_shuffle_shows_an_isomorphic_graph_and_golds_are_its_positions(climatecause, capsys):
    items = _items_cli(capsys, "--task", "ccr-position", "--variant", "A_5", "--graph-edit", "shuffle")
    statements = {s.id: s for s in _causal(climatecause)}
    changed = 0
    for it in items:
        st = statements[it["meta"]["statement_id"]]
        G = _nx_graph(st)
        H = _prompt_graph(it["prompt"], G.nodes)
        assert set(H.nodes) == set(G.nodes)
        assert nx.is_isomorphic(G, H), it["id"]
        assert nx.utils.graphs_equal(nx.relabel_nodes(G, it["meta"]["permutation"]), H)
        assert it["gold"] == _position(H, it["meta"]["event"]), it["id"]
        changed += set(H.edges) != set(G.edges)
    # Every statement's graph states other causes once shuffled.
    assert changed == len(items)


def test_membership_under_an_edit_is_the_position_collapsed(climatecause):
    member = get_task("ccr-member").items(climatecause, "SN_5", graph_edit="shuffle", event_names="nonsense")
    position = get_task("ccr-position").items(climatecause, "SN_5", graph_edit="shuffle", event_names="nonsense")
    assert [m.gold for m in member] == ["no" if p.gold == "none" else "yes" for p in position]
    assert member[0].variant == "SN_5.nonsense.shuffle"
    assert member[0].meta["real_event"] in member[0].meta["permutation"]


def test_real_leaves_every_item_as_it_was(climatecause):
    for task, variant in (("ccr-position", "A_5"), ("ccr-member", "ML_4.letters"), ("ccr-eci-member", "F_5"),
                          ("parents", "A_1"), ("reachability", "SN_2.integer")):
        spec = get_task(task)
        assert [i.to_dict() for i in spec.items(climatecause, variant, graph_edit="real")] == \
            [i.to_dict() for i in spec.items(climatecause, variant)]


def test_edits_combine_with_every_encoding_and_names_and_keep_item_keys():
    spec = get_task("ccr-position")
    for enc in ("adjacency", "single-node", "graphml", "json", "multinode", "matrix"):
        for names in ("real", "integer", "letters", "nonsense"):
            real = spec.items(TOY, "A_5", encoding=enc, event_names=names)
            rev = spec.items(TOY, "A_5", encoding=enc, event_names=names, graph_edit="reverse")
            assert [i.id.split("/", 2)[2] for i in rev] == [i.id.split("/", 2)[2] for i in real]
            assert rev[0].variant.endswith(".reverse")
            assert [i.gold for i in rev] == [{"start": "end", "end": "start"}.get(i.gold, i.gold) for i in real]


def test_structure_golds_come_from_the_edited_graph():
    spec = get_task("parents")
    real = spec.items(TOY, "A_1")
    rev = spec.items(TOY, "A_1", graph_edit="reverse")
    children = get_task("children").items(TOY, "A_1")
    assert [sorted(i.gold) for i in rev] == [sorted(c.gold) for c in children]
    assert [i.id.replace(".reverse", "") for i in rev] == [i.id for i in real]
    shuffled = spec.items(TOY, "A_1", graph_edit="shuffle")
    for it in shuffled:
        perm = it.meta["permutation"]
        G = nx.relabel_nodes(nx.DiGraph([(r.cause, r.effect) for st in TOY if st.id == it.meta["statement_id"]
                                         for r in st.relations]), perm)
        assert sorted(it.gold) == sorted(G.predecessors(it.meta["event"]))


def test_reachability_under_reversal_asks_the_same_number_of_pairs():
    real = get_task("reachability").items(TOY, "A_1")
    rev = get_task("reachability").items(TOY, "A_1", graph_edit="reverse")
    assert len(rev) == len(real)
    for it in rev:
        st = next(s for s in TOY if s.id == it.meta["statement_id"])
        R = _nx_graph(st).reverse()
        assert it.gold == ("yes" if nx.has_path(R, it.meta["event"], it.meta["event_j"]) else "no")


@pytest.mark.parametrize("task,variant,message", [
    ("ccr-eci-member", "F_5", "its prompt holds no graph"),
    ("corri", "0_1", "task corri takes no graph edit"),
    ("ccr-position", "A_5.shuffle", "edits the graph ('shuffle') but graph edit 'reverse' was asked"),
])
def test_prompts_that_cannot_show_the_edit_are_refused(task, variant, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        get_task(task).items(TOY, variant, graph_edit="reverse")


def test_the_cli_refuses_in_one_line(capsys):
    assert main(["items", "--data", "sample", "--task", "ccr-eci-member", "--variant", "F_5",
                 "--graph-edit", "shuffle"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cannot take graph edit 'shuffle'" in err
