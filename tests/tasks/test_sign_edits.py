"""flip-signs: every (or k) edge's correlation reversed; golds recomputed by sign algebra from the spreadsheet rows."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph import compile_graph
from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.graph.edits import edit_graph, flip_order, flip_signs, is_edit, parse_edit, split_edit
from causalgraph.model import Correlation, Polarity, Relation, Statement
from causalgraph.stats.compare import arm_of
from causalgraph.tasks import get_task

P, N = Correlation.POSITIVE, Correlation.NEGATIVE
EVENTS = [f"e{i}" for i in range(6)]


@st.composite
def signed_graphs(draw):
    """Relations over 2-6 events; each with a sign, none, and some pairs written twice (maybe with both signs)."""
    n = draw(st.integers(2, 6))
    rels = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from([P, N, None])),
                         min_size=1, max_size=12))
    return compile_graph([Relation(EVENTS[a], EVENTS[b], correlation=c,
                                   polarity=Polarity.NEGATIVE if (a + b) % 3 == 0 else Polarity.POSITIVE)
                          for a, b, c in rels if a != b] or [Relation("e0", "e1", correlation=P)])


def _signs(g) -> dict:
    """Pair -> the set of correlation values its relations carry (read off the relations, not the edge summary)."""
    return {(e.cause, e.effect): {None if r.correlation is None else r.correlation.value for r in e.relations}
            for e in g.edges}


def _opposite(values: set) -> set:
    return {{"positive": "negative", "negative": "positive"}.get(v, v) for v in values}


@given(signed_graphs())
@settings(max_examples=80, deadline=None)
def test_flip_signs_reverses_every_single_sign_and_keeps_the_rest(g):
    h, flipped = flip_signs(g)
    assert h.pairs == g.pairs and h.nodes == g.nodes
    before, after = _signs(g), _signs(h)
    # an edge shows one sign when its labelled relations agree (unlabelled ones beside them stay unlabelled)
    single = {p for p, v in before.items() if len(v - {None}) == 1}
    assert set(flipped) == single
    for p, v in before.items():
        # one sign: the other; both signs: both; no sign: none
        assert after[p] == (_opposite(v) if p in single else v)
        assert [r.polarity for r in h.edge(*p).relations] == [r.polarity for r in g.edge(*p).relations]


@given(signed_graphs(), st.integers(1, 8), st.text(max_size=6))
@settings(max_examples=80, deadline=None)
def test_flip_k_flips_min_k_signed_edges_nested_in_k_plus_one(g, k, key):
    signed = [p for p, v in _signs(g).items() if len(v - {None}) == 1]
    h, flipped = flip_signs(g, k, key=key)
    assert len(flipped) == min(k, len(signed)) and set(flipped) <= set(signed)
    changed = {p for p, v in _signs(h).items() if v != _signs(g)[p]}
    assert changed == set(flipped)
    assert set(flipped) <= set(flip_signs(g, k + 1, key=key)[1])
    assert flip_signs(g, k, key=key) == (h, flipped)  # the same draw each time
    assert sorted(flip_order(g, key=key)) == sorted(signed)


def test_flip_k_is_the_full_flip_once_k_covers_every_edge():
    g = compile_graph([Relation("a", "b", correlation=P), Relation("b", "c", correlation=N)])
    assert flip_signs(g, 2, key="s")[0] == flip_signs(g)[0] == edit_graph(g, "flip-signs:5", key="s").graph


@pytest.mark.parametrize("bad", ["flip-signs:0", "flip-signs:01", "flip-signs:-1", "flip-signs:", "flip", "flip-signs:2.0"])
def test_only_canonical_spellings_name_an_edit(bad):
    assert not is_edit(bad)
    with pytest.raises(ConfigError, match="unknown graph edit"):
        parse_edit(bad)


def test_variant_ids_carry_the_counted_edit():
    assert split_edit("0_3.flip-signs:12") == ("0_3", "flip-signs:12")
    assert arm_of("graph-edit", "m", "A_1.letters.flip-signs:2") == ("flip-signs:2", ("m", "A_1.letters"))


# -- corri-multihop under flip-signs: golds from the spreadsheet rows --------------------------------------------

def _row_signs(st: Statement) -> dict:
    """Pair -> its one correlation (None when the rows disagree), from the statement's relations."""
    seen: dict = {}
    for r in st.relations:
        seen.setdefault((r.cause, r.effect), set()).add(r.correlation)
    return {p: next(iter(v)) if len(v) == 1 else None for p, v in seen.items()}


def _composed(signs) -> str:
    neg = sum(1 for s in signs if s == "negative")
    return "positive" if neg % 2 == 0 else "negative"


