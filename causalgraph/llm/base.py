"""The backend interface: a :class:`Request` goes in, a :class:`Completion` comes out.

Every backend (OpenAI, an OpenAI-compatible server, transformers, llama.cpp,
the deterministic mocks) implements one coroutine,
:meth:`Backend.complete`.  Retries, caching, concurrency and bookkeeping
live in the runner, not in the backends, so they behave the same for all.
"""

from __future__ import annotations

import abc
import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from ..errors import ConfigError

__all__ = ["Request", "Completion", "Backend", "canonical_json", "request_key", "is_secret_option", "redact",
           "public_url", "url_secrets", "is_secret_header", "looks_like_key", "redact_options", "option_secrets"]

_SECRET_WORDS = ("key", "secret", "password", "authorization", "credential")


def is_secret_option(name: str) -> bool:
    """True for an option named like a credential (``api_key``, ``hf_token``, ``password`` …).

    ``token`` counts only as a word of its own, so ``max_tokens_param`` and
    ``default_max_tokens`` (parameters, which the manifest must record) are
    not taken for secrets.

    Examples
    --------
    >>> [is_secret_option(k) for k in ("api_key", "hf_token", "max_tokens_param", "default_max_tokens")]
    [True, True, False, False]
    """
    import re

    low = name.lower()
    return any(w in low for w in _SECRET_WORDS) or re.search(r"(?<![a-z])token(?![a-z])", low.replace("_", " ")) is not None


#: Words that make an HTTP header a credential besides those of :func:`is_secret_option`.
_SECRET_HEADER_WORDS = ("cookie", "auth", "session", "signature", "subscription")
# Values with the shape of a key whatever they are called: OpenAI/Anthropic (sk-…), Hugging Face (hf_…),
# GitHub (ghp_…), Slack (xox…-), AWS access key ids, and a bearer or basic credential.
_KEY_SHAPED = (r"\bsk-[A-Za-z0-9_\-*]{6,}|\bhf_[A-Za-z0-9]{16,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bxox[abprs]-[A-Za-z0-9\-]{8,}"
               r"|\bAKIA[A-Z0-9]{16}\b")


def is_secret_header(name: str) -> bool:
    """True for an HTTP header that carries a credential (``Authorization``, ``api-key``, ``X-API-Key``, ``Cookie`` …).

    Examples
    --------
    >>> [is_secret_header(h) for h in ("Authorization", "api-key", "x-api-key", "Cookie", "X-Request-Id")]
    [True, True, True, True, False]
    """
    low = str(name).lower()
    return is_secret_option(low) or any(w in low for w in _SECRET_HEADER_WORDS)


def looks_like_key(value: str, *, strict: bool = False) -> bool:
    """True when ``value`` has the shape of a credential (``sk-…``, ``hf_…``, ``Bearer …``).

    ``strict`` (for header values, which never decide an answer) also takes any single token of
    20 or more letters, digits and ``-_.+/=`` holding both letters and digits for a key.

    Examples
    --------
    >>> looks_like_key("sk-proj-abcdef123456"), looks_like_key("high"), looks_like_key("Bearer abc.def.ghi1")
    (True, False, True)
    >>> looks_like_key("3f9a1c0d8e7b6a5f4e3d2c1b", strict=True), looks_like_key("3f9a1c0d8e7b6a5f4e3d2c1b")
    (True, False)
    """
    import re

    text = str(value).strip()
    if re.search(_KEY_SHAPED, text) or re.match(r"(?i)(bearer|basic|token)\s+\S{8,}$", text):
        return True
    return strict and re.fullmatch(r"[A-Za-z0-9_\-.+/=]{20,}", text) is not None and \
        re.search(r"[A-Za-z]", text) is not None and re.search(r"[0-9]", text) is not None


