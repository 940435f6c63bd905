"""Benchmark items: counts, golds, ids and prompts for every task."""

from __future__ import annotations

import collections
import json

import pytest

from causalgraph import compile_graph
from causalgraph.tasks.climatecause import items
from causalgraph.tasks.climatecause import multihop_chains
from causalgraph.cli.items import write_openai_batch
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.metrics.chains import chain_stats
from causalgraph.model import Correlation, Relation, Statement
from causalgraph.prompts import get_variant, list_variants

P, N = Correlation.POSITIVE, Correlation.NEGATIVE


@pytest.fixture
def toy():
    """a -(+)-> b -(-)-> c -(-)-> d, plus x -> y with both signs (conflicting)."""
    s1 = Statement("t-1", "A raises B, which lowers C, which lowers D.", True, (
        Relation("a", "b", correlation=P, source_row=2), Relation("b", "c", correlation=N, source_row=3),
        Relation("c", "d", correlation=N, source_row=4)))
    s2 = Statement("t-2", "X affects Y which raises Z.", True, (
        Relation("x", "y", correlation=P, source_row=5), Relation("x", "y", correlation=N, source_row=6),
        Relation("y", "z", correlation=P, source_row=7)))
    s3 = Statement("t-3", "Nothing causal here.", False)
    return [s1, s2, s3]


def test_items_corri_one_per_relation_row_in_data_order(toy):
    its = items(toy, "corri", "0_1")
    assert [i.id for i in its] == ["corri/0_1/t-1/r000", "corri/0_1/t-1/r001", "corri/0_1/t-1/r002",
                                   "corri/0_1/t-2/r000", "corri/0_1/t-2/r001", "corri/0_1/t-2/r002"]
    assert [i.gold for i in its] == ["positive", "negative", "negative", "positive", "negative", "positive"]
    assert its[1].prompt == "[MASK] in {positive, negative}. There is a [MASK] correlation between b and c."
    assert its[1].meta == {"statement_id": "t-1", "relation_index": 1, "source_row": 3, "cause": "b", "effect": "c",
                           "prompts": "authors"}
    # The printed tables' items carry the meta runs always had (no catalog: they are tables items).
    assert items(toy, "corri", "0_1", prompts="tables")[1].meta == {
        "statement_id": "t-1", "relation_index": 1, "source_row": 3, "cause": "b", "effect": "c"}


def test_items_corri_rc_inserts_statement(toy):
    it = items(toy, "corri-rc", "RC_0_1")[0]
    assert it.prompt == ("[MASK] in {positive, negative}. Statement: A raises B, which lowers C, which lowers D.. "
                         "The statement reports a [MASK] correlation between a and b.")
    assert it.variant == "RC_0_1" and it.id == "corri-rc/RC_0_1/t-1/r000"


def test_items_corri_missing_correlation_raises_with_row():
    st = Statement("t-9", "A causes B.", True, (Relation("a", "b", source_file="f.xlsx", source_row=12),))
    with pytest.raises(SchemaError, match=r"f.xlsx, row 12: statement t-9 relation 0 .* no correlation"):
        items([st], "corri", "0_1")


def test_items_corri_on_a_json_corpus_names_the_record():
    st = Statement("pmc-3", "A causes B.", True, (Relation("a", "b", source_file="test.json", source_row=3),))
    with pytest.raises(SchemaError, match=r"test.json, record 3: statement pmc-3 relation 0 .* no correlation"):
        items([st], "corri", "0_1")


def test_items_ccr_member_graph_prompt(toy):
    its = items(toy, "ccr-member", "A_5")
    assert [i.id for i in its][:4] == ["ccr-member/A_5/t-1/e000", "ccr-member/A_5/t-1/e001",
                                       "ccr-member/A_5/t-1/e002", "ccr-member/A_5/t-1/e003"]
    assert [i.gold for i in its] == ["yes"] * 4 + ["yes"] * 3
    assert its[2].prompt.startswith("The causal relationships in a causal graph are- (a, b) (b, c) (c, d). "
                                    "Based on this graph, determine whether c belongs to a causal chain.")


