"""stats compare --rank: compact letter display, rank intervals, family-wise rate of splitting equal arms."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.cli import main
from causalgraph.stats.ranking import letters, rank_arms


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6).flatmap(lambda k: st.tuples(st.just(k), st.lists(
    st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)).filter(lambda p: p[0] != p[1]), max_size=8))))
def test_letters_share_a_letter_exactly_when_not_separated(case):
    k, pairs = case
    arms = [f"m{i}" for i in range(k)]
    sep = {frozenset((arms[i], arms[j])) for i, j in pairs}
    got = letters(arms, [tuple(p) for p in sep], arms)
    for a in arms:
        assert got[a]  # every arm has a letter
        for b in arms:
            if a < b:
                share = bool(set(got[a]) & set(got[b]))
                # separated pairs never share a letter; a letter's arms are pairwise not separated
                if frozenset((a, b)) in sep:
                    assert not share
    for letter in set("".join(got.values())):
        members = [a for a in arms if letter in got[a]]
        assert not any(frozenset((a, b)) in sep for a in members for b in members if a != b)


def _arms(rng, accs, G=40, per=8, icc_sd=1.0):
    g = np.repeat(np.arange(G), per)
    u = np.repeat(rng.normal(size=G), per) * icc_sd
    right = {f"m{i}": rng.random(G * per) < 1 / (1 + np.exp(-(np.log(p / (1 - p)) + u))) for i, p in enumerate(accs)}
    counts = {a: np.column_stack([r, ~r, ~r]).astype(int) for a, r in right.items()}
    return counts, right, g


def test_family_wise_rate_of_splitting_four_equal_arms_is_at_most_alpha():
    # 300 datasets of four equal arms (accuracy 0.7, statement effects): Holm over the 6 pairs should split
    # some pair in at most 5 % (binomial bound at 300: 7.5 %).
    rng = np.random.default_rng(2)
    split = 0
    for _ in range(300):
        counts, right, g = _arms(rng, [0.7] * 4)
        rows = rank_arms(counts, right, g, n_boot=0)
        split += len({r["group"] for r in rows}) > 1
    assert split / 300 <= 0.075


def test_clearly_different_arms_are_separated_and_ranked():
    rng = np.random.default_rng(4)
    counts, right, g = _arms(rng, [0.95, 0.7, 0.7, 0.3], icc_sd=0.3)
    rows = rank_arms(counts, right, g, n_boot=300)
    by = {r["arm"]: r for r in rows}
    assert [r["arm"] for r in rows][0] == "m0" and rows[-1]["arm"] == "m3"
    assert not set(by["m0"]["group"]) & set(by["m3"]["group"])
    assert set(by["m1"]["group"]) & set(by["m2"]["group"])  # the equal pair shares a letter
    assert by["m0"]["rank_low"] == 1 and by["m3"]["rank_high"] == 4
    assert by["m1"]["rank_low"] <= by["m1"]["rank"] <= by["m1"]["rank_high"]


def test_ten_arms_on_34164_items_rank_quickly():
    import time

    rng = np.random.default_rng(0)
    G = 63
    sizes = rng.integers(100, 985, G)
    sizes[-1] += 34164 - sizes.sum()
    g = np.repeat(np.arange(G), sizes)
    right = {f"m{i}": rng.random(len(g)) < 0.6 + 0.01 * i for i in range(10)}
    counts = {a: np.column_stack([r, ~r, ~r]).astype(int) for a, r in right.items()}
    t0 = time.perf_counter()
    rows = rank_arms(counts, right, g, n_boot=1000)
    assert len(rows) == 10 and time.perf_counter() - t0 < 5 * 3  # 5 s budget; x3 for a loaded test machine


def test_cli_rank(tmp_path, capsys, isolated_cache):
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.model import Relation, Statement
    from causalgraph.tasks import get_task

    toy = [Statement(f"s{i}", "t", True, (Relation("a", "b"), Relation("b", "c"))) for i in range(6)]
    runs = []
    for name, model, opts in (("o", "mock/oracle", {}), ("y", "mock/constant", {"text": "Yes"}),
                              ("n", "mock/noisy", {"flip": 0.3})):
        its = get_task("reachability").items(toy, "A_1")
        runs.append(str(run_benchmark("reachability", ["A_1"], model, items=its, out=str(tmp_path / name),
                                      model_options=opts, temperature=1.0).path))
    assert main(["stats", "compare", *runs, "--by", "model", "--rank", "--format", "json", "--n-boot", "200"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["arm"] for r in rows][0] == "mock/oracle" and rows[0]["score"] == 1.0
    assert {"group", "rank_low", "rank_high"} <= set(rows[0])
