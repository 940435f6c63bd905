"""Which features of an item make a model fail: logistic difficulty models of correctness.

For each run and variant (or all of them pooled, with the variant as a factor), every answered item's
correctness (:meth:`causalgraph.tasks.Task.is_correct`: the predicted label equals gold; for the set
tasks, the exact set) is regressed on features of the item and its statement:

* statement features, from :func:`causalgraph.metrics.complexity.complexity_table` (``c_com``,
  ``c_ex``, ``c_nest``, ``c_corr``, ``c_pol``, ``c_raw``, ``c_norm`` = C(s), ``density``,
  ``n_tokens``) and :func:`causalgraph.metrics.chains.chain_stats` of the annotated graph
  (``depth``, ``breadth``, ``n_nodes``, ``n_chains``), standardised over the items of the fit
  (mean 0, population SD 1), so that each odds ratio is *per standard deviation*;
* item factors, dummy-coded against their most frequent level (ties: the first in sorted order):
  ``position`` (the asked event's gold chain position, CCR tasks), ``encoding``, ``event_names``
  and ``graph_edit`` (read from the variant id), and ``variant`` when pooled.

Two models:

``logit`` (default)
    logistic regression (``statsmodels`` GLM, binomial family) with standard errors clustered by
    statement (``cov_type="cluster"``, statsmodels' small-sample correction), so that the items of
    one statement, which share its graph and text, are not counted as independent evidence;
``mixed``
    a random intercept per statement (``statsmodels``' ``BinomialBayesMixedGLM``, variational
    Bayes, prior SD 2 on the standardised fixed effects and its default prior on the log-SD of the
    statement effects); the interval is the posterior mean ± 1.96 posterior SD and ``p`` the normal
    approximation 2Φ(−|mean/SD|) — Bayesian summaries, not frequentist tests.

Refused with one line (:class:`~causalgraph.errors.ConfigError`) is what cannot be estimated: fewer
than :data:`MIN_ITEMS` answered items, a constant feature, collinear features, and (``logit``)
perfect or quasi-perfect separation — found exactly by a linear programme (Konis 2007): a direction
of the coefficients along which the likelihood rises for ever.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from .._core.wording import plural
from .corrections import holm
from ..graph import compile_graph
from ..metrics.chains import chain_stats
from ..metrics.complexity import complexity_table
from ..model import as_statements
from ..graph.edits import split_edit
from ..graph.naming import split_variant
from ..prompts import variant_encoding
from ..tasks import get_task
from .cr2 import cr2
from .pairing import as_run, run_name
from ..datasets import load_corpus
from .._core.outputs import output_file

__all__ = ["MODELS", "DEFAULT_FEATURES", "STATEMENT_FEATURES", "ITEM_FACTORS", "ITEM_FEATURES", "MIN_ITEMS", "MIN_SUPPORT", "MIN_STATEMENTS_TEST", "COLUMNS",
           "DifficultyFit", "Design", "design_matrix", "fit_difficulty", "difficulty_frame", "difficulty_runs", "table_rows",
           "supported_features",
           "difficulty_curve", "plot_difficulty"]

#: The two models of :func:`fit_difficulty`.
MODELS = ("logit", "mixed")
#: Features used when none are given: the paper's five complexity components.
DEFAULT_FEATURES = ("c_com", "c_ex", "c_nest", "c_corr", "c_pol")
#: Chain statistics of the annotated graph, one value per statement.
CHAIN_FEATURES = ("depth", "breadth", "n_nodes", "n_chains")
#: Numeric statement features (the complexity table's columns and the chain statistics).
STATEMENT_FEATURES = ("c_com", "c_ex", "c_nest", "c_corr", "c_pol", "c_raw", "c_norm", "density", "n_tokens",
                      *CHAIN_FEATURES)
#: Categorical item features.
ITEM_FACTORS = ("position", "encoding", "event_names", "graph_edit", "variant")
#: Numeric item features, read from the item's meta where its task records them (the sign tasks:
#: ``hops`` and ``negative_edges`` of a multi-hop chain; all four for a net-effect pair, whose
#: ``conflicting`` is 1 when paths of both signs join it); an item without one has no value for it.
ITEM_FEATURES = ("hops", "negative_edges", "n_paths", "conflicting")
#: Fewest answered items a fit accepts.
MIN_ITEMS = 30
#: Fewest statements a term must set apart from the rest (a numeric feature away from its most
#: common value, a factor level present): clustered standard errors of an effect that rests on a
#: handful of statements are far too small (MacKinnon and Webb 2017), so such a term is refused.
MIN_SUPPORT = 5
#: Fewest statements for a term's test (``p``, ``p_holm``, ``significant``): with fewer, CR2 with
#: Bell–McCaffrey df rejects a null term less often than the [0.03, 0.07] band at α = 0.05 asks
#: (benchmarks/bench_stats_level.py, docs/statistics.md: 1.5–2.6 % at 8–15 statements), so the test is
#: marked not estimable there; the odds ratio and its interval (coverage ≥ 0.975) are kept.
MIN_STATEMENTS_TEST = 30
#: Columns of the table :func:`difficulty_runs` returns.
COLUMNS = ["run", "task", "variant", "model", "feature", "odds_ratio", "ci_low", "ci_high", "p", "p_holm",
           "significant", "n_items", "n_statements", "auc", "df", "note"]


@dataclass
class Design:
    """The standardised design matrix of one fit.

    Attributes
    ----------
    X
        ``n × (1 + k)`` array: an intercept column, then one column per term.
    terms
        Column names after the intercept: a numeric feature's name, or ``factor=level``.
    y
        0/1 correctness.
    groups
        Statement id of each row (the clusters).
    raw
        Numeric feature → its unstandardised values (for plots); ``means``, ``sds`` the
        standardisation used.
    """

    X: np.ndarray
    terms: list[str]
    y: np.ndarray
    groups: list[Any]
    raw: dict[str, np.ndarray] = field(default_factory=dict)
    means: dict[str, float] = field(default_factory=dict)
    sds: dict[str, float] = field(default_factory=dict)


@dataclass
class DifficultyFit:
    """One fitted difficulty model.

    Attributes
    ----------
    label
        What was fitted (``run`` and ``variant``; ``variant`` is ``pooled`` for a pooled fit).
    model
        ``logit`` or ``mixed``.
    rows
        One dict per term: ``feature``, ``odds_ratio``, ``ci_low``, ``ci_high``, ``p``, ``p_holm``,
        ``significant``.
    n_items, n_statements, auc
        Items and statements in the fit and the in-sample AUC of its linear predictor (fixed
        effects only for ``mixed``).
    params, cov
        Coefficients (intercept first) and their covariance (cluster-robust for ``logit``; the
        diagonal of posterior variances for ``mixed``), on the standardised scale.
    design
        The :class:`Design` fitted.
    statement_sd
        ``mixed``: the posterior mean of the SD of the statement intercepts.
    notes
        Default features left out, and why (:func:`supported_features`).
    se
        The standard errors and reference distribution (``cr2`` or ``cr1``, see :func:`fit_difficulty`).
    """

    label: dict[str, Any]
    model: str
    rows: list[dict[str, Any]]
    n_items: int
    n_statements: int
    auc: float
    params: np.ndarray
    cov: np.ndarray
    design: Design
    statement_sd: Optional[float] = None
    notes: list[str] = field(default_factory=list)
    se: str = "cr2"


def _reference(values: Sequence[Any]) -> Any:
    counts: dict[Any, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return sorted(counts, key=lambda v: (-counts[v], str(v)))[0]


def design_matrix(frame, features: Sequence[str], *, where: str = "") -> Design:
    """The design of a fit: numeric features standardised, factors dummy-coded, an intercept first.

    Parameters
    ----------
    frame
        A ``pandas.DataFrame`` with ``correct`` (bool), ``statement_id`` and one column per feature.
    features
        Column names; numeric columns are standardised, others are factors.
    where
        What the fit is, for messages (``run runs/a variant A_5``).

    Raises
    ------
    ConfigError
        For fewer than :data:`MIN_ITEMS` rows, a missing or non-finite value, a constant feature,
        or collinear terms.

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"correct": [True, False] * 20, "statement_id": list(range(40)),
    ...                   "x": [float(i % 7) for i in range(40)]})
    >>> d = design_matrix(f, ["x"])
    >>> d.terms, round(float(d.X[:, 1].mean()), 12), round(float(d.X[:, 1].std()), 12)
    (['x'], 0.0, 1.0)
    """
    import pandas as pd

    at = f" ({where})" if where else ""
    n = len(frame)
    if n < MIN_ITEMS:
        raise ConfigError(f"only {plural(n, 'answered item')}{at}; a difficulty model needs at least {MIN_ITEMS}")
    if not features:
        raise ConfigError("no feature to fit; pass --features")
    cols = [np.ones(n)]
    terms: list[str] = []
    design = Design(X=np.empty((n, 0)), terms=terms, y=frame["correct"].to_numpy(dtype=float),
                    groups=list(frame["statement_id"]))
    for name in features:
        if name not in frame.columns:
            raise ConfigError(f"unknown feature {name!r}{at}; expected one of "
                              f"{', '.join(STATEMENT_FEATURES + ITEM_FEATURES + ITEM_FACTORS)}")
        col = frame[name]
        if col.isna().any():
            bad = frame.loc[col.isna(), "statement_id"].tolist()
            raise ConfigError(f"feature {name!r} has no value for {len(bad)} items{at} (statements "
                              f"{', '.join(str(b) for b in dict.fromkeys(bad))}); choose other features")
        if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
            x = col.to_numpy(dtype=float)
            if not np.all(np.isfinite(x)):
                raise ConfigError(f"feature {name!r} is not finite for some items{at}")
            sd = float(x.std())
            if not sd > 1e-12 * max(1.0, abs(float(x.mean()))):
                raise ConfigError(f"feature {name!r} is constant ({x[0]:g} for all {n} items){at}: its effect "
                                  f"cannot be estimated; leave it out of --features")
            mean = float(x.mean())
            cols.append((x - mean) / sd)
            terms.append(name)
            design.raw[name], design.means[name], design.sds[name] = x, mean, sd
        else:
            values = [str(v) for v in col]
            levels = sorted(set(values))
            if len(levels) < 2:
                raise ConfigError(f"feature {name!r} is constant ({levels[0]!r} for all {n} items){at}: its effect "
                                  f"cannot be estimated; leave it out of --features")
            ref = _reference(values)
            for lev in levels:
                if lev != ref:
                    cols.append(np.array([v == lev for v in values], dtype=float))
                    terms.append(f"{name}={lev}")
    for term, col in zip(terms, cols[1:]):
        support = _support(col, design.groups)
        if support < MIN_SUPPORT:
            raise ConfigError(f"term {term!r} sets only {plural(support, 'statement')} apart from the rest{at} (its effect would "
                              f"rest on them alone, and clustered standard errors need at least {MIN_SUPPORT}); leave it "
                              f"out of --features")
    X = np.column_stack(cols)
    # Collinear terms have no separate effects: name the first term the earlier ones already span.
    for k in range(2, X.shape[1] + 1):
        if np.linalg.matrix_rank(X[:, :k]) < k:
            raise ConfigError(f"term {terms[k - 2]!r} is a linear combination of the intercept and "
                              f"{', '.join(terms[: k - 2]) or 'nothing else'}{at} (C(s) is a weighted sum of "
                              f"the five components, for instance); leave one of them out of --features")
    design.X = X
    return design


def _support(col: np.ndarray, groups: Sequence[Any]) -> int:
    """How many statements hold an item whose value of this column is not the column's most common one."""
    values = [float(v) for v in col]
    mode = _reference(values)
    return len({g for g, v in zip(groups, values) if v != mode})