def test_items_ccr_single_node_is_followed_by_a_space_only_in_the_tables(toy):
    it = items(toy, "ccr-position", "SN_6", prompts="tables")[0]
    assert it.prompt.startswith("The given causal graph includes the following causal relations: a causes b. "
                                "b causes c. c causes d. Study this graph carefully")
    assert it.gold == "start"


def test_items_ccr_single_node_gets_the_authors_second_full_stop_where_their_template_has_one(toy):
    # CCR_position_SN_6 reads "{G_SN}. Study": single-node text already ends in a full stop.
    it = items(toy, "ccr-position", "SN_6")[0]
    assert it.prompt.startswith("The given causal graph includes the following causal relations: a causes b. "
                                "b causes c. c causes d.. Study this graph carefully, and decide whether there the "
                                "graph contains")
    # CCR_member_SN_6 reads "{G_SN} Study".
    assert "c causes d. Study this graph carefully" in items(toy, "ccr-member", "SN_6")[0].prompt


def test_items_ccr_graphml_keeps_the_writers_newline_before_the_period(toy):
    # The authors inserted networkx's whole GraphML document (ending in a newline) and then ". ".
    it = items(toy, "ccr-member", "ML_4")[0]
    assert "</graph>\n</graphml>\n. Now answer using this causal graph only" in it.prompt


@pytest.fixture
def reordered():
    """heat -> drought, drought -> yields, heat -> fires: the authors' order puts heat -> fires second."""
    return [Statement("t-5", "Heat brings drought, which lowers yields, and fires.", True, (
        Relation("heat", "drought", correlation=P), Relation("drought", "yields", correlation=N),
        Relation("heat", "fires", correlation=P)))]


def test_items_ccr_graphs_follow_the_authors_edge_order_by_default(reordered):
    it = items(reordered, "ccr-member", "A_5")[0]
    assert it.prompt.startswith("The causal relationships in a causal graph are- (heat, drought) (heat, fires) "
                                "(drought, yields). Based on this graph")
    assert it.meta["edge_order"] == "paper"
    it = items(reordered, "ccr-member", "SN_5")[0]
    assert it.prompt.startswith("The causal relationships in a causal graph are- heat causes drought. "
                                "heat causes fires. drought causes yields. Based on this graph")


def test_items_ccr_data_order_is_an_explicit_option(reordered):
    paper = items(reordered, "ccr-member", "A_5")
    data = items(reordered, "ccr-member", "A_5", order="data")
    assert data[0].prompt.startswith("The causal relationships in a causal graph are- (heat, drought) "
                                     "(drought, yields) (heat, fires). Based on this graph")
    assert data[0].meta["edge_order"] == "data"
    # same items, same golds: only the graph text differs
    assert [(i.id, i.gold) for i in data] == [(i.id, i.gold) for i in paper]
    with pytest.raises(ConfigError, match="unknown edge order 'random'"):
        items(reordered, "ccr-member", "A_5", order="random")
    # tasks without a graph in the prompt carry no edge order
    assert "edge_order" not in items(reordered, "ccr-eci-member", "0_4")[0].meta


def test_items_ccr_eci_event_list(toy):
    it = items(toy, "ccr-eci-position", "0_6")[5]
    assert it.prompt.startswith('The following list of causal events [x, y, z] can be found in statement '
                                '"X affects Y which raises Z.". Does the statement report a causal chain '
                                'structure that includes y and')
    assert (it.gold, it.meta["event"], it.meta["statement_id"]) == ("middle", "y", "t-2")


def test_items_rule_changes_golds():
    st = Statement("t-4", "…", True, (Relation("a", "b", correlation=P), Relation("b", "c", correlation=P),
                                       Relation("a", "c", correlation=P)))
    assert [i.gold for i in items([st], "ccr-position", "A_5")] == ["start", "middle", "end"]
    assert [i.gold for i in items([st], "ccr-position", "A_5", rule="shortest-distance")] == ["none", "middle", "none"]


