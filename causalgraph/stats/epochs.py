"""Agreement across the epochs of runs with repeated sampling (``stats agreement``).

The companion of the paper's consistency analysis (§6.3,
:mod:`causalgraph.stats.consistency`): consistency asks whether one set of
answers can be true together; agreement asks whether the model gives the
same answer when asked again.  Per run and variant: the share of items
answered identically in every epoch and Fleiss' κ with each epoch as a rater
(:func:`causalgraph.bench.epochs.epoch_agreement`).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..bench.epochs import epoch_agreement
from ..errors import ConfigError
from .pairing import as_run, run_name
from ..bench.scoring import pending_samples

__all__ = ["AGREEMENT_COLUMNS", "agreement_runs"]

AGREEMENT_COLUMNS = ["run", "task", "model", "variant", "items", "samples_pending", "epochs", "complete",
                     "identical", "fleiss_kappa", "categories"]


def agreement_runs(runs: Sequence[Any]):
    """Agreement across epochs, one row per run and variant (:data:`AGREEMENT_COLUMNS`).

    Parameters
    ----------
    runs
        Run directories (or loaded runs) written by ``bench run --epochs N``
        with ``N >= 2``.

    Returns
    -------
    pandas.DataFrame
        ``items``: items with a sample; ``samples_pending``: samples (item ×
        epoch) the run was asked for and has no line for yet
        (:func:`causalgraph.bench.scoring.pending_samples`), named for their
        unit beside the item counts.

    Raises
    ------
    ConfigError
        For a run with a single epoch (one answer per item agrees with
        nothing).

    Examples
    --------
    >>> agreement_runs(["runs/corri-epochs"])[["variant", "identical"]]   # doctest: +SKIP
    """
    import pandas as pd

    rows = []
    for r in runs:
        run = as_run(r)
        if run.epochs < 2:
            raise ConfigError(f"{run_name(run)}: one answer per item (no --epochs); agreement across epochs needs a "
                              "run made with `bench run --epochs N`, N >= 2")
        for v in run.variants:
            a = epoch_agreement(run.sample_records(v), epochs=run.epochs)
            rows.append({"run": run_name(run), "task": run.task, "model": run.model, "variant": v, **a,
                         "samples_pending": pending_samples(run, v)})
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)
