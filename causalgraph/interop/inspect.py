"""Every causalgraph benchmark task as an inspect_ai ``Task`` (``pip install causalgraph[inspect]``).

Importing this module registers one inspect task per task of
:func:`causalgraph.tasks.list_tasks`, named ``causalgraph/<task>`` with ``-``
written ``_`` (inspect task names are Python identifiers)::

    inspect eval causalgraph/ccr_member -T variant=A_5 --model openai/gpt-4o-mini
    inspect eval causalgraph/pubmedcausal_detect -T variant=zero-shot,few-shot --model ollama/llama3.1

inspect finds the tasks through the ``inspect_ai`` entry point in
causalgraph's ``pyproject.toml``, so any inspect provider can answer them.
Each sample is one :class:`~causalgraph.taskkit.item.Item`: the same system and
user messages the runner sends, the item id as sample id, and the item's
task, variant, gold and provenance (``statement_id`` among it) as sample
metadata.  The scorer reads each answer with the task's own parser (the very
call :func:`causalgraph.bench.writer.make_record` makes), and the metric
scores the answers with :func:`causalgraph.bench.scoring.score_records`, the
function ``bench report`` uses, so the figures inspect prints are those
``causalgraph bench report`` prints for the same answers.  To put an inspect
log beside causalgraph's runs (``bench report``, ``stats``, ``view``), import
it: ``causalgraph bench import-inspect LOG`` (:mod:`causalgraph.interop.inspect_log`).

Task parameters (``-T``): ``variant`` (one id, several separated by commas,
or ``all``, the default), ``data`` (``--data`` of the command line: a dataset
name or a path; default the task's own corpus) and the task's item options
(``rule`` and ``order`` for the chain tasks, ``max_chains`` for multi-hop
CorrI, ``graph_edit`` — ``reverse`` or ``shuffle`` — for the CCR graph variants
and the structure tasks, ``flip-signs`` or ``flip-signs:k`` for multi-hop CorrI and net-effect).  Generation is greedy (temperature 0) as in ``bench run``, unless
``--temperature`` says otherwise.
"""

from __future__ import annotations

import inspect as _pyinspect
import json
import math
from typing import Any, Optional, Sequence

try:
    from inspect_ai import Task as InspectTask
    from inspect_ai import task as _inspect_task_decorator
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, SampleScore, Target, metric, scorer
    from inspect_ai.solver import TaskState, generate
    from inspect_ai.util import registry_info
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("causalgraph.interop.inspect needs inspect_ai: pip install 'causalgraph[inspect]'") from exc

from ..taskkit.item import Item
from ..errors import ConfigError
from ..tasks import Task, get_task, list_tasks
from ..bench.prepare import dataset_info
from ..bench.writer import make_record
from ..llm.base import Completion
from ..runlog.record import RunRecord
from ..bench.scoring import score_records
from .._version import __version__
from ..datasets import load_corpus

__all__ = ["inspect_task", "item_sample", "sample_item", "bench_scorer", "bench_scores", "resolve_variants",
           "inspect_name", "register_inspect_task", "REGISTERED"]

#: The sample-metadata keys that identify an item (``sample_item`` reads them back).
ITEM_KEYS = ("task", "variant", "item_id", "gold", "meta")

#: causalgraph task name → the inspect task function registered for it (``causalgraph/<name>``).
REGISTERED: dict[str, Any] = {}


def inspect_name(task: str) -> str:
    """The inspect name of a causalgraph task: ``-`` becomes ``_``.

    Examples
    --------
    >>> inspect_name("ccr-member")
    'ccr_member'
    """
    return task.replace("-", "_")


def _yaml_variant(spec: Task, value: Any) -> str:
    """The variant id that inspect's ``-T`` parsing turned into ``value``.

    inspect reads ``-T`` values as YAML, which reads ``0_1`` as the octal
    number 1; every variant id the task has is read the same way, and the one
    that gives ``value`` is the one the user typed.
    """
    import yaml

    ids = spec.list_variants()
    matches = [v for v in ids if yaml.safe_load(v) == value and not isinstance(yaml.safe_load(v), str)]
    if len(matches) != 1:
        raise ConfigError(f"task {spec.name!r}: variant {value!r} names no variant (YAML read it as a "
                          f"{type(value).__name__}); quote it, e.g. -T variant=\"'0_1'\"; variants: {', '.join(ids)}")
    return matches[0]


