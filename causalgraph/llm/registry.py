"""Backends addressed as ``provider/model``: a registry from provider to factory.

Built-in providers are named by import path and imported only when used, so
``import causalgraph`` never loads openai, torch or llama.cpp.  Other code
(and users) add providers with :func:`register_provider`; an installed
distribution adds one through the entry-point group ``causalgraph.backends``
(name: the provider, value: ``"module:attr"`` of its :class:`Backend` class or
factory).  The registry is a :class:`causalgraph._core.registry.Registry`.
"""

from __future__ import annotations

from typing import Any, Callable, Union

from ..errors import BackendError, ConfigError
from .._core.registry import ENTRY_POINT_GROUPS, Registry
from .base import Backend, is_secret_option, redact
from .mock import mock_names

__all__ = ["get_backend", "register_provider", "list_providers", "model_forms", "parse_model_options", "split_spec",
           "PROVIDERS"]

Factory = Callable[..., Backend]

# The built-in providers, as "module:attribute" targets imported on first use.
_BUILTIN_PROVIDERS = {
    "openai": "causalgraph.llm.openai:OpenAIBackend",
    "openai-compatible": "causalgraph.llm.server_loglik:PromptLogprobsBackend",
    "hf": "causalgraph.llm.hf:HFBackend",
    "llamacpp": "causalgraph.llm.llamacpp:LlamaCppBackend",
    "vllm": "causalgraph.llm.vllm:VLLMBackend",
    "mock": "causalgraph.llm.mock:MockBackend",
}


def _check_factory(name: str, factory: Any) -> Factory:
    if not callable(factory):
        raise ConfigError(f"provider {name!r}: found {factory!r} ({type(factory).__name__}), which is not callable; "
                          "expected a Backend class or a factory(model, **options) -> Backend")
    return factory


def _builtin_providers(registry: Registry) -> None:
    for name, target in _BUILTIN_PROVIDERS.items():
        registry.register(name, target)


# provider -> factory (a Backend class or a callable), built-ins lazy; plugins from causalgraph.backends.
PROVIDERS: Registry[Factory] = Registry("provider", group=ENTRY_POINT_GROUPS["provider"], coerce=_check_factory,
                                        builtins=_builtin_providers, listing=lambda: list_providers())


def register_provider(factory: Union[str, Factory], *, replace: bool = False,
                      name: "str | None" = None) -> Union[str, Factory]:
    """Register a provider: a :class:`Backend` class, a ``factory(model, **options) -> Backend``, or its target.

    The rule of every ``register_*`` function: the record (here the backend class or factory, or
    the ``"module:attr"`` target of one) first, ``replace=`` and ``name=`` by keyword.

    Parameters
    ----------
    factory
        A :class:`Backend` subclass (registered under its ``provider``), a callable
        ``factory(model, **options)``, or the ``"module:attr"`` target of one (imported on first
        use); the last two need ``name``.
    replace
        Replace a provider of the same name; without it a taken name is refused.
    name
        What comes before ``/`` in ``provider/model``; a Backend class's ``provider`` by default.

    Examples
    --------
    >>> from causalgraph.llm.mock import make_mock
    >>> register_provider(make_mock, name="mymock", replace=True) is make_mock
    True
    >>> get_backend("mymock/constant", text="yes").model
    'constant'
    """
    if name is None and isinstance(factory, type) and issubclass(factory, Backend):
        name = factory.provider
    if name is None:
        raise ConfigError(f"register_provider({factory!r}): a factory function or 'module:attr' target needs name= "
                          "(what comes before '/' in provider/model)")
    if not isinstance(name, str) or not name or "/" in name:
        raise ConfigError(f"provider name {name!r} must be non-empty and contain no '/'")
    PROVIDERS.register(name, factory, replace=replace)
    return factory


def list_providers() -> list[str]:
    """Registered provider names, sorted."""
    return sorted(PROVIDERS.names())


# How each built-in provider's model part is written (help texts); a registered provider gets <model>.
_FORMS = {"openai": "<model>", "hf": "<dir|file.gguf>", "llamacpp": "<file.gguf>", "vllm": "<model folder>"}


def model_forms() -> list[str]:
    """The providers of causalgraph and of code as ``provider/<model form>``, the mocks by name, for help texts.

    No plugin is read (help texts are built with the parser, which never touches an entry point);
    ``causalgraph plugins`` lists the providers plugins add.

    Examples
    --------
    >>> model_forms()[-1]
    'mock/oracle|noisy|constant|flaky'
    """
    out = []
    for name in PROVIDERS.names(plugins=False):
        if name == "mock":
            out.append("mock/" + "|".join(mock_names()))
        else:
            out.append(f"{name}/{_FORMS.get(name, '<model>')}")
    return out