def redact_options(value: Any, *, _header: bool = False) -> Any:
    """``value`` (backend options, or any part of them) as it may be written down or shown.

    Recursively: the value under a key named like a credential (:func:`is_secret_option`, or a
    header name under ``extra_headers``/``default_headers``: :func:`is_secret_header`) and any
    value shaped like a key (:func:`looks_like_key`; within headers, :func:`looks_like_key` strict)
    become ``"[redacted]"``; a URL loses its login and credential-named query values
    (:func:`public_url`).  Keys stay, so a manifest still says *that* a header was sent.

    Examples
    --------
    >>> redact_options({"extra_headers": {"api-key": "abc123", "X-Trace": "run-7"}, "top_p": 0.9})
    {'extra_headers': {'api-key': '[redacted]', 'X-Trace': 'run-7'}, 'top_p': 0.9}
    """
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            header = _header or str(k).lower() in _HEADER_OPTIONS
            secret = is_secret_header(k) if _header else is_secret_option(str(k))
            out[k] = "[redacted]" if secret and v not in (None, "") else redact_options(v, _header=header)
        return out
    if isinstance(value, (list, tuple)):
        return type(value)(redact_options(v, _header=_header) for v in value)
    if isinstance(value, str):
        if looks_like_key(value, strict=_header):
            return "[redacted]"
        if "://" in value:
            return public_url(value)
    return value


def option_secrets(value: Any, *, _header: bool = False) -> list[str]:
    """Every credential inside backend options (what :func:`redact_options` hides), for :func:`redact`.

    Examples
    --------
    >>> option_secrets({"extra_headers": {"Authorization": "Bearer abcdefgh12"}, "base_url": "http://h/v1?key=k1234"})
    ['Bearer abcdefgh12', 'abcdefgh12', 'k1234']
    """
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            header = _header or str(k).lower() in _HEADER_OPTIONS
            secret = is_secret_header(k) if _header else is_secret_option(str(k))
            if secret and isinstance(v, (str, int)) and str(v):
                out.append(str(v))
                # "Bearer KEY": the key alone may be echoed by a server too
                parts = str(v).split()
                if len(parts) == 2:
                    out.append(parts[1])
            else:
                out += option_secrets(v, _header=header)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out += option_secrets(v, _header=_header)
    elif isinstance(value, str):
        if looks_like_key(value, strict=_header):
            out.append(value)
        elif "://" in value:
            out += url_secrets(value)
    return [s for s in out if s]


#: Options whose value is a mapping of HTTP headers (the openai client's names).
_HEADER_OPTIONS = ("extra_headers", "default_headers", "headers")


# user:password@ in a URL, and the value of a query parameter named like a credential.
_URL_USERINFO = r"(?i)\b([a-z][a-z0-9+.\-]*://)[^\s/?#@]+@"
_URL_SECRET_PARAM = r"(?i)([?&][^=&#\s]*(?:key|token|secret|password|passwd|signature|sig)[^=&#\s]*=)[^&#\s]+"


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove credentials from a message: the given secrets, anything shaped like an API key, and
    the user info (``user:password@``) and credential-named query values of any URL in it.

    Examples
    --------
    >>> redact("Incorrect API key provided: sk-abcdefghijklmnop1234", ["sk-abcdefghijklmnop1234"])
    'Incorrect API key provided: [redacted]'
    >>> redact("cannot reach http://user:KEY@127.0.0.1:8765/v1?api_key=abc")
    'cannot reach http://[redacted]@127.0.0.1:8765/v1?api_key=[redacted]'
    """
    import re

    out = str(text)
    for s in secrets:
        if s and len(s) >= 4:
            out = out.replace(s, "[redacted]")
    out = re.sub(_KEY_SHAPED, "[redacted]", out)
    out = re.sub(r"(?i)(bearer\s+)[A-Za-z0-9_\-.]{8,}", r"\1[redacted]", out)
    # A credential header as a message may quote it: 'api-key': 'abc', x-api-key=abc, Cookie: a=b
    out = re.sub(r"(?i)(['\"]?\b(?:x-)?(?:api[-_]?key|authorization|cookie|proxy-authorization)['\"]?\s*[:=]\s*['\"]?)"
                 r"(?!\[redacted\])[^\s'\",}&#]+", r"\1[redacted]", out)
    out = re.sub(_URL_USERINFO, r"\1[redacted]@", out)
    out = re.sub(_URL_SECRET_PARAM, r"\1[redacted]", out)
    return out


def public_url(url: str) -> str:
    """``url`` as it may be stored and shown: without user info, credential-named query values redacted.

    A base URL may carry a login (``http://user:KEY@host/v1``, which the HTTP
    client sends as Basic auth) or a key in its query; manifests, cache keys,
    messages and logs get this form, and only the client gets the URL as given.

    Examples
    --------
    >>> public_url("http://user:KEY@127.0.0.1:8765/v1")
    'http://127.0.0.1:8765/v1'
    >>> public_url("https://example.org/v1?api-key=abc&x=1")
    'https://example.org/v1?api-key=[redacted]&x=1'
    """
    import re

    out = re.sub(_URL_USERINFO, r"\1", str(url))
    return re.sub(_URL_SECRET_PARAM, r"\1[redacted]", out)


def url_secrets(url: "str | None") -> list[str]:
    """The credentials inside a URL (password, user info, credential-named query values), for :func:`redact`.

    Examples
    --------
    >>> url_secrets("http://user:KEY123@h:1/v1")
    ['user:KEY123', 'KEY123']
    """
    from urllib.parse import parse_qsl, urlsplit

    if not url:
        return []
    try:
        parts = urlsplit(str(url))
    except ValueError:
        return []
    out = []
    if "@" in parts.netloc:
        info = parts.netloc.rsplit("@", 1)[0]
        out.append(info)
        if parts.password:
            out.append(parts.password)
    out += [v for k, v in parse_qsl(parts.query) if v and is_secret_option(k)]
    return [s for s in out if s]


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and no spaces: the same value always gives the same text."""
    # One encoder: json.dumps with these options would build a new one per call.
    return _CANONICAL.encode(obj)


