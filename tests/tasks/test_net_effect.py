"""net-effect: golds and features against networkx path enumeration, on random graphs and every ClimateCause statement."""

from __future__ import annotations

import re
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph import compile_graph
from causalgraph.cli import main
from causalgraph.encodings import decode
from causalgraph.errors import ConfigError, CycleLimitExceeded
from causalgraph.model import Correlation, Polarity, Relation, Statement
from causalgraph.tasks import get_task
from causalgraph.tasks.net_effect import net_effects

P, N = Correlation.POSITIVE, Correlation.NEGATIVE
CAUSE, PREVENT = Polarity.POSITIVE, Polarity.NEGATIVE
EVENTS = [f"e{i}" for i in range(7)]


@st.composite
def relations(draw, cyclic=True):
    """Relations over 2-7 events with random correlation (maybe none) and relation type; pairs may repeat."""
    n = draw(st.integers(2, 7))
    out = []
    for a, b, c, p in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1),
                                              st.sampled_from([P, N, P, N, None]),
                                              st.sampled_from([CAUSE, CAUSE, CAUSE, PREVENT, None])),
                                    min_size=1, max_size=14)):
        if not cyclic and a >= b:
            a, b = min(a, b), max(a, b)
            if a == b:
                continue
        out.append(Relation(EVENTS[a], EVENTS[b], correlation=c, polarity=p))
    return out or [Relation("e0", "e1", correlation=P, polarity=CAUSE)]


def _reference(rels):
    """Per ordered pair: (#positive, #negative, #unsignable) simple paths, hops, negative edges, by networkx."""
    corr: dict = {}
    pol: dict = {}
    for r in rels:
        corr.setdefault((r.cause, r.effect), set()).add(r.correlation)
        pol.setdefault((r.cause, r.effect), set()).add(r.polarity)
    G = nx.DiGraph()
    G.add_nodes_from([e for r in rels for e in (r.cause, r.effect)])
    sign = {}
    for pair in corr:
        # A pair's labels are those of its labelled relations (as the graph's edge labels are).
        types, signs = pol[pair] - {None}, corr[pair] - {None}
        if pair[0] == pair[1] or types == {PREVENT}:
            continue  # a prevention cuts; a self-loop is on no simple path
        G.add_edge(*pair)
        ok = types == {CAUSE} and len(signs) == 1
        sign[pair] = next(iter(signs)).sign if ok else 0
    out = {}
    for a in G:
        for b in G:
            if a == b:
                continue
            paths = list(nx.all_simple_paths(G, a, b))
            if not paths:
                continue
            counts = Counter()
            negative = set()
            for p in paths:
                s = 1
                for e in zip(p, p[1:]):
                    s *= sign[e]
                    if sign[e] < 0:
                        negative.add(e)
                counts[s] += 1
            out[(a, b)] = (counts[1], counts[-1], counts[0], min(map(len, paths)) - 1, max(map(len, paths)) - 1,
                           len(negative))
    return out


def _ours(g):
    return {k: (e.positive, e.negative, e.ambiguous, e.hops_min, e.hops_max, e.negative_edges)
            for k, e in net_effects(g).items()}


@given(relations(cyclic=False))
@settings(max_examples=150, deadline=None)
def test_dynamic_programming_counts_the_signed_simple_paths_of_a_dag(rels):
    assert _ours(compile_graph(rels)) == _reference(rels)


@given(relations(cyclic=True))
@settings(max_examples=150, deadline=None)
def test_the_search_through_cycles_counts_the_same_paths(rels):
    assert _ours(compile_graph(rels)) == _reference(rels)


