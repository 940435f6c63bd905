"""The task registry: task name → item builder, answer parser and scorer.

The runner is generic over tasks.  A task is a :class:`TaskSpec`; the
ClimateCause tasks (``corri``, ``corri-rc``, ``ccr-member``,
``ccr-position``, ``ccr-eci-member``, ``ccr-eci-position``,
``corri-multihop`` and any other task the prompt catalog defines) are
created on first use from ``causalgraph.prompts`` and
``causalgraph.bench.tasks``; other code (the
PubMedCausal extraction, an annotator) adds its own with
:func:`register_task`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..errors import ConfigError
from .parse import parse_labels

__all__ = ["TaskSpec", "register_task", "get_task", "list_tasks", "CLIMATECAUSE_TASKS"]

#: The ClimateCause benchmark tasks of the paper (§6.1, Table 4).
CLIMATECAUSE_TASKS = ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position")


@dataclass(frozen=True)
class TaskSpec:
    """Everything the runner, the parser and the scorer need to know about a task.

    Attributes
    ----------
    name
        Task name used on the command line (``--task``).
    build_items
        ``build_items(corpus, variant) -> list[Item]``.
    list_variants
        ``list_variants() -> list[str]``: the variant ids, in the paper's order.
    labels
        Canonical gold labels (``("positive", "negative")``…); empty for
        tasks scored otherwise.
    kind
        ``"binary"`` (P/R/F1 of ``positive``), ``"multiclass"`` (per-class
        and macro scores) or ``"custom"`` (``score`` is required).
    positive
        The positive class of a binary task.
    answer_words
        ``answer_words(variant) -> {canonical label: word the prompt asks for}``
        (e.g. ``{"positive": "same", "negative": "opposite"}``).
    strategy
        ``strategy(variant) -> str``: the prompting strategy a variant belongs
        to (rows of the paper's Table 4).
    parse
        Optional ``parse(text, variant) -> (label | None, rule)``; by default
        :func:`causalgraph.bench.parse.parse_labels` with ``answer_words``.
    score
        Optional ``score(records) -> dict`` for ``kind="custom"`` tasks;
        ``records`` are the run's response dicts of one variant.
    canonical_variant
        Optional ``canonical_variant(variant) -> id``: accepts other names for
        a variant (the paper's ``CorrI_RC_F_1``) and raises
        :class:`~causalgraph.errors.ConfigError` for unknown ones.
    default_data
        Dataset read when ``--data`` is not given.
    description
        One line for ``causalgraph bench tasks``.
    """

    name: str
    build_items: Callable[..., list]
    list_variants: Callable[[], list[str]]
    labels: tuple[str, ...] = ()
    kind: str = "binary"
    positive: Optional[str] = None
    answer_words: Optional[Callable[[str], dict[str, str]]] = None
    strategy: Optional[Callable[[str], str]] = None
    parse: Optional[Callable[[str, str], tuple[Any, str]]] = None
    score: Optional[Callable[[list[dict]], dict]] = None
    canonical_variant: Optional[Callable[[str], str]] = None
    default_data: str = "climatecause"
    description: str = ""

    def __post_init__(self):
        if self.kind not in ("binary", "multiclass", "custom"):
            raise ConfigError(f"task {self.name!r}: kind {self.kind!r}, expected binary, multiclass or custom")
        if self.kind == "binary" and (len(self.labels) != 2 or self.positive not in self.labels):
            raise ConfigError(f"task {self.name!r}: a binary task needs two labels and a positive one among them; "
                              f"found labels={self.labels!r} positive={self.positive!r}")
        if self.kind == "custom" and self.score is None:
            raise ConfigError(f"task {self.name!r}: a custom task needs a score function")

    def variant_id(self, variant: str) -> str:
        """The canonical id of ``variant`` (checked against the task's variants when it can be)."""
        if self.canonical_variant is not None:
            return self.canonical_variant(variant)
        return variant

    def words(self, variant: str) -> dict[str, str]:
        """Canonical label → the word this variant asks for (identity when unknown)."""
        if self.answer_words is not None:
            words = self.answer_words(variant)
            if words:
                return dict(words)
        return {lab: lab for lab in self.labels}

    def strategy_of(self, variant: str) -> str:
        """The prompting strategy of ``variant``."""
        if self.strategy is not None:
            return self.strategy(variant)
        return variant_strategy(variant)

    def parse_answer(self, text: str, variant: str) -> tuple[Any, str]:
        """Parse a model answer into a canonical label and the rule that matched."""
        if self.parse is not None:
            return self.parse(text, variant)
        return parse_labels(text, self.words(variant))


_TASKS: dict[str, TaskSpec] = {}


def register_task(spec: TaskSpec, *, replace: bool = False) -> TaskSpec:
    """Add a task to the registry (``replace=True`` to override one).

    Examples
    --------
    >>> from causalgraph.bench import Item
    >>> spec = TaskSpec(name="demo-yesno", labels=("yes", "no"), positive="yes",
    ...                 build_items=lambda corpus, variant: [Item("d1", "demo-yesno", variant, "Yes?", "yes")],
    ...                 list_variants=lambda: ["v1"])
    >>> register_task(spec, replace=True).name
    'demo-yesno'
    """
    if spec.name in _TASKS and not replace:
        raise ConfigError(f"task {spec.name!r} is already registered (pass replace=True to override it)")
    _TASKS[spec.name] = spec
    return spec


def list_tasks() -> list[str]:
    """Registered task names plus the ClimateCause tasks of the prompt catalog, sorted."""
    from .. import prompts

    return sorted(set(_TASKS) | set(CLIMATECAUSE_TASKS) | set(prompts.list_tasks()))


def get_task(name: str) -> TaskSpec:
    """The :class:`TaskSpec` of ``name``.

    Raises
    ------
    ConfigError
        When no task of that name is registered or in the prompt catalog.
    """
    if name in _TASKS:
        return _TASKS[name]
    spec = _climatecause_spec(name)
    if spec is None:
        raise ConfigError(f"unknown task {name!r}; expected one of {', '.join(list_tasks())}")
    _TASKS[name] = spec
    return spec


_STRATEGY_NAMES = {"0": "0-shot", "F": "F-shot", "CoT": "CoT", "A": "Adjacency", "SN": "Single N.", "ML": "GraphML"}


def variant_strategy(variant: str) -> str:
    """Strategy of a variant id by the paper's naming (``F_2`` → ``F-shot``, ``SN_5`` → ``Single N.``).

    Examples
    --------
    >>> variant_strategy("RC_CoT_3"), variant_strategy("A_4"), variant_strategy("0_1")
    ('CoT', 'Adjacency', '0-shot')
    """
    parts = [p for p in re.split(r"[_\-\s]+", variant) if p]
    # The last part is the variation number; the strategy comes just before it.
    if len(parts) >= 2 and parts[-1].isdigit():
        key = parts[-2]
    else:
        key = parts[-1] if parts else variant
    return _STRATEGY_NAMES.get(key, _STRATEGY_NAMES.get(key.upper(), key))


def _climatecause_spec(name: str) -> Optional[TaskSpec]:
    """The spec of a ClimateCause task, built from the prompt catalog and the item builders."""
    from .. import prompts

    if name not in prompts.list_tasks():
        return None
    variants = prompts.list_variants(name)
    labels = tuple(variants[0].answer_labels)
    if len(labels) == 2:
        positive = "positive" if "positive" in labels else ("yes" if "yes" in labels else labels[0])
        kind = "binary"
    else:
        positive, kind = None, "multiclass"

    def build(corpus, variant, _name=name):
        from .tasks import items as build_items

        return list(build_items(corpus, _name, variant))

    def words(variant, _name=name):
        return dict(prompts.get_variant(_name, variant).answer_labels)

    def strategy(variant, _name=name):
        return prompts.get_variant(_name, variant).strategy or variant_strategy(variant)

    def canonical(variant, _name=name):
        return prompts.get_variant(_name, variant).id

    return TaskSpec(name=name, build_items=build, list_variants=lambda _n=name: [v.id for v in prompts.list_variants(_n)],
                    labels=labels, kind=kind, positive=positive, answer_words=words, strategy=strategy,
                    canonical_variant=canonical,
                    description=f"ClimateCause {name} ({len(variants)} prompt variants, labels {', '.join(labels)})")
