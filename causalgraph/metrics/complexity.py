"""The five causal complexity metrics of a statement and the total C(s).

ClimateCause paper (Allein et al., 2026), §5.2.1, eqs. 1–7:

* ``com`` (C^com, eq. 1) – common cause/effect structures: the graph of
  event → overarching-event edges (Cause/Effect–Belongs_to) of relations
  with Combined = Yes; #edges + #weakly connected components;
* ``ex`` (C^ex, eq. 2) – elaboration of examples: the same for Combined = No
  and Nested ≠ Yes;
* ``nest`` (C^nest, eq. 3) – nested causality: for each nesting event
  (Effect–Belongs_to of a Nested = Yes relation) nesting T distinct
  relations, T + T·ln T;
* ``corr`` (C^corr, eq. 4) and ``pol`` (C^pol, eq. 5) – negative edges +
  negative paths + nodes with mixed incoming labels + nodes with mixed
  outgoing labels, on the causal graph labelled by correlation or by
  relation type (0 when no edge is negative);
* C(s) (eqs. 6–7) – the weighted sum of the min–max normalised metrics over
  a corpus (:func:`complexity_table`) or against fixed reference ranges
  (:func:`causalgraph.annotation.reference.normalized_complexity`); both
  compute eq. 7 with :func:`c_s`.

The metrics are held in a registry: a new one is a function of the compiled
graph plus one :func:`register_metric` line, and :func:`complexity` and the
table take it up as an extra column.  An installed distribution adds one
through the entry-point group ``causalgraph.metrics`` (name: the metric,
value: ``"module:attr"`` of a :class:`ComplexityMetric` record or of its
``function(graph, options)``, described by its docstring's first line); the
registry is a :class:`causalgraph._core.registry.Registry`.

C(s) and ``c_raw`` are the paper's: over :data:`PAPER_METRICS`, whatever is
registered, so that installing a metric never changes the paper's numbers.
A composite over other metrics is asked for by name (``metrics=`` of
:func:`complexity_table`, ``complexity --metrics``), and the table records
which metrics and weights made its C(s) (``table.attrs["composite"]``,
:func:`composite_note`).

docs/metrics.md defines every term and the choices made where the paper is
silent (conflicting labels, cycles, tokens), and says which name C(s) has
where (``c_norm`` in tables, ``c_s`` in per-text scores).
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import re
import dataclasses
from dataclasses import FrozenInstanceError, dataclass
from typing import Any, Callable, Iterable, Literal, Mapping, Optional, Sequence, Union

from ..errors import ConfigError, CycleLimitExceeded, SchemaError
from ..graph import BelongsEdge, CausalGraph, as_graph
from ..model import Corpus, Relation, Statement, as_statements
from .._core.registry import ENTRY_POINT_GROUPS, Registry, did_you_mean, load_target, record_name
from .paths import DEFAULT_CYCLE_LIMIT, count_maximal_paths

__all__ = [
    "METRICS",
    "PAPER_METRICS",
    "composite_metrics",
    "composite_note",
    "composite_columns",
    "CONFLICT_RULES",
    "C_S_COLUMN",
    "Complexity",
    "ComplexityMetric",
    "MetricOptions",
    "SignedComplexity",
    "register_metric",
    "unregister_metric",
    "complexity_metrics",
    "metric_names",
    "complexity",
    "complexity_table",
    "complexity_columns",
    "missing_metrics",
    "belongs_complexity",
    "nesting_complexity",
    "signed_complexity",
    "count_tokens",
    "normalize_weights",
    "normalized_term",
    "c_s",
    "COMPLEXITY_COLUMNS",
]

#: How a (cause, effect) pair annotated with both signs is read; see docs/metrics.md.
CONFLICT_RULES = ("both", "first", "error")

#: The column that holds C(s) in :func:`complexity_table` (and ``causalgraph complexity``); per-text
#: scores call it ``c_s`` (see docs/metrics.md for why both names stay).
C_S_COLUMN = "c_norm"

# A word: letters, possibly joined by internal hyphens or apostrophes
# ("land-use", "don't"); tokens with digits ("CO2", "2018") are not words.
_WORD = re.compile(r"\b[^\W\d_]+(?:[-'’][^\W\d_]+)*\b")


@dataclass(frozen=True)
class SignedComplexity:
    """The terms of C^corr or C^pol (eq. 4/5) for one graph.

    ``total`` is 0 when there is no negative edge, else the sum of the terms.
    """

    negative_edges: int
    negative_paths: int
    mixed_in: int
    mixed_out: int

    @property
    def total(self) -> int:
        if self.negative_edges == 0:
            return 0
        return self.negative_edges + self.negative_paths + self.mixed_in + self.mixed_out


# -- the registry of metrics ---------------------------------------------------------------

@dataclass(frozen=True)
class MetricOptions:
    """What :func:`complexity` hands every metric besides the graph (see :func:`signed_complexity`)."""

    conflicts: str = "both"
    cycle_limit: int = DEFAULT_CYCLE_LIMIT


@dataclass(frozen=True)
class ComplexityMetric:
    """One registered complexity metric.

    Attributes
    ----------
    name
        Short name: the :class:`Complexity` attribute, the table column
        ``c_<name>``, the key of its weight and of its reference range.
    function
        ``function(graph, options) -> number``: the metric of a compiled
        :class:`~causalgraph.graph.CausalGraph` (no-quantifier events), given
        the :class:`MetricOptions` of the call.
    description
        One line saying what it counts (shown in docs and listings).
    symbol
        How the paper writes it (``C^com``); ``C^<name>`` when left empty.
    columns
        The label columns (relations-format names, docs/data.md) it reads:
        for a corpus that :attr:`~causalgraph.model.Corpus.lacks` one of
        them, :func:`complexity_table` reports the metric as NaN with a note
        instead of scoring every relation as unlabelled.
    """

    name: str
    function: Callable[[CausalGraph, MetricOptions], float]
    description: str
    symbol: str = ""
    columns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.symbol:  # C^<name> unless the record says how to print it
            object.__setattr__(self, "symbol", f"C^{self.name}")
        object.__setattr__(self, "columns", tuple(self.columns))


_NAME = re.compile(r"[a-z][a-z0-9_]*")
# Names a metric cannot take: the table's other columns are c_raw and c_norm, and Complexity has these members.
# Names a metric cannot take: Complexity's own attributes, and the other keys of
# normalized_complexity()'s result, which a metric of that name would silently overwrite.
# (metrics, weights): the columns the command line adds to say which composite made C(s).
_RESERVED = {"raw", "norm", "s", "as_dict", "n_complex", "c_s", "beyond_range", "reference", "total", "metrics",
             "weights"}


def register_metric(metric: "ComplexityMetric | str", *, replace: bool = False,
                    name: Optional[str] = None) -> "ComplexityMetric | str":
    """Add a complexity metric: :func:`complexity`, the table, weights and C(s) take it up.

    The rule of every ``register_*`` function: the record (or the ``"module:attr"`` target of
    one) first, ``replace=`` and ``name=`` by keyword.

    Parameters
    ----------
    metric
        A :class:`ComplexityMetric` (its ``name`` a lower-case identifier not yet registered;
        its ``function(graph, options) -> number`` for a compiled graph and
        :class:`MetricOptions`, or the ``"module:attr"`` target of that function, imported on
        its first call), or the ``"module:attr"`` target of a ``ComplexityMetric`` (then
        ``name`` says its name; it is imported when the metrics are first listed).
    replace
        Replace a metric registered under the same name (it keeps its place);
        without it a taken name is refused.
    name
        The name of a lazy target; for a record, its own name if given.

    Returns
    -------
    ComplexityMetric or str
        What was registered (metrics keep the order they were registered in).

    Examples
    --------
    >>> m = register_metric(ComplexityMetric("events", lambda graph, options: len(graph.nodes), "number of events"))
    >>> m.symbol, complexity([Relation("a", "b"), Relation("b", "c")]).events
    ('C^events', 3)
    >>> unregister_metric("events")
    """
    name = record_name(metric, ComplexityMetric, name, "register_metric")
    _check_name(name)
    if name in _REGISTRY and not replace:
        raise ConfigError(f"metric {name!r} is already registered ({_REGISTRY.get(name).description}); pass "
                          "replace=True to replace it")
    if name in PAPER_METRICS:
        raise ConfigError(f"metric {name!r} is one of the paper's five and cannot be replaced")
    if not isinstance(metric, str) and isinstance(metric.function, str):
        # a lazy "module:attr" function, imported when first scored
        metric = dataclasses.replace(metric, function=_LazyFunction(metric.function))
    _REGISTRY.register(name, metric if isinstance(metric, str) else _check_metric(name, metric), replace=True)
    return metric


def _check_name(name: Any) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name in _RESERVED:
        raise ConfigError(f"metric name {name!r}: expected a lower-case identifier (letters, digits, '_') other "
                          f"than {', '.join(sorted(_RESERVED))}")


class _LazyFunction:
    """A metric function named by ``"module:attr"``, imported on its first call."""

    __slots__ = ("target", "_function")

    def __init__(self, target: str) -> None:
        self.target = target
        self._function: Optional[Callable] = None

    def __call__(self, graph: CausalGraph, options: MetricOptions) -> float:
        if self._function is None:
            try:
                self._function = load_target(self.target)
            except ConfigError:
                raise
            except Exception as exc:
                raise ConfigError(f"metric function {self.target} failed to load: {type(exc).__name__}: "
                                  f"{exc}") from exc
        return self._function(graph, options)

    def __repr__(self) -> str:
        return f"<metric function {self.target}>"


def _check_metric(name: str, obj: Any) -> ComplexityMetric:
    """A plugin's (or a record's) metric: a :class:`ComplexityMetric`, or its function alone."""
    _check_name(name)
    if isinstance(obj, ComplexityMetric):
        metric = obj
        if metric.name != name:
            raise ConfigError(f"metric {name!r}: the ComplexityMetric record is named {metric.name!r}; the "
                              "registered name must be the metric's own")
    else:
        doc = (getattr(obj, "__doc__", None) or "").strip()
        metric = ComplexityMetric(name, obj, doc.splitlines()[0] if doc else name, f"C^{name}")
    if not callable(metric.function):
        raise ConfigError(f"metric {name!r}: function is {type(metric.function).__name__}; expected a callable "
                          "function(graph, options)")
    return metric


#: Every metric by name, in registration order: the paper's five, those registered with
#: :func:`register_metric`, then plugins of the entry-point group ``causalgraph.metrics``.
_REGISTRY: Registry[ComplexityMetric] = Registry("metric", group=ENTRY_POINT_GROUPS["metric"],
                                                 coerce=_check_metric)
#: The paper's five, which cannot be replaced or removed, and the metrics C(s) and ``c_raw`` are made of
#: unless a composite is asked for (named, not read off the registry, so that a metric added after them,
#: by a plugin or by the recipe of docs/architecture.md, never changes the paper's numbers).
PAPER_METRICS: tuple[str, ...] = ("com", "ex", "nest", "corr", "pol")
_PAPER_METRICS = PAPER_METRICS


def unregister_metric(name: str) -> None:
    """Remove a metric registered with :func:`register_metric`; the paper's five stay."""
    if name in PAPER_METRICS:
        raise ConfigError(f"metric {name!r} is one of the paper's five and cannot be removed")
    if name not in _REGISTRY:
        raise ConfigError(f"metric {name!r} is not registered; registered: {', '.join(_REGISTRY.names())}"
                          f"{did_you_mean(name, _REGISTRY.names())}")
    _REGISTRY.unregister(name)


