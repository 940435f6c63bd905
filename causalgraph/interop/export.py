"""Benchmark items as Parquet, and every task's items as a Hugging Face ``datasets`` folder.

:func:`export_dataset` (``causalgraph export-dataset DIR``) writes one
Parquet file per task (every variant's items, in the task's variant order and
the order the task builds them) and a ``README.md`` dataset card whose YAML
header declares one configuration per task, so that::

    from datasets import load_dataset
    items = load_dataset("DIR", name="ccr-member", split="test")

loads them without causalgraph.  :func:`write_items_parquet` (``causalgraph
items … --format parquet``) writes the items of one variant the same way.

Every row is one :class:`~causalgraph.taskkit.item.Item`: ``id``, ``task``,
``variant``, ``strategy``, ``statement_id``, ``system``, ``prompt``,
``gold`` (a label; a list of strings for tasks whose answer is a list, such
as the graph tasks' node sets; ``None`` for tasks scored otherwise, whose
gold is in ``meta``; JSON text for any other value) and ``meta`` (the
item's provenance as JSON text, since its keys differ from task to task).
The same items give the same bytes: the schema is fixed, no time or path is
written, and the files depend only on the corpus, the causalgraph version and
the pyarrow version.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Optional, Sequence

from ..bench.progress import Progress
from ..errors import ConfigError
from .._core.outputs import named_os_error, write_atomic, output_dir
from ..graph.subgraphs import context_sources
from .._version import __version__
from ..datasets import load_corpus
from ..datasets.cards import BENCHMARK_CORPORA, CORPUS_LICENSES
from ..tasks import get_task, list_tasks
from ..graph.edits import check_edit, join_edit

__all__ = ["ITEM_COLUMNS", "gold_kind", "items_table", "write_items_parquet", "export_dataset",
           "dataset_card", "ExportResult", "ExportProgress", "SPLIT"]

#: The columns of an items table, in order.
ITEM_COLUMNS = ("id", "task", "variant", "strategy", "statement_id", "system", "prompt", "gold", "meta",
                "sources")

#: The split every configuration has: the benchmark's items are test items.
SPLIT = "test"

def _pa():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("Parquet output needs pyarrow: pip install 'causalgraph[dataset]'") from None
    return pa, pq


def gold_kind(golds: Iterable[Any]) -> str:
    """How a table holds these gold values: ``string``, ``list`` (of strings) or ``json`` (JSON text).

    Examples
    --------
    >>> gold_kind(["yes", None]), gold_kind([["a", "b"], []]), gold_kind([1, "a"])
    ('string', 'list', 'json')
    """
    golds = [g for g in golds if g is not None]
    if all(isinstance(g, str) for g in golds):
        return "string"
    if all(isinstance(g, (list, tuple)) and all(isinstance(x, str) for x in g) for g in golds):
        return "list"
    return "json"


def _schema(gold: str):
    pa, _ = _pa()
    # Fixed types: a column that is null in every row (gold of extraction items) stays a string column.
    gold_type = pa.list_(pa.string()) if gold == "list" else pa.string()
    return pa.schema([(name, gold_type if name == "gold" else pa.string()) for name in ITEM_COLUMNS])


def _row(item, strategy: str, gold: str) -> dict[str, Any]:
    meta = item.meta or {}
    sid = meta.get("statement_id")
    srcs = context_sources(meta)  # the CauseNet sources of the relations it asks about, when sampled with them
    g = item.gold
    if g is not None:
        g = list(g) if gold == "list" else json.dumps(g, ensure_ascii=False) if gold == "json" else g
    return {"id": item.id, "task": item.task, "variant": item.variant, "strategy": strategy,
            "statement_id": None if sid is None else str(sid), "system": item.system, "prompt": item.prompt,
            "gold": g, "meta": json.dumps(meta, ensure_ascii=False, separators=(",", ":")),
            "sources": None if srcs is None else json.dumps(srcs, ensure_ascii=False, separators=(",", ":"))}


def items_table(items: Iterable[Any], strategy_of=None):
    """A pyarrow ``Table`` of items, one row each, columns :data:`ITEM_COLUMNS`.

    Parameters
    ----------
    items
        :class:`~causalgraph.taskkit.item.Item` objects.
    strategy_of
        ``variant -> strategy`` (default: the item's task's
        :meth:`~causalgraph.tasks.Task.strategy_of`).

    Examples
    --------
    >>> from causalgraph.taskkit.item import Item
    >>> t = items_table([Item("d/v1/s1", "corri", "0_1", "Same?", "positive", {"statement_id": "s1"})])
    >>> t.column_names[:4], t.column("meta").to_pylist()
    (['id', 'task', 'variant', 'strategy'], ['{"statement_id":"s1"}'])
    """
    pa, _ = _pa()
    items = list(items)
    gold = gold_kind(it.gold for it in items)
    rows = []
    for it in items:
        if strategy_of is None:
            strategy = get_task(it.task).strategy_of(it.variant)
        else:
            strategy = strategy_of(it.variant)
        rows.append(_row(it, strategy, gold))
    columns = {name: [r[name] for r in rows] for name in ITEM_COLUMNS}
    return pa.Table.from_pydict(columns, schema=_schema(gold))


def _write_table(table, where: str | os.PathLike | BinaryIO) -> None:
    _, pq = _pa()
    # zstd: the prompts of one task repeat their instructions, which compress about tenfold.
    pq.write_table(table, where, compression="zstd", use_dictionary=True, write_statistics=True)


def write_items_parquet(items: Iterable[Any], where: str | os.PathLike | BinaryIO) -> int:
    """Write items as one Parquet file (a path or a binary file object); returns the number of rows.

    Examples
    --------
    >>> import io
    >>> from causalgraph.taskkit.item import Item
    >>> buf = io.BytesIO()
    >>> write_items_parquet([Item("d/v1/s1", "corri", "0_1", "Same?", "positive")], buf)
    1
    >>> buf.getvalue()[:4]
    b'PAR1'
    """
    table = items_table(items)
    _write_table(table, where)
    return table.num_rows


@dataclass
class ExportResult:
    """What :func:`export_dataset` wrote.

    Attributes
    ----------
    path
        The dataset folder.
    configs
        Task name → ``{"file": relative path, "items": rows, "variants": [...],
        "corpus": {...}}``, in the order written.
    files
        Every file written, relative to ``path``.
    """

    path: Path
    configs: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


def _corpus_info(corpus) -> dict[str, Any]:
    src = getattr(corpus, "source", None)
    # The file's name and hash, never its path: the card must not depend on where the data sat.
    return {"name": getattr(corpus, "name", None), "file": None if src is None else Path(str(src)).name,
            "sha256": getattr(corpus, "sha256", None)}


def _yaml_str(value: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar, whatever it holds.
    return json.dumps(value, ensure_ascii=False)


def dataset_card(configs: dict[str, dict[str, Any]]) -> str:
    """The ``README.md`` of an exported folder: YAML header (licences, one config per task), then the card.

    ``configs`` is :attr:`ExportResult.configs`.

    Examples
    --------
    >>> card = dataset_card({"corri": {"file": "corri/test.parquet", "items": 2, "variants": ["0_1"],
    ...                                "kind": "binary", "labels": ["positive", "negative"],
    ...                                "description": "", "corpus": {"name": "climatecause"}}})
    >>> card.splitlines()[:4]
    ['---', 'license:', '- cc-by-sa-4.0', 'language:']
    """
    corpora = []
    for cfg in configs.values():
        name = (cfg.get("corpus") or {}).get("name")
        if name not in corpora:
            corpora.append(name)
    license_ids = []
    for name in corpora:
        lid = CORPUS_LICENSES.get(name, {}).get("license_id", "unknown")
        if lid not in license_ids:
            license_ids.append(lid)
    y = ["---", "license:"] + [f"- {lid}" for lid in license_ids]
    y += ["language:", "- en", f"pretty_name: {_yaml_str('causalgraph benchmark items')}", "tags:",
          "- causality", "- causal-graphs", "- llm-benchmark", "configs:"]
    for task, cfg in configs.items():
        y += [f"- config_name: {_yaml_str(task)}", "  data_files:", f"  - split: {SPLIT}",
              f"    path: {_yaml_str(cfg['file'])}"]
    y.append("---")

    lines = ["", "# causalgraph benchmark items", "",
             f"The items of the causalgraph benchmark tasks ({BENCHMARK_CORPORA}), one configuration per task, "
             f"every prompt variant in split `{SPLIT}`. Written by `causalgraph export-dataset` "
             f"(causalgraph {__version__}); a row is exactly what `causalgraph bench run` sends and scores.", "",
             "```python", "from datasets import load_dataset", "",
             f"items = load_dataset(\"path/to/this/folder\", name=\"{next(iter(configs), 'TASK')}\", "
             f"split=\"{SPLIT}\")",
             "one_variant = items.filter(lambda row: row[\"variant\"] == \"A_5\")", "```", ""]
    edits = sorted({cfg["graph_edit"] for cfg in configs.values() if cfg.get("graph_edit")})
    if edits:
        lines += [f"Counterfactual graphs (`{'`, `'.join(edits)}`): every prompt shows the statement's graph "
                  "edited (`reverse`: every edge reversed; `shuffle`: its events permuted over its nodes), and "
                  "every gold is computed on the edited graph; `meta` records `graph_edit`.", ""]
    lines += ["## Configurations", "",
              "| config | kind | labels | gold | variants | items | corpus | description |",
              "|---|---|---|---|---|---|---|---|"]
    for task, cfg in configs.items():
        corpus = cfg.get("corpus") or {}
        lines.append(f"| `{task}` | {cfg.get('kind', '')} | {', '.join(cfg.get('labels') or []) or '(see meta)'} | "
                     f"{cfg.get('gold', 'string')} | {', '.join(cfg['variants'])} | {cfg['items']} | "
                     f"{corpus.get('name') or ''} | "
                     f"{cfg.get('description', '')} |")
    catalogs = {task: cfg["prompts"] for task, cfg in configs.items() if cfg.get("prompts")}
    if catalogs:
        lines += ["", "Prompt catalogs (`causalgraph export-dataset --prompts`): "
                  + ", ".join(f"`{task}` {name}" for task, name in catalogs.items())
                  + ". `authors` is the text the ClimateCause authors sent; `tables`, the paper's Tables 23-29 as "
                    "printed."]
    lines += ["", "## Columns", "",
              "| column | meaning |", "|---|---|",
              "| `id` | item id, `task/variant/statement/...`; unique within a configuration |",
              "| `task`, `variant` | the task and its prompt variant (the paper's ids) |",
              "| `strategy` | the prompting strategy the variant belongs to |",
              "| `statement_id` | the statement (ClimateCause) or row (PubMedCausal) the item asks about |",
              "| `system` | the system message, or null |",
              "| `prompt` | the user message |",
              "| `gold` | the gold label, or the list of gold answers (node sets); null for tasks scored otherwise "
              "(their gold is in `meta`); JSON text where the configuration table says `json` |",
              "| `meta` | the item's provenance as JSON text (events, relation row, gold pairs ...) |",
              "| `sources` | the source sentences of the relations the item asks about, as JSON text (per edge: "
              "`cause`, `effect`, `sources_total`, `sources_shown` — type, sentence, reference, page id, timestamp, "
              "line), or null when the item carries none (`sample-subgraphs --sources`) |",
              "", "## Sources and licences", ""]
    for name in corpora:
        info = CORPUS_LICENSES.get(name)
        files = sorted({f"{(c.get('corpus') or {}).get('file')} (sha256 {(c.get('corpus') or {}).get('sha256')})"
                        for c in configs.values() if (c.get("corpus") or {}).get("name") == name})
        if info is None:
            lines.append(f"* **{name}** — a corpus causalgraph does not know; its own licence applies. "
                         f"Source: {'; '.join(files)}.")
            continue
        lines.append(f"* **{info['title']}** — {info['citation']} Licence: {info['licence']} "
                     f"Source file: {'; '.join(files)}.")
    lines += ["", "The items' wording (prompt templates) follows the papers' appendices; causalgraph's code is MIT.",
              ""]
    return "\n".join(y + lines)


class ExportProgress(Progress):
    """Progress of an export on stderr, one step per task variant (building its items is the slow part).

    The runner's progress (:class:`causalgraph.bench.progress.Progress`) counting variants: ``enabled``
    ``False`` (silent), ``True`` (a tqdm bar) or ``"auto"`` (what the command passes): the bar on a
    terminal, else plain lines, at most one every :func:`~causalgraph.bench.progress.progress_interval`
    seconds and one where the export ends if any was written (an export shorter than the interval
    prints none: the closing summary says it all).

    Examples
    --------
    >>> import io
    >>> err = io.StringIO()
    >>> p = ExportProgress(2, "auto", stream=err, interval=0, clock=lambda: 0.0)
    >>> p.step("corri 0_1"); p.step("corri 0_2"); p.close()
    >>> print(err.getvalue(), end="")
    export-dataset: 1/2 variants (50.0 %), 0 s; corri 0_1
    export-dataset: 2/2 variants (100.0 %), 0 s; corri 0_2
    """

    def __init__(self, total: int, enabled: bool | str, *, stream=None, clock=None, interval: Optional[float] = None):
        self.what = ""
        super().__init__(total, enabled, "export-dataset", stream=stream, clock=clock, interval=interval,
                         unit="variant")

    def _line(self) -> None:
        self.stream.write(f"{self.desc}: {self.done:,}/{self.total:,} variants ({100 * self.done / self.total:.1f} %), "
                          f"{self.clock() - self.start:.0f} s; {self.what}\n")
        self.stream.flush()
        self.shown = self.done

    def step(self, what: str) -> None:
        """One variant's items built (``what`` names it: ``corri 0_1``)."""
        self.what = what
        self._advance(what)