def test_items_unknown_task_or_rule_raises(toy):
    with pytest.raises(ConfigError, match="unknown task 'ccr'"):
        items(toy, "ccr", "A_5")
    with pytest.raises(ConfigError, match="unknown chain rule"):
        items(toy, "ccr-member", "A_5", rule="bfs")
    with pytest.raises(ConfigError, match="does not belong to task corri"):
        items(toy, "corri", get_variant("ccr-member", "A_5"))


def test_multihop_chains_compose_signs(toy):
    g = compile_graph(toy[0])
    got = [(c.index, c.events, c.composed) for c in multihop_chains(g)]
    # a-b-c: + · - = -; a-b-c-d: + · - · - = +; b-c-d: - · - = +
    assert got == [(0, ("a", "b", "c"), "negative"), (1, ("a", "b", "c", "d"), "positive"),
                   (2, ("b", "c", "d"), "positive")]


def test_multihop_chains_skip_ambiguous_edges_but_keep_indices(toy):
    g = compile_graph(toy[1])
    assert multihop_chains(g) == []  # the only chain x-y-z runs over the conflicting x->y pair


def test_multihop_chains_limit(toy):
    with pytest.raises(ConfigError, match="has 3 chains, more than max_chains=2"):
        multihop_chains(compile_graph(toy[0]), max_chains=2)


def test_items_corri_multihop_prompt_and_gold(toy):
    its = items(toy, "corri-multihop", "0_2")
    assert [i.id for i in its] == ["corri-multihop/0_2/t-1/p0000", "corri-multihop/0_2/t-1/p0001",
                                   "corri-multihop/0_2/t-1/p0002"]
    assert its[0].prompt == (
        "[MASK] in {same, opposite}. Causal chain: When we would intervene in a, a and b change in the same "
        "direction. When we would intervene in b, b and c change in the opposite direction. a impact(s) c "
        "through this causal chain. When we would intervene in a, a and c change in the [MASK] direction.")
    assert its[0].gold == "negative" and its[0].meta["hops"] == 2


def test_write_openai_batch_lines(toy, tmp_path):
    its = items(toy, "corri", "CoT_1")
    path = tmp_path / "batch.jsonl"
    assert write_openai_batch(its, path, "gpt-5.1") == 6
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0] == {"custom_id": "corri/CoT_1/t-1/r000", "method": "POST", "url": "/v1/chat/completions",
                        "body": {"model": "gpt-5.1", "messages": [{"role": "user", "content": its[0].prompt}]}}
    assert len({x["custom_id"] for x in lines}) == 6


def test_write_openai_batch_needs_model(toy, tmp_path):
    with pytest.raises(ConfigError, match="needs --model"):
        write_openai_batch([], tmp_path / "b.jsonl", None)


# -- the real corpus ------------------------------------------------------------

def test_items_corri_on_climatecause(climatecause):
    its = items(climatecause, "corri", "F_3")
    assert len(its) == 874
    expected = collections.Counter(r.correlation.value for s in climatecause.statements for r in s.relations)
    assert collections.Counter(i.gold for i in its) == expected
    assert len({i.id for i in its}) == 874


@pytest.mark.parametrize("task", ["ccr-member", "ccr-eci-member", "ccr-position", "ccr-eci-position"])
def test_items_ccr_on_climatecause_match_paper_distribution(climatecause, task):
    paper = {"member": {"yes": 115, "no": 397}, "position": {"start": 32, "middle": 48, "end": 35, "none": 397}}
    for v in list_variants(task)[:1]:
        its = items(climatecause, task, v.id)
        assert len(its) == 512 and len({i.id for i in its}) == 512
        assert collections.Counter(i.gold for i in its) == paper[task.rsplit("-", 1)[1]]