@dataclass(frozen=True)
class Request:
    """One chat request.

    Attributes
    ----------
    messages
        Chat messages, ``({"role": ..., "content": ...}, ...)``.
    temperature
        Sampling temperature; ``None`` leaves the provider's default (the
        paper used GPT-5.1's defaults).
    max_tokens
        Limit on generated tokens; ``None`` for the provider's default.
    seed
        Sampling seed where the provider supports one.
    stop
        Stop sequences.
    params
        Further provider parameters sent as they are (part of the cache key).
    meta
        Information for the caller and the mock backends (item id, gold
        label, the word the prompt asks for).  Never sent, never part of the
        cache key.

    Examples
    --------
    >>> r = Request(messages=({"role": "user", "content": "Hi"},), temperature=0.0, max_tokens=8)
    >>> r.generation_params()
    {'max_tokens': 8, 'temperature': 0.0}
    """

    messages: tuple[dict[str, str], ...]
    temperature: Optional[float] = None
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    stop: Optional[tuple[str, ...]] = None
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def generation_params(self) -> dict[str, Any]:
        """Every generation parameter that is set, with sorted keys (what the cache key uses)."""
        out: dict[str, Any] = {}
        if self.max_tokens is not None:
            out["max_tokens"] = int(self.max_tokens)
        if self.seed is not None:
            out["seed"] = int(self.seed)
        if self.stop:
            out["stop"] = list(self.stop)
        if self.temperature is not None:
            out["temperature"] = float(self.temperature)
        for k in sorted(self.params):
            out[k] = self.params[k]
        return dict(sorted(out.items()))


@dataclass
class Completion:
    """A model's answer to one :class:`Request`.

    Attributes
    ----------
    text
        The generated text ('' when the model returned nothing).
    prompt_tokens, completion_tokens
        Token counts as the backend reports them (``None`` when unknown).
    latency_s
        Seconds from sending to receiving (0 for a cache hit's original is kept).
    finish_reason
        ``stop``, ``length`` … as the backend reports it.
    model
        The model name the backend reports.
    raw
        The backend's response as plain JSON values (for auditing); never
        contains credentials.
    """

    text: str
    prompt_tokens: Optional[int] = None
    completion_tokens: Optional[int] = None
    latency_s: float = 0.0
    finish_reason: Optional[str] = None
    model: Optional[str] = None
    raw: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "latency_s": self.latency_s,
            "finish_reason": self.finish_reason,
            "model": self.model,
            "raw": self.raw,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Completion":
        return cls(
            text=d.get("text") or "",
            prompt_tokens=d.get("prompt_tokens"),
            completion_tokens=d.get("completion_tokens"),
            latency_s=float(d.get("latency_s") or 0.0),
            finish_reason=d.get("finish_reason"),
            model=d.get("model"),
            raw=d.get("raw") or {},
        )


