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
  a corpus, computed by :func:`complexity_table`.

docs/metrics.md defines every term and the choices made where the paper is
silent (conflicting labels, cycles, tokens).
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from typing import Iterable, Literal, Mapping, Optional, Sequence, Union

from ..errors import ConfigError, CycleLimitExceeded, SchemaError
from ..graph import BelongsEdge, CausalGraph, as_graph
from ..model import Corpus, Relation, Statement, as_statements
from .paths import DEFAULT_CYCLE_LIMIT, count_maximal_paths

__all__ = [
    "METRICS",
    "CONFLICT_RULES",
    "Complexity",
    "SignedComplexity",
    "complexity",
    "complexity_table",
    "belongs_complexity",
    "nesting_complexity",
    "signed_complexity",
    "count_tokens",
    "normalise_weights",
    "COMPLEXITY_COLUMNS",
]

#: The five metrics, in the paper's order.
METRICS = ("com", "ex", "nest", "corr", "pol")

#: How a (cause, effect) pair annotated with both signs is read; see docs/metrics.md.
CONFLICT_RULES = ("both", "first", "error")

#: Columns of :func:`complexity_table` (and of ``causalgraph complexity --format csv``).
COMPLEXITY_COLUMNS = (
    "statement_id", "statement", "c_com", "c_ex", "c_nest", "c_corr", "c_pol",
    "c_raw", "c_norm", "density", "n_tokens",
)

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


@dataclass(frozen=True)
class Complexity:
    """The five causal complexity metrics of one statement.

    ``raw`` is their plain (unnormalised) sum, computed on construction.
    """

    com: int
    ex: int
    nest: float
    corr: int
    pol: int
    raw: float = field(init=False)

    def __post_init__(self) -> None:
        # derived, never passed in, so it cannot disagree with the five metrics
        object.__setattr__(self, "raw", self.com + self.ex + self.nest + self.corr + self.pol)

    def as_dict(self) -> dict:
        """``{"com": …, "ex": …, "nest": …, "corr": …, "pol": …, "raw": …}``."""
        return asdict(self)

    def n_complex(self) -> int:
        """In how many of the five metrics the statement is complex (score > 0)."""
        return sum(1 for m in METRICS if getattr(self, m) > 0)


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


def complexity(
    statement_or_graph: Union[Statement, CausalGraph, Sequence[Relation]],
    *,
    conflicts: str = "both",
    cycle_limit: int = DEFAULT_CYCLE_LIMIT,
) -> Complexity:
    """The five causal complexity metrics of one statement (paper eqs. 1–5).

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

    Returns
    -------
    Complexity
        ``com, ex, nest, corr, pol`` and their plain sum ``raw``.

    Examples
    --------
    >>> from causalgraph.model import Relation, Correlation as C, Polarity as P
    >>> rels = (Relation("fossil fuel combustion", "CO2 emissions", effect_belongs_to="CO2-FFI", nested=True),
    ...         Relation("industrial processes", "CO2 emissions", effect_belongs_to="CO2-FFI", nested=True))
    >>> c = complexity(rels)
    >>> round(c.nest, 4), c.raw == c.nest
    (3.3863, True)
    """
    g = _graph(statement_or_graph)
    return Complexity(
        com=belongs_complexity(g.common),
        ex=belongs_complexity(g.elaboration),
        nest=nesting_complexity(g.nesting),
        corr=signed_complexity(g, "correlation", conflicts=conflicts, cycle_limit=cycle_limit).total,
        pol=signed_complexity(g, "polarity", conflicts=conflicts, cycle_limit=cycle_limit).total,
    )


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


