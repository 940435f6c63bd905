"""The retry policy and the circuit breaker (causalgraph/bench/retry.py), without a run around them."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.bench.retry import (CircuitBreaker, ErrorKind, RetryPolicy, backoff_delay, call_with_retries,
                                     classify_error)
from causalgraph.errors import (BackendError, BackendProtocolError, BackendUnavailable, BackendUnreachable,
                                ConfigError, TransientBackendError)
from causalgraph.llm.base import Completion

# No waiting in these tests: a policy whose waits are zero seconds.
FAST = dict(base=0.0, cap=0.0)


class Script:
    """``send()`` for call_with_retries: raises or answers the scripted outcomes in turn, counting its calls."""

    def __init__(self, *outcomes):
        self.outcomes = list(outcomes)
        self.calls = 0

    def __call__(self):
        self.calls += 1
        outcome = self.outcomes.pop(0) if self.outcomes else "ok"

        async def attempt():
            if isinstance(outcome, BaseException):
                raise outcome
            return Completion(text=outcome)

        return attempt()


def call(script, policy=None, breaker=None, **kw):
    policy = policy or RetryPolicy(max_attempts=4, **FAST)
    breaker = breaker if breaker is not None else CircuitBreaker(limit=policy.max_connection_failures)
    return asyncio.run(call_with_retries(script, policy, breaker, **kw)), breaker


# -- backoff ---------------------------------------------------------------------------------------------------


@settings(max_examples=300)
@given(attempt=st.integers(1, 60), base=st.floats(0, 100), cap=st.floats(0, 3600), seed=st.integers(0, 2**32))
def test_backoff_never_waits_longer_than_the_cap_nor_the_doubling_base(attempt, base, cap, seed):
    delay = backoff_delay(attempt, base, cap, rng=random.Random(seed))
    assert 0.0 <= delay <= min(cap, base * 2 ** (attempt - 1))


@settings(max_examples=300)
@given(attempt=st.integers(1, 60), base=st.floats(0, 100), cap=st.floats(0, 3600),
       retry_after=st.floats(0.001, 10_000), seed=st.integers(0, 2**32))
def test_backoff_waits_at_least_the_retry_after_the_server_asked_for_up_to_the_cap(attempt, base, cap, retry_after,
                                                                                    seed):
    delay = backoff_delay(attempt, base, cap, retry_after, rng=random.Random(seed))
    # At least Retry-After (plus at most 10 % jitter, so clients do not return in lockstep), never above the cap.
    assert min(cap, retry_after) <= delay <= max(min(cap, retry_after * 1.1), min(cap, base * 2 ** (attempt - 1)))
    assert delay <= cap


def test_the_policy_of_a_run_config_carries_its_retry_fields():
    from causalgraph.bench.config import RunConfig

    cfg = RunConfig(task="t", variants=["v"], model="mock/oracle", max_attempts=3, retry_base=0.5, retry_cap=7.0,
                    request_timeout=9.0, max_connection_failures=2)
    assert RetryPolicy.from_config(cfg) == RetryPolicy(max_attempts=3, base=0.5, cap=7.0, timeout=9.0,
                                                       max_connection_failures=2)


def test_retry_after_decides_the_wait_between_two_attempts():
    waits = []

    class Breaker(CircuitBreaker):
        async def pause(self, delay):
            waits.append(delay)

    got, _ = call(Script(TransientBackendError("HTTP 429", retry_after=2.5, status=429), "yes"),
                  RetryPolicy(max_attempts=3, base=0.0, cap=60.0), Breaker(limit=5), rng=random.Random(0))
    assert got.completion.text == "yes" and got.attempts == 2
    assert len(waits) == 1 and 2.5 <= waits[0] <= 2.75


# -- classification --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("exc, kind", [
    (BackendUnreachable("refused", endpoint="h:1"), ErrorKind.UNREACHABLE),
    (BackendProtocolError("HTML page"), ErrorKind.UNREACHABLE),
    (TransientBackendError("HTTP 503", status=503), ErrorKind.TRANSIENT),
    (asyncio.TimeoutError(), ErrorKind.TRANSIENT),
    (BackendUnavailable("bad key"), ErrorKind.REFUSED),
    (BackendError("HTTP 400"), ErrorKind.PERMANENT),
    (KeyError("bug"), ErrorKind.BUG),
    (ConfigError("unsupported parameter"), ErrorKind.FATAL),
    (asyncio.CancelledError(), ErrorKind.FATAL),
])
def test_classify_error_sorts_each_failure_into_its_kind(exc, kind):
    assert classify_error(exc) is kind


class Judging:
    """A backend that classifies its own errors (inspect_ai's should_retry)."""

    def __init__(self, verdict):
        self.verdict = verdict

    def should_retry(self, exc):
        return self.verdict(exc)


def test_a_backend_may_retry_an_error_the_runner_would_give_up_on():
    backend = Judging(lambda exc: isinstance(exc, BackendError) and "overloaded" in str(exc))
    assert classify_error(BackendError("model overloaded"), backend) is ErrorKind.TRANSIENT
    assert classify_error(BackendError("bad request"), backend) is ErrorKind.PERMANENT  # False: stays permanent
    got, _ = call(Script(BackendError("model overloaded"), "yes"), backend=backend)
    assert (got.completion.text, got.attempts, got.error) == ("yes", 2, None)


def test_a_backend_may_give_up_on_an_error_the_runner_would_retry():
    backend = Judging(lambda exc: False if getattr(exc, "status", None) == 503 else None)
    script = Script(TransientBackendError("HTTP 503 context too long", status=503))
    got, _ = call(script, backend=backend)
    assert script.calls == 1 and got.attempts == 1
    assert got.error == "TransientBackendError: HTTP 503 context too long"  # a permanent error names no attempt


def test_a_backend_without_an_opinion_keeps_the_runners_classification():
    assert classify_error(TransientBackendError("x", status=500), Judging(lambda exc: None)) is ErrorKind.TRANSIENT


def test_a_backend_cannot_turn_a_cancel_or_a_config_error_into_a_retry():
    always = Judging(lambda exc: True)
    assert classify_error(asyncio.CancelledError(), always) is ErrorKind.FATAL
    assert classify_error(ConfigError("x"), always) is ErrorKind.FATAL
    with pytest.raises(ConfigError, match="unsupported"):
        call(Script(ConfigError("unsupported parameter")), backend=always)


# -- attempts --------------------------------------------------------------------------------------------------


def test_transient_failures_are_retried_up_to_max_attempts_and_the_last_one_is_recorded():
    script = Script(*[TransientBackendError(f"HTTP 500 #{n}", status=500) for n in range(1, 9)])
    sent = []
    got, _ = call(script, RetryPolicy(max_attempts=3, **FAST), on_attempt=lambda: sent.append(1))
    assert script.calls == 3 and len(sent) == 3 and got.completion is None
    assert got.error == "TransientBackendError: HTTP 500 #3 (attempt 3 of 3)" and got.attempts == 3


def test_a_timeout_is_retried_and_named_by_the_policy_timeout():
    class Slow:
        calls = 0

        def __call__(self):
            Slow.calls += 1
            return asyncio.sleep(5)

    got, _ = call(Slow(), RetryPolicy(max_attempts=2, timeout=0.01, **FAST))
    assert Slow.calls == 2 and got.error == "TimeoutError: timed out after 0.01 s (attempt 2 of 2)"


def test_a_permanent_error_is_not_retried():
    script = Script(BackendError("HTTP 400 bad request"), "never")
    got, _ = call(script)
    assert script.calls == 1 and got.error == "BackendError: HTTP 400 bad request" and got.attempts == 1


def test_an_unexpected_exception_is_the_items_error_not_the_end_of_the_run():
    got, _ = call(Script(KeyError("choices")))
    assert got.error == "KeyError: 'choices'" and got.completion is None


def test_a_refusal_is_the_items_error_and_stops_new_requests_but_not_those_in_flight():
    got, breaker = call(Script(BackendUnavailable("invalid key sk-abcdefghijklmnopqrstuv")),
                        secrets=["sk-abcdefghijklmnopqrstuv"])
    assert got.error.startswith("BackendUnavailable: invalid key") and got.attempts == 1
    assert not breaker.may_start() and not breaker.is_open
    assert breaker.refused == "invalid key [redacted]"


# -- circuit breaker -------------------------------------------------------------------------------------------


def test_the_breaker_opens_after_n_connection_failures_in_a_row_and_the_request_is_abandoned():
    script = Script(*[BackendUnreachable("connection refused", endpoint="127.0.0.1:9")] * 10)
    got, breaker = call(script, RetryPolicy(max_attempts=10, max_connection_failures=3, **FAST))
    assert script.calls == 3 and got.abandoned and got.error is None and got.completion is None
    assert breaker.is_open and breaker.count == 3 and breaker.endpoint == "127.0.0.1:9"
    assert breaker.last == "connection refused" and not breaker.protocol


def test_an_open_breaker_sends_nothing_more():
    breaker = CircuitBreaker(limit=1)
    breaker.failed_to_connect(BackendUnreachable("refused"), "refused")
    script = Script("yes")
    got, _ = call(script, breaker=breaker)
    assert script.calls == 0 and got.abandoned and not breaker.may_start()


def test_a_reply_in_another_protocol_counts_as_a_connection_failure_and_is_remembered_as_such():
    script = Script(*[BackendProtocolError("an HTML page", endpoint="h:80")] * 2)
    _, breaker = call(script, RetryPolicy(max_attempts=5, max_connection_failures=2, **FAST))
    assert breaker.is_open and breaker.protocol


def test_a_breaker_of_limit_zero_never_opens():
    script = Script(*[BackendUnreachable("refused")] * 4)
    got, breaker = call(script, RetryPolicy(max_attempts=4, max_connection_failures=0, **FAST))
    assert not got.abandoned and not breaker.is_open and breaker.count == 4
    assert got.error == "BackendUnreachable: refused (attempt 4 of 4)"


@pytest.mark.parametrize("answer, reset", [
    ("ok", True),
    (TransientBackendError("HTTP 503", status=503), True),   # an HTTP status: the server is there
    (BackendError("HTTP 400"), True),                         # an answer, with an error
    (TransientBackendError("read timeout"), False),           # no status: nothing is known
    (asyncio.TimeoutError(), False),
    (KeyError("bug"), False),
])
def test_what_resets_the_count_of_connection_failures_in_a_row(answer, reset):
    breaker = CircuitBreaker(limit=10)
    call(Script(BackendUnreachable("refused"), BackendUnreachable("refused")),
         RetryPolicy(max_attempts=2, **FAST), breaker)
    assert breaker.count == 2
    call(Script(answer), RetryPolicy(max_attempts=1, **FAST), breaker)
    assert breaker.count == (0 if reset else 2)


events = st.lists(st.sampled_from(["refused", "answered", "http-error", "timeout"]), max_size=40)


@settings(max_examples=200)
@given(events=events, limit=st.integers(1, 6))
def test_the_breaker_is_open_exactly_when_some_run_of_failures_in_a_row_reached_the_limit(events, limit):
    breaker, run, reached = CircuitBreaker(limit=limit), 0, False
    for event in events:
        if breaker.is_open:
            break
        if event == "refused":
            breaker.failed_to_connect(BackendUnreachable("refused", endpoint="h:1"), "refused")
            run += 1
        elif event in ("answered", "http-error"):
            breaker.reset()
            run = 0
        # a timeout leaves the count as it is
        reached = reached or run >= limit
    assert breaker.is_open == reached and breaker.count == run


def test_a_pause_ends_as_soon_as_the_breaker_opens():
    async def scenario():
        breaker = CircuitBreaker(limit=1)
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, breaker.failed_to_connect, BackendUnreachable("refused"), "refused")
        start = loop.time()
        await breaker.pause(30.0)
        return loop.time() - start

    assert asyncio.run(scenario()) < 5.0


