"""When to ask again: the retry policy of a run and the circuit breaker on connection failures.

A request that fails is classified (:func:`classify_error`, which a backend
may override through :meth:`~causalgraph.llm.base.Backend.should_retry`, as
inspect_ai's ``ModelAPI.should_retry`` does):

* ``unreachable`` — the server could not be reached (connection refused or
  reset, a reply that is not the backend's protocol): retried, and counted
  by the :class:`CircuitBreaker`, which opens after
  ``max_connection_failures`` of them in a row over all items;
* ``transient`` — HTTP 429 or 5xx, a timeout: retried;
* ``refused`` — the backend will refuse every request (bad key, no quota):
  this item's error, and the run asks nothing more;
* ``permanent`` — any other backend error: this item's error, not retried;
* ``bug`` — an exception no backend raises on purpose: recorded on the item
  rather than ending the run;
* ``fatal`` — a cancel or a parameter the backend cannot honour: raised.

An item whose attempts all failed is recorded with its error, unless it is
one of ``max_failed_items`` items in a row that failed with the same failure
class (:func:`failure_class`: an HTTP 500 after every retry, a plugin whose
``complete`` always raises): the breaker opens then too, since a backend that
fails every item alike would otherwise have every remaining item retried to
exhaustion, and the items of that streak stay pending.

Retried attempts wait :func:`backoff_delay` (exponential backoff with full
jitter, at least the server's ``Retry-After``, never more than the cap); the
wait ends early when the breaker opens, so a stopped run does not sit out
its retries.
"""

from __future__ import annotations

import asyncio
import enum
import random
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Optional, Sequence

from ..errors import (BackendError, BackendProtocolError, BackendUnavailable, BackendUnreachable, ConfigError,
                      TransientBackendError)
from ..llm.base import Completion, redact

__all__ = ["ErrorKind", "RetryPolicy", "CircuitBreaker", "Attempted", "backoff_delay", "classify_error",
           "call_with_retries", "failure_class"]


def backoff_delay(attempt: int, base: float, cap: float, retry_after: Optional[float] = None,
                  rng: Optional[random.Random] = None) -> float:
    """Seconds to wait before attempt ``attempt + 1``.

    Full jitter: ``uniform(0, min(cap, base * 2**(attempt-1)))``; when the
    server sent ``Retry-After`` the wait is at least that (plus up to 10 %
    jitter so that clients do not return in lockstep), capped at ``cap``.

    Examples
    --------
    >>> backoff_delay(3, base=1.0, cap=60.0, rng=random.Random(0)) <= 4.0
    True
    >>> 2.0 <= backoff_delay(1, base=1.0, cap=60.0, retry_after=2.0) <= 2.2
    True
    """
    rng = rng or random
    expo = min(cap, base * (2 ** max(0, attempt - 1)))
    delay = rng.uniform(0, expo)
    if retry_after is not None and retry_after > 0:
        delay = min(cap, max(delay, retry_after * (1 + 0.1 * rng.random())))
    return delay

class ErrorKind(enum.Enum):
    """What a failed attempt means for the item and for the run (see the module docstring)."""

    UNREACHABLE = "unreachable"
    TRANSIENT = "transient"
    REFUSED = "refused"
    PERMANENT = "permanent"
    BUG = "bug"
    FATAL = "fatal"

    @property
    def retried(self) -> bool:
        """Whether another attempt is made (while attempts are left)."""
        return self in (ErrorKind.UNREACHABLE, ErrorKind.TRANSIENT)


