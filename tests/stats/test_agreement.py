"""Fleiss' kappa against Fleiss' (1971) worked example and against statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.errors import ConfigError
from causalgraph.scoring.agreement import fleiss_kappa

# The table of the worked example in Fleiss (1971) as Wikipedia reproduces it: 10 subjects, 14 raters,
# 5 categories; P-bar = 0.378, P_e = 0.213, kappa = 0.210.
FLEISS_EXAMPLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_kappa_of_the_worked_example_is_0_210():
    assert round(fleiss_kappa(FLEISS_EXAMPLE), 3) == 0.210


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.integers(2, 5), st.integers(1, 12), st.randoms(use_true_random=False))
def test_fleiss_kappa_equals_statsmodels_on_random_tables(raters, categories, subjects, rnd):
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_kappa

    table = np.zeros((subjects, categories), dtype=int)
    for i in range(subjects):
        for _ in range(raters):
            table[i, rnd.randrange(categories)] += 1
    p = table.sum(axis=0) / table.sum()
    ours = fleiss_kappa(table)
    if np.isclose((p * p).sum(), 1.0):
        assert ours is None  # every rating in one category: undefined (statsmodels divides by zero)
    else:
        assert ours == pytest.approx(sm_kappa(table, method="fleiss"), abs=1e-12)


def test_perfect_agreement_is_one_and_tables_that_are_not_ratings_are_refused():
    assert fleiss_kappa([[2, 0], [0, 2], [2, 0]]) == 1.0
    assert fleiss_kappa(np.zeros((0, 3))) is None
    with pytest.raises(ConfigError, match="same number of raters"):
        fleiss_kappa([[2, 0], [1, 0]])
    with pytest.raises(ConfigError, match="at least two raters"):
        fleiss_kappa([[1, 0], [0, 1]])
    with pytest.raises(ConfigError, match="negative"):
        fleiss_kappa([[3, -1], [1, 1]])
    with pytest.raises(ConfigError, match="subjects x categories"):
        fleiss_kappa([1, 2, 3])


def test_one_dissenting_rating_in_300000_still_gives_a_kappa():
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_kappa

    table = np.zeros((1000, 2), dtype=int)
    table[:, 0] = 300
    table[0] = [299, 1]
    assert fleiss_kappa(table) == pytest.approx(sm_kappa(table, method="fleiss"), abs=1e-12)
    assert fleiss_kappa(table) < 0
