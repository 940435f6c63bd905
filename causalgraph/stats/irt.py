"""Item difficulty across models: a Rasch (1PL) model of several runs over the same items.

Each *respondent* is one run and variant (a model under one prompt); each *item* is one question
(task, graph edit and the item key: statement and event or pair), kept when every respondent
answered it.  The Rasch model says respondent ``j`` answers item ``i`` right with probability

    P(correct) = 1 / (1 + exp(−(θ_j − b_i)))

with ability ``θ_j`` and difficulty ``b_i``.  It is fitted as a generalised linear mixed model
(De Boeck et al. 2011, "The estimation of item response models with the lmer function"): the
abilities are fixed effects, the items a random intercept ``−b_i ~ N(0, σ²)``, by ``statsmodels``'
``BinomialBayesMixedGLM`` (variational Bayes; prior SD 2 on the abilities).

Why this and not an IRT library: benchmarks reverse the usual shape of IRT data — a handful of
models (respondents) and hundreds of items.  Joint or marginal maximum likelihood as IRT packages
implement it (``girth``, ``py-irt``, R's ``mirt``) treats the respondents as the random sample and
gives an item every model answers right an infinite difficulty; with items random, such an item
gets a finite, shrunken difficulty with a wide interval, and three runs suffice.  statsmodels is
already a dependency.  For the same reason no 2PL is fitted: an item's discrimination would rest
on as many answers as there are runs (three to a dozen), which identifies nothing.

Difficulties are on the logit scale relative to the average item (mean 0 by construction);
intervals are posterior mean ± 1.96 posterior SD.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from ..graph.edits import split_edit
from ..tasks import get_task
from .pairing import as_run, pair_key, run_name
from ..datasets import load_corpus
from .difficulty import STATEMENT_FEATURES, _statement_features

__all__ = ["MIN_RESPONDENTS", "MIN_ITEMS", "IRTResult", "irt_matrix", "fit_rasch", "irt_runs"]

#: Fewest respondents (runs × variants) a fit accepts.
MIN_RESPONDENTS = 3
#: Fewest items answered by every respondent.
MIN_ITEMS = 30


@dataclass
class IRTResult:
    """A fitted Rasch model.

    Attributes
    ----------
    abilities
        ``pandas.DataFrame``: ``respondent, ability, ci_low, ci_high, accuracy, n_items``.
    items
        ``pandas.DataFrame``: ``item, task, statement_id, event, difficulty, ci_low, ci_high,
        n_right, n``, hardest first.
    correlations
        ``pandas.DataFrame``: ``metric, spearman_rho, p, n``: item difficulty against each
        statement metric (:data:`causalgraph.stats.difficulty.STATEMENT_FEATURES`).
    item_sd
        Posterior mean of σ, the SD of item difficulties.
    dropped
        Items left out because some respondent did not answer them.
    """

    abilities: Any
    items: Any
    correlations: Any
    item_sd: float
    dropped: int


def irt_matrix(runs: Sequence[Any]):
    """``(matrix, respondents, items, info)``: 0/1 correctness, respondents × items answered by all.

    ``info`` maps each item to ``(task, statement_id, event)``.  Failed requests count as missing
    answers, so their items are dropped.
    """
    loaded = [as_run(r) for r in runs]
    answers: dict[str, dict[tuple, bool]] = {}
    info: dict[tuple, tuple] = {}
    for run in loaded:
        for v in run.variants:
            who = f"{run_name(run)} {v}"
            if who in answers:
                raise ConfigError(f"run {run_name(run)} variant {v} is given twice")
            got: dict[tuple, bool] = {}
            for rec in run.records(v):
                if rec.error:
                    continue
                task = str(rec.task or run.task)
                key = (task, split_edit(v)[1], pair_key(rec))
                got[key] = bool(get_task(task).is_correct(rec))
                meta = rec.meta or {}
                info.setdefault(key, (task, str(meta.get("statement_id")), meta.get("event")))
            answers[who] = got
    respondents = list(answers)
    if len(respondents) < MIN_RESPONDENTS:
        raise ConfigError(f"an item response model needs at least {MIN_RESPONDENTS} respondents (runs × variants) over "
                          f"the same items; got {len(respondents)}")
    common = [k for k in answers[respondents[0]] if all(k in answers[r] for r in respondents[1:])]
    every = set().union(*(set(a) for a in answers.values()))
    if len(common) < MIN_ITEMS:
        raise ConfigError(f"only {len(common)} items were answered by all {len(respondents)} respondents (of "
                          f"{len(every)}); an item response model needs at least {MIN_ITEMS} — give runs of the same "
                          f"task, variant and items")
    M = np.array([[answers[r][k] for k in common] for r in respondents], dtype=float)
    return M, respondents, common, {k: info[k] for k in common}, len(every) - len(common)


def fit_rasch(M: np.ndarray, *, alpha: float = 0.05):
    """``(theta, theta_sd, b, b_sd, sigma)`` of the Rasch model fitted to a respondents × items 0/1 matrix.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> b = rng.normal(size=200)
    >>> M = (rng.random((4, 200)) < 1 / (1 + np.exp(-(np.array([-1, 0, 1, 2])[:, None] - b)))).astype(float)
    >>> theta = fit_rasch(M)[0]
    >>> bool(np.all(np.diff(theta) > 0))
    True
    """
    import scipy.sparse as sp
    from statsmodels.genmod.bayes_mixed_glm import BinomialBayesMixedGLM

    J, n = M.shape
    y = M.reshape(-1)
    rows = np.arange(J * n)
    X = np.zeros((J * n, J))
    X[rows, np.repeat(np.arange(J), n)] = 1.0
    Z = sp.csr_matrix((np.ones(J * n), (rows, np.tile(np.arange(n), J))), shape=(J * n, n))
    model = BinomialBayesMixedGLM(y, X, Z, np.zeros(n, dtype=int), fe_p=2, vcp_p=1)
    k = model.k_fep + model.k_vcp + model.k_vc
    # Explicit starting values: statsmodels would otherwise draw them at random.
    res = model.fit_vb(mean=np.zeros(k), sd=np.full(k, math.exp(-0.5)))
    return (np.asarray(res.fe_mean), np.asarray(res.fe_sd), -np.asarray(res.vc_mean), np.asarray(res.vc_sd),
            float(math.exp(float(res.vcp_mean[0]))))


def irt_runs(runs: Sequence[Any], *, data: Optional[str] = None, alpha: float = 0.05) -> IRTResult:
    """The Rasch model of several runs over the same items (see the module docstring).

    Parameters
    ----------
    runs
        Run directories or loaded runs; every run and variant is a respondent (at least three).
    data
        Corpus the runs were built from, for the statement metrics (default: the first run's
        task's corpus).
    alpha
        Level of the intervals.

    Examples
    --------
    >>> res = irt_runs(["runs/a", "runs/b", "runs/c"])        # doctest: +SKIP
    >>> res.abilities[["respondent", "ability"]]              # doctest: +SKIP
    """
    import pandas as pd
    from scipy.stats import norm, spearmanr

    if not 0 < alpha < 1:
        raise ConfigError(f"--alpha {alpha}: expected a number between 0 and 1")
    loaded = [as_run(r) for r in runs]
    M, respondents, keys, info, dropped = irt_matrix(loaded)
    theta, theta_sd, b, b_sd, sigma = fit_rasch(M, alpha=alpha)
    z = norm.ppf(1 - alpha / 2)
    abilities = pd.DataFrame({"respondent": respondents, "ability": theta, "ci_low": theta - z * theta_sd,
                              "ci_high": theta + z * theta_sd, "accuracy": M.mean(axis=1),
                              "n_items": M.shape[1]})
    items = pd.DataFrame({"item": ["/".join(k[2:]) if k[1] == "real" else f"{k[2]} ({k[1]})" for k in keys],
                          "task": [info[k][0] for k in keys], "statement_id": [info[k][1] for k in keys],
                          "event": [info[k][2] for k in keys], "difficulty": b, "ci_low": b - z * b_sd,
                          "ci_high": b + z * b_sd, "n_right": M.sum(axis=0).astype(int), "n": M.shape[0]})
    # Hardest first; ties in item order.  Items with the same answers share one difficulty up to the
    # optimiser's last digits, which must not order them.
    order = np.lexsort((np.arange(len(items)), -np.round(items["difficulty"].to_numpy(), 6)))
    items = items.iloc[order].reset_index(drop=True)
    source = data if data is not None else get_task(loaded[0].task).data_source()
    values = _statement_features(load_corpus(source))
    missing = sorted({s for s in items["statement_id"] if s not in values})
    if missing:
        raise ConfigError(f"the runs ask about statements the corpus does not hold ({', '.join(missing[:5])}); pass the "
                          f"corpus they were built from with --data")
    corr = []
    for metric in STATEMENT_FEATURES:
        x = np.array([values[s].get(metric, math.nan) for s in items["statement_id"]], dtype=float)
        keep = np.isfinite(x)
        if keep.sum() < 3 or np.ptp(x[keep]) == 0:
            corr.append({"metric": metric, "spearman_rho": math.nan, "p": math.nan, "n": int(keep.sum())})
            continue
        r = spearmanr(items["difficulty"].to_numpy()[keep], x[keep])
        corr.append({"metric": metric, "spearman_rho": float(r.statistic), "p": float(r.pvalue), "n": int(keep.sum())})
    return IRTResult(abilities=abilities, items=items, correlations=pd.DataFrame(corr), item_sd=sigma,
                     dropped=dropped)