def test_a_ladder_of_diamonds_is_counted_without_enumerating():
    rels = []
    for i in range(60):  # a_i -> (x_i | y_i) -> a_{i+1}; the y branch negative twice, so every path is positive
        rels += [Relation(f"a{i}", f"x{i}", correlation=P, polarity=CAUSE),
                 Relation(f"x{i}", f"a{i + 1}", correlation=P, polarity=CAUSE),
                 Relation(f"a{i}", f"y{i}", correlation=N, polarity=CAUSE),
                 Relation(f"y{i}", f"a{i + 1}", correlation=N, polarity=CAUSE)]
    e = net_effects(compile_graph(rels))[("a0", "a60")]
    assert (e.positive, e.negative, e.label, e.hops_min, e.negative_edges) == (2 ** 60, 0, "increase", 120, 120)


def test_a_cyclic_graph_beyond_the_limit_raises():
    rels = [Relation(f"n{i}", f"n{j}", correlation=P, polarity=CAUSE) for i in range(9) for j in range(9) if i != j]
    with pytest.raises(CycleLimitExceeded, match="cycle_limit=1000"):
        net_effects(compile_graph(rels), cycle_limit=1000)


def _labels(counts):
    pos, neg, amb = counts[:3]
    if amb or not (pos or neg):
        return None
    return "mixed" if pos and neg else "increase" if pos else "decrease"


def test_every_climatecause_item_is_networkx_on_the_spreadsheet_rows(climatecause):
    task = get_task("net-effect")
    its = task.items(climatecause, "A_1")
    by_stmt: dict = {}
    for it in its:
        by_stmt.setdefault(it.meta["statement_id"], []).append(it)
    expected_total = 0
    for stmt in climatecause.statements:
        if not (stmt.causal and stmt.relations):
            continue
        ref = _reference(stmt.relations)
        nodes = list(dict.fromkeys(e for r in stmt.relations for e in (r.cause, r.effect)))
        want = {(nodes.index(a), nodes.index(b)): (c, _labels(c)) for (a, b), c in ref.items() if _labels(c)}
        got = {(it.meta["event_index"], it.meta["event_j_index"]): it for it in by_stmt.get(stmt.id, [])}
        assert set(got) == set(want), stmt.id
        for key, (c, gold) in want.items():
            it = got[key]
            assert it.gold == gold
            assert (it.meta["path_signs"]["positive"], it.meta["path_signs"]["negative"]) == c[:2]
            assert (it.meta["hops"], it.meta["hops_max"], it.meta["negative_edges"]) == c[3:]
            assert it.meta["cause"] == nodes[key[0]] and it.meta["effect"] == nodes[key[1]]
        expected_total += len(want)
    assert len(its) == expected_total == 670
    assert Counter(it.gold for it in its) == {"increase": 512, "decrease": 158}


def test_the_prompt_shows_the_causes_with_their_signs_and_no_prevention(climatecause):
    its = get_task("net-effect").items(climatecause, "A_1")
    it = next(i for i in its if i.meta["n_paths"] > 1)
    stmt = climatecause[it.meta["statement_id"]]
    text = re.search(r"are- (.*)\. Each edge carries", it.prompt, re.S).group(1)
    g = decode(text, "adjacency", signs=True, nodes=list(dict.fromkeys(e for r in stmt.relations
                                                                       for e in (r.cause, r.effect))))
    causes = {(r.cause, r.effect) for r in stmt.relations if r.polarity is CAUSE}
    assert set(g.pairs) == causes


