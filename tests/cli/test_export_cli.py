"""``causalgraph export-dataset`` and ``causalgraph items --format parquet`` on the command line."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import pytest

pytest.importorskip("pyarrow", reason="needs pyarrow (scripts/install-test-deps.sh)")

from causalgraph.datasets import load_corpus  # noqa: E402
from causalgraph.interop.export import write_items_parquet  # noqa: E402
from causalgraph.tasks import get_task  # noqa: E402

CLI = [sys.executable, "-m", "causalgraph"]


def _cli(args, *, cwd, seed="0", **kwargs):
    env = dict(os.environ, PYTHONHASHSEED=seed)
    return subprocess.run(CLI + args, cwd=cwd, env=env, capture_output=True, timeout=300, **kwargs)


@pytest.mark.slow
def test_export_dataset_writes_the_same_bytes_under_any_hash_seed(tmp_path, climatecause_path, pubmed_test_path):
    for seed, out in (("0", "a"), ("4242", "b")):
        r = _cli(["export-dataset", out, "--task", "corri", "--task", "pubmedcausal-detect,ccr-position",
                  "--format", "csv"], cwd=tmp_path, seed=seed)
        assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().splitlines()[0] == "config,items,variants,file,corpus"
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert [f.as_posix() for f in files] == ["README.md", "ccr-position/test.parquet", "corri/test.parquet",
                                             "pubmedcausal-detect/test.parquet"]
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def test_items_parquet_to_a_file_or_a_redirected_stdout_is_the_items(tmp_path, climatecause_path):
    args = ["items", "--task", "ccr-member", "--variant", "SN_4", "--limit", "25", "--data", str(climatecause_path),
            "--format", "parquet"]
    r = _cli(args + ["-o", "items.parquet"], cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == b"", r.stderr.decode()
    piped = _cli(args, cwd=tmp_path)
    assert piped.returncode == 0
    task = get_task("ccr-member")
    want = io.BytesIO()
    write_items_parquet(task.items(load_corpus(str(climatecause_path)), "SN_4")[:25], want)
    assert (tmp_path / "items.parquet").read_bytes() == piped.stdout == want.getvalue()


def test_items_parquet_is_refused_on_a_terminal_in_one_line(tmp_path):
    main_fd, tty_fd = pty.openpty()
    try:
        r = subprocess.run(CLI + ["items", "--task", "corri", "--variant", "0_1", "--data", "sample", "--format",
                                  "parquet"], cwd=tmp_path, stdout=tty_fd, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(tty_fd)
        os.close(main_fd)
    assert r.returncode == 2
    assert r.stderr.decode().strip() == ("causalgraph items: error: --format parquet writes binary data: pass -o FILE, "
                                         "or redirect stdout to a file")


def test_items_output_option_writes_the_text_formats_as_stdout_would(tmp_path):
    args = ["items", "--task", "corri", "--variant", "F_2", "--data", "sample", "--format"]
    for fmt in ("jsonl", "csv"):
        shown = _cli(args + [fmt], cwd=tmp_path)
        written = _cli(args + [fmt, "-o", f"out.{fmt}"], cwd=tmp_path)
        assert shown.returncode == written.returncode == 0 and written.stdout == b""
        assert (tmp_path / f"out.{fmt}").read_bytes() == shown.stdout and shown.stdout


def test_export_dataset_errors_are_one_line(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    r = _cli(["export-dataset", "full", "--task", "corri", "--data", "sample"], cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.decode().splitlines() == ["causalgraph export-dataset: error: full is not empty; choose a new "
                                              "folder or pass --overwrite"]


def test_export_dataset_refuses_an_empty_task_name_instead_of_exporting_every_task(tmp_path):
    r = _cli(["export-dataset", "out", "--task", ""], cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "out").exists()
    assert r.stderr.decode().splitlines() == ["causalgraph export-dataset: error: argument --task: '': an empty "
                                              "value; expected TASK (see causalgraph export-dataset --help)"]