def resolve_variants(spec: Task, variant: Any = "all") -> list[str]:
    """The variant ids a ``variant`` task parameter names, in the task's order when ``all``.

    ``variant`` may be one id, ids separated by commas, ``"all"`` (or
    ``None``), a list of ids (what inspect makes of ``-T variant=A_5,A_6``),
    or a number that inspect's YAML reading made of an id such as ``0_1``.

    Raises
    ------
    ConfigError
        For an unknown variant or one named twice.

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> resolve_variants(get_task("corri"), ["0_2", 1])
    ['0_2', '0_1']
    """
    if variant is None or variant == "all" or variant == ["all"]:
        return list(spec.list_variants())
    values = variant if isinstance(variant, (list, tuple)) else [variant]
    out: list[str] = []
    for value in values:
        parts = value.split(",") if isinstance(value, str) else [value]
        for part in parts:
            if isinstance(part, str):
                if not part.strip():
                    continue
                v = spec.variant_id(part.strip())
            else:
                v = _yaml_variant(spec, part)
            if v not in spec.list_variants():
                raise ConfigError(f"task {spec.name!r} has no variant {v!r}; expected one of "
                                  f"{', '.join(spec.list_variants())} or all")
            out.append(v)
    if not out:
        raise ConfigError(f"task {spec.name!r}: no variant given; expected one of {', '.join(spec.list_variants())} "
                          "or all")
    if len(set(out)) != len(out):
        raise ConfigError(f"task {spec.name!r}: variant named twice in {','.join(out)}")
    return out


def item_sample(item: Item) -> Sample:
    """The inspect ``Sample`` of an item: its chat messages, gold as target, the item's identity as metadata.

    Metadata keys: ``task``, ``variant``, ``item_id``, ``statement_id``,
    ``gold`` (as the item has it; the target is the label, the list of gold
    answers, or empty for ``None``) and ``meta``
    (the item's provenance); :func:`sample_item` reads the item back.

    Examples
    --------
    >>> from causalgraph.taskkit.item import Item
    >>> s = item_sample(Item("demo/v1/s1/r1", "demo", "v1", "Same or opposite?", "positive", {"statement_id": "s1"}))
    >>> s.id, s.target, s.metadata["statement_id"]
    ('demo/v1/s1/r1', 'positive', 's1')
    """
    messages: list[Any] = []
    if item.system:
        messages.append(ChatMessageSystem(content=item.system))
    messages.append(ChatMessageUser(content=item.prompt))
    # A JSON round trip: the metadata must hold plain JSON values (tuples become lists), as a run's records do.
    meta = _json_value(item.meta)
    return Sample(id=item.id, input=messages, target=_target(item.gold),
                  metadata={"task": item.task, "variant": item.variant, "item_id": item.id,
                            "statement_id": meta.get("statement_id"), "gold": item.gold, "meta": meta})


def _target(gold: Any) -> str | list[str]:
    """inspect's target for a gold value: the label, the list of answers (node sets), else JSON text."""
    if gold is None:
        return ""
    if isinstance(gold, str):
        return gold
    if isinstance(gold, (list, tuple)) and all(isinstance(g, str) for g in gold):
        return list(gold)
    return json.dumps(gold, ensure_ascii=False)


def _identity(metadata: Any, where: str) -> dict[str, Any]:
    md = metadata if isinstance(metadata, dict) else {}
    missing = [k for k in ITEM_KEYS if k not in md]
    if missing:
        raise ConfigError(f"{where}: its metadata has no {', '.join(missing)}; only samples of causalgraph's "
                          "inspect tasks (causalgraph/<task>) can be read back as items")
    return md


def sample_item(metadata: dict[str, Any], messages: str | Sequence[Any] = (), where: str = "sample") -> Item:
    """The item a sample was made from: :func:`item_sample`'s metadata and input messages read back.

    Raises
    ------
    ConfigError
        When the metadata holds no causalgraph item (a sample of another
        harness's task).

    Examples
    --------
    >>> from causalgraph.taskkit.item import Item
    >>> it = Item("demo/v1/s1", "demo", "v1", "Yes?", "yes", {"statement_id": "s1"}, system="Be brief.")
    >>> s = item_sample(it)
    >>> sample_item(s.metadata, s.input) == it
    True
    """
    md = _identity(metadata, where)
    if isinstance(messages, str):
        messages = [ChatMessageUser(content=messages)]
    system = next((m.text for m in messages if getattr(m, "role", None) == "system"), None)
    prompt = next((m.text for m in messages if getattr(m, "role", None) == "user"), "")
    return Item(id=md["item_id"], task=md["task"], variant=md["variant"], prompt=prompt, gold=md["gold"],
                meta=dict(md.get("meta") or {}), system=system)


def _json_value(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False))