@pytest.mark.parametrize("edit", ["flip-signs", "flip-signs:1", "reverse", "shuffle"])
def test_edited_golds_are_networkx_on_the_edited_rows(climatecause, edit):
    """The edited rows are rebuilt here from what the items record (flipped pairs, permutation), not by the edit code."""
    task = get_task("net-effect")
    its = task.items(climatecause, "A_1", graph_edit=edit)
    assert its and all(it.variant == f"A_1.{edit}" for it in its)
    swap = {P: N, N: P}
    for sid in sorted({it.meta["statement_id"] for it in its})[:25]:
        stmt = climatecause[sid]
        mine = [it for it in its if it.meta["statement_id"] == sid]
        meta = mine[0].meta
        if edit.startswith("flip-signs"):
            flipped = {tuple(p) for p in meta.get("flipped", [])}
            if edit == "flip-signs":
                single = {(r.cause, r.effect) for r in stmt.relations
                          if len({x.correlation for x in stmt.relations if (x.cause, x.effect) == (r.cause, r.effect)}) == 1}
                assert flipped == single
            rels = [Relation(r.cause, r.effect, polarity=r.polarity,
                             correlation=swap[r.correlation] if (r.cause, r.effect) in flipped else r.correlation)
                    for r in stmt.relations]
        elif edit == "reverse":
            rels = [Relation(r.effect, r.cause, polarity=r.polarity, correlation=r.correlation) for r in stmt.relations]
        else:
            perm = meta["permutation"]
            rels = [Relation(perm[r.cause], perm[r.effect], polarity=r.polarity, correlation=r.correlation)
                    for r in stmt.relations]
        ref = _reference(rels)
        nodes = list(dict.fromkeys(e for r in stmt.relations for e in (r.cause, r.effect)))
        for it in mine:
            a, b = nodes[it.meta["event_index"]], nodes[it.meta["event_j_index"]]
            assert it.gold == _labels(ref[(a, b)])


def test_ids_pair_real_and_flipped_items(climatecause):
    task = get_task("net-effect")
    real = task.items(climatecause, "SN_1")
    flipped = task.items(climatecause, "SN_1.flip-signs:2")
    assert [i.id for i in real] == [i.id.replace(".flip-signs:2", "") for i in flipped]


def test_text_variants_hold_the_statement_and_refuse_edits_and_names(climatecause):
    task = get_task("net-effect")
    it = task.items(climatecause, "T_1")[0]
    assert climatecause[it.meta["statement_id"]].text in it.prompt
    for kwargs, message in [({"graph_edit": "flip-signs"}, "cannot take graph edit"),
                            ({"event_names": "letters"}, "cannot take event names"),
                            ({"encoding": "matrix"}, "takes no encoding")]:
        with pytest.raises(ConfigError, match=message):
            task.items(climatecause, "T_1", **kwargs)


def test_every_encoding_and_names_scheme_builds_and_renames(climatecause):
    task = get_task("net-effect")
    real = task.items(climatecause, "A_1")
    for v in task.list_variants():
        its = task.items(climatecause, f"{v}.nonsense" if not v.startswith("T_") else v)
        assert [i.gold for i in its] == [i.gold for i in real], v
    letters = task.items(climatecause, "DOT_1.letters")
    assert letters[0].meta["real_cause"] == real[0].meta["cause"] and letters[0].meta["cause"] != real[0].meta["cause"]
    assert real[0].meta["cause"] not in letters[0].prompt


def test_loglik_continuations_and_the_answer_parser():
    task = get_task("net-effect")
    assert task.choices("A_1.flip-signs:3") == {"increase": "increase", "decrease": "decrease", "mixed": "mixed"}
    with pytest.raises(ConfigError, match="reasoning"):
        task.choices("A_2")
    assert task.parse_answer("<Answer>mixed</Answer>", "A_2")[0] == "mixed"


def test_a_corpus_without_relation_types_is_refused(tmp_path, capsys):
    f = tmp_path / "rels.csv"
    f.write_text("statement_id,text,cause,effect,correlation\ns1,A raises B.,a,b,positive\n")
    assert main(["items", "--data", str(f), "--task", "net-effect", "--variant", "A_1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "needs 'relation_type' labels" in err


def test_cli_items(capsys):
    assert main(["items", "--data", "sample", "--task", "net-effect", "--variant", "A_1", "--graph-edit",
                 "flip-signs", "--limit", "1"]) == 0
    assert "net-effect/A_1.flip-signs/" in capsys.readouterr().out


def test_a_corpus_without_signs_is_refused_not_empty(pubmed_test):
    with pytest.raises(ConfigError, match="no path can be signed"):
        get_task("net-effect").items(pubmed_test, "A_1")
