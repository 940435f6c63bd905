"""The benchmark item: one prompt with its gold label and where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = ["Item"]


@dataclass(frozen=True)
class Item:
    """One benchmark question.

    Attributes
    ----------
    id
        Stable identifier, unique within a task and variant
        (e.g. ``corri/0_1/cc-007/r0012``); the same data always gives the
        same ids.
    task
        Task name (``corri``, ``corri-rc``, ``ccr-member`` …).
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
