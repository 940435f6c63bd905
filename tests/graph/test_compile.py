"""compile_graph: causal edges, conflicting pairs, belongs-to views, nesting, conversions."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from causalgraph import ConfigError, Correlation, Polarity, Relation, Statement, compile_graph
from causalgraph.graph import as_graph, is_graph_source

P, N = Correlation.POSITIVE, Correlation.NEGATIVE


def rel(c, e, corr=P, pol=Polarity.POSITIVE, **kw):
    return Relation(cause=c, effect=e, correlation=corr, polarity=pol, **kw)


def test_compile_graph_orders_nodes_and_edges_by_first_appearance():
    s = Statement("s", "t", True, (rel("b", "c"), rel("a", "b"), rel("b", "c"), rel("c", "d")))
    g = compile_graph(s)
    assert g.nodes == ("b", "c", "a", "d")
    assert g.pairs == [("b", "c"), ("a", "b"), ("c", "d")]
    assert len(g.edge("b", "c").relations) == 2
    assert g.successors("b") == ["c"] and g.predecessors("b") == ["a"]
    assert g.out_degree("a") == 1 and g.in_degree("a") == 0


def test_compile_graph_keeps_and_flags_conflicting_pair():
    s = Statement("s", "t", True, (rel("a", "b", P), rel("a", "b", N, Polarity.POSITIVE)))
    e = compile_graph(s).edge("a", "b")
    assert e.correlations == (P, N) and e.correlation is None
    assert e.conflicting and e.conflicting_correlation and not e.conflicting_polarity
    assert e.attributes()["correlation"] == "conflicting"
    assert e.polarity is Polarity.POSITIVE


def test_compile_graph_belongs_to_views_split_by_combined_and_nested():
    s = Statement("s", "t", True, (
        rel("x", "y", cause_belongs_to="X", combined=True),
        rel("z", "y", cause_belongs_to="X", combined=True),
        rel("p", "q", effect_belongs_to="Q", combined=False, nested=False),
        rel("f", "co2", effect_belongs_to="CO2-FFI", combined=False, nested=True),
        rel("i", "co2", effect_belongs_to="CO2-FFI", combined=False, nested=True),
        rel("i", "co2", effect_belongs_to="CO2-FFI", combined=False, nested=True),  # identical: counts once
        rel("u", "v", cause_belongs_to="U"),  # Combined empty: in no view
    ))
    g = compile_graph(s)
    assert [(b.event, b.overarching, b.role) for b in g.common] == [("x", "X", "cause"), ("z", "X", "cause")]
    assert [(b.event, b.overarching, b.role) for b in g.elaboration] == [("q", "Q", "effect")]
    assert list(g.nesting) == ["CO2-FFI"]
    assert [(r.cause, r.effect) for r in g.nesting["CO2-FFI"]] == [("f", "co2"), ("i", "co2")]


def test_compile_graph_np_form_uses_noun_phrases():
    s = Statement("s", "t", True, (Relation("warming", "loss", cause_np="more warming", effect_np="big loss"),))
    assert compile_graph(s, node="np").nodes == ("more warming", "big loss")
    with pytest.raises(ConfigError, match="unknown node form 'raw'"):
        compile_graph(s, node="raw")


def test_to_networkx_and_rustworkx_agree_with_graph():
    s = Statement("s", "t", True, (rel("a", "b"), rel("b", "c", N), rel("a", "c")))
    g = compile_graph(s)
    nxg = g.to_networkx()
    assert list(nxg.nodes) == ["a", "b", "c"]
    assert list(nxg.edges) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert nxg.edges["b", "c"]["correlation"] == "negative"
    rx = g.to_rustworkx()
    assert [rx[i] for i in rx.node_indices()] == ["a", "b", "c"]
    assert sorted((rx[a], rx[b]) for a, b in rx.edge_list()) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_compile_graph_real_corpus_edges_and_conflicts_match_a_pandas_count(climatecause, climatecause_path):
    import pandas as pd

    # Independent count straight from the spreadsheet: distinct (text, cause, effect) among causal rows,
    # and those whose rows carry more than one correlation or relation-type value.
    df = pd.read_excel(climatecause_path)
    df = df[df["Causal?"] == "Yes"]
    keys = ["ipccText", "Cause_no_quantifier", "Effect_no_quantifier"]
    corr = df.columns[df.columns.str.startswith("Correlation")][0]
    pol = df.columns[df.columns.str.startswith("Causation:")][0]
    groups = df.groupby(keys)
    expected_conflicts = int(((groups[corr].nunique() > 1) | (groups[pol].nunique() > 1)).sum())

    graphs = [compile_graph(s) for s in climatecause]
    assert sum(len(g.edges) for g in graphs) == groups.ngroups == 665
    # the pairs that carry both signs are kept and flagged, not resolved
    assert sum(len(g.conflicting_edges) for g in graphs) == expected_conflicts == 3


def test_compile_graph_output_independent_of_hash_seed(climatecause_path):
    code = (
        "import causalgraph as cg, sys\n"
        f"c = cg.load_climatecause({str(climatecause_path)!r})\n"
        "for s in c:\n"
        "    g = cg.compile_graph(s)\n"
        "    print(s.id, g.nodes, g.pairs, [(b.event, b.overarching) for b in g.common + g.elaboration],"
        " list(g.nesting))\n"
    )
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1


# --- blank events (issue #13) ---------------------------------------------------------

BLANKS = ["", " ", "\t\n", "\u200b", "\ufeff \u2060"]


@pytest.mark.parametrize("blank", BLANKS, ids=["empty", "space", "tab-newline", "zero-width-space", "bom-joiner"])
@pytest.mark.parametrize("role", ["cause", "effect"])
def test_compile_graph_rejects_a_blank_event_naming_the_relation(blank, role):
    from causalgraph import SchemaError

    bad = rel("a", blank, source_file="cc.csv", source_row=7) if role == "effect" else rel(blank, "b")
    s = Statement("s9", "t", True, (rel("a", "b"), bad))
    with pytest.raises(SchemaError) as info:
        compile_graph(s)
    assert isinstance(info.value, ValueError)
    src = " from cc.csv row 7" if role == "effect" else ""
    assert str(info.value) == (f"statement s9, relation 2 ({bad.cause!r} -> {bad.effect!r}{src}), {role}: found "
                               f"{blank!r}; expected an event name (text that shows something)")


def test_compile_graph_rejects_a_missing_event_and_a_blank_belongs_to():
    from causalgraph import SchemaError

    with pytest.raises(SchemaError, match=r"relation 1 \(None -> 'b'\), cause: found None; expected an event name"):
        compile_graph([rel(None, "b")])
    with pytest.raises(SchemaError, match=r"relation 1 \('a' -> 'b'\), effect_belongs_to: found ' '; expected an "
                                          r"event name \(text that shows something\) or None"):
        compile_graph([rel("a", "b", combined=True, effect_belongs_to=" ")])


def test_compile_graph_np_form_falls_back_to_the_event_for_a_blank_noun_phrase():
    g = compile_graph([rel("warming", "ice loss", cause_np=" ", effect_np="the ice loss")], node="np")
    assert g.pairs == [("warming", "the ice loss")]


# -- as_graph: the one coercion of metrics and graph pages ---------------------

def test_as_graph_compiles_a_statement_or_relations_and_returns_a_graph_as_it_is():
    rels = (rel("a", "b"), rel("b", "c", N))
    st = Statement("s9", "A raises B, B lowers C.", True, rels)
    assert as_graph(st) == compile_graph(st) and as_graph(st).statement_id == "s9"
    assert as_graph(list(rels)) == as_graph(rels) == compile_graph(rels)
    g = compile_graph(st, node="np")
    assert as_graph(g) is g and as_graph(g, "np") is g


def test_as_graph_compiles_with_the_node_form_asked_for_and_refuses_a_graph_of_another():
    st = Statement("s1", "t", True, (Relation("a", "b", cause_np="the a", effect_np="some b"),))
    assert as_graph(st, "np").nodes == ("the a", "some b")
    assert as_graph(st).nodes == ("a", "b")
    with pytest.raises(ConfigError, match="^complexity is defined on no-quantifier events; the graph of s1 was "
                                          "compiled with node='np'$"):
        as_graph(compile_graph(st, node="np"), "no_quantifier", purpose="complexity")


@pytest.mark.parametrize("obj", ["a -> b", [("a", "b")], {"a": "b"}, None, [Relation("a", "b"), ("b", "c")]])
def test_as_graph_refuses_anything_else_naming_its_type(obj):
    assert not is_graph_source(obj)
    with pytest.raises(ConfigError, match=f"got {type(obj).__name__}$"):
        as_graph(obj)
