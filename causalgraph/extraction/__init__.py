"""PubMedCausal extraction: prompts, tuple parsing, span metrics, graph producer."""
