"""The annotator's run records: the label a run stores for an answer, read back, and the records' input order.

The task (:mod:`causalgraph.tasks.annotation`) writes labels with :func:`parse_for_run`; the
annotator and the evaluation read them with :func:`parsed_from_label`, so nothing parses the raw
answer a second time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

from .answer import ParsedAnnotation, parse_annotation, parsed_from_dict

if TYPE_CHECKING:
    from ..runlog.record import RunRecord

__all__ = ["TASK", "input_order", "parse_for_run", "parsed_from_label"]

#: The annotator's task name on the benchmark runner.
TASK = "annotate"


def input_order(records: Iterable["RunRecord"]) -> list["RunRecord"]:
    """Run records in input order: by the item's ``index``, then its id (records without one last).

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> recs = [RunRecord("annotate", "v", "b", meta={"index": 1}), RunRecord("annotate", "v", "a", meta={"index": 0})]
    >>> [r.item_id for r in input_order(recs)]
    ['a', 'b']
    """
    def key(r):
        idx = r.meta.get("index")
        return (0, idx, str(r.item_id)) if isinstance(idx, int) else (1, 0, str(r.item_id))

    return sorted(records, key=key)


def parse_for_run(text: str, variant: str) -> tuple[Optional[dict], str]:
    """The task's parser: ``(parsed answer dict | None, rule)``."""
    p = parse_annotation(text)
    if p.failed:
        return None, p.rule
    return {"causal": p.causal, "abbreviations": p.abbreviations, "relations": list(p.relations),
            "issues": list(p.issues)}, p.rule


def parsed_from_label(label: dict, rule: Optional[str] = None) -> ParsedAnnotation:
    """Read back a record's ``label`` (what :func:`parse_for_run` stored) with its parse ``rule``.

    A stored label is already normalised; it goes through the same
    normalisation again so a hand-written or edited run is read by the same
    rules.  The stored issues are kept.

    Examples
    --------
    >>> label, rule = parse_for_run('{"relations": [{"cause_np": "warming", "effect_np": "ice loss"}]}', "few-shot")
    >>> p = parsed_from_label(label, rule)
    >>> p.causal, p.relations[0]["cause_np"], p.rule
    (True, 'warming', 'json')
    """
    return parsed_from_dict({k: v for k, v in label.items() if k != "issues"}, rule or "json",
                            tuple(label.get("issues") or ()))
