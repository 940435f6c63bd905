"""Event alignment: the cascade, one-to-one optimality (brute force), merges and splits, determinism, errors."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.alignment.events import ALIGN_RULES, align_events, token_f1_matrix
from causalgraph.errors import ConfigError
from causalgraph.extraction.spans import normalize_span, token_f1

WORDS = ["the", "a", "warming", "sea", "level", "rise", "ice", "loss", "of", "Warming", "rise.", "drought", "crop"]
span = st.lists(st.sampled_from(WORDS), min_size=0, max_size=5).map(" ".join)
events = st.lists(span.filter(lambda s: s.strip()), min_size=0, max_size=6, unique=True)


@settings(max_examples=150)
@given(st.lists(span, max_size=6), st.lists(span, max_size=6))
def test_the_token_matrix_equals_token_f1_bit_for_bit(a, b):
    m = token_f1_matrix(a, b)
    assert m.shape == (len(a), len(b))
    assert [[float(x) for x in row] for row in m] == [[token_f1(x, y) for y in b] for x in a]


def test_the_cascade_by_hand():
    pred = ["Warming", "global warming", "rise of the sea level", "ice", "droughts"]
    gold = ["warming", "sea level rise", "ice loss", "drought"]
    got = {r: [(m.predicted, m.gold, m.rule) for m in align_events(pred, gold, rule=r).matches]
           for r in ALIGN_RULES[:3]}
    assert got["exact"] == []
    assert got["normalized"] == [("Warming", "warming", "normalized")]
    # token: "rise of the sea level" ~ "sea level rise" (F1 2·3/(5+3) = 0.75; "the" is no article here: it is
    # not the first word); "ice" ~ "ice loss" (2/3); "global warming" would take "warming" (2/3) but
    # "Warming" already holds it: a merge.  "droughts" shares no token with "drought".
    assert got["token"] == [("Warming", "warming", "normalized"), ("rise of the sea level", "sea level rise", "token"),
                            ("ice", "ice loss", "token")]
    al = align_events(pred, gold, rule="token")
    assert [(m.predicted, m.gold, m.rule) for m in al.merges] == [("global warming", "warming", "merge:token")]
    assert al.merges[0].score == pytest.approx(2 / 3)
    assert al.unaligned_predicted == ("global warming", "droughts") and al.missing_gold == ("drought",)
    assert al.counts() == {"exact": 0, "normalized": 1, "token": 2, "merges": 1, "splits": 0, "unaligned": 2,
                           "missing": 1}


def test_a_split_is_a_gold_event_close_to_a_held_predicted_event():
    al = align_events(["sea level"], ["sea level", "sea level rise"], rule="token")
    assert [(m.predicted, m.gold, m.rule) for m in al.matches] == [("sea level", "sea level", "exact")]
    assert [(m.predicted, m.gold, m.rule, round(m.score, 3)) for m in al.splits] == [
        ("sea level", "sea level rise", "split:token", 0.8)]
    assert [r["rule"] for r in al.rows("s")] == ["exact", "split:token"]


def test_the_hungarian_step_maximises_the_summed_score_where_greedy_does_not():
    # F1 by hand: "p q r s" vs "p q r s t" 2·4/9 = 0.889, vs "p q r u" 2·3/8 = 0.75; "s t v" vs "p q r s t"
    # 2·2/8 = 0.5, vs "p q r u" 0.  Greedy takes the best pair (0.889) and leaves "s t v" alone; the optimum
    # pairs both (0.75 + 0.5 = 1.25).
    al = align_events(["p q r s", "s t v"], ["p q r s t", "p q r u"], rule="token")
    assert [(m.predicted, m.gold, m.score) for m in al.matches] == [("p q r s", "p q r u", 0.75),
                                                                   ("s t v", "p q r s t", 0.5)]


def _best_sum(sim: np.ndarray, thr: float) -> float:
    """Brute force: the largest Σ similarity of a one-to-one matching using only pairs ≥ thr."""
    n, m = sim.shape
    best = 0.0
    for k in range(min(n, m) + 1):
        for rows in itertools.combinations(range(n), k):
            for cols in itertools.permutations(range(m), k):
                if all(sim[i, j] >= thr for i, j in zip(rows, cols)):
                    best = max(best, float(sum(sim[i, j] for i, j in zip(rows, cols))))
    return best


@settings(max_examples=120)
@given(events, events, st.sampled_from([0.3, 0.5, 0.8]))
def test_alignment_is_one_to_one_above_threshold_and_maximal(pred, gold, thr):
    al = align_events(pred, gold, rule="token", token_threshold=thr)
    ps = [m.predicted for m in al.matches]
    gs = [m.gold for m in al.matches]
    assert len(set(ps)) == len(ps) and len(set(gs)) == len(gs)
    for m in al.matches:
        if m.rule == "exact":
            assert m.predicted == m.gold
        elif m.rule == "normalized":
            assert normalize_span(m.predicted) == normalize_span(m.gold)
        else:
            assert m.score == token_f1(m.predicted, m.gold) >= thr
    # Every equal pair is aligned exactly (names are distinct on each side, so nothing competes).
    assert {p for p in pred if p in gold} == {m.predicted for m in al.matches if m.rule == "exact"}
    # No pair is left that a rule would still make.
    for p in al.unaligned_predicted:
        for g in al.missing_gold:
            assert normalize_span(p) != normalize_span(g) and token_f1(p, g) < thr
    # The token step is optimal among the events the earlier steps left.
    fp = [p for p in pred if p not in {m.predicted for m in al.matches if m.rule in ("exact", "normalized")}]
    fg = [g for g in gold if g not in {m.gold for m in al.matches if m.rule in ("exact", "normalized")}]
    if fp and fg and len(fp) * len(fg) <= 30:
        sim = np.array([[token_f1(p, g) for g in fg] for p in fp])
        got = sum(m.score for m in al.matches if m.rule == "token")
        assert got == pytest.approx(_best_sum(sim, thr))
    # Every event is in exactly one row.
    rows = al.rows()
    assert sorted(r["predicted"] for r in rows if r["predicted"] is not None and not r["rule"].startswith("split")) \
        == sorted(pred)
    assert sorted(r["gold"] for r in rows if r["gold"] is not None and r["rule"] not in ("unaligned",)
                  and not r["rule"].startswith("merge")) == sorted(gold)


@settings(max_examples=60)
@given(events, events)
def test_each_rule_aligns_at_least_what_the_rule_before_it_aligned(pred, gold):
    got = [len(align_events(pred, gold, rule=r).matches) for r in ALIGN_RULES[:3]]
    assert got == sorted(got)


class _Embedder:
    """Cosine from fixed vectors, so the embedding step is tested without the model."""

    def __init__(self, vectors):
        self.vectors = vectors

    def cosine(self, a, b):
        va = np.array([self.vectors[x] for x in a], dtype=float)
        vb = np.array([self.vectors[x] for x in b], dtype=float)
        va /= np.linalg.norm(va, axis=1, keepdims=True)
        vb /= np.linalg.norm(vb, axis=1, keepdims=True)
        return va @ vb.T


def test_the_embedding_step_takes_what_token_overlap_cannot():
    emb = _Embedder({"droughts": [1, 0.1], "drought": [1, 0], "crop failure": [0, 1], "harvest loss": [0.2, 1]})
    al = align_events(["droughts", "harvest loss"], ["drought", "crop failure"], rule="embedding", embedder=emb,
                      embedding_threshold=0.9)
    assert [(m.predicted, m.gold, m.rule) for m in al.matches] == [("droughts", "drought", "embedding"),
                                                                    ("harvest loss", "crop failure", "embedding")]
    assert al.matches[0].score == pytest.approx(1 / np.sqrt(1.01))
    none = align_events(["droughts"], ["drought"], rule="embedding", embedder=emb, embedding_threshold=0.9999)
    assert none.matches == () and none.unaligned_predicted == ("droughts",)


def test_bad_input_is_refused_with_what_was_found():
    with pytest.raises(ConfigError, match="rule 'fuzzy'"):
        align_events(["a"], ["a"], rule="fuzzy")
    with pytest.raises(ConfigError, match="predicted event 2: 'a' appears twice"):
        align_events(["a", "a"], ["a"])
    with pytest.raises(ConfigError, match="gold event 1: found a int"):
        align_events(["a"], [1])
    with pytest.raises(ConfigError, match="found one string"):
        align_events("abc", ["a"])
    with pytest.raises(ConfigError, match=r"token threshold 0: expected a number in \(0, 1\]"):
        align_events(["a"], ["b"], rule="token", token_threshold=0)


def test_the_alignment_does_not_depend_on_the_hash_seed():
    code = ("from causalgraph.alignment.events import align_events as a\n"
            "p=['sea level rise','the Warming','ice loss of glaciers','rain','heavy rain','rains']\n"
            "g=['rise of sea level','warming','glacier ice loss','heavy rain events','rain']\n"
            "print(a(p, g, rule='token').rows())\n")
    outs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1