# -- in a run --------------------------------------------------------------------------------------------------


def test_a_run_retries_what_its_backend_says_is_worth_retrying_and_records_the_rest(isolated_cache, tmp_path):
    from bench_helpers import YN_TASK, yn_items

    from causalgraph.bench.runner import run_benchmark
    from causalgraph.runlog.store import load_run
    from causalgraph.llm.base import Backend

    class Overloaded(Backend):
        """Fails each prompt's first attempt with an SDK error of its own; only "overloaded" is temporary."""

        provider = "overloaded"

        def __init__(self):
            super().__init__("m")
            self.seen = {}

        def should_retry(self, exc):
            return "overloaded" in str(exc)

        async def complete(self, request):
            prompt = request.messages[-1]["content"]
            self.seen[prompt] = self.seen.get(prompt, 0) + 1
            if self.seen[prompt] == 1:
                raise RuntimeError("overloaded" if "q000" in request.meta["item_id"] else "malformed")
            return Completion(text="<Answer>Yes</Answer>")

    backend = Overloaded()
    res = run_benchmark(YN_TASK, ["v_1"], "overloaded/m", items=yn_items(2, variants=("v_1",)), backend=backend,
                        out=tmp_path / "run", retry_base=0.0, retry_cap=0.0)
    lines = {r.item_id.rsplit("/", 1)[-1]: r for r in load_run(res.path).responses}
    assert (lines["q000"].attempts, lines["q000"].error, lines["q000"].label) == (2, None, "yes")
    assert (lines["q001"].attempts, lines["q001"].error) == (1, "RuntimeError: malformed")
    assert res.requests_sent == 3
