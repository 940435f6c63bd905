"""``runlog.store._plain``: a value is taken as it is when, and only when, it reads back from its JSON as itself."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings, strategies as st

from causalgraph.runlog.store import _plain

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.text(max_size=5))
values = st.recursive(
    st.one_of(scalars, st.tuples(st.integers()), st.binary(max_size=3)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(st.text(max_size=3), st.integers(), st.booleans()), inner,
                                            max_size=4)),
    max_leaves=12)


def _reads_back_as_itself(value) -> bool:
    """By definition: JSON-encodable without NaN or infinities, and decoded to an equal value of the same types."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False

    def same(a, b) -> bool:
        if type(a) is not type(b):
            return False
        if type(a) is list:
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        if type(a) is dict:
            return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
        return a == b or (type(a) is float and math.isnan(a) and math.isnan(b))

    return same(value, json.loads(text))


@settings(max_examples=400, deadline=None)
@given(values)
def test_plain_is_exactly_reads_back_as_itself(value):
    assert _plain(value) == _reads_back_as_itself(value)


def test_plain_by_hand():
    assert _plain({"a": [1, "x", None, True, 2.5, {"b": []}]})
    assert not _plain({"a": (1,)}) and not _plain({1: "x"}) and not _plain([float("nan")]) and not _plain({"a": b""})
