"""Logs an import must refuse rather than read silently (issue 23 item 10): a sample twice with different answers,
a log of another task, task_args naming another variant than the samples, and items that differ from the run's.

Each log is a real inspect log of mockllm answers (tests/inspect_mock.py), edited through inspect's own
read_eval_log/write_eval_log the way a merged or hand-edited log would be.
"""

from __future__ import annotations

import pytest

pytest.importorskip("inspect_ai", reason="needs inspect_ai (scripts/install-test-deps.sh)")

from inspect_ai.log import read_eval_log, write_eval_log  # noqa: E402
from inspect_mock import mock_model, planned_answer, run_eval  # noqa: E402

from causalgraph.cli import main  # noqa: E402
from causalgraph.datasets import load_corpus  # noqa: E402
from causalgraph.errors import ConfigError  # noqa: E402
from causalgraph.interop.inspect import inspect_task  # noqa: E402
from causalgraph.interop.inspect_log import import_inspect_log  # noqa: E402
from causalgraph.tasks import get_task  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning")]

N = 6


@pytest.fixture(scope="module")
def log_path(climatecause_path, tmp_path_factory):
    task = get_task("ccr-member")
    items = task.items(load_corpus(str(climatecause_path)), "A_5")[:N]
    answers = {it.prompt: planned_answer(task, it)[0] for it in items}
    tmp = tmp_path_factory.mktemp("refusals")
    log = run_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), mock_model(answers.__getitem__),
                   tmp / "logs", limit=N)
    return log.location


def _edited(src, dst, edit):
    log = read_eval_log(src)
    edit(log)
    write_eval_log(log, str(dst))
    return str(dst)


def _refused(capsys, log, out, match):
    """The command refuses in one line naming ``match``, and writes no run folder."""
    assert main(["bench", "import-inspect", log, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("causalgraph bench: error: "), err
    assert match in err, err
    return err


def test_two_samples_of_one_id_and_epoch_with_different_answers_are_refused_naming_the_sample(
        log_path, tmp_path, capsys):
    def twice(log):
        copy = log.samples[2].model_copy(deep=True)
        copy.output.completion = "<Answer>Maybe</Answer>"  # ModelOutput sets its first choice's text too
        assert copy.output.completion != log.samples[2].output.completion
        log.samples.append(copy)

    # A .json log (an .eval archive stores one file per sample id and epoch, so cannot hold the pair).
    bad = _edited(log_path, tmp_path / "twice.json", twice)
    assert len(read_eval_log(bad).samples) == N + 1
    sid = read_eval_log(log_path).samples[2].id
    err = _refused(capsys, bad, tmp_path / "run", f"sample {sid!r} epoch 1")
    assert "appears twice in the log" in err and "with different answers" in err
    assert not (tmp_path / "run").exists()


def test_a_log_of_another_task_than_its_samples_is_refused(log_path, tmp_path, capsys):
    def other_task(log):
        log.eval.task = "causalgraph/corri"

    bad = _edited(log_path, tmp_path / "task.eval", other_task)
    _refused(capsys, bad, tmp_path / "run", "the log is of task causalgraph/corri, but its samples are items of "
                                            "ccr-member")
    assert not (tmp_path / "run").exists()


def test_task_args_naming_another_variant_than_the_samples_are_refused(log_path, tmp_path, capsys):
    def other_variant(log):
        log.eval.task_args = {"variant": "A_6"}

    bad = _edited(log_path, tmp_path / "variant.eval", other_variant)
    _refused(capsys, bad, tmp_path / "run", "samples of variant A_5, but the log's task_args name A_6")
    assert not (tmp_path / "run").exists()


def test_a_log_of_other_items_into_an_existing_run_is_refused_not_counted_as_already_there(
        log_path, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["bench", "import-inspect", log_path, "--out", str(out)]) == 0
    capsys.readouterr()
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}

    def other_gold(log):
        s = log.samples[1]
        s.metadata["gold"] = "no" if s.metadata["gold"] == "yes" else "yes"

    bad = _edited(log_path, tmp_path / "other.eval", other_gold)
    sid = read_eval_log(log_path).samples[1].id
    _refused(capsys, bad, out, f"sample {sid!r} (item ")
    # Nothing in the folder changed: the refusal came before the manifest was touched.
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    # The same log again is truthfully "already there".
    assert main(["bench", "import-inspect", log_path, "--out", str(out)]) == 0
    assert f"0 lines imported from {log_path} (0 failed samples), {N} items already there" in capsys.readouterr().err


def test_the_log_as_written_still_imports(log_path, tmp_path):
    res = import_inspect_log(log_path, tmp_path / "run")
    assert res.written == N
    with pytest.raises(ConfigError, match="no such inspect log file"):
        import_inspect_log(tmp_path / "missing.eval", tmp_path / "run2")
