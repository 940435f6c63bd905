"""The one task interface: a :class:`Task` says how to build, parse and score a benchmark task.

The runner, the store, the scorer, the statistics and the viewer know tasks
only through this record; the task families (:mod:`causalgraph.tasks.climatecause`,
:mod:`~causalgraph.tasks.pubmedcausal`, :mod:`~causalgraph.tasks.annotation`)
declare theirs with it.

Every hook that receives what a run answered (``score``, ``pairs``,
``correct``, ``paired_counts``, ``signed_path``, ``graph_scores``) receives
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
from ..scoring.event_lists import record_outcome

__all__ = ["Task", "ItemView", "KINDS", "LABEL_KINDS", "ITEM_OPTION_FLAGS"]

#: The item options ``causalgraph items`` sets by a flag of the same name (``event_names``: ``--event-names``);
#: tests/cli/test_flag_messages.py checks them against its parser.
ITEM_OPTION_FLAGS = ("rule", "order", "encoding", "event_names", "prompts", "graph_edit")

#: What a task's answers are: one of two labels, one of several, a set of events, a set of
#: cause-effect pairs, or anything else (scored by its own ``score``).
KINDS = ("binary", "multiclass", "set", "pairs", "custom")
#: The kinds whose answer is one label of :attr:`Task.labels` (scored by causalgraph's P/R/F1).
LABEL_KINDS = ("binary", "multiclass")


@dataclass(frozen=True)
class ItemView:
    """How the viewer shows one item of a task whose answers are cause-effect pairs.

    Attributes
    ----------
    name
        The view's name, written into the page (``"extraction"``, ``"annotation"``).
    pairs
        ``pairs(record) -> (gold, predicted, unread)``: the gold and predicted
        ``(cause, effect)`` tuples of one record, and whether its answer could
        not be read (a null prediction or a failed request).
    display
        Optional ``display(value) -> str | None``: a short text for a gold
        value or parsed answer in the item table (``"2 pairs"``); ``None``
        falls back to the viewer's own rendering.
    """

    name: str
    pairs: Callable[[RunRecord], tuple]
    display: Optional[Callable[[Any], Optional[str]]] = None


@dataclass(frozen=True)
class Task:
    """Everything the runner, the parser and the scorer need to know about a task.

    Attributes
    ----------
    name
        Task name used on the command line (``--task``).
    build_items
        ``build_items(corpus, variant, **options) -> list[Item]``.
    variant_words
        Words in variant ids that name the task rather than the prompt
        (``RC`` in ``RC_F_2``), left out when paired statistics match the
        variants of two runs (``F_2`` with ``RC_F_2``).
    item_options
        Names of the keyword options ``build_items`` takes beyond the corpus
        and the variant (ClimateCause: ``rule``, ``order``); see :meth:`items`.
    list_variants
        ``list_variants() -> list[str]``: the variant ids, in the paper's order.
    labels
        Canonical gold labels (``("positive", "negative")``…); empty for
        tasks scored otherwise.
    kind
        One of :data:`KINDS`: ``"binary"`` (P/R/F1 of ``positive``),
        ``"multiclass"`` (per-class and macro scores), ``"set"`` (the answer
        is a set of events: micro P/R/F1 of the events, right when the set
        is exact), ``"pairs"`` (the answer is a set of cause-effect pairs,
        shown by :attr:`item_view`) or ``"custom"``.  ``set``, ``pairs``
        and ``custom`` tasks need ``score``.  The generic layers (scoring,
        ``stats``, ``bench report``, the viewer) decide by this kind and the
        hooks below, never by the task's name.
    positive
        The positive class of a binary task.
    answer_words
        ``answer_words(variant) -> {canonical label: word the prompt asks for}``
        (e.g. ``{"positive": "same", "negative": "opposite"}``).
    strategy
        ``strategy(variant) -> str``: the prompting strategy a variant belongs
        to (rows of the paper's Table 4); the variant id itself when not given.
    parse
        Optional ``parse(text, variant) -> (label | None, rule)``; by default
        :func:`causalgraph.taskkit.labels.parse_labels` with ``answer_words``.
    extra_scores
        Optional ``extra_scores(gold, pred) -> dict`` merged into a binary or
        multiclass variant's scores (e.g. the authors' position score).
    extra_metrics
        Dotted names of those extra scores that strategy means aggregate
        (``authors.f1``).
    coarsen
        Optional map from this task's labels to a coarser task's labels, so
        that paired statistics can compare the two (chain position →
        membership); ``coarse_labels`` are the labels it maps to.  ``stats
        consistency`` reads a task with ``coarsen`` as a chain-position task
        whose ``labels`` are start, middle, end and outside, in that order,
        and whose start maps to the member label.
    score
        Optional ``score(records) -> dict`` for ``set``, ``pairs`` and ``custom`` tasks;
        ``records`` are the run's :class:`~causalgraph.runlog.record.RunRecord` objects of one variant.
    canonical_variant
        Optional ``canonical_variant(variant) -> id``: accepts other names for
        a variant (the paper's ``CorrI_RC_F_1``) and raises
        :class:`~causalgraph.errors.ConfigError` for unknown ones.
    default_data
        Dataset read when ``--data`` is not given.
    description
        One line for ``causalgraph bench tasks``.
    correct
        Optional ``correct(record) -> bool``: whether one answer is right, for
        the reducers of repeated sampling (``pass@k``, ``pass^k``).  Binary and
        multiclass tasks need none (the label equals the gold label); a
        custom task without it cannot be reduced that way.
    reference_answer
        Optional ``reference_answer(item) -> str``: the text a perfect model
        would answer, for items without a gold label (``gold`` is ``None``;
        extraction: the gold pairs, kept in ``meta``, as the prompt asks for
        them).
        ``mock/oracle`` answers it, so a custom task runs end to end with
        the answers that must score full marks; ``None`` for an item it has
        no answer to (annotation: free text that is not a corpus statement),
        which ``mock/oracle`` refuses before asking anything.
    wrong_answer
        Optional ``wrong_answer(item) -> str``: what a model that gets an item
        of :attr:`reference_answer` wrong answers, in the task's own answer
        format (extraction: no relation where the text holds one, an
        unrelated pair where it holds none).  ``mock/noisy`` answers it when
        its draw flips an item; without it, the flipped answer is empty
        (read as unparsed, so scored wrong).
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
    paired_counts
        Optional ``paired_counts(record) -> (counts, correct)``: one
        record's contribution to its arm's F1 in ``stats compare`` (a
        ``(tp, fp, fn)`` triple, or one triple per label for multiclass) and
        whether it was answered right (McNemar's pairs).  By default from the
        kind (:meth:`paired_score`); a ``pairs`` or ``custom`` task without
        it is not compared.
    paired_metric
        Name of the F1 ``stats compare`` reports (default by kind:
        ``f1(<positive>)``, ``macro_f1``, ``micro_f1``).
    report_columns
        Dotted names of scores (among :attr:`extra_scores`' keys) that
        ``bench report`` shows as columns, dots turned into underscores
        (``authors.f1`` → ``authors_f1``); strategy rows show their mean ±
        std, so each must also be in :attr:`extra_metrics`.
    item_view
        Optional :class:`ItemView`: how the viewer shows an item whose
        answer is a set of cause-effect pairs; ``None`` shows labels.
    signed_path
        Optional ``signed_path(record) -> (statement id, events) | None``:
        the directed path (two events for one relation, more for a chain, in
        the real events' names) whose composed correlation the record's
        answer states, for ``stats consistency --signs``; ``None`` for a
        record that states no one path's sign.
    label_signs
        With :attr:`signed_path`: each label that states a sign → ``+1`` or
        ``-1`` (CorrI's ``positive``/``negative``; net-effect's
        ``increase``/``decrease``); other labels (``mixed``) state none.
    continuations
        Optional ``continuations(variant) -> {label: text}``: the answer to
        each label as the variant's prompt asks for it (``Yes``,
        ``<Answer>start</Answer>``, ``"1"``), what ``bench run --method
        loglik`` scores.  It raises :class:`~causalgraph.errors.ConfigError`
        for a variant whose prompt asks for reasoning before the answer
        (:func:`causalgraph.tasks.continuations.answer_continuations`).  A
        task without it is answered by generation only.
    parse_graph
        Optional ``parse_graph(text, variant) -> dict | None``: the graph a
        variant's answer writes before it answers (the graph-first variants,
        :mod:`causalgraph.tasks.graph_first`), kept as the record's
        ``graph``; ``None`` for a variant that writes no graph.
    graph_scores
        With :attr:`parse_graph`: ``graph_scores(record, rule=..., embedder=None) -> dict``,
        the record's graph scored against the item's gold graph after event
        alignment (``edge_precision``, ``edge_recall``, ``edge_f1``, ``note``;
        ``None`` where undefined), what ``bench report`` and ``stats compare``
        put beside the answer's accuracy.
    graph_answers
        With :attr:`parse_graph`: ``graph_answers(item) -> (right, wrong) | None``,
        the graph text a perfect model writes before its answer and a
        perturbed one (``mock/oracle`` and ``mock/noisy``); ``None`` for an
        item that asks for no graph.
    check_item_options
        Optional ``check_item_options(variant, **options)``: raises
        :class:`~causalgraph.errors.ConfigError` for item options (``encoding``,
        ``event_names``) a variant cannot take, before a command rewrites its id
        for them (``bench run --encoding``), so the refusal says why (a
        graph-first variant writes its own graph) rather than what the rewrite
        found.
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
    score: Optional[Callable[[list[RunRecord]], dict]] = None
    canonical_variant: Optional[Callable[[str], str]] = None
    default_data: str = "climatecause"
    description: str = ""
    extra_scores: Optional[Callable[[list, list], dict]] = None
    extra_metrics: tuple[str, ...] = ()
    coarsen: Optional[Callable[[Any], Any]] = None
    coarse_labels: tuple[str, ...] = ()
    item_options: tuple[str, ...] = ()
    variant_words: tuple[str, ...] = ()
    correct: Optional[Callable[[RunRecord], bool]] = None
    reference_answer: Optional[Callable[[Any], Optional[str]]] = None
    wrong_answer: Optional[Callable[[Any], str]] = None
    prompt_catalogs: tuple[str, ...] = ()
    unrecorded_prompts: Optional[str] = None
    requires: tuple[str, ...] = ()
    continuations: Optional[Callable[[str], Mapping[str, str]]] = None
    paired_counts: Optional[Callable[[RunRecord], tuple]] = None
    paired_metric: Optional[str] = None
    report_columns: tuple[str, ...] = ()
    item_view: Optional[ItemView] = None
    signed_path: Optional[Callable[[RunRecord], Optional[tuple]]] = None
    label_signs: Mapping[str, int] = dataclasses.field(default_factory=dict)
    parse_graph: Optional[Callable[[str, str], Optional[dict]]] = None
    graph_scores: Optional[Callable[..., dict]] = None
    graph_answers: Optional[Callable[[Any], Optional[tuple[str, str]]]] = None
    check_item_options: Optional[Callable[..., None]] = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ConfigError(f"task {self.name!r}: kind {self.kind!r}, expected one of {', '.join(KINDS)}")
        if self.kind == "binary" and (len(self.labels) != 2 or self.positive not in self.labels):
            raise ConfigError(f"task {self.name!r}: a binary task needs two labels and a positive one among them; "
                              f"found labels={self.labels!r} positive={self.positive!r}")
        if not self.by_labels and self.score is None:
            raise ConfigError(f"task {self.name!r}: a {self.kind} task needs a score function")
        gone = [c for c in self.report_columns if c not in self.extra_metrics]
        if gone:
            raise ConfigError(f"task {self.name!r}: report columns {gone} are not among its extra metrics "
                              f"{list(self.extra_metrics)} (strategy rows show their mean ± std)")
        if self.prompt_catalogs and "prompts" not in self.item_options:
            raise ConfigError(f"task {self.name!r}: prompt catalogs {list(self.prompt_catalogs)} need the item option "
                              "'prompts' (build_items takes prompts=NAME)")

    @property
    def by_labels(self) -> bool:
        """Whether an answer is one label of :attr:`labels` (a binary or multiclass task)."""
        return self.kind in LABEL_KINDS

    def paired_score(self, record: RunRecord) -> tuple[Any, bool]:
        """One record's F1 counts and whether it is right, for ``stats compare`` (see :attr:`paired_counts`).

        Binary: ``(tp, fp, fn)`` of :attr:`positive`; multiclass: one such
        row per label; set: ``(tp, fp, fn)`` of the events.

        Raises
        ------
        ConfigError
            For a ``pairs`` or ``custom`` task that declares no ``paired_counts``.

        Examples
        --------
        >>> t = Task(name="t", build_items=list, list_variants=list, labels=("yes", "no"), positive="yes")
        >>> from causalgraph.runlog import RunRecord
        >>> t.paired_score(RunRecord("t", "v", "i", gold="yes", label="no"))
        ((0, 0, 1), False)
        """
        if self.paired_counts is not None:
            counts, right = self.paired_counts(record)
            return counts, bool(right)
        label = None if record.error else record.label
        gold = record.gold
        if self.kind == "set":
            o = record_outcome(record)
            return (o.tp, o.fp, o.fn), o.exact
        if self.kind == "binary":
            pos = self.positive
            return ((int(label == pos and gold == pos), int(label == pos and gold != pos),
                     int(label != pos and gold == pos)), label is not None and label == gold)
        if self.kind == "multiclass":
            return (tuple((int(label == lab and gold == lab), int(label == lab and gold != lab),
                           int(label != lab and gold == lab)) for lab in self.labels),
                    label is not None and label == gold)
        raise ConfigError(self._not_paired())

    def _not_paired(self) -> str:
        return (f"task {self.name!r} is scored by its own scorer ({self.kind}); stats compare handles binary, "
                f"multiclass and set-valued tasks")

    def check_paired(self) -> None:
        """Raise :class:`~causalgraph.errors.ConfigError` unless :meth:`paired_score` can score this task."""
        if self.paired_counts is None and self.kind not in ("binary", "multiclass", "set"):
            raise ConfigError(self._not_paired())

    def paired_metric_name(self) -> str:
        """The name of the F1 that ``stats compare`` reports for this task (:attr:`paired_metric`)."""
        if self.paired_metric is not None:
            return self.paired_metric
        return {"binary": f"f1({self.positive})", "multiclass": "macro_f1"}.get(self.kind, "micro_f1")

    def prompt_catalog(self, prompts: Optional[str] = None) -> Optional[str]:
        """The catalog ``prompts`` names for this task: ``None`` gives the default (``None`` when there is no choice).

        Raises
        ------
        ConfigError
            A one-line message naming the task, for a catalog it does not have
            (any catalog at all for a task without a choice).

        Examples
        --------
        >>> t = Task(name="t", build_items=list, list_variants=list, labels=("yes", "no"), positive="yes")
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
        >>> t = Task(name="t", build_items=list, list_variants=list, labels=("yes", "no"), positive="yes",
        ...          continuations=lambda v: {"no": "No", "yes": "Yes"})
        >>> t.choices("v1")
        {'yes': 'Yes', 'no': 'No'}
        """
        if self.continuations is None or not self.by_labels or not self.labels:
            raise ConfigError(f"task {self.name!r} declares no answer continuations (its answers are not one of a "
                              "closed set of labels), so --method loglik cannot score it; use --method generate")
        out = dict(self.continuations(variant))
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
        if self.answer_words is not None:
            words = self.answer_words(variant)
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
            For a custom task that defines no ``correct``.

        Examples
        --------
        >>> t = Task(name="t", build_items=list, list_variants=list, labels=("yes", "no"), positive="yes")
        >>> from causalgraph.runlog import RunRecord
        >>> t.is_correct(RunRecord("t", "v", "i", gold="yes", label="yes")), t.is_correct(RunRecord("t", "v", "i", gold="yes"))
        (True, False)
        """
        if record.error:
            return False
        if self.correct is not None:
            return bool(self.correct(record))
        if self.by_labels:
            return record.label is not None and record.label == record.gold
        raise ConfigError(f"task {self.name!r} says nothing about whether one answer is right (a custom task "
                          "without `correct`); pass@k and pass^k cannot be computed for it — use majority or mean")

    def parse_answer(self, text: str, variant: str) -> tuple[Any, str]:
        """Parse a model answer into a canonical label and the rule that matched."""
        if self.parse is not None:
            return self.parse(text, variant)

        return parse_labels(text, self.words(variant))
