"""Scores of answers, the one home of each: precision, recall and F1 (:mod:`.scores`), Fleiss' kappa
(:mod:`.agreement`) and the P/R/F1 of event-list answers (:mod:`.event_lists`).
"""

__all__: list[str] = []
