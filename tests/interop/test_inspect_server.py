"""inspect and causalgraph's runner against the same OpenAI-compatible server: same items, same answers, same scores.

Two servers on 127.0.0.1: the stand-in of tests/llm_standin.py (answers are
a function of the prompt; it records every request body) and llama-cpp-python's
server with SmolLM2-135M (greedy answers of a real model).  inspect talks to
them through its ``openai-api`` provider, started from the ``inspect eval``
command line for the stand-in, so the ``causalgraph/<task>`` registration
through the entry point is exercised as a user meets it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai", reason="needs inspect_ai (scripts/install-test-deps.sh)")

from llm_standin import Standin  # noqa: E402

from causalgraph.bench.runner import run_benchmark  # noqa: E402
from causalgraph.runlog.store import load_run  # noqa: E402
from causalgraph.cli import main  # noqa: E402
from causalgraph.interop.inspect_log import import_inspect_log  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.network_local,
              pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning")]

INSPECT = str(Path(sys.executable).with_name("inspect"))


def _report(path, capsys) -> dict:
    assert main(["bench", "report", str(path), "--format", "json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    return entry["metrics"]["variants"]


def test_inspect_eval_on_the_command_line_asks_and_scores_what_bench_run_does(climatecause_path, tmp_path,
                                                                               monkeypatch, capsys):
    bodies: dict[str, list[dict]] = {"runner": [], "inspect": []}
    lock = threading.Lock()

    def answer(body):
        prompt = body["messages"][-1]["content"]
        with lock:
            bodies[body["model"]].append(body)  # "runner" or "inspect", the model each harness names
        # Right, wrong or unreadable, as a function of the prompt alone.
        n = len(prompt) % 5
        return ["<Answer>positive</Answer>", "<Answer>negative</Answer>", "Both, perhaps.",
                "<Answer>negative</Answer>", "<Answer>positive</Answer>"][n]

    server = Standin(answer=answer).start()
    try:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
        monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
        ours = run_benchmark("corri", ["0_1"], "openai/runner", data=str(climatecause_path), limit=40,
                             out=tmp_path / "ours", model_options={"base_url": server.url}, concurrency=4)
        env = dict(os.environ, STANDIN_BASE_URL=server.url, STANDIN_API_KEY="not-a-key",
                   INSPECT_LOG_DIR=str(tmp_path / "logs"))
        # -T variant=0_1 reaches the task as the number 1 (inspect reads -T values as YAML).
        proc = subprocess.run([INSPECT, "eval", "causalgraph/corri", "-T", "variant=0_1", "-T",
                               f"data={climatecause_path}", "--model", "openai-api/standin/inspect", "--limit", "40",
                               "--display", "none"], env=env, capture_output=True, text=True, timeout=300,
                              cwd=tmp_path)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    finally:
        server.stop()
    (log,) = (tmp_path / "logs").glob("*.eval")
    assert main(["bench", "import-inspect", str(log), "--out", str(tmp_path / "imported"), "--format", "json"]) == 0
    capsys.readouterr()
    mine, theirs = load_run(ours.path), load_run(tmp_path / "imported")
    # The same items, asked with the same messages at temperature 0, answered and read alike.
    assert [r.item_id for r in theirs.responses] == [r.item_id for r in mine.responses]
    for a, b in zip(mine.responses, theirs.responses):
        assert (a.prompt_sha256, a.response, a.label, a.rule) == \
            (b.prompt_sha256, b.response, b.label, b.rule)
    sent = {name: [(json.dumps(b["messages"], sort_keys=True), b.get("temperature")) for b in bs]
            for name, bs in bodies.items()}
    # inspect asks every sample; at temperature 0 the runner asks an item whose prompt it has already
    # asked only once (its response cache), so the requests are the same set, not the same count.
    assert set(sent["inspect"]) == set(sent["runner"]) and len(sent["inspect"]) == len(mine.responses) == 40
    assert {t for _, t in sent["inspect"]} == {0}
    ra, rb = _report(ours.path, capsys), _report(tmp_path / "imported", capsys)
    assert rb["0_1"]["parse_failures"] > 0
    for key in ("items", "answered", "parse_failures", "precision", "recall", "f1", "accuracy", "f1_ci95"):
        assert rb["0_1"][key] == ra["0_1"][key]


# -- llama.cpp: a real model's greedy answers -------------------------------------------------------------------

@pytest.fixture(scope="module")
def llama_url(tmp_path_factory):
    """``python -m llama_cpp.server`` with SmolLM2-135M on a free port (tests/llama_server.py)."""
    from llama_server import llama_server as start

    with start(tmp_path_factory.mktemp("llama")) as url:
        yield url


@pytest.mark.model
@pytest.mark.timeout(600)
def test_inspect_and_bench_run_get_the_same_greedy_answers_from_llama_cpp(llama_url, climatecause_path, tmp_path,
                                                                          monkeypatch, capsys):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from causalgraph.interop.inspect import inspect_task

    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    ours = run_benchmark("ccr-member", ["A_5"], "openai/smollm2", data=str(climatecause_path), limit=4,
                         out=tmp_path / "ours", max_tokens=16, model_options={"base_url": llama_url}, concurrency=1,
                         request_timeout=120)
    model = get_model("openai-api/llamacpp/smollm2", base_url=llama_url, api_key="not-a-key")
    log, = inspect_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), model=model, limit=4,
                        max_tokens=16, max_connections=1, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    imported = import_inspect_log(log.location, tmp_path / "imported")
    mine, theirs = load_run(ours.path), load_run(imported.path)
    assert [r.item_id for r in theirs.responses] == [r.item_id for r in mine.responses]
    for a, b in zip(mine.responses, theirs.responses):
        assert a.response and a.prompt_sha256 == b.prompt_sha256
        assert (b.response, b.label, b.rule) == (a.response, a.label, a.rule)
        assert b.usage == a.usage
    ra, rb = _report(ours.path, capsys), _report(imported.path, capsys)
    for key in ("items", "answered", "parse_failures", "precision", "recall", "f1", "accuracy"):
        assert rb["A_5"][key] == ra["A_5"][key]
