"""Reading runs for the statistics: a run from a path, the item key that pairs two runs, a record's prediction.

Kept apart from :mod:`~causalgraph.stats.mcnemar` and :mod:`~causalgraph.stats.runs` so that both
use it without importing each other.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence

from ..taskkit.item import item_key
from ..errors import ConfigError
from ..runlog.store import load_run

__all__ = ["as_run", "run_name", "pair_key", "prediction", "show_keys"]


def as_run(run: Any):
    """Return a loaded run: a :class:`~causalgraph.runlog.store.Run` passes through, a path is read."""
    if hasattr(run, "responses") and hasattr(run, "manifest"):
        return run
    if isinstance(run, (str, os.PathLike)):
        return load_run(run)
    raise ConfigError(f"expected a run directory or a loaded Run, got {type(run).__name__}")


def run_name(run) -> str:
    """How messages name a run: its folder, else its task."""
    return str(getattr(run, "path", "") or run.manifest.task or "run")


def pair_key(record: RunRecord) -> str:
    """The part of an item id that is the same across tasks and variants.

    Item ids read ``task/variant/rest`` (``corri/0_1/cc-007/r0012``); the
    ``rest`` names the relation or event, so ``corri/0_1/…`` and
    ``corri-rc/RC_0_1/…`` of the same relation pair up.  Ids of another
    shape are used whole.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> pair_key(RunRecord("corri-rc", "RC_0_1", "corri-rc/RC_0_1/cc-007/r0012"))
    'cc-007/r0012'
    """
    return item_key(str(record.item_id), str(record.task), str(record.variant))


def prediction(rec: RunRecord) -> Optional[str]:
    """The parsed label, or ``None`` for an unparsed answer or a failed request."""
    if rec.error:
        return None
    return rec.label


def show_keys(keys: Sequence[Any], limit: int = 20) -> str:
    """The first ``limit`` keys for a message, with how many more there are (``"none"`` when empty).

    Examples
    --------
    >>> show_keys(["a", "b", "c"], limit=2), show_keys([])
    ('a, b, … (1 more)', 'none')
    """
    if not keys:
        return "none"
    shown = ", ".join(str(k) for k in keys[:limit])
    return shown + (f", … ({len(keys) - limit} more)" if len(keys) > limit else "")
