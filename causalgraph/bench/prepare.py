"""A run directory made ready for answers: items built, the folder checked and locked, the manifest written.

:func:`prepare_run` is the first step of every way a run is written — a live
run (:func:`~causalgraph.bench.runner.arun_benchmark`), a Batch submission
(:mod:`causalgraph.bench.batch`) and an inspect import
(:mod:`causalgraph.interop.inspect_log`) — through
:meth:`~causalgraph.bench.writer.RunWriter.prepare`: the same refusals of
a folder holding another run, the same manifest, the same list of what is
left to answer.
"""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from .scoring import check_scoring_metrics
from .._version import __version__
from ..errors import CausalGraphError, ConfigError
from ..llm.base import Backend, is_secret_option, redact_options
from ..llm.choice_logprobs import choice_max_tokens
from ..tasks import Task, get_task
from .clock import utc_now
from .config import DEFAULT_MAX_FAILED_ITEMS, RunConfig, default_run_dir
from ..runlog.samples import sample_key
from ..taskkit.item import Item
from ..runlog.files import Manifest
from ..runlog.store import RunStore
from ..datasets import load_corpus
from ..graph.edits import check_edit, join_edit, split_edit
from ..datasets.fetch import sha256_file

__all__ = ["PreparedRun", "prepare_run", "run_prompts", "loglik_choices", "loglik_variants", "items_by_variant",
           "resolve_variants", "run_scoring_metrics"]