def complexity_metrics() -> tuple[ComplexityMetric, ...]:
    """Every usable metric, in registration order (the paper's five first, plugins last).

    A plugin metric that fails to load is left out, with a note (see :meth:`causalgraph._core.registry.Registry.usable`).
    """
    return _REGISTRY.values()


def metric_names() -> tuple[str, ...]:
    """The names of the usable metrics, in order: ``("com", "ex", "nest", "corr", "pol")`` by default."""
    return tuple(_REGISTRY.usable())


def composite_metrics(metrics: Union[None, str, Sequence[str]] = None, *, what: str = "metrics") -> tuple[str, ...]:
    """The metrics a C(s) is made of: :data:`PAPER_METRICS` by default, else those named (checked).

    ``metrics`` is a sequence of metric names or a comma-separated string
    (``"com,ex,nest,corr,pol,events"``, as ``complexity --metrics`` takes it).
    Each must be a registered, usable metric, named once.  ``what`` names the
    argument in messages (``--metrics`` on the command line).

    Examples
    --------
    >>> composite_metrics(), composite_metrics("corr, pol")
    (('com', 'ex', 'nest', 'corr', 'pol'), ('corr', 'pol'))
    >>> composite_metrics("corr,cor")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: unknown metric 'cor'; expected one of com, ex, nest, corr, pol; did you mean 'corr'?
    """
    if metrics is None:
        return PAPER_METRICS
    if isinstance(metrics, str):
        names = [m.strip() for m in metrics.split(",")]
    elif isinstance(metrics, (list, tuple)) and all(isinstance(m, str) for m in metrics):
        names = [m.strip() for m in metrics]
    else:
        raise ConfigError(f"{what} {metrics!r}: expected metric names (a list, or 'com,ex,…' text)")
    if not names or any(not m for m in names):
        raise ConfigError(f"{what} {metrics!r}: expected one or more metric names separated by commas")
    twice = sorted({m for m in names if names.count(m) > 1})
    if twice:
        raise ConfigError(f"{what} {metrics!r}: {', '.join(twice)} named twice")
    for m in names:
        _REGISTRY.get(m)  # unknown: the did-you-mean line; a broken plugin: its own line
    return tuple(names)


