"""The typed run log: ``manifest.json``, ``metrics.json`` and ``batches.json`` as versioned dataclasses.

A run folder holds four files; the lines of ``responses.jsonl`` are
:class:`~causalgraph.runlog.record.RunRecord` objects, and the other three are
the dataclasses here (as inspect_ai's ``EvalLog`` types its log):

* :class:`Manifest` — what was run: task, variants, model, generation
  parameters, dataset, versions, and one entry per invocation;
* :class:`Metrics` — what scoring found (:func:`~causalgraph.bench.scoring.compute_metrics`);
* :class:`Ledger` of :class:`BatchJob` — the OpenAI Batch jobs of the run.

Every one has a schema version (``SCHEMA``), :meth:`~LogFile.from_dict`, which
refuses a field it does not know or a version newer than it reads in one
line naming the file, and :meth:`~LogFile.to_dict`, which gives back the
object as it is written: keys in the order the writers have always written
them, a field that is not set (``None``) left out.  So a folder written
before these classes existed and one written through them hold the same
bytes, and a folder of an older causalgraph (fields missing, no schema key)
reads with the missing fields as ``None``.

Version 1 of each file is the unmarked one (no ``manifest_schema``,
``metrics_schema`` or ``ledger_schema`` key): these keys are written only
by a causalgraph that writes a later version.

The objects also answer the read-only part of the mapping protocol
(``m["task"]``, ``m.get("prompts")``, ``"epochs" in m``, ``dict(m)``) over
their written form, for code written against the dicts they replace.

Examples
--------
>>> m = Manifest.from_dict({"task": "ccr-member", "variants": ["A_5"], "model": "mock/oracle"})
>>> m.task, m.epochs, m.version, list(m.to_dict())
('ccr-member', None, 1, ['task', 'variants', 'model'])
>>> Manifest.from_dict({"task": "t", "surprise": 1}, "run/manifest.json")
Traceback (most recent call last):
...
causalgraph.errors.SchemaError: run/manifest.json: unknown manifest field 'surprise' (manifest schema 1 has task, variants, model, ...); was the run written by a newer causalgraph?
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Mapping, Optional

from ..errors import SchemaError

__all__ = ["LogFile", "Manifest", "Metrics", "BatchJob", "Ledger", "MANIFEST_SCHEMA", "METRICS_SCHEMA",
           "LEDGER_SCHEMA"]

#: Newest version of ``manifest.json`` this causalgraph reads (1: the unmarked one, as written since the first runs).
MANIFEST_SCHEMA = 1
#: Newest version of ``metrics.json`` this causalgraph reads.
METRICS_SCHEMA = 1
#: Newest version of ``batches.json`` this causalgraph reads.
LEDGER_SCHEMA = 1


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class LogFile:
    """What the three run-log dataclasses share: the schema check and the written form.

    One API per file: fields are read as attributes (``run.manifest.task``), the written form is
    :meth:`to_dict`; the objects answer no mapping access (``m["task"]``, ``.get``, ``in``).

    A subclass is a dataclass whose fields, in declaration order, are the
    keys of the file in the order they are written; ``KIND`` names the file
    in messages, ``SCHEMA_KEY`` is the field holding the version (absent:
    version 1) and ``SCHEMA`` the newest version read.

    Examples
    --------
    >>> m = Metrics.from_dict({"task": "t", "items": 2})
    >>> m.items, m.cost_usd, m.to_dict()
    (2, None, {'task': 't', 'items': 2})
    """

    KIND: ClassVar[str] = "log"
    SCHEMA: ClassVar[int] = 1
    SCHEMA_KEY: ClassVar[str] = "schema"

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The keys of the file, in the order they are written."""
        return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    @property
    def version(self) -> int:
        """The schema version of this object (1 when the file names none)."""
        return getattr(self, self.SCHEMA_KEY) or 1

    def _written(self, name: str, value: Any) -> Any:
        return value

    def to_dict(self, *, keep: tuple[str, ...] = ()) -> dict[str, Any]:
        """The object as written: keys in :meth:`field_names` order, a field left unset (``None``) out.

        ``keep`` names fields written even when ``None`` (``null``: a value that is undefined, as the
        parse-failure rate of a run with no answer in ``bench report --format json``).
        """
        return {name: self._written(name, getattr(self, name)) for name in self.field_names()
                if getattr(self, name) is not None or name in keep}

    @classmethod
    def of(cls, value: Any, where: Optional[str] = None):
        """``value`` as this class: an instance as it is, a mapping (``None``: empty) read by :meth:`from_dict`.

        For readers that take either the object a loaded run holds or the dict a scorer returned.

        Examples
        --------
        >>> Metrics.of({"task": "t"}).task, Metrics.of(None).task
        ('t', None)
        """
        if isinstance(value, cls):
            return value
        return cls.from_dict(value or {}, where or cls.KIND)

    @classmethod
    def _checked_fields(cls, data: Mapping[str, Any], where: str) -> dict[str, Any]:
        """``data`` as keyword arguments, after the checks every log file gets."""
        if isinstance(data, LogFile):
            data = data.to_dict()
        if not isinstance(data, Mapping):
            raise SchemaError(f"{where}: expected a JSON object ({cls.KIND}), found {type(data).__name__}")
        names = cls.field_names()
        unknown = sorted(set(data) - set(names))
        if unknown:
            shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
            raise SchemaError(f"{where}: unknown {cls.KIND} field {', '.join(map(repr, unknown))} ({cls.KIND} "
                              f"schema {cls.SCHEMA} has {shown}); was the run written by a newer causalgraph?")
        version = data.get(cls.SCHEMA_KEY)
        if version is not None and (not _is_int(version) or version < 1):
            raise SchemaError(f"{where}: {cls.SCHEMA_KEY} {version!r}, expected a positive integer")
        if version is not None and version > cls.SCHEMA:
            raise SchemaError(f"{where}: {cls.SCHEMA_KEY} {version} is newer than this causalgraph reads "
                              f"({cls.SCHEMA}); upgrade causalgraph to read this run")
        return dict(data)


