"""Incoherent chain predictions, on hand-written runs and on an oracle run of the real corpus."""

from __future__ import annotations

import pytest

from causalgraph.errors import ConfigError
from causalgraph.stats import consistency, mcnemar_runs


@pytest.fixture
def eci_runs(make_run):
    # s1: a gold chain start → middle → end plus one outside event; s2, s3: no gold chain
    gold = {"s1": ["start", "middle", "end", "none"], "s2": ["none"] * 3, "s3": ["none"] * 2}
    pos_pred = {"s1": ["start", "middle", "end", "none"],     # coherent
                "s2": ["start", "none", "none"],              # one member, start without end
                "s3": ["end", "middle"]}                      # two members, end without start
    mem_pred = {"s1": ["yes", "yes", "no", "no"],             # e002: end vs no → 1 disagreement
                "s2": ["yes", "no", "yes"],                   # e002: none vs yes → 1
                "s3": ["yes", "ERROR"]}                       # failed answer: not compared
    pos_rows, mem_rows = [], []
    for sid in gold:
        for i, g in enumerate(gold[sid]):
            key = f"{sid}/e{i:03d}"
            pos_rows.append(("0_4", key, sid, g, pos_pred[sid][i]))
            pos_rows.append(("0_5", key, sid, g, "none"))
            mg = "no" if g == "none" else "yes"
            mem_rows.append(("0_4", key, sid, mg, mem_pred[sid][i]))
            mem_rows.append(("0_5", key, sid, mg, "no"))
    return make_run("pos", "ccr-eci-position", pos_rows), make_run("mem", "ccr-eci-member", mem_rows)


def test_consistency_counts_each_kind_of_incoherence(eci_runs):
    pos, mem = eci_runs
    rep = consistency(pos, member_run=mem)
    v = rep.by_variant.set_index("variant")
    assert v.loc["0_4"].to_dict() == {
        "task": "ccr-eci-position", "statements": 3, "events": 9, "unparsed": 0, "statements_fewer_than_3": 2,
        "events_fewer_than_3": 3, "chainless_statements": 2, "chainless_fewer_than_3": 2, "start_without_end": 1,
        "end_without_start": 1, "disagreements": 2}
    assert v.loc["0_5"].statements_fewer_than_3 == 0 and v.loc["0_5"].disagreements == 0
    assert rep.summary == {"statements": 3, "statements_fewer_than_3_any_variant": 2, "chainless_statements": 2,
                           "chainless_fewer_than_3_any_variant": 2}
    s = rep.by_statement[rep.by_statement.variant == "0_4"].set_index("statement_id")
    assert list(s.predicted_members) == [3, 1, 2] and list(s.gold_members) == [3, 0, 0]
    assert list(s.fewer_than_3) == [False, True, True]


def test_consistency_on_a_membership_run_leaves_position_checks_empty(eci_runs):
    _, mem = eci_runs
    rep = consistency(mem)
    row = rep.by_variant.iloc[0]
    # s1 and s2 have two "yes" each, s3 one (its other answer failed)
    assert row.statements_fewer_than_3 == 3 and row.events_fewer_than_3 == 5 and row.unparsed == 1
    assert row.start_without_end is None and row.disagreements is None


def test_consistency_refuses_a_membership_run_as_the_position_run(eci_runs):
    pos, mem = eci_runs
    with pytest.raises(ConfigError, match="itself a membership run"):
        consistency(mem, member_run=mem)
    with pytest.raises(ConfigError, match="must be a membership run"):
        consistency(pos, member_run=pos)


def test_consistency_lists_items_missing_from_the_membership_run(make_run):
    pos = make_run("p", "ccr-eci-position", [("0_4", "s1/e000", "s1", "start", "start"),
                                             ("0_4", "s1/e001", "s1", "end", "end")])
    mem = make_run("m", "ccr-eci-member", [("0_4", "s1/e000", "s1", "yes", "yes"),
                                           ("0_4", "s1/e009", "s1", "no", "no")])
    with pytest.raises(ConfigError, match=r"only in the position run \(1\): s1/e001; "
                                          r"only in the membership run \(1\): s1/e009"):
        consistency(pos, member_run=mem)


def test_consistency_refuses_non_chain_runs(make_run):
    run = make_run("corri", "corri", [("0_1", "s1/r000", "s1", "positive", "negative")])
    with pytest.raises(ConfigError, match="neither chain membership"):
        consistency(run)


def test_oracle_runs_on_climatecause_are_coherent_and_find_the_papers_45_chainless_statements(climatecause, make_run):
    from causalgraph.tasks.climatecause import items

    def oracle(task):
        rows = [(it.variant, it.id.split("/", 2)[2], it.meta["statement_id"], it.gold, it.gold)
                for it in items(climatecause, task, "0_4")]
        return make_run(task, task, rows)

    pos, mem = oracle("ccr-eci-position"), oracle("ccr-eci-member")
    rep = consistency(pos, member_run=mem)
    row = rep.by_variant.iloc[0]
    assert (row.statements, row.events) == (63, 512)
    assert row.chainless_statements == 45            # §6.3: "for 45 statements without chains"
    assert (row.statements_fewer_than_3, row.start_without_end, row.end_without_start, row.disagreements) == (0, 0, 0, 0)
    t = mcnemar_runs(mem, pos)
    assert (t.iloc[0].b, t.iloc[0].c, t.iloc[0].p) == (0, 0, 1.0)
