"""Repeated sampling: several answers per item (``bench run --epochs N``), reduced to scores.

A run with epochs asks every item ``N`` times at a temperature above 0.
Its ``responses.jsonl`` holds one line per (item, epoch); this module
turns those samples into what a study reports:

* **majority** — each item's most frequent label (an unparsed answer votes
  like any other; a failed request does not vote).  A tie goes to the tied
  label that came first in epoch order.  The item then scores as a single
  answer would.  This is also what every reader that needs one answer per
  item sees (:attr:`Run.responses <causalgraph.runlog.store.Run.responses>`:
  ``stats mcnemar``, ``stats compare``, ``stats consistency``,
  ``bench view``).
* **mean** — the run scored once per epoch (each epoch is a complete pass
  over the items), each score averaged over epochs, with the standard
  deviation across epochs.
* **pass@k** — the chance that at least one of ``k`` answers drawn from an
  item's ``n`` is right, averaged over items, by the unbiased estimator
  ``1 - C(n-c, k) / C(n, k)`` (``c`` right answers; Chen et al. 2021).
* **pass^k** — the chance that all ``k`` drawn answers are right,
  ``C(c, k) / C(n, k)`` (Yao et al. 2024, τ-bench), a measure of
  reliability rather than of reach.

"Right" is the task's :meth:`~causalgraph.tasks.base.Task.is_correct`:
the label equals the gold label (binary and position tasks) or the set
matches exactly (set-valued structure tasks).  A failed request is a wrong
answer, as everywhere in scoring.

Agreement across epochs (:func:`epoch_agreement`) is the share of items
whose epochs all gave the same label and Fleiss' κ over the items answered
in every epoch (each epoch a rater, each label a category).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from .._core.wording import plural
from .._core.registry import ENTRY_POINT_GROUPS, Registry, did_you_mean, record_name
from ..runlog.samples import group_samples, label_key
from ..scoring.agreement import fleiss_kappa

__all__ = [
    "Reducer",
    "ReducerKind",
    "REDUCERS",
    "register_reducer",
    "reducer_kind",
    "parse_reducer",
    "pass_at_k",
    "pass_hat_k",
    "pass_scores",
    "epoch_agreement",
    "incomplete_items",
]


@dataclass(frozen=True)
class ReducerKind:
    """One way of reducing an item's samples, as the reducer registry holds it.

    Attributes
    ----------
    name
        What ``--reducer`` takes: ``majority``, ``mean``, or a per-item chance ending in ``k``
        (``pass@k``), which ``--reducer`` also takes with a number in place of ``k`` (``pass@3``).
    description
        One line for listings.
    estimator
        ``estimator(n, c, k) -> float``: the chance for one item of ``n`` samples, ``c`` of them
        right, averaged over items (:func:`pass_scores`); ``None`` for ``majority`` and ``mean``,
        which scoring computes itself.

    Examples
    --------
    >>> reducer_kind("pass^3").estimator is pass_hat_k, reducer_kind("mean").estimator
    (True, None)
    """

    name: str
    description: str
    estimator: Optional[Callable[[int, int, int], float]] = None

    @property
    def stem(self) -> Optional[str]:
        """``pass@`` for ``pass@k``: what a number follows (``None`` for a reducer without ``k``)."""
        return self.name[:-1] if self.estimator is not None else None


def _check_kind(name: str, kind: Any) -> ReducerKind:
    if not isinstance(kind, ReducerKind):
        raise ConfigError(f"reducer {name!r}: expected a ReducerKind record; found {type(kind).__name__}")
    if kind.name != name:
        raise ConfigError(f"reducer {name!r}: the record is named {kind.name!r}")
    if kind.estimator is not None and not (len(name) > 1 and name.endswith("k") and not name[-2].isalnum()):
        raise ConfigError(f"reducer {name!r}: a reducer with an estimator is named like pass@k (ending in a "
                          "sign and k, which --reducer replaces by a number)")
    if kind.estimator is not None and not callable(kind.estimator):
        raise ConfigError(f"reducer {name!r}: its estimator is not callable")
    return kind


#: Every reducer by name, in registration order (``majority``, ``mean``, ``pass@k``, ``pass^k``), then
#: plugins of the entry-point group ``causalgraph.reducers`` (value: ``"module:attr"`` of a ReducerKind).
REDUCERS: Registry[ReducerKind] = Registry("reducer", group=ENTRY_POINT_GROUPS["reducer"], coerce=_check_kind)


def register_reducer(kind: "ReducerKind | str", *, replace: bool = False,
                     name: Optional[str] = None) -> "ReducerKind | str":
    """Add a reducer (``replace=True`` to replace one of the same name).

    ``kind`` is a :class:`ReducerKind`, or the lazy ``"module:attr"`` target of one (then ``name``
    says its name; it is imported and checked when first asked for).

    A reducer with an estimator is scored like ``pass@k``: ``bench report --reducer NAME`` reports
    the mean of ``estimator(n, c, k)`` over items, with its bootstrap interval, in the ``pass``
    column.

    Examples
    --------
    >>> best = register_reducer(ReducerKind("best#k", "at least one right", lambda n, c, k: float(c > 0)))
    >>> parse_reducer("best#2")
    Reducer(name='best#k', k=2)
    >>> REDUCERS.unregister("best#k")
    """
    return REDUCERS.register(record_name(kind, ReducerKind, name, "register_reducer"), kind, replace=replace)


def reducer_kind(text: str) -> Optional[ReducerKind]:
    """The registered reducer that ``text`` (``mean``, ``pass@3``, ``pass^k``) names, or ``None``."""
    t = str(text).strip().lower()
    for kind in REDUCERS.values():
        if t == kind.name:
            return kind
        if kind.stem is not None and t.startswith(kind.stem) and t[len(kind.stem):].isdigit():
            return kind
    return None


@dataclass(frozen=True)
class Reducer:
    """How a report reduces an item's samples: ``name`` (``majority``, ``mean``, ``pass@k`` or ``pass^k``) and ``k`` for the pass ones.

    ``k = None`` for ``pass@k``/``pass^k`` means every epoch of the run.
    """

    name: str
    k: Optional[int] = None

    @property
    def per_item(self) -> bool:
        """Whether the reducer averages a per-item chance over ``k`` samples (``pass@k``, ``pass^k`` …)."""
        kind = REDUCERS.find(self.name)
        return kind is not None and kind.estimator is not None

    @property
    def label(self) -> str:
        """The column name, e.g. ``pass@3`` (``pass@k`` before ``k`` is known)."""
        if self.per_item:
            return self.name[:-1] + (str(self.k) if self.k is not None else "k")
        return self.name


def parse_reducer(text: str) -> Reducer:
    """Read ``majority``, ``mean``, ``pass@k``, ``pass^k``, ``pass@3``, ``pass^2`` … (any registered reducer).

    Raises
    ------
    ConfigError
        For anything else, or ``k < 1``.

    Examples
    --------
    >>> parse_reducer("pass@3"), parse_reducer("pass^k"), parse_reducer("majority").label
    (Reducer(name='pass@k', k=3), Reducer(name='pass^k', k=None), 'majority')
    """
    t = str(text).strip().lower()
    kind = reducer_kind(t)
    if kind is None:
        kinds = REDUCERS.values()
        usable = {k.name for k in kinds}
        for name in REDUCERS.names():
            # A plugin reducer that cannot be used, asked for by name (pass@3 for pass@k): its own one line.
            if name not in usable and (t == name or (name.endswith("k") and t.startswith(name[:-1])
                                                     and t[len(name) - 1:].isdigit())):
                REDUCERS.get(name)
        stems = [k.stem + "K" for k in kinds if k.stem is not None]
        raise ConfigError(f"--reducer {text!r}: expected {', '.join(k.name for k in kinds)} or {'/'.join(stems)} "
                          f"with a number K{did_you_mean(t, REDUCERS.names())}")
    if kind.stem is None:
        return Reducer(kind.name)
    rest = t[len(kind.stem):]
    k = None if rest == "k" else int(rest)
    if k is not None and k < 1:
        raise ConfigError(f"--reducer {text!r}: k must be at least 1")
    return Reducer(kind.name, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of the chance that at least one of ``k`` of ``n`` samples (``c`` right) is right.

    Examples
    --------
    >>> pass_at_k(5, 0, 3), pass_at_k(5, 3, 3), round(pass_at_k(4, 1, 2), 4)
    (0.0, 1.0, 0.5)
    """
    _check_nck(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of the chance that all ``k`` of ``k`` samples drawn from ``n`` (``c`` right) are right.

    Examples
    --------
    >>> pass_hat_k(5, 5, 3), round(pass_hat_k(4, 2, 2), 4), pass_hat_k(3, 1, 2)
    (1.0, 0.1667, 0.0)
    """
    _check_nck(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check_nck(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, found n={n}, c={c}, k={k}")


def _statement_of(rec: RunRecord) -> Any:
    meta = rec.meta or {}
    sid = meta.get("statement_id")
    return sid if sid is not None else ("item", rec.item_id)


def pass_scores(samples: Sequence[RunRecord], reducer: Reducer, is_correct: Callable[[RunRecord], bool], *,
                epochs: int, n_boot: int = 1000, seed: int = 0, where: str = "run",
                writer: Optional[str] = None) -> dict[str, Any]:
    """pass@k or pass^k of one variant's samples, with a 95 % bootstrap interval over statements.

    Parameters
    ----------
    samples
        Every sample of the variant's items.
    reducer
        ``pass@k`` or ``pass^k``; ``k=None`` means ``epochs``.
    is_correct
        Whether one sample is right (:meth:`Task.is_correct`).
    epochs
        The run's number of epochs.

    Raises
    ------
    ConfigError
        When ``k`` exceeds the epochs, or an item has fewer than ``k`` samples
        (a run not finished: resume it, or choose a smaller ``k``).
    """
    k = reducer.k if reducer.k is not None else epochs
    if k > epochs:
        raise ConfigError(f"{where}: {reducer.name[:-1]}{k} needs {k} samples per item; the run has {epochs} "
                          f"epoch{'s' if epochs != 1 else ''}")
    fn = REDUCERS.get(reducer.name).estimator
    groups = group_samples(samples)
    short = [g[0].item_id for g in groups if len(g) < k]
    if short:
        raise ConfigError(f"{where}: {plural(len(short), 'item')} {'has' if len(short) == 1 else 'have'} fewer than {k} samples (first: {short[0]!r}); "
                          f"{missing_samples_hint(epochs, writer)}, or choose a smaller k")
    values = []
    for g in groups:
        c = sum(1 for r in g if not r.error and is_correct(r))
        v = REDUCERS.call(reducer.name, "estimator", fn, len(g), c, k)
        if not _chance(v):
            # A reducer's (a plugin's) estimator gives a chance; anything else is refused, naming it.
            raise REDUCERS.refuse(reducer.name, "estimator", v, "a number in [0, 1]",
                                  given=f" for n={len(g)}, c={c}, k={k}")
        values.append(float(v))
    arr = np.array(values, dtype=float)
    # A variant with no items has no value (None), and strategy means leave it out.
    out: dict[str, Any] = {"reducer": reducer.name, "k": k, "items": len(groups),
                           "samples": sum(len(g) for g in groups),
                           "value": float(arr.mean()) if len(arr) else None}
    out["ci95"] = _bootstrap_mean(arr, [_statement_of(g[0]) for g in groups], n_boot=n_boot, seed=seed)
    return out


def _chance(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and 0.0 <= float(v) <= 1.0


def missing_samples_hint(epochs: int, writer: Optional[str] = None) -> str:
    """What to do about items with fewer samples than the run's epochs (the end of an error message).

    ``writer``: the process still writing into the folder (:meth:`RunStore.writer`), if any.
    """
    if writer:
        return f"a run is still writing into this folder ({writer}): wait for it to finish"
    return (f"ask the missing samples by running `causalgraph bench run` into this folder with this variant "
            f"(--variant V --epochs {epochs})")


def incomplete_items(samples: Sequence[RunRecord], epochs: int) -> list[str]:
    """Ids of the items that lack a sample of some epoch 1 … ``epochs`` (a run not finished).

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> incomplete_items([RunRecord("t", "v", "a", epoch=1), RunRecord("t", "v", "a", epoch=2),
    ...                   RunRecord("t", "v", "b")], 2)
    ['b']
    """
    want = set(range(1, epochs + 1))
    return [str(g[0].item_id) for g in group_samples(samples)
            if {int(r.epoch or 1) for r in g} != want]


def _bootstrap_mean(values: np.ndarray, statements: Sequence[Any], *, n_boot: int, seed: int
                    ) -> Optional[list[float]]:
    """Percentile interval of the mean of per-item values, resampling statements (their items come along)."""
    if len(values) == 0 or n_boot < 1:
        return None
    index: dict[Any, int] = {}
    for s in statements:
        index.setdefault(s, len(index))
    sid = np.array([index[s] for s in statements])
    sums = np.bincount(sid, weights=values, minlength=len(index))
    counts = np.bincount(sid, minlength=len(index)).astype(float)
    rng = np.random.default_rng(seed)
    w = rng.multinomial(len(index), np.full(len(index), 1.0 / len(index)), size=n_boot)
    means = (w @ sums) / (w @ counts)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return [float(lo), float(hi)]


def epoch_agreement(samples: Sequence[RunRecord], *, epochs: int) -> dict[str, Any]:
    """How often the epochs of one variant agree.

    Returns
    -------
    dict
        ``items``; ``complete`` (items answered, without a failed request, in
        all ``epochs``); ``identical`` (share of complete items whose epochs
        all gave the same label); ``fleiss_kappa`` over the complete items,
        each epoch a rater and each distinct label a category (``None``
        when it is undefined: fewer than two epochs or complete items, or
        every answer the same label); ``categories`` (distinct labels seen).

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> s = [RunRecord("t", "v", str(i), epoch=e, label=lab) for i, labs in enumerate(["aa", "ab", "bb"])
    ...      for e, lab in enumerate(labs, start=1)]
    >>> a = epoch_agreement(s, epochs=2)
    >>> round(a["identical"], 4), round(a["fleiss_kappa"], 4)
    (0.6667, 0.3333)
    """
    groups = group_samples(samples)
    complete = [g for g in groups if len(g) >= epochs and not any(r.error for r in g[:epochs])]
    keys = [[label_key(r.label) for r in g[:epochs]] for g in complete]
    cats: dict[str, int] = {}
    for row in keys:
        for key in row:
            cats.setdefault(key, len(cats))
    table = np.zeros((len(complete), len(cats)), dtype=np.int64)
    for i, row in enumerate(keys):
        for key in row:
            table[i, cats[key]] += 1
    identical = sum(len(set(row)) == 1 for row in keys)
    kappa = fleiss_kappa(table) if epochs >= 2 and len(complete) >= 2 else None
    return {"items": len(groups), "epochs": epochs, "complete": len(complete),
            "identical": identical / len(complete) if complete else None,
            "fleiss_kappa": kappa, "categories": len(cats)}


# The built-in reducers, in the order --reducer lists them.
for _kind in (ReducerKind("majority", "each item's most frequent label, scored as one answer"),
              ReducerKind("mean", "every score averaged over epochs, with its spread"),
              ReducerKind("pass@k", "chance that at least one of k samples is right (Chen et al. 2021)", pass_at_k),
              ReducerKind("pass^k", "chance that all k samples are right (Yao et al. 2024)", pass_hat_k)):
    REDUCERS.register(_kind.name, _kind, builtin=True)
del _kind