def supported_features(frame, features: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(kept, notes)``: the numeric ``features`` that can be fitted on ``frame``, and why the others cannot.

    Used for the default features, so that a run whose statements never vary in one component
    still gets the others (explicit ``--features`` are refused instead).
    """
    kept, notes = [], []
    for name in features:
        x = frame[name].to_numpy(dtype=float)
        if not x.std() > 0:
            notes.append(f"{name} left out: constant ({x[0]:g} for every item)")
            continue
        support = _support(x, list(frame["statement_id"]))
        if support < MIN_SUPPORT:
            notes.append(f"{name} left out: only {plural(support, 'statement')} "
                         f"{'differs' if support == 1 else 'differ'} from its most common value "
                         f"({_reference([float(v) for v in x]):g}); at least {MIN_SUPPORT} are needed")
            continue
        kept.append(name)
    return kept, notes


def _separation(X: np.ndarray, y: np.ndarray) -> Optional[np.ndarray]:
    """A direction ``b`` with ``s_i x_i·b >= 0`` for every item and ``> 0`` for some, or ``None``.

    ``s_i`` is +1 for a right answer and −1 for a wrong one.  Such a ``b`` exists exactly when the
    items are completely or quasi-completely separated, and then the maximum-likelihood
    coefficients are infinite (Albert and Anderson 1984); the linear programme maximises
    ``Σ s_i x_i·b`` over the box ``|b_j| <= 1`` (Konis 2007).
    """
    from scipy.optimize import linprog

    s = np.where(y > 0.5, 1.0, -1.0)
    A = X * s[:, None]
    # Columns scaled to unit size, so that the tolerance below means the same for every term.
    scale = np.maximum(np.abs(A).max(axis=0), 1e-12)
    A = A / scale
    res = linprog(-A.sum(axis=0), A_ub=-A, b_ub=np.zeros(len(A)), bounds=[(-1, 1)] * A.shape[1], method="highs")
    if res.status != 0 or -res.fun <= 1e-7 * len(A):
        return None
    return res.x


def _auc(score: np.ndarray, y: np.ndarray) -> float:
    from scipy.stats import rankdata

    pos = y > 0.5
    n1, n0 = int(pos.sum()), int((~pos).sum())
    if not n1 or not n0:
        return math.nan
    r = rankdata(score)
    return float((r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def fit_difficulty(frame, features: Sequence[str] = DEFAULT_FEATURES, *, model: str = "logit", alpha: float = 0.05,
                   label: Optional[Mapping[str, Any]] = None, se: str = "cr2") -> DifficultyFit:
    """Fit one difficulty model to a table of items.

    Parameters
    ----------
    frame
        ``pandas.DataFrame``: ``correct``, ``statement_id`` and the feature columns, one row per
        answered item (:func:`difficulty_frame` builds it from a run).
    features
        Terms of the model (see the module docstring).
    model
        ``logit`` (cluster-robust by statement) or ``mixed`` (random intercept per statement).
    alpha
        Level of the intervals (``1 - alpha``) and of Holm's correction over the terms.
    label
        What the fit is (run, variant), kept in :attr:`DifficultyFit.label` and in messages.
    se
        ``cr2`` (default): CR2 standard errors with Bell–McCaffrey degrees of freedom per term
        (:mod:`causalgraph.stats.cr2`; ``mixed``: the larger of the posterior SD and the logit fit's CR2
        SE scaled by √(1 + 0.346 σ²) to the conditional scale, with those degrees of freedom), and
        a term one statement carries marked not estimable, and on fewer than
        :data:`MIN_STATEMENTS_TEST` statements every term's test (``p``, ``p_holm`` NaN,
        ``significant`` None, with a note naming the statements found and the minimum);
        ``cr1``: the method before issue 37 (statsmodels' clustered SEs with t on G − 1 df;
        ``mixed``: normal), kept to measure against.

    Returns
    -------
    DifficultyFit

    Raises
    ------
    ConfigError
        For what cannot be estimated (see :func:`design_matrix`), and for a ``logit`` fit with
        separated outcomes, naming the terms that separate them.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=400)
    >>> f = pd.DataFrame({"statement_id": np.repeat(np.arange(50), 8), "x": x,
    ...                   "correct": rng.random(400) < 1 / (1 + np.exp(-x))})
    >>> fit = fit_difficulty(f, ["x"])
    >>> fit.rows[0]["feature"], 1.5 < fit.rows[0]["odds_ratio"] < 4
    ('x', True)
    """
    if model not in MODELS:
        raise ConfigError(f"unknown difficulty model {model!r}; expected one of {', '.join(MODELS)}")
    if se not in ("cr2", "cr1"):  # a misspelt method would otherwise give CR2 without saying so
        raise ConfigError(f"unknown standard errors {se!r}; expected cr2 or cr1")
    if not 0 < alpha < 1:
        raise ConfigError(f"--alpha {alpha}: expected a number between 0 and 1")
    label = dict(label or {})
    where = " ".join(f"{k} {v}" for k, v in label.items() if v is not None)
    design = design_matrix(frame, features, where=where)
    X, y = design.X, design.y
    at = f" ({where})" if where else ""
    if y.min() == y.max():
        raise ConfigError(f"every one of the {len(y)} items was answered {'right' if y[0] else 'wrong'}{at}: "
                          f"nothing separates easy from hard items, so no odds ratio can be estimated")
    _check_outcome_spread(y, design.groups, at)
    codes = {g: i for i, g in enumerate(dict.fromkeys(design.groups))}
    groups = np.array([codes[g] for g in design.groups])
    statement_sd = None
    if model == "logit":
        b = _separation(X, y)
        if b is not None:
            names = [t for t, w in zip(design.terms, b[1:]) if abs(w) > 1e-6] or ["the intercept"]
            raise ConfigError(f"perfect separation{at}: a combination of {', '.join(names)} sorts the items into right "
                              f"and wrong answers (quasi-)completely, so the odds ratios are infinite; leave "
                              f"features out or pool more items")
        import statsmodels.api as sm

        if se == "cr1":
            # statsmodels' clustered SEs (CR1, G/(G-1)·(N-1)/(N-K)) with t on G - 1 df: the method before
            # issue 37, kept to measure against; too small with few statements.
            res = sm.GLM(y, X, family=sm.families.Binomial()).fit(cov_type="cluster", cov_kwds={"groups": groups},
                                                                  use_t=True)
            params, cov = np.asarray(res.params), np.asarray(res.cov_params())
            se_ = np.sqrt(np.diag(cov))
            df = np.full(len(params), float(len(codes) - 1))
        else:
            res = sm.GLM(y, X, family=sm.families.Binomial()).fit()
            params = np.asarray(res.params)
            mu = np.asarray(res.fittedvalues)
            robust = cr2(X, y, mu, design.groups, weights=mu * (1 - mu), params=params)
            cov, se_, df = robust.cov, robust.se, robust.df
    else:
        import scipy.sparse as sp
        from statsmodels.genmod.bayes_mixed_glm import BinomialBayesMixedGLM

        n_groups = len(codes)
        exog_vc = sp.csr_matrix((np.ones(len(y)), (np.arange(len(y)), groups)), shape=(len(y), n_groups))
        m = BinomialBayesMixedGLM(y, X, exog_vc, np.zeros(n_groups, dtype=int), fe_p=2, vcp_p=1)
        k = m.k_fep + m.k_vcp + m.k_vc
        # Explicit starting values: statsmodels would otherwise draw them at random.
        res = m.fit_vb(mean=np.zeros(k), sd=np.full(k, math.exp(-0.5)))
        params, se_ = np.asarray(res.fe_mean), np.asarray(res.fe_sd)
        cov = np.diag(se_ ** 2)
        statement_sd = float(math.exp(float(res.vcp_mean[0])))
        if se == "cr1":
            df = np.full(len(params), np.inf)  # the normal approximation of the posterior, as before issue 37
        else:
            # Mean-field variational Bayes ignores the posterior correlation of a statement-level feature with
            # the statement intercepts, and its SDs are far too small (simulated: 37-47 % of null terms
            # "significant"). The floor: the CR2 SE of the population-averaged logit fit, scaled to the
            # conditional scale by sqrt(1 + 0.346 σ²) (Zeger, Liang and Albert 1988), with its Bell–McCaffrey
            # degrees of freedom.
            import statsmodels.api as sm

            marginal = sm.GLM(y, X, family=sm.families.Binomial()).fit()
            mu = np.asarray(marginal.fittedvalues)
            robust = cr2(X, y, mu, design.groups, weights=mu * (1 - mu), params=np.asarray(marginal.params))
            scale = math.sqrt(1 + 0.346 * statement_sd ** 2)
            se_ = np.maximum(se_, robust.se * scale)
            cov = np.diag(se_ ** 2)
            df = robust.df
    pvals, lo, hi = _t_inference(params, se_, df, alpha)
    carried = _carried_by_one(params, se_, robust) if se != "cr1" else {}
    corr = holm([float(p) for p in pvals[1:]], alpha=alpha)
    rows = []
    for j, term in enumerate(design.terms, start=1):
        row = {"feature": term, "odds_ratio": float(math.exp(params[j])), "ci_low": float(math.exp(lo[j])),
               "ci_high": float(math.exp(hi[j])), "p": float(pvals[j]), "p_holm": corr.p_adjusted[j - 1],
               "significant": bool(corr.reject[j - 1]), "df": float(df[j]), "note": None}
        if j in carried:
            sid, without = carried[j]
            # Half the effect or more from one statement: its own difficulty, not the feature's.
            row["significant"] = False
            row["note"] = (f"not estimable: carried by statement {sid} (odds ratio {math.exp(without):.3g} "
                           f"without it)")
        rows.append(row)
    if se != "cr1" and len(codes) < MIN_STATEMENTS_TEST:
        _mark_test_not_estimable(rows, len(codes))
    return DifficultyFit(label=label, model=model, rows=rows, n_items=len(y), n_statements=len(codes),
                         auc=_auc(X @ params, y), params=params, cov=cov, design=design, statement_sd=statement_sd,
                         se=se)


def _mark_test_not_estimable(rows: list[dict[str, Any]], statements: int) -> None:
    """Leave ``p``, ``p_holm`` and ``significant`` undefined (NaN, NaN, None) with a note naming the statements
    found and the minimum: the test does not hold its level on so few statements (:data:`MIN_STATEMENTS_TEST`)."""
    why = (f"test not estimable: {plural(statements, 'statement')}, at least {MIN_STATEMENTS_TEST} needed for a "
           f"term's test to hold its level (odds ratio and interval kept)")
    for row in rows:
        row.update(p=math.nan, p_holm=math.nan, significant=None,
                   note=why if row["note"] is None else f"{row['note']}; {why}")


def _t_inference(params: np.ndarray, se: np.ndarray, df: np.ndarray, alpha: float):
    """Two-sided p-values and ``1 - alpha`` intervals of t tests with per-coefficient degrees of freedom."""
    from scipy.stats import t as student

    with np.errstate(divide="ignore", invalid="ignore"):
        tval = params / se
    df = np.where(np.isfinite(df) & (df > 0), df, np.inf)
    pvals = 2 * student.sf(np.abs(tval), df)
    q = student.ppf(1 - alpha / 2, df)
    return pvals, params - q * se, params + q * se


def _check_outcome_spread(y: np.ndarray, groups: Sequence[Any], at: str) -> None:
    """Refuse a fit whose wrong (or right) answers all sit in fewer than :data:`MIN_SUPPORT` statements.

    Every statement feature is then confounded with those statements' own difficulty: whatever
    sets them apart "explains" every error, and a model — mixed or not — finds it significant.
    """
    for value, word in ((0.0, "wrong"), (1.0, "right")):
        where = list(dict.fromkeys(g for g, v in zip(groups, y) if v == value))
        if len(where) < MIN_SUPPORT and len(where) < len(set(groups)):
            shown = ", ".join(str(w) for w in where[:5])
            whose = "that statement's" if len(where) == 1 else "those statements'"
            raise ConfigError(f"every {word} answer{at} is in {plural(len(where), 'statement')} ({shown}): an effect "
                              f"of any feature could not be told from {whose} own difficulty; at least {MIN_SUPPORT} "
                              f"statements with a {word} answer are needed")


def _carried_by_one(params: np.ndarray, se: np.ndarray, robust) -> dict[int, tuple[Any, float]]:
    """Coefficient index → (statement, coefficient without it) for the effects one statement carries.

    A statement carries an effect when leaving it out (one step from the fit,
    :attr:`~causalgraph.stats.cr2.ClusterRobust.leave_one_out`) flips the coefficient's sign or
    halves it, while the coefficient stands out from 0 by more than its standard error (smaller
    ones are noise either way).
    """
    out: dict[int, tuple[Any, float]] = {}
    for j in range(1, len(params)):
        if not abs(params[j]) > se[j]:
            continue
        shift = robust.leave_one_out[:, j] / params[j]  # 1: unchanged; below 0.5: halved; below 0: flipped
        g = int(np.argmin(shift))
        if shift[g] < 0.5:
            out[j] = (robust.clusters[g], float(robust.leave_one_out[g, j]))
    return out


def _statement_features(corpus) -> dict[str, dict[str, float]]:
    """Statement id → every numeric feature of :data:`STATEMENT_FEATURES`."""
    table = complexity_table(corpus)
    out: dict[str, dict[str, float]] = {}
    for rec in table.to_dict(orient="records"):
        out[str(rec["statement_id"])] = {k: rec[k] for k in STATEMENT_FEATURES if k in rec}
    for st in as_statements(corpus):
        if st.relations:
            cs = chain_stats(compile_graph(st))
            out.setdefault(str(st.id), {}).update(depth=cs.depth, breadth=cs.breadth, n_nodes=cs.n_nodes,
                                                  n_chains=cs.n_chains)
    return out


def difficulty_frame(run, statement_values: Mapping[str, Mapping[str, float]], variants: Optional[Sequence[str]] = None):
    """One row per answered item of a run: ``correct``, ``statement_id``, the features, ``variant``.

    Failed requests (``error``) are left out (they say nothing about the model); an answer the
    parser could not read counts as wrong, as in every score.  Statement features come from
    ``statement_values`` (statement id → feature → value); an item whose statement is missing
    there is an error naming it (the run was built from another corpus).
    """
    import pandas as pd

    run = as_run(run)
    rows = []
    for v in (variants or run.variants):
        rest, edit = split_edit(v)
        base, scheme = split_variant(rest)
        enc = variant_encoding(base)
        for rec in run.records(v):
            if rec.error:
                continue
            spec = get_task(str(rec.task or run.task))
            meta = rec.meta or {}
            sid = str(meta.get("statement_id"))
            if sid not in statement_values:
                raise ConfigError(f"{run_name(run)}: item {rec.item_id!r} asks about statement {sid!r}, which "
                                  f"the corpus does not hold; pass the corpus the run was built from with --data")
            row = {"correct": bool(spec.is_correct(rec)), "statement_id": sid, "item_id": rec.item_id,
                   "variant": v, "position": meta.get("position"), "encoding": enc, "event_names": scheme,
                   "graph_edit": edit}
            row.update(statement_values[sid])
            row.update({k: float(meta[k]) if meta.get(k) is not None else None for k in ITEM_FEATURES})
            rows.append(row)
    return pd.DataFrame(rows)


def difficulty_runs(runs: Sequence[Any], features: Optional[Sequence[str]] = None, *, data: Optional[str] = None,
                    model: str = "logit", pooled: bool = False, alpha: float = 0.05) -> list[DifficultyFit]:
    """Difficulty models of runs: one per run and variant, or one over all of them (``pooled``).

    Parameters
    ----------
    runs
        Run directories or loaded runs.
    features
        Terms; a pooled fit adds the factor ``variant`` when the runs hold more than one
        run/variant.  Default: those of :data:`DEFAULT_FEATURES` each fit's items can support
        (:func:`supported_features`; the others are named in :attr:`DifficultyFit.notes`).
    data
        Corpus the runs were built from (default: the first run's task's corpus).
    model, alpha
        As in :func:`fit_difficulty`.
    pooled
        Fit all items of all runs together.

    Returns
    -------
    list of DifficultyFit

    Examples
    --------
    >>> fits = difficulty_runs(["runs/ccr-position"], ["c_norm", "position"])   # doctest: +SKIP
    >>> fits[0].rows[0]["odds_ratio"]                                            # doctest: +SKIP
    """
    import pandas as pd

    loaded = [as_run(r) for r in runs]
    if not loaded:
        raise ConfigError("no run given")
    default = features is None
    features = [f.strip() for f in (DEFAULT_FEATURES if default else features) if f and f.strip()]
    if len(set(features)) != len(features):
        raise ConfigError(f"--features names a feature twice: {', '.join(features)}")
    for f in features:
        if f not in STATEMENT_FEATURES + ITEM_FEATURES + ITEM_FACTORS:
            raise ConfigError(f"unknown feature {f!r}; expected one of {', '.join(STATEMENT_FEATURES + ITEM_FEATURES + ITEM_FACTORS)}")
    source = data if data is not None else get_task(loaded[0].task).data_source()
    values = _statement_features(load_corpus(source))
    frames = []
    for run in loaded:
        for v in run.variants:
            frame = difficulty_frame(run, values, [v])
            if not len(frame):
                continue
            frame["arm"] = f"{run_name(run)} {v}" if len(loaded) > 1 else v
            frames.append((run, v, frame))
    if not frames:
        raise ConfigError("the runs hold no answered item")
    def fit(frame, terms, label):
        notes: list[str] = []
        if default:
            numeric, notes = supported_features(frame, [t for t in terms if t in STATEMENT_FEATURES])
            terms = numeric + [t for t in terms if t not in STATEMENT_FEATURES]
            # fit_difficulty would only say "no feature"; the reasons are these notes (too few items is the
            # more basic refusal, and fit_difficulty gives it)
            if not terms and len(frame) >= MIN_ITEMS:
                where = f"run {label['run']} task {label['task']} variant {label['variant']}"
                raise ConfigError(f"no default feature can be fitted ({where}): {'; '.join(notes)}; pass --features")
        result = fit_difficulty(frame, terms, model=model, alpha=alpha, label=label)
        result.notes = notes
        return result

    if pooled:
        frame = pd.concat([f for _, _, f in frames], ignore_index=True)
        terms = list(features)
        if len(frames) > 1 and "variant" not in terms:
            frame["variant"] = frame["arm"]
            terms.append("variant")
        tasks = sorted({r.task for r, _, _ in frames})
        label = {"run": ",".join(dict.fromkeys(run_name(r) for r, _, _ in frames)), "task": ",".join(tasks),
                 "variant": "pooled"}
        return [fit(frame, terms, label)]
    return [fit(frame, features, {"run": run_name(run), "task": run.task, "variant": v}) for run, v, frame in frames]


def table_rows(fits: Sequence[DifficultyFit]) -> list[dict[str, Any]]:
    """The rows of :data:`COLUMNS`, one per fit and term."""
    out = []
    for fit in fits:
        for r in fit.rows:
            out.append({"run": fit.label.get("run"), "task": fit.label.get("task"), "variant": fit.label.get("variant"),
                        "model": fit.model, **r, "n_items": fit.n_items, "n_statements": fit.n_statements,
                        "auc": fit.auc})
    return out


def _plot_feature(fits: Sequence[DifficultyFit], feature: Optional[str]) -> str:
    """The numeric feature a plot shows: ``feature``, else ``c_norm`` when fitted, else the first numeric term."""
    if not fits:
        raise ConfigError("nothing to plot")
    numeric = [t for t in fits[0].design.terms if t in fits[0].design.raw]
    feature = feature or ("c_norm" if "c_norm" in numeric else (numeric[0] if numeric else None))
    if feature is None or any(feature not in f.design.raw for f in fits):
        raise ConfigError(f"--plot-feature {feature!r}: expected a numeric feature of the model "
                          f"({', '.join(numeric) or 'none'})")
    return feature


def _wilson(k: float, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval of ``k`` right answers in ``n``: stays inside [0, 1] for all-right or all-wrong bins."""
    p = k / n
    c = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    return max(0.0, mid - c), min(1.0, mid + c)


