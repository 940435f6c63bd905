"""The ranking section of a page with several runs: tie groups and rank intervals, as ``stats compare --rank``.

:func:`ranking_section` calls :func:`causalgraph.stats.ranking.rank_runs` on the page's runs (arms
along one axis of :data:`causalgraph.stats.compare.AXES`; ``model`` by default, so runs of several
models over the same items are ranked) with the defaults of ``stats compare --rank`` (Holm at
0.05, McNemar exact, 1,000 statement resamples, seed 0), so the page shows the numbers that
command prints.  Runs the ranking cannot take (one arm, no shared item, two runs of the same arm)
get the command's one-line reason instead of a table.
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

from ..errors import CausalGraphError, ConfigError
from ..stats.compare import AXES
from ..stats.ranking import RANK_COLUMNS, rank_runs

__all__ = ["RANK_AXIS", "RANK_ALPHA", "RANK_BOOT", "ranking_section"]

#: The axis the page ranks along unless told otherwise.
RANK_AXIS = "model"
#: ``stats compare --rank``'s defaults: Holm's level, statement resamples (seed 0), the pairwise test.
RANK_ALPHA, RANK_BOOT, RANK_TEST = 0.05, 1000, "mcnemar"


def _clean(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def ranking_section(runs: Sequence[Any], by: Optional[str] = RANK_AXIS, *, n_boot: int = RANK_BOOT,
                    seed: int = 0) -> Optional[dict]:
    """Scores with intervals, letter groups and rank intervals of the runs' arms along ``by``.

    Parameters
    ----------
    runs
        Loaded runs (or run folders); fewer than two, or ``by=None``, gives ``None``.
    by
        The axis the arms differ along (:data:`causalgraph.stats.compare.AXES`).
    n_boot, seed
        Statement resamples of the rank intervals.

    Returns
    -------
    dict or None
        ``by``, ``alpha``, ``n_boot``, ``seed``, ``test``, ``columns`` (:data:`RANK_COLUMNS`),
        ``rows`` (:func:`rank_runs`' rows; undefined values ``None``, each with its ``note``)
        and ``error`` (``None``, or why the runs could not be ranked).

    Raises
    ------
    ConfigError
        An axis not in :data:`~causalgraph.stats.compare.AXES`.

    Examples
    --------
    >>> ranking_section(["runs/gpt", "runs/claude", "runs/llama"])["rows"][0]["group"]   # doctest: +SKIP
    'a'
    """
    if by is not None and by not in AXES:
        raise ConfigError(f"--rank {by!r}: expected one of {', '.join(AXES)} or none")
    if by is None or len(runs) < 2:
        return None
    out: dict[str, Any] = {"by": by, "alpha": RANK_ALPHA, "n_boot": n_boot, "seed": seed, "test": RANK_TEST,
                           "columns": list(RANK_COLUMNS), "rows": [], "error": None}
    try:
        table = rank_runs(runs, by=by, alpha=RANK_ALPHA, n_boot=n_boot, seed=seed, test=RANK_TEST)
    except (CausalGraphError, ValueError, KeyError, TypeError) as exc:
        out["error"] = f"the runs were not ranked by {by}: {exc}"
        return out
    out["rows"] = [{k: _clean(v) for k, v in r.items()} for r in table.to_dict(orient="records")]
    return out
