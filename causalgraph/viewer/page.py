"""The run page: one offline HTML file showing one or more runs (``causalgraph bench view``).

The page stands alone: the viewer's script and style, the vis-network
library (unless ``assets`` names a shared copy, as in the corpus report)
and the data are inside it, and its Content-Security-Policy lets nothing
else load: ``default-src 'none'``, scripts only by the sha256 of the page's
own, no connection of any kind.  Data travels as JSON in a
``<script type="application/json">`` block with ``<``, ``>`` and ``&``
escaped, and the script writes every value with ``textContent``, so a
response holding ``<script>`` or ``</textarea>`` is shown as the text it is.
"""

from __future__ import annotations

import functools
import html
import os
from importlib import resources
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError
from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from .._core.outputs import NO_BROWSER, open_page, output_file
from ..runlog.store import load_run
from .compare import compare_runs
from .ranking import RANK_AXIS, ranking_section
from ..stats.compare import AXES
from .runs import DIFFICULTY_FEATURE, build_run_view, check_difficulty_feature, unique_names
from ..html.kit import content_security_policy, script_json, vis_tags
from .payload import build_payload

__all__ = ["run_page_html", "write_run_page", "load_views", "default_page_path"]


@functools.lru_cache(maxsize=1)
def _assets() -> tuple[str, str]:
    folder = resources.files("causalgraph.viewer").joinpath("assets")
    js = folder.joinpath("viewer.js").read_text(encoding="utf-8")
    css = folder.joinpath("viewer.css").read_text(encoding="utf-8")
    return js, css


def load_views(runs: Sequence[Any], *, data: Any = None, names: Optional[Sequence[str]] = None,
               difficulty_feature: Optional[str] = None, align: Optional[str] = None, rank: Optional[str] = RANK_AXIS,
               scoring_metrics: Optional[Sequence[str]] = None):
    """Load runs (folders or :class:`~causalgraph.runlog.store.Run`) and build their views and comparison.

    ``difficulty_feature`` is the feature of each variant's difficulty plot
    (:func:`causalgraph.viewer.runs.run_difficulty`; default C(s), ``c_norm``); ``align`` the
    event alignment rule of the overlay graphs of pair runs
    (:func:`causalgraph.viewer.overlay.aligned_overlay`; default
    :data:`causalgraph.alignment.events.DEFAULT_RULE`).  With several runs, ``rank`` is the axis
    their arms are ranked along (:func:`causalgraph.viewer.ranking.ranking_section`, added to the
    comparison as ``ranking``; ``None``: no ranking).  ``scoring_metrics`` names registered scoring
    metrics to show beside each variant's scores (:mod:`causalgraph.scoring.scoring_metrics`; those a
    run's ``metrics.json`` holds are shown anyway).

    Returns
    -------
    (views, comparison)
        :class:`~causalgraph.viewer.runs.RunView` per run, and
        :func:`~causalgraph.viewer.compare.compare_runs` (``None`` for one run).
    """
    feature = check_difficulty_feature(difficulty_feature or DIFFICULTY_FEATURE)  # before any run is read
    if align is not None and align not in ALIGN_RULES:
        raise ConfigError(f"--align {align!r}: expected one of {', '.join(ALIGN_RULES)}")
    if rank is not None and rank not in AXES:
        raise ConfigError(f"--rank {rank!r}: expected one of {', '.join(AXES)} or none")
    if not runs:
        raise ConfigError("no run given; expected one or more run directories")
    loaded = [r if hasattr(r, "responses") and hasattr(r, "manifest") else load_run(r) for r in runs]
    names = list(names) if names is not None else unique_names([getattr(r, "path", None) for r in loaded])
    cache: dict = {}
    views = [build_run_view(r, n, data=data, cache=cache, difficulty_feature=feature, align=align or DEFAULT_RULE,
                            scoring_metrics=scoring_metrics)
             for r, n in zip(loaded, names)]
    comparison = compare_runs(views, loaded)
    if comparison is not None:
        comparison["ranking"] = ranking_section(loaded, rank)
    return views, comparison


