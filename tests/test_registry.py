"""The one registry kind (causalgraph/registry.py): lazy targets, replace=, did-you-mean, entry points."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph import registry as reg
from causalgraph.errors import ConfigError
from causalgraph.registry import Registry, did_you_mean, is_target, load_target


def _module(tmp_path, monkeypatch, name: str, body: str) -> str:
    """A module written in ``tmp_path`` and importable (not yet imported) under ``name``."""
    (tmp_path / f"{name}.py").write_text(body, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


def _with_entry_points(monkeypatch, eps):
    """Make the registry module see ``eps`` as the installed entry points."""
    def fake(*, group=None):
        return [ep for ep in eps if ep.group == group]
    monkeypatch.setattr(reg.metadata, "entry_points", fake)


def test_a_lazy_target_is_imported_only_when_its_name_is_first_asked(tmp_path, monkeypatch):
    mod = _module(tmp_path, monkeypatch, "cg_lazy_plugin_a", "VALUE = 41 + 1\n")
    r = Registry("number", coerce=lambda name, obj: int(obj))
    r.register("answer", f"{mod}:VALUE")
    assert mod not in sys.modules and r.raw("answer") == f"{mod}:VALUE" and r.loaded() == {}
    assert r.get("answer") == 42 and mod in sys.modules
    assert r.loaded() == {"answer": 42}


def test_a_taken_name_is_refused_without_replace_and_replaced_with_it():
    r = Registry("colour")
    r.register("sky", "blue")
    with pytest.raises(ConfigError, match=r"^colour 'sky' is already registered; pass replace=True"):
        r.register("sky", "grey")
    assert r.get("sky") == "blue"
    r.register("sky", "grey", replace=True)
    assert r.get("sky") == "grey" and r.names() == ("sky",)


def test_an_unknown_name_is_one_line_listing_the_names_and_the_closest_match():
    r = Registry("encoding")
    for n in ("adjacency", "graphml", "dot"):
        r.register(n, n.upper())
    with pytest.raises(ConfigError) as err:
        r.get("graphxml")
    msg = str(err.value)
    assert msg == "unknown encoding 'graphxml'; expected one of adjacency, graphml, dot; did you mean 'graphml'?"
    assert "\n" not in msg
    assert did_you_mean("qqqqq", ["adjacency"]) == ""
    with pytest.raises(ConfigError, match="unknown encoding 'nope'"):
        r.unregister("nope")


def test_the_coerce_check_refuses_a_value_at_registration_and_a_lazy_one_at_first_use(tmp_path, monkeypatch):
    def must_be_int(name, obj):
        if not isinstance(obj, int):
            raise ConfigError(f"number {name!r}: {obj!r} is not an integer")
        return obj

    mod = _module(tmp_path, monkeypatch, "cg_lazy_plugin_b", "VALUE = 'forty-two'\n")
    r = Registry("number", coerce=must_be_int)
    with pytest.raises(ConfigError, match="is not an integer"):
        r.register("bad", "x")
    assert "bad" not in r
    r.register("lazy", f"{mod}:VALUE")  # accepted now, checked when imported
    with pytest.raises(ConfigError, match="'forty-two' is not an integer"):
        r.get("lazy")


def test_targets_are_module_colon_attribute_and_attributes_may_be_dotted():
    assert is_target("a.b:C.d") and not is_target("a.b") and not is_target("a:b:c") and not is_target(3)
    assert load_target("causalgraph.errors:ConfigError.__name__") == "ConfigError"
    with pytest.raises(ConfigError, match="expected 'module:attribute'"):
        load_target("causalgraph.errors")


def test_plugins_come_from_the_entry_point_group_after_the_built_ins_sorted_by_name(tmp_path, monkeypatch):
    mod = _module(tmp_path, monkeypatch, "cg_plugin_c", "ZED = 'z'\nALPHA = 'a'\n")
    _with_entry_points(monkeypatch, [
        EntryPoint("zed", f"{mod}:ZED", "causalgraph.test-kind"),
        EntryPoint("alpha", f"{mod}:ALPHA", "causalgraph.test-kind"),
        EntryPoint("other", f"{mod}:ALPHA", "causalgraph.another-kind"),  # another group: not read
    ])
    r = Registry("thing", group="causalgraph.test-kind", builtins=lambda x: x.register("builtin", "b"))
    assert r.names() == ("builtin", "alpha", "zed")
    assert r.get("zed") == "z" and r.origin("builtin") is None
    assert "entry point 'alpha'" in r.origin("alpha") and "causalgraph.test-kind" in r.origin("alpha")


def test_a_broken_plugin_is_a_one_line_error_when_used_and_the_rest_still_works(tmp_path, monkeypatch):
    mod = _module(tmp_path, monkeypatch, "cg_plugin_d", "GOOD = 'fine'\n")
    _with_entry_points(monkeypatch, [
        EntryPoint("good", f"{mod}:GOOD", "causalgraph.test-kind"),
        EntryPoint("missing", "cg_no_such_module_here:X", "causalgraph.test-kind"),
        EntryPoint("typo", f"{mod}:GOD", "causalgraph.test-kind"),
        EntryPoint("notatarget", "just words", "causalgraph.test-kind"),
    ])
    r = Registry("thing", group="causalgraph.test-kind")
    assert r.get("good") == "fine"
    for name, why in (("missing", "ModuleNotFoundError"), ("typo", "AttributeError"),
                      ("notatarget", "not 'module:attribute'")):
        with pytest.raises(ConfigError) as err:
            r.get(name)
        msg = str(err.value)
        assert f"entry point {name!r}" in msg and why in msg and "\n" not in msg, msg
    assert r.get("good") == "fine"


def test_a_plugin_claiming_a_built_in_name_loses_and_says_so_when_the_name_is_used(tmp_path, monkeypatch):
    mod = _module(tmp_path, monkeypatch, "cg_plugin_e", "MINE = 'plugin'\n")
    _with_entry_points(monkeypatch, [EntryPoint("mock", f"{mod}:MINE", "causalgraph.test-kind")])
    r = Registry("provider", group="causalgraph.test-kind", builtins=lambda x: x.register("mock", "built-in"))
    with pytest.raises(ConfigError, match=r"entry point 'mock'.*is already registered by causalgraph"):
        r.get("mock")
    # Code that registers the name on purpose (replace=True) settles it.
    r.register("mock", "mine", replace=True)
    assert r.get("mock") == "mine"


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.text(alphabet="abcdefgh-", min_size=1, max_size=6), min_size=1, max_size=8, unique=True),
       order=st.randoms(use_true_random=False))
def test_the_order_of_names_never_depends_on_the_order_entry_points_are_listed(names, order):
    eps = [EntryPoint(n, "causalgraph.errors:ConfigError", "causalgraph.test-kind") for n in names]
    shuffled = list(eps)
    order.shuffle(shuffled)
    seen = []
    for listing in (eps, shuffled):
        r = Registry("thing", group="causalgraph.test-kind")
        original = reg.metadata.entry_points
        reg.metadata.entry_points = lambda *, group=None, _l=listing: [e for e in _l if e.group == group]
        try:
            seen.append(r.names())
        finally:
            reg.metadata.entry_points = original
    assert seen[0] == seen[1] == tuple(sorted(names))


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(st.tuples(st.sampled_from("abcde"), st.integers(0, 9), st.booleans()), max_size=20))
def test_registering_keeps_first_registration_order_and_refuses_a_taken_name_without_replace(ops):
    r = Registry("number")
    model: dict[str, int] = {}
    order: list[str] = []
    for name, value, replace in ops:
        if name in model and not replace:
            with pytest.raises(ConfigError):
                r.register(name, value)
            continue
        r.register(name, value, replace=replace)
        if name not in model:  # a replaced name keeps its place
            order.append(name)
        model[name] = value
    assert r.names() == tuple(order)
    assert {n: r.get(n) for n in r.names()} == model
