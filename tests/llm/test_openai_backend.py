"""The openai/ backend against the local stand-in server (the real openai client, 127.0.0.1 only)."""

from __future__ import annotations

import asyncio
import email.utils
import time

import pytest

from causalgraph.errors import BackendError, ConfigError, TransientBackendError
from causalgraph.llm import Request, get_backend
from causalgraph.llm.openai import OPENAI_URL, retry_after_seconds

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(120)]


def _req(text="Is 2 even?", **kw):
    return Request(messages=({"role": "user", "content": text},), **kw)


def _complete(backend, req):
    async def go():
        try:
            return await backend.complete(req)
        finally:
            await backend.aclose()

    return asyncio.run(go())


def test_openai_backend_answers_through_base_url(standin):
    b = get_backend("openai/standin-model", base_url=standin.url)
    c = _complete(b, _req(temperature=0.0, max_tokens=5))
    assert c.text == "<Answer>Yes</Answer>" and c.finish_reason == "stop"
    assert c.prompt_tokens == 3 and c.completion_tokens == 1 and c.model == "standin-model"
    assert c.raw["choices"][0]["message"]["content"] == c.text


def test_openai_backend_sends_max_tokens_to_servers_and_max_completion_tokens_to_openai(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-000000000000")
    local = get_backend("openai/m", base_url="http://127.0.0.1:9/v1")
    hosted = get_backend("openai/gpt-5.1", reasoning_effort="none")
    assert local.body(_req(max_tokens=7))["max_tokens"] == 7
    body = hosted.body(_req(max_tokens=7, temperature=None))
    assert body["max_completion_tokens"] == 7 and "temperature" not in body and body["reasoning_effort"] == "none"
    assert hosted.billed and not local.billed
    assert hosted.identity() == {"provider": "openai", "model": "gpt-5.1", "base_url": OPENAI_URL,
                                 "params": {"reasoning_effort": "none"}}


def test_openai_backend_without_key_for_openai_says_how_to_set_one(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="set OPENAI_API_KEY"):
        get_backend("openai/gpt-5.1")


@pytest.mark.parametrize("fault, status, retry_after", [("429", 429, 0.05), ("500", 500, None)])
def test_openai_backend_maps_retryable_statuses_to_transient_errors(standin, fault, status, retry_after):
    standin.faults = lambda prompt, attempt: fault
    with pytest.raises(TransientBackendError) as info:
        _complete(get_backend("openai/m", base_url=standin.url), _req())
    assert info.value.status == status and info.value.retry_after == retry_after


def test_openai_backend_maps_a_dropped_connection_to_a_transient_error_naming_the_endpoint(standin):
    from causalgraph.errors import BackendUnreachable

    standin.faults = lambda prompt, attempt: "drop"
    endpoint = standin.url.split("//")[1].split("/")[0]
    with pytest.raises(BackendUnreachable, match=rf"^connection to {endpoint} failed") as info:
        _complete(get_backend("openai/m", base_url=standin.url), _req())
    assert isinstance(info.value, TransientBackendError) and info.value.endpoint == endpoint


def test_openai_backend_401_is_permanent_and_hides_the_key(standin, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SeCrEt-9876543210")
    standin.faults = lambda prompt, attempt: "401"
    with pytest.raises(BackendError) as info:
        _complete(get_backend("openai/m", base_url=standin.url), _req())
    assert not isinstance(info.value, TransientBackendError)
    assert "HTTP 401" in str(info.value) and "SeCrEt" not in str(info.value)


def test_retry_after_seconds_reads_an_http_date():
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= retry_after_seconds({"retry-after": when}) <= 31
    assert retry_after_seconds({"retry-after": "soon"}) is None


def test_openai_backend_keeps_a_login_in_the_base_url_for_the_server_only(standin, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    login_url = standin.url.replace("http://", "http://user:KEY-in-url-42@")
    b = get_backend("openai/standin-model", base_url=login_url)
    # Stored and shown: no user info.  Sent: the login (the HTTP client turns it into Basic auth).
    assert b.base_url == standin.url and b.identity()["base_url"] == standin.url
    assert "KEY-in-url-42" in b.secrets()
    assert _complete(b, _req()).text == "<Answer>Yes</Answer>"
    assert standin.auth_headers[-1].startswith("Basic ")


def test_redact_and_public_url_remove_url_credentials():
    from causalgraph.llm.base import public_url, redact, url_secrets

    url = "http://user:KEY@127.0.0.1:8765/v1?api_key=abc123&x=1"
    assert public_url(url) == "http://127.0.0.1:8765/v1?api_key=[redacted]&x=1"
    assert redact(f"connection to {url} failed") == \
        "connection to http://[redacted]@127.0.0.1:8765/v1?api_key=[redacted]&x=1 failed"
    assert url_secrets(url) == ["user:KEY", "KEY", "abc123"]
    assert public_url("https://api.openai.com/v1") == "https://api.openai.com/v1"


@pytest.mark.parametrize("url, reason", [
    ("notaurl", "expected http(s)://HOST"),
    ("ftp://user:KEY-ftp@host/v1", "expected http(s)://HOST"),
    ("http://[::1", "Invalid IPv6 URL"),
    ("http://127.0.0.1:99999/v1", "Port out of range"),
])
def test_openai_backend_refuses_a_base_url_no_request_could_use(url, reason):
    with pytest.raises(ConfigError, match=r"^base URL .*expected http\(s\)://HOST\[:PORT\]/PATH") as info:
        get_backend("openai/m", base_url=url)
    assert reason in str(info.value) and "KEY-ftp" not in str(info.value)
