"""Everything an extension author needs, in one import.

A study's own code or a plugin distribution (entry points in the groups ``causalgraph.tasks``,
``causalgraph.backends``, ``causalgraph.encodings``, ``causalgraph.metrics`` (complexity metrics),
``causalgraph.reducers``, ``causalgraph.formats`` and ``causalgraph.scoring_metrics``;
docs/architecture.md, "Registries and plugins") builds its records from the classes here and registers them with the functions here.  Every ``register_*`` function follows one
rule: the record (or the ``"module:attr"`` target of one, imported on first use) first, then
``replace=`` (a taken name is refused without it) and ``name=`` (needed for a target; for a record,
its own name if given) by keyword.

===================  ===========================================  ==============================
extension            record                                       registered with
===================  ===========================================  ==============================
a benchmark task     :class:`Task` (its items :class:`Item`;      :func:`register_task`
                     what its answers are: :class:`Binary`,
                     :class:`Multiclass`, :class:`EventSet`,
                     :class:`Pairs` with its viewer hook
                     :class:`ItemView`, or :class:`Custom`;
                     optional :class:`Signs` and
                     :class:`GraphFirst`; its scoring hooks
                     receive :class:`RunRecord`)
a model provider     a :class:`Backend` subclass (answering a      :func:`register_provider`
                     :class:`Request` with a :class:`Completion`)
a prompt encoding    :class:`Encoding`                             :func:`register_encoding`
a complexity metric  :class:`ComplexityMetric` (called with        :func:`register_metric`
                     :class:`MetricOptions`)
a reducer of epochs  :class:`ReducerKind`                          :func:`register_reducer`
a graph file format  :class:`GraphFormat`                          :func:`register_format`
a scoring metric     :class:`ScoringMetric` (a function of a run   :func:`register_scoring_metric`
of runs              variant's confusion matrix)
===================  ===========================================  ==============================

The two kinds of metric are apart: a *complexity metric* measures a graph (C^com … C(s)); a
*scoring metric* scores a run's answers against the gold labels (``bench report --scoring-metric``).

A backend reports what went wrong with the errors here: :class:`TransientBackendError` (retried),
:class:`BackendUnreachable` (nothing answers), :class:`BackendUnavailable` (the run asks nothing new),
:class:`ConfigError` (a bad option).

Examples
--------
>>> from causalgraph.extend import Encoding, register_encoding
>>> from causalgraph.encodings import encode, unregister_encoding
>>> arrows = Encoding("demo-arrows", lambda nodes, edges, signs: "; ".join(f"{c}->{e}" for c, e, _ in edges),
...                   prefix="DMA")
>>> register_encoding(arrows).name, encode([("a", "b"), ("b", "c")], "demo-arrows")
('demo-arrows', 'a->b; b->c')
>>> unregister_encoding("demo-arrows")
"""

from __future__ import annotations

from .bench.epochs import ReducerKind, register_reducer
from .encodings import Encoding, register_encoding
from .errors import BackendUnavailable, BackendUnreachable, ConfigError, TransientBackendError
from .llm.base import Backend, Completion, Request
from .llm.registry import register_provider
from .metrics.complexity import ComplexityMetric, MetricOptions, register_metric
from .readwrite import GraphFormat, register_format
from .runlog.record import RunRecord
from .scoring.scoring_metrics import ScoringMetric, register_scoring_metric
from .taskkit.item import Item
from .tasks import Binary, Custom, EventSet, GraphFirst, ItemView, Multiclass, Pairs, Signs, Task, register_task

__all__ = [
    # records
    "Task", "Binary", "Multiclass", "EventSet", "Pairs", "Custom", "Signs", "GraphFirst", "Item", "ItemView", "Backend", "Request", "Completion", "Encoding", "ComplexityMetric",
    "MetricOptions", "ReducerKind", "GraphFormat", "ScoringMetric", "RunRecord",
    # registration, one rule: the record first, replace= and name= by keyword
    "register_task", "register_provider", "register_encoding", "register_metric", "register_reducer",
    "register_format", "register_scoring_metric",
    # what a backend raises
    "TransientBackendError", "BackendUnreachable", "BackendUnavailable", "ConfigError",
]
