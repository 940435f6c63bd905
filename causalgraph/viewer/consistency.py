"""The sign chains of the runs on a page: does each endpoint answer compose from its edge answers?

When the runs on one page answer the signs of a chain's edges and of its endpoints (a CorrI run
and a ``corri-multihop`` run, or ``net-effect`` runs, of one model under one graph edit), the page
lists every covered chain with the edge answers, their composition and the endpoint answer, and
marks the chains whose endpoint answer is not that composition.  The counting is
:func:`causalgraph.stats.sign_consistency`'s (``stats consistency --signs`` reports the same rows);
this module only finds the page rows of each chain's endpoint item and edge items.  Pages whose
runs cover no chain get nothing (:func:`sign_chains` returns ``None``), so their payload is
unchanged.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..errors import ConfigError
from ..stats.sign_consistency import CHAIN_COLUMNS, SIGN_COLUMNS, sign_consistency
from ..tasks import find_task

__all__ = ["sign_chains"]


def _plain(x: Any) -> Any:
    """numpy scalars to Python ones, NaN to ``None`` (the payload is strict JSON)."""
    if hasattr(x, "item") and not isinstance(x, (list, tuple, dict, str)):
        x = x.item()
    if isinstance(x, float) and x != x:
        return None
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _signed_task(view) -> Any:
    task = find_task(view.task_name) if view.task_name else None
    # Only label kinds state signs (Signs on Binary or Multiclass).
    return task if task is not None and getattr(task.answers, "signs", None) is not None else None


def sign_chains(views: Sequence[Any], starts: Sequence[int]) -> Optional[dict]:
    """The page's sign chains, or ``None`` when its runs cover none.

    Parameters
    ----------
    views
        The page's :class:`~causalgraph.viewer.runs.RunView` objects (each holding its loaded run).
    starts
        The page row of each view's first item.

    Returns
    -------
    dict or None
        ``table``: :func:`~causalgraph.stats.sign_consistency`'s rows (:data:`SIGN_COLUMNS`);
        ``chains``: one dict per covered chain with its sources, ``statement``, ``path``,
        ``edges`` (each edge's answer: 1, -1, ``"other"`` or ``None`` when undefined),
        ``composed``, ``endpoint``, ``consistent`` (``None``: not answered), ``row`` (the
        endpoint item's page row, ``None`` if not on the page) and ``edge_rows`` (per edge,
        the page rows of the items that answered it).

    Examples
    --------
    >>> sign_chains([], [])  is None
    True
    """
    signed = [(k, v, t) for k, (v, t) in enumerate((v, _signed_task(v)) for v in views)
              if t is not None and v.run is not None]
    if not signed:
        return None
    try:
        rep = sign_consistency([v.run for _, v, _ in signed])
    except ConfigError:
        return None  # runs of sign tasks that cover no chain: the page shows none
    if rep.chains.empty:
        return None
    # Page rows of each claim, keyed as sign_consistency keys its sources: model, task/variant, (statement, path).
    rows: dict[tuple, list[int]] = {}
    endpoint_rows: dict[tuple, int] = {}
    for k, view, task in signed:
        for n, rec in enumerate(view.records):
            row = starts[k] + n
            endpoint_rows.setdefault((view.model, rec.item_id), row)
            where = task.answers.signs.path(rec)
            if where is not None:
                rows.setdefault((view.model, f"{task.name}/{rec.variant}", where[0], tuple(where[1])),
                                []).append(row)
    chains = []
    for c in rep.chains.to_dict("records"):
        c = {k: _plain(c[k]) for k in CHAIN_COLUMNS}
        path = list(c["path"])
        chains.append({
            "model": c["model"], "graph_edit": c["graph_edit"], "edge_source": c["edge_source"],
            "endpoint_source": c["endpoint_source"], "statement": c["statement_id"], "path": path,
            "edges": c["edge_answers"], "composed": c["composed"], "endpoint": c["endpoint_answer"],
            "consistent": c["consistent"], "row": endpoint_rows.get((c["model"], c["endpoint_item"])),
            "edge_rows": [rows.get((c["model"], c["edge_source"], c["statement_id"], hop), [])
                          for hop in zip(path, path[1:])],
        })
    table = [{k: _plain(r[k]) for k in SIGN_COLUMNS} for r in rep.table.to_dict("records")]
    return {"table": table, "chains": chains}
