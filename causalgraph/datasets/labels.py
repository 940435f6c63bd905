"""Canonical spellings of the labels found in the corpus files.

Each parser maps the many spellings annotators wrote (``Positive_correlation``,
``E``, ``Explcit``, ``intra`` …) to one enum value, and returns ``None`` for a
spelling it does not know, so the loader can report it.
"""

from __future__ import annotations

import math
import re
from typing import Optional

from ..model import Correlation, Explicitness, Polarity, Sententiality, is_blank

__all__ = [
    "is_empty",
    "clean",
    "parse_yes_no",
    "parse_correlation",
    "parse_polarity",
    "parse_explicitness",
    "parse_sententiality",
    "ACCEPTED",
]


def is_empty(value: object) -> bool:
    """True for None, NaN and strings that show nothing (whitespace and invisible characters only)."""
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return is_blank(value)


def clean(value: object) -> Optional[str]:
    """The trimmed string, or None when the cell is empty."""
    if is_empty(value):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _key(value: str) -> str:
    # One spelling for case, spaces, hyphens and underscores (and a typographic apostrophe).
    return re.sub(r"[\s_\-]+", "_", value.strip().lower().replace("\u2019", "'"))


_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0"}

_CORRELATION = {
    "positive_correlation": Correlation.POSITIVE,
    "positive": Correlation.POSITIVE,
    "pos": Correlation.POSITIVE,
    "+": Correlation.POSITIVE,
    "increase_increase": Correlation.POSITIVE,
    "decrease_decrease": Correlation.POSITIVE,
    "negative_correlation": Correlation.NEGATIVE,
    "negative": Correlation.NEGATIVE,
    "neg": Correlation.NEGATIVE,
    "-": Correlation.NEGATIVE,
    "increase_decrease": Correlation.NEGATIVE,
    "decrease_increase": Correlation.NEGATIVE,
}

_POLARITY = {
    "positive": Polarity.POSITIVE,
    "pos": Polarity.POSITIVE,
    "+": Polarity.POSITIVE,
    "causes": Polarity.POSITIVE,
    "cause": Polarity.POSITIVE,
    "negative": Polarity.NEGATIVE,
    "neg": Polarity.NEGATIVE,
    "-": Polarity.NEGATIVE,
    "prevents": Polarity.NEGATIVE,
    "prevent": Polarity.NEGATIVE,
    # the alternatives the released header itself names:
    # "Causation: Positive/Negative (causes/doesn't cause or produce/do_not_produce)"
    "produce": Polarity.POSITIVE,
    "produces": Polarity.POSITIVE,
    "doesn't_cause": Polarity.NEGATIVE,
    "does_not_cause": Polarity.NEGATIVE,
    "do_not_produce": Polarity.NEGATIVE,
    "does_not_produce": Polarity.NEGATIVE,
}

# Explicitness covers the ClimateCause letters and the PubMedCausal
# "causality type", whose release carries typos (Explcit, Explicts, EXplicit).
_EXPLICITNESS = {
    "e": Explicitness.EXPLICIT,
    "explicit": Explicitness.EXPLICIT,
    "explcit": Explicitness.EXPLICIT,
    "explicts": Explicitness.EXPLICIT,
    "explicits": Explicitness.EXPLICIT,
    "explict": Explicitness.EXPLICIT,
    "i": Explicitness.IMPLICIT,
    "implicit": Explicitness.IMPLICIT,
    "implict": Explicitness.IMPLICIT,
    "implicits": Explicitness.IMPLICIT,
}

_SENTENTIALITY = {
    "intra": Sententiality.INTRA,
    "intra_sentential": Sententiality.INTRA,
    "intrasentential": Sententiality.INTRA,
    "inter": Sententiality.INTER,
    "inter_sentential": Sententiality.INTER,
    "intersentential": Sententiality.INTER,
}

#: Human-readable lists of accepted spellings, used in error messages.
ACCEPTED = {
    "yes_no": "Yes, No (any case) or empty",
    "correlation": "Positive_correlation, Negative_correlation, positive, negative, "
    "increase-increase, increase-decrease",
    "polarity": "Positive, Negative, causes, prevents, doesn't cause, produce, do_not_produce",
    "explicitness": "E, I, explicit, implicit",
    "sententiality": "intra, inter",
}


def parse_yes_no(value: object) -> tuple[Optional[bool], bool]:
    """Parse a Yes/No cell: returns (value, known). Empty is (None, True)."""
    if is_empty(value):
        return None, True
    k = _key(str(value))
    if k in _YES:
        return True, True
    if k in _NO:
        return False, True
    return None, False


def _lookup(table: dict, value: object):
    if is_empty(value):
        return None
    return table.get(_key(str(value)))


def parse_correlation(value: object) -> Optional[Correlation]:
    """``Positive_correlation`` → positive, ``increase-decrease`` → negative, else None."""
    return _lookup(_CORRELATION, value)


def parse_polarity(value: object) -> Optional[Polarity]:
    """``Positive``/``causes`` → positive, ``Negative``/``prevents`` → negative, else None."""
    return _lookup(_POLARITY, value)


def parse_explicitness(value: object) -> Optional[Explicitness]:
    """``E``/``explicit`` (and known typos) → explicit, ``I``/``implicit`` → implicit."""
    return _lookup(_EXPLICITNESS, value)


def parse_sententiality(value: object) -> Optional[Sententiality]:
    """``Intra``/``intra`` → intra, ``Inter``/``inter`` → inter, else None."""
    return _lookup(_SENTENTIALITY, value)
