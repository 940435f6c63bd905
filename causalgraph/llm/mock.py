"""Deterministic backends for tests, examples and demos: ``mock/oracle``, ``mock/noisy``, ``mock/constant``, ``mock/flaky``.

They are registered like the real providers and go through the same
runner, cache and parser.

* ``mock/oracle`` answers the item's gold label in the variant's wording
  (``same`` for a positive correlation in a same/opposite variant); a gold
  set of events (structure tasks) as a list, one event a line (``none``
  when empty); for a task whose gold is not a label (extraction), the
  task's ``reference_answer`` verbatim.  Option
  ``style``: ``tag`` (``<Answer>same</Answer>``, default), ``plain``
  (``same``) or ``sentence`` (``The answer is: same.``).
* ``mock/noisy`` is a model that is wrong with probability ``flip``
  (option, default 0.3) per item, without randomness: it answers as the
  oracle, except that a drawn share ``flip`` of the items get a wrong
  answer (another label of the variant; ``none`` for a set; an unknown
  event for an empty set; for an item answered by a text, the task's
  ``wrong_answer`` — an annotation, an extraction — or an empty answer).
  Whether it errs is drawn from a hash of the item, the epoch of repeated
  sampling, the request's seed and temperature and the option ``salt``
  (default ``0``), so every epoch draws anew and a rerun draws the same.
  At temperature 0 it errs on the same items every time (a greedy model
  that is wrong on some items is still wrong on them); above 0 every
  temperature, seed and epoch draws anew.
* Graph-first items (a task with ``graph_first=GraphFirst(answers=…)``, :mod:`causalgraph.tasks.graph_first`): the
  oracle writes the gold graph before its answer; ``mock/noisy`` writes the perturbed graph
  (the gold graph less its first edge, reversed when it has one) with probability ``graph_flip``
  (option, default ``flip``), drawn apart from the answer's error.
* ``mock/constant`` answers ``text`` (option, default ``""``) to everything.
* ``mock/flaky`` fails by a per-item ``pattern`` (option, default ``"x."``):
  the n-th attempt at an item follows the n-th character — ``x`` HTTP 429
  with ``Retry-After`` (option ``retry_after``, default 0.01 s), ``s`` HTTP
  500, ``t`` a timeout, ``d`` a dropped connection, ``f`` a permanent error,
  ``u`` the backend refusing everything (a bad key: the run stops),
  ``.`` success (the oracle's answer, or ``text`` when given); attempts
  past the pattern succeed.  Deterministic whatever the order of requests.

Every mock takes ``latency`` (seconds to wait per request, default 0).

Under ``--method loglik`` (:meth:`Backend.score`) the oracle puts all the
mass on the gold label (log-probability 0, every other label
:data:`~causalgraph.llm.loglik.MOCK_FLOOR`), ``mock/noisy`` puts it on one
wrong label, drawn like its answers, with probability ``flip`` — at any
temperature, since scoring samples nothing — and ``mock/flaky`` fails by
its pattern before scoring like the oracle.  ``mock/constant`` scores
nothing (it declares no ``loglik``).
"""

from __future__ import annotations

import abc
import asyncio
import time
from typing import Any, Sequence

from ..errors import BackendError, BackendUnavailable, ConfigError, TransientBackendError
from .._core.wording import plural
from .base import Backend, Completion, Request, request_key
from .loglik import MOCK_FLOOR, ChoiceScores, LoglikRequest
from ..scoring.event_lists import format_event_list

__all__ = ["MockBackend", "OracleBackend", "NoisyBackend", "ConstantBackend", "FlakyBackend", "make_mock", "mock_names"]


def _count_words(text: str) -> int:
    return len(text.split())


