"""The run viewer: one offline HTML page to read what models answered, item by item.

:func:`write_run_page` (``causalgraph bench view RUN [RUN …]``) writes a
self-contained page with, per run, a summary per variant (P/R/F1 with the
bootstrap interval from ``metrics.json``, parse failures, errors, tokens,
cost), a filterable, searchable, sortable table of every item, and, for a
clicked item, its prompt, raw response, parse rule and the statement's
causal graph with the asked event highlighted.  Extraction and annotation
runs show gold against predicted pairs with the matching used and a graph
overlay (predicted events drawn on the gold events they align to).  Given several runs over the same items, the page lists the
flipped items, McNemar per variant and the agreement per statement.  See
docs/viewer.md.
"""

from __future__ import annotations

from .compare import compare_runs
from .page import default_page_path, load_views, run_page_html, write_run_page
from .overlay import aligned_overlay, pair_events
from .pairs import PairItem, match_pairs, pair_view_of, record_pairs
from .payload import CHUNK, build_payload, pack, unpack
from .runs import CS_BUCKETS, STATES, RunView, build_run_view, cs_bucket, find_corpus, item_state

__all__ = [
    "write_run_page",
    "run_page_html",
    "load_views",
    "default_page_path",
    "RunView",
    "build_run_view",
    "find_corpus",
    "item_state",
    "cs_bucket",
    "STATES",
    "CS_BUCKETS",
    "compare_runs",
    "PairItem",
    "record_pairs",
    "match_pairs",
    "pair_view_of",
    "aligned_overlay",
    "pair_events",
    "build_payload",
    "pack",
    "unpack",
    "CHUNK",
]