def _record(item: Item, spec: Task, text: str) -> RunRecord:
    """The run record of an answer, built by the runner's own ``make_record`` (same parse, same failures)."""
    rec = make_record(item, spec, completion=Completion(text=text), key="", source="inspect", attempts=1, error=None)
    # Records are read back from JSON lines before they are scored; so are these.
    return RunRecord.from_dict(_json_value(rec.to_dict()))


@scorer(metrics=[], name="bench_scorer")
def bench_scorer(task: str):
    """The task's parser as an inspect scorer.

    Each score's ``metadata`` holds the parsed ``label`` and the parse
    ``rule``; ``answer`` is the label (JSON text for a structured one) and
    ``explanation`` the rule.  The value is ``C``/``I`` (label equals gold or
    not) for label tasks; for tasks scored otherwise (extraction, annotation)
    it is 1 when an answer could be read and 0 when not — their scores are
    the metric's, over all items, as ``bench report`` computes them.
    """
    spec = get_task(task)

    async def score(state: TaskState, target: Target) -> Score:
        item = sample_item(state.metadata, state.input, where=f"sample {state.sample_id!r}")
        rec = _record(item, spec, state.output.completion)
        label, rule = rec.label, rec.rule
        if not spec.by_labels:
            value: Any = 1 if label is not None else 0
        else:
            value = CORRECT if label is not None and label == item.gold else INCORRECT
        answer = None if label is None else (label if isinstance(label, str) else json.dumps(label, ensure_ascii=False))
        return Score(value=value, answer=answer, explanation=rule, metadata={"label": label, "rule": rule})

    return score


def _score_paths(scores: dict[str, Any], prefix: str = "") -> list[str]:
    """Dotted paths of the ``precision``, ``recall``, ``f1`` and ``accuracy`` entries of a nested score dict."""
    out = []
    for key, value in scores.items():
        if isinstance(value, dict):
            out += _score_paths(value, f"{prefix}{key}.")
        elif key in ("precision", "recall", "f1", "accuracy") and prefix:
            out.append(f"{prefix}{key}")
    return out


def _headline(spec: Task, scores: dict[str, Any]) -> dict[str, float]:
    """The figures a variant reports: those ``bench report`` shows, plus accuracy and the parse-failure rate."""
    if spec.kind == "binary":
        names = ["precision", "recall", "f1", "accuracy"]
    elif spec.kind == "multiclass":
        names = ["macro_precision", "macro_recall", "macro_f1", "accuracy", *spec.answers.extra_metrics]
    else:
        # The task's own score: its precision, recall, F1 and accuracy figures wherever its dict holds them
        # (extraction: the headline at the top; annotation: pairs.token.f1, causal.accuracy …).
        names = [k for k in ("precision", "recall", "f1") if k in scores]
        if not names:
            names = _score_paths(scores)
    out: dict[str, float] = {}
    for name in names:
        value: Any = scores
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            out[name.replace(".", "_")] = float(value)
    if scores.get("parse_failure_rate") is not None:  # None: nothing was answered, so no rate
        out["parse_failure_rate"] = float(scores["parse_failure_rate"])
    return out


@metric(name="bench_scores", scores="unreduced")
def bench_scores(task: str):
    """causalgraph's scores of the answers, per variant: :func:`~causalgraph.bench.scoring.score_records`.

    Binary tasks report ``precision``, ``recall``, ``f1`` (of the positive
    class) and ``accuracy``; multiclass tasks ``macro_precision``,
    ``macro_recall``, ``macro_f1``, ``accuracy`` and the task's extra scores
    (``authors_f1``); other tasks the precision, recall, F1 and accuracy
    figures of their own score (``pairs_token_f1`` for annotation).  Every
    variant adds ``parse_failure_rate``.  With one variant the names are
    plain; with several each is prefixed by its variant (``A_5/f1``).
    Samples inspect could not answer (an error) have no score and are left
    out here; ``bench import-inspect`` counts them as wrong, as a run does.
    """
    spec = get_task(task)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        by_variant: dict[str, list[RunRecord]] = {}
        for s in scores:
            md = _identity(s.sample_metadata, f"sample {s.sample_id!r}")
            sm = s.score.metadata or {}
            by_variant.setdefault(md["variant"], []).append(
                RunRecord(task=md["task"], variant=md["variant"], item_id=md["item_id"], gold=md["gold"],
                          meta=dict(md["meta"] or {}), label=sm.get("label"), rule=sm.get("rule")))
        order = {v: i for i, v in enumerate(spec.list_variants())}
        variants = sorted(by_variant, key=lambda v: (order.get(v, len(order)), v))
        out: dict[str, float] = {}
        for v in variants:
            # Items of a run are scored in item-id order (store.load sorts them); bootstrap intervals are
            # not reported here, so none are drawn.
            recs = sorted(by_variant[v], key=lambda r: r.item_id)
            head = _headline(spec, score_records(recs, spec, n_boot=0))
            prefix = "" if len(variants) == 1 else f"{v}/"
            out.update({f"{prefix}{k}": x for k, x in head.items()})
        return out

    return compute


