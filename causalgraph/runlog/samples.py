"""The samples of a run folder: which line is which sample, and the one that stands for an item.

A run with repeated sampling (``bench run --epochs N``) holds one line per
(item, epoch).  Readers that pair one answer per item (McNemar, compare,
consistency, the evaluations, the viewer's table) get the **majority**
sample of each item: its most frequent label (an unparsed answer votes like
any other; a failed request does not vote), a tie going to the tied label
that came first in epoch order.  :class:`~causalgraph.runlog.store.Run`
applies this when it reads a folder; the engine's reducers
(:mod:`causalgraph.bench.epochs`) build pass@k and agreement on the same
grouping.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:
    from .record import RunRecord

__all__ = ["sample_key", "label_key", "group_samples", "majority_record", "majority_records"]


def sample_key(rec: "RunRecord") -> tuple[str, str, str, int]:
    """The identity of one sample in a run: (task, variant, item id, epoch); a line without epoch is epoch 1.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> sample_key(RunRecord(task="t", variant="v", item_id="i"))
    ('t', 'v', 'i', 1)
    """
    return (rec.task, rec.variant, rec.item_id, rec.epoch or 1)


def label_key(label: Any) -> str:
    """A label as a comparable string: two answers agree exactly when their keys are equal.

    A list label (a set of events, extracted pairs) compares as a set: the
    order in which the model listed them does not matter.

    Examples
    --------
    >>> label_key(["b", "a"]) == label_key(["a", "b"]), label_key(None), label_key("yes")
    (True, 'null', '"yes"')
    """
    if isinstance(label, (list, tuple)):
        return json.dumps(sorted(json.dumps(x, sort_keys=True, ensure_ascii=False) for x in label),
                          ensure_ascii=False)
    return json.dumps(label, sort_keys=True, ensure_ascii=False)


def group_samples(samples: Iterable["RunRecord"]) -> list[list["RunRecord"]]:
    """The samples of each item, items in order of first appearance, each item's samples by epoch."""
    groups: dict[tuple, list] = {}
    for r in samples:
        groups.setdefault(sample_key(r)[:3], []).append(r)
    return [sorted(g, key=lambda r: r.epoch or 1) for g in groups.values()]


def majority_record(samples: Sequence["RunRecord"]) -> "RunRecord":
    """The sample that stands for an item: the first (by epoch) that gave the majority label.

    Failed requests do not vote; when every sample failed, the last failure
    stands for the item (as in a run without epochs).

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> s = [RunRecord("t", "v", "i", epoch=e, label=x) for e, x in ((1, "no"), (2, "yes"), (3, "yes"))]
    >>> majority_record(s).epoch
    2
    >>> majority_record(s[:2]).label  # a tie: the first wins
    'no'
    """
    if not samples:
        raise ValueError("majority_record of no samples")
    ordered = sorted(samples, key=lambda r: r.epoch or 1)
    answered = [r for r in ordered if not r.error]
    if not answered:
        return ordered[-1]
    counts: dict[str, int] = {}
    first: dict[str, "RunRecord"] = {}
    for r in answered:
        k = label_key(r.label)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, r)
    best = max(counts.values())
    # dicts keep insertion order: the first key reaching the top count is the earliest tied label
    winner = next(k for k, c in counts.items() if c == best)
    return first[winner]


def majority_records(samples: Iterable["RunRecord"]) -> list["RunRecord"]:
    """One record per item (:func:`majority_record`), items in order of first appearance."""
    return [majority_record(g) for g in group_samples(samples)]
