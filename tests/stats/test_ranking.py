"""stats compare --rank: compact letter display, rank intervals, family-wise rate of splitting equal arms."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.cli import main
from causalgraph.stats import ranking
from causalgraph.stats.ranking import letters, rank_arms


@pytest.fixture
def few_statements_allowed(monkeypatch):
    """The mechanics of the intervals on a handful of statements (the shipped minimums refuse them there)."""
    monkeypatch.setattr(ranking, "MIN_STATEMENTS_SCORE_INTERVAL", 2)
    monkeypatch.setattr(ranking, "MIN_STATEMENTS_RANK_INTERVAL", 2)


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


def test_an_arm_with_undefined_f1_gets_no_rank(few_statements_allowed):
    # Arm "none" answers "no" on items whose gold is all "no": no positive anywhere, F1 undefined; it is
    # neither last nor first, its rank is not a number and a note says why.
    g = np.repeat(np.arange(10), 4)
    zero = np.zeros((40, 3), dtype=int)
    right = {"a": np.ones(40, bool), "b": np.arange(40) % 2 == 0, "none": np.ones(40, bool)}
    counts = {"a": np.column_stack([np.ones(40), zero[:, :2]]).astype(int),
              "b": np.column_stack([right["b"], zero[:, 0], ~right["b"]]).astype(int), "none": zero}
    rows = {r["arm"]: r for r in rank_arms(counts, right, g, n_boot=50)}
    assert np.isnan(rows["none"]["score"]) and np.isnan(rows["none"]["rank"])
    assert np.isnan(rows["none"]["rank_low"]) and np.isnan(rows["none"]["rank_high"])
    assert "undefined" in rows["none"]["note"]
    assert (rows["a"]["rank"], rows["b"]["rank"]) == (1.0, 2.0) and rows["a"]["note"] is None


def test_cli_rank_an_arm_never_answered_has_no_score_and_one_run_is_refused(tmp_path, capsys, isolated_cache):
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.model import Relation, Statement
    from causalgraph.tasks import get_task

    toy = [Statement(f"s{i}", "t", True, (Relation("a", "b"), Relation("b", "c"))) for i in range(6)]
    runs = []
    for name, model, opts in (("o", "mock/oracle", {}), ("n", "mock/noisy", {"flip": 0.3}),
                              ("f", "mock/constant", {"text": "Yes"})):
        its = get_task("reachability").items(toy, "A_1")
        runs.append(str(run_benchmark("reachability", ["A_1"], model, items=its, out=str(tmp_path / name),
                                      model_options=opts, temperature=1.0).path))
    # Every request of the third run failed: it was never answered.
    for path in (tmp_path / "f").glob("*.jsonl"):
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        path.write_text("".join(json.dumps({**r, "label": None, "response": None, "error": "killed"}) + "\n" for r in lines))
    assert main(["stats", "compare", *runs, "--by", "model", "--rank", "--format", "json", "--n-boot", "50"]) == 0
    cap = capsys.readouterr()
    rows = {r["arm"]: r for r in json.loads(cap.out)}
    never = rows["mock/constant"]
    assert never["score"] is None and never["rank"] is None and never["group"] is None
    assert "no answered item" in never["note"] and "no answered item" in cap.err
    assert rows["mock/oracle"]["rank"] == 1.0 and rows["mock/noisy"]["rank"] == 2.0
    # One run, one arm: refused in one line.
    assert main(["stats", "compare", runs[0], "--by", "model", "--rank"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "two or more arms" in err[0]


def test_cli_rank_refuses_an_interval_it_would_not_use(capsys):
    # --interval chooses the pairwise F1-difference interval; --rank would ignore it without a word.
    assert main(["stats", "compare", "runs/a", "runs/b", "--by", "model", "--rank", "--interval", "bootstrap"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "drop --interval" in err[0]


def test_a_perfect_arm_whose_positives_a_resample_leaves_out_is_not_ranked_last_there(few_statements_allowed):
    # Gold positives only in statement 0 (3 items); statements 1-3 all negative. The oracle is perfect: its
    # F1 is 1 where statement 0 is drawn and undefined (no tp, fp or fn) where it is not. The noisy arm finds
    # 1 of the 3 positives and answers "yes" on one negative item of each other statement, so its F1 is
    # defined (and below 1) in every resample. Ranking the oracle last where its F1 was undefined gave it the
    # interval [1, 2], wider than the noisy arm's [2, 2]; dropping those resamples gives [1, 1] and [2, 2], with
    # a note counting the dropped resamples: those with no draw of statement 0, (3/4)^4 of them on average.
    from causalgraph.stats.resampling import statement_weights

    g = np.repeat(np.arange(4), 4)
    gold = np.zeros(16, bool)
    gold[:3] = True
    oracle = gold.copy()
    noisy = np.zeros(16, bool)
    noisy[[0, 4, 8, 12]] = True
    def counts(pred):
        return np.column_stack([pred & gold, pred & ~gold, ~pred & gold]).astype(int)
    rows = {r["arm"]: r for r in rank_arms({"oracle": counts(oracle), "noisy": counts(noisy)},
                                           {"oracle": oracle == gold, "noisy": noisy == gold}, g, n_boot=400)}
    assert (rows["oracle"]["rank_low"], rows["oracle"]["rank_high"]) == (1.0, 1.0)
    assert (rows["noisy"]["rank_low"], rows["noisy"]["rank_high"]) == (2.0, 2.0)
    dropped = int((statement_weights(4, 400, 0)[:, 0] == 0).sum())
    assert 0.2 < dropped / 400 < 0.45  # (3/4)^4 = 0.316
    for arm in ("oracle", "noisy"):
        assert f"over {400 - dropped} of 400 resamples (in {dropped} " in rows[arm]["note"]


def test_no_resamples_leaves_the_rank_interval_undefined_with_a_note(few_statements_allowed):
    # --bootstrap 0 / --n-boot 0: no statement resample, so no rank interval; each ranked arm's interval is
    # undefined and a note says why (it was NaN, shown as "—", with no note at all).
    g = np.repeat(np.arange(10), 4)
    right = {"a": np.ones(40, bool), "b": np.arange(40) % 2 == 0}
    counts = {a: np.column_stack([r, np.zeros(40, int), ~r]).astype(int) for a, r in right.items()}
    rows = {r["arm"]: r for r in rank_arms(counts, right, g, n_boot=0)}
    for arm, rank in (("a", 1.0), ("b", 2.0)):
        assert rows[arm]["rank"] == rank
        assert np.isnan(rows[arm]["rank_low"]) and np.isnan(rows[arm]["rank_high"])
        assert "no statement resample" in rows[arm]["note"]


def test_rank_intervals_from_30_statements_and_score_intervals_from_40_and_not_below():
    # The minimums of benchmarks/bench_rank_level.py: below 30 statements no rank interval, below 40 no score
    # interval, each with a note naming the statements found and the minimum; the scores, ranks and letters stay.
    for G, rank_given, score_given in ((29, False, False), (30, True, False), (39, True, False), (40, True, True)):
        counts, right, g = _arms(np.random.default_rng(G), [0.9, 0.6, 0.3], G=G)
        rows = rank_arms(counts, right, g, n_boot=100)
        full = None
        for r in rows:
            assert r["score"] == r["score"] and r["rank"] == r["rank"] and r["group"]
            assert (r["rank_low"] == r["rank_low"]) == rank_given, (G, r)
            assert (r["ci_low"] == r["ci_low"] and r["ci_high"] == r["ci_high"]) == score_given, (G, r)
            notes = [] if r["note"] is None else r["note"].split("; ")
            expected = ([] if score_given else
                        [f"score interval not estimable: {G} statements, at least 40 needed for the CR2 interval "
                         "to cover (docs/statistics.md)"])
            expected += ([] if rank_given else
                         [f"rank interval not estimable: {G} statements, at least 30 needed for it to cover "
                          "(docs/statistics.md)"])
            assert notes == expected, (G, r["note"])
        if score_given:
            # what is given is the CR2 t interval of the arm's F1, unchanged by the minimum
            from causalgraph.stats.compare import f1_influence
            from causalgraph.stats.resampling import cluster_t_interval

            full = {a: cluster_t_interval(*f1_influence(c), g, level=0.95) for a, c in counts.items()}
            for r in rows:
                assert (r["ci_low"], r["ci_high"]) == (full[r["arm"]]["low"], full[r["arm"]]["high"])
