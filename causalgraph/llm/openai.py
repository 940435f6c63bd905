"""``openai/<model>``: chat completions through the ``openai`` package.

The same backend reaches any OpenAI-compatible server (vLLM, the llama.cpp
server, Ollama) through ``base_url`` (option, ``--base-url`` or
``OPENAI_BASE_URL``).  The key comes from ``OPENAI_API_KEY`` (or the
``api_key`` option); it is sent to the server and nowhere else: not into
the cache key, the manifest, the responses or an error message.

The client's own retries are switched off (``max_retries=0``): the runner
retries, with backoff, jitter, ``Retry-After`` and a bound on attempts,
the same way for every backend.
"""

from __future__ import annotations

import asyncio
import email.utils
import os
import time
from typing import Any, Optional

from ..errors import BackendError, BackendUnavailable, BackendUnreachable, ConfigError, TransientBackendError
from .base import Backend, Completion, Request, is_secret_option, public_url, redact, url_secrets

__all__ = ["OpenAIBackend", "OPENAI_URL", "retry_after_seconds", "make_client", "completion_from_body"]

OPENAI_URL = "https://api.openai.com/v1"


def retry_after_seconds(headers: Any) -> Optional[float]:
    """Seconds to wait from ``Retry-After`` / ``retry-after-ms`` headers (seconds or an HTTP date).

    Examples
    --------
    >>> retry_after_seconds({"retry-after": "3"})
    3.0
    >>> retry_after_seconds({"retry-after-ms": "250"})
    0.25
    >>> retry_after_seconds({}) is None
    True
    """
    if not headers:
        return None
    get = headers.get
    ms = get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    ra = get("retry-after")
    if ra is None:
        return None
    try:
        return max(0.0, float(ra))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(ra)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _api_key(options: dict[str, Any], base_url: Optional[str]) -> str:
    key = options.get("api_key") or os.environ.get("OPENAI_API_KEY")
    if key:
        return str(key)
    if base_url and base_url.rstrip("/") != OPENAI_URL:
        # Local OpenAI-compatible servers usually accept any key.
        return "not-needed"
    raise ConfigError("openai backend: no API key; set OPENAI_API_KEY (or point --base-url at an "
                      "OpenAI-compatible server that needs none)")


def _check_url(url: str) -> None:
    """Refuse a server URL no request could use, before a run writes anything (``url`` is public)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number in 0-65535)
    except ValueError as exc:
        raise ConfigError(f"base URL {url}: {exc}; expected http(s)://HOST[:PORT]/PATH, e.g. "
                          "http://127.0.0.1:8000/v1") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"base URL {url}: expected http(s)://HOST[:PORT]/PATH, e.g. http://127.0.0.1:8000/v1")


def _endpoint(url: str) -> str:
    """``host:port`` of a (public) URL, the port filled in from the scheme when the URL has none.

    Examples
    --------
    >>> _endpoint("http://127.0.0.1:8765/v1"), _endpoint("https://api.openai.com/v1")
    ('127.0.0.1:8765', 'api.openai.com:443')
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # an unparsable port: name the URL's host part as written
        return url.split("//", 1)[-1].split("/", 1)[0]
    host = parts.hostname or url
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def make_client(options: dict[str, Any], *, sync: bool = False):
    """An (Async)OpenAI client from backend options (``base_url``, ``api_key``, ``timeout``)."""
    import openai

    base_url = options.get("base_url") or os.environ.get("OPENAI_BASE_URL") or None
    key = _api_key(options, base_url)
    cls = openai.OpenAI if sync else openai.AsyncOpenAI
    return cls(api_key=key, base_url=base_url or OPENAI_URL, max_retries=0,
               timeout=float(options.get("timeout", 600.0)))