def key_of_parts(backend_json: str, messages_json: str, params_json: str) -> str:
    """:func:`request_key` from the canonical JSON of its three parts (backend, messages, generation parameters).

    A dict's canonical JSON is its sorted keys with their canonical values, in
    order, so the payload's text is these three texts in that frame; a caller
    that has the parts encoded already (the runner reuses them across items)
    gets the same key without encoding them again.

    Examples
    --------
    >>> r = Request(messages=({"role": "user", "content": "Hi"},))
    >>> ident = {"provider": "mock", "model": "oracle"}
    >>> key_of_parts(canonical_json(ident), canonical_json(r.messages), "{}") == request_key(ident, r)
    True
    """
    text = f'{{"backend":{backend_json},"messages":{messages_json},"params":{params_json}}}'
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_key(identity: dict[str, Any], request: Request, extra: Optional[dict[str, Any]] = None, *,
                messages_json: Optional[str] = None) -> str:
    """sha256 of the canonical request: backend identity, generation parameters, messages.

    ``messages_json``, when given, must be ``canonical_json(request.messages)``
    (the runner has it already for the prompt's sha256); the key is the same.

    ``identity`` is :meth:`Backend.identity` (provider, model, base URL and
    any option that changes the output); ``extra`` is
    :meth:`Backend.request_identity` (empty for real models).  Two requests
    share a key exactly when they would be sent identically to the same model.

    Examples
    --------
    >>> r = Request(messages=({"role": "user", "content": "Hi"},))
    >>> len(request_key({"provider": "mock", "model": "oracle"}, r))
    64
    """
    backend = identity if not extra else {**identity, "request": extra}
    if messages_json is not None:
        return key_of_parts(canonical_json(backend), messages_json, canonical_json(request.generation_params()))
    payload = {
        "backend": backend,
        "params": request.generation_params(),
        "messages": [dict(sorted(m.items())) for m in request.messages],
    }
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


