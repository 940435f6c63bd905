"""The data a run page carries: compact item columns, and the heavy parts packed to be read on demand.

A page holds one JSON object (in a ``<script type="application/json">``
block).  The item table is a set of columns with one entry per item, the
repeated strings (variants, statements, labels, rules, item keys) written
once in dictionaries and referred to by number, so 34,164 items take about
a megabyte and the table renders at once.  What is read only when a row is
opened — prompts, responses, pair matchings, graphs — is gzip-compressed
JSON in base64, in chunks of :data:`CHUNK` items, that the page inflates with
the browser's ``DecompressionStream`` when it needs one: the 50 million
prompt characters of the paper's full benchmark take about a megabyte.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
from typing import Any, Optional, Sequence

from ..errors import CausalGraphError
from .runs import CS_BUCKETS, STATES, asked_events, cs_bucket, dataset_of, display_value
from ..html.graph_page import NETWORK_OPTIONS, viewer_data
from ..stats import pair_key
from ..graph.subgraphs import context_sources
from ..extraction.evaluate import EXACT_RULES, SOFT_RULES
from ..metrics.complexity import complexity_table
from .consistency import sign_chains

__all__ = ["CHUNK", "build_payload", "pack", "unpack", "statement_graphs"]

#: Items per compressed chunk of prompts or responses.
CHUNK = 1000


def pack(obj: Any) -> str:
    """JSON → gzip (no timestamp, so the same data gives the same bytes) → base64.

    Examples
    --------
    >>> unpack(pack({"a": [1, "<b>"]}))
    {'a': [1, '<b>']}
    """
    raw = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def unpack(text: str) -> Any:
    """The inverse of :func:`pack` (for tests and tools)."""
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


class _Dict:
    """Strings numbered in order of first use."""

    def __init__(self):
        self.index: dict[str, int] = {}

    def __call__(self, value: Any) -> int:
        s = "" if value is None else str(value)
        if s not in self.index:
            self.index[s] = len(self.index)
        return self.index[s]

    def values(self) -> list[str]:
        return list(self.index)


def _finite(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def statement_graphs(statements: dict, ids: Sequence[str], notes: list[str]) -> dict[str, dict]:
    """vis-network nodes and edges (:func:`causalgraph.html.graph_page.viewer_data`) of the statements that have relations."""
    out: dict[str, dict] = {}
    for sid in ids:
        st = statements.get(sid)
        if st is None or not st.relations:
            continue
        try:
            d = viewer_data(st)
        except CausalGraphError as exc:
            notes.append(f"statement {sid}: no graph ({exc})")
            continue
        out[sid] = {"nodes": list(d.nodes), "edges": list(d.edges), "notes": list(d.notes)}
    return out


def _complexity(corpus, cache: dict) -> dict[str, float]:
    """Statement id → C(s) over the whole corpus (min–max normalised across its statements)."""
    key = id(corpus)
    if key not in cache:
        try:
            table = complexity_table(corpus)
            # C(s) is undefined (NaN) where min–max normalising has no range (one statement, or all alike):
            # left out, so the page shows none rather than writing NaN, which is no JSON
            cache[key] = {str(s): float(c) for s, c in zip(table["statement_id"], table["c_norm"])
                          if math.isfinite(float(c))}
        except CausalGraphError:
            cache[key] = {}
    return cache[key]


def _summary_row(row: dict) -> dict:
    return _finite(dict(row))


def build_payload(views: Sequence[Any], comparison: Optional[dict] = None, *, title: str = "") -> dict:
    """The page's JSON object for run views (:func:`causalgraph.viewer.runs.build_run_view`).

    Examples
    --------
    >>> payload = build_payload([build_run_view(load_run("runs/corri"))])   # doctest: +SKIP
    >>> len(payload["cols"]["state"])                                        # doctest: +SKIP
    7866
    """
    variants, statements, values, rules, tasks, keys, asked = (_Dict() for _ in range(7))
    cols: dict[str, list] = {k: [] for k in ("run", "task", "variant", "key", "statement", "gold", "answer",
                                               "rule", "state", "asked", "score")}
    prompt_chunks: list[str] = []
    detail_chunks: list[str] = []
    runs_out = []
    st_text: dict[str, str] = {}
    st_cs: dict[str, Optional[float]] = {}
    graph_ids: list[str] = []
    graph_source: dict[str, Any] = {}
    cs_cache: dict = {}
    page_notes: list[str] = []

    for r, view in enumerate(views):
        start = len(cols["state"])
        cs = _complexity(view.corpus, cs_cache) if view.corpus is not None else {}
        prompts, details = [], []
        for n, rec in enumerate(view.records):
            meta = rec.meta or {}
            sid = meta.get("statement_id")
            sid = "" if sid is None else str(sid)
            cols["run"].append(r)
            cols["task"].append(tasks(rec.task))
            cols["variant"].append(variants(rec.variant))
            cols["key"].append(keys(pair_key(rec)))
            cols["statement"].append(statements(sid))
            cols["gold"].append(values(display_value(rec.gold, view.item_view)))
            cols["answer"].append(values(display_value(rec.label, view.item_view)))
            cols["rule"].append(rules(rec.rule if rec.rule is not None else
                                      ("" if not rec.error else "(request failed)")))
            cols["state"].append(STATES.index(view.states[n]))
            cols["asked"].append(asked(" · ".join(asked_events(meta))))
            m = view.matches[n]
            cols["score"].append(None if m is None else round(m["scores"]["paper"]["token"]["f1"], 4))
            if sid and sid not in st_text:
                st = view.statements.get(sid)
                st_text[sid] = st.text if st is not None else str(meta.get("text") or meta.get("sentence") or "")
                st_cs[sid] = cs.get(sid)
                if st is not None and view.pairs is None:
                    graph_ids.append(sid)
                    graph_source[sid] = view.statements
            p = view.prompts[n]
            prompts.append(None if p is None else [p["system"], p["user"], p["check"]])
            # Records come from JSON written with allow_nan=False and matches are computed here: all finite.
            details.append(({
                "id": rec.item_id, "response": rec.response, "error": rec.error,
                "label": rec.label, "gold": rec.gold, "rule": rec.rule, "meta": meta,
                "usage": rec.usage, "cost_usd": rec.cost_usd, "latency_s": rec.latency_s,
                "finish_reason": rec.finish_reason, "source": rec.source,
                "attempts": rec.attempts, "match": m,
                # The sha256 only where the prompt could not be rebuilt (its check is in the prompt chunk).
                "prompt_sha256": rec.prompt_sha256 if view.prompts[n] is None else None,
                # The CauseNet sources of the relations asked about (sample-subgraphs --sources), per edge.
                **({"edge_sources": srcs} if (srcs := context_sources(meta)) else {}),
                **({"epochs": view.epochs[n], "epoch": rec.epoch} if view.epochs else {}),
                # Scored by log-likelihood: [label, continuation, summed log-probability, probability] per choice.
                **({"choices": [[lab, text, (rec.logprobs or {}).get(lab), (rec.probs or {}).get(lab)]
                                for lab, text in rec.continuations.items()]}
                   if rec.method in ("loglik", "choice-logprobs") and rec.continuations else {}),
                # Read from generated-token log-probabilities: how (logprobs or parsed) and why, and the choices
                # outside the returned alternatives (their value is a bound, the k-th returned value).
                **({"scoring": rec.scoring, "reason": (rec.choice_read or {}).get("reason"),
                    "note": (rec.choice_read or {}).get("note"),
                    "bounded": list((rec.choice_read or {}).get("bounded") or [])}
                   if rec.method == "choice-logprobs" else {}),
            }))
        for c in range(0, len(details), CHUNK):
            prompt_chunks.append(pack(prompts[c:c + CHUNK]))
            detail_chunks.append(pack(details[c:c + CHUNK]))
        runs_out.append({
            "name": view.name, "path": view.path, "task": view.task_name, "model": view.model, "kind": view.kind,
            "labels": [str(x) for x in view.labels], "pairs": view.pairs, "start": start,
            "count": len(view.records), "chunk0": len(detail_chunks) - math.ceil(len(details) / CHUNK),
            "summary": [_summary_row(x) for x in view.summary], "totals": _finite(view.totals),
            "notes": list(view.notes),
            "dataset": dataset_of(view.manifest).get("name"),
            **({"prompts": view.prompt_catalog} if view.prompt_catalog else {}),
            "difficulty": _finite(view.difficulty),
        })
    graphs: dict[str, dict] = {}
    by_source: dict[int, list[str]] = {}
    for sid in graph_ids:
        by_source.setdefault(id(graph_source[sid]), []).append(sid)
    for sid_list in by_source.values():
        graphs.update(statement_graphs(graph_source[sid_list[0]], sid_list, page_notes))
    sids = statements.values()
    if all(x is None for x in cols["score"]):
        cols["score"] = []  # no pair run: the column is left out

    # Only pages whose runs cover sign chains gain the field: every other page's payload is unchanged.
    chains = sign_chains(views, [r["start"] for r in runs_out])
    return {
        "title": title,
        "version": 1,
        "states": list(STATES),
        "buckets": list(CS_BUCKETS),
        "chunk": CHUNK,
        "runs": runs_out,
        "cols": cols,
        "dict": {"variant": variants.values(), "statement": sids, "value": values.values(), "rule": rules.values(),
                 "task": tasks.values(), "key": keys.values(), "asked": asked.values()},
        "statements": {
            "text": [st_text.get(s, "") for s in sids],
            "cs": [None if st_cs.get(s) is None else round(st_cs[s], 4) for s in sids],
            "bucket": [CS_BUCKETS.index(cs_bucket(st_cs.get(s))) for s in sids],
            "graph": [s in graphs for s in sids],
        },
        "prompts": prompt_chunks,
        "details": detail_chunks,
        "graphs": pack(graphs) if graphs else None,
        "options": NETWORK_OPTIONS,
        "compare": _finite(comparison) if comparison else None,
        "notes": page_notes,
        "rules": _pair_rules(),
        **({"consistency": chains} if chains is not None else {}),
    }


def _pair_rules() -> dict[str, str]:
    return {mode: f"token: {SOFT_RULES[mode]}; exact: {EXACT_RULES[mode]}" for mode in SOFT_RULES}
