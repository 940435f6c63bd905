"""Counts in words: one noun form for one, the other for every other count."""

from hypothesis import given
from hypothesis import strategies as st

from causalgraph._core.wording import plural


@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(["item", "edge", "configuration", "row"]))
def test_a_count_takes_the_singular_only_for_one(n, word):
    text = plural(n, word)
    number, noun = text.split(" ", 1)
    assert int(number.replace(",", "")) == n
    assert noun == (word if n == 1 else word + "s")


def test_irregular_plurals_are_given_and_thousands_are_separated():
    assert plural(1, "batch", "batches") == "1 batch"
    assert plural(3, "batch", "batches") == "3 batches"
    assert plural(1953, "row") == "1,953 rows"