@dataclass(eq=True)
class Manifest(LogFile):
    """``manifest.json``: what a run asked, of which model, on which data, and each invocation.

    Attributes
    ----------
    task, variants, model
        The run's task, its variant ids (in the order they were asked) and ``provider/model``.
    parameters
        Generation and request parameters (temperature, max_tokens, seed, limit,
        concurrency, retries, timeout, cache, public backend options, the
        backend's identity; ``method`` only under ``--method loglik``).
    dataset
        ``{"name", "source", "sha256"}`` of the corpus (a bare name in hand-made folders).
    prompts
        The prompt catalog of a task that has a choice (``authors``/``tables``).
    items
        Variant id → number of items asked.
    graph_edit
        The edit applied to the prompts' graphs (``--graph-edit``), when one was.
    causalgraph_version, python
        Versions of the writer.
    record_schema
        The lowest version of :class:`~causalgraph.runlog.record.RunRecord` that reads the lines.
    started
        When the run was first started (UTC, ISO 8601).
    invocations
        One object per invocation (``started``, ``mode`` and what it did; the fields depend on the mode).
    epochs
        Samples asked per item, in a run with more than one.
    inspect
        Provenance of a run imported from an inspect_ai log (``bench import-inspect``).
    manifest_schema
        The manifest's schema version (written only from version 2 on).

    Examples
    --------
    >>> m = Manifest.from_dict({"task": "t", "variants": ["v"], "parameters": {"method": "loglik"}})
    >>> m.method, Manifest.from_dict({"task": "t"}).method
    ('loglik', 'generate')
    """

    KIND: ClassVar[str] = "manifest"
    SCHEMA: ClassVar[int] = MANIFEST_SCHEMA
    SCHEMA_KEY: ClassVar[str] = "manifest_schema"

    task: Optional[str] = None
    variants: Optional[list[str]] = None
    model: Optional[str] = None
    parameters: Optional[dict[str, Any]] = None
    dataset: Any = None
    prompts: Optional[str] = None
    items: Optional[dict[str, int]] = None
    graph_edit: Optional[str] = None
    causalgraph_version: Optional[str] = None
    record_schema: Optional[int] = None
    python: Optional[str] = None
    started: Optional[str] = None
    invocations: Optional[list[dict[str, Any]]] = None
    epochs: Optional[int] = None
    inspect: Optional[dict[str, Any]] = None
    manifest_schema: Optional[int] = None

    @property
    def method(self) -> str:
        """How answers were scored: ``loglik`` or ``generate`` (what a manifest without ``method`` means)."""
        return str((self.parameters or {}).get("method") or "generate")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "manifest") -> "Manifest":
        """Read a manifest; a missing field is ``None``, an unknown one or a newer schema is refused.

        Raises
        ------
        SchemaError
            One line naming ``where`` and what was expected.
        """
        kw = cls._checked_fields(data, where)
        epochs = kw.get("epochs")
        if epochs is not None and (not _is_int(epochs) or epochs < 1):
            raise SchemaError(f"{where}: epochs {epochs!r}, expected a positive integer (the samples asked per item)")
        variants, items = kw.get("variants"), kw.get("items")
        if variants is not None and not (isinstance(variants, list) and all(isinstance(v, str) for v in variants)):
            raise SchemaError(f"{where}: variants {variants!r:.80}, expected a list of variant ids")
        if items is not None and not (isinstance(items, dict) and all(_is_int(n) and n >= 0 for n in items.values())):
            raise SchemaError(f"{where}: items {items!r:.80}, expected an object of variant id -> item count")
        for name in ("parameters", "inspect"):
            if kw.get(name) is not None and not isinstance(kw[name], Mapping):
                raise SchemaError(f"{where}: {name} {kw[name]!r:.80}, expected a JSON object")
        if kw.get("invocations") is not None and not (isinstance(kw["invocations"], list)
                                                       and all(isinstance(i, Mapping) for i in kw["invocations"])):
            raise SchemaError(f"{where}: invocations {kw['invocations']!r:.80}, expected a list of objects")
        return cls(**kw)


