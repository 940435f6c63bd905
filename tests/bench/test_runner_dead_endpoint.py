"""A server that dies mid-run: the run stops after a few connection failures in a row, naming the endpoint.

Issue #13: with the server gone, every remaining item was retried to exhaustion (about 190 s per 100
items) and the message did not name the endpoint.  The server here is the stand-in of
tests/llm_standin.py in a process of its own on 127.0.0.1, killed with SIGKILL when a set request
arrives; it is started again on the same port for the resume.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.config import DEFAULT_MAX_CONNECTION_FAILURES
from causalgraph.runlog.store import load_run
from causalgraph.cli import main
from causalgraph.errors import BackendUnreachable

from bench_helpers import YN_TASK, yn_items

pytestmark = [pytest.mark.network_local, pytest.mark.timeout(120)]

STANDIN = Path(__file__).resolve().parents[1] / "llm_standin.py"


class Server:
    """The stand-in in a child process; ``url`` is known once it listens."""

    def __init__(self, port: int = 0, die_after: int = 0):
        self.proc = subprocess.Popen([sys.executable, str(STANDIN), "--port", str(port), "--die-after",
                                      str(die_after)], stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def servers():
    started: list[Server] = []

    def start(**kw) -> Server:
        s = Server(**kw)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def _answered(run) -> Counter:
    return Counter(r.item_id for r in run.attempts if not r.error)


def test_a_run_stops_after_connection_failures_in_a_row_and_a_resume_finishes_it(servers, isolated_cache, tmp_path):
    items = yn_items(10)  # 20 items, asked one at a time
    dying = servers(die_after=6)  # answers 5 requests, dies when the 6th arrives
    opts = dict(items=items, out=tmp_path / "run", model_options={"base_url": dying.url}, concurrency=1,
                retry_base=0.001, retry_cap=0.01, max_attempts=6)
    with pytest.raises(BackendUnreachable) as info:
        run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", **opts)
    assert dying.proc.wait(10) == -9  # the server really died (SIGKILL)
    msg = str(info.value)
    assert "\n" not in msg and info.value.endpoint == f"127.0.0.1:{dying.port}"
    assert msg.startswith(f"openai/standin-model: {DEFAULT_MAX_CONNECTION_FAILURES} connection failures in a row "
                          f"to 127.0.0.1:{dying.port} (last: connection to 127.0.0.1:{dying.port} failed")
    assert "the run stopped with 15 items not answered, left pending" in msg and "resumes them" in msg

    run = load_run(tmp_path / "run")
    # Five answers, and nothing at all for the rest: no error line for the item cut off by the stop.
    assert len(run.attempts) == 5 and len(_answered(run)) == 5 and run.metrics.variants["v_1"]["answered"] == 5
    # It stopped after five failed attempts in a row (one item: the dropped request, then four refused
    # connections), not after 15 items x 6 attempts.
    assert sum(inv.get("requests_sent", 0) for inv in run.manifest.invocations) == 5 + 5

    revived = servers(port=dying.port)
    res = run_benchmark(YN_TASK, ["v_1", "v_2"], "openai/standin-model", **opts)
    assert res.skipped == 5 and res.written == 15 and res.requests_sent == 15 and res.errors == 0
    run = load_run(tmp_path / "run")
    assert _answered(run) == Counter({it.id: 1 for it in items})  # every item once, no duplicate
    assert len(run.attempts) == len(items) and run.metrics.errors == 0
    assert revived.proc.poll() is None


def test_the_count_is_of_failures_in_a_row_and_can_be_switched_off(servers, isolated_cache, tmp_path):
    # With the check off, every item is retried to exhaustion and recorded as failed (the old behaviour).
    dead = servers()
    url = dead.url
    dead.stop()
    res = run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=yn_items(3, variants=("v_1",)),
                        out=tmp_path / "off", model_options={"base_url": url}, concurrency=1, retry_base=0.001,
                        retry_cap=0.002, max_attempts=3, max_connection_failures=0)
    assert res.errors == 3 and res.requests_sent == 9
    run = load_run(tmp_path / "off")
    assert all("BackendUnreachable: connection to 127.0.0.1" in r.error for r in run.responses)
    # With a limit of 2 the same dead server stops the run at the second attempt: nothing is written.
    with pytest.raises(BackendUnreachable, match="2 connection failures in a row"):
        run_benchmark(YN_TASK, ["v_1"], "openai/standin-model", items=yn_items(3, variants=("v_1",)),
                      out=tmp_path / "two", model_options={"base_url": url}, concurrency=1, retry_base=0.001,
                      max_attempts=6, max_connection_failures=2)
    assert load_run(tmp_path / "two").attempts == []


def test_bench_run_against_a_dying_server_is_one_line_naming_host_and_port_without_the_login(
        servers, isolated_cache, tmp_path, capsys):
    dying = servers(die_after=3)
    login_url = dying.url.replace("http://", "http://user:KEY-Dead-31@")
    args = ["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "openai/standin-model",
            "--base-url", login_url, "--data", "sample", "--out", str(tmp_path / "r"), "--concurrency", "1",
            "--retry-base", "0.001", "--retry-cap", "0.01", "--max-connection-failures", "3", "--no-progress"]
    rc = main(args)
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"causalgraph bench: error: openai/standin-model: 3 connection failures in a row to "
                          f"127.0.0.1:{dying.port} ")
    assert "KEY-Dead-31" not in err and "user:" not in err
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["parameters"]["max_connection_failures"] == 3
    assert "KEY-Dead-31" not in (tmp_path / "r" / "manifest.json").read_text()
    servers(port=dying.port)
    rc = main(args)
    err = capsys.readouterr().err
    assert rc == 0 and "2 already answered" in err and "0 errors" in err
    run = load_run(tmp_path / "r")
    assert len(run.attempts) == len(run.responses) == sum(run.manifest.items.values())


def test_one_item_left_pending_is_named_in_the_singular(isolated_cache, tmp_path):
    """Nothing listens on the port: the one item of the run is left pending, and the message counts it as one."""
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: connections to it are refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    item = yn_items(1)[0]
    with pytest.raises(BackendUnreachable) as info:
        run_benchmark(YN_TASK, [item.variant], "openai/standin-model", items=[item], out=tmp_path / "run",
                      model_options={"base_url": f"http://127.0.0.1:{port}/v1"}, concurrency=1, retry_base=0.001,
                      retry_cap=0.01, max_attempts=6)
    assert "the run stopped with 1 item not answered, left pending" in str(info.value)
