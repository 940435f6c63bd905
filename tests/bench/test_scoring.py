"""Scoring: P/R/F1 against scikit-learn, Table 4 of the paper from its Tables 19–20, statement bootstrap."""

from __future__ import annotations

import random

import pytest

from causalgraph.bench.scoring import aggregate_strategies, bootstrap_interval, multiclass_scores
from causalgraph.runlog import RunRecord
from causalgraph.scoring.scores import binary_scores
from causalgraph.tasks.climatecause import authors_position_score, variant_strategy

sklearn_metrics = pytest.importorskip("sklearn.metrics")

POS = ["start", "middle", "end", "none"]


def _random_labels(n, labels, seed, none_share=0.1):
    rng = random.Random(seed)
    gold = [rng.choice(labels) for _ in range(n)]
    pred = [None if rng.random() < none_share else rng.choice(labels) for _ in range(n)]
    return gold, pred


@pytest.mark.parametrize("seed", range(5))
def test_binary_scores_match_scikit_learn(seed):
    gold, pred = _random_labels(200, ["positive", "negative"], seed)
    s = binary_scores(gold, pred, "positive")
    # An unparsed answer (None) is a wrong prediction: scikit-learn sees it as its own class.
    p, r, f, _ = sklearn_metrics.precision_recall_fscore_support(
        gold, [x or "unparsed" for x in pred], labels=["positive"], average=None, zero_division=0)
    assert (s["precision"], s["recall"], s["f1"]) == pytest.approx((p[0], r[0], f[0]))
    assert s["accuracy"] == pytest.approx(sklearn_metrics.accuracy_score(gold, [x or "unparsed" for x in pred]))


@pytest.mark.parametrize("seed", range(5))
def test_multiclass_scores_match_scikit_learn(seed):
    gold, pred = _random_labels(300, POS, seed)
    s = multiclass_scores(gold, pred, POS)
    pred_s = [x or "unparsed" for x in pred]
    p, r, f, sup = sklearn_metrics.precision_recall_fscore_support(gold, pred_s, labels=POS, average=None,
                                                                   zero_division=0)
    for i, lab in enumerate(POS):
        pc = s["per_class"][lab]
        assert (pc["precision"], pc["recall"], pc["f1"], pc["support"]) == pytest.approx((p[i], r[i], f[i], sup[i]))
    assert s["macro_f1"] == pytest.approx(sklearn_metrics.f1_score(gold, pred_s, labels=POS, average="macro",
                                                                   zero_division=0))
    cm = sklearn_metrics.confusion_matrix(gold, pred_s, labels=POS + ["unparsed"])
    assert s["confusion"]["matrix"] == cm[:4].tolist()


def test_binary_scores_by_hand_with_no_positive_prediction():
    s = binary_scores(["yes", "no", "yes"], ["no", "no", None], "yes")
    assert (s["tp"], s["fp"], s["fn"], s["tn"]) == (0, 0, 2, 1)
    assert (s["precision"], s["recall"], s["f1"]) == (0.0, 0.0, 0.0)


def test_authors_position_score_keeps_only_start_and_none():
    gold = ["start", "start", "start", "none", "none", "middle", "end", "start"]
    pred = ["start", "start", "none", "start", "none", "start", "start", "middle"]
    s = authors_position_score(gold, pred)
    # Kept: items 0-4 (gold and prediction both in {start, none}); TP 2, FN 1, FP 1.
    assert s["n"] == 5 and (s["tp"], s["fn"], s["fp"]) == (2, 1, 1)
    assert (s["precision"], s["recall"]) == pytest.approx((2 / 3, 2 / 3))


