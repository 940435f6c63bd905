"""Power of a paired comparison of two arms, before the run: McNemar's exact test and the statement-clustered test.

Two arms answer the same ``n`` items, grouped in statements of sizes ``n_s``. Per item the paired
outcome is ``d_i = right_B − right_A ∈ {−1, 0, 1}``: ``P(d = 1) = p_c`` (only B right),
``P(d = −1) = p_b`` (only A right); the discordance is ``p_b + p_c`` and the effect
``Δ = p_c − p_b``, the accuracy difference. Items of one statement are correlated with intra-statement
correlation ``ρ`` (of ``d``), so that the variance of the mean difference is ``V · DEFF / n`` with
``V = p_b + p_c − Δ²`` and the design effect ``DEFF = 1 + (m_w − 1) ρ``, ``m_w = Σ n_s² / n`` (Kish's
size-weighted cluster size, right for unequal statements).

Tests (as ``stats compare`` runs them):

``mcnemar``
    McNemar's exact binomial test on the discordant items. With ``ρ = 0`` its power is computed
    exactly: ``Σ_k P(N_d = k) · P(reject | k)`` over the binomial number of discordant items and the
    binomial split. With ``ρ > 0`` the test treats dependent items as independent; its rejection
    region is ``|b − c| > z √(b + c)`` in the normal approximation with ``Var(b − c) = n V DEFF``.
``clustered``
    The mean difference with a CR2 standard error over statements and Bell–McCaffrey degrees of
    freedom (:func:`causalgraph.stats.resampling.cluster_t_interval`): power from the noncentral t
    with noncentrality ``Δ √n / √(V · DEFF)`` and ``ν`` df, ``ν`` the Bell–McCaffrey df under the true
    correlation ρ, against the critical value of the test's own df ``ν₀`` (those of the working model,
    ρ = 0, which is what the data give the test); both depend only on the statement sizes and ρ
    (computed exactly).

``mode="simulation"`` draws ``n_sim`` datasets of the same design (each item copies its statement's
draw with probability √ρ, else draws its own: the marginal law is kept and the intra-statement
correlation is exactly ρ) and runs the tests themselves; the MDE and the statements needed are then
searched on the simulated power too (the same seed at every step).

The clustered test's analytic figures take the CR2 variance as a scaled χ²_ν. With few discordant items
per statement and ρ > 0 its statement totals are far from normal and the variance varies more than that:
:func:`clustered_misfit` measures by how much (the squared coefficient of variation of the CR2 variance
beyond the χ²_ν's, from the exact second and fourth moments of the statement totals). On the 72-cell grid
of docs/statistics.md every cell up to 0.028 is within 2 points of the simulation and the first beyond
it is off by 2.8, so where the misfit exceeds :data:`MAX_CLUSTERED_MISFIT` (0.025) the analytic clustered
power, MDE and statements needed are withheld (NaN/``None`` with a note) and ``mode="simulation"`` gives
them. McNemar's analytic figures hold on the whole grid.

From a pilot: :func:`pilot_pair` estimates ``p_b``, ``p_c``, ``ρ`` (one-way ANOVA estimator over
statements, truncated at 0) and the statement sizes from two runs of the same items.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from ..tasks import get_task
from .pairing import as_run, pair_key, run_name
from .resampling import bell_mccaffrey_traces

__all__ = ["Design", "TESTS", "design_effect", "power", "mde", "statements_needed", "pilot_pair", "pilot_run",
           "power_table", "icc_anova", "plan_power", "PLAN_POWER_COLUMNS", "clustered_misfit",
           "MAX_CLUSTERED_MISFIT"]

#: The tests :func:`power` knows.
TESTS = ("mcnemar", "clustered")

#: Above this :func:`clustered_misfit` the clustered test's analytic figures are withheld (docs/statistics.md:
#: on the 72-cell grid every cell up to 0.028 is within 2 points of the simulation, the next one off by 2.8).
MAX_CLUSTERED_MISFIT = 0.025


@dataclass
class Design:
    """A paired design: statement sizes, the discordant shares and the intra-statement correlation.

    Attributes
    ----------
    sizes
        Items per statement.
    p_b, p_c
        Share of items only arm A gets right, only arm B.
    icc
        Intra-statement correlation ρ of the paired difference.
    source
        Where the numbers come from (a pilot's runs, or "assumed").
    """

    sizes: list[int]
    p_b: float
    p_c: float
    icc: float = 0.0
    source: str = "assumed"
    notes: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return int(sum(self.sizes))

    @property
    def discordance(self) -> float:
        return self.p_b + self.p_c

    @property
    def delta(self) -> float:
        return self.p_c - self.p_b

    def with_delta(self, delta: float) -> "Design":
        """The same discordance and correlation with effect ``delta``."""
        d = self.discordance
        if not math.isfinite(delta):  # NaN fails every comparison: it would read as "exceeds the discordance"
            raise ConfigError(f"--delta {delta:g}: expected a finite accuracy difference in [-1, 1]")
        if not abs(delta) <= d:
            raise ConfigError(f"--delta {delta:g}: an accuracy difference cannot exceed the discordance {d:g}")
        return Design(self.sizes, (d - delta) / 2, (d + delta) / 2, self.icc, self.source, list(self.notes))

    def scaled(self, statements: int) -> "Design":
        """The design with ``statements`` statements of the same sizes, cycled (the pilot's mix of sizes)."""
        sizes = [self.sizes[i % len(self.sizes)] for i in range(statements)]
        return Design(sizes, self.p_b, self.p_c, self.icc, self.source, list(self.notes))


def _check(design: Design) -> None:
    if not design.sizes or min(design.sizes) < 1:
        raise ConfigError("a design needs at least one statement with at least one item")
    if not (0 <= design.p_b <= 1 and 0 <= design.p_c <= 1 and design.discordance <= 1):
        raise ConfigError(f"discordant shares p_b {design.p_b:g}, p_c {design.p_c:g}: expected shares in [0, 1] "
                          f"summing to at most 1")
    if not 0 <= design.icc < 1:
        raise ConfigError(f"--icc {design.icc:g}: expected a correlation in [0, 1)")


def design_effect(sizes: Sequence[int], icc: float) -> float:
    """Kish's design effect ``1 + (m_w − 1) ρ`` with the size-weighted mean statement size ``m_w = Σ n_s² / Σ n_s``.

    Examples
    --------
    >>> design_effect([4, 4, 4], 0.5), round(design_effect([1, 9], 0.1), 3)
    (2.5, 1.72)
    """
    s = np.asarray(sizes, dtype=float)
    return float(1 + (float((s * s).sum() / s.sum()) - 1) * icc)


def _bm_df(sizes: Sequence[int]) -> float:
    """Bell–McCaffrey df of a mean over statements of these sizes (it depends on the sizes only)."""
    return _cr2_moments(sizes, 0.0)[0]


def _mcnemar_exact_power(n: int, p_b: float, p_c: float, alpha: float, inflation: float = 1.0) -> float:
    """Power of McNemar's exact test: exact on ``n`` independent items (``inflation`` 1); with correlated items the
    split ``c`` of ``m`` discordant items is taken as normal with its binomial variance times ``inflation``
    (continuity-corrected), the rejection thresholds staying the exact test's."""
    from scipy.stats import binom, norm

    d = p_b + p_c
    if d <= 0:
        return 0.0
    # The discordant counts with any mass (the pmf is below 1e-14 outside, as the cut below keeps): not
    # arange(n + 1), which for 10^8 items is a gigabyte.
    k = np.arange(int(binom.ppf(1e-15, n, d)), int(binom.isf(1e-15, n, d)) + 1)
    pk = binom.pmf(k, n, d)
    keep = pk > 1e-14
    k, pk = k[keep], pk[keep]
    # Per number of discordant items m: the largest x with 2 P(X <= x) <= alpha under Bin(m, 1/2) (−1: none).
    pi = p_c / d
    m = k[k > 0].astype(float)
    w = pk[k > 0]
    lo = binom.ppf(alpha / 2, m, 0.5)
    lo = np.where(2 * binom.cdf(lo, m, 0.5) <= alpha + 1e-12, lo, lo - 1)
    # reject when min(b, c) <= lo: c <= lo or c >= m - lo (two tails apart when m - lo > lo)
    if inflation == 1.0:
        r = binom.cdf(lo, m, pi) + np.where(m - lo > lo, binom.sf(m - lo - 1, m, pi), 0.0)
    else:
        sd = np.sqrt(np.maximum(m * pi * (1 - pi) * inflation, 1e-12))
        r = norm.cdf((lo + 0.5 - m * pi) / sd) + np.where(m - lo > lo, norm.sf((m - lo - 0.5 - m * pi) / sd), 0.0)
    r = np.where(lo >= 0, np.minimum(1.0, r), 0.0)
    out = float((w * r).sum())
    return float(out)


def _analytic(design: Design, test: str, alpha: float) -> float:
    from scipy.stats import nct, norm, t as student

    n, d, delta = design.n, design.discordance, design.delta
    V = d - delta * delta
    deff = design_effect(design.sizes, design.icc)
    if test == "mcnemar":
        return _mcnemar_exact_power(n, design.p_b, design.p_c, alpha, inflation=deff)
    if len(design.sizes) < 2:
        return math.nan
    if V <= 0:
        return 1.0 if delta else 0.0
    nu, ratio = _cr2_moments(design.sizes, design.icc)
    # t = mean / SE_CR2: the mean has variance V·DEFF/n; E[SE²] = V·ratio·DEFF/n (ratio 1 at ρ = 0), and
    # SE² is taken as a scaled χ²_ν (Satterthwaite, with ν under the true correlation), so t·√ratio is a
    # noncentral t with ν df. The test compares |t| with the quantile of its own df, the Bell–McCaffrey df of
    # the working model (ρ = 0, what the data give the test): not with ν, which is smaller when ρ > 0.
    nu_test = _bm_df(design.sizes)
    ncp = delta * math.sqrt(n) / math.sqrt(V * deff)
    q = student.ppf(1 - alpha / 2, nu_test) * math.sqrt(ratio)
    out = float(nct.sf(q, nu, ncp) + nct.cdf(-q, nu, ncp))
    if not math.isfinite(out):  # scipy's noncentral t fails far in the tail: the normal limit there
        out = float(norm.sf(q - abs(ncp)))
    return out


def _cr2_moments(sizes: Sequence[int], icc: float) -> tuple[float, float]:
    """``(ν, r)`` of the CR2 variance of a mean over statements when items correlate ``icc`` within one.

    With ``c'V̂c = Σ_t (g_t'ε)²`` (the Bell–McCaffrey form) and ``Cov(ε) ∝ Ω = (1 − ρ) I + ρ blockdiag(J)``,
    ``E[V̂] ∝ tr(K)`` and the Satterthwaite ``ν = tr(K)² / tr(K²)`` with ``K = G'ΩG``; ``r`` is
    ``E[V̂]`` over the true variance of the mean. For an intercept, ``g_t = a_t (1_t − f_t 1)`` with
    ``f_t = n_t / n``, ``a_t = 1 / (n √(1 − f_t))``, so ``K`` is ``G × G``:
    ``D_a [(1 − ρ)(diag(n_t) − n f f') + ρ M'M] D_a`` with ``M_st = n_s (δ_st − f_t)``.
    """
    s = np.asarray(sizes, dtype=float)
    n = s.sum()
    tr, tr2 = bell_mccaffrey_traces(s, icc)  # in O(G): an item per statement may mean 100,000 statements
    nu = tr * tr / tr2 if tr2 > 0 else math.nan
    true = (1 + ((s * s).sum() / n - 1) * icc) / n  # Var(mean) / V = DEFF / n
    return nu, tr / true


def _total_moments(size: int, p_b: float, p_c: float, icc: float) -> tuple[float, float]:
    """``(μ₂, μ₄)``: central moments of one statement's total of ``d`` over ``size`` items, exactly.

    The items copy the statement's shared draw ``D₀`` with probability √ρ, else draw their own (the model of
    :func:`power`'s simulation), so given ``D₀`` the total is a sum of ``size`` independent items: its
    cumulants are ``size`` times an item's. The moments about the overall mean then mix the three values of
    ``D₀``.
    """
    q = math.sqrt(icc)
    values = np.array([-1.0, 0.0, 1.0])
    probs = np.array([p_b, 1 - p_b - p_c, p_c])
    parts = []
    for v, pv in zip(values, probs):
        px = q * (values == v) + (1 - q) * probs  # an item's law given D₀ = v
        m1 = float(px @ values)
        c = values - m1
        k2, k3 = float(px @ c ** 2), float(px @ c ** 3)
        k4 = float(px @ c ** 4) - 3 * k2 * k2
        parts.append((pv, size * m1, size * k2, size * k3, size * k4 + 3 * (size * k2) ** 2))
    mean = sum(pv * m for pv, m, *_ in parts)
    mu2 = sum(pv * (c2 + (m - mean) ** 2) for pv, m, c2, _, _ in parts)
    mu4 = sum(pv * (c4 + 4 * (m - mean) * c3 + 6 * (m - mean) ** 2 * c2 + (m - mean) ** 4)
              for pv, m, c2, c3, c4 in parts)
    return mu2, mu4


def clustered_misfit(design: Design) -> float:
    """How much more the clustered test's CR2 variance varies than the scaled χ²_ν its analytic power assumes.

    ``2 (κ − 1) / ν``: the squared coefficient of variation of the CR2 variance beyond the χ²_ν's ``2 / ν``,
    with ``κ = Σ w_s² (μ₄,s − μ₂,s²) / Σ w_s² 2 μ₂,s²`` (``w_s = 1 / (1 − n_s / n)``, the CR2 weights; the
    statement totals' moments exact, :func:`_total_moments`): 0 for normal totals, and small whatever the
    totals when there are many statements (ν large). Above :data:`MAX_CLUSTERED_MISFIT` the analytic
    clustered figures are withheld. NaN with one statement or no discordance.

    Examples
    --------
    >>> round(clustered_misfit(Design([8] * 63, 0.125, 0.125, 0.1)), 4)   # 25 % discordance
    0.0214
    >>> round(clustered_misfit(Design([8] * 63, 0.02, 0.04, 0.1)), 4)     # 6 %: few discordant items a statement
    0.1604
    """
    _check(design)
    if len(design.sizes) < 2 or design.discordance <= 0:
        return math.nan
    sizes, counts = np.unique(np.asarray(design.sizes, dtype=int), return_counts=True)
    n = float(design.n)
    num = den = 0.0
    for size, count in zip(sizes, counts):  # by distinct size: O(distinct sizes), not O(statements)
        mu2, mu4 = _total_moments(int(size), design.p_b, design.p_c, design.icc)
        w2 = (1 / (1 - size / n)) ** 2 if size < n else 0.0
        num += count * w2 * (mu4 - mu2 * mu2)
        den += count * w2 * 2 * mu2 * mu2
    nu, _ = _cr2_moments(design.sizes, design.icc)
    if den <= 0 or not nu > 0:
        return math.nan
    return float(2 * (num / den - 1) / nu)


def _withheld(design: Design, test: str, mode: str) -> bool:
    """Whether the analytic clustered figure at ``design`` is withheld (its misfit above the maximum)."""
    return mode == "analytic" and test == "clustered" and clustered_misfit(design) > MAX_CLUSTERED_MISFIT


def _simulate(design: Design, test: str, alpha: float, n_sim: int, seed: int) -> float:
    """Monte-Carlo power: draw ``n_sim`` datasets and run the test itself (vectorised over datasets)."""
    from scipy.stats import binom, t as student

    rng = np.random.default_rng(seed)
    sizes = np.asarray(design.sizes)
    G, n = len(sizes), int(sizes.sum())
    groups = np.repeat(np.arange(G), sizes)
    probs = np.array([design.p_b, 1 - design.discordance, design.p_c])
    values = np.array([-1.0, 0.0, 1.0])
    q = math.sqrt(design.icc)
    hits = 0
    chunk = max(1, min(n_sim, 2_000_000 // max(n, 1)))
    if test == "clustered":
        nu = _bm_df(sizes)
        crit = student.ppf(1 - alpha / 2, nu)
        frac = sizes / n
    done = 0
    while done < n_sim:
        m = min(chunk, n_sim - done)
        own = values[rng.choice(3, size=(m, n), p=probs)]
        shared = values[rng.choice(3, size=(m, G), p=probs)][:, groups]
        d = np.where(rng.random((m, n)) < q, shared, own)
        if test == "mcnemar":
            b = (d < 0).sum(axis=1)
            c = (d > 0).sum(axis=1)
            nd = b + c
            p = np.where(nd > 0, np.minimum(1.0, 2 * binom.cdf(np.minimum(b, c), np.maximum(nd, 1), 0.5)), 1.0)
            hits += int((p <= alpha).sum())
        else:
            mean = d.mean(axis=1)
            e = d - mean[:, None]
            S = np.zeros((m, G))
            np.add.at(S.T, groups, e.T)
            # CR2 of an intercept-only mean: A_g scales a statement's residual total by 1/sqrt(1 - n_g/n).
            var = (S * S / (1 - frac)).sum(axis=1) / (n * n) if G > 1 else np.full(m, np.nan)
            se = np.sqrt(var)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.where(se > 0, np.abs(mean) / se, np.where(mean != 0, np.inf, 0.0))
            hits += int((t > crit).sum())
        done += m
    return hits / n_sim


def _power_at(design: Design, test: str, alpha: float, mode: str, n_sim: int, seed: int) -> float:
    """The raw power (no check, nothing withheld) of one mode: the search helpers' inner call."""
    if mode == "analytic":
        return _analytic(design, test, alpha)
    return _simulate(design, test, alpha, n_sim, seed)


def _check_mode(test: str, alpha: float, mode: str, n_sim: int) -> None:
    if test not in TESTS:
        raise ConfigError(f"unknown test {test!r}; expected one of {', '.join(TESTS)}")
    if not 0 < alpha < 1:
        raise ConfigError(f"--alpha {alpha:g}: expected a number between 0 and 1")
    if mode not in ("analytic", "simulation"):
        raise ConfigError(f"unknown mode {mode!r}; expected analytic or simulation")
    if mode == "simulation" and n_sim < 1:
        raise ConfigError(f"--n-sim {n_sim}: expected an integer >= 1")


def power(design: Design, test: str = "mcnemar", *, alpha: float = 0.05, mode: str = "analytic",
          n_sim: int = 2000, seed: int = 0) -> float:
    """Power of ``test`` at level ``alpha`` for the effect ``design.delta``.

    NaN when it cannot be given: no discordant item, one statement for the clustered test, or the
    clustered test's analytic power where :func:`clustered_misfit` exceeds :data:`MAX_CLUSTERED_MISFIT`
    (``mode="simulation"`` gives it there).

    Examples
    --------
    >>> d = Design([5] * 100, p_b=0.10, p_c=0.20)
    >>> round(power(d, "mcnemar"), 3)
    0.983
    >>> abs(power(d, "mcnemar") - power(d, "mcnemar", mode="simulation", n_sim=4000)) < 0.02
    True
    """
    _check(design)
    _check_mode(test, alpha, mode, n_sim)
    if design.discordance <= 0:
        # The arms never disagree: neither test has anything to reject with; undefined, not 0.
        return math.nan
    if _withheld(design, test, mode):
        return math.nan
    return _power_at(design, test, alpha, mode, n_sim, seed)


def mde(design: Design, test: str = "mcnemar", *, alpha: float = 0.05, target: float = 0.8,
        mode: str = "analytic", n_sim: int = 2000, seed: int = 0) -> float:
    """The smallest |Δ| (same discordance and correlation) that ``test`` detects with power ``target``.

    NaN when even Δ = ± discordance is not detected with that power, and (analytic mode) for the clustered
    test where :func:`clustered_misfit` at the MDE exceeds :data:`MAX_CLUSTERED_MISFIT`. In simulation mode
    the search runs on the simulated power, every step with the same ``seed`` (so the draws differ only by
    the effect), to a step of discordance / 2¹⁴.

    Examples
    --------
    >>> round(mde(Design([1] * 874, 0.05, 0.05), "mcnemar"), 3)
    0.031
    """
    _check(design)
    _check_mode(test, alpha, mode, n_sim)
    d = design.discordance
    if not 0 < target < 1:
        raise ConfigError(f"--power {target:g}: expected a number between 0 and 1")

    def reached(delta: float) -> bool:
        return _power_at(design.with_delta(delta), test, alpha, mode, n_sim, seed) >= target

    if d <= 0 or not reached(d):  # NaN (one statement) fails too: not reached
        return math.nan
    lo, hi = 0.0, d
    for _ in range(40 if mode == "analytic" else 14):
        mid = (lo + hi) / 2
        if reached(mid):
            hi = mid
        else:
            lo = mid
    if _withheld(design.with_delta(hi), test, mode):
        return math.nan
    return hi


def statements_needed(design: Design, test: str = "mcnemar", *, alpha: float = 0.05, target: float = 0.8,
                      limit: Optional[int] = None, mode: str = "analytic", n_sim: int = 2000,
                      seed: int = 0) -> Optional[int]:
    """Fewest statements (of the design's mix of sizes) for power ``target`` at ``design.delta``.

    ``None`` for Δ = 0, beyond ``limit`` statements (default 100,000 analytic, 10,000 simulated: every
    step of the search simulates a design of that many), and (analytic) for the clustered test where
    :func:`clustered_misfit` of the design found exceeds :data:`MAX_CLUSTERED_MISFIT`.

    Examples
    --------
    >>> statements_needed(Design([8] * 63, 0.10, 0.15), "mcnemar")
    103
    """
    _check(design)
    _check_mode(test, alpha, mode, n_sim)
    if design.delta == 0:
        return None
    if limit is None:
        limit = STATEMENTS_LIMIT[mode]

    def ok(G: int) -> bool:
        return _power_at(design.scaled(G), test, alpha, mode, n_sim, seed) >= target

    lo = 2 if test == "clustered" else 1
    hi = lo
    while not ok(hi):
        if hi >= limit:
            return None
        hi = min(hi * 2, limit)
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    if _withheld(design.scaled(hi), test, mode):
        return None
    return hi


#: The most statements :func:`statements_needed` searches, by mode.
STATEMENTS_LIMIT = {"analytic": 100_000, "simulation": 10_000}


def icc_anova(values: np.ndarray, groups: Sequence[Any]) -> float:
    """One-way ANOVA estimator of the intra-cluster correlation, truncated at 0 (unequal sizes: Donner's n₀).

    Examples
    --------
    >>> float(round(icc_anova(np.array([1., 1, 1, 0, 0, 0]), [0, 0, 0, 1, 1, 1]), 3))
    1.0
    """
    values = np.asarray(values, dtype=float)
    labels = list(dict.fromkeys(groups))
    idx = {g: i for i, g in enumerate(labels)}
    codes = np.array([idx[g] for g in groups])
    G, N = len(labels), len(values)
    if G < 2 or N <= G:
        return 0.0
    n_g = np.bincount(codes, minlength=G).astype(float)
    means = np.bincount(codes, weights=values, minlength=G) / n_g
    grand = values.mean()
    msb = float((n_g * (means - grand) ** 2).sum() / (G - 1))
    msw = float(((values - means[codes]) ** 2).sum() / (N - G))
    n0 = (N - (n_g ** 2).sum() / N) / (G - 1)
    den = msb + (n0 - 1) * msw
    return max(0.0, (msb - msw) / den) if den > 0 else 0.0


def pilot_pair(run_a, run_b, *, variant_a: Optional[str] = None, variant_b: Optional[str] = None) -> Design:
    """Estimate a :class:`Design` from two runs of the same items (correctness paired by item).

    Failed requests are left out; unparsed answers are wrong. Statement sizes, ``p_b``, ``p_c`` and
    the intra-statement correlation of the paired difference come from the pilot.
    """
    right_a, sid = _correct_by_key(run_a, variant_a)
    right_b, _ = _correct_by_key(run_b, variant_b)
    keys = [k for k in right_a if k in right_b]
    if not keys:
        raise ConfigError("the two pilot runs share no answered item; give runs of the same items")
    d = np.array([float(right_b[k]) - float(right_a[k]) for k in keys])
    groups = [sid[k] for k in keys]
    sizes = list(np.unique(np.array([str(g) for g in groups]), return_counts=True)[1])
    return Design([int(s) for s in sizes], float((d < 0).mean()), float((d > 0).mean()), icc_anova(d, groups),
                  source=f"pilot {run_name(_as(run_a))} vs {run_name(_as(run_b))}")


def pilot_run(run, *, delta: float, discordance: Optional[float] = None, variant: Optional[str] = None) -> Design:
    """A :class:`Design` from one pilot run and an assumed Δ: the run's statement sizes and correlation of
    correctness, and, unless given, the discordance of two arms answering independently given the
    item (``p_A (1 − p_B) + p_B (1 − p_A)`` with ``p_B = p_A + Δ``: an upper bound)."""
    if discordance is not None and not 0 <= discordance <= 1:
        raise ConfigError(f"--discordance {discordance:g}: expected a share in [0, 1]")
    if not math.isfinite(delta):
        raise ConfigError(f"--delta {delta:g}: expected a finite accuracy difference in [-1, 1]")
    right, sid = _correct_by_key(run, variant)
    keys = list(right)
    if not keys:
        raise ConfigError("the pilot run has no answered item")
    y = np.array([float(right[k]) for k in keys])
    groups = [sid[k] for k in keys]
    sizes = [int(s) for s in np.unique(np.array([str(g) for g in groups]), return_counts=True)[1]]
    pa = float(y.mean())
    pb = pa + delta
    if not 0 <= pb <= 1:
        raise ConfigError(f"--delta {delta:g}: the pilot's accuracy {pa:.3f} plus it leaves [0, 1]")
    # Independent arms disagree at least |delta| of the time (exactly that at an accuracy of 0 or 1, where the
    # sum can round a last bit below |delta|).
    d = discordance if discordance is not None else max(abs(delta), pa * (1 - pb) + pb * (1 - pa))
    design = Design(sizes, 0.0, 0.0, icc_anova(y, groups), source=f"pilot {run_name(_as(run))}, assumed delta")
    design.p_b, design.p_c = d / 2, d / 2
    out = design.with_delta(delta)
    if discordance is None:
        out.notes.append(f"discordance {d:.3f} assumed: the two arms answer independently given the item "
                         f"(an upper bound; a pilot pair measures it)")
    return out


def _as(run):
    return as_run(run)


def _correct_by_key(run, variant: Optional[str]) -> tuple[dict, dict]:
    r = _as(run)
    variants = [variant] if variant else r.variants
    if variant is None and len(variants) != 1:
        raise ConfigError(f"run {r.path} has {len(variants)} variants ({', '.join(variants)}); a pilot is one "
                          f"variant: give runs of one variant")
    right, sid = {}, {}
    for v in variants:
        for rec in r.records(v):
            if rec.error:
                continue
            spec = get_task(str(rec.task or r.task))
            k = pair_key(rec)
            right[k] = bool(spec.is_correct(rec))
            sid[k] = rec.meta.get("statement_id", k)
    return right, sid


def power_table(design: Design, *, alpha: float = 0.05, target: float = 0.8, mode: str = "analytic",
                n_sim: int = 2000, seed: int = 0, tests: Sequence[str] = TESTS) -> list[dict[str, Any]]:
    """One row per test: the design, the power at its Δ, the MDE at ``target`` and the statements/items needed.

    All three figures come from ``mode`` (the simulation with ``n_sim`` datasets and ``seed``). A value
    that cannot be given is NaN (``None`` for the statements needed) and ``note`` says why (no discordant
    item, one statement for the clustered test, an MDE or a power out of reach, an analytic clustered figure
    withheld for its :func:`clustered_misfit`); else ``note`` is ``None``. ``misfit`` is the clustered
    row's :func:`clustered_misfit` at the design (``None`` for McNemar).

    Examples
    --------
    >>> rows = power_table(Design([8] * 63, 0.10, 0.15))
    >>> [(r["test"], round(r["power"], 3)) for r in rows]
    [('mcnemar', 0.581), ('clustered', 0.603)]
    """
    rows = []
    for test in tests:
        kw = dict(alpha=alpha, mode=mode, n_sim=n_sim, seed=seed)
        G = statements_needed(design, test, target=target, **kw)
        p = power(design, test, **kw)
        m = mde(design, test, target=target, **kw)
        misfit = clustered_misfit(design) if test == "clustered" else None
        rows.append({"test": test, "mode": mode, "items": design.n, "statements": len(design.sizes),
                     "discordance": design.discordance, "delta": design.delta, "icc": design.icc,
                     "deff": design_effect(design.sizes, design.icc), "power": p, "mde": m,
                     "statements_needed": G,
                     "items_needed": None if G is None else int(sum(design.scaled(G).sizes)),
                     "alpha": alpha, "target_power": target, "misfit": misfit,
                     "note": _undefined_note(design, test, p, m, G, target, mode, alpha=alpha)})
    return rows


def _undefined_note(design: Design, test: str, p: float, m: float, G: Optional[int], target: float,
                    mode: str = "analytic", *, alpha: float = 0.05) -> Optional[str]:
    """Why :func:`power_table`'s row leaves power, MDE or statements needed undefined (``None``: all given)."""
    if design.discordance <= 0:
        return "no discordant item: the arms always agree, so power, MDE and statements needed are undefined"
    why, withheld = [], []
    if math.isnan(p) and test == "clustered" and len(design.sizes) < 2:
        why.append("one statement: the clustered test needs two or more, power undefined")
    elif math.isnan(p) and _withheld(design, test, mode):
        withheld.append(f"power (misfit {clustered_misfit(design):.3f})")
    if math.isnan(m):
        # withheld, not out of reach, when the raw analytic power reaches the target at Δ = discordance
        if mode == "analytic" and test == "clustered" and len(design.sizes) >= 2 and \
                _analytic(design.with_delta(design.discordance), test, alpha) >= target:
            withheld.append("mde")
        else:
            why.append(f"mde not reached: even |delta| = discordance {design.discordance:g} has power below "
                       f"{target:g}")
    if G is None:
        if design.delta == 0:
            why.append("statements_needed undefined: delta 0 has no power to reach")
        elif mode == "analytic" and test == "clustered" and _reaches_within_limit(design, test, alpha, target):
            withheld.append("statements_needed")
        else:
            why.append(f"statements_needed not reached within {STATEMENTS_LIMIT[mode]:,} statements")
    if withheld:
        why.append(f"analytic {', '.join(withheld)} withheld: the CR2 variance varies more than the noncentral t "
                   f"assumes (misfit above {MAX_CLUSTERED_MISFIT:g}: few discordant items a statement); "
                   f"--mode simulation gives them")
    return "; ".join(why) or None


def _reaches_within_limit(design: Design, test: str, alpha: float, target: float) -> bool:
    """Whether the raw analytic power reaches ``target`` within the analytic statement limit."""
    return _analytic(design.scaled(STATEMENTS_LIMIT["analytic"]), test, alpha) >= target


#: The columns of :func:`plan_power`'s rows after the plan's task and variant (``bench plan --power``).
PLAN_POWER_COLUMNS = ["test", "items", "statements", "discordance", "delta", "icc", "deff", "power", "mde",
                      "statements_needed", "items_needed"]


def plan_power(plan_rows: Sequence[dict], design: Design, *, alpha: float = 0.05, target: float = 0.8,
               tests: Sequence[str] = TESTS) -> list[dict[str, Any]]:
    """``stats power``'s figures for each planned task and variant (``bench plan --power``).

    ``plan_rows`` are :func:`causalgraph.bench.plan.plan_run`'s rows with ``statement_sizes``; ``design``
    gives the discordant shares and the intra-statement correlation (assumed, or a pilot's: its statement
    sizes are replaced by each planned variant's). Each output row is the plan row's ``task``,
    ``variant``, ``requests`` and ``cost_usd_est`` followed by :func:`power_table`'s row (analytic) for
    the planned items: the same numbers as ``stats power --items N --statements G`` when the planned
    statements are of (near) equal size, and in general as :func:`power_table` on
    ``Design(sizes, p_b, p_c, icc)``.

    Examples
    --------
    >>> plan = [{"task": "t", "variant": "v", "requests": 874, "cost_usd_est": 1.0, "statement_sizes": [2] * 437}]
    >>> row = plan_power(plan, Design([1], 0.05, 0.15, 0.0), tests=["mcnemar"])[0]
    >>> row["items"], row["statements"], round(row["power"], 3) == round(
    ...     power(Design([2] * 437, 0.05, 0.15), "mcnemar"), 3)
    (874, 437, True)
    """
    out = []
    for plan_row in plan_rows:
        sizes = plan_row.get("statement_sizes")
        if sizes is None:
            raise ConfigError("plan_power: the plan rows carry no statement_sizes; plan with statement_sizes=True")
        head = {k: plan_row.get(k) for k in ("task", "variant", "requests", "cost_usd_est")}
        if not sizes:  # a variant with no item: nothing to size (undefined, with the reason)
            out += [{**head, "test": t, "items": 0, "statements": 0, "discordance": design.discordance,
                     "delta": design.delta, "icc": design.icc, "deff": math.nan, "power": math.nan, "mde": math.nan,
                     "statements_needed": None, "items_needed": None, "alpha": alpha, "target_power": target,
                     "misfit": None, "note": "no planned item: power, MDE and statements needed are undefined"} for t in tests]
            continue
        planned = Design([int(x) for x in sizes], design.p_b, design.p_c, design.icc, design.source,
                         list(design.notes))
        out += [{**head, **{k: v for k, v in row.items() if k != "mode"}}
                for row in power_table(planned, alpha=alpha, target=target, tests=tests)]
    return out