def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Backend options safe to write down: anything named like a credential is dropped, a URL
    (``base_url``) loses its user info (``http://user:KEY@host`` carries a login) and its key, and
    a credential header (``extra_headers={"api-key": …}``) or a value shaped like a key is
    ``[redacted]`` (:func:`~causalgraph.llm.base.redact_options`)."""
    return redact_options({k: v for k, v in sorted(options.items()) if not is_secret_option(k)})


def loglik_choices(spec: Task, variants: Sequence[str]) -> dict[str, dict[str, str]]:
    """Variant → label → continuation for ``--method loglik`` (:meth:`Task.choices` of each variant).

    Raises
    ------
    ConfigError
        For a task without declared continuations, or a variant that asks
        for reasoning before its answer (the message names it and why).

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> loglik_choices(get_task("ccr-member"), ["A_5"])
    {'A_5': {'yes': 'Yes', 'no': 'No'}}
    """
    return {v: spec.choices(v) for v in variants}


def loglik_variants(spec: Task) -> dict[str, dict[str, str]]:
    """What ``--variant all`` means under ``--method loglik``: every variant of the task that declares
    continuations (those that ask for reasoning first are left out), with its choices.

    Raises
    ------
    ConfigError
        When the task has no closed label set, or no variant can be scored.
    """
    out: dict[str, dict[str, str]] = {}
    for v in spec.list_variants():
        try:
            out[v] = spec.choices(v)
        except ConfigError:
            if getattr(spec.answers, "continuations", None) is None:  # label kinds only
                raise
    if not out:
        raise ConfigError(f"task {spec.name!r}: every variant asks for reasoning before its answer; --method loglik "
                          "can score none of them")
    return out


def dataset_info(corpus) -> dict[str, Any]:
    sha = getattr(corpus, "sha256", None)
    src = getattr(corpus, "source", None)
    if sha is None and src and Path(str(src)).is_file():
        sha = sha256_file(src)
    return {"name": getattr(corpus, "name", None), "source": None if src is None else str(src), "sha256": sha}


def run_scoring_metrics(store: RunStore, spec: Task, asked: Sequence[str] = ()) -> tuple[str, ...]:
    """The scoring metrics a run's ``metrics.json`` is scored with: ``asked``, else those the file holds.

    Checked now, before anything is asked or rewritten, so that a metric the run cannot take (or a
    plugin's, uninstalled since the file was written) is one line at the start, naming the file,
    instead of a failure after every request was sent.
    """
    if asked or not store.metrics_path.is_file():
        check_scoring_metrics(asked, spec)
        return tuple(asked)
    names = tuple(store.read_metrics().get("scoring_metrics") or {})
    try:
        check_scoring_metrics(names, spec)
    except ConfigError as exc:
        raise ConfigError(f"{store.metrics_path} is scored with {', '.join(names)}, which it keeps: {exc}") from None
    return names


def _fingerprint(manifest: Manifest, spec: Task) -> dict[str, Any]:
    """What must not change between two invocations writing into one run directory."""
    p = manifest.parameters or {}
    dataset = manifest.dataset if isinstance(manifest.dataset, dict) else {}
    return {"task": manifest.task, "model": manifest.model,
            "dataset_sha256": dataset.get("sha256"),
            "temperature": p.get("temperature"), "max_tokens": p.get("max_tokens"), "seed": p.get("seed"),
            "backend": p.get("backend_identity"), "method": p.get("method", "generate"),
            "choice_logprobs": p.get("choice_logprobs"),
            # A manifest without it predates the choice of catalog: the task says which one it used.
            "prompts": spec.manifest_prompts(manifest)}


def _choice_parameters(config: RunConfig, backend: Backend, choices: dict[str, dict[str, str]]) -> dict[str, Any]:
    """What a choice-logprobs request carries besides the run's parameters: ``top_logprobs`` and each
    variant's ``max_tokens`` (:func:`~causalgraph.llm.choice_logprobs.choice_max_tokens`, as the requests)."""
    return {"top_logprobs": backend.top_logprobs(),
            "max_tokens": {v: choice_max_tokens(list(ch.values()), config.max_tokens) for v, ch in choices.items()}}


def _load_items(spec: Task, config: RunConfig, variants: list[str], prompts: Optional[str] = None):
    corpus = load_corpus(spec.data_source(config.data))
    items: dict[str, list[Item]] = {}
    for v in variants:
        built = spec.items(corpus, v, prompts=prompts)  # Task.items: refuses a corpus lacking what the task needs
        items[v] = built[: config.limit] if config.limit else built
    return corpus, items


def run_prompts(spec: Task, config: RunConfig, store: Optional[RunStore] = None,
                items: Optional[Sequence[Item]] = None) -> Optional[str]:
    """The prompt catalog a run's items are built from (``None`` for a task without a choice).

    ``config.prompts`` when given (checked against the task); else, for given
    ``items``, the catalog their meta names (``Task.unrecorded_prompts`` where
    it names none); else the catalog of the run already in ``store`` (a run
    resumes with its own prompts); else the task's default.

    Raises :class:`~causalgraph.errors.ConfigError` for a catalog the task
    does not have, or items of two catalogs.
    """
    asked = spec.prompt_catalog(config.prompts) if config.prompts is not None else None
    if not spec.prompt_catalogs:
        return None
    if items is not None:
        found = sorted({str(it.meta.get("prompts") or spec.unrecorded_prompts) for it in items})
        if len(found) > 1:
            raise ConfigError(f"task {spec.name!r}: the items were built from the prompt catalogs {', '.join(found)}; "
                              "a run holds the items of one")
        if found and asked is not None and found[0] != asked:
            raise ConfigError(f"task {spec.name!r}: the items were built from the {found[0]!r} prompts, not "
                              f"{asked!r} (--prompts)")
        return found[0] if found else (asked or spec.prompt_catalog())
    if asked is not None:
        return asked
    if store is not None and store.manifest_path.is_file():
        try:
            old = store.read_manifest()
        except CausalGraphError:
            old = None  # reported where the manifest is checked, before anything is written
        if old is not None and old.task == spec.name:
            return spec.manifest_prompts(old)
    return spec.prompt_catalog()


@dataclass
class PreparedRun:
    """A run directory ready for answers: its items, what is left to do, the manifest written."""

    spec: Task
    variants: list[str]
    by_variant: dict[str, list[Item]]
    store: RunStore
    manifest: Manifest
    invocation: dict[str, Any]
    todo: list[Item]
    skipped: int
    #: Items left alone because an uncollected Batch job holds them (counted in ``skipped``).
    waiting_in_batch: int = 0
    #: Samples per item (the largest the directory was ever asked for).
    epochs: int = 1
    #: ``(item, epoch)`` of every sample still to answer (``todo`` lists their items once).
    todo_samples: list[tuple[Item, int]] = field(default_factory=list)
    #: ``--method loglik``: variant → label → continuation (``None`` for generation).
    choices: Optional[dict[str, dict[str, str]]] = None

    @property
    def path(self) -> Path:
        return self.store.path


def _with_edit(spec: Task, variants: list[str], edit: str) -> list[str]:
    """The variant ids under a graph edit (``A_5`` → ``A_5.reverse``); a variant with another edit is refused."""
    check_edit(edit)
    if "graph_edit" not in spec.item_options:
        raise ConfigError(f"task {spec.name!r} takes no graph edit (--graph-edit {edit}): its prompts hold no graph")
    out = []
    for v in variants:
        rest, had = split_edit(v)
        if had not in ("real", edit):
            raise ConfigError(f"variant {v!r} edits the graph ({had!r}) but --graph-edit {edit} was asked")
        out.append(spec.variant_id(join_edit(rest, edit)))
    return out


def resolve_variants(config: RunConfig, spec: Task, *, given_items: bool = False) -> list[str]:
    """The variant ids a run asks: ``all`` spelled out (under ``--method loglik``, those it can score), names
    normalised (not for hand-built items, whose variants are taken as they are), the graph edit applied.

    Raises :class:`~causalgraph.errors.ConfigError` for a variant given twice or an edit the task cannot take.
    """
    variants = list(config.variants)
    if variants == ["all"] and config.method != "generate":
        variants = list(loglik_variants(spec))
    elif variants == ["all"]:
        variants = list(spec.list_variants())
    elif not given_items:
        variants = [spec.variant_id(v) for v in variants]
    if config.graph_edit not in (None, "real"):
        variants = _with_edit(spec, variants, config.graph_edit)
    if len(set(variants)) != len(variants):
        raise ConfigError(f"--variant lists a variant twice: {','.join(variants)}")
    return variants


def items_by_variant(config: RunConfig, variants: Sequence[str], items: Sequence[Item]) -> dict[str, list[Item]]:
    """Hand-built items grouped by variant (in ``variants`` order), the first ``config.limit`` of each.

    Raises :class:`~causalgraph.errors.ConfigError` for an item of another
    task or variant, or an item id given twice in a variant.
    """
    by_variant: dict[str, list[Item]] = {v: [] for v in variants}
    for it in items:
        if it.task != config.task:
            raise ConfigError(f"item {it.id!r} belongs to task {it.task!r}, not {config.task!r}")
        if it.variant not in by_variant:
            raise ConfigError(f"item {it.id!r} has variant {it.variant!r}, not one of {list(variants)}")
        by_variant[it.variant].append(it)
    if config.limit:
        by_variant = {v: its[: config.limit] for v, its in by_variant.items()}
    _check_unique_ids(config, by_variant)
    return by_variant


def _check_unique_ids(config: RunConfig, by_variant: dict[str, list[Item]]) -> None:
    for v, its in by_variant.items():
        seen: set[str] = set()
        for it in its:
            if it.id in seen:
                raise ConfigError(f"task {config.task!r} variant {v!r}: item id {it.id!r} occurs twice")
            seen.add(it.id)


def prepare_run(config: RunConfig, backend: Backend, *, items: Optional[Sequence[Item]] = None,
                dataset: Optional[dict[str, Any]] = None, mode: str = "live") -> PreparedRun:
    """Build the items, create or check the run directory and list the items still to answer.

    Raises :class:`~causalgraph.errors.ConfigError` when the directory holds a
    run of another task, model, dataset or generation parameters, or when
    another process is writing into it (the directory stays locked until
    ``prep.store.release()``).
    """
    config.validate()
    spec = get_task(config.task)
    variants = resolve_variants(config, spec, given_items=items is not None)
    # Every variant's continuations before any item is built or the folder touched: a variant that
    # asks for reasoning first is refused in one line.
    choices = loglik_choices(spec, variants) if config.method != "generate" else None

    out = Path(config.out) if config.out else default_run_dir(config.task, config.model, variants)
    store = RunStore(out)
    run_scoring_metrics(store, spec, config.scoring_metrics)  # before the folder is touched or anything asked
    prompts = run_prompts(spec, config, store, items)
    if items is None:
        corpus, by_variant = _load_items(spec, config, variants, prompts)
        ds = dataset_info(corpus)
    else:
        by_variant = items_by_variant(config, variants, items)
        ds = dict(dataset or {"name": None, "source": None, "sha256": None})
    _check_unique_ids(config, by_variant)

    # Before the lock: a refused folder must be left exactly as it was found.
    store.check_resumable()
    store.acquire(f"{mode} {config.task} {config.model}")
    try:
        prep = _prepare_locked(config, backend, spec, variants, by_variant, ds, out, store, mode, prompts,
                               choices=choices)
        prep.choices = choices
        return prep
    except BaseException:
        store.release()
        raise


def _prepare_locked(config: RunConfig, backend: Backend, spec: Task, variants: list[str],
                    by_variant: dict[str, list[Item]], ds: dict[str, Any], out: Path, store: RunStore,
                    mode: str, prompts: Optional[str] = None,
                    choices: Optional[dict[str, dict[str, str]]] = None) -> PreparedRun:
    """The part of :func:`prepare_run` that runs while this process holds the run directory."""
    # Built as the typed record and serialised once, by the store (fields left None are not written).
    manifest = Manifest(
        task=config.task,
        variants=variants,
        model=config.model,
        parameters={
            "temperature": config.temperature, "max_tokens": config.max_tokens, "seed": config.seed,
            "limit": config.limit, "concurrency": config.concurrency, "max_attempts": config.max_attempts,
            "retry_base": config.retry_base, "retry_cap": config.retry_cap,
            "request_timeout": config.request_timeout, "max_connection_failures": config.max_connection_failures,
            "cache": config.cache,
            "model_options": _public_options(config.model_options),
            "backend_identity": backend.identity(),
            # Written only when not the default, so earlier runs keep their manifest bytes.
            **({"max_failed_items": config.max_failed_items}
               if config.max_failed_items != DEFAULT_MAX_FAILED_ITEMS else {}),
            # Written only for loglik, so generated runs keep their manifest bytes.
            **({"method": config.method} if config.method != "generate" else {}),
            **({"choice_logprobs": _choice_parameters(config, backend, choices or {})}
               if config.method == "choice-logprobs" else {}),
        },
        dataset=ds,
        prompts=prompts,
        items={v: len(its) for v, its in by_variant.items()},
        graph_edit=config.graph_edit if config.graph_edit not in (None, "real") else None,
        causalgraph_version=__version__,
        # The lowest schema that reads the lines: 3 for loglik lines, 2 for epochs, 1 otherwise.
        record_schema={"loglik": 3, "choice-logprobs": 4}.get(config.method, 1),
        python=platform.python_version(),
        started=utc_now(),
        invocations=[],
    )
    old = Manifest()
    if store.exists():
        old = store.read_manifest()
        a, b = _fingerprint(old, spec), _fingerprint(manifest, spec)
        diff = sorted(k for k in a if a[k] != b[k])
        if diff:
            raise ConfigError(
                f"{out} holds a run with different " + ", ".join(f"{k} ({a[k]!r} there, {b[k]!r} now)" for k in diff)
                + "; choose another --out to start a new run")
        manifest.started = old.started or manifest.started
        manifest.invocations = list(old.invocations or [])
        manifest.variants = list(old.variants or []) + [v for v in variants if v not in (old.variants or [])]
        manifest.items = {**(old.items or {}), **manifest.items}
    epochs = max(int(config.epochs), int(old.epochs or 1))
    if epochs > 1:
        if mode not in ("live", "import-inspect"):
            raise ConfigError(f"{out} asks every item {epochs} times (--epochs); {mode} answers each item once — "
                              "use `causalgraph bench run` for runs with epochs")
        if mode == "live" and config.temperature is not None and float(config.temperature) == 0.0:
            raise ConfigError(f"{out} asks every item {epochs} times, which only samples different answers above "
                              "temperature 0: give --temperature T > 0 (or 'default'), or choose another --out")
        manifest.epochs = epochs
        # Lines carry `epoch`: the lowest schema that reads them (older runs keep version 1).
        manifest.record_schema = max(2, manifest.record_schema)
    gf = spec.graph_first
    if gf is not None and any(gf.parse("", v) is not None for v in manifest.variants):
        # Lines of a graph-first variant carry `graph` (version 5); other runs keep the version they had.
        manifest.record_schema = max(5, manifest.record_schema)
    # Every line checked before anything is asked or written: a broken folder stays as it is.
    lines = store.checked_lines(manifest, epochs, quiet=True)
    answered = {sample_key(r) for r in lines if not r.error}
    # This process holds the folder: a torn last line is cut off now (and said so), whether or not
    # anything is asked, rather than reported as ignored and left.
    store.repair_tail()
    # RunWriter.finish scores these lines and the ones appended from now on without reading the folder again.
    store.keep_lines(lines)
    invocation = {"started": utc_now(), "mode": mode, "variants": variants, "limit": config.limit,
                  "concurrency": config.concurrency}
    if epochs > 1:
        invocation["epochs"] = epochs
        if config.epochs != epochs:
            invocation["epochs_asked"] = config.epochs
    manifest.invocations.append(invocation)
    store.write_manifest(manifest)

    in_batch = _keys_in_open_batches(store)
    todo: list[Item] = []
    todo_samples: list[tuple[Item, int]] = []
    skipped = n_open = 0
    for v in variants:
        for it in by_variant[v]:
            key = (it.task, it.variant, it.id)
            missing = [e for e in range(1, epochs + 1) if (*key, e) not in answered]
            if missing and key in in_batch:  # (a run with epochs never has a Batch job)
                skipped += 1
                n_open += 1
                continue
            skipped += epochs - len(missing)
            if missing:
                todo.append(it)
                todo_samples.extend((it, e) for e in missing)
    return PreparedRun(spec=spec, variants=variants, by_variant=by_variant, store=store, manifest=manifest,
                       invocation=invocation, todo=todo, skipped=skipped, waiting_in_batch=n_open, epochs=epochs,
                       todo_samples=todo_samples)


def _keys_in_open_batches(store: RunStore) -> set[tuple[str, str, str]]:
    """Items sent in a Batch job that has not been collected yet (a live run leaves them alone)."""
    keys: set[tuple[str, str, str]] = set()
    for b in store.read_ledger().get("batches", []):
        if b.get("state") == "collected" or not b.get("items_path"):
            continue
        p = store.path / b["items_path"]
        if not p.is_file():
            continue
        with open(p, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    it = json.loads(line)["item"]
                    keys.add((it["task"], it["variant"], it["id"]))
    return keys
