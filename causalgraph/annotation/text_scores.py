"""Score an annotated text: C^com … C^pol, C(s) and classic readability.

Annotating raw text first is :func:`causalgraph.apps.text_score.score_text`.

C(s) is normalised against a reference corpus (default ClimateCause, see
:mod:`causalgraph.annotation.reference`), so a draft's score reads on the
scale of the IPCC statements.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from ..errors import ConfigError
from ..model import Statement
from ..metrics.readability import readability
from .reference import ReferenceRanges, normalized_complexity

__all__ = ["TextScore", "score_statement"]


@dataclass(frozen=True)
class TextScore:
    """The causal complexity and readability of one text.

    Attributes
    ----------
    statement
        The annotated statement the complexity was computed on.
    complexity
        ``com, ex, nest, corr, pol, raw, norm, c_s, beyond_range, reference``
        (see :func:`~causalgraph.annotation.reference.normalized_complexity`).
    readability
        ``fre, fkg, ari, cli, dcrs`` (:func:`causalgraph.readability`).
    """

    statement: Statement
    complexity: dict[str, Any]
    readability: dict[str, float]
    annotation: dict[str, Any] = field(default_factory=dict)

    @property
    def c_s(self) -> float:
        """C(s), normalised against the reference ranges (not clipped)."""
        return float(self.complexity["c_s"])

    def rows(self) -> list[dict[str, Any]]:
        """One row per figure: the five metrics, C(s), the relation count and the readability scores."""
        ref = self.complexity["reference"]["ranges"]
        # The metrics the score holds, in their order (the paper's five unless more are registered).
        # A metric the reference has no range for (a plugin's, against the paper's ranges) has no
        # normalised value (NaN) and no range (None), never a crash.
        rows = [{"metric": f"C^{m}", "value": float(self.complexity[m]), "normalised": n,
                 "reference_min": ref[m][0] if m in ref else None, "reference_max": ref[m][1] if m in ref else None}
                for m, n in self.complexity["norm"].items()]
        rows.append({"metric": "C(s)", "value": self.c_s, "normalised": None, "reference_min": None,
                     "reference_max": None})
        rows.append({"metric": "relations", "value": len(self.statement.relations), "normalised": None,
                     "reference_min": None, "reference_max": None})
        for k, v in self.readability.items():
            rows.append({"metric": k.upper(), "value": v, "normalised": None, "reference_min": None,
                         "reference_max": None})
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {"statement_id": self.statement.id, "text": self.statement.text, "complexity": self.complexity,
                "readability": self.readability, "annotation": self.annotation,
                "relations": [r.to_dict() for r in self.statement.relations]}


def score_statement(statement: Statement, *, reference: Union[None, str, ReferenceRanges] = None,
                    weights=None) -> TextScore:
    """Complexity (normalised against ``reference``) and readability of an annotated statement.

    Examples
    --------
    >>> from causalgraph.model import Statement, Relation, Correlation
    >>> st = Statement("d", "Warming reduces sea ice.", True,
    ...                (Relation("warming", "sea ice", correlation=Correlation.NEGATIVE),))
    >>> s = score_statement(st, reference="paper")
    >>> s.complexity["corr"], round(s.c_s, 4)
    (1, 0.0143)
    """
    if not isinstance(statement, Statement):
        raise ConfigError(f"score_statement expects a Statement, got {type(statement).__name__}")
    cx = normalized_complexity(statement, reference, weights)
    read = readability(statement.text).as_dict()
    info = {k: v for k, v in (statement.meta.get("annotation") or {}).items() if k != "response"}
    return TextScore(statement=statement, complexity=cx, readability=read, annotation=info)
