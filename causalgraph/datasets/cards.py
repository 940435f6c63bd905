"""What a dataset card says about each corpus: its title, citation and licence.

``causalgraph export-dataset`` writes a Hugging Face dataset card for the
benchmark items; each corpus the items come from is credited there with the
licence its authors gave.  The facts live here, with the corpora, so that
the exporter (:mod:`causalgraph.interop.export`) names no corpus.

Examples
--------
>>> CORPUS_LICENSES["climatecause"]["license_id"]
'cc-by-sa-4.0'
"""

from __future__ import annotations

__all__ = ["CORPUS_LICENSES", "BENCHMARK_CORPORA"]

#: The corpora the built-in benchmark tasks are built from, as the card's summary names them.
BENCHMARK_CORPORA = "ClimateCause, PubMedCausal"

#: Corpus name → what the dataset card says about it: citation, Hub licence id, licence text.
CORPUS_LICENSES: dict[str, dict[str, str]] = {
    "climatecause": {
        "title": "ClimateCause",
        "citation": "Allein, Pineda-Castañeda, Rocci, Moens. ClimateCause: Complex and Implicit Causal Structures "
                    "in Climate Reports. Findings of ACL 2026. Statements from the IPCC AR6 Synthesis Report.",
        "license_id": "cc-by-sa-4.0",
        "licence": "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/): credit the authors and the "
                   "dataset, and share derived datasets, these items included, under the same licence.",
    },
    "pubmedcausal": {
        "title": "PubMedCausal",
        "citation": "Kunle-John, Paul, Agbaakin, Aina, Odezuligbo, Anuyah. PubMedCausal: A Span-Level Annotated "
                    "Corpus for Causal Relation Extraction in Biomedical Text, 2026. Sentences from PubMed "
                    "abstracts; prepared split of josiahpaul07/PubMedCausal_Exp.",
        "license_id": "unknown",
        "licence": "not stated: the authors' repository (josiahpaul07/PubMedCausal_Exp) has no licence file and "
                   "its Hub copy says 'unknown'. Ask the authors before redistributing these items.",
    },
    "sample": {
        "title": "causalgraph sample corpus",
        "citation": "Four statements written by the causalgraph authors (not IPCC text), shipped with causalgraph.",
        "license_id": "mit",
        "licence": "MIT, as causalgraph.",
    },
}