@pytest.mark.parametrize("edit", ["flip-signs", "flip-signs:1", "flip-signs:2"])
def test_multihop_golds_follow_the_flipped_facts(climatecause, edit):
    task = get_task("corri-multihop")
    real = task.items(climatecause, "0_3")
    flipped = task.items(climatecause, "0_3", graph_edit=edit)
    assert [it.id.replace(f".{edit}", "") for it in flipped] == [it.id for it in real]
    by_id = {s.id: s for s in climatecause.statements}
    k = parse_edit(edit)[1]
    flips_per_statement: dict = {}
    for r, f in zip(real, flipped):
        st = by_id[f.meta["statement_id"]]
        signs = _row_signs(st)
        events = f.meta["events"]
        hops = list(zip(events, events[1:]))
        # a chain networkx finds, over edges of one sign
        assert nx.has_path(nx.DiGraph(list(signs)), events[0], events[-1])
        assert all(signs[p] is not None for p in hops)
        shown = [[a, b] in f.meta["flipped"] for a, b in hops]
        if k is None:
            assert all(shown)
        edge_signs = [(signs[p].value if not s else {"positive": "negative", "negative": "positive"}[signs[p].value])
                      for p, s in zip(hops, shown)]
        assert f.meta["edge_correlations"] == edge_signs
        assert f.gold == _composed(edge_signs)
        assert r.gold == _composed(s.value for s in (signs[p] for p in hops))
        # the facts of the prompt state the flipped signs
        for (a, b), s in zip(hops, edge_signs):
            word = "increase" if s == "positive" else "decrease"
            assert f"If {a} (the cause) were to increase, {b} (the effect) would {word}." in f.prompt
        flips_per_statement.setdefault(st.id, set()).update(map(tuple, f.meta["flipped"]))
    if k is not None:
        for sid, pairs in flips_per_statement.items():
            single = sum(1 for v in _row_signs(by_id[sid]).values() if v is not None)
            assert len(pairs) <= min(k, single)
    # full flip: a chain's composed sign changes exactly when it has an odd number of hops
    if edit == "flip-signs":
        assert [f.gold != r.gold for r, f in zip(real, flipped)] == [len(r.meta["events"]) % 2 == 0 for r in real]


@pytest.mark.parametrize("task,variant,edit,message", [
    ("corri-multihop", "0_1", "reverse", "it takes flip-signs or flip-signs:k"),
    ("corri", "0_1", "flip-signs", "task corri takes no graph edit"),
    ("ccr-member", "A_5", "flip-signs", "its prompt states no correlation sign"),
    ("parents", "A_1", "flip-signs:2", "its graph is shown without correlation signs"),
])
def test_prompts_without_signs_refuse_flip_signs(task, variant, edit, message):
    toy = [Statement("s1", "t", True, (Relation("a", "b", correlation=P), Relation("b", "c", correlation=N)))]
    with pytest.raises(ConfigError, match=re.escape(message)):
        get_task(task).items(toy, variant, graph_edit=edit)


def test_cli_builds_flipped_items_and_refuses_a_bad_count(capsys):
    assert main(["items", "--data", "sample", "--task", "corri-multihop", "--variant", "0_1",
                 "--graph-edit", "flip-signs:1", "--limit", "1"]) == 0
    assert "0_1.flip-signs:1" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["items", "--task", "corri-multihop", "--variant", "0_1", "--graph-edit", "flip-signs:0"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "unknown graph edit 'flip-signs:0'" in err


def test_encode_shows_the_flipped_signs(capsys):
    assert main(["encode", "--data", "sample", "--statement", "sample-001", "--signs"]) in (0, None)
    real = capsys.readouterr().out
    assert main(["encode", "--data", "sample", "--statement", "sample-001", "--signs", "--graph-edit", "flip-signs"]) in (0, None)
    flipped = capsys.readouterr().out
    swap = {"positive": "negative", "negative": "positive"}
    assert flipped == re.sub(r"\b(positive|negative)\)", lambda m: swap[m.group(1)] + ")", real)
    assert main(["encode", "--data", "sample", "--statement", "sample-001", "--graph-edit", "flip-signs"]) == 2
    assert "add --signs" in capsys.readouterr().err


def test_the_flipped_edges_are_the_same_whatever_pythonhashseed():
    code = ("from causalgraph.tasks import get_task; from causalgraph.datasets import load_corpus; "
            "its = get_task('net-effect').items(load_corpus('sample'), 'A_1.flip-signs:1'); "
            "print([(i.id, i.gold, i.meta.get('flipped')) for i in its])")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "12345")}
    assert len(outs) == 1 and "flip-signs:1" in outs.pop()


@pytest.mark.parametrize("task,variant", [("net-effect", "A_1.flip-signs:0"), ("net-effect", "A_1.letters.flip-signs:"),
                                          ("corri-multihop", "0_1.flip-signs:-1"), ("parents", "A_1.flip-signs:01")])
def test_a_bad_count_in_the_variant_id_is_named_a_graph_edit(task, variant):
    # Before: "unknown event-name scheme 'flip-signs:0'", the suffix read as an event-name scheme.
    toy = [Statement("s1", "t", True, (Relation("a", "b", correlation=P, polarity=Polarity.POSITIVE),
                                       Relation("b", "c", correlation=N, polarity=Polarity.POSITIVE)))]
    with pytest.raises(ConfigError, match=re.escape(f"unknown graph edit {variant.rpartition('.')[2]!r}")):
        get_task(task).items(toy, variant)