def classify_error(exc: BaseException, backend: Any = None) -> ErrorKind:
    """The :class:`ErrorKind` of an exception an attempt raised.

    ``backend`` (optional) may overrule the classification through its
    ``should_retry(exc)``: ``True`` retries what would not be retried (a
    provider error its SDK knows to be temporary), ``False`` gives up on what
    would be (an error its server will repeat); ``None`` keeps the default.
    A cancel and a :class:`~causalgraph.errors.ConfigError` are never
    overruled: they end the run.

    Examples
    --------
    >>> from causalgraph.errors import TransientBackendError
    >>> classify_error(TransientBackendError("HTTP 503", status=503)).value
    'transient'
    >>> classify_error(KeyError("x")).value
    'bug'
    """
    # The order matters: BackendUnreachable is a TransientBackendError, both are BackendErrors.
    if isinstance(exc, (asyncio.CancelledError, ConfigError)):
        return ErrorKind.FATAL
    if isinstance(exc, BackendUnreachable):
        kind = ErrorKind.UNREACHABLE
    elif isinstance(exc, (TransientBackendError, asyncio.TimeoutError)):
        kind = ErrorKind.TRANSIENT
    elif isinstance(exc, BackendUnavailable):
        kind = ErrorKind.REFUSED
    elif isinstance(exc, BackendError):
        kind = ErrorKind.PERMANENT
    else:
        kind = ErrorKind.BUG
    verdict = getattr(backend, "should_retry", None)
    verdict = verdict(exc) if callable(verdict) else None
    if verdict is True and not kind.retried:
        return ErrorKind.TRANSIENT
    if verdict is False and kind.retried:
        return ErrorKind.PERMANENT
    return kind


def failure_class(exc: BaseException, kind: ErrorKind) -> str:
    """What two failed items must share to count as the same failure: the error's type, its HTTP status.

    Examples
    --------
    >>> from causalgraph.errors import TransientBackendError
    >>> failure_class(TransientBackendError("HTTP 500: boom", status=500), ErrorKind.TRANSIENT)
    'HTTP 500 (TransientBackendError)'
    >>> failure_class(RuntimeError("x"), ErrorKind.BUG)
    'RuntimeError'
    """
    if isinstance(exc, asyncio.TimeoutError):
        return "timeouts"
    status = getattr(exc, "status", None)
    return f"HTTP {status} ({type(exc).__name__})" if status is not None else type(exc).__name__


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long a run retries one request.

    Attributes
    ----------
    max_attempts
        Attempts per request, the first included.
    base, cap
        Backoff: attempt *n* waits ``uniform(0, min(cap, base·2^(n-1)))``
        seconds, at least the server's ``Retry-After``, at most ``cap``.
    timeout
        Seconds before an attempt counts as timed out (``None`` or 0: no limit).
    max_connection_failures
        Connection failures in a row, over all requests, after which the
        :class:`CircuitBreaker` opens (0: never).

    Examples
    --------
    >>> policy = RetryPolicy(max_attempts=3, base=1.0, cap=4.0)
    >>> 0.0 <= policy.delay(10) <= 4.0
    True
    """

    max_attempts: int = 6
    base: float = 1.0
    cap: float = 60.0
    timeout: Optional[float] = 600.0
    max_connection_failures: int = 5

    @classmethod
    def from_config(cls, config: Any) -> "RetryPolicy":
        """The policy of a :class:`~causalgraph.bench.config.RunConfig` (its retry fields)."""
        return cls(max_attempts=config.max_attempts, base=config.retry_base, cap=config.retry_cap,
                   timeout=config.request_timeout, max_connection_failures=config.max_connection_failures)

    def delay(self, attempt: int, retry_after: Optional[float] = None, rng: Optional[random.Random] = None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (:func:`backoff_delay` with this policy's base and cap)."""
        return backoff_delay(attempt, self.base, self.cap, retry_after, rng)

    def message(self, exc: BaseException, kind: ErrorKind, attempt: int) -> str:
        """The error an item's line records for a failed attempt (retried kinds name the attempt)."""
        if not kind.retried:
            return f"{type(exc).__name__}: {exc}"
        # A timeout raised by asyncio has no message of its own; a connection failure always has one.
        text = str(exc) if kind is ErrorKind.UNREACHABLE else (str(exc) or f"timed out after {self.timeout} s")
        return f"{type(exc).__name__}: {text} (attempt {attempt} of {self.max_attempts})"


