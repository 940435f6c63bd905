"""Precision and recall of an event alignment against pairs labelled by hand.

A labelled set is a JSON Lines file, one statement a line::

    {"source": "...", "statement_id": "pmc-1", "predicted": ["..."], "gold": ["..."],
     "pairs": [["predicted event", "gold event"], ...]}

``predicted`` and ``gold`` are the statement's events (its two graphs' nodes, in order); ``pairs``
are the true correspondences, one-to-one, read by a person: a predicted event names the same
event as a gold event.  A predicted event in no pair names no gold event.

Scored per rule: precision = aligned pairs that are true / aligned pairs, recall = true pairs that
are aligned / true pairs, over all statements (micro); and per step of the cascade (the pairs
each rule itself made), with the same denominators for recall.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from ..errors import SchemaError
from .events import ALIGN_RULES, EMBEDDING_THRESHOLD, TOKEN_THRESHOLD, align_events

__all__ = ["LabelledStatement", "load_labelled", "alignment_scores"]


@dataclass(frozen=True)
class LabelledStatement:
    """One statement of a labelled set (see the module's notes)."""

    source: str
    statement_id: str
    predicted: tuple[str, ...]
    gold: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]


def _strings(value: Any, where: str, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise SchemaError(f"{where}, field {field!r}: found {value!r}; expected a list of event names")
    if len(set(value)) != len(value):
        dup = next(x for x in value if value.count(x) > 1)
        raise SchemaError(f"{where}, field {field!r}: {dup!r} appears twice; expected distinct events")
    return tuple(value)


def load_labelled(path: Union[str, os.PathLike]) -> list[LabelledStatement]:
    """Read a labelled set, checking that every pair joins a predicted and a gold event one-to-one.

    Raises
    ------
    SchemaError
        Naming the file, the line, the field and the value found.
    """
    out = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            where = f"{path}, line {n}"
            try:
                d = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SchemaError(f"{where}: not JSON ({exc.msg}); expected one statement object a line") from None
            if not isinstance(d, dict):
                raise SchemaError(f"{where}: found a {type(d).__name__}; expected an object")
            for k in ("source", "statement_id"):
                if not isinstance(d.get(k), str):
                    raise SchemaError(f"{where}, field {k!r}: found {d.get(k)!r}; expected a string")
            pred = _strings(d.get("predicted"), where, "predicted")
            gold = _strings(d.get("gold"), where, "gold")
            pairs = d.get("pairs")
            if not isinstance(pairs, list):
                raise SchemaError(f"{where}, field 'pairs': found {pairs!r}; expected a list of [predicted, gold]")
            seen_p: set[str] = set()
            seen_g: set[str] = set()
            checked = []
            for i, pr in enumerate(pairs, start=1):
                if not (isinstance(pr, list) and len(pr) == 2 and pr[0] in pred and pr[1] in gold):
                    raise SchemaError(f"{where}, pair {i}: found {pr!r}; expected [a predicted event, a gold event] "
                                      "of this statement")
                if pr[0] in seen_p or pr[1] in seen_g:
                    raise SchemaError(f"{where}, pair {i}: {pr!r} reuses an event; pairs are one-to-one")
                seen_p.add(pr[0])
                seen_g.add(pr[1])
                checked.append((pr[0], pr[1]))
            out.append(LabelledStatement(d["source"], d["statement_id"], pred, gold, tuple(checked)))
    return out


def alignment_scores(labelled: Sequence[LabelledStatement], rule: str, *,
                     token_threshold: float = TOKEN_THRESHOLD, embedding_threshold: float = EMBEDDING_THRESHOLD,
                     embedder: Any = None, source: Optional[str] = None) -> dict[str, Any]:
    """Precision, recall and F1 of ``rule``'s alignment on a labelled set, overall and per step.

    Parameters
    ----------
    labelled
        :func:`load_labelled`'s statements.
    rule, token_threshold, embedding_threshold, embedder
        As :func:`causalgraph.alignment.events.align_events`.
    source
        Only statements of this source.

    Returns
    -------
    dict
        ``{"rule", "statements", "true_pairs", "aligned", "correct", "precision", "recall", "f1",
        "steps": {step: {"aligned", "correct", "precision", "recall"}}}``; a precision with
        nothing aligned, a recall with no true pair and an F1 with neither are ``None``.

    Examples
    --------
    "sea ice" has token F1 0.5 with both "sea level" and "ice loss"; the tie goes to the first,
    which the person labelling said is wrong:

    >>> s = LabelledStatement("x", "s1", ("Warming", "sea ice"), ("warming", "sea level", "ice loss"),
    ...                       (("Warming", "warming"), ("sea ice", "ice loss")))
    >>> r = alignment_scores([s], "token")
    >>> r["precision"], r["recall"], r["steps"]["token"]
    (0.5, 0.5, {'aligned': 1, 'correct': 0, 'precision': 0.0, 'recall': 0.0})
    """
    todo = [s for s in labelled if source is None or s.source == source]
    steps = {r: {"aligned": 0, "correct": 0} for r in ALIGN_RULES[:ALIGN_RULES.index(rule) + 1]}
    true_n = aligned = correct = 0
    for s in todo:
        truth = set(s.pairs)
        true_n += len(truth)
        al = align_events(s.predicted, s.gold, rule=rule, token_threshold=token_threshold,
                          embedding_threshold=embedding_threshold, embedder=embedder)
        for m in al.matches:
            hit = (m.predicted, m.gold) in truth
            aligned += 1
            correct += hit
            steps[m.rule]["aligned"] += 1
            steps[m.rule]["correct"] += hit
    # a ratio over nothing (no aligned pair, no true pair) is undefined, not 0 (scores.prf gives 0)
    out = {"rule": rule, "statements": len(todo), "true_pairs": true_n, "aligned": aligned, "correct": correct,
           "precision": correct / aligned if aligned else None, "recall": correct / true_n if true_n else None,
           "f1": 2 * correct / (aligned + true_n) if aligned + true_n else None}
    out["steps"] = {k: {**v, "precision": v["correct"] / v["aligned"] if v["aligned"] else None,
                        "recall": v["correct"] / true_n if true_n else None} for k, v in steps.items()}
    return out
