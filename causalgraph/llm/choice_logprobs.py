"""Choice probabilities read from a chat model's generated-token log-probabilities (``--method choice-logprobs``).

A chat endpoint (OpenAI, ``vllm serve``, the llama.cpp server) returns no
log-probability of given text, but it does return, for each token it
generates, that token's log-probability and the ``top_logprobs`` likeliest
alternatives at that position.  That is enough to read the distribution over a
task's choices at the position where the answer is written, with the
authors' prompt unchanged:

1. The request is the item's chat request with ``logprobs: true``,
   ``top_logprobs`` the provider's largest (OpenAI: 20), temperature 0 and
   ``max_tokens`` from :func:`answer_max_tokens`.
2. The choices' continuations (``Yes`` / ``No``, ``<Answer>start</Answer>`` …)
   share a common prefix (often empty; ``<Answer>`` for the ECI ``_4``
   variants).  The generated tokens are walked while they spell that
   prefix; the token that runs past it is the *answer position*
   (:func:`read_choices`).  The generated text before it must equal the
   prefix: if the model wrote something else (``The answer is …``) the item
   *departed* and is scored by parsing its text, as ``--method generate``
   does, and its record says so.
3. At the answer position, each alternative token of ``top_logprobs`` is
   matched against the choices: it *reads* a choice when the text generated
   so far followed by the token is a beginning of that choice's
   continuation (and runs past the common prefix).  A choice's value is the
   log-probability of the likeliest token that reads it alone.  A choice
   that no returned token reads gets the smallest returned value (the k-th,
   an upper bound on its log-probability) and is counted as *bounded*; the
   record keeps how many choices were seen.
4. **Multi-token choices whose first distinguishing token is shared**
   (``<Answer>middle`` and ``<Answer>more`` when the tokenizer writes
   ``m`` first): a token that reads several choices is resolved only along
   the generated path.  When the generated token itself is shared, its
   log-probability is added to the group's and the group is read at the
   next generated position in the same way (recursively); a shared
   alternative that was not generated cannot be split between its choices,
   so its mass is left out (those choices keep the value of the tokens that
   read them alone, or the bound).  When the generated tokens end before the
   group is told apart, the item is scored by parsing (``unresolved``).
   When no choice at all is among the returned alternatives, every value
   would be the same bound: the item is scored by parsing (``unseen``).
5. The values are normalised over the choices (a softmax) into ``probs``.

Examples
--------
>>> toks = generated_tokens({"choices": [{"logprobs": {"content": [
...     {"token": "Yes", "logprob": -0.2, "top_logprobs": [{"token": "Yes", "logprob": -0.2},
...                                                          {"token": "No", "logprob": -1.8}]}]}}]})
>>> r = read_choices(toks, ["yes", "no"], ["Yes", "No"])
>>> r.mode, r.label, [round(p, 3) for p in r.probs]
('logprobs', 'yes', [0.832, 0.168])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ..errors import BackendError, ConfigError
from .loglik import choose, normalized_probs

__all__ = ["CHOICE_METHOD", "DEFAULT_TOP_LOGPROBS", "GeneratedToken", "ChoiceReading", "generated_tokens",
           "missing_logprobs", "read_choices", "answer_max_tokens", "choice_max_tokens", "common_prefix",
           "SCORING_MODES"]

#: The ``--method`` name, the ``method`` of its records and of its manifests.
CHOICE_METHOD = "choice-logprobs"
#: ``top_logprobs`` asked for when the backend names no other: OpenAI's largest (vLLM's default limit too).
DEFAULT_TOP_LOGPROBS = 20
#: A record's ``scoring``: read from the log-probabilities, or parsed from the text (the prefix departed …).
SCORING_MODES = ("logprobs", "parsed")


@dataclass(frozen=True)
class GeneratedToken:
    """One generated token: its bytes, its log-probability, and the returned alternatives at its position.

    Attributes
    ----------
    text
        The token's UTF-8 bytes (the reply's ``bytes`` when it gives them, else its ``token`` encoded).
    logprob
        Its log-probability (natural log).
    top
        ``(bytes, log-probability)`` of each returned alternative, in the reply's order.
    """

    text: bytes
    logprob: float
    top: tuple[tuple[bytes, float], ...]


@dataclass
class ChoiceReading:
    """What :func:`read_choices` found in one reply.

    Attributes
    ----------
    mode
        ``logprobs`` (the answer position was reached and read) or ``parsed``
        (it was not: the caller parses the text).
    reason
        For ``parsed``: ``departed`` (the generated text left the choices'
        common prefix), ``ended`` (the generation ended before the answer
        position) or ``unresolved`` (choices sharing the generated token were
        not told apart before it ended), ``unseen`` (no choice among the
        alternatives returned at the answer position).  ``None`` for ``logprobs``.
    label
        The choice with the highest value (ties: the first in the task's order); ``None`` for ``parsed``.
    logprobs, probs
        Per choice (the task's order): the value read (log-probability or bound) and its normalised probability.
    position
        Index of the generated token at the answer position (where the choices diverge), ``None`` when departed
        before it or never reached.
    seen
        Choices whose value was read from the returned alternatives (the others are bounded).
    bounded
        Labels given the bound (the smallest returned value at their position).
    top_k
        Alternatives returned at the answer position.
    note
        A short human-readable account (what departed, where).
    """

    mode: str
    reason: Optional[str] = None
    label: Optional[str] = None
    logprobs: Optional[list[float]] = None
    probs: Optional[list[float]] = None
    position: Optional[int] = None
    seen: int = 0
    bounded: list[str] = field(default_factory=list)
    top_k: Optional[int] = None
    note: Optional[str] = None

    def record_field(self) -> dict[str, Any]:
        """The ``choice_read`` object of a run record (what was read and how)."""
        out: dict[str, Any] = {"position": self.position, "choices_seen": self.seen, "bounded": list(self.bounded),
                               "top_k": self.top_k}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.note:
            out["note"] = self.note
        return out


def _float(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BackendError(f"{where}: log-probability {value!r:.40}, expected a number")
    x = float(value)
    if math.isnan(x) or x > 1e-6:
        raise BackendError(f"{where}: log-probability {x!r}, expected a number <= 0")
    # -inf (a token the server says is impossible) is floored so that JSON can hold it; exp() of it is 0 anyway.
    return max(x, -1e4)


def _token_bytes(entry: Mapping[str, Any], where: str) -> bytes:
    raw = entry.get("bytes")
    if isinstance(raw, list) and raw and all(isinstance(b, int) and 0 <= b < 256 for b in raw):
        return bytes(raw)
    tok = entry.get("token")
    if not isinstance(tok, str):
        raise BackendError(f"{where}: token {tok!r:.40}, expected text")
    return tok.encode("utf-8")


def missing_logprobs(raw: Mapping[str, Any]) -> Optional[str]:
    """What a chat-completions reply lacks for ``--method choice-logprobs`` (``None`` when nothing).

    Examples
    --------
    >>> missing_logprobs({"choices": [{"message": {"content": "Yes"}, "logprobs": None}]})
    'choices[0].logprobs (null)'
    >>> missing_logprobs({"choices": [{"logprobs": {"content": [{"token": "Yes", "logprob": -0.1}]}}]})
    'choices[0].logprobs.content[0].top_logprobs'
    """
    choices = raw.get("choices") if isinstance(raw, Mapping) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        return "choices"
    lp = choices[0].get("logprobs")
    if not isinstance(lp, Mapping):
        return "choices[0].logprobs (null)" if lp is None else "choices[0].logprobs (not an object)"
    content = lp.get("content")
    if not isinstance(content, list):
        return "choices[0].logprobs.content"
    for n, entry in enumerate(content):
        if not isinstance(entry, Mapping) or "logprob" not in entry:
            return f"choices[0].logprobs.content[{n}].logprob"
        if not isinstance(entry.get("top_logprobs"), list) or not entry["top_logprobs"]:
            return f"choices[0].logprobs.content[{n}].top_logprobs"
    return None


def generated_tokens(raw: Mapping[str, Any]) -> list[GeneratedToken]:
    """The generated tokens of a chat-completions reply in OpenAI's format (``choices[0].logprobs.content``).

    Raises
    ------
    BackendError
        When the reply holds no log-probabilities (:func:`missing_logprobs` names what is missing) or malformed ones.
    """
    what = missing_logprobs(raw)
    if what is not None:
        raise BackendError(f"the reply holds no {what}: the server returned no log-probabilities of the tokens it "
                           "generated")
    out = []
    for n, entry in enumerate(raw["choices"][0]["logprobs"]["content"]):
        where = f"choices[0].logprobs.content[{n}]"
        for t in entry["top_logprobs"]:
            # Not skipped: with none left, every choice would get the generated token's value as its bound.
            if not isinstance(t, Mapping):
                raise BackendError(f"{where}.top_logprobs: {t!r:.40}, expected an object with token and logprob")
        top = tuple((_token_bytes(t, f"{where}.top_logprobs"), _float(t.get("logprob"), f"{where}.top_logprobs"))
                    for t in entry["top_logprobs"])
        out.append(GeneratedToken(_token_bytes(entry, where), _float(entry.get("logprob"), where), top))
    return out


def common_prefix(texts: Sequence[bytes]) -> bytes:
    """The longest common beginning of byte strings.

    Examples
    --------
    >>> common_prefix([b"<Answer>start</Answer>", b"<Answer>stop</Answer>"])
    b'<Answer>st'
    """
    if not texts:
        return b""
    lo, hi = min(texts), max(texts)
    n = 0
    while n < len(lo) and lo[n] == hi[n]:
        n += 1
    return lo[:n]


def answer_max_tokens(continuations: Sequence[str]) -> int:
    """``max_tokens`` of a choice-logprobs request: the UTF-8 bytes of the longest continuation.

    Every token of a byte-level tokenizer spells at least one byte, so within
    that many tokens the model can write any choice in full: the common
    prefix, the answer position, and the tokens that tell apart choices
    sharing a first token.  (Fewer usually suffice: ``Yes`` is one token.)

    Examples
    --------
    >>> answer_max_tokens(["Yes", "No"]), answer_max_tokens(["<Answer>start</Answer>", "<Answer>none</Answer>"])
    (3, 22)
    """
    if not continuations:
        raise ConfigError("choice-logprobs: no continuations")
    return max(len(c.encode("utf-8")) for c in continuations)


def choice_max_tokens(continuations: Sequence[str], max_tokens: Optional[int] = None) -> int:
    """``max_tokens`` a choice-logprobs request carries: the run's ``--max-tokens`` when it sets one, else
    :func:`answer_max_tokens` of the choices.  The one rule the requests and the manifest both follow.

    Examples
    --------
    >>> choice_max_tokens(["Yes", "No"]), choice_max_tokens(["Yes", "No"], 16)
    (3, 16)
    """
    return max_tokens if max_tokens is not None else answer_max_tokens(continuations)


def _preview(b: bytes) -> str:
    return repr(b.decode("utf-8", errors="replace")[:40])


def read_choices(tokens: Sequence[GeneratedToken], labels: Sequence[str],
                 continuations: Sequence[str]) -> ChoiceReading:
    """The distribution over the choices at the answer position of a generated reply (module docstring, rules 2–5).

    Parameters
    ----------
    tokens
        The reply's generated tokens (:func:`generated_tokens`).
    labels, continuations
        The task's labels and the text of each (same order).

    Examples
    --------
    A prefix shared by the choices, then the answer position; ``middle`` is not among the returned alternatives
    and gets the bound (the smallest returned value):

    >>> def tok(t, lp, top): return GeneratedToken(t.encode(), lp, tuple((a.encode(), v) for a, v in top))
    >>> toks = [tok("<Answer>", -0.01, [("<Answer>", -0.01)]),
    ...         tok("start", -0.5, [("start", -0.5), ("end", -1.0), ("none", -3.0)])]
    >>> r = read_choices(toks, ["start", "middle", "end", "none"],
    ...                  ["<Answer>start</Answer>", "<Answer>middle</Answer>", "<Answer>end</Answer>",
    ...                   "<Answer>none</Answer>"])
    >>> r.mode, r.label, r.logprobs, r.bounded, r.seen
    ('logprobs', 'start', [-0.5, -3.0, -1.0, -3.0], ['middle'], 3)

    The model wrote something else before the answer:

    >>> read_choices([tok("The", -0.1, [("The", -0.1)])], ["yes", "no"], ["<A>Yes", "<A>No"]).reason
    'departed'
    """
    if len(labels) != len(continuations) or len(labels) < 2:
        raise ConfigError(f"choice-logprobs: {len(labels)} labels and {len(continuations)} continuations; expected "
                          "the same number, at least two")
    conts = [c.encode("utf-8") for c in continuations]
    if len(set(conts)) != len(conts):
        raise ConfigError(f"choice-logprobs: two choices have the same continuation among {list(continuations)!r}")
    values: dict[int, float] = {}
    bounded: list[int] = []
    live = list(range(len(conts)))
    generated = b""
    base = 0.0
    j = 0
    first: Optional[int] = None
    top_k: Optional[int] = None
    while True:
        prefix = common_prefix([conts[i] for i in live])
        # Tokens that stay within the live choices' common prefix carry no information about them.
        while j < len(tokens) and len(generated) < len(prefix):  # spelled in full: the next token is the position
            nxt = generated + tokens[j].text
            if len(nxt) <= len(prefix) and prefix.startswith(nxt):
                if first is not None:  # inside a group told apart along the generated path: part of its value
                    base += tokens[j].logprob
                generated, j = nxt, j + 1
                continue
            break
        if j >= len(tokens):
            if first is None:
                return ChoiceReading("parsed", "ended", seen=0,
                                     note=f"the reply ended after {_preview(generated)}, before the answer position")
            return ChoiceReading("parsed", "unresolved", position=first, seen=len(values), top_k=top_k,
                                 note="the reply ended before the choices "
                                      f"{', '.join(labels[i] for i in live)} (sharing a token) were told apart")
        tok = tokens[j]
        nxt = generated + tok.text
        if nxt[:len(prefix)] != prefix[:len(nxt)]:
            where = len(common_prefix([nxt, prefix]))
            return ChoiceReading("parsed", "departed", position=first, seen=len(values), top_k=top_k,
                                 note=f"the reply departs from the choices' common prefix {_preview(prefix)} at byte "
                                      f"{where}: {_preview(nxt)}")
        if first is None:
            first = j
            top_k = len(tok.top)
        alts = list(tok.top)
        if not any(t == tok.text for t, _ in alts):
            alts.append((tok.text, tok.logprob))  # the generated token is an alternative too
        # The bound: the smallest value returned (the k-th of top_logprobs); a token outside them is no likelier.
        floor = min(v for _, v in (tok.top or alts))
        best: dict[int, float] = {}
        shared_generated: Optional[list[int]] = None
        for text, lp in alts:
            cand = generated + text
            if len(cand) <= len(prefix):
                continue  # a token that ends inside the common prefix reads no choice
            reads = [i for i in live if conts[i].startswith(cand)]
            if len(reads) == 1:
                i = reads[0]
                best[i] = max(best.get(i, -math.inf), lp)
            elif len(reads) > 1 and text == tok.text:
                shared_generated = reads
        group = set(shared_generated or [])
        for i in live:
            if i in group:
                continue
            if i in best:
                values[i] = base + best[i]
            else:
                values[i] = base + floor
                bounded.append(i)
        if not group:
            break
        # The generated token reads several choices: they are told apart at the next generated position.
        live = sorted(group)
        base += tok.logprob
        generated = nxt
        j += 1
    if len(bounded) == len(conts):
        # Not one choice among the returned alternatives: every value would be the same bound, a tie that
        # says nothing about the choices (the model meant to write something else there).
        return ChoiceReading("parsed", "unseen", position=first, seen=0, bounded=[labels[i] for i in bounded],
                             top_k=top_k, note=f"none of the choices is among the {top_k} alternatives returned at "
                                              "the answer position")
    lps = [values[i] for i in range(len(conts))]
    # The acc rule of log-likelihood scoring (the highest value; ties to the first in the task's order).
    return ChoiceReading("logprobs", None, label=choose(labels, lps, continuations, "acc"), logprobs=lps,
                         probs=normalized_probs(lps), position=first, seen=len(conts) - len(bounded), bounded=[labels[i] for i in bounded],
                         top_k=top_k)