@dataclass
class CircuitBreaker:
    """The state a run shares over all its requests: connection failures in a row, failed items in a row
    (:meth:`item_failed`), and a refusal.

    ``max_connection_failures`` failures to reach the server in a row open
    the breaker: the server is gone, and retrying every remaining item to
    exhaustion would only take time.  Any answer from the server (an HTTP
    error included) resets the count; a timeout leaves it as it is.  Once
    open, requests in flight leave off without a line (their items stay
    pending for the next invocation) and waits end at once.

    A refusal (:class:`~causalgraph.errors.BackendUnavailable`: bad key, no
    quota) does not stop requests in flight, whose own refusal is their
    line; it stops new ones from starting.

    Examples
    --------
    >>> from causalgraph.errors import BackendUnreachable
    >>> breaker = CircuitBreaker(limit=2)
    >>> breaker.failed_to_connect(BackendUnreachable("refused", endpoint="h:1"), "refused")
    False
    >>> breaker.failed_to_connect(BackendUnreachable("refused", endpoint="h:1"), "refused")
    True
    >>> breaker.is_open, breaker.endpoint
    (True, 'h:1')
    """

    limit: int
    #: Connection failures in a row.
    count: int = 0
    #: ``host:port`` of the last failure that named one.
    endpoint: Optional[str] = None
    #: The last failure's message (credentials redacted).
    last: str = ""
    #: Whether the last failure was a reply in another protocol (an HTML page) rather than no reply.
    protocol: bool = False
    #: The first refusal's message (credentials redacted), or ``None``.
    refused: Optional[str] = None
    #: Items in a row whose attempts all failed with the same :func:`failure_class` that open it (0: never).
    item_limit: int = 0
    #: Those items so far, their failure class and the last one's error.
    failed_items: int = 0
    failure: Optional[str] = None
    failure_last: str = ""
    #: Whether failed items (rather than connection failures) opened it.
    failing: bool = False
    _open: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def is_open(self) -> bool:
        """Whether the run stopped: connection failures in a row, or failed items in a row (:attr:`failing`)."""
        return self._open.is_set()

    def may_start(self) -> bool:
        """Whether a new request may be sent (neither open nor refused)."""
        return self.refused is None and not self.is_open

    def reset(self) -> None:
        """The server answered (an answer or an HTTP error): the failures are no longer in a row."""
        self.count = 0

    def failed_to_connect(self, exc: BackendUnreachable, message: str) -> bool:
        """Count a connection failure; ``True`` when it opens the breaker."""
        self.count += 1
        self.protocol = isinstance(exc, BackendProtocolError)
        self.endpoint = exc.endpoint or self.endpoint
        self.last = message
        if self.limit and self.count >= self.limit:
            self._open.set()
            return True
        return False

    def item_answered(self) -> None:
        """An item got an answer: failed items are no longer in a row."""
        self.failed_items, self.failure = 0, None

    def item_failed(self, failure: str, message: str, endpoint: Optional[str] = None) -> bool:
        """Count an item whose attempts all failed with ``failure`` (:func:`failure_class`); ``True`` when it
        opens the breaker.  A failure of another class starts the count again.

        Examples
        --------
        >>> b = CircuitBreaker(limit=5, item_limit=2)
        >>> b.item_failed("HTTP 500 (TransientBackendError)", "HTTP 500"), b.item_failed("RuntimeError", "boom")
        (False, False)
        >>> b.item_failed("RuntimeError", "boom"), b.is_open, b.failing
        (True, True, True)
        """
        if failure != self.failure:
            self.failed_items, self.failure = 0, failure
        self.failed_items += 1
        self.failure_last = message
        self.endpoint = endpoint or self.endpoint
        if self.item_limit and self.failed_items >= self.item_limit and not self.is_open:
            self.failing = True
            self._open.set()
            return True
        return False

    def refuse(self, message: str) -> None:
        """Record a refusal (only the first is kept)."""
        if self.refused is None:
            self.refused = message

    async def pause(self, delay: float) -> None:
        """Wait ``delay`` seconds, or less when the breaker opens meanwhile."""
        try:
            await asyncio.wait_for(self._open.wait(), delay)
        except asyncio.TimeoutError:
            pass