@dataclass(eq=True)
class Metrics(LogFile):
    """``metrics.json``: a run's scores, counts, tokens and cost, as scoring wrote them.

    Attributes
    ----------
    task, model
        As in the manifest.
    epochs, reducer, method
        How samples were reduced (runs with epochs or a pass reducer) and
        ``loglik`` for a run scored by log-likelihood; absent otherwise.
    items, answered, errors, parse_failures, pending, parse_failure_rate
        Counts over every variant.
    tokens_in, tokens_out, cost_usd
        Tokens and USD of every answered sample (every epoch's).
    bootstrap
        Resamples, seed, unit and level of the confidence intervals.
    variants
        Variant id → its scores (which scores depends on the task's kind).
    strategies
        Strategy → the mean and spread of its variants' scores.
    scoring_metrics
        The scoring metrics asked for (``--scoring-metric``), name → what it
        measures; absent when none was (each variant then has no
        ``scoring_metrics`` either).
    requests_sent, cache_hits, skipped, batch_requests
        What the invocation that wrote the file did.
    metrics_schema
        The schema version (written only from version 2 on).

    Examples
    --------
    >>> m = Metrics.from_dict({"task": "t", "variants": {"v": {"f1": 0.5}}, "tokens_in": 10})
    >>> m.variant("v")["f1"], m.variant("w"), m.tokens_in
    (0.5, {}, 10)
    """

    KIND: ClassVar[str] = "metrics"
    SCHEMA: ClassVar[int] = METRICS_SCHEMA
    SCHEMA_KEY: ClassVar[str] = "metrics_schema"

    task: Optional[str] = None
    model: Optional[str] = None
    epochs: Optional[int] = None
    reducer: Optional[str] = None
    method: Optional[str] = None
    items: Optional[int] = None
    answered: Optional[int] = None
    errors: Optional[int] = None
    parse_failures: Optional[int] = None
    pending: Optional[int] = None
    parse_failure_rate: Optional[float] = None
    tokens_in: Optional[int] = None
    tokens_out: Optional[int] = None
    cost_usd: Optional[float] = None
    bootstrap: Optional[dict[str, Any]] = None
    variants: Optional[dict[str, dict[str, Any]]] = None
    strategies: Optional[dict[str, Any]] = None
    scoring_metrics: Optional[dict[str, str]] = None
    requests_sent: Optional[int] = None
    cache_hits: Optional[int] = None
    skipped: Optional[int] = None
    batch_requests: Optional[int] = None
    metrics_schema: Optional[int] = None

    def variant(self, variant: str) -> dict[str, Any]:
        """The scores of one variant (``{}`` for a variant not scored)."""
        return dict((self.variants or {}).get(variant) or {})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "metrics") -> "Metrics":
        """Read ``metrics.json`` (``{}``: a run not scored yet); unknown fields and newer schemas are refused.

        Raises
        ------
        SchemaError
            One line naming ``where`` and what was expected.
        """
        kw = cls._checked_fields(data, where)
        for name in ("items", "answered", "errors", "parse_failures", "pending", "tokens_in", "tokens_out",
                     "epochs", "requests_sent", "cache_hits", "skipped", "batch_requests"):
            if kw.get(name) is not None and not _is_int(kw[name]):
                raise SchemaError(f"{where}: {name} {kw[name]!r:.80}, expected an integer count")
        for name in ("variants", "strategies", "bootstrap", "scoring_metrics"):
            if kw.get(name) is not None and not isinstance(kw[name], Mapping):
                raise SchemaError(f"{where}: {name} {kw[name]!r:.80}, expected a JSON object")
        return cls(**kw)


