"""What `bench run`, `bench report` and `stats agreement` tables say: pending items, accuracy and the macro rule of
multiclass tasks, counts beside rates, one float format."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.bench.runner import run_benchmark
from causalgraph.cli import main
from causalgraph.cli._common import emit_table

from bench_helpers import YN_TASK, yn_items


def _run(args, capsys):
    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def _table(out: str) -> list[dict]:
    """A printed table read back by its column positions (header, dashes, rows)."""
    lines = out.splitlines()
    dashes = lines[1]
    spans, start = [], 0
    for part in dashes.split("  "):
        spans.append((start, start + len(part)))
        start += len(part) + 2
    names = [lines[0][a:b].strip() for a, b in spans]
    return [{n: line[a:b].strip() for n, (a, b) in zip(names, spans)} for line in lines[2:] if line.strip()]


def _partial(tmp_path, keep: int, *, epochs: int = 1):
    """A yes/no run of 12 items of v_1, cut to its first ``keep`` lines as a killed run leaves it."""
    path = tmp_path / "run"
    run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(12, variants=("v_1",)), out=path, epochs=epochs,
                  **({"temperature": 1} if epochs > 1 else {}))
    lines = (path / "responses.jsonl").read_text().splitlines(keepends=True)
    (path / "responses.jsonl").write_text("".join(lines[:keep]))
    return path


def test_bench_report_of_a_stopped_run_says_how_many_items_are_pending(tmp_path, isolated_cache, capsys):
    path = _partial(tmp_path, 5)
    rc, out, _ = _run(["bench", "report", str(path), "--bootstrap", "10"], capsys)
    row = _table(out)[0]
    assert rc == 0 and (row["items"], row["pending"]) == ("5", "7")
    # A complete run's table keeps the columns it had.
    full = tmp_path / "full"
    run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(12, variants=("v_1",)), out=full)
    capsys.readouterr()
    rc, out, _ = _run(["bench", "report", str(full), "--bootstrap", "10"], capsys)
    assert "pending" not in out.splitlines()[0]


def test_stats_agreement_of_a_stopped_run_says_how_many_samples_are_pending(tmp_path, isolated_cache, capsys):
    path = _partial(tmp_path, 20, epochs=3)  # 12 items × 3 epochs = 36 samples planned, 20 answered
    rc, out, _ = _run(["stats", "agreement", str(path)], capsys)
    row = _table(out.split("\n\n")[0])[0]
    # One unit per column, named (issue 35, 14): items answered at all, samples still to ask.
    items = str(_items_in(path))
    assert rc == 0 and (row["items"], row["samples_pending"]) == (items, "16") and "pending" not in row
    rc, out, _ = _run(["stats", "agreement", str(path), "--format", "json"], capsys)
    got = json.loads(out)[0]
    assert (got["items"], got["samples_pending"]) == (int(items), 16) and "pending" not in got


def _items_in(path) -> int:
    """Items with at least one line in a run folder, counted from the file."""
    return len({json.loads(x)["item_id"] for x in (path / "responses.jsonl").read_text().splitlines()})


def test_bench_report_of_a_stopped_epochs_run_names_the_unit_of_each_count(tmp_path, isolated_cache, capsys):
    path = _partial(tmp_path, 20, epochs=3)  # 20 of 36 samples written
    items = str(_items_in(path))
    assert items != "20"
    rc, out, _ = _run(["bench", "report", str(path), "--bootstrap", "10"], capsys)
    row = _table(out)[0]
    assert rc == 0 and (row["items"], row["samples_pending"]) == (items, "16") and "pending" not in row
    rc, out, _ = _run(["bench", "report", str(path), "--bootstrap", "10", "--format", "csv"], capsys)
    header = out.splitlines()[0].split(",")
    assert "samples_pending" in header and "pending" not in header


def test_a_perfect_position_oracle_scores_one_and_the_table_shows_accuracy(tmp_path, isolated_cache, capsys,
                                                                           climatecause_path):
    rc, out, _ = _run(["bench", "run", "--task", "ccr-position", "--variant", "A_4", "--model", "mock/oracle",
                       "--data", str(climatecause_path), "--limit", "12", "--out", str(tmp_path / "r")], capsys)
    row = _table(out)[0]
    assert rc == 0 and (row["f1"], row["accuracy"]) == ("1.0000", "1.0000")
    m = json.loads((tmp_path / "r" / "metrics.json").read_text())["variants"]["A_4"]
    gold = [json.loads(x)["gold"] for x in (tmp_path / "r" / "responses.jsonl").read_text().splitlines()]
    # The classes the 12 gold items name, in the task's order: the macro average runs over those only.
    assert m["macro_classes"] == [c for c in ("start", "middle", "end", "none") if c in gold]
    assert len(m["macro_classes"]) < 4 and m["macro_rule"] == "mean over the classes present in gold or predictions"
    assert m["macro_f1"] == 1.0


def test_the_macro_average_counts_a_class_named_only_by_the_predictions():
    from causalgraph.bench.scoring import multiclass_scores

    labels = ["start", "middle", "end", "none"]
    # Gold: start, start, end; predicted: start, middle, end. middle is predicted only, none appears nowhere.
    s = multiclass_scores(["start", "start", "end"], ["start", "middle", "end"], labels)
    # By hand: start P 1 R 1/2 F1 2/3; middle P 0 R 0 F1 0; end F1 1 -> mean (2/3 + 0 + 1) / 3.
    assert s["macro_classes"] == ["start", "middle", "end"]
    assert s["macro_f1"] == pytest.approx((2 / 3 + 0 + 1) / 3)
    assert s["macro_precision"] == pytest.approx((1 + 0 + 1) / 3)
    assert s["accuracy"] == pytest.approx(2 / 3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from(["a", "b", "c", "d", None])),
                min_size=1, max_size=30))
def test_macro_f1_equals_scikit_learn_over_the_labels_present(pairs):
    from sklearn.metrics import f1_score

    from causalgraph.bench.scoring import multiclass_scores

    gold = [g for g, _ in pairs]
    pred = [p for _, p in pairs]
    s = multiclass_scores(gold, pred, ["a", "b", "c", "d"])
    present = sorted(set(gold) | {p for p in pred if p is not None})
    ref = f1_score(gold, [p if p is not None else "unparsed" for p in pred], labels=present, average="macro",
                   zero_division=0)
    assert s["macro_f1"] == pytest.approx(ref)
    assert s["macro_classes"] == present


def test_the_run_table_names_the_unparsed_share_a_rate(tmp_path, isolated_cache, capsys, climatecause_path):
    rc, out, _ = _run(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/constant",
                       "--model-option", "text=I am not sure.", "--data", str(climatecause_path), "--limit", "4",
                       "--out", str(tmp_path / "r")], capsys)
    row = _table(out)[0]
    assert (row["errors"], row["parse_fail_rate"]) == ("0", "1.0000") and "parse_fail " not in out


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
                          st.integers(-10**6, 10**6)), min_size=1, max_size=8))
def test_every_float_cell_has_four_decimals_and_every_integer_none(values):
    buf = io.StringIO()
    emit_table([{"x": v} for v in values], "table", out=buf)
    cells = [line.strip() for line in buf.getvalue().splitlines()[2:]]
    for v, cell in zip(values, cells):
        if isinstance(v, int):
            assert cell == str(v)
        elif v != 0 and abs(v) < 5e-5:
            assert float(cell) == pytest.approx(v, rel=1e-3) and "e" in cell
        else:
            assert cell == f"{v:.4f}"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("ab \n\r\t↵"), max_size=20), min_size=1, max_size=5))
def test_a_cell_with_newlines_keeps_its_row_on_one_line(texts):
    buf = io.StringIO()
    emit_table([{"id": i, "prompt": t} for i, t in enumerate(texts)], "table", out=buf)
    assert len(buf.getvalue().splitlines()) == 2 + len(texts)


def test_per_class_and_confusion_on_a_binary_task_say_why_they_print_nothing(tmp_path, isolated_cache, capsys,
                                                                            climatecause_path):
    main(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle",
          "--data", str(climatecause_path), "--limit", "3", "--out", str(tmp_path / "r")])
    capsys.readouterr()
    rc, out, err = _run(["bench", "report", str(tmp_path / "r"), "--bootstrap", "10", "--per-class", "--confusion"],
                        capsys)
    assert rc == 0 and err == (f"causalgraph bench: note: --per-class and --confusion: {tmp_path / 'r'} (corri) is a "
                               "binary task: its precision, recall and F1 are those of the positive class 'positive'; "
                               "per-class scores and confusion matrices are for multiclass tasks\n"
                               f"causalgraph bench: note: {tmp_path / 'r'}: 0_1: f1_ci95 not estimable: all items come "
                               "from one statement\n")
    from causalgraph.tasks import get_task

    assert [r["variant"] for r in _table(out)] == ["0_1", f"[{get_task('corri').strategy_of('0_1')}]"]


def test_reducer_mean_on_a_run_without_epochs_says_it_shows_the_plain_scores(tmp_path, isolated_cache, capsys):
    path = tmp_path / "run"
    run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(6, variants=("v_1",)), out=path)
    capsys.readouterr()
    rc, out, err = _run(["bench", "report", str(path), "--bootstrap", "10", "--reducer", "mean"], capsys)
    few = (f"causalgraph bench: note: {path}: v_1: precision_ci95, recall_ci95, f1_ci95 not estimable: 2 statements, "
           f"at least 30 needed for the statement bootstrap to cover (docs/statistics.md)\n")
    assert rc == 0 and err == (f"causalgraph bench: note: --reducer mean: {path} has one answer per item "
                               "(no --epochs); its plain scores are shown\n" + few)
    rc, plain, err = _run(["bench", "report", str(path), "--bootstrap", "10"], capsys)
    assert plain == out and err == few


def test_items_with_multi_line_prompts_print_one_line_per_item(capsys, pubmed_test_path):
    rc, out, _ = _run(["items", "--task", "pubmedcausal-extract", "--variant", "few-shot", "--data",
                       str(pubmed_test_path), "--limit", "3", "--format", "table"], capsys)
    lines = out.splitlines()
    assert rc == 0 and len(lines) == 2 + 3 and all(" ↵ " in line for line in lines[2:])
    rc, csv_out, _ = _run(["items", "--task", "pubmedcausal-extract", "--variant", "few-shot", "--data",
                           str(pubmed_test_path), "--limit", "3", "--format", "csv"], capsys)
    import csv

    prompts = [r["prompt"] for r in csv.DictReader(io.StringIO(csv_out))]
    # CSV keeps the prompt as it is: its newlines quoted, no ↵.
    assert len(prompts) == 3 and all("\n" in p and "↵" not in p for p in prompts)
