"""An inspect eval log as a run folder: the same records, scores and statistics as a run of causalgraph's own.

The logs come from inspect's ``mockllm`` answering each prompt with an
answer chosen from its hash (tests/inspect_mock.py), so every expected label
is known without causalgraph's parser.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("inspect_ai", reason="needs inspect_ai (scripts/install-test-deps.sh)")

from inspect_ai import Task as InspectTask  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_mock import metrics_of, mock_model, planned_answer, run_eval  # noqa: E402

from causalgraph.bench.runner import run_benchmark  # noqa: E402
from causalgraph.runlog.store import load_run  # noqa: E402
from causalgraph.cli import main  # noqa: E402
from causalgraph.datasets import load_corpus  # noqa: E402
from causalgraph.errors import ConfigError  # noqa: E402
from causalgraph.interop.inspect import inspect_task  # noqa: E402
from causalgraph.interop.inspect_log import import_inspect_log  # noqa: E402
from causalgraph.tasks import get_task  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning")]

N = 60


@pytest.fixture(scope="module")
def member(climatecause_path, tmp_path_factory):
    """The first N items of ccr-member A_5, an inspect log of mock answers to them, and that log imported."""
    task = get_task("ccr-member")
    items = task.items(load_corpus(str(climatecause_path)), "A_5")[:N]
    answers = {it.prompt: planned_answer(task, it)[0] for it in items}
    tmp = tmp_path_factory.mktemp("member")
    log = run_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), mock_model(answers.__getitem__),
                   tmp / "logs", limit=N)
    res = import_inspect_log(log.location, tmp / "run")
    return {"task": task, "items": items, "log": log, "res": res, "tmp": tmp}


def test_an_imported_log_is_a_run_with_the_runners_records(member, climatecause_path, tmp_path):
    task, items, res = member["task"], member["items"], member["res"]
    run = load_run(res.path)
    assert (res.written, res.skipped, res.errors) == (N, 0, 0)
    assert [r.item_id for r in run.responses] == sorted(it.id for it in items)
    # A run of causalgraph's own runner on the same items: the same record fields, prompt hashes, golds, meta.
    oracle = load_run(run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=N,
                                    out=tmp_path / "oracle").path)
    for mine, theirs in zip(run.responses, oracle.responses):
        assert list(mine.to_dict()) == list(theirs.to_dict())
        for key in ("task", "variant", "item_id", "gold", "meta", "prompt_sha256"):
            assert getattr(mine, key) == getattr(theirs, key)
    by_id = {it.id: it for it in items}
    for r in run.responses:
        text, label = planned_answer(task, by_id[r.item_id])
        assert (r.response, r.label, r.source, r.error) == (text, label, "inspect", None)
        assert r.usage["completion_tokens"] == 3
    m = run.manifest
    assert (m.task, m.variants, m.model, m.items) == ("ccr-member", ["A_5"], "mockllm/model", {"A_5": N})
    assert m.parameters["temperature"] == 0.0 and m.parameters["backend_identity"]["provider"] == "inspect"
    assert m.dataset["sha256"] == load_corpus(str(climatecause_path)).sha256
    assert m.inspect["eval_id"] == member["log"].eval.eval_id


def test_the_run_scores_as_inspect_scored_it(member):
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    run = load_run(member["res"].path)
    mine = run.metrics.variants["A_5"]
    inspect_figures = metrics_of(member["log"])
    assert set(inspect_figures) == {"precision", "recall", "f1", "accuracy", "parse_failure_rate"}
    # Both against scikit-learn on the labels the mock was told to answer.
    gold = [it.gold for it in member["items"]]
    pred = [planned_answer(member["task"], it)[1] or "unparsed" for it in member["items"]]
    p, r, f, _ = precision_recall_fscore_support(gold, pred, labels=["yes"], average="micro", zero_division=0)
    expected = {"precision": p, "recall": r, "f1": f, "accuracy": accuracy_score(gold, pred),
                "parse_failure_rate": pred.count("unparsed") / len(pred)}
    assert inspect_figures == pytest.approx(expected, abs=1e-12)
    for k, v in expected.items():
        assert mine[k] == pytest.approx(v, abs=1e-12)


def test_bench_report_mcnemar_and_the_viewer_read_the_imported_run(member, climatecause_path, tmp_path, capsys):
    task, items, res = member["task"], member["items"], member["res"]
    assert main(["bench", "report", str(res.path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report[0]["metrics"]["variants"]["A_5"]["f1"] == pytest.approx(metrics_of(member["log"])["f1"])
    oracle = run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=N,
                           out=tmp_path / "oracle")
    assert main(["stats", "mcnemar", str(oracle.path), str(res.path), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    labels = [planned_answer(task, it)[1] for it in items]
    # The oracle answers gold, so the discordant pairs are the imported run's wrong answers, one count for
    # each direction (gold yes read as no, gold no read as yes).
    yes_no = sum(1 for it, lab in zip(items, labels) if (it.gold, lab) == ("yes", "no"))
    no_yes = sum(1 for it, lab in zip(items, labels) if (it.gold, lab) == ("no", "yes"))
    assert (row["n"], row["excluded"]) == (N - labels.count(None), labels.count(None))
    assert sorted([row["b"], row["c"]]) == sorted([yes_no, no_yes]) and yes_no and no_yes
    # The run viewer's comparison: right and wrong per item against the oracle.
    from causalgraph.viewer.page import load_views

    views, comparison = load_views([oracle.path, res.path])
    (cmp,) = comparison["pairs"][0]["mcnemar"]
    right = sum(1 for it, lab in zip(items, labels) if lab == it.gold)
    assert (cmp["n"], cmp["both_right"], cmp["b"], cmp["c"]) == (N, right, N - right, 0)
    assert views[1].name != views[0].name


def test_importing_the_same_log_again_writes_nothing(member):
    res = member["res"]
    before = (res.path / "responses.jsonl").read_bytes()
    again = import_inspect_log(member["log"].location, res.path)
    assert (again.written, again.skipped) == (0, N)
    assert (res.path / "responses.jsonl").read_bytes() == before


def test_the_command_line_imports_a_log_and_prints_its_scores(member, tmp_path, capsys):
    out = tmp_path / "cli-run"
    assert main(["bench", "import-inspect", member["log"].location, "--out", str(out), "--format", "json"]) == 0
    captured = capsys.readouterr()
    (row,) = json.loads(captured.out)
    assert row["variant"] == "A_5" and row["items"] == N
    assert row["f1"] == pytest.approx(metrics_of(member["log"])["f1"])
    assert f"{N} lines imported" in captured.err
    assert main(["bench", "import-inspect", str(tmp_path / "missing.eval")]) == 2
    assert "no such inspect log file" in capsys.readouterr().err


def test_a_failed_sample_is_a_failed_line_counted_as_wrong(climatecause_path, tmp_path):
    task = get_task("ccr-member")
    items = task.items(load_corpus(str(climatecause_path)), "A_5")[:8]
    failing = items[3].prompt

    def answer(prompt):
        if prompt == failing:
            raise RuntimeError("the model server went away")
        return planned_answer(task, next(it for it in items if it.prompt == prompt))[0]

    from inspect_ai import eval as inspect_eval

    log, = inspect_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), model=mock_model(answer),
                        limit=8, log_dir=str(tmp_path / "logs"), display="none", fail_on_error=False,
                        retry_on_error=0)
    res = import_inspect_log(log.location, tmp_path / "run")
    assert (res.written, res.errors) == (8, 1)
    rec = next(r for r in load_run(res.path).responses if r.item_id == items[3].id)
    assert rec.response is None and rec.label is None and "the model server went away" in rec.error
    s = res.metrics.variants["A_5"]
    assert (s["items"], s["answered"], s["errors"]) == (8, 7, 1)


def test_logs_it_cannot_hold_as_one_run_are_refused_with_the_reason(climatecause_path, tmp_path):
    task = get_task("ccr-member")
    items = task.items(load_corpus(str(climatecause_path)), "A_5")[:3]
    answers = {it.prompt: planned_answer(task, it)[0] for it in items}
    model = mock_model(answers.__getitem__)
    # Two epochs: --epoch picks one, as a run with one answer per item.
    log = run_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), model, tmp_path / "epochs",
                   limit=3, epochs=2)
    res = import_inspect_log(log.location, tmp_path / "run", epoch=2)
    assert res.written == 3 and load_run(res.path).manifest.inspect["epoch"] == 2
    assert load_run(res.path).responses[0].epoch is None and "epoch" not in load_run(res.path).responses[0].to_dict()
    # A log of some other inspect task: its samples name no causalgraph item.
    other = run_eval(InspectTask(dataset=[Sample(input="Hi?", target="Hello", id="s1")]),
                     mock_model(lambda prompt: "Hello"), tmp_path / "other")
    with pytest.raises(ConfigError, match="sample 's1'.*metadata has no task"):
        import_inspect_log(other.location, tmp_path / "other-run")
    assert not (tmp_path / "other-run").exists()


def test_a_log_with_epochs_imports_as_a_run_with_epochs(climatecause_path, tmp_path):
    task = get_task("ccr-member")
    items = task.items(load_corpus(str(climatecause_path)), "A_5")[:4]
    answers = {it.prompt: planned_answer(task, it)[0] for it in items}
    log = run_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), mock_model(answers.__getitem__),
                   tmp_path / "logs", limit=4, epochs=3)
    res = import_inspect_log(log.location, tmp_path / "run")
    run = load_run(res.path)
    assert res.written == 12 and run.epochs == 3 and run.manifest.inspect["epochs"] == [1, 2, 3]
    assert sorted((r.item_id, r.epoch) for r in run.samples) == sorted((it.id, e) for it in items
                                                                               for e in (1, 2, 3))
    # mockllm answers from the prompt alone: every epoch the same answer, the planned one.
    planned = {it.id: planned_answer(task, it)[1] for it in items}
    assert all(r.label == planned[r.item_id] for r in run.samples)
    assert res.metrics.variants["A_5"]["agreement"]["identical"] == 1.0
    # Importing again adds nothing.
    assert import_inspect_log(log.location, tmp_path / "run").written == 0
    # One epoch alone and every epoch do not mix in one folder, in either order; nor do two single epochs.
    with pytest.raises(ConfigError, match="holds inspect's epochs 1, 2, 3 as a run with epochs; epoch 2 alone"):
        import_inspect_log(log.location, tmp_path / "run", epoch=2)
    import_inspect_log(log.location, tmp_path / "one", epoch=2)
    before = (tmp_path / "one" / "responses.jsonl").read_bytes()
    with pytest.raises(ConfigError, match="holds inspect's epoch 2 alone.*importing every epoch"):
        import_inspect_log(log.location, tmp_path / "one")
    with pytest.raises(ConfigError, match="holds inspect's epoch 2; epoch 3 would not be added"):
        import_inspect_log(log.location, tmp_path / "one", epoch=3)
    assert (tmp_path / "one" / "responses.jsonl").read_bytes() == before
    assert import_inspect_log(log.location, tmp_path / "one", epoch=2).written == 0


def test_a_custom_scored_task_reports_in_inspect_what_bench_report_reports(pubmed_test_path, tmp_path):
    task = get_task("pubmedcausal-extract")
    items = task.items(load_corpus(str(pubmed_test_path)), "zero-shot")[:40]

    def answer(prompt):
        it = next(i for i in items if i.prompt == prompt)
        pairs = it.meta["pairs"]
        n = len(it.id) % 3
        if n == 0:  # the gold pairs
            return "\n".join(f"Tuple {k}: {{Cause: {p['cause']}, Effect: {p['effect']}, Causality_Type: Explicit, "
                             f"Sententiality: Intra-sentential}}" for k, p in enumerate(pairs, 1))
        if n == 1:  # cause and effect swapped
            return f"Tuple 1: {{Cause: {pairs[0]['effect']}, Effect: {pairs[0]['cause']}}}"
        return "I cannot tell."

    log = run_eval(inspect_task("pubmedcausal-extract", "zero-shot", data=str(pubmed_test_path)),
                   mock_model(answer), tmp_path / "logs", limit=40)
    res = import_inspect_log(log.location, tmp_path / "run")
    mine = res.metrics.variants["zero-shot"]
    figures = metrics_of(log)
    assert set(figures) == {"precision", "recall", "f1", "parse_failure_rate"}
    for k, v in figures.items():
        assert mine[k] == pytest.approx(v, abs=1e-12)
    assert 0 < figures["f1"] < 1 and 0 < figures["parse_failure_rate"] < 1
