"""Compositional consistency of sign answers: if a model says a raises b and b lowers c, does it say a lowers c?

A chain ``a → b → … → z`` is covered when the runs hold an answer for each of its edges (a
relation's correlation, or a net effect over one edge) and one for its endpoints (the composed
sign of a multi-hop chain, or the net effect of a pair joined by that one path).  The edge
answers compose by sign algebra (positive · negative = negative, negative · negative =
positive); the chain is **consistent** when the endpoint answer is that composition, whatever the
gold says, so a model can be consistent and wrong (it misreads one edge and composes its misreading)
or right and inconsistent.

Which answers state which path's sign, and which labels are signs, is the Task record's to say
(:attr:`~causalgraph.tasks.Signs.path`, :attr:`~causalgraph.tasks.Signs.labels`): two
events for an edge, more for a chain, in the real events' names (so renamed variants compose with
real ones).  Every variant of the runs is a *source*; each pair of an edge source and an endpoint
source of the same model and graph edit (a source may be both: a net-effect run asks adjacent pairs
and endpoints alike) gives one row: chains covered, chains answered (every edge answer a sign and
the endpoint answered), consistent, their rate and a 95 % interval resampling statements
(a statement's chains share its events and come along together; 1,000 resamples, seed 0; the
percentile interval widened for few statements, :func:`statement_interval`).  When a
pair has several answers in one source (a relation annotated on two rows) that disagree, or has a row
not answered (a failed request, an unread answer), its answer is undefined and its chains are not
answered.

Examples
--------
>>> rep = sign_consistency(["runs/corri", "runs/multihop"])       # doctest: +SKIP
>>> rep.table[["edge_source", "endpoint_source", "answered", "rate", "ci_low", "ci_high"]]  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from ..graph.edits import split_edit
from ..tasks import find_task
from .pairing import as_run, prediction, run_name
from .resampling import cluster_interval, statement_weights

__all__ = ["SignConsistencyReport", "sign_consistency", "composed_sign", "statement_interval", "SIGN_COLUMNS",
           "CHAIN_COLUMNS"]

SIGN_COLUMNS = ("model", "graph_edit", "edge_source", "endpoint_source", "chains", "answered", "consistent", "rate",
                "ci_low", "ci_high", "statements", "endpoint_right", "note")
CHAIN_COLUMNS = ("model", "graph_edit", "edge_source", "endpoint_source", "statement_id", "path", "edge_answers",
                 "endpoint_answer", "composed", "consistent", "endpoint_item")


@dataclass(frozen=True)
class SignConsistencyReport:
    """Outcome of :func:`sign_consistency`.

    Attributes
    ----------
    table
        One row per edge source, endpoint source, model and graph edit (:data:`SIGN_COLUMNS`);
        ``rate`` (and its interval) is ``None`` with a ``note`` when no chain was answered.
    chains
        One row per covered chain and pair of sources (:data:`CHAIN_COLUMNS`); ``consistent`` is
        ``None`` for a chain not answered.
    """

    table: Any
    chains: Any


def composed_sign(signs: Sequence[int]) -> int:
    """The sign of a path from its edges' signs (+1/-1).

    Examples
    --------
    >>> composed_sign([1, -1]), composed_sign([-1, -1, 1]), composed_sign([-1])
    (-1, 1, -1)
    """
    out = 1
    for s in signs:
        if s not in (1, -1):
            raise ConfigError(f"composed_sign: edge sign {s!r}; expected +1 or -1")
        out *= s
    return out


def statement_interval(hits: Sequence[bool], statements: Sequence[Any], *, n_boot: int = 1000, seed: int = 0,
                       level: float = 0.95) -> Optional[tuple[float, float]]:
    """Interval of the share of ``hits``, resampling statements (their chains come along).

    The percentile interval of the resamples, widened for few statements around the estimate as the
    F1 intervals of runs and of ``stats compare`` are (:func:`causalgraph.stats.resampling.cluster_interval`):
    the plain percentile interval covered 88 % at 7 statements and 91 % at 17, the widened one 93 %
    and 94 % (docs/statistics.md).  ``None`` when there is nothing to resample, or one statement only.

    Examples
    --------
    >>> statement_interval([True, True, False, True] * 10, [i // 4 for i in range(40)])  # no statement differs
    (0.75, 0.75)
    >>> lo, hi = statement_interval([True] * 6 + [False] * 4, ["s1"] * 3 + ["s2"] * 3 + ["s3"] * 4)
    >>> lo < 0.6 < hi
    True
    >>> statement_interval([True, False], ["s1", "s1"]) is None
    True
    """
    if len(hits) == 0:
        return None
    if len(hits) != len(statements):
        raise ConfigError(f"statement_interval: {len(hits)} outcomes but {len(statements)} statements")
    index: dict[Any, int] = {}
    sid = np.array([index.setdefault(s, len(index)) for s in statements])
    k = len(index)
    if k < 2:
        return None
    sums = np.bincount(sid, weights=np.asarray(hits, dtype=float), minlength=k)
    counts = np.bincount(sid, minlength=k).astype(float)
    w = statement_weights(k, n_boot, seed)
    rates = (w @ sums) / (w @ counts)  # every statement holds at least one chain, so no resample is empty
    lo, hi = cluster_interval(rates, float(sums.sum() / counts.sum()), k, level=level)
    return float(lo), float(hi)


@dataclass
class _Source:
    model: str
    edit: str
    name: str
    # (statement, path) -> list of (predicted sign | "other" | None, gold sign, item id)
    claims: dict


def _sources(runs) -> list[_Source]:
    out: list[_Source] = []
    for run in runs:
        r = as_run(run)
        recs = r.responses
        if not recs:
            raise ConfigError(f"{run_name(r)}: the run has no responses")
        for variant in r.variants:
            vrecs = r.records(variant)
            if not vrecs:
                continue
            task_name = vrecs[0].task or r.manifest.task
            task = find_task(task_name)
            signs = getattr(task.answers, "signs", None) if task is not None else None  # label kinds only
            if signs is None:
                raise ConfigError(f"{run_name(r)} variant {variant}: task {task_name!r} states no sign of a path "
                                  f"(its answers declare no Signs); consistency --signs reads runs whose "
                                  f"answers are the correlation signs of relations or of paths")
            claims: dict = {}
            for rec in vrecs:
                where = signs.path(rec)
                if where is None:
                    continue
                pred = prediction(rec)
                sign = signs.labels.get(pred) if pred is not None else None
                gold = signs.labels.get(rec.gold)
                claims.setdefault(where, []).append((sign if sign is not None or pred is None else "other", gold,
                                                     rec.item_id))
            out.append(_Source(r.model, split_edit(variant)[1], f"{task.name}/{variant}", claims))
    return out


def _edge_answer(answers: list) -> Any:
    """One pair's answer in a source: its sign when every answer agrees, else ``None`` (undefined)."""
    seen = {a for a, _, _ in answers}
    return next(iter(seen)) if len(seen) == 1 else None


def sign_consistency(runs: Sequence[Any], *, n_boot: int = 1000, seed: int = 0) -> SignConsistencyReport:
    """How often the endpoint answers of chains are the composition of their edge answers.

    Parameters
    ----------
    runs
        Run directories (or loaded runs) whose tasks state signs of paths (:attr:`Signs.path`):
        edges (CorrI, net-effect over one edge) and endpoints (multi-hop CorrI, net-effect over a
        chain joined by one path), in any number of runs and variants.
    n_boot, seed
        Resamples of the statement bootstrap and its seed.

    Raises
    ------
    ConfigError
        For a run of a task that states no sign of a path, or runs where no chain has both its
        edges and its endpoints answered by one model under one graph edit.
    """
    import pandas as pd

    sources = _sources(list(runs))
    if not sources:
        raise ConfigError("consistency --signs: no runs given")
    rows, chain_rows = [], []
    for end in sources:
        chains = [(key, ans) for key, ans in end.claims.items() if len(key[1]) >= 3]
        if not chains:
            continue
        for edge in sources:
            if edge.model != end.model or edge.edit != end.edit:
                continue
            edges = {key: _edge_answer(ans) for key, ans in edge.claims.items() if len(key[1]) == 2}
            covered = [(key, ans) for key, ans in chains
                       if all((key[0], hop) in edges for hop in zip(key[1], key[1][1:]))]
            if not covered:
                continue
            hits, stmts, right = [], [], 0
            for (sid, path), answers in covered:
                edge_ans = [edges[(sid, hop)] for hop in zip(path, path[1:])]
                for pred, gold, item in answers:
                    composed = composed_sign(edge_ans) if all(a in (1, -1) for a in edge_ans) else None
                    ok = None if composed is None or pred is None else pred == composed
                    if ok is not None:
                        hits.append(ok)
                        stmts.append(sid)
                        right += int(pred == gold)
                    chain_rows.append({"model": end.model, "graph_edit": end.edit, "edge_source": edge.name,
                                       "endpoint_source": end.name, "statement_id": sid, "path": list(path),
                                       "edge_answers": edge_ans, "endpoint_answer": pred, "composed": composed,
                                       "consistent": ok, "endpoint_item": item})
            ci = statement_interval(hits, stmts, n_boot=n_boot, seed=seed)
            rows.append({"model": end.model, "graph_edit": end.edit, "edge_source": edge.name,
                         "endpoint_source": end.name, "chains": sum(len(a) for _, a in covered),
                         "answered": len(hits), "consistent": int(sum(hits)),
                         "rate": (sum(hits) / len(hits)) if hits else None,
                         "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
                         "statements": len(set(stmts)), "endpoint_right": right,
                         "note": ("no chain has every edge answered with a sign and its endpoints answered: the "
                                  "rate is undefined" if not hits else
                                  "" if ci else "the answered chains lie in one statement: no interval over "
                                                "statements")})
    if not rows:
        names = sorted({s.name for s in sources})
        raise ConfigError(f"consistency --signs: no chain has its edges and its endpoints answered by one model under "
                          f"one graph edit in {', '.join(names)}; give runs that answer the signs of a chain's edges "
                          f"and of its endpoints")
    return SignConsistencyReport(pd.DataFrame(rows, columns=list(SIGN_COLUMNS)),
                                 # object columns: a composed sign stays an int beside undefined (None) ones
                                 pd.DataFrame(chain_rows, columns=list(CHAIN_COLUMNS), dtype=object))