# Table 19 and 20 of the ClimateCause paper (per prompt: P, R, F1) and Table 4 (mean ± std per strategy).
TABLE_19_20 = {
    "corri": {"0_1": (.7877, .9449, .8592), "0_2": (.7197, .8881, .7951), "0_3": (.9538, .5680, .7120),
              "F_1": (.9284, .9593, .9436), "F_2": (.7716, .9243, .8410), "F_3": (.9621, .9621, .9621),
              "CoT_1": (.8565, .9552, .9032), "CoT_2": (.7580, .8950, .8208), "CoT_3": (.9522, .9604, .9563)},
    "corri-rc": {"RC_0_1": (.7491, .7091, .7286), "RC_0_2": (.7561, .8537, .8019), "RC_0_3": (.9830, .5955, .7417),
                 "RC_F_1": (.9803, .9681, .9742), "RC_F_2": (.8683, .9415, .9034), "RC_F_3": (.9794, .9828, .9811),
                 "RC_CoT_1": (.8986, .7935, .8428), "RC_CoT_2": (.7641, .8864, .8207),
                 "RC_CoT_3": (.9236, .9570, .9400)},
    "ccr-member": {"A_4": (.9083, .8609, .8839), "A_5": (.3551, .8522, .5013), "A_6": (.3512, .9130, .5072),
                   "SN_4": (.8043, .9652, .8775), "SN_5": (.3631, .9913, .5315), "SN_6": (.3394, .9652, .5023),
                   "ML_4": (1.0, .8174, .8995), "ML_5": (.5067, .9913, .6706), "ML_6": (.4197, 1.0, .5913)},
    "ccr-position": {"A_4": (.3784, .9655, .5437), "A_5": (.2348, .9643, .3776), "A_6": (.2651, .8462, .4037),
                     "SN_4": (.3919, 1.0, .5631), "SN_5": (.2295, 1.0, .3733), "SN_6": (.2527, .8846, .3932),
                     "ML_4": (.3404, 1.0, .5079), "ML_5": (.2203, 1.0, .3611), "ML_6": (.2393, .9655, .3836)},
    "ccr-eci-member": {"0_4": (.2774, .9478, .4291), "0_5": (.2873, .8870, .4340), "0_6": (.2933, .8696, .4386),
                       "F_4": (.3363, .6609, .4457), "F_5": (.2620, .9043, .4063), "F_6": (.5000, .5043, .5022),
                       "CoT_4": (.4839, .6522, .5556), "CoT_5": (.2875, .8000, .4230),
                       "CoT_6": (.2881, .9043, .4370)},
    "ccr-eci-position": {"0_4": (.1942, .7692, .3101), "0_5": (.1944, .7241, .3066), "0_6": (.1667, .5185, .2523),
                         "F_4": (.1429, .6774, .2360), "F_5": (.1585, .5417, .2453), "F_6": (.2927, .4444, .3529),
                         "CoT_4": (.3167, .6333, .4222), "CoT_5": (.2727, .6429, .3830),
                         "CoT_6": (.1905, .2500, .2162)},
}
TABLE_4 = {
    "corri": {"0-shot": ((.8204, .1204), (.8003, .2032), (.7887, .0738)),
              "F-shot": ((.8874, .1017), (.9486, .0211), (.9156, .0652)),
              "CoT": ((.8556, .0971), (.9369, .0364), (.8934, .0683)),
              "Avg": ((.8544, .0970), (.8953, .1259), (.8659, .0839))},
    "corri-rc": {"0-shot": ((.8294, .1330), (.7194, .1294), (.7574, .0391)),
                 "F-shot": ((.9426, .0644), (.9641, .0209), (.9529, .0430)),
                 "CoT": ((.8621, .0858), (.8789, .0820), (.8678, .0635)),
                 "Avg": ((.8780, .0993), (.8542, .1325), (.8594, .0952))},
    "ccr-member": {"Adjacency": ((.5382, .3205), (.8754, .0329), (.6308, .2192)),
                   "Single N.": ((.5023, .2619), (.9739, .0151), (.6371, .2087)),
                   "GraphML": ((.6421, .3130), (.9362, .1030), (.7205, .1601)),
                   "Avg": ((.5609, .2670), (.9285, .0695), (.6628, .1766))},
    "ccr-position": {"Adjacency": ((.2927, .0757), (.9253, .0686), (.4417, .0893)),
                     "Single N.": ((.2914, .0878), (.9615, .0666), (.4432, .1043)),
                     "GraphML": ((.2667, .0646), (.9885, .0199), (.4175, .0791)),
                     "Avg": ((.2836, .0676), (.9585, .0560), (.4341, .0802))},
    "ccr-eci-member": {"0-shot": ((.2860, .0080), (.9014, .0411), (.4339, .0047)),
                       "F-shot": ((.3661, .1218), (.6899, .2016), (.4514, .0482)),
                       "CoT": ((.3532, .1132), (.7855, .1267), (.4718, .0728)),
                       "Avg": ((.3351, .0912), (.7923, .1517), (.4524, .0467))},
    "ccr-eci-position": {"0-shot": ((.1851, .0160), (.6706, .1336), (.2896, .0324)),
                         "F-shot": ((.1980, .0823), (.5545, .1170), (.2781, .0650)),
                         "CoT": ((.2600, .0641), (.5087, .2241), (.3405, .1094)),
                         "Avg": ((.2144, .0631), (.5780, .1602), (.3027, .0717))},
}