class OpenAIBackend(Backend):
    """Chat completions against OpenAI or an OpenAI-compatible server.

    Options
    -------
    base_url
        Server URL (default ``OPENAI_BASE_URL`` or OpenAI's).  A login in it
        (``http://user:KEY@host/v1``) is sent to that server only:
        :attr:`base_url`, the identity, manifests and messages hold the URL
        without it (:func:`~causalgraph.llm.base.public_url`).
    api_key
        Overrides ``OPENAI_API_KEY`` (prefer the variable: options are typed
        into shells and histories).
    timeout
        Seconds per request (default 600).
    max_tokens_param
        ``max_completion_tokens`` (default for OpenAI; reasoning models need
        it) or ``max_tokens`` (default for other servers).
    reasoning_effort, top_p …
        Any other option is sent as a request parameter and is part of the
        cache key.

    Examples
    --------
    >>> from causalgraph.llm import get_backend
    >>> b = get_backend("openai/gpt-5.1-2025-11-13", base_url="http://127.0.0.1:8080/v1")  # doctest: +SKIP
    """

    provider = "openai"
    secret_options = ("api_key",)
    # A strict json_schema response format (OpenAI, and OpenAI-compatible servers that read it).
    structured_output = True
    batch_client = "causalgraph.llm.openai_batch:OpenAIBatchClient"
    _CLIENT_OPTIONS = ("base_url", "api_key", "timeout", "max_tokens_param")

    def __init__(self, model: str, **options: Any):
        super().__init__(model, **options)
        base_url = options.get("base_url") or os.environ.get("OPENAI_BASE_URL") or None
        # The URL as given reaches the HTTP client only; everything that is stored or shown
        # (identity, cache key, manifest, messages) gets it without user info.
        self._url = (base_url or OPENAI_URL).rstrip("/")
        self.base_url = public_url(self._url)
        _check_url(self.base_url)
        self.endpoint = _endpoint(self.base_url)
        self._key = _api_key(options, base_url)
        self.billed = self.base_url == OPENAI_URL
        self.max_tokens_param = options.get("max_tokens_param") or (
            "max_completion_tokens" if self.billed else "max_tokens")
        if self.max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise ConfigError(f"openai option max_tokens_param={self.max_tokens_param!r}: expected max_tokens or "
                              "max_completion_tokens")
        self.extra_params = {k: v for k, v in sorted(options.items()) if k not in self._CLIENT_OPTIONS}
        named_like_secrets = [k for k in self.extra_params if is_secret_option(k)]
        if named_like_secrets:
            # Request parameters go into the cache key and the manifest: a credential must not.
            raise ConfigError(f"openai backend: option {', '.join(named_like_secrets)} looks like a credential; "
                              "the key comes from OPENAI_API_KEY (or api_key), and no other credential is sent")
        self._client = None
        self._client_loop = None

    def identity(self) -> dict[str, Any]:
        return {"provider": self.provider, "model": self.model, "base_url": self.base_url,
                "params": self.extra_params}

    def secrets(self) -> list[str]:
        """Strings an error message must never show: the key and any credential inside the URL."""
        key = [self._key] if self._key and self._key != "not-needed" else []
        return key + url_secrets(self._url)

    def new_client(self, *, sync: bool = False):
        """A new (Async)OpenAI client for this backend's server, with the URL as given (login included)."""
        return make_client({**self.options, "base_url": self._url}, sync=sync)

    def default_concurrency(self) -> int:
        return 16 if self.billed else 4

    def _get_client(self):
        # One client per event loop: its HTTP pool belongs to the loop that opened it, and a backend
        # object may serve several runs (each run_benchmark call, a notebook cell, has a loop of its own).
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client, self._client_loop = self.new_client(), loop
        return self._client

    def body(self, request: Request) -> dict[str, Any]:
        """The JSON body of the chat-completions request (also what a Batch line carries)."""
        body: dict[str, Any] = {"model": self.model, "messages": [dict(m) for m in request.messages]}
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.max_tokens is not None:
            body[self.max_tokens_param] = request.max_tokens
        if request.seed is not None:
            body["seed"] = request.seed
        if request.stop:
            body["stop"] = list(request.stop)
        body.update(self.extra_params)
        body.update(request.params)
        return body

    def _scrub(self, text: str) -> str:
        return redact(text, self.secrets())

    async def complete(self, request: Request) -> Completion:
        client = self._get_client()
        body = self.body(request)
        t0 = time.perf_counter()
        resp = await self._send(client.chat.completions.create, body)
        latency = time.perf_counter() - t0
        return completion_from_body(resp.model_dump(mode="json"), latency)

    async def _send(self, create, body: dict[str, Any]):
        """``await create(**body)``, with the client's errors as the runner's kinds (credentials scrubbed)."""
        import openai

        try:
            return await create(**body)
        except openai.APITimeoutError as exc:
            raise TransientBackendError(self._scrub(f"request timed out: {exc}")) from None
        except openai.APIConnectionError as exc:
            # Refused, reset, no route: nothing answered.  (APITimeoutError, a subclass, is caught above:
            # a slow server is there.)  Counted apart so that a run stops when the server is gone.
            raise BackendUnreachable(self._scrub(f"connection to {self.endpoint} failed: {exc}"),
                                     endpoint=self.endpoint) from None
        except openai.APIStatusError as exc:
            status = exc.status_code
            msg = self._scrub(f"HTTP {status}: {exc.message}")
            code = getattr(exc, "code", None)
            if status in (401, 403, 404) or code == "insufficient_quota":
                # A bad key, no access, an unknown model or an empty account: every request would fail.
                raise BackendUnavailable(msg) from None
            if status in (408, 409, 429) or status >= 500:
                headers = getattr(exc.response, "headers", None)
                raise TransientBackendError(msg, retry_after=retry_after_seconds(headers), status=status) from None
            raise BackendError(msg) from None
        except openai.OpenAIError as exc:
            raise BackendError(self._scrub(f"{type(exc).__name__}: {exc}")) from None

    async def aclose(self) -> None:
        if self._client is not None:
            if self._client_loop is asyncio.get_running_loop():
                await self._client.close()
            # else: its loop is gone, and its connections with it; there is nothing left to close
            self._client = self._client_loop = None


def completion_from_body(body: dict[str, Any], latency: float = 0.0) -> Completion:
    """A :class:`Completion` from a chat-completions response body (live or from a Batch output line)."""
    choices = body.get("choices") or []
    if not choices:
        raise BackendError(f"the server answered without choices: {str(body)[:200]}")
    choice = choices[0]
    msg = choice.get("message") or {}
    text = msg.get("content") or ""
    usage = body.get("usage") or {}
    return Completion(text=text, prompt_tokens=usage.get("prompt_tokens"),
                      completion_tokens=usage.get("completion_tokens"), latency_s=latency,
                      finish_reason=choice.get("finish_reason"), model=body.get("model"), raw=body)