class MockBackend(Backend):
    """Common part of the mocks: latency, token counts, request counter."""

    provider = "mock"
    identity_options = ("text", "style", "pattern")
    # A mock's answer is free text: '{"causal": true}' or 'true' must reach it as written.
    text_options = ("text",)

    @classmethod
    def for_model(cls, model: str) -> type[Backend]:
        try:
            return _MOCKS[model]
        except KeyError:
            raise ConfigError(f"unknown mock backend mock/{model}; expected one of "
                              f"mock/{', mock/'.join(sorted(_MOCKS))}") from None

    def __init__(self, model: str, *, latency: float = 0.0, **options: Any):
        super().__init__(model, latency=latency, **options)
        self.latency = float(latency)
        if self.latency < 0:
            raise ConfigError(f"mock option latency={latency!r}: expected a number of seconds >= 0")
        #: Number of calls to :meth:`complete` (what tests compare with requests_sent).
        self.calls = 0

    @abc.abstractmethod
    def answer(self, request: Request) -> str:
        """The text this mock answers to ``request``."""

    def check_request(self, request: Request) -> None:
        if request.params:
            raise ConfigError(f"{self.name} cannot honour request parameter {', '.join(sorted(request.params))}; "
                              "the mocks answer from the gold label or a fixed text")

    def choice(self, request: LoglikRequest) -> Any:
        """The label this mock puts all its mass on (``None``: spread evenly)."""
        return None

    async def score(self, request: LoglikRequest) -> ChoiceScores:
        if not self.loglik:
            return await super().score(request)
        self.check_request(request.request)
        self.calls += 1
        t0 = time.perf_counter()
        if self.latency:
            await asyncio.sleep(self.latency)
        pick = self.choice(request)
        lps = tuple(0.0 if lab == pick else MOCK_FLOOR for lab in request.labels) if pick in request.labels else \
            tuple(-float(len(request.labels)) for _ in request.labels)
        prompt = " ".join(m.get("content", "") for m in request.request.messages)
        return ChoiceScores(logprobs=lps, token_counts=tuple(_count_words(c) for c in request.continuations),
                            prompt_tokens=_count_words(prompt), latency_s=time.perf_counter() - t0, model=self.name,
                            raw={"mock": self.model})

    async def complete(self, request: Request) -> Completion:
        self.check_request(request)
        self.calls += 1
        t0 = time.perf_counter()
        if self.latency:
            await asyncio.sleep(self.latency)
        text = self.answer(request)
        prompt = " ".join(m.get("content", "") for m in request.messages)
        return Completion(text=text, prompt_tokens=_count_words(prompt), completion_tokens=_count_words(text),
                          latency_s=time.perf_counter() - t0, finish_reason="stop", model=self.name,
                          raw={"mock": self.model})


