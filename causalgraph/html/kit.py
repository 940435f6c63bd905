"""The HTML kit: what every causalgraph page is built from.

The graph pages (:mod:`causalgraph.html.graph_page`), the corpus report
(:mod:`causalgraph.viewer.report`), the run viewer (:mod:`causalgraph.viewer`) and
the notebook displays all

* load vis-network from the copy pyvis ships (:func:`vis_assets`, inlined
  or written once beside the pages, :func:`write_vis_assets`, :func:`vis_tags`);
* carry their data as JSON inside ``<script type="application/json">``
  (:func:`script_json`: no ``<``, ``>`` or ``&`` that could end the block);
* forbid the network and any script but their own
  (:func:`content_security_policy`, by sha256 of each inline script);
* sort their tables with one script (:data:`SORTABLE_TABLES_JS`);
* show inside a notebook as a sandboxed ``<iframe srcdoc>`` (:func:`iframe_html`).

It sits near the bottom of the layers (it needs only the errors and the
output checks), so pages at any layer build on it without importing each
other.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import importlib
import json
import os
import re
from pathlib import Path
from typing import Optional, Sequence

from ..errors import ConfigError
from .._core.outputs import output_dir

__all__ = ["require", "script_json", "ASSET_FILES", "vis_assets", "write_vis_assets", "vis_tags",
           "SORTABLE_TABLES_JS", "content_security_policy", "iframe_html"]

#: Where pyvis keeps vis-network, inside its package.
_LIB = ("templates", "lib", "vis-9.1.2")


def require(module: str):
    """Import an optional dependency of the viewer/report or raise a :class:`ConfigError` saying how to install it.

    Examples
    --------
    >>> require("json").dumps([1])
    '[1]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"{module} is needed for graph pages and the report but is not installed "
                          f"({exc}); install it with: pip install 'causalgraph[viz]'") from None