def complexity_columns(metrics: Union[None, str, Sequence[str]] = None) -> tuple[str, ...]:
    """Columns of :func:`complexity_table` for the usable metrics (and those of ``metrics``, a composite)."""
    names = list(metric_names())
    names += [m for m in composite_metrics(metrics) if m not in names]
    return ("statement_id", "statement", *(f"c_{m}" for m in names), "c_raw", C_S_COLUMN, "density", "n_tokens")


def composite_note(composite: Mapping[str, Sequence]) -> str:
    """One line saying which metrics and weights made ``c_raw`` and C(s): a table's ``attrs["composite"]``.

    Examples
    --------
    >>> composite_note({"metrics": PAPER_METRICS, "weights": (1.0, 1.0, 1.0, 1.0, 0.5)})
    "c_raw and C(s) (c_norm) over com, ex, nest, corr, pol with weights 1, 1, 1, 1, 0.5 (the paper's five)"
    """
    metrics = tuple(composite["metrics"])
    weights = ", ".join(f"{float(w):g}" for w in composite["weights"])
    paper = " (the paper's five)" if metrics == PAPER_METRICS else ""
    return f"c_raw and C(s) ({C_S_COLUMN}) over {', '.join(metrics)} with weights {weights}{paper}"


def composite_columns(composite: Mapping[str, Sequence]) -> dict[str, str]:
    """``{"c_metrics": "com,ex,…", "c_weights": "1,1,…"}``: the composite as two columns of a CSV or JSON row.

    Examples
    --------
    >>> composite_columns({"metrics": ("corr", "pol"), "weights": (1.0, 2.0)})
    {'c_metrics': 'corr,pol', 'c_weights': '1,2'}
    """
    return {"c_metrics": ",".join(composite["metrics"]),
            "c_weights": ",".join(f"{float(w):g}" for w in composite["weights"])}


