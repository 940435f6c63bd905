"""Score any text: annotate it with a language model, then C^com … C^pol, C(s) and classic readability.

An application of the annotator (:mod:`causalgraph.apps.annotator`) and the
text score of an annotated statement
(:func:`causalgraph.annotation.text_scores.score_statement`), with the
statement's graph page optionally written beside it.  C(s) is normalised
against a reference corpus (default ClimateCause, see
:mod:`causalgraph.annotation.reference`), so a draft's score reads on the
scale of the IPCC statements.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from ..annotation.reference import ReferenceRanges
from ..annotation.text_scores import TextScore, score_statement
from ..errors import ConfigError
from ..metrics.complexity import normalize_weights
from .._core.outputs import output_file
from ..html.graph_page import write_graph_html
from .annotator import annotate

__all__ = ["score_text"]


def score_text(text: str, model: str, *, reference: Union[None, str, ReferenceRanges] = None, weights=None,
               view: Optional[str] = None, **annotate_options: Any) -> TextScore:
    """Annotate ``text`` with ``model`` and score it.

    Parameters
    ----------
    text
        Any English text.
    model
        ``provider/model`` (see :func:`causalgraph.annotate`).
    reference
        Ranges for C(s): ``"climatecause"`` (default, min–max over the 75
        statements), ``"paper"`` (the ranges printed in §5.2.1), a corpus
        name or path, or :class:`ReferenceRanges`.
    weights
        w_i of eq. 7 (default all 1).
    view
        Also write the statement's graph page (the viewer) to this ``.html`` file.
    **annotate_options
        Passed to :func:`causalgraph.annotate` (``variant``, ``model_options``, ``strict`` …).

    Examples
    --------
    >>> s = score_text("Warming reduces sea ice.", "openai/gpt-5.1-2025-11-13")   # doctest: +SKIP
    >>> s.c_s, s.readability["fre"]                                               # doctest: +SKIP
    """
    if view is not None and not str(view).lower().endswith((".html", ".htm")):
        raise ConfigError(f"--view {view}: the graph page is HTML; expected a file name ending in .html")
    if view is not None:
        # Before the model is asked: a page that cannot be written must not cost a (paid) request.
        output_file(view, "--view page")
    normalize_weights(weights)  # likewise for weights that cannot be used
    statement = annotate(text, model, **annotate_options)
    result = score_statement(statement, reference=reference, weights=weights)
    if view is not None:
        write_graph_html(statement, view, title=f"{statement.id}: C(s) = {result.c_s:.3f}")
    return result
