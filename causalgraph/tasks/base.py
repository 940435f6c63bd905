"""The one task interface: a :class:`Task` says how to build, parse and score a benchmark task.

The runner, the store, the scorer, the statistics and the viewer know tasks
only through this record; the task families (:mod:`causalgraph.tasks.climatecause`,
:mod:`~causalgraph.tasks.pubmedcausal`, :mod:`~causalgraph.tasks.annotation`)
declare theirs with it.

What a task's answers are, with the hooks of that kind, is a kind object
of :mod:`causalgraph.tasks.kinds` (:attr:`Task.answers`).

Every hook that receives what a run answered (``score``, ``pairs``,
``correct``, ``paired_counts``, ``Signs.path``, ``GraphFirst.scores``) receives
:class:`~causalgraph.runlog.record.RunRecord` objects and reads their
attributes (``record.label``, ``record.meta``); records are not mappings.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from ..errors import ConfigError
from ..runlog.files import Manifest
from ..runlog.record import RunRecord
from ..taskkit.labels import parse_labels
from .kinds import AnswerKind, Binary, GraphFirst, _LabelAnswers

__all__ = ["Task", "ITEM_OPTION_FLAGS"]

#: The item options ``causalgraph items`` sets by a flag of the same name (``event_names``: ``--event-names``);
#: tests/cli/test_flag_messages.py checks them against its parser.
ITEM_OPTION_FLAGS = ("rule", "order", "encoding", "event_names", "prompts", "graph_edit")


@dataclass(frozen=True)
class Task:
    """Everything the runner, the parser and the scorer need to know about a task.

    What the answers are, and the hooks that only mean something for that
    kind of answer, live on the kind object :attr:`answers`
    (:mod:`causalgraph.tasks.kinds`); the task itself holds what every task
    has.

    Attributes
    ----------
    name
        Task name used on the command line (``--task``).
    build_items
        ``build_items(corpus, variant, **options) -> list[Item]``.
    list_variants
        ``list_variants() -> list[str]``: the variant ids, in the paper's order.
    answers
        What an answer is: :class:`~causalgraph.tasks.kinds.Binary` (one of
        two labels, P/R/F1 of the positive one),
        :class:`~causalgraph.tasks.kinds.Multiclass` (per-class and macro
        scores), :class:`~causalgraph.tasks.kinds.EventSet` (micro P/R/F1 of
        the events, right when the set is exact),
        :class:`~causalgraph.tasks.kinds.Pairs` (a set of cause-effect pairs,
        shown by its item view) or :class:`~causalgraph.tasks.kinds.Custom`.
        The generic layers (scoring, ``stats``, ``bench report``, the viewer)
        decide by this object, never by the task's name.
    default_data
        Dataset read when ``--data`` is not given; ``None`` (the default)
        makes ``--data`` required (:meth:`data_source`).
    description
        One line for ``causalgraph bench tasks``.
    parse
        Optional ``parse(text, variant) -> (answer | None, rule)``; by default
        :func:`causalgraph.taskkit.labels.parse_labels` with the answer words
        of a label kind.
    strategy
        ``strategy(variant) -> str``: the prompting strategy a variant belongs
        to (rows of the paper's Table 4); the variant id itself when not given.
    canonical_variant
        Optional ``canonical_variant(variant) -> id``: accepts other names for
        a variant (the paper's ``CorrI_RC_F_1``) and raises
        :class:`~causalgraph.errors.ConfigError` for unknown ones.
    item_options
        Names of the keyword options ``build_items`` takes beyond the corpus
        and the variant (ClimateCause: ``rule``, ``order``); see :meth:`items`.
    variant_words
        Words in variant ids that name the task rather than the prompt
        (``RC`` in ``RC_F_2``), left out when paired statistics match the
        variants of two runs (``F_2`` with ``RC_F_2``).
    prompt_catalogs
        The prompt catalogs a task's items can be built from, its default
        first (ClimateCause paper tasks: ``("authors", "tables")``); empty
        for a task with one set of prompts and no choice.  ``build_items``
        then takes the option ``prompts`` (one of these names).
    unrecorded_prompts
        The catalog of a run whose manifest names none (runs written before
        the task offered a choice): such runs read and resume as runs of it.
    requires
        What the task needs of a corpus beyond its graphs, in the column
        names of the relations format (``"text"``, ``"correlation"`` …; see
        docs/data.md).  :meth:`items` refuses, in one line, a corpus that
        :attr:`~causalgraph.model.Corpus.lacks` one of them (CorrI on a
        graph file, which has no statement text).
    graph_first
        Optional :class:`~causalgraph.tasks.kinds.GraphFirst`: the variants
        that write a graph before they answer (how to read and score it).

    Examples
    --------
    >>> from causalgraph.tasks.kinds import Binary
    >>> t = Task(name="t", build_items=list, list_variants=list, answers=Binary(labels=("yes", "no"), positive="yes"))
    >>> t.kind, t.labels, t.positive, t.paired_metric_name()
    ('binary', ('yes', 'no'), 'yes', 'f1(yes)')
    """

    name: str
    build_items: Callable[..., list]
    list_variants: Callable[[], list[str]]
    answers: AnswerKind
    default_data: Optional[str] = None
    description: str = ""
    parse: Optional[Callable[[str, str], tuple[Any, str]]] = None
    strategy: Optional[Callable[[str], str]] = None
    canonical_variant: Optional[Callable[[str], str]] = None
    item_options: tuple[str, ...] = ()
    variant_words: tuple[str, ...] = ()
    prompt_catalogs: tuple[str, ...] = ()
    unrecorded_prompts: Optional[str] = None
    requires: tuple[str, ...] = ()
    graph_first: Optional[GraphFirst] = None

    def __post_init__(self):
        if not isinstance(self.answers, AnswerKind):
            raise ConfigError(f"task {self.name!r}: answers must be a kind object (Binary, Multiclass, EventSet, "
                              f"Pairs or Custom from causalgraph.extend); found {type(self.answers).__name__}")
        self.answers.check(self.name)
        if self.default_data is not None and (not isinstance(self.default_data, str) or not self.default_data):
            raise ConfigError(f"task {self.name!r}: default_data must be a dataset name or path, or None; "
                              f"found {self.default_data!r}")
        if self.graph_first is not None and not isinstance(self.graph_first, GraphFirst):
            raise ConfigError(f"task {self.name!r}: graph_first must be a GraphFirst record; "
                              f"found {type(self.graph_first).__name__}")
        if self.prompt_catalogs and "prompts" not in self.item_options:
            raise ConfigError(f"task {self.name!r}: prompt catalogs {list(self.prompt_catalogs)} need the item option "
                              "'prompts' (build_items takes prompts=NAME)")

    @property
    def kind(self) -> str:
        """The name of the answers' kind: one of :data:`~causalgraph.tasks.kinds.KINDS`."""
        return self.answers.name

    @property
    def by_labels(self) -> bool:
        """Whether an answer is one label of :attr:`labels` (a binary or multiclass task)."""
        return self.answers.by_labels

    @property
    def labels(self) -> tuple[str, ...]:
        """The canonical gold labels of a label kind; empty for a task scored otherwise."""
        return self.answers.labels if isinstance(self.answers, _LabelAnswers) else ()

    @property
    def positive(self) -> Optional[str]:
        """The positive class of a binary task, else ``None``."""
        return self.answers.positive if isinstance(self.answers, Binary) else None

    def data_source(self, data: Optional[str] = None) -> str:
        """The dataset a command reads: ``data`` when given, else :attr:`default_data`.

        Parameters
        ----------
        data
            What ``--data`` says (a name or a path), or ``None``.

        Returns
        -------
        str
            The dataset name or path to load.

        Raises
        ------
        ConfigError
            When neither is given: a task with no default corpus needs ``--data``.

        Examples
        --------
        >>> from causalgraph.tasks.kinds import Binary
        >>> t = Task(name="t", build_items=list, list_variants=list, answers=Binary(labels=("y", "n"), positive="y"))
        >>> t.data_source("pubmedcausal")
        'pubmedcausal'
        >>> t.data_source()
        Traceback (most recent call last):
        ...
        causalgraph.errors.ConfigError: task 't' names no default dataset; pass --data NAME|PATH
        """
        if data is not None:
            return data
        if self.default_data is None:
            raise ConfigError(f"task {self.name!r} names no default dataset; pass --data NAME|PATH")
        return self.default_data

    def paired_score(self, record: RunRecord) -> tuple[Any, bool]:
        """One record's F1 counts and whether it is right, for ``stats compare``.

        Binary: ``(tp, fp, fn)`` of the positive class; multiclass: one such
        row per label; set: ``(tp, fp, fn)`` of the events; pairs and custom:
        their kind's ``paired_counts``.

        Raises
        ------
        ConfigError
            For a ``pairs`` or ``custom`` task that declares no ``paired_counts``.

        Examples
        --------
        >>> from causalgraph.tasks.kinds import Binary
        >>> t = Task(name="t", build_items=list, list_variants=list, answers=Binary(labels=("yes", "no"), positive="yes"))
        >>> from causalgraph.runlog import RunRecord
        >>> t.paired_score(RunRecord("t", "v", "i", gold="yes", label="no"))
        ((0, 0, 1), False)
        """
        return self.answers.paired_score(record, self.name)

    def check_paired(self) -> None:
        """Raise :class:`~causalgraph.errors.ConfigError` unless :meth:`paired_score` can score this task."""
        self.answers.check_paired(self.name)

    def paired_metric_name(self) -> str:
        """The name of the F1 that ``stats compare`` reports for this task (by its kind)."""
        return self.answers.paired_metric_name()

    def check_item_options(self, variant: str, **options: Any) -> None:
        """Refuse item options a variant cannot take (a graph-first one: :attr:`~causalgraph.tasks.kinds.GraphFirst.check_options`)."""
        if self.graph_first is not None and self.graph_first.check_options is not None:
            self.graph_first.check_options(variant, **options)

    def prompt_catalog(self, prompts: Optional[str] = None) -> Optional[str]:
        """The catalog ``prompts`` names for this task: ``None`` gives the default (``None`` when there is no choice).

        Raises
        ------
        ConfigError
            A one-line message naming the task, for a catalog it does not have
            (any catalog at all for a task without a choice).

        Examples
        --------
        >>> from causalgraph.tasks.kinds import Binary
        >>> t = Task(name="t", build_items=list, list_variants=list, answers=Binary(labels=("yes", "no"), positive="yes"))
        >>> t.prompt_catalog() is None
        True
        >>> t.prompt_catalog("authors")
        Traceback (most recent call last):
        ...
        causalgraph.errors.ConfigError: task 't' has one set of prompts of its own and no catalog to choose; drop --prompts authors
        """
        if prompts is None:
            return self.prompt_catalogs[0] if self.prompt_catalogs else None
        if not self.prompt_catalogs:
            raise ConfigError(f"task {self.name!r} has one set of prompts of its own and no catalog to choose; "
                              f"drop --prompts {prompts}")
        if prompts not in self.prompt_catalogs:
            raise ConfigError(f"task {self.name!r} has no {prompts!r} prompts; its catalogs: "
                              f"{', '.join(self.prompt_catalogs)}")
        return prompts

    def manifest_prompts(self, manifest: "Manifest | Mapping[str, Any]") -> Optional[str]:
        """The catalog a run manifest says its items were built from (:attr:`unrecorded_prompts` when it says none)."""
        recorded = Manifest.of(manifest).prompts
        if recorded is not None:
            return str(recorded)
        return self.unrecorded_prompts if self.prompt_catalogs else None

    def items(self, corpus, variant: str, **options: Any) -> list:
        """The items of one variant; ``options`` (``None`` values are left out) must be :attr:`item_options`.

        Items built from a corpus without statement text (graph files) say
        so in their meta: ``meta["statement_text"]`` is ``False``.

        Raises
        ------
        ConfigError
            For an option this task does not take, or a corpus that lacks
            what the task :attr:`requires`.
        """
        given = {k: v for k, v in options.items() if v is not None}
        if "prompts" in given:
            # Checked here, whatever the task: a one-line error that names it, not "takes no item option".
            self.prompt_catalog(given["prompts"])
        unknown = sorted(set(given) - set(self.item_options))
        if unknown:
            # Both names where `causalgraph items` has a flag for the option; the others (max_chains,
            # cycle_limit, seed) are keywords of the library only, and a flag named for them would not exist.
            def both(option: str) -> str:
                return f"{option} (--{option.replace('_', '-')})" if option in ITEM_OPTION_FLAGS else option

            takes = ", ".join(map(both, self.item_options)) or "none"
            raise ConfigError(f"task {self.name!r} takes no item option {', '.join(map(both, unknown))} "
                              f"(it takes: {takes})")
        lacks = tuple(getattr(corpus, "lacks", ()) or ())
        gone = [c for c in self.requires if c in lacks]
        if gone:
            source = getattr(corpus, "source", None) or getattr(corpus, "name", "the corpus")
            what = ("statement text" if c == "text" else f"{c!r} labels" for c in gone)
            raise ConfigError(f"task {self.name!r} needs {' and '.join(what)}, which {source} does not hold "
                              f"(see docs/data.md); tasks that need only the graph: ccr-member, ccr-position, "
                              f"the structure and identification tasks")
        out = list(self.build_items(corpus, variant, **given))
        if "text" in lacks:
            # An item on a graph file asks about a graph that no text states: say so where scores are read.
            out = [dataclasses.replace(it, meta={**it.meta, "statement_text": False}) if hasattr(it, "meta") else it
                   for it in out]
        return out

    def choices(self, variant: str) -> dict[str, str]:
        """Label → continuation of ``variant`` for log-likelihood scoring, in the order of :attr:`labels`.

        Raises
        ------
        ConfigError
            For a task without a closed label set or declared continuations,
            and for a variant that asks for reasoning first.

        Examples
        --------
        >>> from causalgraph.tasks.kinds import Binary
        >>> t = Task(name="t", build_items=list, list_variants=list,
        ...          answers=Binary(labels=("yes", "no"), positive="yes", continuations=lambda v: {"no": "No", "yes": "Yes"}))
        >>> t.choices("v1")
        {'yes': 'Yes', 'no': 'No'}
        """
        conts = self.answers.continuations if isinstance(self.answers, _LabelAnswers) else None
        if conts is None:
            raise ConfigError(f"task {self.name!r} declares no answer continuations (its answers are not one of a "
                              "closed set of labels), so --method loglik cannot score it; use --method generate")
        out = dict(conts(variant))
        if set(out) != set(self.labels):
            raise ConfigError(f"task {self.name!r} variant {variant!r}: continuations for {sorted(out)}, expected one "
                              f"for each label {list(self.labels)}")
        for lab, text in out.items():
            if not isinstance(text, str) or not text:
                raise ConfigError(f"task {self.name!r} variant {variant!r}: continuation of {lab!r} is {text!r}; "
                                  "expected a non-empty string")
        return {lab: out[lab] for lab in self.labels}

    def variant_id(self, variant: str) -> str:
        """The canonical id of ``variant`` (checked against the task's variants when it can be)."""
        if self.canonical_variant is not None:
            return self.canonical_variant(variant)
        return variant

    def words(self, variant: str) -> dict[str, str]:
        """Canonical label → the word this variant asks for (identity when unknown)."""
        answer_words = self.answers.answer_words if isinstance(self.answers, _LabelAnswers) else None
        if answer_words is not None:
            words = answer_words(variant)
            if words:
                return dict(words)
        return {lab: lab for lab in self.labels}

    def strategy_of(self, variant: str) -> str:
        """The prompting strategy of ``variant``."""
        if self.strategy is not None:
            return self.strategy(variant)
        return variant

    def is_correct(self, record: RunRecord) -> bool:
        """Whether one answered record is right (a failed request never is).

        Raises
        ------
        ConfigError
            For a ``pairs`` or ``custom`` task that defines no ``correct``.

        Examples
        --------
        >>> from causalgraph.tasks.kinds import Binary
        >>> t = Task(name="t", build_items=list, list_variants=list, answers=Binary(labels=("yes", "no"), positive="yes"))
        >>> from causalgraph.runlog import RunRecord
        >>> t.is_correct(RunRecord("t", "v", "i", gold="yes", label="yes")), t.is_correct(RunRecord("t", "v", "i", gold="yes"))
        (True, False)
        """
        if record.error:
            return False
        return self.answers.is_correct(record, self.name)

    def parse_answer(self, text: str, variant: str) -> tuple[Any, str]:
        """Parse a model answer into a canonical label and the rule that matched."""
        if self.parse is not None:
            return self.parse(text, variant)

        return parse_labels(text, self.words(variant))
