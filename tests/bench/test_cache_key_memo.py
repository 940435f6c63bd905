"""The runner's key maker keeps the canonical JSON of the parts every item shares by value: whatever the value,
it is the JSON encoded afresh — 1, 1.0 and True stay three different keys, nested values included."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from causalgraph.bench.runner import _KeyMaker
from causalgraph.llm.base import canonical_json

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, 2.5, -1.0]),
                    st.sampled_from(["", "a", "1", "true"]))
parts = st.dictionaries(st.sampled_from(["temperature", "max_tokens", "seed", "stop", "n"]),
                        st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=2),
                                                                                          scalars, max_size=2)),
                        max_size=4)


class _NoBackend:
    def identity(self):
        return {}


@settings(max_examples=300, deadline=None)
@given(st.lists(parts, min_size=1, max_size=6))
def test_the_memo_gives_the_json_encoded_afresh_for_every_value_asked_in_any_order(values):
    maker = _KeyMaker(_NoBackend())
    for value in values + values:  # the second round is answered from the memo
        assert maker._encoded(value) == canonical_json(value)


def test_one_one_point_zero_and_true_are_three_encodings():
    maker = _KeyMaker(_NoBackend())
    got = [maker._encoded({"seed": v}) for v in (1, 1.0, True, 1, 1.0, True)]
    assert got[:3] == [canonical_json({"seed": 1}), canonical_json({"seed": 1.0}), canonical_json({"seed": True})]
    assert len(set(got[:3])) == 3 and got[3:] == got[:3]
