"""An encoding registered here, in the test, works everywhere a built-in one does, with no file of
causalgraph edited: ``encode``/``decode``/``prompt_graph``, ``causalgraph encode --encoding``, the
variant ids, ``get_task("ccr-member").items(…, encoding=…)`` and the structure and identification tasks.

This is the recipe of docs/architecture.md ("An encoding"); the registry's own rules (no silent
overwrite, one encoding per prefix, a did-you-mean for unknown names) are checked too.
"""

from __future__ import annotations

import pytest

from causalgraph import encodings, prompts
from causalgraph.cli import main
from causalgraph.encodings import Encoding, decode, encode, prompt_graph, register_encoding, unregister_encoding
from causalgraph.errors import ConfigError, ParseError
from causalgraph.graph import compile_graph
from causalgraph.model import Relation, Statement
from causalgraph.tasks import get_task

TOY = "arrows"


def _arrows(nodes, edges, signs):
    # One edge a line: "cause -> effect" (with signs "cause -[positive]-> effect").
    return "\n".join(f"{c} -[{s}]-> {e}" if signs else f"{c} -> {e}" for c, e, s in edges)


def _read_arrows(text, *, signs=False, nodes=None):
    edges = []
    for line in text.strip().splitlines():
        if signs:
            cause, rest = line.split(" -[", 1)
            sign, effect = rest.split("]-> ", 1)
        else:
            cause, sep, effect = line.partition(" -> ")
            if not sep:
                raise ParseError(f"not arrows text: {line!r}")
            sign = "unknown"
        edges.append((cause, effect, sign))
    return None, edges


@pytest.fixture
def toy():
    enc = register_encoding(Encoding(TOY, _arrows, prefix="AR", decoder=_read_arrows, punctuation=("\n", "\n")))
    try:
        yield enc
    finally:
        unregister_encoding(TOY)


def test_a_registered_encoding_encodes_decodes_and_is_listed_last(toy):
    g = [("warming", "drought"), ("drought", "fires"), ("warming", "floods")]
    assert encode(g, TOY) == "warming -> drought\nwarming -> floods\ndrought -> fires"
    assert encode(g, TOY, order="data") == "warming -> drought\ndrought -> fires\nwarming -> floods"
    assert decode(encode(g, TOY, order="data"), TOY).pairs == g
    signed = [("a", "b", "negative")]
    assert decode(encode(signed, TOY, signs=True), TOY, signs=True).edges[0].correlation.value == "negative"
    assert prompt_graph(g[:1], TOY) == "\nwarming -> drought\n"
    # the lists are read from the registry
    assert encodings.ENCODINGS[-1] == TOY and TOY in encodings.DECODABLE
    assert prompts.ENCODING_PREFIXES[TOY] == "AR" and list(prompts.ENCODING_PREFIXES)[-1] == TOY
    assert prompts.variant_encoding("AR_5") == TOY
    assert prompts.encoding_variant_id("A_5", TOY) == "AR_5"


def test_after_unregistering_it_is_gone():
    assert TOY not in encodings.ENCODINGS and TOY not in prompts.ENCODING_PREFIXES
    assert prompts.variant_encoding("AR_5") is None
    with pytest.raises(ConfigError, match=r"^unknown encoding 'arrows'; expected one of adjacency, single-node, "
                                          r"graphml, json, multinode, matrix, dot, incident$"):
        encode([("a", "b")], TOY)


def test_the_encode_command_takes_it(toy, capsys, climatecause):
    assert main(["encode", "--statement", "cc-007", "--encoding", TOY]) == 0
    out = capsys.readouterr().out
    st = next(s for s in climatecause.statements if s.id == "cc-007")
    assert out == encode(compile_graph(st), TOY) + "\n"
    assert " -> " in out