class OracleBackend(MockBackend):
    """Answers the gold label in the wording the variant asks for.

    The runner hands it the items before asking (:meth:`prepare`); it keeps
    each item's gold and answer word by item id and finds them again by the
    request's ``meta["item_id"]``, so no request carries gold.
    """

    accepted_options = ("latency", "style")
    loglik = True

    def __init__(self, model: str = "oracle", *, style: str = "tag", **options: Any):
        if style not in ("tag", "plain", "sentence"):
            raise ConfigError(f"mock/oracle option style={style!r}: expected tag, plain or sentence")
        super().__init__(model, style=style, **options)
        self.style = style
        self._gold: dict[str, tuple[Any, Any]] = {}
        #: Item id → the words of the variant's labels (what a wrong answer may say).
        self._words: dict[str, tuple[str, ...]] = {}
        #: Item id → the task's reference answer, for items whose gold is not a label (answered verbatim).
        self._texts: dict[str, str] = {}
        #: Item id → the task's wrong answer to such an item (``Pairs.wrong_answer``), for ``mock/noisy``.
        self._wrong_texts: dict[str, str] = {}
        #: Item id → (gold graph text, perturbed graph text) of a graph-first item (``GraphFirst.answers``).
        self._graphs: dict[str, tuple[str, str]] = {}

    def prepare(self, items: Sequence[Any], task: Any) -> None:
        words_of: dict[str, dict] = {}
        gf = getattr(task, "graph_first", None)
        graph_of = gf.answers if gf is not None else None
        # What a task scored by its own scorer says a perfect and a wrong model answer (label kinds have none).
        kind = getattr(task, "answers", None)
        reference_answer = getattr(kind, "reference_answer", None)
        wrong_answer = getattr(kind, "wrong_answer", None)
        for it in items:
            if graph_of is not None:
                # A variant that asks for the graph before the answer: the gold graph, and a perturbed one.
                graphs = graph_of(it)
                if graphs is not None:
                    self._graphs[it.id] = graphs
            word = None
            if isinstance(it.gold, (list, tuple)):
                # A set-valued gold (structure tasks): answered as a list, one event a line.
                self._gold[it.id] = (it.gold, format_event_list([str(x) for x in it.gold]))
                continue
            if it.gold is None and reference_answer is not None:
                ref = reference_answer(it)
                if ref is not None:
                    self._texts[it.id] = str(ref)
            if wrong_answer is not None and (it.id in self._texts or not getattr(task, "by_labels", True)):
                # A gold that is not a label (an annotation, an extraction): wrong is what the task says.
                self._wrong_texts[it.id] = str(wrong_answer(it))
            if it.gold is not None and task is not None:
                if it.variant not in words_of:
                    words_of[it.variant] = task.words(it.variant)
                word = words_of[it.variant].get(it.gold)
                self._words[it.id] = tuple(str(w) for w in words_of[it.variant].values())
            self._gold[it.id] = (it.gold, word)
        unknown = [it for it in items if it.gold is None and it.id not in self._texts]
        if unknown and not self._answers_any_item():
            # An empty answer would be recorded as the model's and scored as a parse failure: say it instead.
            first = unknown[0]
            text = (first.meta or {}).get("text")
            shown = f" ({' '.join(str(text).split())[:60]!r})" if text else ""
            raise ConfigError(f"mock/{self.model} knows no answer to {len(unknown)} of {plural(len(items), 'item')} "
                              f"(first: {first.id}{shown}): it answers from an item's gold or its task's reference "
                              f"answer, and these have neither (free text that is not a corpus statement); use "
                              f"mock/constant --model-option text=ANSWER to answer any text")

    def _answers_any_item(self) -> bool:
        """Whether this mock has an answer without an item's gold (a fixed ``text``); the oracle has none."""
        return False

    def _lookup(self, request: Request) -> tuple[Any, Any]:
        return self._gold.get(str(request.meta.get("item_id")), (None, None))

    def request_identity(self, request: Request) -> dict[str, Any]:
        # The oracle answers from the gold label, which the messages do not show: two
        # items with the same prompt and different gold must not share a cache entry.
        gold, word = self._lookup(request)
        text = self._texts.get(str(request.meta.get("item_id")))
        graph = self._graph_text(request, False)
        return {"answer_word": word, "gold": gold, **({"answer": text} if text is not None else {}),
                **({"graph": graph} if graph else {})}

    def answer(self, request: Request) -> str:
        return self._graph_text(request, False) + self._answer(request)

    def _graph_text(self, request: Request, wrong: bool) -> str:
        """The graph a graph-first item's answer starts with: the gold one, or the perturbed one when ``wrong``."""
        graphs = self._graphs.get(str(request.meta.get("item_id")))
        return "" if graphs is None else graphs[1 if wrong else 0]

    def _answer(self, request: Request) -> str:
        text = self._texts.get(str(request.meta.get("item_id")))
        if text is not None:
            return text  # the task's reference answer, written as the prompt asks (no tag around it)
        gold, word = self._lookup(request)
        if word is None:
            word = gold
        if word is None:
            return ""
        return self._styled(str(word))

    def choice(self, request: LoglikRequest) -> Any:
        return self._lookup(request.request)[0]

    def _styled(self, word: str) -> str:
        """``word`` as the option ``style`` writes an answer."""
        if self.style == "plain":
            return word
        if self.style == "sentence":
            return f"The answer is: {word}."
        return f"<Answer>{word}</Answer>"


