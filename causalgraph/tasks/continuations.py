"""The answer continuations a prompt asks for, read from its text (for ``bench run --method loglik``).

Under log-likelihood scoring the answer is the first thing the model writes,
so a variant is scored by comparing the continuations that answer it: the
label's word as the prompt asks for it (``Yes``), inside the tag the prompt
names (``<Answer>start</Answer>``), or in quotes where the prompt quotes
its verdicts (``"1"``).  A prompt that asks for reasoning before the answer
(chain-of-thought, least-to-most, ReAct) cannot be answered that way: the
tokens it scores would not be what the prompt asks the model to write
first, and :func:`answer_continuations` refuses it, naming the variant and
the words that ask for reasoning.

Each task family declares its variants' continuations through
``continuations`` of :class:`causalgraph.tasks.Binary` and :class:`~causalgraph.tasks.Multiclass`, built with this function
from the prompt catalogs, so the form follows the prompt text.
"""

from __future__ import annotations

import re
from typing import Mapping

from ..errors import ConfigError

__all__ = ["answer_continuations", "reasoning_marker", "REASONING_PATTERN"]

#: Words by which a prompt asks for reasoning before its answer (the CoT, L2M and ReAct variants).
REASONING_PATTERN = re.compile(
    r"step[ -]by[ -]step|give reasoning|reasoning\s*(?:&|and)\s*output|^\s*reasoning\s*:|\bstep 1\b|"
    r"\bthought\s+1\b", re.IGNORECASE | re.MULTILINE)


def reasoning_marker(prompt: str) -> str | None:
    """The words of ``prompt`` that ask for reasoning before the answer, or ``None``.

    Examples
    --------
    >>> reasoning_marker("Think step by step. Give reasoning and then give an answer")
    'step by step'
    >>> reasoning_marker("Answer with {Yes, No} only.") is None
    True
    """
    m = REASONING_PATTERN.search(prompt)
    return None if m is None else " ".join(m.group(0).split())


def answer_continuations(prompt: str, words: Mapping[str, str], where: str, *, quoted: bool = False) -> dict[str, str]:
    """Label → the text that answers ``prompt`` with it, as the prompt asks for the answer.

    Parameters
    ----------
    prompt
        The variant's prompt template (its wording decides the form).
    words
        Canonical label → the word the prompt asks for (``{"yes": "Yes", …}``).
    where
        The variant as errors name it (``ccr-position variant A_4``).
    quoted
        The prompt writes its verdicts in double quotes (``Output: "1" or "0"``).

    Raises
    ------
    ConfigError
        When the prompt asks for reasoning before the answer.

    Examples
    --------
    >>> answer_continuations("Answer with {Yes, No} only.", {"yes": "Yes", "no": "No"}, "v")
    {'yes': 'Yes', 'no': 'No'}
    >>> answer_continuations("Give an answer within <Answer>{Yes, No} </Answer>.", {"yes": "Yes", "no": "No"}, "v")
    {'yes': '<Answer>Yes</Answer>', 'no': '<Answer>No</Answer>'}
    """
    marker = reasoning_marker(prompt)
    if marker is not None:
        raise ConfigError(f"{where} asks for reasoning before the answer ({marker!r} in its prompt), so its answer is "
                          "not the first thing the model writes and --method loglik cannot score it; use --method "
                          "generate for it, or a variant that asks for the answer alone")
    if "<Answer>" in prompt:
        out = {lab: f"<Answer>{w}</Answer>" for lab, w in words.items()}
    elif quoted:
        out = {lab: f'"{w}"' for lab, w in words.items()}
    else:
        out = {lab: str(w) for lab, w in words.items()}
    if len(set(out.values())) != len(out):
        raise ConfigError(f"{where}: two labels share the continuation ({out!r}); log-likelihood cannot tell them apart")
    return out
