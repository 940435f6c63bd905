"""The annotation prompt: guidelines, worked examples from the paper's appendix, the statement.

The prompt files live in ``causalgraph/prompts/annotation/``: ``system.txt``,
``instructions.txt`` (our wording of the ClimateCause guidelines, paper §4
and Appendix B), ``statement.txt`` and ``exemplars.json`` (the appendix's
worked examples written in the answer format).  Two variants exist:
``zero-shot`` (guidelines only) and ``few-shot`` (guidelines and worked
examples, the default).

An exemplar is left out when the text being annotated *is* its statement,
so no statement is ever annotated with its own annotation in view.  All
four worked examples are ClimateCause statements (cc-057, cc-012, cc-014,
cc-005); the paper sometimes quotes only part of one, so the test is on
overlap, not equality (see :func:`is_same_statement`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

from ..errors import ConfigError
from ..prompts.catalog import load_catalog, read_text

__all__ = [
    "VARIANTS", "DEFAULT_VARIANT", "Exemplar", "exemplars", "select_exemplars", "is_same_statement",
    "render_messages",
]

VARIANTS = ("few-shot", "zero-shot")
DEFAULT_VARIANT = "few-shot"

#: Share of an exemplar's words found in the text above which the two count as the same statement.
SAME_STATEMENT_OVERLAP = 0.6


_FOLDER = "annotation"


@dataclass(frozen=True)
class Exemplar:
    """One worked example: a statement and its annotation in the answer format."""

    id: str
    source: str
    statement: str
    answer: dict

    def answer_json(self) -> str:
        return json.dumps(self.answer, ensure_ascii=False)


def _read(name: str) -> str:
    return read_text(_FOLDER, name)


@lru_cache(maxsize=1)
def exemplars() -> tuple[Exemplar, ...]:
    """The worked examples of ``exemplars.json``, in file order.

    Examples
    --------
    >>> [e.id for e in exemplars()][:2]
    ['B.5.2-table7', 'B.5.3-table10']
    """
    data = load_catalog(_FOLDER, "exemplars.json", required={"exemplars": list}, entries="exemplars",
                        entry_required={"id": str, "source": str, "statement": str, "answer": dict})
    return tuple(Exemplar(id=e["id"], source=e["source"], statement=e["statement"], answer=e["answer"])
                 for e in data["exemplars"])


_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def is_same_statement(exemplar_text: str, text: str) -> bool:
    """Whether ``text`` is (or contains, or is a large part of) the exemplar's statement.

    True when at least :data:`SAME_STATEMENT_OVERLAP` of the distinct words
    of the shorter of the two occur in the other one.  Word sets, not
    substrings, so that the paper's partial quotes ("[…]"), changed
    punctuation and added sentences are still recognised.

    Examples
    --------
    >>> is_same_statement("Ocean warming has affected fisheries.", "Ocean warming has affected fisheries (high confidence).")
    True
    >>> is_same_statement("Ocean warming has affected fisheries.", "Sea level rise floods coastal cities.")
    False
    """
    a, b = set(_words(exemplar_text)), set(_words(text))
    if not a or not b:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return len(small & large) / len(small) >= SAME_STATEMENT_OVERLAP


def select_exemplars(text: str, variant: str = DEFAULT_VARIANT, shots: Optional[int] = None) -> list[Exemplar]:
    """The worked examples shown when annotating ``text``.

    Parameters
    ----------
    text
        The statement being annotated; exemplars of the same statement are left out.
    variant
        ``few-shot`` (default) or ``zero-shot`` (none).
    shots
        At most this many exemplars (in file order); ``None`` for all.

    Examples
    --------
    >>> t = "Ocean warming and ocean acidification have adversely affected food production from shellfish aquaculture and fisheries in some oceanic regions (high confidence)."
    >>> [e.id for e in select_exemplars(t)]
    ['B.5.2-table7', 'B.5.3-table10', 'B.5.3-table11']
    """
    _check_variant(variant)
    if variant == "zero-shot":
        return []
    if shots is not None and shots < 0:
        raise ConfigError(f"shots={shots!r}: expected a number of exemplars >= 0")
    chosen = [e for e in exemplars() if not is_same_statement(e.statement, text)]
    return chosen if shots is None else chosen[:shots]


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ConfigError(f"annotation variant {variant!r}: expected one of {', '.join(VARIANTS)}")


def render_messages(text: str, variant: str = DEFAULT_VARIANT, shots: Optional[int] = None) -> list[dict[str, Any]]:
    """The chat messages asking a model to annotate ``text``.

    One system message and one user message: the guidelines, the chosen
    worked examples (statement and answer), then the statement.  A single
    user turn works the same with every backend and chat template.

    Examples
    --------
    >>> msgs = render_messages("Warming reduces crop yields.", "zero-shot")
    >>> [m["role"] for m in msgs], msgs[1]["content"].endswith("Statement: Warming reduces crop yields.\\nAnswer:")
    (['system', 'user'], True)
    """
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("annotate: the text to annotate is empty")
    parts = [_read("instructions.txt").strip()]
    shown = select_exemplars(text, variant, shots)
    if shown:
        parts.append("Worked examples:")
        for ex in shown:
            parts.append(_statement_line(ex.statement) + "\nAnswer: " + ex.answer_json())
        parts.append("Now annotate this statement.")
    parts.append(_statement_line(text) + "\nAnswer:")
    return [{"role": "system", "content": _read("system.txt").strip()},
            {"role": "user", "content": "\n\n".join(parts)}]


def _statement_line(text: str) -> str:
    # Newlines inside a statement would blur where it ends; the guidelines treat it as one text.
    flat = " ".join(text.split())
    return _read("statement.txt").strip().replace("{statement}", flat)
