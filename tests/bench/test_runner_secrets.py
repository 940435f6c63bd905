"""Credentials in headers and in the base URL's query reach the server and no file or message (issue 23, 13-14).

End to end: ``causalgraph bench run`` against the stand-in OpenAI server of tests/llm_standin.py on 127.0.0.1,
then every file the run and the cache wrote, and everything the command printed, is searched for the key.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from causalgraph.cli import main
from causalgraph.llm.base import is_secret_header, option_secrets, redact, redact_options

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(120)]

RUN = ["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model",
       "openai/standin-model", "--limit", "3", "--format", "json"]


def _written(*roots):
    return [p for root in roots for p in root.rglob("*") if p.is_file()]


@pytest.mark.parametrize("header", ["api-key", "Authorization", "X-API-Key", "Cookie", "Ocp-Apim-Subscription-Key"])
def test_a_key_passed_in_a_header_reaches_the_server_and_no_file_or_message(standin, isolated_cache, tmp_path,
                                                                              capsys, header):
    key = "K3y-DoNotStore-0123456789abcdef"
    value = f"Bearer {key}" if header == "Authorization" else key
    out = tmp_path / "run"
    rc = main(RUN + ["--base-url", standin.url, "--out", str(out),
                     "--model-option", "extra_headers=" + json.dumps({header: value, "X-Trace": "run-7"})])
    printed = capsys.readouterr()
    assert rc == 0, printed.err
    # Sent: on every request (the header is a client header, not a body parameter).
    chats = [h for path, h in standin.requests if path.endswith("/chat/completions")]
    assert len(chats) == 3
    assert all({k.lower(): v for k, v in h.items()}[header.lower()] == value for h in chats)
    # Written down: the header's name, never its value; the harmless header as it was.
    manifest = json.loads((out / "manifest.json").read_text())
    hdrs = manifest["parameters"]["model_options"]["extra_headers"]
    assert hdrs == {header: "[redacted]", "X-Trace": "run-7"}
    assert manifest["parameters"]["backend_identity"]["headers"] == hdrs
    files = _written(out, isolated_cache)
    assert any(p.name == "responses.sqlite" for p in files)
    for p in files:
        assert b"DoNotStore" not in p.read_bytes(), p
    assert "DoNotStore" not in printed.out + printed.err


def test_a_key_in_the_base_url_query_stays_on_the_request_and_off_the_disk(standin, isolated_cache, tmp_path, capsys):
    # Issue 23 item 14: the request went to /v1/?api-key=…chat/completions.
    key = "Q-DoNotStore-0123456789"
    out = tmp_path / "run"
    rc = main(RUN + ["--base-url", f"{standin.url}?api-key={key}&region=eu", "--out", str(out)])
    printed = capsys.readouterr()
    assert rc == 0, printed.err
    paths = [path for path, _ in standin.requests]
    assert paths == [f"/v1/chat/completions?api-key={key}&region=eu"] * 3
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["parameters"]["model_options"]["base_url"] == f"{standin.url}?api-key=[redacted]&region=eu"
    for p in _written(out, isolated_cache):
        assert b"DoNotStore" not in p.read_bytes(), p
    assert "DoNotStore" not in printed.out + printed.err


def test_a_server_error_echoing_a_header_key_is_recorded_without_it(standin, isolated_cache, tmp_path, capsys):
    key = "sk-hdr-DoNotStore-0123456789"
    standin.faults = lambda prompt, attempt: "401"
    out = tmp_path / "run"
    rc = main(RUN + ["--base-url", standin.url, "--out", str(out), "--model-option",
                     "extra_headers=" + json.dumps({"Authorization": f"Bearer {key}"})])
    printed = capsys.readouterr()
    assert rc == 2 and "[redacted]" in printed.err
    assert "DoNotStore" not in printed.out + printed.err
    for p in _written(out, isolated_cache):
        assert b"DoNotStore" not in p.read_bytes(), p


def test_extra_headers_that_are_not_an_object_of_text_is_one_line_without_the_value(capsys, tmp_path):
    rc = main(RUN + ["--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path / "r"), "--model-option",
                     'extra_headers=["api-key", "sk-list-DoNotStore-0123456789"]'])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "expected a JSON object of header names to text" in err
    assert "DoNotStore" not in err


_HEADER_NAMES = st.sampled_from(["authorization", "Authorization", "api-key", "API-KEY", "x-api-key", "X-Api-Key",
                                 "cookie", "Set-Cookie", "proxy-authorization", "x-auth-token", "X-Session-Id"])


@given(name=_HEADER_NAMES, value=st.text(alphabet="abcdefXYZ0123456789-_.", min_size=4, max_size=30))
def test_every_credential_header_is_redacted_and_its_value_listed_as_a_secret(name, value):
    assert is_secret_header(name)
    opts = {"extra_headers": {name: value, "Accept-Language": "en"}}
    assert redact_options(opts) == {"extra_headers": {name: "[redacted]", "Accept-Language": "en"}}
    assert value in option_secrets(opts)
    # A message quoting the header, with or without that list, loses the value.
    assert value not in redact(f"request failed: headers {{'{name}': '{value}'}}", option_secrets(opts))


@given(st.sampled_from(["sk-", "sk-proj-", "hf_", "ghp_"]), st.text(alphabet="abcdefABCDEF0123456789", min_size=20,
                                                                    max_size=40))
def test_a_value_shaped_like_a_key_is_redacted_whatever_its_header_or_option_is_called(prefix, body):
    value = prefix + body
    opts = {"extra_headers": {"X-Custom": value}, "user": value}
    assert redact_options(opts) == {"extra_headers": {"X-Custom": "[redacted]"}, "user": "[redacted]"}
    assert value not in redact(f"echo {value}")


def test_a_batch_command_refuses_to_resend_a_credential_header_the_manifest_never_held():
    from causalgraph.errors import ConfigError
    from causalgraph.llm.openai_batch import OpenAIBatchClient

    with pytest.raises(ConfigError, match=r"credential header\(s\) api-key in extra_headers, which are never stored"):
        OpenAIBatchClient.restore_options({"extra_headers": {"api-key": "[redacted]", "X-Trace": "t"}})
    assert OpenAIBatchClient.restore_options({"extra_headers": {"X-Trace": "t"}}) == {"extra_headers": {"X-Trace": "t"}}


def test_broken_json_in_extra_headers_is_refused_without_echoing_the_value(capsys, tmp_path):
    rc = main(RUN + ["--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path / "r"), "--model-option",
                     'extra_headers={"X-Custom-Auth": "DoNotEcho123'])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--model-option extra_headers=…: starts like JSON but is not" in err
    assert "DoNotEcho" not in err and not (tmp_path / "r").exists()
