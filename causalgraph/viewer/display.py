"""Where objects find how to show themselves in Jupyter, without importing the pages that draw them.

``CausalGraph``, ``Run`` and ``ExtractionReport`` look up a renderer here
by kind (``"graph"``, ``"run"``, ``"extraction_report"``) in their
``_repr_html_``; :mod:`causalgraph.viewer.notebook` fills the table when the
viewer package is imported (which importing any of those classes does).
The classes depend on this table only, so the graph, the run store and the
extraction evaluation never import the pages built from them.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

__all__ = ["HTML_DISPLAY"]

#: Kind → function returning the object's HTML for Jupyter (or ``None`` to fall back to its repr).
HTML_DISPLAY: dict[str, Callable[[Any], Optional[str]]] = {}