@dataclass(eq=True)
class BatchJob(LogFile):
    """One Batch job of a run, as :mod:`causalgraph.bench.batch` records it step by step.

    Attributes
    ----------
    local_id, state
        The run's own id of the job (``b0001`` …) and how far it got:
        ``prepared``, ``uploaded``, ``submitted`` or ``collected``.
    input_path, items_path
        The request file sent and the items it asks (in the run folder).
    requests, created
        Requests in the job; when it was prepared.
    input_file_id, batch_id, status, submitted
        The uploaded file, the provider's job id and status, when it was submitted.
    request_counts
        The provider's counts of done and failed requests.
    output_file_id, output_path, error_file_id, error_path
        The result files, their provider ids and where they were downloaded.
    collected
        When the results were read into ``responses.jsonl``.

    Examples
    --------
    >>> BatchJob.from_dict({"local_id": "b0001", "state": "prepared", "requests": 3}).state
    'prepared'
    """

    KIND: ClassVar[str] = "batch job"
    SCHEMA: ClassVar[int] = LEDGER_SCHEMA
    SCHEMA_KEY: ClassVar[str] = "ledger_schema"

    local_id: Optional[str] = None
    state: Optional[str] = None
    input_path: Optional[str] = None
    items_path: Optional[str] = None
    requests: Optional[int] = None
    created: Optional[str] = None
    input_file_id: Optional[str] = None
    batch_id: Optional[str] = None
    status: Optional[str] = None
    submitted: Optional[str] = None
    request_counts: Optional[dict[str, Any]] = None
    output_file_id: Optional[str] = None
    output_path: Optional[str] = None
    error_file_id: Optional[str] = None
    error_path: Optional[str] = None
    collected: Optional[str] = None

    @property
    def version(self) -> int:
        return LEDGER_SCHEMA  # a job's version is its ledger's

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "batch job") -> "BatchJob":
        """Read one entry of ``batches``; it needs ``local_id`` and ``state``.

        Raises
        ------
        SchemaError
            One line naming ``where`` and what was expected.
        """
        kw = cls._checked_fields(data, where)
        for name in ("local_id", "state"):
            if not isinstance(kw.get(name), str):
                raise SchemaError(f"{where}: {name} {kw.get(name)!r:.80}, expected a string")
        return cls(**kw)


@dataclass(eq=True)
class Ledger(LogFile):
    """``batches.json``: the Batch jobs of a run (``batches`` empty when the run used none).

    Examples
    --------
    >>> led = Ledger.from_dict({"batches": [{"local_id": "b0001", "state": "collected"}]})
    >>> [b.state for b in led.batches], led.pending()
    (['collected'], 0)
    """

    KIND: ClassVar[str] = "ledger"
    SCHEMA: ClassVar[int] = LEDGER_SCHEMA
    SCHEMA_KEY: ClassVar[str] = "ledger_schema"

    batches: list[BatchJob] = field(default_factory=list)
    ledger_schema: Optional[int] = None

    def _written(self, name: str, value: Any) -> Any:
        return [b.to_dict() for b in value] if name == "batches" else value

    def pending(self) -> int:
        """Jobs not collected yet."""
        return sum(1 for b in self.batches if b.state != "collected")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "ledger") -> "Ledger":
        """Read ``batches.json``; every job through :meth:`BatchJob.from_dict`.

        Raises
        ------
        SchemaError
            One line naming ``where`` and what was expected.
        """
        kw = cls._checked_fields(data, where)
        batches = kw.get("batches")
        if batches is None:
            batches = []
        if not isinstance(batches, list):
            raise SchemaError(f"{where}: batches {batches!r:.80}, expected a list of batch jobs")
        kw["batches"] = [b if isinstance(b, BatchJob) else BatchJob.from_dict(b, f"{where}, batch {n}")
                         for n, b in enumerate(batches, start=1)]
        return cls(**kw)