class NoisyBackend(OracleBackend):
    """The oracle, wrong with probability ``flip`` per sample (deterministic; see the module docstring)."""

    accepted_options = ("latency", "style", "flip", "salt", "graph_flip")
    identity_options = ("style", "flip", "salt", "graph_flip")

    def __init__(self, model: str = "noisy", *, flip: Any = 0.3, salt: Any = "0", graph_flip: Any = None,
                 **options: Any):
        p = self._probability("flip", flip)
        g = p if graph_flip is None else self._probability("graph_flip", graph_flip)
        super().__init__(model, **options)
        self.options.update({"flip": p, "salt": str(salt)})  # the cache identity (identity_options)
        if graph_flip is not None:  # (written only when given, so other runs keep their cache keys)
            self.options["graph_flip"] = g
        self.flip, self.salt, self.graph_flip = p, str(salt), g

    @staticmethod
    def _probability(name: str, value: Any) -> float:
        try:
            p = float(value)
        except (TypeError, ValueError):
            p = float("nan")
        if not 0.0 <= p <= 1.0:
            raise ConfigError(f"mock/noisy option {name}={value!r}: expected a probability in [0, 1]")
        return p

    def _draw(self, request: Request, what: str) -> float:
        """A number in [0, 1) fixed by the item, the epoch, seed, temperature and salt."""
        import hashlib

        text = "|".join(str(x) for x in (self.salt, what, request.meta.get("item_id"), request.meta.get("epoch", 1),
                                         request.seed, request.temperature))
        return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") / 2.0 ** 64

    def _wrong(self, request: Request) -> Any:
        """``None`` when this request is answered right, else the draw that picks the wrong answer."""
        if self._draw(request, "flip") >= self.flip:
            return None
        return self._draw(request, "which")

    def request_identity(self, request: Request) -> dict[str, Any]:
        # Whether (and how) the item is answered wrong decides the answer: two items with the same prompt
        # and gold share a cache entry only when both are right, or wrong alike (the same wrong answer, which
        # under --method loglik is the same wrong label: one draw picks both).
        out = {**super().request_identity(request),
               "wrong": None if self._wrong(request) is None else self.answer(request)}
        if "graph" in out:  # a graph-first item: which graph it writes decides the answer too
            out["graph"] = self._graph_text(request, self._draw(request, "graph") < self.graph_flip)
        return out

    def answer(self, request: Request) -> str:
        # The graph is drawn apart from the answer (option graph_flip), so both "right answer, wrong graph"
        # and "wrong answer, right graph" occur.
        graph = self._graph_text(request, self._draw(request, "graph") < self.graph_flip)
        return graph + self._noisy_answer(request)

    def _noisy_answer(self, request: Request) -> str:
        right = self._answer(request)
        which = self._wrong(request)
        if which is None:
            return right
        item_id = str(request.meta.get("item_id"))
        if item_id in self._wrong_texts:
            # What the task says a wrong model answers (Pairs.wrong_answer), in the task's own format.
            return self._wrong_texts[item_id]
        if item_id in self._texts:
            return ""  # a text-answered task that says no wrong answer: nothing at all
        gold, word = self._lookup(request)
        if isinstance(gold, (list, tuple)):
            return self._styled("none" if gold else "an event the graph does not have")
        others = [w for w in self._words.get(item_id, ()) if w != str(word)]
        if not others:
            return ""  # no other label to say: an answer that names none (scored as wrong)
        return self._styled(others[int(which * len(others))])

    def choice(self, request: LoglikRequest) -> Any:
        gold = super().choice(request)
        if self._draw(request.request, "flip") >= self.flip:
            return gold
        others = [lab for lab in request.labels if lab != gold]
        return others[int(self._draw(request.request, "which") * len(others))] if others else gold