def export_dataset(out: str | os.PathLike, tasks: Optional[Sequence[str]] = None, *, data: Optional[str] = None,
                   overwrite: bool = False, prompts: Optional[str] = None,
                   graph_edit: Optional[str] = None, progress: bool | str = False) -> ExportResult:
    """Write every task's items (all variants) as a Hugging Face ``datasets`` folder.

    Parameters
    ----------
    out
        The folder to write (created).  Everything is written aside first and
        moved into place at the end, so a failure (a full disk) leaves the
        folder as it was, or no folder.  An existing non-empty folder needs
        ``overwrite=True`` and must be a folder this function wrote (a
        dataset card and task folders of Parquet files): its dataset is then
        replaced as a whole; hidden entries (``.git`` of a Hub clone) stay.
    tasks
        Task names (default: every task of :func:`causalgraph.tasks.list_tasks`).
    data
        Dataset name or path for every task (default: each task's own corpus).
    prompts
        The prompt catalog of the tasks that offer one (ClimateCause paper
        tasks: ``"authors"``, their default, or ``"tables"``).  Tasks without
        that catalog keep their own prompts when every task is exported; a
        task named in ``tasks`` that lacks it is an error naming the task.
        Each configuration records its catalog (``configs[task]["prompts"]``).
    progress
        Progress on stderr, one step per variant (:class:`ExportProgress`): ``False`` (default),
        ``True`` or ``"auto"`` (a bar on a terminal, else a line every 10 seconds).
    graph_edit
        ``reverse`` or ``shuffle``: every item on the edited graphs (:mod:`causalgraph.graph.edits`;
        variant ids ``A_5.reverse`` …).  Without ``tasks``, the tasks whose prompts hold a graph;
        a task named in ``tasks`` that cannot show an edited graph is an error.

    Returns
    -------
    ExportResult

    Raises
    ------
    ConfigError
        For an unknown task, a corpus a task cannot build items from (naming
        the task), a non-empty folder without ``overwrite``, or with it a
        folder that is not a dataset folder (a run folder).
    OSError
        Naming the file, when the disk is full (nothing is left behind).

    Examples
    --------
    >>> res = export_dataset("hf-items", ["ccr-member"])      # doctest: +SKIP
    >>> res.configs["ccr-member"]["items"]                    # doctest: +SKIP
    4608
    """
    edit = graph_edit if graph_edit is not None else "real"
    check_edit(edit)
    names = list(tasks) if tasks else list_tasks()
    if len(set(names)) != len(names):
        raise ConfigError(f"--task names a task twice: {', '.join(names)}")
    specs = [get_task(n) for n in names]
    if prompts is not None and tasks:
        for spec in specs:
            spec.prompt_catalog(prompts)  # a task named with --task that lacks the catalog: its one-line error
    if edit != "real":
        if tasks:
            for spec in specs:
                if "graph_edit" not in spec.item_options:
                    raise ConfigError(f"task {spec.name!r} takes no graph edit (--graph-edit {edit}): its prompts "
                                      "hold no graph")
        else:
            specs = [spec for spec in specs if "graph_edit" in spec.item_options]
    for spec in specs:
        spec.data_source(data)  # a task with no default dataset and no --data: refused before any folder is made
    root = Path(out)
    existing = root.is_dir() and any(root.iterdir())
    if existing and not overwrite:
        raise ConfigError(f"{root} is not empty; choose a new folder or pass --overwrite")
    if existing:
        _check_dataset_folder(root)
    _pa()
    created = not root.exists()
    output_dir(root, "dataset folder")
    # Everything is written into a hidden folder inside `root` first and moved into place at the end,
    # so a full disk or an error leaves the folder as it was (or no folder): never half a dataset.
    tmp = root / f".causalgraph-export.{os.getpid()}.tmp"
    try:
        tmp.mkdir()
        steps = ExportProgress(sum(len(spec.list_variants()) for spec in specs), progress)
        try:
            result = _write_export(tmp, specs, data, load_corpus, prompts, edit, named=bool(tasks), steps=steps)
        finally:
            steps.close()
        _swap_in(root, tmp, result)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if created:
            shutil.rmtree(root, ignore_errors=True)
        raise
    result.path = root
    return result


