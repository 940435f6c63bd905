"""Hand-made PubMedCausal rows shared by the extraction tests."""

import pytest


def pair(c, e, causality=None, sent=None):
    d = {"cause": c, "effect": e}
    if causality:
        d["causality"] = causality
    if sent:
        d["sententiality"] = sent
    return d


@pytest.fixture
def gold_rows():
    return [
        {"s/n": 1, "sentence": "Smoking causes lung cancer and alcohol causes liver disease.",
         "pairs": [pair("smoking", "lung cancer", "Explicit", "Intra"),
                   pair("alcohol", "liver disease", "Explicit", "Intra")]},
        {"s/n": 2, "sentence": "The virus led to fever.", "pairs": [pair("virus", "fever", "Explicit", "Intra")]},
        {"s/n": 3, "sentence": "A made B.", "pairs": [pair("A", "B", "Implicit", "Intra")]},
    ]


@pytest.fixture
def pred_rows():
    return [
        {"s/n": 1, "sentence": "", "pairs": [pair("smoking", "cancer"), pair("stress", "liver disease")]},
        {"s/n": 3, "sentence": "", "pairs": [pair("The A.", "b"), pair("C", "D")]},
    ]