class Complexity:
    """The causal complexity metrics of one statement, by name (the paper's five: com, ex, nest, corr, pol).

    :func:`complexity` builds it; ``Complexity(com=1, ex=0, nest=0.0, corr=5,
    pol=0)`` builds one by hand and must name the paper's five (any other
    registered metric may be given too).
    Read a metric as an attribute (``c.corr``) or by name (``c["corr"]``).
    ``raw`` is the plain (unnormalised) sum of the paper's five, computed on
    construction, so it cannot disagree with them; :meth:`total` sums
    another composite.  C(s) is not here: it needs the ranges of
    a corpus (:func:`complexity_table`) or of a reference
    (:func:`causalgraph.annotation.reference.normalized_complexity`).

    Examples
    --------
    >>> c = Complexity(com=2, ex=0, nest=0.0, corr=5, pol=1)
    >>> c.corr, c["pol"], c.raw, c.n_complex()
    (5, 1, 8.0, 3)
    """

    __slots__ = ("_values", "raw")

    def __init__(self, **values: float) -> None:
        missing = [k for k in PAPER_METRICS if k not in values]
        unknown = [k for k in values if k not in PAPER_METRICS and k not in _REGISTRY]
        if unknown or missing:
            raise TypeError(f"Complexity() takes a value for each of the paper's metrics ({', '.join(PAPER_METRICS)}) "
                            f"and any other registered one; missing {missing}, unknown {unknown}")
        names = _REGISTRY.names(plugins=False) + tuple(k for k in _REGISTRY.names() if k in values)
        ordered = {m: values[m] for m in dict.fromkeys(names) if m in values}
        object.__setattr__(self, "_values", ordered)
        object.__setattr__(self, "raw", self.total())

    def total(self, metrics: Sequence[str] = PAPER_METRICS) -> float:
        """The plain sum of ``metrics`` (default the paper's five: :attr:`raw`), in the order given.

        Examples
        --------
        >>> Complexity(com=2, ex=0, nest=0.0, corr=5, pol=1).total(("corr", "pol"))
        6
        """
        # A running sum in metric order (com + ex + nest + corr + pol), as the paper adds them.
        return functools.reduce(operator.add, (self._values[m] for m in metrics))

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            values = object.__getattribute__(self, "_values")
            if name in values:
                return values[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getitem__(self, name: str) -> float:
        return self._values[name]

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Complexity):
            return NotImplemented
        return self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(self._values.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Complexity({inner}, raw={self.raw!r})"

    def __reduce__(self):
        return (_complexity_from, (tuple(self._values.items()),))

    def as_dict(self) -> dict:
        """``{"com": …, "ex": …, "nest": …, "corr": …, "pol": …, "raw": …}`` (and any other metric scored)."""
        return {**self._values, "raw": self.raw}

    def n_complex(self) -> int:
        """In how many of the paper's five metrics the statement is complex (score > 0)."""
        return sum(1 for m in PAPER_METRICS if self._values[m] > 0)


def _complexity_from(items: tuple) -> Complexity:
    return Complexity(**dict(items))


def _graph(x: Union[Statement, CausalGraph, Sequence[Relation]]) -> CausalGraph:
    return as_graph(x, "no_quantifier", purpose="complexity")


def belongs_complexity(edges: Sequence[BelongsEdge]) -> int:
    """#edges + #weakly connected components of event → overarching-event edges (eq. 1/2).

    0 when there is no edge.  Edges are the deduplicated (event, overarching)
    pairs of :attr:`CausalGraph.common` or :attr:`CausalGraph.elaboration`.

    Examples
    --------
    >>> from causalgraph.graph import BelongsEdge
    >>> belongs_complexity([BelongsEdge("a", "x", "cause", ()), BelongsEdge("b", "x", "cause", ()),
    ...                     BelongsEdge("c", "y", "effect", ())])
    5
    """
    if not edges:
        return 0
    parent: dict = {}

    def find(x):
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    pairs = {}
    for b in edges:
        pairs.setdefault((b.event, b.overarching), None)
    for ev, over in pairs:
        a, c = find(ev), find(over)
        if a != c:
            parent[a] = c
    components = len({find(n) for n in list(parent)})
    return len(pairs) + components


def nesting_complexity(nesting: Mapping[Optional[str], Sequence[Relation]]) -> float:
    """Σ over nesting events of T + T·ln T, T = distinct nested relations (eq. 3).

    The sum is correctly rounded (``math.fsum``), so the order of the nesting
    events does not change the result.

    Examples
    --------
    >>> import math
    >>> nesting_complexity({"CO2-LULUCF": ("r1", "r2", "r3")}) == 3 + 3 * math.log(3)
    True
    """
    # math.fsum rounds the exact sum once, so the result does not depend on the order in which the
    # statement lists its nesting events (a running float sum did: groups of 2, 2 and 9 relations
    # gave 35.547609918265756 or 35.54760991826576).
    return math.fsum(t + t * math.log(t) for t in map(len, nesting.values()) if t)


# The ClimateCause columns behind each edge label (their headers start so).
_LABEL_COLUMNS = {"correlation": "Correlation", "polarity": "Causation: Positive/Negative"}


def _edge_signs(graph: CausalGraph, label: str, conflicts: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(cause, effect, signs) for every causal edge that carries the label."""
    out = []
    for e in graph.edges:
        labels = e.correlations if label == "correlation" else e.polarities
        if not labels:
            continue  # the corpus does not annotate this label (e.g. PubMedCausal)
        signs = tuple(lab.value for lab in labels)
        if len(signs) > 1:
            if conflicts == "first":
                signs = signs[:1]
            elif conflicts == "error":
                # Say where to look: file, rows and column as the annotator sees them.
                files = list(dict.fromkeys(r.source_file for r in e.relations if r.source_file))
                rows = ", ".join(str(r.source_row) for r in e.relations if r.source_row is not None)
                where = "".join([f"{files[0]}: " if files else "", f"rows {rows}, " if rows else "",
                                 f"column {_LABEL_COLUMNS[label]!r}: "])
                stmt = f"statement {graph.statement_id}: " if graph.statement_id else ""
                raise SchemaError(
                    f"{where}{stmt}the pair {e.cause!r} → {e.effect!r} is annotated with both "
                    f"{label} signs (found {', '.join(signs)}); expected one sign, positive or negative "
                    "(use conflicts='both' or 'first' to score it)"
                )
        out.append((e.cause, e.effect, signs))
    return out


def signed_complexity(
    graph: Union[Statement, CausalGraph, Sequence[Relation]],
    label: Literal["correlation", "polarity"] = "correlation",
    *,
    conflicts: str = "both",
    cycle_limit: int = DEFAULT_CYCLE_LIMIT,
) -> SignedComplexity:
    """The terms of C^corr (``label="correlation"``) or C^pol (``label="polarity"``).

    Parameters
    ----------
    graph
        A statement, its compiled graph, or a sequence of relations.
    label
        Which edge label to read.
    conflicts
        How to read a pair annotated with both signs: ``"both"`` (default:
        the pair is a negative edge and shows both signs to its endpoints),
        ``"first"`` (the sign of its first relation in data order) or
        ``"error"`` (raise :class:`SchemaError`).
    cycle_limit
        Passed to :func:`~causalgraph.metrics.paths.count_maximal_paths`.

    Examples
    --------
    >>> from causalgraph.model import Relation, Correlation as C
    >>> rels = [Relation("a", "b", correlation=C.NEGATIVE), Relation("b", "c", correlation=C.NEGATIVE),
    ...         Relation("d", "c", correlation=C.POSITIVE)]
    >>> s = signed_complexity(rels)
    >>> s, s.total
    (SignedComplexity(negative_edges=2, negative_paths=1, mixed_in=1, mixed_out=0), 4)
    """
    if label not in ("correlation", "polarity"):
        raise ConfigError(f"unknown edge label {label!r}; expected 'correlation' or 'polarity'")
    if conflicts not in CONFLICT_RULES:
        raise ConfigError(f"unknown conflict rule {conflicts!r}; expected one of {', '.join(CONFLICT_RULES)}")
    g = _graph(graph)
    edges = _edge_signs(g, label, conflicts)
    negative = [(c, e) for c, e, signs in edges if "negative" in signs]
    incoming: dict = {}
    outgoing: dict = {}
    for c, e, signs in edges:
        incoming.setdefault(e, set()).update(signs)
        outgoing.setdefault(c, set()).update(signs)
    mixed_in = sum(1 for n in g.nodes if len(incoming.get(n, ())) > 1)
    mixed_out = sum(1 for n in g.nodes if len(outgoing.get(n, ())) > 1)
    paths = count_maximal_paths(negative, g.nodes, min_nodes=3, cycle_limit=cycle_limit) if negative else 0
    return SignedComplexity(len(negative), paths, mixed_in, mixed_out)


# -- the paper's five metrics, registered in its order ---------------------------------------
# A new metric: a function of (graph, options) and one _builtin_metric line below (register_metric outside
# this module, or an entry point of causalgraph.metrics).

def _builtin_metric(name: str, function: Callable[[CausalGraph, MetricOptions], float], description: str, *,
                  columns: Sequence[str]) -> None:
    # Registered straight into the registry: register_metric would read the plugins' entry points,
    # and those stay unread until a metric is first used.
    _REGISTRY.register(name, ComplexityMetric(name, function, description, f"C^{name}", tuple(columns)),
                       builtin=True)


_builtin_metric("com", lambda g, o: belongs_complexity(g.common),
              "common cause/effect structures (eq. 1): edges + components of the Combined = Yes belongs-to graph",
              columns=("combined", "cause_belongs_to", "effect_belongs_to"))
_builtin_metric("ex", lambda g, o: belongs_complexity(g.elaboration),
              "elaboration of examples (eq. 2): the same for Combined = No, not nested",
              columns=("combined", "nested", "cause_belongs_to", "effect_belongs_to"))
_builtin_metric("nest", lambda g, o: nesting_complexity(g.nesting),
              "nested causality (eq. 3): T + T ln T per nesting event of T nested relations",
              columns=("nested", "effect_belongs_to"))
_builtin_metric("corr", lambda g, o: signed_complexity(g, "correlation", conflicts=o.conflicts,
                                                     cycle_limit=o.cycle_limit).total,
              "correlation (eq. 4): negative edges + negative paths + mixed-in + mixed-out nodes",
              columns=("correlation",))
_builtin_metric("pol", lambda g, o: signed_complexity(g, "polarity", conflicts=o.conflicts,
                                                    cycle_limit=o.cycle_limit).total,
              "polarity (eq. 5): the same terms on the relation-type labels", columns=("relation_type",))



def __getattr__(name: str):
    # METRICS and COMPLEXITY_COLUMNS are read from the registry when asked, so that a metric
    # registered later (by code or a plugin) is in them.
    if name == "METRICS":
        return metric_names()
    if name == "COMPLEXITY_COLUMNS":
        return complexity_columns()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _number(value: Any) -> bool:
    # A metric is a count or a real number: True, "7" or None are a plugin's bug, not a score.
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _score(metric: ComplexityMetric, graph: CausalGraph, options: MetricOptions, required: bool) -> Any:
    """``metric`` of ``graph``, or :data:`_LEFT_OUT` for another's metric that failed and is not ``required``.

    The paper's five are causalgraph's: their errors (a cycle limit …) propagate.  Any other metric
    that raises or gives something else than a number is refused naming it (its plugin and the value):
    an error where it was asked for by name (``required``), else a note, and its column left out.
    """
    if metric.name in PAPER_METRICS:
        return metric.function(graph, options)
    try:
        value = metric.function(graph, options)
    except (ConfigError, CycleLimitExceeded, SchemaError) as exc:
        error, cause = _REGISTRY.fail(metric.name, f"{_REGISTRY.describe(metric.name)}: {exc}"), exc
    except (Exception, SystemExit) as exc:  # a plugin's bug (or its sys.exit()) breaks only the plugin
        if _REGISTRY.origin(metric.name) is None and isinstance(exc, SystemExit):
            raise
        error, cause = _REGISTRY.broke(metric.name, "function", exc), exc
    else:
        if _number(value):
            return value
        error, cause = _REGISTRY.refuse(metric.name, "function", value, "a number"), None
    if required or _REGISTRY.origin(metric.name) is None:
        raise error from cause
    _REGISTRY.usable()  # says it once: the plugin is now failed, and left out with a note
    return _LEFT_OUT


_LEFT_OUT = object()


def complexity(
    statement_or_graph: Union[Statement, CausalGraph, Sequence[Relation]],
    *,
    conflicts: str = "both",
    cycle_limit: int = DEFAULT_CYCLE_LIMIT,
    metrics: Union[None, str, Sequence[str]] = None,
) -> Complexity:
    """The causal complexity metrics of one statement (paper eqs. 1–5, and any other registered).

    Parameters
    ----------
    statement_or_graph
        A :class:`~causalgraph.model.Statement`, a :class:`CausalGraph`
        compiled on no-quantifier events, or a sequence of relations.
    conflicts
        Rule for pairs annotated with both signs (see :func:`signed_complexity`).
    cycle_limit
        Most search steps (edges looked at) of the walk that counts negative
        paths where negative edges form a cycle; past it
        :class:`~causalgraph.errors.CycleLimitExceeded` is raised.
    metrics
        Metrics that must be scored (a composite, :func:`composite_metrics`):
        one of them that fails raises.  Any other metric beside the paper's
        five that fails (a plugin's) is left out with a note.

    Returns
    -------
    Complexity
        Every usable metric (``com, ex, nest, corr, pol`` and those added)
        and the plain sum ``raw`` of the paper's five.

    Examples
    --------
    >>> from causalgraph.model import Relation, Correlation as C, Polarity as P
    >>> rels = (Relation("fossil fuel combustion", "CO2 emissions", effect_belongs_to="CO2-FFI", nested=True),
    ...         Relation("industrial processes", "CO2 emissions", effect_belongs_to="CO2-FFI", nested=True))
    >>> c = complexity(rels)
    >>> round(c.nest, 4), c.raw == c.nest
    (3.3863, True)
    """
    required = set(composite_metrics(metrics))
    g = _graph(statement_or_graph)
    options = MetricOptions(conflicts=conflicts, cycle_limit=cycle_limit)
    scored = {m.name: m for m in complexity_metrics()}
    for name in required - set(scored):
        scored[name] = _REGISTRY.get(name)
    values = {}
    for m in scored.values():
        value = _score(m, g, options, m.name in required)
        if value is not _LEFT_OUT:
            values[m.name] = value
    return Complexity(**values)


def count_tokens(text: str) -> int:
    """Number of alphabetic word tokens: letter runs, joined by internal ``-`` or ``'``.

    Numbers and tokens with digits (``2018``, ``CO2``) are not words;
    ``land-use`` is one word.

    Examples
    --------
    >>> count_tokens("CO2 emissions rose 5% in 2018, driven by land-use change.")
    7
    """
    return len(_WORD.findall(text or ""))


def normalize_weights(weights: Union[None, Sequence[float], Mapping[str, float], str],
                      metrics: Union[None, str, Sequence[str]] = None) -> tuple[float, ...]:
    """Weights w_i of eq. 7, one per metric of the composite, in its order (the paper's five by default).

    Accepts ``None`` (all 1), a sequence of one number per metric (five for
    the paper's metrics), a mapping from metric name to weight (missing
    metrics weigh 1) or a string ``"1,1,1,1,1"``.  ``metrics`` names the
    composite (:func:`composite_metrics`; default :data:`PAPER_METRICS`).
    Every weight must be a finite number >= 0 (0 leaves a metric out); a
    negative weight raises :class:`~causalgraph.errors.ConfigError`.

    Examples
    --------
    >>> normalize_weights("1,0.5,1,1,2")
    (1.0, 0.5, 1.0, 1.0, 2.0)
    >>> normalize_weights({"corr": 0})
    (1.0, 1.0, 1.0, 0.0, 1.0)
    """
    names = composite_metrics(metrics)
    if weights is None:
        return (1.0,) * len(names)
    if isinstance(weights, str):
        parts = [p.strip() for p in weights.split(",")]
        vals = []
        for i, p in enumerate(parts):
            try:
                vals.append(float(p))
            except ValueError:
                raise ConfigError(
                    f"weight {i + 1} ({names[i] if i < len(names) else '?'}) is {p!r}; "
                    f"expected a number, e.g. --weights {','.join('1' * len(names))}"
                ) from None
        weights = vals
    if isinstance(weights, Mapping):
        unknown = [k for k in weights if k not in names]
        if unknown:
            raise ConfigError(f"unknown metric(s) {', '.join(map(repr, unknown))} in weights; "
                              f"expected keys among {', '.join(names)} (the metrics of C(s))")
        weights = [weights.get(m, 1.0) for m in names]
    vals = list(weights)
    if len(vals) != len(names):
        raise ConfigError(f"expected {len(names)} weights ({', '.join(names)}), got {len(vals)}: {vals}")
    out = []
    for m, v in zip(names, vals):
        try:
            f = float(v)
        except (TypeError, ValueError):
            raise ConfigError(f"weight for {m} is {v!r}; expected a number") from None
        if not math.isfinite(f):
            raise ConfigError(f"weight for {m} is {v!r}; expected a finite number")
        if f < 0:
            # C(s) is a weighted sum of min-max scaled metrics in [0, 1]: a negative weight would make
            # a statement *less* complex the more of that structure it holds.
            raise ConfigError(f"weight for {m} is {v!r}; expected a number >= 0 (0 leaves the metric out)")
        out.append(f)
    return tuple(out)


def normalized_term(value: float, lo: float, hi: float, weight: float = 1.0) -> float:
    """One term of eq. 7: ``weight · (value − lo) / (hi − lo)``, or 0 when the range is empty.

    With the default weight it is the min–max normalised value itself.
    Values outside ``[lo, hi]`` are not clipped.

    Examples
    --------
    >>> normalized_term(5, 0, 10), normalized_term(5, 0, 10, 3.0), normalized_term(7, 2, 2)
    (0.5, 1.5, 0.0)
    """
    # Written w·(v − lo)/(hi − lo), in this order, so a corpus's C(s) keeps the bits it has always had.
    return 0.0 if hi == lo else weight * (value - lo) / (hi - lo)


def c_s(values: Union[Complexity, Mapping[str, float]], ranges: Mapping[str, tuple[float, float]],
        weights: Union[None, Sequence[float], Mapping[str, float], str] = None,
        metrics: Union[None, str, Sequence[str]] = None) -> float:
    """C(s), eq. 7: Σ_i w_i · (C^i(s) − min C^i) / (max C^i − min C^i) — the one implementation.

    :func:`complexity_table` calls it with the ranges of the corpus scored
    (eq. 6); :func:`causalgraph.annotation.reference.normalized_complexity`
    with the ranges of a reference corpus.

    Parameters
    ----------
    values
        The statement's metrics: a :class:`Complexity` or a mapping metric → value.
    ranges
        Metric → ``(min, max)``, for every metric of the composite.
    weights
        w_i (see :func:`normalize_weights`; default all 1).
    metrics
        The metrics summed (:func:`composite_metrics`; default the paper's five).

    Examples
    --------
    >>> ranges = {"com": (0, 12), "ex": (0, 16), "nest": (0, 0), "corr": (0, 70), "pol": (0, 40)}
    >>> c_s(Complexity(com=6, ex=0, nest=0.0, corr=7, pol=0), ranges)
    0.6
    """
    names = composite_metrics(metrics)
    w = normalize_weights(weights, names)
    missing = [m for m in names if m not in ranges]
    if missing:
        raise ConfigError(f"no (min, max) range for metric(s) {', '.join(missing)}; C(s) needs one for each of "
                          f"{', '.join(names)}")
    total = 0.0
    for m, wi in zip(names, w):
        lo, hi = ranges[m]
        total += normalized_term(values[m], lo, hi, wi)
    return total


def complexity_table(
    corpus: Union[Corpus, Iterable[Statement]],
    weights: Union[None, Sequence[float], Mapping[str, float], str] = None,
    *,
    metrics: Union[None, str, Sequence[str]] = None,
    conflicts: str = "both",
    cycle_limit: int = DEFAULT_CYCLE_LIMIT,
):
    """Score every statement of a corpus: the five metrics (and any other registered), C(s), density and length.

    C(s) (``c_norm``, eqs. 6–7) = Σ_i w_i · (C^i(s) − min C^i) / (max C^i − min C^i),
    minimum and maximum taken over the statements given (:func:`c_s`); a
    metric whose range is zero contributes 0.  The sum runs over the paper's
    five metrics unless ``metrics`` names another composite: a metric that
    is merely registered (a plugin's) is an extra column, never a term.

    Parameters
    ----------
    corpus
        A :class:`~causalgraph.model.Corpus` or any iterable of statements.
    weights
        w_i of eq. 7 (default all 1), one per metric of the composite; see
        :func:`normalize_weights`.
    metrics
        The metrics ``c_raw`` and C(s) are made of (default
        :data:`PAPER_METRICS`; see :func:`composite_metrics`).
    conflicts, cycle_limit
        As in :func:`complexity`.

    Returns
    -------
    pandas.DataFrame
        One row per statement, in corpus order, with the columns of
        :func:`complexity_columns` (:data:`COMPLEXITY_COLUMNS` for the paper's
        metrics): ``statement_id, statement, c_com, c_ex, c_nest, c_corr,
        c_pol`` (one ``c_<name>`` per registered metric), ``c_raw`` (plain
        sum), ``c_norm`` (C(s)),
        ``density`` (c_raw / n_tokens; NaN for a text without words) and
        ``n_tokens`` (:func:`count_tokens`).

        For a corpus that :attr:`~causalgraph.model.Corpus.lacks` a label
        column (a relations or graph file, docs/data.md), every metric
        reading it is NaN, and so are ``c_raw``, ``c_norm`` and ``density``
        (C(s) is defined over all the metrics); ``table.attrs["notes"]``
        holds one line per such metric naming the column that would define
        it.

        ``table.attrs["composite"]`` is ``{"metrics": (…), "weights": (…)}``:
        what ``c_raw`` and C(s) are made of (:func:`composite_note` says it
        in one line, :func:`composite_columns` as two columns).

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> t = complexity_table(load_climatecause())   # doctest: +SKIP
    >>> round(t.c_norm.max(), 3), t.attrs["composite"]["metrics"]   # doctest: +SKIP
    (1.821, ('com', 'ex', 'nest', 'corr', 'pol'))
    """
    import pandas as pd

    composite = composite_metrics(metrics)
    w = normalize_weights(weights, composite)
    stmts = as_statements(corpus)
    scores = []
    for s in stmts:
        try:
            scores.append(complexity(s, conflicts=conflicts, cycle_limit=cycle_limit, metrics=metrics))
        except CycleLimitExceeded as exc:
            raise CycleLimitExceeded(f"statement {s.id}: {exc}") from exc
        except ConfigError as exc:
            raise ConfigError(f"statement {s.id}: {exc}") from exc
    # The columns: every metric scored on every statement (a plugin that failed on one is left out of all).
    names = [m for m in dict.fromkeys((*metric_names(), *composite)) if all(m in c for c in scores)]
    # eq. 6: each metric's range over the statements scored together (a zero range contributes 0).
    ranges = {m: (min(c[m] for c in scores), max(c[m] for c in scores)) for m in names} if scores else {}
    missing = missing_metrics(corpus)
    gone = [m for m in composite if m in missing]
    rows = []
    for s, c in zip(stmts, scores):
        n_tok = count_tokens(s.text)
        raw = c.raw if composite == PAPER_METRICS else c.total(composite)
        rows.append({
            "statement_id": s.id,
            "statement": s.text,
            **{f"c_{m}": c[m] for m in names},
            "c_raw": float(raw),
            C_S_COLUMN: c_s(c, ranges, w, composite),
            "density": raw / n_tok if n_tok else math.nan,
            "n_tokens": n_tok,
        })
        if missing:
            # Unlabelled is not "no negative edge": a metric the data cannot define is missing, not 0.
            rows[-1].update({f"c_{m}": math.nan for m in missing if m in names})
        if gone:
            rows[-1].update(c_raw=math.nan, density=math.nan, **{C_S_COLUMN: math.nan})
    table = pd.DataFrame(rows, columns=["statement_id", "statement", *(f"c_{m}" for m in names), "c_raw",
                                        C_S_COLUMN, "density", "n_tokens"])
    table.attrs["notes"] = [f"c_{m} is NaN: {why}" for m, why in missing.items() if m in names]
    if gone:
        table.attrs["notes"].append(f"c_raw, {C_S_COLUMN} and density are NaN: they sum "
                                    f"{', '.join(composite)}, and {', '.join('c_' + m for m in gone)} "
                                    f"{'is' if len(gone) == 1 else 'are'} missing")
    table.attrs["composite"] = {"metrics": composite, "weights": w}
    return table


def missing_metrics(corpus) -> dict[str, str]:
    """Metric → why it is missing, for a corpus that lacks label columns (empty for the released corpora).

    Examples
    --------
    >>> from causalgraph.model import Corpus
    >>> missing_metrics(Corpus("x", [], source="x.csv", lacks=("correlation",)))
    {'corr': "x.csv has no 'correlation' column, which C^corr reads"}
    """
    lacks = set(getattr(corpus, "lacks", ()) or ())
    if not lacks:
        return {}
    source = getattr(corpus, "source", None) or getattr(corpus, "name", "the corpus")
    out = {}
    for m in complexity_metrics():
        gone = [c for c in m.columns if c in lacks]
        if gone:
            what = ("label" if "text" in lacks else "column")
            cols = ", ".join(repr(c) for c in gone)
            out[m.name] = f"{source} has no {cols} {what}{'s' if len(gone) > 1 else ''}, which {m.symbol} reads"
    return out