def _refuses_edit(exc: ConfigError) -> bool:
    """Whether a task's error is its refusal of a graph edit (a prompt that shows no graph)."""
    text = str(exc)
    return "cannot take graph edit" in text or "takes no graph edit" in text


def _write_export(root: Path, specs, data: Optional[str], load_corpus, prompts: Optional[str], edit: str, *,
                  named: bool, steps: Optional[ExportProgress] = None) -> ExportResult:
    corpora: dict[str, Any] = {}
    result = ExportResult(path=root)
    for spec in specs:
        source = spec.data_source(data)
        if source not in corpora:
            corpora[source] = load_corpus(source)
        corpus = corpora[source]
        items: list[Any] = []
        variants = list(spec.list_variants())
        catalog = prompts if prompts is not None and prompts in spec.prompt_catalogs else None
        if edit != "real":
            variants = [spec.variant_id(join_edit(v, edit)) for v in variants]
        kept = []
        for v in variants:
            try:
                items.extend(spec.items(corpus, v, prompts=catalog))
                kept.append(v)
                if steps is not None:
                    steps.step(f"{spec.name} {v}")
            except ConfigError as exc:
                if edit != "real" and not named and _refuses_edit(exc):
                    # Chosen for its graph_edit option, but this variant's prompt shows no graph (CCR+ECI,
                    # net-effect's statement-text variants): left out, the task's other variants kept.
                    if steps is not None:  # looked at all the same: the progress still ends at its total
                        steps.step(f"{spec.name} {v} (left out: its prompt shows no graph)")
                    continue
                raise ConfigError(f"task {spec.name!r} variant {v!r}: no items from corpus {source!r} ({exc}); "
                                  "choose the tasks of that corpus with --task") from None
        if edit != "real" and not named and not kept:
            continue
        variants = kept
        if not items:
            # An empty parquet file is written but cannot be loaded back (datasets refuses a batch of 0 rows).
            raise ConfigError(f"task {spec.name!r}: no items from corpus {source!r}; nothing to export "
                              "(choose the tasks of that corpus with --task)")
        rel = f"{spec.name}/{SPLIT}.parquet"
        (root / spec.name).mkdir(exist_ok=True)
        try:
            _write_table(items_table(items, spec.strategy_of), root / rel)
        except OSError as exc:  # pyarrow's "[Errno 28] Error writing bytes to file" names no file
            raise named_os_error(exc, root.parent / rel) from None
        result.files.append(rel)
        result.configs[spec.name] = {"file": rel, "items": len(items), "variants": variants, "kind": spec.kind,
                                     "gold": gold_kind(it.gold for it in items),
                                     "labels": list(spec.labels), "description": spec.description,
                                     "corpus": _corpus_info(corpus)}
        if spec.prompt_catalogs:
            result.configs[spec.name]["prompts"] = spec.prompt_catalog(catalog)
        if edit != "real":
            result.configs[spec.name]["graph_edit"] = edit
    if not result.configs:
        raise ConfigError(f"no task can show graph edit {edit!r} on corpus {data!r}; nothing to export")
    try:
        write_atomic(root / "README.md", dataset_card(result.configs).encode("utf-8"))
    except OSError as exc:
        raise named_os_error(OSError(exc.errno, exc.strerror), root.parent / "README.md") from None
    result.files.append("README.md")
    return result