def test_items_ids_are_stable(climatecause):
    a = items(climatecause, "ccr-eci-member", "F_5")
    b = items(climatecause, "ccr-eci-member", "F_5")
    assert [(i.id, i.prompt, i.gold) for i in a] == [(i.id, i.prompt, i.gold) for i in b]


def test_items_multihop_on_climatecause_golds_are_sign_products(climatecause):
    its = items(climatecause, "corri-multihop", "0_1")
    # 203 chains in the 63 graphs (counted by chain_stats); exactly one runs through a pair annotated
    # with both correlation signs (cc-065), so 202 items, numbered over all 203 chains
    total = sum(chain_stats(compile_graph(s)).n_chains for s in climatecause.statements if s.causal)
    assert total == 203 and len(its) == 202
    assert collections.Counter(len(i.meta["events"]) - 1 for i in its) == {2: 152, 3: 50}
    for it in its:
        negatives = it.meta["edge_correlations"].count("negative")
        assert it.gold == ("negative" if negatives % 2 else "positive")
        assert len(it.meta["events"]) >= 3


# -- the paper's prompts, rebuilt from the spreadsheet rows without causalgraph's loader or graph code --------

def _spreadsheet_statements(path):
    """(text, rows, DiGraph) of each causal statement in sheet order, as the authors' scripts built them:
    ``add_edge(Cause_no_quantifier, Effect_no_quantifier)`` for every row of the statement."""
    import networkx as nx
    import pandas as pd

    df = pd.read_excel(path)
    df = df[df["Causal?"] == "Yes"]
    out: dict[str, tuple[list, nx.DiGraph]] = {}
    for _, row in df.iterrows():
        rows, g = out.setdefault(row["ipccText"], ([], nx.DiGraph()))
        rows.append(row)
        g.add_edge(row["Cause_no_quantifier"], row["Effect_no_quantifier"])
    return [(text, rows, g) for text, (rows, g) in out.items()]


def _graph_texts(g, catalog):
    """The graph arguments of the authors' create_batch_files.py (networkx's edge order, nx.write_graphml);
    the printed tables write ``${graph}`` without the full stop their code put after adjacency and GraphML."""
    import io

    import networkx as nx

    buf = io.BytesIO()
    nx.write_graphml_xml(g, buf)
    stop = "." if catalog == "tables" else ""
    return {"adjacency": " ".join(f"({u}, {v})" for u, v in g.edges()) + stop,
            "single-node": " ".join(f"{u} causes {v}." for u, v in g.edges()),
            "graphml": buf.getvalue().decode("utf-8") + stop}


@pytest.mark.parametrize("catalog", ["authors", "tables"])
@pytest.mark.parametrize("task", ["ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position",
                                  "corri", "corri-rc"])
def test_every_paper_variant_renders_the_prompts_built_from_the_spreadsheet(task, catalog, climatecause,
                                                                           climatecause_path):
    import string

    statements = _spreadsheet_statements(climatecause_path)
    variants = list_variants(task, catalog)
    assert len(variants) == 9
    for v in variants:
        tpl = string.Template(v.template)
        expected = []
        for text, rows, g in statements:
            if task.startswith("corri"):
                for row in rows:
                    values = {"e_i": row["Cause_no_quantifier"], "e_j": row["Effect_no_quantifier"], "s": text}
                    expected.append(tpl.substitute({k: values[k] for k in v.placeholders}))
                continue
            values = {"s": text, "event_list": "[" + ", ".join(g.nodes()) + "]"}
            if v.encoding:
                values["graph"] = _graph_texts(g, catalog)[v.encoding]
            for event in g.nodes():
                values["e_i"] = event
                expected.append(tpl.substitute({k: values[k] for k in v.placeholders}))
        ours = [it.prompt for it in items(climatecause, task, v.id, prompts=catalog)]
        assert len(ours) == (874 if task.startswith("corri") else 512), (task, v.id)
        assert ours == expected, (task, v.id)
