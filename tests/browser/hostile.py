"""A statement whose text, events, trigger, contexts and belongs-to fields carry markup and script.

Each payload sets ``window.__pwned`` (or requests a file) if it ever runs, so
a browser test can tell whether anything from the data was executed.
"""

from __future__ import annotations

from causalgraph.model import Correlation, Polarity, Relation, Statement

__all__ = ["TEXT", "CAUSE", "EFFECT", "TRIGGER", "OVER", "NEST", "hostile_statement"]

TEXT = ('Heat <script>window.__pwned = "text"</script> raises <img src=x onerror="window.__pwned=\'img\'"> '
        "floods & droughts.")
CAUSE = '<script>window.__pwned = "cause"</script>'
EFFECT = "<img src=x onerror=\"window.__pwned='effect'\">"
TRIGGER = "raises"
OVER = '</script><script>window.__pwned = "over"</script><!--'
NEST = '<svg onload="window.__pwned=\'nest\'"></svg>'


def hostile_statement() -> Statement:
    rels = (
        Relation(CAUSE, EFFECT, trigger=TRIGGER, correlation=Correlation.POSITIVE, polarity=Polarity.NEGATIVE,
                 cause_context='"><b onmouseover="window.__pwned=1">', effect_context="\u2028</style>",
                 combined=True, cause_belongs_to=OVER, confidence="<i>high</i>"),
        Relation(EFFECT, "droughts", trigger="</mark>", correlation=Correlation.NEGATIVE,
                 polarity=Polarity.POSITIVE, nested=True, effect_belongs_to=NEST),
    )
    return Statement("x<script>", TEXT, True, rels)