def _dataset_entries(root: Path) -> list[Path]:
    """The entries of an exported folder: README.md and the task folders (hidden entries, ``.git``, are not)."""
    return [p for p in sorted(root.iterdir()) if not p.name.startswith(".")]


def _check_dataset_folder(root: Path) -> None:
    """Refuse to overwrite a folder that ``export-dataset`` did not write (a run folder, a project …).

    An exported folder holds ``README.md`` (the dataset card, YAML header with ``configs:``) and one
    folder per task holding only Parquet files; hidden entries (``.git`` of a Hub clone) are left alone.
    """
    card = root / "README.md"
    why = None
    try:
        head = card.read_text(encoding="utf-8")[:100_000] if card.is_file() else None
    except (OSError, UnicodeDecodeError):
        head = None
    if head is None or not head.startswith("---\n") or "\nconfigs:\n" not in head:
        why = "no dataset card (README.md with a configs: header)"
    else:
        for p in _dataset_entries(root):
            if p.name == "README.md":
                continue
            if not p.is_dir() or not all(f.suffix == ".parquet" for f in p.iterdir()):
                why = f"{p.name!r}, which is not a task folder of Parquet files"
                break
    if why:
        raise ConfigError(f"{root} is not a dataset folder written by export-dataset (it holds {why}); "
                          "--overwrite replaces only such a folder: choose a new or empty folder")


def _swap_in(root: Path, tmp: Path, result: ExportResult) -> None:
    """Replace the dataset entries of ``root`` by those written in ``tmp`` (renames only: no disk space needed)."""
    old = root / f".causalgraph-export.{os.getpid()}.old"
    old.mkdir()
    for p in _dataset_entries(root):
        os.replace(p, old / p.name)
    for p in sorted(tmp.iterdir()):
        os.replace(p, root / p.name)
    tmp.rmdir()
    shutil.rmtree(old, ignore_errors=True)