def test_ccr_member_items_take_it_as_an_option_and_by_variant_id(toy, climatecause):
    task = get_task("ccr-member")
    plain = task.items(climatecause, "A_5")
    mine = task.items(climatecause, "A_5", encoding=TOY)
    assert [it.variant for it in mine] == ["AR_5"] * len(plain)
    assert [it.gold for it in mine] == [it.gold for it in plain]
    assert [it.prompt for it in task.items(climatecause, "AR_5")] == [it.prompt for it in mine]
    # the authors' templates take the encoder's text as it is
    st = next(s for s in climatecause.statements if s.id == mine[0].meta["statement_id"])
    assert encode(compile_graph(st), TOY) in mine[0].prompt
    # the tables' templates take it within the encoding's punctuation
    tables = task.items(climatecause, "A_5", encoding=TOY, prompts="tables")
    assert prompt_graph(compile_graph(st), TOY) in tables[0].prompt
    assert get_task("ccr-position").items(climatecause, "SN_4", encoding=TOY)[0].variant == "AR_4"


@pytest.mark.parametrize("name", ["parents", "reachability", "d-separation", "adjustment-set"])
def test_structure_and_identification_tasks_list_and_build_its_variants(toy, name):
    task = get_task(name)
    assert task.list_variants()[-2:] == ["AR_1", "AR_2"]
    pairs = [("a", "b"), ("b", "c"), ("a", "d"), ("d", "c"), ("c", "e")]
    st = Statement("s1", "x", True, tuple(Relation(c, e) for c, e in pairs))
    by_option = task.items([st], "A_1", encoding=TOY)
    by_id = task.items([st], "AR_1")
    assert [it.variant for it in by_option] == ["AR_1"] * len(by_option) and by_option
    assert [it.prompt for it in by_id] == [it.prompt for it in by_option]
    assert by_option[0].meta["encoding"] == TOY
    assert "\na -> b\na -> d\nb -> c\nc -> e\nd -> c\n" in by_option[0].prompt
    # same questions, same golds as the adjacency variant
    assert [it.gold for it in by_option] == [it.gold for it in task.items([st], "A_1")]


def test_a_taken_name_is_refused_unless_replace(toy):
    with pytest.raises(ConfigError, match=r"^encoding 'arrows' is already registered; pass replace=True to "
                                          r"replace it$"):
        register_encoding(Encoding(TOY, _arrows, prefix="AR"))
    with pytest.raises(ConfigError, match=r"already registered"):
        register_encoding(Encoding("adjacency", _arrows, prefix="A"))
    register_encoding(Encoding(TOY, lambda nodes, edges, signs: "replaced", prefix="AR"), replace=True)
    assert encode([("a", "b")], TOY) == "replaced"
    assert TOY not in encodings.DECODABLE


def test_a_prefix_names_one_encoding(toy):
    with pytest.raises(ConfigError, match=r"^encoding 'arrows2': prefix 'AR' is taken by encoding 'arrows'"):
        register_encoding(Encoding("arrows2", _arrows, prefix="AR"))
    for bad in ("", "A_R", "F", "CoT", "RC", "1X"):
        with pytest.raises(ConfigError, match=r"cannot start a variant id"):
            register_encoding(Encoding("arrows2", _arrows, prefix=bad))
    assert "arrows2" not in encodings.ENCODINGS


def test_records_that_cannot_work_are_refused():
    with pytest.raises(ConfigError, match=r"takes an Encoding record or a 'module:attr' target; found dict"):
        register_encoding({"name": "x"})
    with pytest.raises(ConfigError, match=r"encoder 'nope' is not callable"):
        register_encoding(Encoding("x", "nope", prefix="X"))
    with pytest.raises(ConfigError, match=r"non-empty name"):
        register_encoding(Encoding(" ", _arrows, prefix="X"))
    with pytest.raises(ConfigError, match=r"punctuation"):
        register_encoding(Encoding("x", _arrows, prefix="X", punctuation="."))
    assert "x" not in encodings.ENCODINGS


def test_unknown_names_get_a_did_you_mean():
    with pytest.raises(ConfigError, match=r"^unknown encoding 'graphxml'; expected one of .*; did you mean "
                                          r"'graphml'\?$"):
        encode([("a", "b")], "graphxml")
    with pytest.raises(ConfigError, match=r"^cannot decode encoding 'jsn'; expected one of adjacency, single-node, "
                                          r"graphml, matrix, dot, incident$"):
        decode("{}", "jsn")  # json has no decoder, so nothing decodable is close
    with pytest.raises(ConfigError, match=r"did you mean 'incident'\?$"):
        decode("x", "incidents")
    with pytest.raises(ConfigError, match=r"did you mean 'matrix'\?$"):
        prompts.encoding_variant_id("A_5", "matrx")