def script_json(obj) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` can end the block or start a comment.

    Keys are sorted, so a page's bytes do not depend on dict order.

    Examples
    --------
    >>> script_json({"b": "</script>", "a": 1})
    '{"a": 1, "b": "\\\\u003c/script\\\\u003e"}'
    """
    s = json.dumps(obj, ensure_ascii=False, sort_keys=True)
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


#: The vis-network files a page can share instead of inlining them (``graph_html(assets=…)``).
ASSET_FILES = {"js": "vis-network.min.js", "css": "vis-network.css"}


@functools.lru_cache(maxsize=1)
def _vis_assets() -> tuple[str, str]:
    pyvis = require("pyvis")
    lib = Path(pyvis.__file__).resolve().parent.joinpath(*_LIB)
    js = (lib / "vis-network.min.js").read_text(encoding="utf-8")
    css = (lib / "vis-network.css").read_text(encoding="utf-8")
    # Drop the source-map pointer: developer tools would try to fetch the .map file.
    js = re.sub(r"//# sourceMappingURL=\S+", "", js)
    for name, body in (("vis-network.min.js", js), ("vis-network.css", css)):
        if re.search(r"</(script|style)", body, re.IGNORECASE):
            raise ConfigError(f"{lib / name}: contains a closing tag and cannot be inlined")
    return js, css


def vis_assets() -> tuple[str, str]:
    """The vis-network JavaScript and CSS that pyvis ships (source-map pointer removed), read once.

    Examples
    --------
    >>> js, css = vis_assets()
    >>> "vis" in js and "sourceMappingURL" not in js
    True
    """
    return _vis_assets()


def write_vis_assets(folder: str | os.PathLike) -> dict[str, Path]:
    """Write the vis-network files into ``folder`` once, for pages that share them (the corpus report).

    Returns ``{"js": path, "css": path}``; the names are :data:`ASSET_FILES`.

    Examples
    --------
    >>> import tempfile
    >>> paths = write_vis_assets(tempfile.mkdtemp())
    >>> paths["js"].name, paths["css"].name
    ('vis-network.min.js', 'vis-network.css')
    """
    out = output_dir(folder, "asset folder")
    js, css = _vis_assets()
    paths = {}
    for kind, body in (("js", js), ("css", css)):
        paths[kind] = out / ASSET_FILES[kind]
        paths[kind].write_text(body, encoding="utf-8")
    return paths


def vis_tags(assets: Optional[str] = None) -> tuple[str, list[str]]:
    """The ``<head>`` tags that load vis-network, and the inline scripts among them.

    ``assets=None`` inlines the library (a page that stands alone);
    otherwise ``assets`` is the relative URL of a folder written by
    :func:`write_vis_assets` (``"../assets"``), loaded with ``<link>`` and
    ``<script src>``: Chromium lets a ``file://`` page load them under
    ``script-src 'self'`` (a Subresource Integrity hash would not work there:
    it needs a CORS fetch, which ``file://`` never is).
    """
    if assets is None:
        js, css = _vis_assets()
        return f"<style>{css}</style>\n<script>{js}</script>\n", [js]
    base = html.escape(assets.rstrip("/"), quote=True)
    return (f'<link rel="stylesheet" href="{base}/{ASSET_FILES["css"]}">\n'
            f'<script src="{base}/{ASSET_FILES["js"]}"></script>\n', [])


#: Click a header of a ``table.sortable`` to sort its rows (cells with ``data-sort`` by number), again
#: to reverse; ties keep their order.  Sets ``<body data-ready>`` when bound.  Shared by the corpus
#: report and the notebook pages, so that there is one table sorter.
SORTABLE_TABLES_JS = """
(function () {
  "use strict";
  function key(td) {
    var v = td.getAttribute("data-sort");
    if (v === null) { return {n: false, v: td.textContent.toLowerCase()}; }
    var f = parseFloat(v);
    return isNaN(f) ? {n: false, v: v.toLowerCase()} : {n: true, v: f};
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var ths = table.querySelectorAll("thead th");
    Array.prototype.forEach.call(ths, function (th, col) {
      th.addEventListener("click", function () {
        var desc = th.classList.contains("asc");  // first click ascending, the next one descending
        Array.prototype.forEach.call(ths, function (h) { h.classList.remove("asc", "desc"); });
        th.classList.add(desc ? "desc" : "asc");
        var body = table.tBodies[0];
        var rows = Array.prototype.map.call(body.rows, function (r, i) { return {r: r, i: i, k: key(r.cells[col])}; });
        rows.sort(function (a, b) {
          var c = 0;
          if (a.k.n && b.k.n) { c = a.k.v - b.k.v; }
          else if (a.k.n !== b.k.n) { c = a.k.n ? -1 : 1; }
          else { c = a.k.v < b.k.v ? -1 : (a.k.v > b.k.v ? 1 : 0); }
          if (desc) { c = -c; }
          return c !== 0 ? c : a.i - b.i;  // stable: ties keep corpus order
        });
        rows.forEach(function (x) { body.appendChild(x.r); });
      });
    });
  });
  document.body.setAttribute("data-ready", "1");
})();
"""


def content_security_policy(inline_scripts: Sequence[str], *, local_files: bool = False) -> str:
    """The Content-Security-Policy of a causalgraph page: nothing from the network, only its own scripts.

    Each inline script is allowed by its sha256 (a script the data managed
    to inject would have another hash and not run); ``local_files`` adds
    ``'self'`` for asset files beside the page.  Styles may be inline (the
    graph library sets them); images only as ``data:`` URLs.

    Examples
    --------
    >>> content_security_policy(["1"])
    "default-src 'none'; script-src 'sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s='; style-src 'unsafe-inline'; img-src data:"
    """
    hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(s.encode('utf-8')).digest()).decode('ascii')}'"
              for s in dict.fromkeys(inline_scripts)]
    own = ["'self'"] if local_files else []
    styles = own + ["'unsafe-inline'"]
    return (f"default-src 'none'; script-src {' '.join(own + hashes)}; "
            f"style-src {' '.join(styles)}; img-src data:")


def iframe_html(page: str, *, height: str = "680px", title: str = "causalgraph") -> str:
    """A page inside a sandboxed ``<iframe srcdoc>``: how notebooks show a causalgraph page.

    The page keeps its own Content-Security-Policy; ``sandbox="allow-scripts"``
    runs its scripts in an opaque origin, so they cannot reach the notebook
    around them, and nothing is fetched.

    Examples
    --------
    >>> iframe_html("<p>a & b</p>", height="100px")[:60]
    '<iframe sandbox="allow-scripts" style="width:100%;height:100'
    """
    return (f'<iframe sandbox="allow-scripts" style="width:100%;height:{html.escape(height, quote=True)};'
            f'border:1px solid #ddd" title="{html.escape(title, quote=True)}" '
            f'srcdoc="{html.escape(page, quote=True)}"></iframe>')
