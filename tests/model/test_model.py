"""The corpus model: labels, relation keys, statements and corpora."""

from __future__ import annotations

import pytest

from causalgraph import Corpus, Correlation, Polarity, Relation, Statement


def test_label_enums_print_their_canonical_value_and_sign():
    assert str(Correlation.NEGATIVE) == "negative"
    assert Correlation.POSITIVE.sign == 1 and Polarity.NEGATIVE.sign == -1


def test_relation_key_ignores_provenance():
    a = Relation("x", "y", source_file="f", source_row=2)
    b = Relation("x", "y", source_file="f", source_row=9)
    assert a.key() == b.key() and a != b


def test_statement_unique_relations_keeps_first_of_identical():
    a, b = Relation("x", "y", source_row=2), Relation("x", "y", source_row=3)
    s = Statement("s", "t", True, (a, b, Relation("y", "z")))
    assert [r.source_row for r in s.unique_relations()] == [2, None]


def test_corpus_indexes_by_id_and_position():
    c = Corpus("demo", [Statement("s1", "t", False), Statement("s2", "u", False)])
    assert c["s2"].text == "u" and c[0].id == "s1" and len(c) == 2
    with pytest.raises(KeyError, match="no statement with id 'zz'"):
        c["zz"]


def test_import_causalgraph_stays_light():
    import subprocess
    import sys

    code = ("import sys, causalgraph\n"
            "heavy = [m for m in ('torch', 'transformers', 'openai', 'llama_cpp', 'pyvis', 'matplotlib', 'textstat')"
            " if m in sys.modules]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