_BODY = """<header><h1 id="title">{title}</h1><p class="muted" id="subtitle"></p>
<nav><a href="#summary-h">Summary</a><a href="#compare" id="nav-compare">Comparison</a><a href="#items">Items</a></nav></header>
<h2 id="summary-h">Summary</h2>
<section id="summary"></section>
<section id="compare"></section>
<section id="items"><h2>Items</h2>
<div id="filters">
<label>run <select id="f-run"></select></label>
<label>task <select id="f-task"></select></label>
<label>variant <select id="f-variant"></select></label>
<label>statement <select id="f-statement"></select></label>
<label>gold <select id="f-gold"></select></label>
<label>C(s) <select id="f-bucket"></select></label>
<span id="f-states"></span>
<label>search <input id="search" type="search" placeholder="item, statement text, answer, response…"></label>
</div>
<p id="count"></p>
<div id="table-wrap"><table id="items-table"><thead><tr></tr></thead><tbody></tbody></table></div>
<p class="muted">Click a row for its prompt, response, parse rule and graph; click a column header to sort.</p>
</section>
<section id="detail" hidden></section>
"""


def run_page_html(runs: Sequence[Any], *, title: Optional[str] = None, data: Any = None,
                  assets: Optional[str] = None, views=None, difficulty_feature: Optional[str] = None,
                  align: Optional[str] = None, rank: Optional[str] = RANK_AXIS,
                  scoring_metrics: Optional[Sequence[str]] = None) -> str:
    """The run page for one or more runs, as a string.

    Parameters
    ----------
    runs
        Run folders or loaded :class:`~causalgraph.runlog.store.Run` objects;
        with two or more, the first is the baseline of the comparison.
    title
        Page heading (default: the run names).
    data
        Corpus (or ``--data`` value) to show graphs, C(s) and prompts from,
        instead of the one each run's manifest names.
    assets
        Relative URL of a folder written by
        :func:`causalgraph.html.kit.write_vis_assets` to load vis-network from
        (default: inline it, so the page stands alone).
    views
        ``(views, comparison)`` from :func:`load_views`, when already built.
    difficulty_feature
        The feature of the difficulty plots (default C(s), ``c_norm``; see :func:`load_views`).
    align
        The event alignment rule of the overlay graphs of pair runs (see :func:`load_views`).
    rank
        With several runs, the axis their arms are ranked along (see :func:`load_views`; ``None``: none).
    scoring_metrics
        Registered scoring metrics to show beside each variant's scores (see :func:`load_views`).

    Examples
    --------
    >>> page = run_page_html(["runs/corri"])       # doctest: +SKIP
    >>> "Content-Security-Policy" in page           # doctest: +SKIP
    True
    """
    views, comparison = views if views is not None else load_views(runs, data=data,
                                                                   difficulty_feature=difficulty_feature,
                                                                   align=align, rank=rank,
                                                                   scoring_metrics=scoring_metrics)
    heading = title if title is not None else "Runs: " + ", ".join(v.name for v in views)
    payload = build_payload(views, comparison, title=heading)
    js, css = _assets()
    vis_head, inline = vis_tags(assets)
    csp = content_security_policy(inline + [js], local_files=assets is not None)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n"
        f"<title>{html.escape(heading)}</title>\n{vis_head}<style>{css}</style>\n</head><body>\n"
        + _BODY.format(title=html.escape(heading))
        + f'<script type="application/json" id="cg-run-data">{script_json(payload)}</script>\n'
        f"<script>{js}</script>\n</body></html>\n"
    )


def default_page_path(runs: Sequence[Any]) -> Path:
    """Where ``bench view`` writes without ``-o``: ``RUN/view.html`` for one run, ``compare.html`` for several."""
    if len(runs) == 1 and not hasattr(runs[0], "responses"):
        return Path(os.fspath(runs[0])) / "view.html"
    if len(runs) == 1:
        return Path(runs[0].path) / "view.html"
    return Path("compare.html")


def write_run_page(runs: Sequence[Any], path: Optional[str | os.PathLike] = None, *, open_browser: bool = False,
                   **kwargs) -> Path:
    """Write :func:`run_page_html` to ``path`` (default :func:`default_page_path`) and return the path.

    Examples
    --------
    >>> write_run_page(["runs/corri", "runs/corri-rc"], "compare.html")   # doctest: +SKIP
    PosixPath('compare.html')
    """
    p = Path(path) if path is not None else default_page_path(runs)
    if p.suffix.lower() not in (".html", ".htm"):
        raise ConfigError(f"{p}: the viewer writes HTML; expected a file name ending in .html")
    page = run_page_html(runs, **kwargs)
    output_file(p, "run page")
    p.write_text(page, encoding="utf-8")
    if open_browser and not open_page(p):
        import warnings

        warnings.warn(NO_BROWSER.format(path=p), stacklevel=2)
    return p
