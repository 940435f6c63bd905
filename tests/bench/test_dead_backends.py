"""A backend that can never work stops the run in one line instead of writing one error per item (issue 23, 15-16).

The server is the stand-in of tests/llm_standin.py on 127.0.0.1 answering an HTML page with status 200; a
missing package is simulated in a subprocess by a meta-path finder that refuses to import it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from causalgraph.bench.config import DEFAULT_MAX_CONNECTION_FAILURES
from causalgraph.cli import main

from bench_helpers import run_without  # noqa: E402  (tests/ is on sys.path via tests/conftest.py)

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(180)]

RUN = ["bench", "run", "--data", "sample", "--task", "reachability", "--variant", "A_1", "--model", "openai/m",
       "--retry-base", "0.001", "--retry-cap", "0.01", "--concurrency", "1"]


def _lines(run: Path) -> list[dict]:
    f = run / "responses.jsonl"
    return [json.loads(x) for x in f.read_text().splitlines()] if f.exists() else []


def test_a_server_answering_html_stops_the_run_naming_host_port_and_leaves_the_items_pending(
        standin, isolated_cache, tmp_path, capsys):
    standin.html_everywhere = True
    out = tmp_path / "run"
    assert main(RUN + ["--base-url", standin.url, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    host_port = standin.url.split("//")[1].split("/")[0]
    assert err.count("\n") == 1, err
    assert f"{DEFAULT_MAX_CONNECTION_FAILURES} replies in a row from {host_port} that are not the backend's protocol" \
        in err
    assert "(HTTP 200, text/html; charset=utf-8): '<!DOCTYPE html><html><head><title>Sign in</title>" in err
    assert "AttributeError" not in err and "model_dump" not in err
    # One request per failure (concurrency 1), retried like a 5xx, and no item got an error line.
    chats = [p for p, _ in standin.requests if p.endswith("/chat/completions")]
    assert len(chats) == DEFAULT_MAX_CONNECTION_FAILURES
    assert _lines(out) == []
    # Once the server is the API, the same command answers every item.
    standin.html_everywhere = False
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--format", "json"]) == 0
    capsys.readouterr()
    lines = _lines(out)
    assert lines and all(r["error"] is None for r in lines)


def test_an_html_reply_between_good_ones_is_retried_like_a_5xx(standin, isolated_cache, tmp_path, capsys):
    standin.faults = lambda prompt, attempt: "html" if attempt == 1 else "ok"
    out = tmp_path / "run"
    assert main(RUN + ["--base-url", standin.url, "--out", str(out), "--limit", "3", "--format", "json"]) == 0
    capsys.readouterr()
    lines = _lines(out)
    assert len(lines) == 3 and all(r["error"] is None and r["attempts"] == 2 for r in lines)


def test_batch_submit_to_a_server_answering_html_is_one_line(standin, isolated_cache, tmp_path, capsys):
    standin.html_everywhere = True
    rc = main(["bench", "batch", "submit", "--data", "sample", "--task", "reachability", "--variant", "A_1",
               "--model", "openai/m", "--base-url", standin.url, "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1, err
    assert "the reply to a file upload request is not the OpenAI API (HTTP 200, text/html" in err
    assert "AttributeError" not in err




def test_without_the_openai_package_bench_run_says_so_in_one_line_before_asking_anything(tmp_path, standin):
    out = tmp_path / "run"
    r = run_without({"openai"}, RUN + ["--base-url", standin.url, "--out", str(out)], tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == ("causalgraph bench: error: provider 'openai' needs a package that is not installed (openai); "
                        "install it with: pip install 'causalgraph[openai]'\n")
    assert standin.requests == [] and _lines(out) == []


def test_without_inspect_ai_import_inspect_says_so_in_one_line(tmp_path):
    log = tmp_path / "x.eval"
    log.write_bytes(b"PK")
    r = run_without({"inspect_ai"}, ["bench", "import-inspect", str(log), "--out", str(tmp_path / "run")], tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == ("causalgraph bench: error: reading an inspect log needs inspect_ai: "
                        "pip install 'causalgraph[inspect]'\n")
    assert not (tmp_path / "run").exists()
