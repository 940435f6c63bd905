"""Items as Parquet and as a Hugging Face ``datasets`` folder, read back with pyarrow and ``datasets`` themselves."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow", reason="needs pyarrow (scripts/install-test-deps.sh)")
import pyarrow.parquet as pq  # noqa: E402

from causalgraph.taskkit.item import Item  # noqa: E402
from causalgraph.datasets import load_corpus  # noqa: E402
from causalgraph.errors import ConfigError  # noqa: E402
from causalgraph.interop.export import ITEM_COLUMNS, SPLIT, export_dataset, write_items_parquet  # noqa: E402
from causalgraph.tasks import builtin_tasks, get_task  # noqa: E402

# Text as items hold it: any character but lone surrogates (the loaders refuse those; UTF-8 cannot hold them).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
JSON_VALUE = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                          max_leaves=8)
ITEMS = st.lists(st.builds(Item, id=TEXT, task=st.just("corri"), variant=st.sampled_from(["0_1", "F_2", "CoT_3"]),
                           prompt=TEXT, gold=st.none() | st.sampled_from(["positive", "negative"]),
                           meta=st.dictionaries(TEXT, JSON_VALUE, max_size=4), system=st.none() | TEXT),
                 max_size=6)


def _rows(table) -> list[dict]:
    return table.to_pylist()


@given(ITEMS)
def test_parquet_items_read_back_to_the_same_items(items):
    buf = io.BytesIO()
    assert write_items_parquet(items, buf) == len(items)
    table = pq.read_table(io.BytesIO(buf.getvalue()))
    assert table.column_names == list(ITEM_COLUMNS)
    assert all(table.schema.field(c).type == pa.string() for c in ITEM_COLUMNS)
    corri = get_task("corri")
    for row, it in zip(_rows(table), items):
        assert (row["id"], row["task"], row["variant"], row["prompt"], row["system"], row["gold"]) == \
            (it.id, it.task, it.variant, it.prompt, it.system, it.gold)
        assert json.loads(row["meta"]) == it.meta
        assert row["strategy"] == corri.strategy_of(it.variant)
    # The same items, the same bytes.
    again = io.BytesIO()
    write_items_parquet(items, again)
    assert again.getvalue() == buf.getvalue()


@pytest.fixture(scope="module")
def exported(tmp_path_factory, climatecause_path, pubmed_test_path):
    """Every built-in task's items exported once (the real corpora through CAUSALGRAPH_DATA).

    The built-in list, not ``list_tasks()``: other test modules register tasks of their own in this process.
    """
    out = tmp_path_factory.mktemp("export") / "items"
    return export_dataset(out, builtin_tasks())


@pytest.mark.slow
def test_datasets_loads_every_task_back_to_the_same_prompts_and_gold(exported, tmp_path):
    datasets = pytest.importorskip("datasets", reason="needs datasets (scripts/install-test-deps.sh)")
    assert list(exported.configs) == builtin_tasks()
    corpora: dict = {}
    for name in builtin_tasks():
        task = get_task(name)
        corpus = corpora.setdefault(task.default_data, load_corpus(task.default_data))
        items = [it for v in task.list_variants() for it in task.items(corpus, v)]
        ds = datasets.load_dataset(str(exported.path), name=name, split=SPLIT, cache_dir=str(tmp_path / "hf"))
        assert ds.num_rows == len(items) == exported.configs[name]["items"]
        assert ds["id"] == [it.id for it in items]
        assert ds["prompt"] == [it.prompt for it in items]
        assert ds["system"] == [it.system for it in items]
        assert ds["gold"] == [it.gold for it in items]
        assert ds["variant"] == [it.variant for it in items]
        assert ds["statement_id"] == [it.meta.get("statement_id") for it in items]
        assert [json.loads(m) for m in ds["meta"]] == [json.loads(json.dumps(it.meta)) for it in items]
        assert sorted(set(ds["variant"])) == sorted(task.list_variants())


def test_the_dataset_card_declares_one_config_per_task_and_the_licences(exported):
    yaml = pytest.importorskip("yaml")
    text = (exported.path / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    header = yaml.safe_load(text.split("---\n")[1])
    assert [c["config_name"] for c in header["configs"]] == builtin_tasks()
    for c in header["configs"]:
        (files,) = c["data_files"]
        assert files["split"] == SPLIT and (exported.path / files["path"]).is_file()
        assert files["path"] == f"{c['config_name']}/{SPLIT}.parquet"
    assert header["license"] == ["cc-by-sa-4.0", "unknown"]  # ClimateCause, then PubMedCausal (no licence stated)
    assert "CC BY-SA 4.0" in text and "PubMedCausal" in text
    # The card names the source files by name and hash, never by where they sat on this machine.
    assert "/work/" not in text and load_corpus("climatecause").sha256 in text
    assert sorted(p.relative_to(exported.path).as_posix() for p in exported.path.rglob("*") if p.is_file()) == \
        sorted(exported.files)


def test_a_second_export_writes_the_same_bytes(exported, tmp_path):
    again = export_dataset(tmp_path / "again", ["corri", "pubmedcausal-detect"])
    for rel in ("corri/test.parquet", "pubmedcausal-detect/test.parquet"):
        assert (again.path / rel).read_bytes() == (exported.path / rel).read_bytes()


def test_export_refuses_a_non_empty_folder_an_unknown_task_and_a_task_twice(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty"):
        export_dataset(tmp_path / "full", ["corri"], data="sample")
    assert sorted(p.name for p in (tmp_path / "full").iterdir()) == ["notes.txt"]
    # --overwrite replaces a dataset folder only; notes.txt makes this one something else (issue 23 item 17).
    with pytest.raises(ConfigError, match=r"full is not a dataset folder written by export-dataset \(it holds no "
                                          r"dataset card"):
        export_dataset(tmp_path / "full", ["corri"], data="sample", overwrite=True)
    assert sorted(p.name for p in (tmp_path / "full").iterdir()) == ["notes.txt"]
    with pytest.raises(ConfigError, match="unknown task 'nope'"):
        export_dataset(tmp_path / "x", ["nope"])
    with pytest.raises(ConfigError, match="twice"):
        export_dataset(tmp_path / "y", ["corri", "corri"])
    # A task with no item in the corpus: an empty file datasets cannot load back is refused, not written.
    from causalgraph.tasks import TASKS, Binary, Task, register_task

    register_task(Task(name="export-empty", build_items=lambda corpus, variant: [], list_variants=lambda: ["v"],
                       answers=Binary(labels=("yes", "no"), positive="yes")), replace=True)
    try:
        with pytest.raises(ConfigError, match="task 'export-empty': no items from corpus 'sample'"):
            export_dataset(tmp_path / "z", ["export-empty"], data="sample")
    finally:
        TASKS.unregister("export-empty")


def _enospc_on(name, monkeypatch):
    """Make the Parquet write of task ``name`` fail as a full disk does: half a file, then ENOSPC naming no file."""
    import causalgraph.interop.export as export

    real = export._write_table

    def write(table, where):
        if f"/{name}/" in str(where):
            with open(where, "wb") as fh:
                fh.write(b"PAR1 half")
            raise OSError(28, "No space left on device")
        real(table, where)

    monkeypatch.setattr(export, "_write_table", write)


def test_a_full_disk_leaves_no_dataset_folder_and_names_the_file(tmp_path, monkeypatch):
    _enospc_on("corri-rc", monkeypatch)
    with pytest.raises(OSError) as info:
        export_dataset(tmp_path / "ds", ["corri", "corri-rc"], data="sample")
    assert info.value.errno == 28 and info.value.filename == str(tmp_path / "ds" / "corri-rc" / "test.parquet")
    assert not (tmp_path / "ds").exists() and list(tmp_path.iterdir()) == []


def test_a_full_disk_during_overwrite_leaves_the_old_dataset_as_it_was(tmp_path, monkeypatch):
    root = tmp_path / "ds"
    export_dataset(root, ["corri"], data="sample")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    before = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    _enospc_on("corri-rc", monkeypatch)
    with pytest.raises(OSError, match="No space left on device"):
        export_dataset(root, ["corri", "corri-rc"], data="sample", overwrite=True)
    assert {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    monkeypatch.undo()
    # Without the fault the same command replaces the dataset as a whole and keeps the hidden entries.
    res = export_dataset(root, ["corri-rc"], data="sample", overwrite=True)
    assert sorted(p.name for p in root.iterdir()) == [".git", "README.md", "corri-rc"]
    assert (root / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n" and res.path == root


def test_overwrite_refuses_a_run_folder_and_leaves_it_alone(tmp_path):
    from causalgraph.bench.runner import run_benchmark

    run = tmp_path / "run"
    run_benchmark("corri", ["0_1"], "mock/oracle", data="sample", out=run, limit=2, progress=False)
    before = sorted(p.name for p in run.iterdir())
    with pytest.raises(ConfigError, match=r"run is not a dataset folder written by export-dataset"):
        export_dataset(run, ["corri"], data="sample", overwrite=True)
    assert sorted(p.name for p in run.iterdir()) == before and "README.md" not in before


def test_export_writes_the_catalog_asked_and_records_it(tmp_path):
    from causalgraph.tasks.climatecause import items as cc_items

    corpus = load_corpus("sample")
    res = export_dataset(tmp_path / "t", ["ccr-position", "corri-multihop"], data="sample", prompts="tables")
    rows = pq.read_table(res.path / "ccr-position" / f"{SPLIT}.parquet").to_pylist()
    want = [it.prompt for v in get_task("ccr-position").list_variants()
            for it in cc_items(corpus, "ccr-position", v, prompts="tables")]
    assert [r["prompt"] for r in rows] == want
    assert {n: c.get("prompts") for n, c in res.configs.items()} == {"ccr-position": "tables",
                                                                     "corri-multihop": "tables"}
    assert "`ccr-position` tables, `corri-multihop` tables." in (res.path / "README.md").read_text(encoding="utf-8")
    default = export_dataset(tmp_path / "a", ["ccr-position", "sources"], data="sample")
    assert default.configs["ccr-position"]["prompts"] == "authors" and "prompts" not in default.configs["sources"]
    rows = pq.read_table(default.path / "ccr-position" / f"{SPLIT}.parquet").to_pylist()
    assert [r["prompt"] for r in rows] == [it.prompt for v in get_task("ccr-position").list_variants()
                                           for it in cc_items(corpus, "ccr-position", v)]
    assert all(json.loads(r["meta"])["prompts"] == "authors" for r in rows)


@pytest.mark.parametrize("task", ["corri-multihop", "sources"])
def test_export_of_a_named_task_without_the_authors_prompts_is_refused_naming_it(task, tmp_path):
    with pytest.raises(ConfigError, match=f"task '{task}' has"):
        export_dataset(tmp_path / "x", [task], data="sample", prompts="authors")
    assert not (tmp_path / "x").exists()


def test_export_on_reversed_graphs_holds_only_the_tasks_that_show_a_graph(tmp_path):
    res = export_dataset(tmp_path / "rev", data="sample", graph_edit="reverse")
    names = set(res.configs)
    # CorrI, multi-hop and CCR+ECI show no graph; the CCR graph tasks and the structure tasks do.
    assert {"ccr-member", "ccr-position", "parents", "reachability"} <= names
    assert not names & {"corri", "corri-rc", "corri-multihop", "ccr-eci-member", "ccr-eci-position"}
    cfg = res.configs["ccr-position"]
    assert cfg["graph_edit"] == "reverse" and all(v.endswith(".reverse") for v in cfg["variants"])
    rows = pq.read_table(tmp_path / "rev" / cfg["file"]).to_pylist()
    expected = [it for v in cfg["variants"] for it in get_task("ccr-position").items(load_corpus("sample"), v)]
    assert [(r["id"], r["gold"]) for r in rows] == [(it.id, it.gold) for it in expected]
    assert "Counterfactual graphs (`reverse`)" in (tmp_path / "rev" / "README.md").read_text()


def test_export_refuses_a_named_task_that_shows_no_graph(tmp_path):
    with pytest.raises(ConfigError, match="cannot take graph edit 'shuffle'"):
        export_dataset(tmp_path / "x", ["ccr-eci-member"], data="sample", graph_edit="shuffle")


def test_export_dataset_cli_writes_the_shuffled_items(tmp_path, capsys):
    from causalgraph.cli import main

    assert main(["export-dataset", str(tmp_path / "sh"), "--data", "sample", "--task", "ccr-position",
                 "--graph-edit", "shuffle", "--format", "json"]) == 0
    capsys.readouterr()
    rows = pq.read_table(tmp_path / "sh" / "ccr-position" / f"{SPLIT}.parquet").to_pylist()
    spec = get_task("ccr-position")
    expected = [it for v in spec.list_variants() for it in spec.items(load_corpus("sample"), v, graph_edit="shuffle")]
    assert [(r["id"], r["variant"], r["gold"], r["prompt"]) for r in rows] == \
        [(it.id, it.variant, it.gold, it.prompt) for it in expected]
    assert {r["variant"].rsplit(".", 1)[1] for r in rows} == {"shuffle"}


def test_export_on_flipped_signs_keeps_the_graph_variants_of_a_task_and_leaves_out_its_text_ones(tmp_path):
    # net-effect's A_ variants show the signed graph (they take flip-signs); its T_ variants give the statement
    # text only and refuse any edit: the export keeps the first and leaves the second out, naming none of them.
    res = export_dataset(tmp_path / "fs", data="sample", graph_edit="flip-signs")
    cfg = res.configs["net-effect"]
    spec = get_task("net-effect")
    graph_variants = [v for v in spec.list_variants() if not v.startswith("T_")]
    assert cfg["variants"] == [f"{v}.flip-signs" for v in graph_variants]
    rows = pq.read_table(tmp_path / "fs" / cfg["file"]).to_pylist()
    expected = [it for v in cfg["variants"] for it in spec.items(load_corpus("sample"), v)]
    assert [(r["id"], r["gold"]) for r in rows] == [(it.id, it.gold) for it in expected]
    assert "ccr-member" not in res.configs  # its prompts state no sign


def test_the_export_progress_ends_at_every_variant_when_some_refuse_the_graph_edit(tmp_path):
    # net-effect's statement-text variants show no graph and are left out under --graph-edit; the progress
    # still counts them as looked at, so its last line is 18/18 (it stopped at 16/18, 88.9 %).
    import io

    from causalgraph.datasets import load_corpus
    from causalgraph.interop.export import ExportProgress, _write_export
    from causalgraph.tasks import get_task

    spec = get_task("net-effect")
    total = len(spec.list_variants())
    err = io.StringIO()
    steps = ExportProgress(total, "auto", stream=err, interval=0, clock=lambda: 0.0)
    res = _write_export(tmp_path, [spec], "sample", load_corpus, None, "reverse", named=False, steps=steps)
    steps.close()
    kept = res.configs["net-effect"]["variants"]
    assert 0 < len(kept) < total  # some variants were left out
    last = err.getvalue().splitlines()[-1]
    assert last.startswith(f"export-dataset: {total}/{total} variants (100.0 %)"), last
