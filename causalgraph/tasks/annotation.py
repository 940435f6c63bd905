"""The ``annotate`` task (statement → ClimateCause-style relations): items, parser, scorer.

Annotating runs on :mod:`causalgraph.bench.runner` like every benchmark, so
it gets the runner's response cache, resume, retries and progress bar.  An
item asks for the annotation of one statement; its ``gold`` is the gold
annotation in the answer format (a JSON string) when the corpus is
annotated, and ``None`` for free text.  The parsed answer is the record's
``label`` (a dict; ``None`` when no rule could read the answer, which the
runner counts as a parse failure) and the parse rule its ``rule``.
"""

from __future__ import annotations

import functools
import json
from typing import Iterable, Optional, Sequence

from ..annotation.evaluate import evaluate_records, distinct_pairs
from ..annotation.answer import statement_to_answer, parse_annotation, to_statement
from ..annotation.prompt import DEFAULT_VARIANT, VARIANTS, render_messages, select_exemplars
from ..annotation.records import TASK, parse_for_run, parsed_from_label
from ..annotation.reference import PAPER_RANGES, climatecause_ranges
from ..taskkit.item import Item, item_id
from ..errors import DataNotFound, CausalGraphError
from ..model import Relation, Statement
from .base import Task
from .kinds import ItemView, Pairs
from ..datasets import load_corpus
from ..runlog.record import RunRecord

__all__ = ["annotation_items", "text_items", "reference_annotation", "tasks", "ANNOTATION_VIEW"]


def _item(st_id: str, text: str, variant: str, gold: Optional[str], shots: Optional[int], index: int) -> Item:
    msgs = render_messages(text, variant, shots)
    system = next((m["content"] for m in msgs if m["role"] == "system"), None)
    user = msgs[-1]["content"]
    # ``index``: the statement's position in its input, so readers restore input order whatever order
    # concurrent requests finished in.
    meta = {"statement_id": st_id, "index": index, "text": text,
            "exemplars": [e.id for e in select_exemplars(text, variant, shots)]}
    return Item(id=item_id(TASK, variant, st_id), task=TASK, variant=variant, prompt=user, gold=gold, meta=meta,
                system=system)


def annotation_items(statements: Iterable[Statement], variant: str = DEFAULT_VARIANT, *, gold: bool = True,
                     shots: Optional[int] = None) -> list[Item]:
    """One item per statement, in corpus order.

    Parameters
    ----------
    statements
        A corpus or statements.
    variant
        ``few-shot`` or ``zero-shot``.
    gold
        Put the statement's annotation (answer format, JSON) in ``gold``;
        False for texts without annotation.
    shots
        At most this many worked examples.

    Examples
    --------
    >>> from causalgraph.model import Statement
    >>> it = annotation_items([Statement("d1", "Warming melts glaciers.", False)], "zero-shot", gold=False)[0]
    >>> it.id, it.gold, it.meta["statement_id"]
    ('annotate/zero-shot/d1', None, 'd1')
    """
    out = []
    for i, s in enumerate(statements):
        g = json.dumps(statement_to_answer(s), ensure_ascii=False) if gold else None
        out.append(_item(s.id, s.text, variant, g, shots, i))
    return out


def text_items(texts: Sequence[str], variant: str = DEFAULT_VARIANT, *, ids: Optional[Sequence[str]] = None,
               shots: Optional[int] = None) -> list[Item]:
    """Items for free texts (no gold); ids ``text-1``, ``text-2`` … unless given."""
    ids = list(ids) if ids is not None else [f"text-{i}" for i in range(1, len(texts) + 1)]
    return annotation_items([Statement(i, t, False) for i, t in zip(ids, texts)], variant, gold=False, shots=shots)


def _score(records: list[RunRecord]) -> dict:
    if not any(r.gold for r in records):
        return {"evaluated": False}
    try:
        ref = climatecause_ranges()
    except DataNotFound:
        # A run must not fail at its last step because the reference corpus is missing:
        # the ranges printed in the paper are the same (tests/annotation/test_reference.py).
        ref = PAPER_RANGES
    return {"evaluated": True, **evaluate_records(records, reference=ref).summary()}


@functools.lru_cache(maxsize=1)
def _known_statements() -> dict[str, Statement]:
    """ClimateCause statements by their text (spaces normalised); empty where the corpus is not at hand."""
    try:
        corpus = load_corpus("climatecause")
    except CausalGraphError:
        return {}
    out: dict[str, Statement] = {}
    for s in corpus:
        out.setdefault(" ".join(s.text.split()), s)
    return out