@pytest.mark.parametrize("task", sorted(TABLE_4))
def test_aggregate_strategies_reproduces_table_4_from_tables_19_and_20(task):
    per_variant = {v: dict(zip(("precision", "recall", "f1"), prf)) for v, prf in TABLE_19_20[task].items()}
    agg = aggregate_strategies(per_variant, variant_strategy, ["precision", "recall", "f1"])
    assert set(agg) == set(TABLE_4[task])
    for strategy, expected in TABLE_4[task].items():
        for metric, (mean, std) in zip(("precision", "recall", "f1"), expected):
            # Table 19/20 print rounded values; Table 4 was computed before rounding.
            assert agg[strategy][metric]["mean"] == pytest.approx(mean, abs=1.5e-4), (strategy, metric)
            assert agg[strategy][metric]["std"] == pytest.approx(std, abs=1.5e-4), (strategy, metric)
        assert agg[strategy]["precision"]["n"] == (9 if strategy == "Avg" else 3)


def _records(groups):
    """groups: list of (statement id, [(gold, pred), ...])."""
    return [RunRecord("t", "v", f"{sid}-{i}", gold=g, label=p, meta={"statement_id": sid})
            for sid, pairs in groups for i, (g, p) in enumerate(pairs)]


def test_bootstrap_interval_resamples_whole_statements():
    # Statement A: ten positives found; statement B: ten positives missed.  Resampling statements
    # gives recall 0, 1/2 or 1 (a quarter of the time each extreme); resampling items would give a
    # narrow interval around 1/2.
    recs = _records([("A", [("yes", "yes")] * 10), ("B", [("yes", "no")] * 10)])
    lo, hi = bootstrap_interval(recs, "recall", kind="binary", labels=["yes", "no"], positive="yes",
                                n_boot=2000, seed=3)
    assert (lo, hi) == (0.0, 1.0)


def test_bootstrap_interval_is_reproducible_and_contains_the_estimate():
    rng = random.Random(0)
    groups = [(f"s{k}", [(rng.choice(POS), rng.choice(POS)) for _ in range(rng.randint(1, 8))]) for k in range(40)]
    recs = _records(groups)
    a = bootstrap_interval(recs, "macro_f1", kind="multiclass", labels=POS, n_boot=300, seed=7)
    b = bootstrap_interval(recs, "macro_f1", kind="multiclass", labels=POS, n_boot=300, seed=7)
    point = multiclass_scores([r.gold for r in recs], [r.label for r in recs], POS)["macro_f1"]
    assert a == b and a[0] < point < a[1]


def test_bootstrap_interval_rejects_an_unknown_gold_label():
    with pytest.raises(ValueError, match="gold label 'maybe'"):
        bootstrap_interval(_records([("A", [("maybe", "yes")])]), "f1", kind="binary", labels=["yes", "no"],
                           positive="yes")
