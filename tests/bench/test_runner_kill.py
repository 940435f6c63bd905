"""A run killed with SIGKILL and started again: nothing lost beyond the in-flight requests, nothing doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from causalgraph.runlog.store import RunStore, load_run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]


def _cmd(out: Path, data: Path) -> list[str]:
    return [sys.executable, "-m", "causalgraph", "bench", "run", "--task", "corri", "--variant", "0_1,F_2",
            "--model", "mock/oracle", "--model-option", "latency=0.04", "--concurrency", "4", "--limit", "60",
            "--data", str(data), "--out", str(out), "--no-progress", "--format", "csv"]


def _lines(path: Path) -> int:
    p = path / "responses.jsonl"
    return p.read_bytes().count(b"\n") if p.exists() else 0


def test_run_killed_with_sigkill_resumes_without_doubling(climatecause_path, tmp_path):
    env = dict(os.environ, CAUSALGRAPH_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    out = tmp_path / "run"
    proc = subprocess.Popen(_cmd(out, climatecause_path), env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while _lines(out) < 30:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the run wrote too little within 60 s"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    killed_at = len(RunStore(out).iter_lines())
    assert 30 <= killed_at < 120

    done = subprocess.run(_cmd(out, climatecause_path), env=env, cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    run = load_run(out)
    counts = Counter((r.variant, r.item_id) for r in run.attempts)
    assert len(counts) == 120 and set(counts.values()) == {1}
    assert all(not r.error for r in run.responses)
    # What finished before the kill was skipped; in-flight requests of the killed process were in the
    # cache only if they finished, so the second process sent at most the rest.
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["skipped"] == killed_at
    assert metrics["requests_sent"] + metrics["cache_hits"] == 120 - killed_at
    assert metrics["variants"]["0_1"]["f1"] == 1.0 and metrics["variants"]["F_2"]["f1"] == 1.0
    modes = [inv.get("finished") is not None for inv in run.manifest.invocations]
    assert modes == [False, True]  # the killed invocation never finished; the second did