class ConstantBackend(MockBackend):
    """Answers the same text to every request."""

    accepted_options = ("latency", "text")

    def __init__(self, model: str = "constant", *, text: str = "", **options: Any):
        super().__init__(model, text=str(text), **options)
        self.text = str(text)

    def answer(self, request: Request) -> str:
        return self.text


class FlakyBackend(OracleBackend):
    """Fails on a per-item pattern of attempts, then answers like the oracle (or ``text``)."""

    accepted_options = ("latency", "pattern", "retry_after", "style", "text")

    def __init__(self, model: str = "flaky", *, pattern: str = "x.", retry_after: float = 0.01,
                 text: Any = None, **options: Any):
        bad = sorted(set(str(pattern)) - set("xstdfu."))
        if bad:
            raise ConfigError(f"mock/flaky option pattern={pattern!r}: unknown characters {bad}; "
                              "expected x s t d f u .")
        super().__init__(model, pattern=str(pattern), **options)
        if text is not None:
            self.options["text"] = str(text)
        self.pattern = str(pattern)
        self.retry_after = float(retry_after)
        self.text = None if text is None else str(text)
        self._attempts: dict[str, int] = {}

    def _answers_any_item(self) -> bool:
        return self.text is not None

    def answer(self, request: Request) -> str:
        return self.text if self.text is not None else super().answer(request)

    async def score(self, request: LoglikRequest) -> ChoiceScores:
        if await self._fail(request.request):
            return await super().score(request)
        raise AssertionError("unreachable")  # _fail raises for every step but success

    async def complete(self, request: Request) -> Completion:
        if await self._fail(request):
            return await super().complete(request)
        raise AssertionError("unreachable")

    async def _fail(self, request: Request) -> bool:
        """Raise this attempt's failure, or return True when the pattern says it succeeds."""
        key = request_key({"mock": "flaky"}, request)
        n = self._attempts.get(key, 0)
        self._attempts[key] = n + 1
        self.check_request(request)
        step = self.pattern[n] if n < len(self.pattern) else "."
        if step == ".":
            return True
        self.calls += 1
        if self.latency:
            await asyncio.sleep(self.latency)
        if step == "x":
            raise TransientBackendError("HTTP 429 Too Many Requests (mock/flaky)", retry_after=self.retry_after, status=429)
        if step == "s":
            raise TransientBackendError("HTTP 500 Internal Server Error (mock/flaky)", status=500)
        if step == "t":
            raise TransientBackendError("request timed out (mock/flaky)")
        if step == "d":
            raise TransientBackendError("connection dropped by the server (mock/flaky)")
        if step == "u":
            raise BackendUnavailable("HTTP 401 Unauthorized (mock/flaky: the backend refuses every request)")
        raise BackendError("HTTP 400 Bad Request (mock/flaky: a permanent error)")


_MOCKS = {"oracle": OracleBackend, "noisy": NoisyBackend, "constant": ConstantBackend, "flaky": FlakyBackend}
def make_mock(model: str, **options: Any) -> MockBackend:
    """Factory for ``mock/<name>`` (``oracle``, ``noisy``, ``constant``, ``flaky``).

    Examples
    --------
    >>> import asyncio
    >>> b = make_mock("constant", text="yes")
    >>> asyncio.run(b.complete(Request(messages=({"role": "user", "content": "Is it?"},)))).text
    'yes'
    """
    return MockBackend.create(model, **options)


def mock_names() -> list[str]:
    """The mock backends' names (``mock/<name>``), in the order they are documented.

    Examples
    --------
    >>> mock_names()
    ['oracle', 'noisy', 'constant', 'flaky']
    """
    return list(_MOCKS)
