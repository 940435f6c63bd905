"""The annotation answer format: a JSON schema and its field names.

A model answers one JSON object per statement::

    {"causal": true, "abbreviations": "GHG = greenhouse gases" | null,
     "relations": [{"target": …, "explicitness": "E" | "I",
                    "cause_np": …, "cause_context": …, "cause_no_quantifier": …, "cause_belongs_to": …,
                    "effect_np": …, "effect_context": …, "effect_no_quantifier": …, "effect_belongs_to": …,
                    "combined": true | false | null, "nested": true | false | null,
                    "relation_type": "positive" | "negative", "correlation": "positive" | "negative"}]}

The fields are the annotation features of ClimateCause (paper Table 6);
statement metadata the annotators did not write (link, section, confidence
level) is not asked for.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["RELATION_FIELDS", "ANNOTATION_SCHEMA", "annotation_schema", "SCHEMA_NAME"]

#: The schema's name in structured-output requests.
SCHEMA_NAME = "climatecause_annotation"

#: Keys of one relation object, in the order prompts and exemplars write them.
RELATION_FIELDS = (
    "target", "explicitness",
    "cause_np", "cause_context", "cause_no_quantifier", "cause_belongs_to",
    "effect_np", "effect_context", "effect_no_quantifier", "effect_belongs_to",
    "combined", "nested", "relation_type", "correlation",
)

_NULLABLE_STRING = {"type": ["string", "null"]}
_NULLABLE_BOOL = {"type": ["boolean", "null"]}
_SIGN = {"type": "string", "enum": ["positive", "negative"]}

ANNOTATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["causal", "abbreviations", "relations"],
    "properties": {
        "causal": {"type": "boolean"},
        "abbreviations": _NULLABLE_STRING,
        "relations": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": list(RELATION_FIELDS),
                "properties": {
                    "target": _NULLABLE_STRING,
                    "explicitness": {"type": "string", "enum": ["E", "I"]},
                    "cause_np": {"type": "string"},
                    "cause_context": _NULLABLE_STRING,
                    "cause_no_quantifier": {"type": "string"},
                    "cause_belongs_to": _NULLABLE_STRING,
                    "effect_np": {"type": "string"},
                    "effect_context": _NULLABLE_STRING,
                    "effect_no_quantifier": {"type": "string"},
                    "effect_belongs_to": _NULLABLE_STRING,
                    "combined": _NULLABLE_BOOL,
                    "nested": _NULLABLE_BOOL,
                    "relation_type": _SIGN,
                    "correlation": _SIGN,
                },
            },
        },
    },
}


def annotation_schema() -> dict[str, Any]:
    """A fresh copy of :data:`ANNOTATION_SCHEMA` (callers may change it freely).

    Examples
    --------
    >>> annotation_schema()["required"]
    ['causal', 'abbreviations', 'relations']
    """
    return copy.deepcopy(ANNOTATION_SCHEMA)
