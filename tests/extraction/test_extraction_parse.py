"""Reading tuples and verdicts from the answers models write."""

from causalgraph.extraction.tuples import parse_detection, parse_tuples
from causalgraph.model import Explicitness, Sententiality


def _pairs(r):
    return [(p.cause, p.effect) for p in r.pairs]


def test_parse_tuples_reads_the_papers_format_with_tuple_prefixes():
    r = parse_tuples("Tuple 1: {Cause: Hypertension, Effect: heart failure, Causality_Type: Explicit, "
                     "Sententiality: Intra-sentential}\nTuple 2: {Cause: Hypertension, Effect: kidney damage, "
                     "Causality_Type: Implicit, Sententiality: Inter-sentential}")
    assert r.rule == "braces" and not r.null
    assert _pairs(r) == [("Hypertension", "heart failure"), ("Hypertension", "kidney damage")]
    assert [p.causality for p in r.pairs] == [Explicitness.EXPLICIT, Explicitness.IMPLICIT]
    assert [p.sententiality for p in r.pairs] == [Sententiality.INTRA, Sententiality.INTER]


def test_parse_tuples_keeps_commas_inside_a_span():
    r = parse_tuples("{Cause: alcohol, sedatives and opioids, Effect: respiratory depression}")
    assert _pairs(r) == [("alcohol, sedatives and opioids", "respiratory depression")]


def test_parse_tuples_reads_a_fenced_json_list():
    r = parse_tuples('Here:\n```json\n[{"cause": "smoking", "effect": "lung cancer", "causality_type": "explicit",'
                     ' "sententiality": "intra"}, {"Cause": "heat", "Effect": "stroke"}]\n```')
    assert r.rule == "json"
    assert _pairs(r) == [("smoking", "lung cancer"), ("heat", "stroke")]
    assert r.pairs[1].causality is None


def test_parse_tuples_reads_json_nested_under_a_key():
    r = parse_tuples('{"tuples": [{"cause": "A", "effect": "B"}]}')
    assert _pairs(r) == [("A", "B")]


def test_parse_tuples_reads_markdown_bullets_one_field_per_line():
    r = parse_tuples("1. **Cause:** smoking\n   **Effect:** lung cancer\n   **Causality_Type:** Explicit\n"
                     "2. - Cause: heat\n   - Effect: stroke\n   - Sententiality: Inter")
    assert r.rule == "key-value"
    assert _pairs(r) == [("smoking", "lung cancer"), ("heat", "stroke")]
    assert r.pairs[0].causality is Explicitness.EXPLICIT and r.pairs[1].sententiality is Sententiality.INTER


def test_parse_tuples_reads_positional_tuples_only_when_labels_follow():
    r = parse_tuples("(smoking, lung cancer, Explicit, Intra)\n(this is prose, not a tuple)")
    assert r.rule == "positional" and _pairs(r) == [("smoking", "lung cancer")]


def test_parse_tuples_reads_arrows():
    r = parse_tuples("- smoking -> lung cancer\n- heat → stroke")
    assert r.rule == "arrow" and _pairs(r) == [("smoking", "lung cancer"), ("heat", "stroke")]


def test_parse_tuples_prefers_the_final_output_section_over_reasoning():
    r = parse_tuples('Sentence 1: Entities — Cause = "compound", Effect = "growth". Final Output: '
                     "Tuple 1: {Cause: new compound, Effect: tumor growth inhibition}")
    assert r.rule == "final/braces" and _pairs(r) == [("new compound", "tumor growth inhibition")]


def test_parse_tuples_ignores_think_blocks():
    r = parse_tuples("<think>Cause: wrong, Effect: guess</think>\nTuple 1: {Cause: a, Effect: b}")
    assert _pairs(r) == [("a", "b")]


def test_parse_tuples_reports_incomplete_tuples_instead_of_dropping_them_silently():
    r = parse_tuples("{Cause: X, Causality_Type: Explicit}\n{Cause: Y, Effect: Z}")
    assert _pairs(r) == [("Y", "Z")]
    assert any("no effect" in i for i in r.issues)