class Backend(abc.ABC):
    """A language model behind one coroutine, :meth:`complete`.

    Subclasses set ``provider`` and ``model`` and implement :meth:`complete`.
    ``options`` are the ``--model-option KEY=VALUE`` pairs (already typed).
    A backend raises :class:`~causalgraph.errors.TransientBackendError` for
    failures worth retrying and :class:`~causalgraph.errors.BackendError`
    for the others; the runner decides what to do.
    """

    provider: str = ""
    #: Options that change the output and so belong in the cache key.
    identity_options: tuple[str, ...] = ()
    #: Cost is computed from the price table when True (hosted APIs).
    billed: bool = False

    # What the backend can do, declared once, read by the runner, the annotator and the CLI.
    #: ``--model-option`` names it accepts (``None``: any; checked by :func:`~causalgraph.llm.get_backend`).
    accepted_options: Optional[tuple[str, ...]] = None
    #: Options taken as written (free text such as a mock's answer), never read as numbers or JSON.
    text_options: tuple[str, ...] = ()
    #: Options whose values are credentials: never logged, cached, recorded or shown.
    secret_options: tuple[str, ...] = ()
    #: It can constrain its answer to a JSON schema (see :meth:`structured_params`).
    structured_output: bool = False
    #: It decodes greedily only: a temperature above 0 is refused before anything is sent.
    greedy_only: bool = False
    #: ``"module:Class"`` of its Batch client (:class:`~causalgraph.llm.batch.BatchClient`), or ``None``.
    batch_client: Optional[str] = None
    #: It returns the log-probability of given continuations (``bench run --method loglik``, :meth:`score`).
    loglik: bool = False
    #: Its chat replies carry generated-token log-probabilities with ``top_logprobs`` in OpenAI's format
    #: (``bench run --method choice-logprobs``, :mod:`causalgraph.llm.choice_logprobs`).
    choice_logprobs: bool = False
    #: The names above, which a wrapper (:class:`~causalgraph.llm.structured.StructuredBackend`) takes over.
    CAPABILITIES = ("billed", "accepted_options", "text_options", "secret_options", "structured_output",
                    "greedy_only", "batch_client", "loglik", "choice_logprobs")

    @classmethod
    def for_model(cls, model: str) -> type["Backend"]:
        """The class that serves ``model`` (a family of backends, like the mocks, picks one by name)."""
        return cls

    @classmethod
    def check_options(cls, model: str, options: dict[str, Any]) -> None:
        """Refuse an option this backend does not accept (:attr:`accepted_options`), before loading anything."""
        if cls.accepted_options is None:
            return
        unknown = sorted(k for k in options if k not in cls.accepted_options)
        if unknown:  # a misspelt option must not be dropped silently
            raise ConfigError(f"{cls.provider}/{model} cannot honour option {', '.join(unknown)}; expected "
                              f"{', '.join(cls.accepted_options) or 'none'}")

    @classmethod
    def create(cls, model: str, **options: Any) -> "Backend":
        """The backend for ``model`` with checked options (what :func:`~causalgraph.llm.get_backend` calls)."""
        target = cls.for_model(model)
        target.check_options(model, options)
        return target(model, **options)

    def __init__(self, model: str, **options: Any):
        self.model = model
        self.options = dict(options)
        self.base_url: Optional[str] = None
        #: ``host:port`` of the server a remote backend talks to (``None`` for a local model).
        self.endpoint: Optional[str] = None

    @property
    def name(self) -> str:
        """``provider/model``."""
        return f"{self.provider}/{self.model}"

    def identity(self) -> dict[str, Any]:
        """What identifies this model in the response cache (never a credential)."""
        ident: dict[str, Any] = {"provider": self.provider, "model": self.model, "base_url": self.base_url}
        for k in self.identity_options:
            if k in self.options:
                ident[k] = self.options[k]
        return ident

    def request_identity(self, request: Request) -> dict[str, Any]:
        """Anything besides the messages that decides this backend's answer (only mocks have some)."""
        return {}

    def check_request(self, request: Request) -> None:
        """Raise :class:`~causalgraph.errors.ConfigError` when ``request`` asks for something this backend
        cannot honour (a parameter it would otherwise drop).  The runner calls it before sending anything."""
        return None

    def default_concurrency(self) -> int:
        """A sensible number of requests in flight for this backend."""
        return 8

    def secrets(self) -> list[str]:
        """The credential values this backend holds (to scrub from messages): its secret options' values."""
        return [str(v) for k, v in self.options.items() if k in self.secret_options and v]

    def structured_params(self, schema: dict[str, Any], name: str) -> dict[str, Any]:
        """Request parameters that make the answer follow ``schema`` (only when :attr:`structured_output`).

        The default is OpenAI's strict ``json_schema`` response format, which
        OpenAI-compatible servers and llama.cpp also read.
        """
        if not self.structured_output:
            raise ConfigError(f"{self.name} has no structured-output mode")
        # A copy: the request must not share (and a caller must not mutate) the task's schema object.
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": name, "strict": True, "schema": copy.deepcopy(schema)}}}

    def prepare(self, items: Sequence[Any], task: Any) -> None:
        """Called by the runner with the items it is about to ask and their task, before any request.

        Real models ignore it; the mocks look up each item's gold here (by
        ``Request.meta["item_id"]``), so gold never travels in a request.
        """
        return None

    def should_retry(self, exc: BaseException) -> Optional[bool]:
        """Whether a failed request is worth another attempt, when the backend knows better than the runner.

        The runner classifies errors itself (:func:`causalgraph.bench.retry.classify_error`:
        :class:`~causalgraph.errors.TransientBackendError` and timeouts are
        retried, other errors are not).  A backend whose SDK tells temporary
        failures apart returns ``True`` (retry) or ``False`` (give up) here,
        as inspect_ai's ``ModelAPI.should_retry`` does; ``None`` (the
        default) keeps the runner's classification.
        """
        return None

    @abc.abstractmethod
    async def complete(self, request: Request) -> Completion:
        """Send one request and return the completion."""

    def loglik_identity(self) -> dict[str, Any]:
        """What besides :meth:`identity` decides this backend's log-likelihood scores (part of their cache key)."""
        return {}

    async def score(self, request: Any) -> Any:
        """The summed log-probability of each continuation: a
        :class:`~causalgraph.llm.loglik.LoglikRequest` in, a
        :class:`~causalgraph.llm.loglik.ChoiceScores` out (only when :attr:`loglik`).

        See :mod:`causalgraph.llm.loglik` for the convention every backend follows.
        """
        raise ConfigError(f"{self.name} cannot score continuations by log-likelihood (it returns no "
                          "log-probabilities of given text); use --method generate")

    def top_logprobs(self) -> int:
        """``top_logprobs`` a choice-logprobs request asks for: the provider's largest (only when
        :attr:`choice_logprobs`)."""
        raise ConfigError(f"{self.name} returns no log-probabilities of generated tokens; --method choice-logprobs "
                          "needs a chat backend that does (openai/, any OpenAI-compatible server through --base-url, "
                          "llamacpp/ and vllm/ in process)")

    async def aclose(self) -> None:
        """Release clients, models and threads (idempotent)."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