def difficulty_curve(fit: DifficultyFit, feature: Optional[str] = None, *, alpha: float = 0.05,
                     points: int = 50) -> dict[str, Any]:
    """What a difficulty plot shows, as numbers: observed accuracy by decile of a feature and the fitted curve.

    Parameters
    ----------
    fit
        A :class:`DifficultyFit`.
    feature
        A numeric term of the fit (default ``c_norm`` = C(s) when fitted, else the first numeric term).
    alpha
        Level of the intervals (``1 - alpha``).
    points
        Points of the curve, evenly spaced over the feature's observed range.

    Returns
    -------
    dict
        ``feature``, ``model``, ``n_items``, ``n_statements``, the feature's row of the fit
        (``odds_ratio``, ``ci_low``, ``ci_high``, ``p``, ``p_holm``), ``bins`` and ``curve``.
        ``bins``: the items sorted by the feature and cut into deciles, each distinct value going
        whole into the decile its first item falls in (so tied items share a bin, a value
        holding more than a tenth of the items makes a larger bin, and a feature with fewer
        than ten values has one bin per value), each with ``x_min``, ``x_max``, ``x`` (the mean
        value of its items), ``n``, ``correct``, ``accuracy`` and the Wilson interval ``lo``,
        ``hi``.
        ``curve``: ``x``, ``p`` and the band ``lo``, ``hi``, where ``p`` is the fitted probability
        of a right answer as ``feature`` varies with every other term at its mean over the items
        (the average item) and the band is the delta-method interval of the linear predictor
        (cluster-robust covariance for ``logit``, posterior SDs for ``mixed``) mapped through the
        logistic function.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=400)
    >>> f = pd.DataFrame({"statement_id": np.repeat(np.arange(50), 8), "x": x,
    ...                   "correct": rng.random(400) < 1 / (1 + np.exp(-x))})
    >>> c = difficulty_curve(fit_difficulty(f, ["x"]))
    >>> len(c["bins"]), sum(b["n"] for b in c["bins"]), c["curve"][0]["p"] < c["curve"][-1]["p"]
    (10, 400, True)
    """
    from scipy.special import expit
    from scipy.stats import norm

    if not 0 < alpha < 1:
        raise ConfigError(f"--alpha {alpha}: expected a number between 0 and 1")
    feature = _plot_feature([fit], feature)
    z = float(norm.ppf(1 - alpha / 2))
    d = fit.design
    x = d.raw[feature]
    j = 1 + d.terms.index(feature)
    values, counts = np.unique(x, return_counts=True)
    first = np.cumsum(counts) - counts  # items below each distinct value
    bins = np.minimum(9, (10 * first) // len(x))[np.searchsorted(values, x)]
    out_bins = []
    for b in sorted(set(bins.tolist())):
        mask = bins == b
        k, n = float(d.y[mask].sum()), int(mask.sum())
        lo, hi = _wilson(k, n, z)
        out_bins.append({"x_min": float(x[mask].min()), "x_max": float(x[mask].max()), "x": float(x[mask].mean()),
                         "n": n, "correct": int(k), "accuracy": k / n, "lo": lo, "hi": hi})
    grid = np.linspace(float(x.min()), float(x.max()), max(2, int(points)))
    G = np.tile(d.X.mean(axis=0), (len(grid), 1))
    G[:, j] = (grid - d.means[feature]) / d.sds[feature]
    eta = G @ fit.params
    se = np.sqrt(np.einsum("ij,jk,ik->i", G, fit.cov, G))
    curve = [{"x": float(g), "p": float(expit(e)), "lo": float(expit(e - z * s)), "hi": float(expit(e + z * s))}
             for g, e, s in zip(grid, eta, se)]
    row = next(r for r in fit.rows if r["feature"] == feature)
    return {"feature": feature, "model": fit.model, "n_items": fit.n_items, "n_statements": fit.n_statements,
            **{k: row[k] for k in ("odds_ratio", "ci_low", "ci_high", "p", "p_holm")}, "term_note": row["note"],
            "bins": out_bins, "curve": curve}


def plot_difficulty(fits: Sequence[DifficultyFit], path, feature: Optional[str] = None, *, alpha: float = 0.05) -> None:
    """Observed accuracy by decile of ``feature`` with the fitted curve and its band, one panel per fit.

    The numbers are those of :func:`difficulty_curve`: the curve varies ``feature`` over its
    observed range with every other term at its mean (the average item); the band is the
    delta-method interval of the linear predictor (cluster-robust covariance for ``logit``,
    posterior SDs for ``mixed``).  Observed points are the share of right answers in each decile
    of the feature (tied values share a bin) with a Wilson interval.  ``path`` ends in ``.png``
    or ``.svg``.

    Examples
    --------
    >>> plot_difficulty(difficulty_runs(["runs/ccr-position"], ["c_norm"]), "difficulty.svg")   # doctest: +SKIP
    """
    from pathlib import Path

    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ConfigError(f"--plot {path}: expected a .png or .svg file name")
    feature = _plot_feature(fits, feature)
    curves = [difficulty_curve(fit, feature, alpha=alpha) for fit in fits]
    output_file(path, "--plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ncol = min(3, len(fits))
    nrow = math.ceil(len(fits) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.4 * nrow), squeeze=False)
    level = f"{100 * (1 - alpha):g} %"
    for ax, fit, c in zip(axes.flat, fits, curves):
        acc = np.array([b["accuracy"] for b in c["bins"]])
        # Wilson bounds and the share can differ in the last bit at 0 and 1 (1e-17 below the share):
        # matplotlib refuses a negative error bar, so the distances are clamped at 0.
        below = np.maximum(0.0, acc - np.array([b["lo"] for b in c["bins"]]))
        above = np.maximum(0.0, np.array([b["hi"] for b in c["bins"]]) - acc)
        ax.errorbar([b["x"] for b in c["bins"]], acc, yerr=[below, above], fmt="o", color="k", ms=4, capsize=2,
                    label=f"observed, decile of {feature} (Wilson {level})")
        grid = [p["x"] for p in c["curve"]]
        ax.plot(grid, [p["p"] for p in c["curve"]], color="C0", label=f"fitted ({fit.model}), other terms at mean")
        ax.fill_between(grid, [p["lo"] for p in c["curve"]], [p["hi"] for p in c["curve"]], color="C0", alpha=0.25,
                        label=f"{level} band")
        ax.set_ylim(0, 1)
        ax.set_xlabel(feature)
        ax.set_ylabel("accuracy")
        ax.set_title(f"{fit.label.get('run')} {fit.label.get('variant')}\n({fit.model}, {fit.n_items} items, "
                     f"{fit.n_statements} statements)", fontsize=8)
        ax.legend(fontsize=6, loc="lower left")
    for ax in list(axes.flat)[len(fits):]:
        ax.axis("off")
    runs = ", ".join(dict.fromkeys(str(f.label.get("run")) for f in fits))
    fig.suptitle(f"Accuracy by {feature}: {runs}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if path.suffix.lower() == ".svg" else None)
    plt.close(fig)
