"""The task kit: what a benchmark task is built from, below every task and the engine that runs them.

* :mod:`causalgraph.taskkit.item` — :class:`Item` (one prompt, its gold and
  provenance) and the item ids that pair items across runs;
* :mod:`causalgraph.taskkit.labels` — the answer rules that read a label
  out of free text (``<answer>…</answer>``, ``Answer:``, ``[MASK]``, …).

The :class:`~causalgraph.tasks.base.Task` record that ties them together is
declared with the tasks (:mod:`causalgraph.tasks`).

Examples
--------
>>> from causalgraph.taskkit import Item, parse_labels
>>> parse_labels("<answer>yes</answer>", {"yes": "yes", "no": "no"})
('yes', 'tag')
"""

from __future__ import annotations

from .item import Item, item_id, item_key
from .labels import RULES, parse_labels

__all__ = ["Item", "item_id", "item_key", "parse_labels", "RULES"]
