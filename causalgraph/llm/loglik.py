"""Scoring closed-label answers by log-likelihood: the request, the result, and the choice rules.

Under ``bench run --method loglik`` no text is generated.  For each item the
runner sends a :class:`LoglikRequest` — the chat messages and one
continuation per label (``Yes`` / ``No``, ``<Answer>start</Answer>`` …, as the
variant's prompt asks for the answer) — and the backend returns, per
continuation, the sum of its tokens' log-probabilities given the context
(:class:`ChoiceScores`).  The context is the prompt through the model's chat
template with the assistant turn opened, tokenized alone; each continuation
is tokenized alone without special tokens, and the two token lists are
concatenated (the lm-evaluation-harness convention for ``multiple_choice``
tasks).

Two rules pick the label (:func:`choose`): ``acc`` takes the highest summed
log-probability, ``acc_norm`` the highest log-probability per byte of the
continuation (lm-evaluation-harness's ``acc_norm``).  :func:`normalized_probs`
turns the summed log-probabilities into probabilities over the choices (a
softmax), which calibration reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ..errors import BackendError, ConfigError
from .base import Completion, Request

__all__ = ["LoglikRequest", "ChoiceScores", "normalized_probs", "choose", "record_fields", "RULES", "LOGLIK_FINISH",
           "MOCK_FLOOR"]

#: The choice rules, in the order ``metrics.json`` reports them.
RULES = ("acc", "acc_norm")
#: ``finish_reason`` of a cached scoring result (so a cache entry says what it holds).
LOGLIK_FINISH = "loglik"
#: The log-probability the mocks give a label they put no mass on (finite, so JSON can hold it;
#: exp(-1000) is 0 in floating point).
MOCK_FLOOR = -1000.0


@dataclass(frozen=True)
class LoglikRequest:
    """One item to score: its chat request and the continuation of each label.

    Attributes
    ----------
    request
        The chat request (messages and ``meta``; generation parameters unused).
    labels
        Canonical labels, in the task's order.
    continuations
        The text scored for each label (same order).
    """

    request: Request
    labels: tuple[str, ...]
    continuations: tuple[str, ...]

    def __post_init__(self):
        if len(self.labels) != len(self.continuations) or len(self.labels) < 2:
            raise ConfigError(f"loglik request: {len(self.labels)} labels and {len(self.continuations)} "
                              "continuations; expected the same number, at least two")
        if any(not c for c in self.continuations):
            raise ConfigError(f"loglik request: an empty continuation among {list(self.continuations)!r}")


@dataclass
class ChoiceScores:
    """What a backend returns for one :class:`LoglikRequest`.

    Attributes
    ----------
    logprobs
        Summed log-probability of each continuation (the request's order).
    token_counts
        Tokens of each continuation.
    prompt_tokens
        Tokens of the context.
    latency_s
        Seconds the scoring took.
    model
        The model name the backend reports.
    raw
        Anything else worth keeping (per-token log-probabilities …).

    Examples
    --------
    >>> s = ChoiceScores(logprobs=(-0.1, -2.5), token_counts=(1, 1), prompt_tokens=12)
    >>> ChoiceScores.from_completion(s.to_completion()).logprobs
    (-0.1, -2.5)
    """

    logprobs: tuple[float, ...]
    token_counts: tuple[int, ...]
    prompt_tokens: Optional[int] = None
    latency_s: float = 0.0
    model: Optional[str] = None
    raw: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        self.logprobs = tuple(float(x) for x in self.logprobs)
        self.token_counts = tuple(int(x) for x in self.token_counts)
        for x in self.logprobs:
            # NaN or +inf is a backend bug; -inf cannot be stored as JSON and would make every
            # normalisation degenerate, so a backend floors it instead.
            if not math.isfinite(x) or x > 1e-6:
                raise BackendError(f"log-probability {x!r} from the backend; expected a finite number <= 0")

    def to_completion(self) -> Completion:
        """The form the response cache stores (a :class:`Completion` with the scores in ``raw``)."""
        return Completion(text="", prompt_tokens=self.prompt_tokens, completion_tokens=0, latency_s=self.latency_s,
                          finish_reason=LOGLIK_FINISH, model=self.model,
                          raw={**self.raw, "logprobs": list(self.logprobs), "token_counts": list(self.token_counts)})

    @classmethod
    def from_completion(cls, c: Completion) -> "ChoiceScores":
        """Read back what :meth:`to_completion` stored."""
        raw = dict(c.raw or {})
        if c.finish_reason != LOGLIK_FINISH or "logprobs" not in raw:
            raise BackendError("cache entry holds a generated answer, not log-likelihood scores")
        lp, tc = raw.pop("logprobs"), raw.pop("token_counts", None) or []
        return cls(logprobs=tuple(lp), token_counts=tuple(tc), prompt_tokens=c.prompt_tokens,
                   latency_s=c.latency_s, model=c.model, raw=raw)


def normalized_probs(logprobs: Sequence[float]) -> list[float]:
    """Probabilities over the choices: ``exp(lp_i) / sum_j exp(lp_j)``, computed stably.

    Examples
    --------
    >>> [round(p, 4) for p in normalized_probs([math.log(0.3), math.log(0.1)])]
    [0.75, 0.25]
    """
    if not logprobs:
        return []
    top = max(logprobs)
    ex = [math.exp(x - top) for x in logprobs]
    total = math.fsum(ex)
    return [e / total for e in ex]


def choose(labels: Sequence[str], logprobs: Sequence[float], continuations: Sequence[str],
           rule: str = "acc") -> str:
    """The label a rule picks: ``acc`` the highest log-probability, ``acc_norm`` the highest per byte.

    Ties go to the first label in the task's order (deterministic).

    Examples
    --------
    >>> choose(["yes", "no"], [-3.0, -2.0], ["Yes", "No"])
    'no'
    >>> choose(["start", "none"], [-4.0, -3.0], ["<Answer>start</Answer>", "<Answer>none</Answer>"], "acc_norm")
    'none'
    """
    if rule == "acc":
        scores = list(logprobs)
    elif rule == "acc_norm":
        scores = [lp / len(c.encode("utf-8")) for lp, c in zip(logprobs, continuations)]
    else:
        raise ConfigError(f"unknown choice rule {rule!r}; expected one of {', '.join(RULES)}")
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return labels[best]


def record_fields(labels: Sequence[str], continuations: Sequence[str],
                  scores: ChoiceScores) -> dict[str, Mapping[str, Any]]:
    """The ``continuations``, ``logprobs`` and ``probs`` fields of a run record (label → value)."""
    if len(scores.logprobs) != len(labels):
        raise BackendError(f"the backend scored {len(scores.logprobs)} continuations, {len(labels)} were asked")
    probs = normalized_probs(scores.logprobs)
    return {"continuations": dict(zip(labels, continuations)),
            "logprobs": dict(zip(labels, scores.logprobs)),
            "probs": dict(zip(labels, probs))}
