"""hf/ loglik: grouping a batch's contexts by shared token prefix (no model needed)."""

from __future__ import annotations

import random

from causalgraph.llm.hf import MIN_SHARED_PREFIX, common_prefix_length, group_by_prefix


def test_items_of_one_statement_share_their_graph_part_and_others_stay_apart():
    graph_a, graph_b = list(range(100, 400)), list(range(500, 700))
    question = [7, 8, 9]
    ctx = [graph_a + [1] + question, graph_a + [2, 3] + question, graph_b + [4] + question, graph_a + [5] + question,
           graph_b + [6, 6] + question, [42] * 5]
    groups = group_by_prefix(ctx)
    assert groups == [(300, [0, 1, 3]), (200, [2, 4]), (0, [5])]


def test_a_prefix_never_swallows_a_whole_context():
    a = list(range(50))
    groups = group_by_prefix([a, a, a + [1]])
    # Identical contexts: the prefix stops one token short, so each row has a last token to predict from.
    assert groups == [(49, [0, 1, 2])]


def test_a_short_common_start_is_not_worth_a_group():
    head = list(range(MIN_SHARED_PREFIX - 1))
    assert group_by_prefix([head + [1] * 40, head + [2] * 40]) == [(0, [0]), (0, [1])]
    head = list(range(MIN_SHARED_PREFIX))
    # Equal lengths: sharing the head saves its tokens (16 + 2 x 400 < 416 + 416).
    assert group_by_prefix([head + [1] * 400, head + [2] * 400]) == [(16, [0, 1])]
    # A short context would be padded to the long one's suffix: more work than computing it alone.
    assert group_by_prefix([head + [1] * 400, head + [2] * 20]) == [(0, [0]), (0, [1])]


def test_groups_partition_the_batch_with_true_prefixes_on_random_batches():
    rng = random.Random(5)
    stems = [[rng.randrange(50) for _ in range(rng.randrange(10, 80))] for _ in range(4)]
    for _ in range(200):
        ctx = [rng.choice(stems)[: rng.randrange(5, 80)] + [rng.randrange(50) for _ in range(rng.randrange(1, 9))]
               for _ in range(rng.randrange(1, 10))]
        groups = group_by_prefix(ctx)
        assert sorted(m for _, ms in groups for m in ms) == list(range(len(ctx)))
        for p, ms in groups:
            assert all(len(ctx[m]) > p for m in ms)
            assert all(ctx[m][:p] == ctx[ms[0]][:p] for m in ms)
            assert p == 0 or (len(ms) > 1 and p >= MIN_SHARED_PREFIX)
            # Joining saved work: the group costs fewer tokens than computing each member alone.
            if p:
                cost = p + len(ms) * max(len(ctx[m]) - p for m in ms)
                assert cost < sum(len(ctx[m]) for m in ms)


def test_common_prefix_length():
    assert common_prefix_length([], [1]) == 0
    assert common_prefix_length([1, 2, 3], [1, 2, 3, 4]) == 3
    assert common_prefix_length((1, 2), [2, 1]) == 0
