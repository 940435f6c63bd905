"""The benchmark item: one prompt with its gold label and where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = ["Item", "item_id", "item_key"]


@dataclass(frozen=True)
class Item:
    """One benchmark question.

    Attributes
    ----------
    id
        Stable identifier, unique within a task and variant
        (``task/variant/statement/…``, see :func:`item_id`); the same data always gives the
        same ids.
    task
        Task name (see :mod:`causalgraph.tasks`).
    variant
        Prompt variant id as in the paper (``0_1``, ``RC_F_2``, ``A_5`` …).
    prompt
        The user message sent to the model.
    gold
        Canonical gold label (``positive``/``negative``, ``yes``/``no``,
        ``start``/``middle``/``end``/``none``) or ``None`` for tasks
        scored otherwise (extraction).
    meta
        Provenance: statement id, event(s), relation row …
    system
        Optional system message.
    """

    id: str
    task: str
    variant: str
    prompt: str
    gold: Optional[str]
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    system: Optional[str] = None

    def messages(self) -> list[dict[str, str]]:
        """The chat messages for this item."""
        msgs = []
        if self.system:
            msgs.append({"role": "system", "content": self.system})
        msgs.append({"role": "user", "content": self.prompt})
        return msgs

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "task": self.task, "variant": self.variant, "prompt": self.prompt,
                "gold": self.gold, "meta": self.meta, "system": self.system}


def item_id(task: str, variant: str, *parts: object) -> str:
    """The id of an item: ``task/variant/part/part…`` (the one place ids are built).

    The parts after the variant (statement id, relation or event) are the
    item's *key*, the same across tasks and variants, which is how paired
    statistics match the items of two runs (:func:`item_key`).

    Examples
    --------
    >>> item_id("demo-yesno", "v1", "st-7", "r012")
    'demo-yesno/v1/st-7/r012'
    """
    return "/".join([str(task), str(variant), *(str(p) for p in parts)])


def item_key(item_id_: str, task: str, variant: str) -> str:
    """The key of an id built by :func:`item_id` (the id whole when it has another shape).

    Examples
    --------
    >>> item_key("demo-yesno/v2/st-7/r012", "demo-yesno", "v2")
    'st-7/r012'
    >>> item_key("q1", "demo", "v1")
    'q1'
    """
    prefix = f"{task}/{variant}/"
    s = str(item_id_)
    return s[len(prefix):] if s.startswith(prefix) else s

