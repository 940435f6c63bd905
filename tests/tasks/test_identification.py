"""The d-separation and adjustment-set tasks: gold from networkx and pgmpy, balance, seeds, encodings, names."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import warnings
from pathlib import Path

import networkx as nx
import pytest

from causalgraph.datasets import load_corpus
from causalgraph.graph import compile_graph
from causalgraph.model import Relation, Statement
from causalgraph.graph.naming import NAME_SCHEMES
from causalgraph.prompts import ENCODING_PREFIXES
from causalgraph.tasks import get_task
from causalgraph.tasks.identification import identification_questions, is_backdoor_set, items

ASIA = Path(__file__).resolve().parents[1] / "data" / "asia.gml"


def graphs_by_id(corpus):
    return {s.id: nx.DiGraph([(r.cause, r.effect) for r in s.relations]) for s in corpus if s.relations}


def test_d_separation_gold_is_networkx_is_d_separator_on_every_climatecause_item(climatecause):
    its = get_task("d-separation").items(climatecause, "A_1")
    ref = graphs_by_id(climatecause)
    assert len(its) > 1000
    for it in its:
        g = ref[it.meta["statement_id"]]
        want = nx.is_d_separator(g, {it.meta["event"]}, {it.meta["event_j"]}, set(it.meta["given"]))
        assert it.gold == ("yes" if want else "no"), it.id


def test_adjustment_set_gold_is_pgmpys_back_door_check_plus_no_descendant_of_the_cause(climatecause):
    pytest.importorskip("pgmpy")
    from pgmpy.base import DAG
    from pgmpy.inference import CausalInference

    its = get_task("adjustment-set").items(climatecause, "A_1")
    ref = graphs_by_id(climatecause)
    assert len(its) > 200
    infer = {}
    for it in its:
        sid, x, y, z = it.meta["statement_id"], it.meta["event"], it.meta["event_j"], it.meta["given"]
        if sid not in infer:
            infer[sid] = CausalInference(DAG(list(ref[sid].edges)))
        assert y in nx.descendants(ref[sid], x)  # asked only where x has an effect on y
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            blocks = infer[sid].is_valid_backdoor_adjustment_set(x, y, z)
        # pgmpy checks that z blocks every back-door path; Pearl's criterion also forbids descendants of x in z
        want = blocks and not set(z) & nx.descendants(ref[sid], x)
        assert it.gold == ("yes" if want else "no"), it.id


def test_the_back_door_criterion_on_a_confounded_mediated_graph_by_hand():
    g = compile_graph([Relation("u", "x"), Relation("u", "y"), Relation("x", "m"), Relation("m", "y")])
    assert [is_backdoor_set(g, "x", "y", z) for z in ([], ["u"], ["m"], ["u", "m"])] == [False, True, False, False]
    # x's effect on m: no back-door path (u -> y <- m is blocked by the collider y), so {} is valid; {y} opens it
    assert is_backdoor_set(g, "x", "m", []) and not is_backdoor_set(g, "x", "m", ["y"])


@pytest.mark.parametrize("task", ["d-separation", "adjustment-set"])
def test_yes_and_no_are_balanced_in_every_statement(climatecause, task):
    per = collections.defaultdict(collections.Counter)
    for it in get_task(task).items(climatecause, "A_2"):
        per[it.meta["statement_id"]][it.gold] += 1
    assert per and all(c["yes"] == c["no"] > 0 for c in per.values())


def test_another_seed_draws_other_conditioning_sets_and_the_same_seed_the_same(climatecause):
    some = list(climatecause)[:12]
    a = items(some, "d-separation", "A_1", seed=0)
    b = items(some, "d-separation", "A_1", seed=0)
    c = items(some, "d-separation", "A_1", seed=1)
    assert [(i.id, i.meta["given"]) for i in a] == [(i.id, i.meta["given"]) for i in b]
    assert [(i.id, i.meta["given"]) for i in a] != [(i.id, i.meta["given"]) for i in c]


def test_the_items_are_the_same_whatever_pythonhashseed():
    code = ("from causalgraph.tasks import get_task; from causalgraph.datasets import load_corpus; "
            "print([(i.id, i.gold, i.meta['given']) for t in ('d-separation', 'adjustment-set') "
            "for i in get_task(t).items(load_corpus('sample'), 'A_1')])")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=seed)).stdout for seed in ("0", "12345")}
    assert len(outs) == 1 and "d-separation/A_1" in outs.pop()


@pytest.mark.parametrize("task", ["d-separation", "adjustment-set"])
def test_every_encoding_and_event_name_scheme_asks_the_same_questions_under_its_names(task):
    corpus = load_corpus(ASIA)
    base = items(corpus, task, "A_1")
    assert base and all(it.meta["statement_text"] is False for it in get_task(task).items(corpus, "A_1"))
    for prefix in ENCODING_PREFIXES.values():
        for scheme in NAME_SCHEMES:
            vid = f"{prefix}_1" + ("" if scheme == "real" else f".{scheme}")
            got = get_task(task).items(corpus, vid)
            assert [i.gold for i in got] == [i.gold for i in base], vid
            assert [i.meta["given_indices"] for i in got] == [i.meta["given_indices"] for i in base]
            if scheme != "real":
                real = set(got[0].meta["real_events"])
                assert not any(f" {e} " in got[0].prompt for e in real if e not in got[0].meta["events"])
                assert got[0].meta["event"] in got[0].prompt


def test_a_graph_with_a_cycle_gives_no_identification_question():
    st = Statement("s1", "t", True, (Relation("a", "b"), Relation("b", "c"), Relation("c", "a")))
    assert items([st], "d-separation", "A_1") == []
    assert identification_questions(compile_graph(st), "adjustment-set") == []
