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

from ..errors import (BackendError, BackendProtocolError, BackendUnavailable, BackendUnreachable, ConfigError,
                      TransientBackendError)
from .choice_logprobs import DEFAULT_TOP_LOGPROBS
from .base import (Backend, Completion, Request, is_secret_option, option_secrets, public_url, redact,
                   redact_options, url_secrets)

__all__ = ["OpenAIBackend", "OPENAI_URL", "retry_after_seconds", "make_client", "completion_from_body", "split_query",
           "protocol_reply"]

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
    url, query = split_query(base_url or OPENAI_URL)
    extra: dict[str, Any] = {}
    if query:
        extra["default_query"] = query
    headers = _headers(options)
    if headers:
        # Sent with every request, live or Batch, and never part of a request body (which a Batch
        # input file would write to disk).
        extra["default_headers"] = headers
    return cls(api_key=key, base_url=url, max_retries=0, timeout=float(options.get("timeout", 600.0)), **extra)


def _headers(options: dict[str, Any]) -> dict[str, str]:
    """The ``extra_headers`` option checked: a JSON object of header names to text."""
    headers = options.get("extra_headers")
    if headers is None:
        return {}
    if not isinstance(headers, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
        # The value is not shown: it may hold a key in a shape no rule recognises (a JSON typo).
        found = (f"a {type(headers).__name__}" if not isinstance(headers, dict)
                 else "an object whose names or values are not all text")
        raise ConfigError(f"openai option extra_headers: found {found}; expected a JSON object of header names to "
                          'text, e.g. extra_headers={"X-Request-Source": "causalgraph"}')
    return dict(headers)


def split_query(url: str) -> tuple[str, dict[str, str]]:
    """``(url without its query, the query's parameters)``.

    The openai client joins the path of each endpoint to the base URL as text, so a query left in
    the base URL would end up inside the path (``/v1/?api-key=…chat/completions``); it is sent as
    the client's ``default_query`` instead, on every request.

    Examples
    --------
    >>> split_query("http://127.0.0.1:8000/v1?api-key=abc&x=1")
    ('http://127.0.0.1:8000/v1', {'api-key': 'abc', 'x': '1'})
    >>> split_query("http://127.0.0.1:8000/v1")
    ('http://127.0.0.1:8000/v1', {})
    """
    from urllib.parse import parse_qsl, urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.query:
        return url, {}
    return (urlunsplit(parts._replace(query="", fragment="")),
            dict(parse_qsl(parts.query, keep_blank_values=True)))


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
    top_logprobs
        Alternatives per generated token asked for under ``--method choice-logprobs``
        (default 20, OpenAI's largest); sent only by that method.
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
    # Chat replies carry logprobs/top_logprobs (OpenAI, vllm serve, the llama.cpp server).
    choice_logprobs = True
    _CLIENT_OPTIONS = ("base_url", "api_key", "timeout", "max_tokens_param", "extra_headers", "top_logprobs")

    def __init__(self, model: str, **options: Any):
        # Fail before any item is asked, with the install hint (get_backend), when the SDK is missing:
        # otherwise every item would record the same ModuleNotFoundError.
        import openai  # noqa: F401

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
        self.headers = _headers(options)
        named_like_secrets = [k for k in self.extra_params if is_secret_option(k)]
        if named_like_secrets:
            # Request parameters go into the cache key and the manifest: a credential must not.
            raise ConfigError(f"openai backend: option {', '.join(named_like_secrets)} looks like a credential; "
                              "the key comes from OPENAI_API_KEY (or api_key), and no other credential is sent")
        self._client = None
        self._client_loop = None

    def top_logprobs(self) -> int:
        """``top_logprobs`` of a choice-logprobs request: the ``top_logprobs`` option, else 20 (OpenAI's largest;
        vLLM's default ``--max-logprobs``; the llama.cpp server takes more)."""
        k = self.options.get("top_logprobs", DEFAULT_TOP_LOGPROBS)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigError(f"openai option top_logprobs={k!r}: expected an integer >= 1")
        return k

    def identity(self) -> dict[str, Any]:
        # Headers are sent (extra_headers) but a credential among them is never written down.
        ident = {"provider": self.provider, "model": self.model, "base_url": self.base_url,
                 "params": redact_options(self.extra_params)}
        if self.headers:
            ident["headers"] = redact_options({"extra_headers": self.headers})["extra_headers"]
        return ident

    def secrets(self) -> list[str]:
        """Strings an error message must never show: the key and any credential inside the URL."""
        key = [self._key] if self._key and self._key != "not-needed" else []
        return key + url_secrets(self._url) + option_secrets({**self.extra_params, "extra_headers": self.headers})

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
        raw = await self._send(client.chat.completions.with_raw_response.create, body)
        latency = time.perf_counter() - t0
        resp = protocol_reply(raw, self.endpoint, "chat completion", scrub=self._scrub)
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


def protocol_reply(raw: Any, endpoint: Optional[str], what: str, *, scrub=lambda text: text) -> Any:
    """The parsed object of an openai ``with_raw_response`` reply, or :class:`BackendProtocolError`.

    A server that answers 200 with an HTML page (a proxy's login page, a base URL naming a web
    site) gives the SDK a plain string; the error names the status, the content type and the first
    80 characters of the reply, so that the user sees what answered.
    """
    status = getattr(raw, "status_code", None)
    headers = getattr(raw, "headers", None) or {}
    ctype = headers.get("content-type") or "no content type"
    obj = None
    if "json" in ctype.lower():
        try:
            obj = raw.parse()
        except Exception:  # a body that says JSON and is not: the same kind of reply
            obj = None
    if obj is None or isinstance(obj, (str, bytes)) or not hasattr(obj, "model_dump"):
        try:
            text = raw.text
        except Exception:
            text = ""
        head = " ".join(str(text).split())[:80]
        raise BackendProtocolError(scrub(f"{endpoint}: the reply to a {what} request is not the OpenAI API "
                                         f"(HTTP {status}, {ctype}): {head!r}"), endpoint=endpoint, status=status)
    return obj


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