def _statement_of(item: Item) -> Optional[Statement]:
    """The corpus statement whose text the item asks about (blanks folded), or ``None``."""
    text = (item.meta or {}).get("text")
    return _known_statements().get(" ".join(str(text).split())) if text else None


def reference_annotation(item: Item) -> Optional[str]:
    """The gold annotation of an item's text when it is a ClimateCause statement, as a perfect model answers it.

    Free text (``annotate --text``, ``score``) has no gold in its item; a text
    that is a statement of the corpus has one all the same, which is what
    ``mock/oracle`` answers.  ``None`` for any other text.

    Examples
    --------
    >>> it = text_items(["Warming melts glaciers."])[0]
    >>> reference_annotation(it) is None     # doctest: +SKIP
    True
    """
    st = _statement_of(item)
    if st is None:
        return None
    return "<Answer>" + json.dumps(statement_to_answer(st), ensure_ascii=False) + "</Answer>"


def wrong_annotation(item: Item) -> str:
    """A wrong annotation of an item's text (``mock/noisy``): no relation where the statement holds one, else one.

    Examples
    --------
    >>> it = text_items(["Warming melts glaciers."])[0]
    >>> wrong_annotation(it)                 # doctest: +SKIP
    '<Answer>{"causal": true, "abbreviations": null, "relations": [{...}]}</Answer>'
    """
    st = _statement_of(item)
    if st is not None and st.relations:
        answer = statement_to_answer(Statement(st.id, st.text, False, ()))
    else:
        unrelated = Statement("wrong", str((item.meta or {}).get("text") or ""), True,
                              (Relation("an unrelated event", "another unrelated event"),))
        answer = statement_to_answer(unrelated)
    return "<Answer>" + json.dumps(answer, ensure_ascii=False) + "</Answer>"


def _annotation_pairs(answer, text: str, rule: Optional[str], stored: bool) -> tuple[tuple[str, str], ...]:
    if stored:
        parsed = parsed_from_label(answer, rule)
    else:
        parsed = parse_annotation(answer)
        if parsed.failed:
            return ()
    st = to_statement(parsed, text, strict=False)
    # The no-quantifier events of each distinct pair, as the annotation evaluation counts them.
    return tuple((rel.cause, rel.effect) for _, rel in distinct_pairs(st))


def _record_pairs(record) -> tuple:
    """Gold pairs from the gold answer (JSON), predicted pairs from the parsed answer (a dict)."""
    meta = record.meta or {}
    label = record.label
    failed = bool(record.error)
    text = str(meta.get("text") or "")
    gold_answer = record.gold
    gold = _annotation_pairs(gold_answer, text, None, False) if isinstance(gold_answer, str) else ()
    pred = () if failed or not isinstance(label, dict) else _annotation_pairs(label, text, record.rule, True)
    return gold, pred, failed or not isinstance(label, dict)


def _display(value):
    rels = value.get("relations") if isinstance(value, dict) else None
    if rels is None and isinstance(value, str):
        try:
            rels = (json.loads(value) or {}).get("relations")
        except (ValueError, AttributeError):
            rels = None
    if isinstance(rels, list):
        return f"{len(rels)} relation{'s' if len(rels) != 1 else ''}"
    return None


#: How the viewer shows an annotation item: the pairs of the gold and of the parsed annotation.
ANNOTATION_VIEW = ItemView("annotation", _record_pairs, _display)


def tasks() -> list[Task]:
    """The ``annotate`` task.

    Examples
    --------
    >>> tasks()[0].name, tasks()[0].list_variants()
    ('annotate', ['few-shot', 'zero-shot'])
    """
    return [Task(
        name=TASK,
        build_items=lambda corpus, variant: annotation_items(corpus, variant, gold=True),
        list_variants=lambda: list(VARIANTS),
        answers=Pairs(score=_score, item_view=ANNOTATION_VIEW, reference_answer=reference_annotation,
                      wrong_answer=wrong_annotation),
        parse=parse_for_run,
        # The statements the annotator's own benchmark is scored on.
        default_data="climatecause",
        strategy=lambda v: v,
        requires=("text",),
        description="annotate statements into ClimateCause-style relations (issue 9)",
    )]
