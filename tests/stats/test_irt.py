"""The Rasch model: statsmodels' binomial mixed GLM on the long table, recovery on simulated answers, runs, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import sparse
from scipy.stats import spearmanr

from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.stats.irt import fit_rasch, irt_runs


def _answers(seed=0, items=300, theta=(-1.0, 0.0, 1.0, 2.0)):
    rng = np.random.default_rng(seed)
    b = rng.normal(0, 1.2, items)
    t = np.array(theta)
    M = (rng.random((len(t), items)) < 1 / (1 + np.exp(-(t[:, None] - b)))).astype(float)
    return M, t, b


def test_rasch_equals_the_mixed_glm_fitted_by_hand_on_the_long_table():
    from statsmodels.genmod.bayes_mixed_glm import BinomialBayesMixedGLM

    M, _, _ = _answers(1, items=120, theta=(-0.5, 0.5, 1.5))
    theta, theta_sd, b, b_sd, sigma = fit_rasch(M)
    J, n = M.shape
    y, X, Z = [], [], []
    for j in range(J):
        for i in range(n):
            y.append(M[j, i])
            X.append([float(k == j) for k in range(J)])
            Z.append(i)
    Zm = sparse.csr_matrix((np.ones(len(Z)), (np.arange(len(Z)), Z)))
    res = BinomialBayesMixedGLM(np.array(y), np.array(X), Zm, np.zeros(n, dtype=int)).fit_vb(
        mean=np.zeros(J + 1 + n), sd=np.full(J + 1 + n, math.exp(-0.5)))
    assert theta == pytest.approx(res.fe_mean, rel=1e-6)
    assert b == pytest.approx(-res.vc_mean, rel=1e-6, abs=1e-9)
    assert sigma == pytest.approx(math.exp(res.vcp_mean[0]), rel=1e-6)


def test_simulated_abilities_and_difficulties_are_recovered():
    M, t, b = _answers(2, items=400)
    theta, theta_sd, bhat, b_sd, sigma = fit_rasch(M)
    # Abilities are relative to the average item: their differences are what the data identify.
    assert np.diff(theta) == pytest.approx(np.diff(t), abs=0.35)
    assert spearmanr(bhat, b).statistic > 0.6
    # An item every respondent answered the same way still gets a finite difficulty.
    assert np.all(np.isfinite(bhat)) and np.all(b_sd > 0)


@pytest.fixture(scope="module")
def noisy_runs(tmp_path_factory, climatecause_path):
    from causalgraph.bench.runner import run_benchmark

    root = tmp_path_factory.mktemp("irt")
    out = []
    for salt, flip in (("0", 0.1), ("1", 0.3), ("2", 0.5)):
        out.append(run_benchmark("ccr-member", ["A_5"], "mock/noisy", out=str(root / f"r{salt}"), temperature=1.0,
                                 model_options={"salt": salt, "flip": flip},
                                 cache_path=str(root / "cache.sqlite")).path)
    return out


def test_runs_of_three_noisy_mocks_order_as_their_error_rates(noisy_runs):
    res = irt_runs(noisy_runs)
    a = res.abilities
    assert list(a["n_items"]) == [512] * 3 and res.dropped == 0
    assert a["ability"].is_monotonic_decreasing
    assert (a["accuracy"].diff().dropna() < 0).all()
    items = res.items
    assert len(items) == 512 and bool(np.all(np.diff(np.round(items["difficulty"].to_numpy(), 6)) <= 0))
    # Rasch: an item's right answers are its sufficient statistic, so difficulty falls with them.
    by = items.groupby("n_right")["difficulty"]
    assert bool(np.all(by.min().to_numpy()[:-1] > by.max().to_numpy()[1:]))
    # Hardest items: those no run answered right.
    assert items["n_right"].iloc[0] == 0 and set(items.columns) >= {"statement_id", "event", "ci_low", "ci_high"}
    # Errors independent of complexity: the correlations are small.
    assert (res.correlations["spearman_rho"].abs().dropna() < 0.2).all()


def test_fewer_than_three_respondents_are_refused(noisy_runs):
    with pytest.raises(ConfigError, match="at least 3 respondents"):
        irt_runs(noisy_runs[:2])


def test_the_cli_prints_json_and_tables(noisy_runs, capsys):
    assert main(["stats", "irt", *map(str, noisy_runs), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == "rasch" and len(out["abilities"]) == 3 and len(out["items"]) == 512
    assert main(["stats", "irt", *map(str, noisy_runs), "--show", "hardest", "--top", "4", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("item,task,statement_id,event,difficulty") and len(lines) == 5
    assert main(["stats", "irt", *map(str, noisy_runs[:2])]) == 2
    assert "at least 3 respondents" in capsys.readouterr().err