def split_spec(spec: str) -> tuple[str, str]:
    """``"openai/gpt-5.1"`` → ``("openai", "gpt-5.1")``; the model part may contain ``/``."""
    if not isinstance(spec, str) or "/" not in spec:
        raise ConfigError(
            f"model {spec!r} is not of the form provider/model; providers: {', '.join(list_providers())} "
            "(e.g. openai/gpt-5.1-2025-11-13, llamacpp/path/to/model.gguf, mock/oracle)")
    provider, model = spec.split("/", 1)
    if not model:
        raise ConfigError(f"model {spec!r} names no model after {provider}/")
    return provider, model


def backend_class(spec: str) -> "type[Backend] | None":
    """The :class:`Backend` class that serves ``provider/model`` (``None`` for a plain factory function).

    Its class attributes say what it can do (``structured_output``,
    ``greedy_only``, ``text_options`` …) before anything is loaded.

    Examples
    --------
    >>> backend_class("mock/constant").text_options
    ('text',)
    """
    provider, model = split_spec(spec)
    target = _resolve(provider)
    if isinstance(target, type) and issubclass(target, Backend):
        return target.for_model(model)
    return None


def _resolve(provider: str) -> Factory:
    if provider not in PROVIDERS:
        raise ConfigError(PROVIDERS.unknown(provider))
    try:
        return PROVIDERS.get(provider)
    except ConfigError as exc:
        # A built-in's SDK missing at import time is said as get_backend says it, naming the extra.
        if isinstance(exc.__cause__, ImportError) and PROVIDERS.origin(provider) is None \
                and provider in _BUILTIN_PROVIDERS:
            raise exc.__cause__ from None
        raise


def get_backend(spec: str, **options: Any) -> Backend:
    """Create the backend for ``provider/model`` with its options.

    Parameters
    ----------
    spec
        ``openai/<model>``, ``hf/<local dir or file.gguf>``,
        ``llamacpp/<file.gguf>``, ``mock/oracle|noisy|constant|flaky`` or any
        registered provider.
    **options
        Backend options (``base_url``, ``timeout``, ``latency``, ``n_ctx``…);
        see each backend.

    Examples
    --------
    >>> b = get_backend("mock/constant", text="positive")
    >>> b.name
    'mock/constant'
    """
    provider, model = split_spec(spec)
    factory = _resolve(provider)
    if isinstance(factory, type) and issubclass(factory, Backend):
        factory = factory.create
    try:
        backend = PROVIDERS.call(provider, "factory", factory, model, **options)
    except ImportError as exc:  # the SDK is missing: say which extra installs it
        raise BackendError(  # each built-in provider has an extra of its own name
            f"provider {provider!r} needs a package that is not installed ({exc.name or exc}); "
            f"install it with: pip install 'causalgraph[{provider}]'") from exc
    if not isinstance(backend, Backend):
        # A factory (a plugin's, usually) that builds something else is refused here, naming it, not
        # deep in the runner when the first item is asked.
        raise PROVIDERS.refuse(provider, "factory", backend, "a Backend")
    return backend


def _coerce(value: str, key: str = "") -> Any:
    if value[:1] in ("{", "["):  # a JSON object or list, e.g. response_format={"type": "json_object"}
        import json

        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            # Headers (and anything named like a credential) may hold a key in a shape no rule
            # recognises once the JSON is broken: the value is not echoed then.
            hidden = key.lower() in ("extra_headers", "default_headers", "headers") or is_secret_option(key)
            shown = f"{key}=…" if hidden else redact(f"{key}={value}")
            raise ConfigError(f"--model-option {shown}: starts like JSON but is not ({exc.msg} at "
                              f"character {exc.pos})") from None
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for conv in (int, float):
        try:
            return conv(value)
        except ValueError:
            pass
    return value


def parse_model_options(pairs: list[str] | None, model: str | None = None) -> dict[str, Any]:
    """``["latency=0.05", "n_ctx=2048"]`` → ``{"latency": 0.05, "n_ctx": 2048}``.

    Values that read as int, float, true/false or none are converted; a value
    that starts with ``{`` or ``[`` is read as JSON.  The options ``model``'s
    backend declares as text (:attr:`~causalgraph.llm.base.Backend.text_options`,
    e.g. the answer of ``mock/constant``) stay the string as written.

    Examples
    --------
    >>> parse_model_options(["latency=0.05", "text=7"])
    {'latency': 0.05, 'text': 7}
    >>> parse_model_options(['response_format={"type": "json_object"}'])
    {'response_format': {'type': 'json_object'}}
    >>> parse_model_options(['text={"causal": true}', "latency=0"], "mock/constant")
    {'text': '{"causal": true}', 'latency': 0}
    """
    cls = backend_class(model) if model else None
    verbatim = set(cls.text_options) if cls is not None else set()
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--model-option {pair!r}: expected KEY=VALUE")
        out[key] = value.strip() if key in verbatim else _coerce(value.strip(), key)
    return out
