"""stats power: McNemar's exact power by enumeration, analytic against simulation, MDE and statements needed, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as ss

from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.stats.power import Design, design_effect, icc_anova, mde, power, statements_needed

SIZES63 = [2] * 5 + [3] * 9 + [4] * 11 + [5] * 5 + [6] * 4 + [7] * 3 + [8] * 5 + [9] * 6 + [11] * 4 + [12] * 2 + \
    [14] * 3 + [15, 17, 18, 23, 41, 43]  # ClimateCause's ccr-member A_5 statements (512 items)


def _sizes(n):
    out, i = [], 0
    while sum(out) < n:
        out.append(SIZES63[i % 63])
        i += 1
    out[-1] -= sum(out) - n
    return out


def test_exact_mcnemar_power_equals_enumeration_of_every_table():
    # n = 30 items: enumerate (b, c, rest) ~ Multinomial, reject where the exact two-sided p <= 0.05.
    n, pb, pc = 30, 0.1, 0.3
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if b + c == 0:
                continue
            p = min(1.0, 2 * ss.binom.cdf(min(b, c), b + c, 0.5))
            if p <= 0.05:
                total += ss.multinomial.pmf([b, c, n - b - c], n, [pb, pc, 1 - pb - pc])
    assert power(Design([1] * n, pb, pc), "mcnemar") == pytest.approx(total, abs=1e-10)


@pytest.mark.parametrize("n", [100, 500, 2000])
@pytest.mark.parametrize("disc", [0.1, 0.4])
@pytest.mark.parametrize("icc", [0.0, 0.25, 0.5])
def test_mcnemar_analytic_power_within_2_points_of_simulation(n, disc, icc):
    d = Design(_sizes(n), disc * 3 / 8, disc * 5 / 8, icc)  # delta = disc / 4
    sim = power(d, "mcnemar", mode="simulation", n_sim=3000, seed=n)
    se = math.sqrt(max(sim * (1 - sim), 0.01) / 3000)
    assert abs(power(d, "mcnemar") - sim) <= 0.02 + 2 * se


@pytest.mark.parametrize("n", [100, 500, 2000])
@pytest.mark.parametrize("disc", [0.1, 0.4])
def test_clustered_analytic_power_within_2_points_of_simulation_without_correlation(n, disc):
    d = Design(_sizes(n), disc * 3 / 8, disc * 5 / 8, 0.0)
    sim = power(d, "clustered", mode="simulation", n_sim=3000, seed=n)
    se = math.sqrt(max(sim * (1 - sim), 0.01) / 3000)
    assert abs(power(d, "clustered") - sim) <= 0.02 + 2 * se


def test_simulated_level_is_alpha_under_no_difference():
    d = Design(_sizes(500), 0.1, 0.1, 0.3)
    assert power(d, "clustered", mode="simulation", n_sim=4000, seed=3) == pytest.approx(0.05, abs=0.015)


def test_mde_is_where_power_reaches_the_target_and_statements_needed_is_the_first_g():
    d = Design([8] * 63, 0.10, 0.15)
    m = mde(d, "mcnemar")
    assert power(d.with_delta(m), "mcnemar") == pytest.approx(0.8, abs=1e-3)
    G = statements_needed(d, "mcnemar")
    assert power(d.scaled(G), "mcnemar") >= 0.8 > power(d.scaled(G - 1), "mcnemar")


def test_design_effect_and_icc_by_hand():
    assert design_effect([2, 4], 0.5) == pytest.approx(1 + ((4 + 16) / 6 - 1) * 0.5)
    # two statements: values equal within, different between -> ICC 1; alternating within -> 0
    assert icc_anova(np.array([1.0, 1, 0, 0]), ["a", "a", "b", "b"]) == pytest.approx(1.0)
    assert icc_anova(np.array([1.0, 0, 1, 0]), ["a", "a", "b", "b"]) == 0.0


def test_cli_power_without_pilot_and_its_refusals(capsys):
    assert main(["stats", "power", "--items", "874", "--statements", "63", "--discordance", "0.2", "--delta",
                 "0.05", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["test"]: r for r in out["rows"]}
    assert rows["mcnemar"]["items"] == 874 and rows["mcnemar"]["statements"] == 63
    assert rows["mcnemar"]["power"] == pytest.approx(power(Design([14] * 55 + [13] * 8, 0.075, 0.125),
                                                           "mcnemar"), abs=1e-9)
    assert main(["stats", "power", "--items", "874", "--discordance", "0.2", "--delta", "0.5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot exceed the discordance" in err[0]
    assert main(["stats", "power", "--items", "100"]) == 2
    assert "needs --discordance, --delta" in capsys.readouterr().err


def test_cli_power_from_a_pilot_pair(tmp_path, capsys, climatecause_path):
    from causalgraph.bench.runner import run_benchmark

    a = run_benchmark("ccr-member", ["A_5"], "mock/noisy", out=str(tmp_path / "a"), temperature=1.0, limit=120,
                      cache_path=str(tmp_path / "c.sqlite")).path
    b = run_benchmark("ccr-member", ["A_5"], "mock/oracle", out=str(tmp_path / "b"), limit=120,
                      cache_path=str(tmp_path / "c.sqlite")).path
    assert main(["stats", "power", str(a), str(b), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["rows"][0]
    # The oracle is always right: every discordant item is "only B right"; delta = discordance = 1 - acc(A).
    assert row["delta"] == pytest.approx(row["discordance"]) and row["items"] == 120
    assert "pilot" in out["source"]
