"""Where objects find how to show themselves in Jupyter, without importing the pages that draw them.

``CausalGraph``, ``Run`` and ``ExtractionReport`` sit in low layers (the
graph, the run store, the extraction evaluation) while the pages that draw
them sit in the viewer, at the top.  Their ``_repr_html_`` calls
:func:`html_for` with a kind (``"graph"``, ``"run"``,
``"extraction_report"``); this table names each renderer as a lazy
``"module:attr"`` target, resolved on the first call.  A lazy target rather
than a table the viewer fills when imported: the object shows its page in a
notebook even when nothing has imported the viewer yet, and no module below
the viewer imports it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .registry import load_target

__all__ = ["HTML_DISPLAY", "html_for"]

#: Kind → ``"module:attr"`` of a function returning the object's HTML for Jupyter (or ``None`` to fall back
#: to its repr); a callable may be set instead (a study's own renderer, or a test's).
HTML_DISPLAY: dict[str, str | Callable[[Any], Optional[str]]] = {
    "graph": "causalgraph.viewer.notebook:graph_repr_html",
    "run": "causalgraph.viewer.notebook:run_repr_html",
    "extraction_report": "causalgraph.viewer.notebook:extraction_repr_html",
}


def html_for(kind: str, obj: Any) -> Optional[str]:
    """The Jupyter HTML of ``obj`` by the renderer of ``kind`` (``None`` when there is none).

    Examples
    --------
    >>> html_for("no-such-kind", object()) is None
    True
    """
    render = HTML_DISPLAY.get(kind)
    if render is None:
        return None
    if isinstance(render, str):
        render = HTML_DISPLAY[kind] = load_target(render)
    return render(obj)
