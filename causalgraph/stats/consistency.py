"""Coherence of chain predictions: the paper's manual error analysis, automated (§6.3).

A causal chain is a directed path of at least three events, with one
``start``, one ``end`` and ``middle`` events between.  Predictions that no
chain can produce are *incoherent*:

* **fewer than three members** — a statement where one or two events are
  predicted chain members (membership ``yes``, or position ``start``/
  ``middle``/``end``);
* **start without end** (or end without start) — a statement whose position
  predictions contain a ``start`` but no ``end``, or the reverse;
* **membership/position disagreement** — an event predicted outside a chain
  by the membership prompt but given a position by the position prompt (or
  the reverse), for the same prompt variant.

The labels and the collapse of positions to membership come from the
answers of the chain-position task (:class:`~causalgraph.tasks.Multiclass`:
``labels``, ``coarse_labels`` and ``coarsen``): the run's own task when it has one, else
the registered task whose labels the run's answers are in (a membership run,
or a run of a task no longer registered).

The paper reports, for the 45 ClimateCause statements without chains, that
the model predicts one or two members in 37 of them (CCR+ECI+RC) and in 23
(CCR) in at least one prompt variant; ``summary`` gives these counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import ConfigError
from .pairing import as_run, pair_key, prediction as _prediction, run_name as _run_name, show_keys as _show
from ..tasks import Multiclass, get_task, list_tasks
from .runs import _labels_of, pair_variants, task_of, task_words

__all__ = ["ConsistencyReport", "consistency", "STATEMENT_COLUMNS", "VARIANT_COLUMNS"]

STATEMENT_COLUMNS = ("task", "variant", "statement_id", "events", "unparsed", "predicted_members", "gold_members",
                     "fewer_than_3", "start_without_end", "end_without_start", "disagreements")
VARIANT_COLUMNS = ("task", "variant", "statements", "events", "unparsed", "statements_fewer_than_3",
                   "events_fewer_than_3", "chainless_statements", "chainless_fewer_than_3", "start_without_end",
                   "end_without_start", "disagreements")


@dataclass(frozen=True)
class ConsistencyReport:
    """Outcome of :func:`consistency`.

    Attributes
    ----------
    by_statement
        One row per variant and statement (:data:`STATEMENT_COLUMNS`);
        ``start_without_end``/``end_without_start`` are empty for membership
        runs, ``disagreements`` when no membership run was given.
    by_variant
        Counts per variant (:data:`VARIANT_COLUMNS`).
    summary
        ``chainless_statements`` (statements whose gold has no chain
        member) and ``chainless_fewer_than_3_any_variant`` (those among them
        with one or two predicted members in at least one variant), plus the
        same for all statements.
    """

    by_statement: Any
    by_variant: Any
    summary: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class _Chain:
    """Chain-position labels, membership labels and the collapse of one to the other, from a Task record.

    A chain-position task lists its labels in the order start, middle, end, outside (ClimateCause's
    ``start``, ``middle``, ``end``, ``none``); the member label is what the start collapses to.
    """

    position: tuple
    membership: tuple
    collapse: Any

    @property
    def start(self) -> str:
        return self.position[0]

    @property
    def end(self) -> str:
        return self.position[2]

    @property
    def inside(self) -> frozenset:
        """The positions of chain members (start, middle, end)."""
        return frozenset(self.position[:3])

    @property
    def member(self) -> str:
        """The membership label of a chain member."""
        return self.collapse(self.start)


def _chain(records, run) -> _Chain:
    own = task_of(records, run)
    labs = _labels_of(records)
    found = None
    for t in ([own] if own is not None else []) + [get_task(n) for n in list_tasks()]:
        kind = t.answers
        if not isinstance(kind, Multiclass) or kind.coarsen is None:
            continue
        chain = _Chain(tuple(kind.labels), tuple(kind.coarse_labels), kind.coarsen)
        if t is own or labs <= set(chain.position) or labs <= set(chain.membership):
            return chain
        found = found or chain
    if found is None:
        raise ConfigError("consistency needs a chain task: no registered task collapses positions to membership "
                          "(Multiclass.coarsen)")
    return found


def _is_position(records, chain: _Chain) -> bool:
    labs = _labels_of(records)
    return bool(labs) and labs <= set(chain.position) and bool(labs & chain.inside)


def _is_membership(records, chain: _Chain) -> bool:
    labs = _labels_of(records)
    return bool(labs) and labs <= set(chain.membership)


def consistency(run: Any, member_run: Any = None, *, pairs=None) -> ConsistencyReport:
    """Find incoherent chain predictions per statement and variant.

    Parameters
    ----------
    run
        A membership or position run (directory or loaded run).
    member_run
        Optional membership run to compare a position ``run`` with, item by
        item, for the same prompt variant (paired as in
        :func:`~causalgraph.stats.mcnemar_runs`).
    pairs
        Explicit ``(position variant, membership variant)`` pairs.

    Returns
    -------
    ConsistencyReport
        Statements keep the order of their first item in the run.  Events
        with an unparsed or failed answer are counted in ``unparsed`` and do
        not count as members.

    Examples
    --------
    >>> rep = consistency("runs/eci-position", member_run="runs/eci-member")  # doctest: +SKIP
    >>> rep.by_variant[["variant", "statements_fewer_than_3", "disagreements"]]  # doctest: +SKIP
    """
    import pandas as pd

    r = as_run(run)
    recs_all = r.responses
    if not recs_all:
        raise ConfigError(f"{_run_name(r)}: the run has no responses")
    chain = _chain(recs_all, r)
    position = _is_position(recs_all, chain)
    if not position and not _is_membership(recs_all, chain):
        raise ConfigError(f"{_run_name(r)}: labels are neither chain membership ({', '.join(chain.membership)}) "
                          f"nor chain position ({', '.join(chain.position)}); consistency needs a chain task")

    def _is_member(label: Optional[str]) -> bool:
        return chain.collapse(label) == chain.member

    member_pred: dict[str, dict[str, Optional[str]]] = {}
    if member_run is not None:
        if not position:
            raise ConfigError("consistency: member_run compares a position run with a membership run; "
                              f"{_run_name(r)} is itself a membership run")
        m = as_run(member_run)
        if not _is_membership(m.responses, chain):
            raise ConfigError(f"{_run_name(m)}: member_run must be a membership run (labels "
                              f"{'/'.join(chain.membership)})")
        for vp, vm in pair_variants(r.variants, m.variants, pairs,
                                    task_words(task_of(r.responses, r), task_of(m.responses, m))):
            member_pred[vp] = {pair_key(x): _prediction(x) for x in m.records(vm)}

    srows = []
    for variant in r.variants:
        recs = r.records(variant)
        by_stmt: dict[str, list] = {}
        for x in recs:
            sid = x.meta.get("statement_id")
            if not sid:
                raise ConfigError(f"{_run_name(r)} variant {variant}: item {x.item_id!r} has no meta.statement_id")
            by_stmt.setdefault(sid, []).append(x)
        mp = member_pred.get(variant)
        if mp is not None:
            keys = [pair_key(x) for x in recs]
            key_set = set(keys)
            only = [k for k in keys if k not in mp]
            extra = [k for k in mp if k not in key_set]
            if only or extra:
                raise ConfigError(f"variant {variant}: position and membership runs do not cover the same items; "
                                  f"only in the position run ({len(only)}): {_show(only)}; "
                                  f"only in the membership run ({len(extra)}): {_show(extra)}")
        for sid, items in by_stmt.items():
            preds = [_prediction(x) for x in items]
            members = sum(1 for p in preds if p is not None and _is_member(p))
            gold_members = sum(1 for x in items if x.gold is not None and _is_member(x.gold))
            row = {"task": items[0].task, "variant": variant, "statement_id": sid, "events": len(items),
                   "unparsed": sum(1 for p in preds if p is None), "predicted_members": members,
                   "gold_members": gold_members, "fewer_than_3": 1 <= members <= 2,
                   "start_without_end": None, "end_without_start": None, "disagreements": None}
            if position:
                row["start_without_end"] = chain.start in preds and chain.end not in preds
                row["end_without_start"] = chain.end in preds and chain.start not in preds
            if mp is not None:
                row["disagreements"] = sum(
                    1 for x, p in zip(items, preds)
                    if p is not None and mp[pair_key(x)] is not None and chain.collapse(p) != mp[pair_key(x)])
            srows.append(row)
    by_statement = pd.DataFrame(srows, columns=list(STATEMENT_COLUMNS))

    vrows = []
    for variant in r.variants:
        s = by_statement[by_statement["variant"] == variant]
        if s.empty:
            continue
        few = s[s["fewer_than_3"]]
        chainless = s[s["gold_members"] == 0]
        vrows.append({
            "task": s["task"].iloc[0], "variant": variant, "statements": len(s), "events": int(s["events"].sum()),
            "unparsed": int(s["unparsed"].sum()), "statements_fewer_than_3": len(few),
            "events_fewer_than_3": int(few["predicted_members"].sum()),
            "chainless_statements": len(chainless), "chainless_fewer_than_3": int(chainless["fewer_than_3"].sum()),
            "start_without_end": int(s["start_without_end"].sum()) if position else None,
            "end_without_start": int(s["end_without_start"].sum()) if position else None,
            "disagreements": int(s["disagreements"].sum()) if member_run is not None else None,
        })
    by_variant = pd.DataFrame(vrows, columns=list(VARIANT_COLUMNS))

    # Statements judged across variants: "in at least one of its prompt settings" (§6.3).
    stmt_ids = list(dict.fromkeys(by_statement["statement_id"]))
    gold_chainless = set(by_statement.loc[by_statement["gold_members"] == 0, "statement_id"])
    few_any = set(by_statement.loc[by_statement["fewer_than_3"], "statement_id"])
    summary = {
        "statements": len(stmt_ids),
        "statements_fewer_than_3_any_variant": sum(1 for s in stmt_ids if s in few_any),
        "chainless_statements": sum(1 for s in stmt_ids if s in gold_chainless),
        "chainless_fewer_than_3_any_variant": sum(1 for s in stmt_ids if s in gold_chainless and s in few_any),
    }
    return ConsistencyReport(by_statement, by_variant, summary)
