"""The run record: one line of ``responses.jsonl``, one schema for the writer and every reader.

The runner writes a :class:`RunRecord` per answered (or failed) item; the
store reads lines back as records, through :meth:`RunRecord.from_dict` or,
for a line exactly as :meth:`RunRecord.to_dict` writes it, without a second
pass, so a record has the same keys, in the same order, whoever wrote it and
whenever.  The schema
version is written into each run's manifest (``record_schema``); folders
from before the version existed read as version 1, and fields that a
reader knows but an old line lacks get their default (``cost_usd`` came
after the first runs: it reads as ``None``, "not recorded", never as a cost
of 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping, Optional

from ..errors import SchemaError

__all__ = ["RunRecord", "RECORD_FIELDS", "OPTIONAL_FIELDS", "RECORD_SCHEMA", "record_schema_of"]

#: Newest version of the record schema this causalgraph writes and reads (``manifest["record_schema"]``).
#: Version 2 added ``epoch`` (repeated sampling, ``bench run --epochs``); version 3 ``method``,
#: ``continuations``, ``logprobs`` and ``probs`` (``bench run --method loglik``); version 4 the method
#: ``choice-logprobs`` with ``scoring`` and ``choice_read`` (``bench run --method choice-logprobs``); version 5
#: ``graph`` (the graph-first variants, which write a graph before they answer).  A run's manifest names the
#: lowest version that reads all of its lines: 2 for a run with epochs, 1 otherwise, so that a run
#: which never used a newer field stays readable by the causalgraph that could read it before.
RECORD_SCHEMA = 5


@dataclass
class RunRecord:
    """One item's outcome in a run.

    Attributes
    ----------
    task, variant, item_id
        What was asked (the item's identity in the run).
    epoch
        Which of the item's repeated samples this line answers (1, 2 …;
        ``bench run --epochs N``).  Written only in runs with more than one
        epoch; a line without it is epoch 1.
    gold
        The item's gold label (``None`` for tasks scored otherwise).
    meta
        The item's provenance (statement id, event …).
    prompt_sha256
        SHA-256 of the chat messages sent.
    request_key
        The response-cache key.
    response
        The model's text (``None`` when the request failed).
    label, rule
        The parsed answer and the parse rule that produced it (``None`` when
        unparsed or failed).  Under log-likelihood scoring, the label with the
        highest summed log-probability and the rule ``loglik-acc``.
    graph
        Graph-first variants only (:mod:`causalgraph.tasks.graph_first`): the
        graph the answer wrote before it answered, ``{"rule": …,
        "annotation": parsed annotation or None}``; absent otherwise.
    method
        ``loglik`` for an item scored by log-likelihood (``bench run --method
        loglik``), ``choice-logprobs`` for one read from a chat model's
        generated-token log-probabilities; absent for generated answers.
    continuations, logprobs, probs
        Log-likelihood scoring: label → the continuation scored, its
        summed log-probability (natural log) and its probability normalised
        over the choices.  Under ``choice-logprobs``: the log-probability of
        each choice's first distinguishing token at the answer position (or
        its bound), ``None`` for an item scored by parsing.
    scoring
        ``choice-logprobs`` only: ``logprobs`` (read at the answer position)
        or ``parsed`` (the reply departed from the choices or ended first:
        the label is the parser's).
    choice_read
        ``choice-logprobs`` only: ``position`` (generated token index of the
        answer position), ``choices_seen``, ``bounded`` (labels given the
        k-th value as a bound), ``top_k``, and for parsed items ``reason``
        (``departed``, ``ended``, ``unresolved``, ``unseen``) and ``note``.
    usage
        ``{"prompt_tokens": …, "completion_tokens": …}``.
    cost_usd
        USD of this request (``None`` in runs recorded before costs were).
    latency_s, finish_reason
        From the backend.
    source
        ``live``, ``cache`` or ``batch``.
    attempts
        Requests sent for this line (0 for a cache hit).
    error
        Why the request failed (credentials removed), else ``None``.
    time
        When the line was written (UTC, ISO 8601).
    batch_id
        The provider's Batch job that answered it (Batch runs only; written
        only when set, as every field of :data:`OPTIONAL_FIELDS`).

    Examples
    --------
    >>> r = RunRecord.from_dict({"task": "t", "variant": "v", "item_id": "i", "label": "yes"})
    >>> r.label, r.cost_usd, list(r.to_dict())[:3]
    ('yes', None, ['task', 'variant', 'item_id'])
    """

    task: str
    variant: str
    item_id: str
    epoch: Optional[int] = None
    gold: Any = None
    meta: dict[str, Any] = field(default_factory=dict)
    prompt_sha256: Optional[str] = None
    request_key: Optional[str] = None
    response: Optional[str] = None
    label: Any = None
    rule: Optional[str] = None
    graph: Optional[dict[str, Any]] = None
    method: Optional[str] = None
    continuations: Optional[dict[str, str]] = None
    logprobs: Optional[dict[str, float]] = None
    probs: Optional[dict[str, float]] = None
    scoring: Optional[str] = None
    choice_read: Optional[dict[str, Any]] = None
    usage: dict[str, Any] = field(default_factory=lambda: {"prompt_tokens": None, "completion_tokens": None})
    cost_usd: Optional[float] = None
    latency_s: Optional[float] = None
    finish_reason: Optional[str] = None
    source: Optional[str] = None
    attempts: int = 0
    error: Optional[str] = None
    time: Optional[str] = None
    batch_id: Optional[str] = None

    def __post_init__(self):
        # Readers take meta and usage as dicts: a record built with None (an item without meta) holds the
        # defaults, as its line read back through from_dict would.
        if self.meta is None:
            self.meta = {}
        if self.usage is None:
            self.usage = {"prompt_tokens": None, "completion_tokens": None}

    def to_dict(self) -> dict[str, Any]:
        """The record as written: keys in :data:`RECORD_FIELDS` order, optional ones only when set."""
        return {name: getattr(self, name) for name in RECORD_FIELDS
                if name not in OPTIONAL_FIELDS or getattr(self, name) is not None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "record") -> "RunRecord":
        """Read a line; a missing field gets its default, an unknown one is refused.

        Raises
        ------
        SchemaError
            When ``data`` is not an object, lacks ``task``/``variant``/``item_id``,
            or holds a key this schema does not know (a line of a newer
            causalgraph, or not a run record).
        """
        if not isinstance(data, Mapping):
            raise SchemaError(f"{where}: expected a JSON object, found {type(data).__name__}")
        missing = [k for k in ("task", "variant", "item_id") if data.get(k) is None]
        if missing:
            raise SchemaError(f"{where}: the record has no {', '.join(missing)}")
        unknown = sorted(set(data) - set(RECORD_FIELDS))
        if unknown:
            raise SchemaError(f"{where}: unknown record field {', '.join(map(repr, unknown))} (record schema "
                              f"{RECORD_SCHEMA} has {', '.join(RECORD_FIELDS)}); was the run written by a newer "
                              "causalgraph?")
        epoch = data.get("epoch")
        if epoch is not None and (not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 1):
            raise SchemaError(f"{where}: epoch {epoch!r}, expected a positive integer (1 for the first sample)")
        method = data.get("method")
        if method is not None and method not in ("loglik", "choice-logprobs"):
            raise SchemaError(f"{where}: method {method!r}, expected 'loglik' or 'choice-logprobs' (or no method for a "
                              "generated answer)")
        scoring = data.get("scoring")
        if scoring is not None and scoring not in ("logprobs", "parsed"):
            raise SchemaError(f"{where}: scoring {scoring!r}, expected 'logprobs' or 'parsed' (or null)")
        for name in ("meta", "usage", "continuations", "logprobs", "probs", "choice_read", "graph"):
            if data.get(name) is not None and not isinstance(data[name], Mapping):
                raise SchemaError(f"{where}: {name} {data[name]!r:.80}, expected a JSON object (or null)")
        graph = data.get("graph")
        if graph is not None:
            # A hand-damaged graph would otherwise be read as a graph without edges and scored F1 0.
            annotation = graph.get("annotation")
            if annotation is not None and not isinstance(annotation, Mapping):
                raise SchemaError(f"{where}: graph annotation {annotation!r:.80}, expected a JSON object (or null: "
                                  "no graph could be read)")
            if annotation is not None and not isinstance(annotation.get("relations"), list):
                raise SchemaError(f"{where}: graph annotation relations {annotation.get('relations')!r:.80}, "
                                  "expected a list of relations")
        for name in ("task", "variant", "item_id"):
            if not isinstance(data[name], str):
                raise SchemaError(f"{where}: {name} {data[name]!r:.80}, expected a string")
        return cls(**data)

    @classmethod
    def of(cls, value: "RunRecord | Mapping[str, Any]", where: str = "record") -> "RunRecord":
        """``value`` itself when it is a record, else its line read through :meth:`from_dict`.

        For callers that take records built by hand (a test, a notebook) as
        well as read ones; anything else is refused as :meth:`from_dict` refuses it.

        Examples
        --------
        >>> RunRecord.of({"task": "t", "variant": "v", "item_id": "i"}).epoch is None
        True
        """
        return value if isinstance(value, cls) else cls.from_dict(value, where)

    @classmethod
    def _written(cls, line: dict[str, Any]) -> "RunRecord":
        """A line that :meth:`to_dict` wrote, taken as it is (the store checked it is one): no copy, no checks.

        The optional fields a line lacks read as their class defaults (``None``).  The record takes
        ``line`` itself as its attributes (no copy): give it a line no one else holds.
        """
        rec = object.__new__(cls)
        rec.__dict__ = line
        return rec


#: The keys of the lines of ``responses.jsonl``, in the order they are written.
RECORD_FIELDS = tuple(f.name for f in fields(RunRecord))
#: Fields written only when they hold a value (so runs that never use them keep their bytes).
OPTIONAL_FIELDS = ("epoch", "batch_id", "graph", "method", "continuations", "logprobs", "probs", "scoring",
                   "choice_read")


def record_schema_of(manifest: Any, where: str = "manifest") -> int:
    """The record schema of a run (1 for folders written before the version was recorded).

    Raises
    ------
    SchemaError
        For a schema newer than this causalgraph reads.

    Examples
    --------
    >>> record_schema_of({}), record_schema_of({"record_schema": 1})
    (1, 1)
    """
    # A Manifest (runlog.files, which imports this module) or the dict of one.
    version = manifest.get("record_schema", 1) if isinstance(manifest, Mapping) else manifest.record_schema or 1
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SchemaError(f"{where}: record_schema {version!r}, expected a positive integer")
    if version > RECORD_SCHEMA:
        raise SchemaError(f"{where}: record_schema {version} is newer than this causalgraph reads "
                          f"({RECORD_SCHEMA}); upgrade causalgraph to read this run")
    return version