def normalise_weights(weights: Union[None, Sequence[float], Mapping[str, float], str]) -> tuple[float, ...]:
    """Weights w_i of eq. 7 as a 5-tuple in the order of :data:`METRICS`.

    Accepts ``None`` (all 1), a sequence of five numbers, a mapping from
    metric name to weight (missing metrics weigh 1) or a string ``"1,1,1,1,1"``.
    Every weight must be a finite number >= 0 (0 leaves a metric out); a
    negative weight raises :class:`~causalgraph.errors.ConfigError`.

    Examples
    --------
    >>> normalise_weights("1,0.5,1,1,2")
    (1.0, 0.5, 1.0, 1.0, 2.0)
    >>> normalise_weights({"corr": 0})
    (1.0, 1.0, 1.0, 0.0, 1.0)
    """
    if weights is None:
        return (1.0,) * len(METRICS)
    if isinstance(weights, str):
        parts = [p.strip() for p in weights.split(",")]
        vals = []
        for i, p in enumerate(parts):
            try:
                vals.append(float(p))
            except ValueError:
                raise ConfigError(
                    f"weight {i + 1} ({METRICS[i] if i < len(METRICS) else '?'}) is {p!r}; "
                    "expected a number, e.g. --weights 1,1,1,1,1"
                ) from None
        weights = vals
    if isinstance(weights, Mapping):
        unknown = [k for k in weights if k not in METRICS]
        if unknown:
            raise ConfigError(f"unknown metric(s) {', '.join(map(repr, unknown))} in weights; "
                              f"expected keys among {', '.join(METRICS)}")
        weights = [weights.get(m, 1.0) for m in METRICS]
    vals = list(weights)
    if len(vals) != len(METRICS):
        raise ConfigError(f"expected {len(METRICS)} weights ({', '.join(METRICS)}), got {len(vals)}: {vals}")
    out = []
    for m, v in zip(METRICS, vals):
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


def complexity_table(
    corpus: Union[Corpus, Iterable[Statement]],
    weights: Union[None, Sequence[float], Mapping[str, float], str] = None,
    *,
    conflicts: str = "both",
    cycle_limit: int = DEFAULT_CYCLE_LIMIT,
):
    """Score every statement of a corpus: the five metrics, C(s), density and length.

    C(s) (``c_norm``, eqs. 6–7) = Σ_i w_i · (C^i(s) − min C^i) / (max C^i − min C^i),
    minimum and maximum taken over the statements given; a metric whose
    range is zero contributes 0.

    Parameters
    ----------
    corpus
        A :class:`~causalgraph.model.Corpus` or any iterable of statements.
    weights
        w_i of eq. 7 (default all 1); see :func:`normalise_weights`.
    conflicts, cycle_limit
        As in :func:`complexity`.

    Returns
    -------
    pandas.DataFrame
        One row per statement, in corpus order, with the columns of
        :data:`COMPLEXITY_COLUMNS`: ``statement_id, statement, c_com, c_ex,
        c_nest, c_corr, c_pol, c_raw`` (plain sum), ``c_norm`` (C(s)),
        ``density`` (c_raw / n_tokens; NaN for a text without words) and
        ``n_tokens`` (:func:`count_tokens`).

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> t = complexity_table(load_climatecause())   # doctest: +SKIP
    >>> round(t.c_norm.max(), 3)                     # doctest: +SKIP
    1.821
    """
    import pandas as pd

    w = normalise_weights(weights)
    stmts = as_statements(corpus)
    scores = []
    for s in stmts:
        try:
            scores.append(complexity(s, conflicts=conflicts, cycle_limit=cycle_limit))
        except CycleLimitExceeded as exc:
            raise CycleLimitExceeded(f"statement {s.id}: {exc}") from exc
    cols = {m: [getattr(c, m) for c in scores] for m in METRICS}
    norm = [0.0] * len(stmts)
    for m, wi in zip(METRICS, w):
        vals = cols[m]
        if not vals:
            continue
        lo, hi = min(vals), max(vals)
        if hi == lo:
            continue  # no spread across the corpus: the metric contributes 0
        span = hi - lo
        for i, v in enumerate(vals):
            norm[i] += wi * (v - lo) / span
    rows = []
    for i, (s, c) in enumerate(zip(stmts, scores)):
        n_tok = count_tokens(s.text)
        raw = c.raw
        rows.append({
            "statement_id": s.id,
            "statement": s.text,
            "c_com": c.com,
            "c_ex": c.ex,
            "c_nest": c.nest,
            "c_corr": c.corr,
            "c_pol": c.pol,
            "c_raw": float(raw),
            "c_norm": norm[i],
            "density": raw / n_tok if n_tok else math.nan,
            "n_tokens": n_tok,
        })
    return pd.DataFrame(rows, columns=list(COMPLEXITY_COLUMNS))
