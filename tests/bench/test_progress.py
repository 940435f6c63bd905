"""Progress of long jobs: a bar on a terminal, one line at most every 10 s when stderr is a file."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.runlog import RunRecord
from causalgraph.bench.progress import PROGRESS_INTERVAL, _Progress


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=25.0), min_size=1, max_size=40))
def test_lines_come_at_most_every_interval_and_one_closes_the_job(gaps):
    clock, buf = _Clock(), io.StringIO()
    bar = _Progress(len(gaps), "auto", "corri mock/oracle", stream=buf, clock=clock)
    assert bar.bar is None and buf.getvalue() == ""
    # By hand: a line whenever at least PROGRESS_INTERVAL s passed since the start or the last line.
    expected, last = [], clock.now
    for n, gap in enumerate(gaps, start=1):
        clock.now += gap
        bar.update(RunRecord("t", "v", "i", usage={"prompt_tokens": 3, "completion_tokens": 1}, cost_usd=0.5))
        if clock.now - last >= PROGRESS_INTERVAL:
            last = clock.now
            expected.append(n)
    bar.close()
    if expected and expected[-1] != len(gaps):
        expected.append(len(gaps))  # the closing line
    lines = buf.getvalue().splitlines()
    assert [int(line.split(": ", 1)[1].split("/")[0]) for line in lines] == expected
    for line, n in zip(lines, expected):
        assert line.startswith(f"corri mock/oracle: {n}/{len(gaps)} ({100 * n / len(gaps):.1f} %), 0 failed, ")
        assert line.endswith(f"tokens in {3 * n:,} out {n:,}, ${0.5 * n:.4f}")


def test_a_terminal_gets_the_bar_and_a_disabled_progress_nothing():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = _Progress(3, "auto", "x", stream=tty)
    assert bar.bar is not None
    bar.close()
    quiet = io.StringIO()
    p = _Progress(3, False, "x", stream=quiet)
    p.update(RunRecord("t", "v", "i"))
    p.close()
    assert quiet.getvalue() == ""


def test_bench_run_with_stderr_in_a_file_writes_progress_lines(tmp_path, isolated_cache):
    log = tmp_path / "err.log"
    env = {**os.environ, "CAUSALGRAPH_PROGRESS_INTERVAL": "0", "CAUSALGRAPH_CACHE": str(isolated_cache),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    with open(log, "w") as err:
        rc = subprocess.run([sys.executable, "-m", "causalgraph", "bench", "run", "--task", "corri", "--variant", "0_1",
                             "--model", "mock/oracle", "--data", "sample", "--out", str(tmp_path / "r")],
                            stdout=subprocess.DEVNULL, stderr=err, env=env, timeout=300).returncode
    lines = log.read_text().splitlines()
    progress = [x for x in lines if x.startswith("corri mock/oracle: ")]
    n = sum(1 for _ in open(tmp_path / "r" / "responses.jsonl"))
    assert rc == 0 and n > 1
    assert [int(x.split(": ", 1)[1].split("/")[0]) for x in progress] == list(range(1, n + 1))
    assert "\r" not in log.read_text()


def test_a_bad_progress_interval_is_one_clear_error(tmp_path, isolated_cache, monkeypatch, capsys):
    from causalgraph.cli import main

    monkeypatch.setenv("CAUSALGRAPH_PROGRESS_INTERVAL", "soon")
    rc = main(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--data", "sample",
               "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert "CAUSALGRAPH_PROGRESS_INTERVAL='soon': expected a number of seconds, 0 or more" in err
    assert not (tmp_path / "r").exists()  # refused before anything was written