def test_parse_tuples_keeps_a_repeated_pair_as_often_as_listed_and_says_so():
    # The gold keeps its repeated pairs (s/n 21640 lists two pairs twice each): the parsed side does the same.
    r = parse_tuples("{Cause: a, Effect: b}\n{Cause: a, Effect: b}\n{Cause: c, Effect: d}")
    assert _pairs(r) == [("a", "b"), ("a", "b"), ("c", "d")]
    assert r.issues == ("pair 'a' → 'b' listed 2 times; each counted, as in the gold",)


def test_parse_tuples_no_relations_is_empty_but_not_null():
    r = parse_tuples("No relations extracted. (Reason: hedged claim.)")
    assert r.pairs == () and r.rule == "none-stated" and r.null is False


def test_parse_tuples_without_any_tuple_is_null():
    for text in ("I am not sure.", "", None, "{Cause: only a cause}"):
        r = parse_tuples(text)
        assert r.null and r.pairs == () and r.rule == "unparsed"


def test_parse_tuples_reports_unknown_labels_and_keeps_the_pair():
    r = parse_tuples("{Cause: a, Effect: b, Causality_Type: Maybe}")
    assert r.pairs[0].causality is None and any("Maybe" in i for i in r.issues)


def test_parse_detection_rules():
    assert parse_detection('"1"') == parse_detection("1")
    assert parse_detection(" 0. ").label == "0"
    assert parse_detection("Step 1: x\nStep 2: y\nFinal Output: \"0\"") .rule == "final-marker"
    assert parse_detection("Step 1: x\nStep 2: y\nFinal Output: \"0\"").label == "0"
    assert parse_detection('I think the verdict is "1" here.').rule == "quoted"
    assert parse_detection("Thought 1: scan. So it is 1").label == "1"
    assert parse_detection("Thought 1: scan the text").rule == "unparsed"
    assert parse_detection("The passage is non-causal.").label == "0"
    assert parse_detection("The passage is causal.").label == "1"
    assert parse_detection("similarity 0.5").label is None


def test_parse_tuples_reads_a_least_to_most_final_extraction_step_only():
    r = parse_tuples("Step 2 — Pairing: {Cause: sugar, Effect: syndrome} is hedged, discard.\n"
                     "Step 4 — Final Extraction: {Cause: hypertension, Effect: heart failure}")
    assert r.rule == "final/braces" and _pairs(r) == [("hypertension", "heart failure")]


def test_parse_tuples_reads_a_markdown_table_with_cause_and_effect_columns():
    r = parse_tuples("Here are the relations:\n\n| # | **Cause** | Effect | Causality_Type | Sententiality |\n"
                     "|---|:---|---|---|---|\n| 1 | smoking | lung cancer | Explicit | Intra-sentential |\n"
                     "| 2 | heat | stroke | Implicit | Inter-sentential |\n| 3 | broken row |\n\nDone.")
    assert r.rule == "table" and not r.null
    assert _pairs(r) == [("smoking", "lung cancer"), ("heat", "stroke")]
    assert [p.causality for p in r.pairs] == [Explicitness.EXPLICIT, Explicitness.IMPLICIT]
    assert [p.sententiality for p in r.pairs] == [Sententiality.INTRA, Sententiality.INTER]
    assert r.issues == ("table row ['3', 'broken row']: 2 cells under a header of 5; skipped",)


def test_parse_tuples_ignores_a_table_without_cause_and_effect_columns():
    r = parse_tuples("| Step | Result |\n|---|---|\n| 1 | entities found |")
    assert r.null and r.rule == "unparsed"


def test_parse_tuples_reads_a_json_list_of_cause_effect_rows():
    r = parse_tuples('[["smoking", "cancer"], ["heat", "stroke", "Implicit", "Inter-sentential"]]')
    assert r.rule == "json" and _pairs(r) == [("smoking", "cancer"), ("heat", "stroke")]
    assert r.pairs[1].causality == Explicitness.IMPLICIT and r.pairs[1].sententiality == Sententiality.INTER
    # A list that is not made of 2-4 strings per row is prose, not pairs.
    assert parse_tuples("Scores [1, 2] and [[\"only one\"]]").null