@dataclass(frozen=True)
class Attempted:
    """What the attempts at one request came to.

    ``abandoned``: the breaker opened meanwhile; the request has no line and
    its items stay pending.  Else exactly one of ``completion`` and
    ``error`` is set, and ``attempts`` counts the attempts made;
    ``failure`` is the :func:`failure_class` of the last error.
    """

    completion: Optional[Completion]
    error: Optional[str]
    attempts: int
    abandoned: bool = False
    failure: Optional[str] = None


async def call_with_retries(send: Callable[[], Awaitable[Completion]], policy: RetryPolicy, breaker: CircuitBreaker,
                            *, backend: Any = None, secrets: Sequence[str] = (),
                            rng: Optional[random.Random] = None,
                            on_attempt: Optional[Callable[[], None]] = None) -> Attempted:
    """Call ``send()`` until it answers, fails for good, or runs out of attempts.

    Parameters
    ----------
    send
        Makes one attempt (a new coroutine each call).
    policy, breaker
        The run's :class:`RetryPolicy` and shared :class:`CircuitBreaker`.
    backend
        Asked to classify its own errors (:func:`classify_error`).
    secrets
        Credential values scrubbed from what the breaker keeps.
    rng
        Jitter of the waits.
    on_attempt
        Called before every attempt (the run counts requests sent).

    Raises
    ------
    asyncio.CancelledError, ConfigError
        Re-raised: they end the run (what is written stays; the run resumes).

    Examples
    --------
    >>> async def answer():
    ...     return Completion(text="yes")
    >>> got = asyncio.run(call_with_retries(answer, RetryPolicy(), CircuitBreaker(limit=5)))
    >>> got.completion.text, got.attempts
    ('yes', 1)
    """
    error: Optional[str] = None
    failure: Optional[str] = None
    attempt = 0
    while attempt < policy.max_attempts:
        if breaker.is_open:
            return Attempted(None, None, attempt, abandoned=True)  # the server is gone: the item stays pending
        attempt += 1
        if on_attempt is not None:
            on_attempt()
        try:
            completion = await (asyncio.wait_for(send(), policy.timeout) if policy.timeout else send())
        except Exception as exc:  # (a cancel is a BaseException: it passes through)
            kind = classify_error(exc, backend)
            if kind is ErrorKind.FATAL:
                # A parameter the backend cannot honour fails every item alike: the run stops with that error.
                raise
            error = policy.message(exc, kind, attempt)
            failure = failure_class(exc, kind)
            if kind is ErrorKind.UNREACHABLE:
                if breaker.is_open:
                    return Attempted(None, None, attempt, abandoned=True)
                if breaker.failed_to_connect(exc, redact(str(exc), secrets)):
                    return Attempted(None, None, attempt, abandoned=True)
            elif kind is ErrorKind.REFUSED:
                breaker.refuse(redact(str(exc), secrets))
            elif _server_answered(exc, kind):
                breaker.reset()
            if not kind.retried:
                return Attempted(None, error, attempt, failure=failure)
            if attempt < policy.max_attempts:
                await breaker.pause(policy.delay(attempt, getattr(exc, "retry_after", None), rng))
        else:
            breaker.reset()
            return Attempted(completion, None, attempt)
    return Attempted(None, error, attempt, failure=failure)


def _server_answered(exc: BaseException, kind: ErrorKind) -> bool:
    # An HTTP status, or a backend error that is not a failure to connect: the server is there.
    if kind is ErrorKind.TRANSIENT:
        return getattr(exc, "status", None) is not None
    return kind is ErrorKind.PERMANENT and isinstance(exc, BackendError) and not isinstance(exc, BackendUnreachable)
