"""What a task's answers are: the kind objects a :class:`~causalgraph.tasks.Task` holds.

A task's answers are one of two labels (:class:`Binary`), one of several
(:class:`Multiclass`), a set of events (:class:`EventSet`), a set of
cause-effect pairs (:class:`Pairs`) or anything else (:class:`Custom`).  Each
kind object carries only the hooks that mean something for it, so a binary
task holds its labels, its positive class and its answer words, and nothing
about pair scoring or item views.  The two optional capabilities that cut
across kinds have records of their own: :class:`Signs` (the answer states the
sign of a path, on a label kind) and :class:`GraphFirst` (the variant writes
a graph before it answers, on the task).

Fields of the label kinds (:class:`Binary`, :class:`Multiclass`): ``labels``
(the canonical labels, a tuple of non-empty strings), ``answer_words`` (per
variant, the word each label is asked by), ``continuations`` (per variant,
each label's answer as ``--method loglik`` scores it), ``extra_scores`` (scores
the task adds to a variant's), ``signs`` (an optional :class:`Signs`).

Fields of the scored kinds (:class:`EventSet`, :class:`Pairs`, :class:`Custom`):
``score(records) -> dict`` (required), ``correct(record) -> bool`` (pass@k),
``paired_counts(record) -> (counts, right)`` and ``paired_metric`` (``stats
compare``), ``reference_answer(item)`` and ``wrong_answer(item)`` (what
``mock/oracle`` and ``mock/noisy`` answer to an item without a gold label).

Every kind takes ``extra_metrics`` and ``report_columns`` (:class:`AnswerKind`).

The generic layers (scoring, ``stats``, ``bench report``, the viewer) ask the
kind object what they need (:meth:`AnswerKind.paired_score`,
:meth:`AnswerKind.is_correct`, :meth:`AnswerKind.paired_metric_name`) and
never decide by a task's name.

Every hook that receives what a run answered receives
:class:`~causalgraph.runlog.record.RunRecord` objects and reads their
attributes.

Examples
--------
>>> from causalgraph.runlog import RunRecord
>>> yes_no = Binary(labels=("yes", "no"), positive="yes")
>>> yes_no.name, yes_no.paired_score(RunRecord("t", "v", "i", gold="yes", label="no"), "t")
('binary', ((0, 0, 1), False))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Optional

from ..errors import ConfigError
from ..runlog.record import RunRecord
from ..scoring.event_lists import record_outcome

__all__ = ["AnswerKind", "Binary", "Multiclass", "EventSet", "Pairs", "Custom", "Signs", "GraphFirst", "ItemView",
           "KINDS"]


@dataclass(frozen=True)
class Signs:
    """The answers of a label task state the sign of a directed path (``stats consistency --signs``).

    Attributes
    ----------
    path
        ``path(record) -> (statement id, events) | None``: the directed path
        (two events for one relation, more for a chain, in the real events'
        names) whose composed correlation the record's answer states;
        ``None`` for a record that states no one path's sign.
    labels
        Each label that states a sign → ``+1`` or ``-1`` (CorrI's
        ``positive``/``negative``; net-effect's ``increase``/``decrease``);
        other labels (``mixed``) state none.
    """

    path: Callable[[RunRecord], Optional[tuple]]
    labels: Mapping[str, int]

    def __post_init__(self):
        if not callable(self.path):
            raise ConfigError(f"Signs: path must be a function of a record; found {self.path!r}")
        bad = {lab: s for lab, s in dict(self.labels).items() if s not in (1, -1) or isinstance(s, bool)}
        if not self.labels or bad:
            raise ConfigError(f"Signs: labels must map each signed label to +1 or -1; found {dict(self.labels)!r}")


@dataclass(frozen=True)
class GraphFirst:
    """The variants of a task that write a graph before they answer (:mod:`causalgraph.tasks.graph_first`).

    Attributes
    ----------
    parse
        ``parse(text, variant) -> dict | None``: the graph a variant's answer
        writes before it answers, kept as the record's ``graph``; ``None`` for
        a variant that writes no graph.
    scores
        ``scores(record, rule=..., embedder=None) -> dict``: the record's graph
        scored against the item's gold graph after event alignment
        (``edge_precision``, ``edge_recall``, ``edge_f1``, ``note``; ``None``
        where undefined), what ``bench report`` and ``stats compare`` put
        beside the answer's accuracy.
    answers
        Optional ``answers(item) -> (right, wrong) | None``: the graph text a
        perfect model writes before its answer and a perturbed one
        (``mock/oracle`` and ``mock/noisy``); ``None`` for an item that asks
        for no graph.
    check_options
        Optional ``check_options(variant, **options)``: raises
        :class:`~causalgraph.errors.ConfigError` for item options
        (``encoding``, ``event_names``) a variant cannot take, before a
        command rewrites its id for them (``bench run --encoding``), so the
        refusal says why (a graph-first variant writes its own graph).
    """

    parse: Callable[[str, str], Optional[dict]]
    scores: Callable[..., dict]
    answers: Optional[Callable[[Any], Optional[tuple[str, str]]]] = None
    check_options: Optional[Callable[..., None]] = None


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


@dataclass(frozen=True, kw_only=True)
class AnswerKind:
    """What every kind of answer says: the scores it adds to the tables and how ``stats compare`` pairs it.

    Attributes
    ----------
    extra_metrics
        Dotted names of scores the task adds to a variant's scores that
        strategy means aggregate (``authors.f1``).
    report_columns
        Dotted names among :attr:`extra_metrics` that ``bench report`` shows
        as columns, dots turned into underscores (``authors.f1`` →
        ``authors_f1``); strategy rows show their mean ± std.
    """

    #: The kind's name, as manifests, ``bench tasks`` and the docs say it (one of :data:`KINDS`).
    name: ClassVar[str] = ""
    #: Whether an answer is one label of a closed set (scored by causalgraph's P/R/F1).
    by_labels: ClassVar[bool] = False

    extra_metrics: tuple[str, ...] = ()
    report_columns: tuple[str, ...] = ()

    def check(self, task: str) -> None:
        """Raise :class:`~causalgraph.errors.ConfigError` naming ``task`` when the hooks do not fit together.

        ``task`` here and in the methods below is the name of the task that holds these answers,
        which the messages name.
        """
        if type(self) in _ABSTRACT:
            raise ConfigError(f"task {task!r}: answers must be one of {', '.join(c.__name__ for c in _CONCRETE)}; "
                              f"found the base class {type(self).__name__}")
        gone = [c for c in self.report_columns if c not in self.extra_metrics]
        if gone:
            raise ConfigError(f"task {task!r}: report columns {gone} are not among its extra metrics "
                              f"{list(self.extra_metrics)} (strategy rows show their mean ± std)")

    def paired_score(self, record: RunRecord, task: str) -> tuple[Any, bool]:
        """One record's F1 counts and whether it is right, for ``stats compare``."""
        raise ConfigError(self._not_paired(task))

    def comparable(self) -> bool:
        """Whether :meth:`paired_score` can score this kind's records."""
        return False

    def check_paired(self, task: str) -> None:
        """Raise :class:`~causalgraph.errors.ConfigError` unless :meth:`paired_score` can score this kind."""
        if not self.comparable():
            raise ConfigError(self._not_paired(task))

    def paired_metric_name(self) -> str:
        """The name of the F1 that ``stats compare`` reports."""
        return "micro_f1"

    def is_correct(self, record: RunRecord, task: str) -> bool:
        """Whether one answered record (no failed request) is right."""
        raise ConfigError(f"task {task!r} says nothing about whether one answer is right (a custom task "
                          "without `correct`); pass@k and pass^k cannot be computed for it — use majority or mean")

    def _not_paired(self, task: str) -> str:
        return (f"task {task!r} is scored by its own scorer ({self.name}); stats compare handles binary, "
                f"multiclass and set-valued tasks")


@dataclass(frozen=True, kw_only=True)
class _LabelAnswers(AnswerKind):
    """An answer is one label of :attr:`labels`.

    Attributes
    ----------
    labels
        Canonical gold labels (``("positive", "negative")``…).
    answer_words
        Optional ``answer_words(variant) -> {canonical label: word the prompt asks for}``
        (``{"positive": "same", "negative": "opposite"}``); the labels themselves when not given.
    continuations
        Optional ``continuations(variant) -> {label: text}``: the answer to
        each label as the variant's prompt asks for it (``Yes``,
        ``<Answer>start</Answer>``, ``"1"``), what ``bench run --method
        loglik`` scores.  It raises :class:`~causalgraph.errors.ConfigError`
        for a variant whose prompt asks for reasoning before the answer
        (:func:`causalgraph.tasks.continuations.answer_continuations`).  A
        task without it is answered by generation only.
    extra_scores
        Optional ``extra_scores(gold, pred) -> dict`` merged into a variant's
        scores (the authors' position score).
    signs
        Optional :class:`Signs`: the answer states the sign of a path.
    """

    by_labels: ClassVar[bool] = True

    labels: tuple[str, ...]
    answer_words: Optional[Callable[[str], Mapping[str, str]]] = None
    continuations: Optional[Callable[[str], Mapping[str, str]]] = None
    extra_scores: Optional[Callable[[list, list], dict]] = None
    signs: Optional[Signs] = None

    def check(self, task: str) -> None:
        super().check(task)
        if not isinstance(self.labels, tuple) or not all(isinstance(lab, str) and lab for lab in self.labels):
            raise ConfigError(f"task {task!r}: labels must be a tuple of non-empty strings; found {self.labels!r}")
        if len(set(self.labels)) != len(self.labels):
            raise ConfigError(f"task {task!r}: labels {list(self.labels)} repeat one")
        if self.signs is not None:
            stray = sorted(set(self.signs.labels) - set(self.labels))
            if stray:
                raise ConfigError(f"task {task!r}: signed labels {stray} are not among its labels {list(self.labels)}")

    def comparable(self) -> bool:
        return True

    def is_correct(self, record: RunRecord, task: str) -> bool:
        return record.label is not None and record.label == record.gold


@dataclass(frozen=True, kw_only=True)
class Binary(_LabelAnswers):
    """One of two labels, scored by P/R/F1 of :attr:`positive`.

    Attributes
    ----------
    positive
        The positive class, one of the two :attr:`labels`.
    labels, answer_words, continuations, extra_scores, signs, extra_metrics, report_columns
        The fields of both label kinds (module docstring, "Fields of the label kinds").

    Examples
    --------
    >>> Binary(labels=("yes", "no"), positive="yes").paired_metric_name()
    'f1(yes)'
    """

    name: ClassVar[str] = "binary"

    positive: str

    def check(self, task: str) -> None:
        super().check(task)
        if len(self.labels) != 2 or self.positive not in self.labels:
            raise ConfigError(f"task {task!r}: a binary task needs two labels and a positive one among them; "
                              f"found labels={self.labels!r} positive={self.positive!r}")

    def paired_score(self, record: RunRecord, task: str) -> tuple[Any, bool]:
        label = None if record.error else record.label
        gold, pos = record.gold, self.positive
        return ((int(label == pos and gold == pos), int(label == pos and gold != pos),
                 int(label != pos and gold == pos)), label is not None and label == gold)

    def paired_metric_name(self) -> str:
        return f"f1({self.positive})"


@dataclass(frozen=True, kw_only=True)
class Multiclass(_LabelAnswers):
    """One of several labels, scored per class and by macro averages.

    Attributes
    ----------
    coarsen
        Optional map from these labels to a coarser task's labels
        (:attr:`coarse_labels`), so that paired statistics can compare the
        two (chain position → membership).  ``stats consistency`` reads a
        task with ``coarsen`` as a chain-position task whose labels are
        start, middle, end and outside, in that order, and whose start maps
        to the member label.
    coarse_labels
        The labels :attr:`coarsen` maps to.
    labels, answer_words, continuations, extra_scores, signs, extra_metrics, report_columns
        The fields of both label kinds (module docstring, "Fields of the label kinds").

    Examples
    --------
    >>> Multiclass(labels=("a", "b", "c")).paired_metric_name()
    'macro_f1'
    """

    name: ClassVar[str] = "multiclass"

    coarsen: Optional[Callable[[Any], Any]] = None
    coarse_labels: tuple[str, ...] = ()

    def check(self, task: str) -> None:
        super().check(task)
        if len(self.labels) < 2:
            raise ConfigError(f"task {task!r}: a multiclass task needs at least two labels; found {self.labels!r}")
        if (self.coarsen is None) != (not self.coarse_labels):
            raise ConfigError(f"task {task!r}: coarsen and coarse_labels go together; found "
                              f"coarsen={'set' if self.coarsen else None} coarse_labels={self.coarse_labels!r}")

    def paired_score(self, record: RunRecord, task: str) -> tuple[Any, bool]:
        label = None if record.error else record.label
        gold = record.gold
        return (tuple((int(label == lab and gold == lab), int(label == lab and gold != lab),
                       int(label != lab and gold == lab)) for lab in self.labels),
                label is not None and label == gold)

    def paired_metric_name(self) -> str:
        return "macro_f1"


@dataclass(frozen=True, kw_only=True)
class _ScoredAnswers(AnswerKind):
    """An answer scored by the task's own :attr:`score`.

    Attributes
    ----------
    score
        ``score(records) -> dict``: the scores of one variant's records
        (:class:`~causalgraph.runlog.record.RunRecord` objects).
    correct
        Optional ``correct(record) -> bool``: whether one answer is right, for
        the reducers of repeated sampling (``pass@k``, ``pass^k``).
    paired_counts
        Optional ``paired_counts(record) -> (counts, correct)``: one record's
        contribution to its arm's F1 in ``stats compare`` (a ``(tp, fp, fn)``
        triple) and whether it was answered right (McNemar's pairs).
    paired_metric
        Name of the F1 ``stats compare`` reports (``micro_f1`` when not given).
    reference_answer
        Optional ``reference_answer(item) -> str | None``: the text a perfect
        model would answer, for items without a gold label (extraction: the
        gold pairs, kept in ``meta``, as the prompt asks for them).
        ``mock/oracle`` answers it, so the task runs end to end with the
        answers that must score full marks; ``None`` for an item it has no
        answer to, which ``mock/oracle`` refuses before asking anything.
    wrong_answer
        Optional ``wrong_answer(item) -> str``: what a model that gets such an
        item wrong answers, in the task's own format.  ``mock/noisy`` answers
        it when its draw flips an item; without it, the flipped answer is
        empty (read as unparsed, so scored wrong).
    """

    score: Callable[[list[RunRecord]], dict]
    correct: Optional[Callable[[RunRecord], bool]] = None
    paired_counts: Optional[Callable[[RunRecord], tuple]] = None
    paired_metric: Optional[str] = None
    reference_answer: Optional[Callable[[Any], Optional[str]]] = None
    wrong_answer: Optional[Callable[[Any], str]] = None

    def check(self, task: str) -> None:
        super().check(task)
        if not callable(self.score):
            raise ConfigError(f"task {task!r}: a {self.name} task needs a score function; found {self.score!r}")

    def paired_score(self, record: RunRecord, task: str) -> tuple[Any, bool]:
        if self.paired_counts is None:
            raise ConfigError(self._not_paired(task))
        counts, right = self.paired_counts(record)
        return counts, bool(right)

    def comparable(self) -> bool:
        return self.paired_counts is not None

    def paired_metric_name(self) -> str:
        return self.paired_metric if self.paired_metric is not None else "micro_f1"

    def is_correct(self, record: RunRecord, task: str) -> bool:
        if self.correct is None:
            return super().is_correct(record, task)
        return bool(self.correct(record))


@dataclass(frozen=True, kw_only=True)
class EventSet(_ScoredAnswers):
    """A set of events, scored by micro P/R/F1 of the events; an answer is right when its set is exact.

    Without ``paired_counts`` or ``correct``, ``stats compare`` and the
    reducers count the record's events (:func:`causalgraph.scoring.event_lists.record_outcome`).

    Attributes
    ----------
    score, correct, paired_counts, paired_metric, reference_answer, wrong_answer, extra_metrics, report_columns
        The fields of the kinds scored by the task (module docstring, "Fields of the scored kinds").
    """

    name: ClassVar[str] = "set"

    def paired_score(self, record: RunRecord, task: str) -> tuple[Any, bool]:
        if self.paired_counts is None:
            o = record_outcome(record)
            return (o.tp, o.fp, o.fn), o.exact
        return super().paired_score(record, task)

    def comparable(self) -> bool:
        return True

    def is_correct(self, record: RunRecord, task: str) -> bool:
        if self.correct is None:
            return record_outcome(record).exact
        return super().is_correct(record, task)


@dataclass(frozen=True, kw_only=True)
class Pairs(_ScoredAnswers):
    """A set of cause-effect pairs, shown by :attr:`item_view`.

    Attributes
    ----------
    item_view
        An :class:`ItemView` with which the viewer draws an item's gold and
        predicted pairs; ``None`` shows labels.
    score, correct, paired_counts, paired_metric, reference_answer, wrong_answer, extra_metrics, report_columns
        The fields of the kinds scored by the task (module docstring, "Fields of the scored kinds").
    """

    name: ClassVar[str] = "pairs"

    item_view: Optional[ItemView] = None


@dataclass(frozen=True, kw_only=True)
class Custom(_ScoredAnswers):
    """Anything else, scored by the task's own ``score``.

    Attributes
    ----------
    score, correct, paired_counts, paired_metric, reference_answer, wrong_answer, extra_metrics, report_columns
        The fields of the kinds scored by the task (module docstring, "Fields of the scored kinds").
    """

    name: ClassVar[str] = "custom"


_ABSTRACT = (AnswerKind, _LabelAnswers, _ScoredAnswers)
_CONCRETE = (Binary, Multiclass, EventSet, Pairs, Custom)

#: The names of the kinds, in the order the docs list them.
KINDS = tuple(c.name for c in _CONCRETE)