def inspect_task(task: str, variant: Any = "all", *, data: Optional[str] = None, **item_options: Any) -> InspectTask:
    """An inspect ``Task`` for one causalgraph task: its items as samples, its parser and scores.

    Parameters
    ----------
    task
        A task of :func:`causalgraph.tasks.list_tasks` (a task registered
        with :func:`~causalgraph.tasks.register_task` too).
    variant
        Variant ids (see :func:`resolve_variants`); default every variant.
    data
        Dataset name or path (default: the task's own corpus).
    **item_options
        The task's item options (``rule``, ``order``, ``prompts`` …; with
        inspect, ``-T prompts=tables`` asks a ClimateCause paper task in the
        printed tables' wording instead of the authors').  The task's metadata
        records the prompt catalog of tasks that offer one.

    Examples
    --------
    >>> from inspect_ai import eval as inspect_eval               # doctest: +SKIP
    >>> log, = inspect_eval(inspect_task("ccr-member", "A_5"), model="mockllm/model", limit=10)  # doctest: +SKIP
    >>> log.results.scores[0].metrics["f1"].value                 # doctest: +SKIP
    0.0
    """
    spec = get_task(task)
    variants = resolve_variants(spec, variant)
    corpus = load_corpus(spec.data_source(data))
    samples: list[Sample] = []
    for v in variants:
        samples.extend(item_sample(it) for it in spec.items(corpus, v, **item_options))
    options = {k: v for k, v in item_options.items() if v is not None}
    catalog = spec.prompt_catalog(options.get("prompts"))
    return InspectTask(
        dataset=samples,
        solver=generate(),
        scorer=bench_scorer(task),
        metrics=[bench_scores(task)],
        config=GenerateConfig(temperature=0.0),
        metadata={"causalgraph": {"task": task, "variants": variants, "data": data,
                                  "dataset": dataset_info(corpus), "item_options": options,
                                  **({"prompts": catalog} if catalog is not None else {}),
                                  "causalgraph_version": __version__}},
    )


def _task_function(task: str):
    """A function of the task's parameters (``variant``, ``data``, its item options) returning its inspect Task."""
    spec = get_task(task)

    def build(**kwargs: Any) -> InspectTask:
        return inspect_task(task, kwargs.pop("variant", "all"), data=kwargs.pop("data", None), **kwargs)

    params = [_pyinspect.Parameter("variant", _pyinspect.Parameter.KEYWORD_ONLY, default="all"),
              _pyinspect.Parameter("data", _pyinspect.Parameter.KEYWORD_ONLY, default=None)]
    params += [_pyinspect.Parameter(name, _pyinspect.Parameter.KEYWORD_ONLY, default=None)
               for name in spec.item_options]
    # inspect reads a task's parameters from its signature (and passes -T values by name).
    build.__signature__ = _pyinspect.Signature(params, return_annotation=InspectTask)  # type: ignore[attr-defined]
    build.__name__ = build.__qualname__ = inspect_name(task)
    build.__module__ = __name__
    build.__doc__ = f"causalgraph task {task!r}: {spec.description or spec.kind}"
    return build


def register_inspect_task(task: str):
    """Register ``causalgraph/<inspect_name(task)>`` with inspect (done on import for every built-in task).

    Call it for a task added with :func:`~causalgraph.tasks.register_task`
    after this module was imported.  Returns the registered task function.
    """
    if task not in REGISTERED:
        fn = _inspect_task_decorator(_task_function(task), name=inspect_name(task))
        if registry_info(fn).name != f"causalgraph/{inspect_name(task)}":
            # inspect prefixes the package name only when it finds causalgraph installed; run from a source
            # checkout (an egg-info folder before the installed metadata on sys.path) it does not, and the
            # name must say the namespace itself.
            fn = _inspect_task_decorator(_task_function(task), name=f"causalgraph/{inspect_name(task)}")
        REGISTERED[task] = fn
    return REGISTERED[task]


def _register_all(names: Sequence[str]) -> None:
    for name in names:
        register_inspect_task(name)


_register_all(list_tasks())
