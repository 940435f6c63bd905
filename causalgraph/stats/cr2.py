"""Cluster-robust inference that holds with few clusters: CR2 standard errors with Bell–McCaffrey degrees of freedom.

The usual cluster-robust ("sandwich") variance — statsmodels' ``cov_type="cluster"``, Stata's CR1 —
is too small when the clusters are few or unequal: with 8 statements, or an effect that rests on a
handful of them, tests reject far more often than their level says (Cameron and Miller 2015;
MacKinnon and Webb 2017). Two corrections, both from Bell and McCaffrey (2002), restore it:

* **CR2** replaces each cluster's residuals ``e_g`` by ``A_g e_g`` with
  ``A_g = (I − H_gg)^{-1/2}``, ``H_gg`` the cluster's block of the hat matrix, which makes the
  variance estimator unbiased when the working model is right (the residuals of a cluster that
  pulls the fit towards itself are too small by exactly ``I − H_gg``);
* **Bell–McCaffrey degrees of freedom** for the t reference distribution of a contrast ``c'β``:
  the estimator ``c'Vc`` is a quadratic form ``Σ_g (q_g' ε)²`` in the errors, and its
  Satterthwaite approximation by a scaled χ² has ``ν = (Σλ)² / Σλ²``, where λ are the
  eigenvalues of the ``G × G`` matrix ``Gram = diag(|q_g|²) − M' B M`` (Imbens and Kolesár 2016).
  An effect that one statement carries gets ``ν`` near 1 — and an interval to match.

For a generalised linear model the same is done on the working (IRLS) scale at the maximum-likelihood
fit: ``X̃ = W^{1/2} X`` and ``ẽ = W^{-1/2} (y − μ)``, with ``W = diag(μ(1 − μ))`` for the logit
(Pustejovsky and Tipton 2018; R's clubSandwich does the same for ``glm``).

Each cluster also gives the one-step estimate without it, ``β − B X̃_g' (I − H_gg)^{-1} ẽ_g`` (exact for
least squares), so that an effect carried by one cluster can be named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

__all__ = ["ClusterRobust", "cr2"]


@dataclass
class ClusterRobust:
    """CR2 covariance of a fit and what goes with it.

    Attributes
    ----------
    cov
        ``k × k`` CR2 covariance of the coefficients.
    se
        Square roots of its diagonal.
    df
        Bell–McCaffrey degrees of freedom of each coefficient's t test.
    leave_one_out
        ``G × k``: the coefficients with each cluster left out (one step from the fit).
    clusters
        The cluster labels, in the order of the rows of ``leave_one_out``.
    """

    cov: np.ndarray
    se: np.ndarray
    df: np.ndarray
    leave_one_out: np.ndarray
    clusters: list[Any]


def _inv_sqrt(m: np.ndarray) -> np.ndarray:
    """``m^{-1/2}`` of a symmetric positive semi-definite matrix; directions with eigenvalue ~0 get 0.

    ``I − H_gg`` is singular when a cluster alone determines a coefficient (a dummy for one
    statement): its residuals are then 0 whatever the data, and no correction can restore them.
    """
    vals, vecs = np.linalg.eigh((m + m.T) / 2)
    keep = vals > 1e-10
    inv = np.zeros_like(vals)
    inv[keep] = 1.0 / np.sqrt(vals[keep])
    return (vecs * inv) @ vecs.T


def cr2(X: np.ndarray, y: np.ndarray, mu: np.ndarray, groups: Sequence[Any], *, weights: np.ndarray | None = None,
        params: np.ndarray | None = None) -> ClusterRobust:
    """CR2 covariance and Bell–McCaffrey degrees of freedom of a least-squares or GLM fit.

    Parameters
    ----------
    X
        ``n × k`` design matrix.
    y, mu
        Outcomes and fitted means.
    groups
        Cluster label of each row.
    weights
        Working weights ``W`` (``μ(1 − μ)`` for a logit with canonical link); ``None``: ordinary
        least squares (all 1).
    params
        The fitted coefficients, for :attr:`ClusterRobust.leave_one_out` (zeros when not given).

    Returns
    -------
    ClusterRobust

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> g = np.repeat(np.arange(6), 5); X = np.column_stack([np.ones(30), np.repeat(rng.normal(size=6), 5)])
    >>> y = rng.normal(size=30); beta = np.linalg.lstsq(X, y, rcond=None)[0]
    >>> r = cr2(X, y, X @ beta, g, params=beta)
    >>> bool(r.df[1] < 5), r.leave_one_out.shape
    (True, (6, 2))
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    mu = np.asarray(mu, dtype=float)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    sw = np.sqrt(w)
    Xt = X * sw[:, None]
    e = (y - mu) / sw
    B = np.linalg.pinv(Xt.T @ Xt)
    labels = list(dict.fromkeys(groups))
    index = {g: i for i, g in enumerate(labels)}
    codes = np.array([index[g] for g in groups])
    k = X.shape[1]
    G = len(labels)
    meat = np.zeros((k, k))
    # Per cluster: A_g X̃_g B (n_g × k), whose column j is q_g for the contrast e_j.
    Q: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    loo = np.zeros((G, k))
    beta = np.zeros(k) if params is None else np.asarray(params, dtype=float)
    for g in range(G):
        idx = np.flatnonzero(codes == g)
        Xg = Xt[idx]
        A = _inv_sqrt(np.eye(len(idx)) - Xg @ B @ Xg.T)
        u = Xg.T @ (A @ e[idx])
        meat += np.outer(u, u)
        Q.append(A @ Xg @ B)
        rows.append(idx)
        loo[g] = beta - B @ (Xg.T @ (A @ (A @ e[idx])))
    cov = B @ meat @ B
    df = np.empty(k)
    for j in range(k):
        # M: k × G, column g = X̃_g' q_g; Gram = diag(|q_g|²) − M' B M.
        M = np.column_stack([Xt[rows[g]].T @ Q[g][:, j] for g in range(G)])
        gram = np.diag([float(Q[g][:, j] @ Q[g][:, j]) for g in range(G)]) - M.T @ B @ M
        tr, tr2 = float(np.trace(gram)), float(np.sum(gram * gram))
        df[j] = tr * tr / tr2 if tr2 > 0 else np.nan
    return ClusterRobust(cov=cov, se=np.sqrt(np.maximum(np.diag(cov), 0.0)), df=df, leave_one_out=loo,
                         clusters=labels)
