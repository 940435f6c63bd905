"""The run log: what a run folder holds, typed, and the one reader and writer of the folder.

A run folder is four files: ``responses.jsonl`` (one
:class:`~causalgraph.runlog.record.RunRecord` per line), ``manifest.json``,
``metrics.json`` and ``batches.json`` (:mod:`causalgraph.runlog.files`:
:class:`Manifest`, :class:`Metrics`, :class:`Ledger`).
:class:`~causalgraph.runlog.store.RunStore` appends and rewrites them;
:func:`~causalgraph.runlog.store.load_run` reads a folder into a
:class:`~causalgraph.runlog.store.Run`.

The run log sits below the tasks and the engine, as inspect_ai's log types
sit below its eval loop: the engine (:mod:`causalgraph.bench`) writes runs,
and every reader — the extraction and annotation evaluations, the
statistics, the viewer, the report — reads them through this package
without importing the engine.

Examples
--------
>>> from causalgraph.runlog import Manifest
>>> Manifest.from_dict({"task": "corri", "variants": ["0_1"], "model": "mock/oracle"}).variants
['0_1']
"""

from __future__ import annotations

from .files import BatchJob, Ledger, Manifest, Metrics
from .record import RunRecord
from .samples import majority_records
from .store import Run, RunStore, load_run

__all__ = ["Run", "RunStore", "load_run", "RunRecord", "Manifest", "Metrics", "Ledger", "BatchJob",
           "majority_records"]
