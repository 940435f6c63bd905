"""The registry kind (:mod:`causalgraph._core.registry`): lazy targets, ``replace=``, did-you-mean and entry points."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.errors import ConfigError, ParseError, SchemaError
from causalgraph._core.registry import ENTRY_POINT_GROUPS, Registry, did_you_mean, is_target, load_target

NAME = st.text(alphabet="abcdefghij-", min_size=1, max_size=8)


def write_dist(folder, name, version, group, entries):
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))


def test_a_lazy_target_is_imported_on_first_use_only(tmp_path, monkeypatch):
    (tmp_path / "lazy_mod_for_registry.py").write_text("VALUE = 41 + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry("thing")
    assert reg.register("x", "lazy_mod_for_registry:VALUE") == "lazy_mod_for_registry:VALUE"
    assert "lazy_mod_for_registry" not in sys.modules and reg.raw("x") == "lazy_mod_for_registry:VALUE"
    assert reg.loaded() == {}
    assert reg.get("x") == 42 and "lazy_mod_for_registry" in sys.modules and reg.loaded() == {"x": 42}
    monkeypatch.delitem(sys.modules, "lazy_mod_for_registry")


def test_a_lazy_target_that_fails_says_which_name_and_target():
    reg = Registry("thing")
    reg.register("gone", "no_such_module_for_registry:X")
    with pytest.raises(ConfigError, match=r"^thing 'gone' \(no_such_module_for_registry:X\) failed to load: "
                                          r"ModuleNotFoundError"):
        reg.get("gone")


@given(st.lists(NAME, min_size=1, max_size=6, unique=True), st.data())
def test_a_taken_name_is_refused_without_replace_and_replaced_in_place_with_it(names, data):
    reg = Registry("thing")
    for i, n in enumerate(names):
        reg.register(n, i)
    n = data.draw(st.sampled_from(names))
    with pytest.raises(ConfigError, match="already registered; pass replace=True"):
        reg.register(n, "other")
    assert reg.get(n) == names.index(n)
    reg.register(n, "other", replace=True)
    assert reg.get(n) == "other" and reg.names() == tuple(names)


@given(st.lists(NAME, min_size=1, max_size=6, unique=True), NAME)
def test_an_unknown_name_is_one_line_listing_every_name_and_the_closest(names, asked):
    reg = Registry("thing")
    for n in names:
        reg.register(n, n)
    if asked in names:
        assert reg.get(asked) == asked
        return
    with pytest.raises(ConfigError) as info:
        reg.get(asked)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(f"unknown thing {asked!r}; expected one of {', '.join(names)}")
    hint = did_you_mean(asked, names)
    assert msg.endswith(hint)
    if hint:
        assert hint[len("; did you mean "):-1].strip("'") in names


def test_the_built_ins_load_once_on_first_use_and_unregister_gives_the_did_you_mean():
    calls = []

    def builtins(reg):
        calls.append(1)
        reg.register("alpha", 1)

    reg = Registry("thing", builtins=builtins)
    assert calls == []
    assert reg.names() == ("alpha",) and reg.names() == ("alpha",) and calls == [1]
    with pytest.raises(ConfigError, match="did you mean 'alpha'"):
        reg.unregister("alpah")
    reg.unregister("alpha")
    assert "alpha" not in reg and reg.find("alpha") is None


def test_is_target_and_load_target():
    assert is_target("a.b:c.d") and not is_target("a.b") and not is_target("a:b c")
    assert load_target("causalgraph._core.registry:Registry.get") is Registry.get
    with pytest.raises(ConfigError, match="expected 'module:attribute'"):
        load_target("nocolon")


def test_entry_points_are_read_lazily_sorted_and_listed_after_code(tmp_path, monkeypatch):
    group = "causalgraph.test-registry-order"
    write_dist(tmp_path, "dist-b", "1.0", group, {"zeta": "causalgraph.errors:ConfigError"})
    write_dist(tmp_path, "dist-a", "1.0", group, {"eta": "causalgraph.errors:ParseError"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry("thing", group=group)
    reg.register("code", 0)  # registering reads no entry point
    assert reg.loaded() == {"code": 0}
    assert reg.names() == ("code", "eta", "zeta")
    assert reg.get("eta") is ParseError
    assert reg.origin("zeta") == ("entry point 'zeta' (causalgraph.errors:ConfigError) of distribution "
                                  f"'dist-b 1.0' in group {group!r}")
    assert reg.origin("code") is None


def test_a_plugin_that_fails_to_load_is_one_clear_line_and_a_built_in_name_stays_the_built_in(tmp_path, monkeypatch,
                                                                                              caplog):
    group = "causalgraph.test-registry-errors"
    write_dist(tmp_path, "bad-plugin", "0.3", group, {"broken": "no_such_plugin_module:X",
                                                      "taken": "causalgraph.errors:ConfigError",
                                                      "refused": "causalgraph.errors:ParseError",
                                                      "fine": "causalgraph.errors:SchemaError"})
    monkeypatch.syspath_prepend(str(tmp_path))

    def builtins(reg):
        reg.register("taken", "built-in")

    def coerce(name, obj):
        if name == "refused":
            raise ConfigError("not a thing this registry holds")
        return obj

    reg = Registry("thing", group=group, builtins=builtins, coerce=coerce)
    with caplog.at_level("WARNING", logger="causalgraph._core.registry"):
        assert reg.names() == ("taken", "broken", "fine", "refused")
        assert reg.names() == ("taken", "broken", "fine", "refused")
    # The built-in keeps its name; the plugin is said once, naming its distribution.
    assert reg.get("taken") == "built-in"
    shadowed = [r.getMessage() for r in caplog.records if "'taken'" in r.getMessage()]
    assert shadowed == [f"note: plugin entry point 'taken' (causalgraph.errors:ConfigError) of distribution "
                        f"'bad-plugin 0.3' in group {group!r} is ignored: thing 'taken' is causalgraph's own"]
    with pytest.raises(ConfigError) as info:
        reg.get("broken")
    msg = str(info.value)
    assert msg.startswith("entry point 'broken' (no_such_plugin_module:X) of distribution 'bad-plugin 0.3' in "
                          f"group {group!r} failed to load: ModuleNotFoundError") and "\n" not in msg
    with pytest.raises(ConfigError, match=r"^entry point 'refused' .*'bad-plugin 0.3'.*: not a thing"):
        reg.get("refused")
    # Listing leaves the two broken ones out (a note each, once) and keeps the rest.
    caplog.clear()
    with caplog.at_level("WARNING", logger="causalgraph._core.registry"):
        assert list(reg.usable()) == ["taken", "fine"]
        assert reg.values() == ("built-in", SchemaError)
    notes = [r.getMessage() for r in caplog.records]
    assert len(notes) == 2 and all("see `causalgraph plugins`" in n and "'bad-plugin 0.3'" in n for n in notes)
    rows = {r.name: r for r in reg.plugins()}
    assert {n: r.status for n, r in rows.items()} == {"broken": "failed", "fine": "ok", "refused": "failed",
                                                       "taken": "shadowed"}
    assert rows["fine"].distribution == "bad-plugin" and rows["fine"].version == "0.3" and rows["fine"].group == group
    assert "ModuleNotFoundError" in rows["broken"].detail and rows["taken"].detail == "thing 'taken' is causalgraph's own"


def test_two_plugins_claiming_one_name_give_an_error_naming_both(tmp_path, monkeypatch):
    group = "causalgraph.test-registry-twice"
    write_dist(tmp_path, "first-plugin", "1.0", group, {"same": "causalgraph.errors:ConfigError"})
    write_dist(tmp_path, "second-plugin", "1.0", group, {"same": "causalgraph.errors:ParseError"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry("thing", group=group)
    with pytest.raises(ConfigError, match=r"'second-plugin 1.0'.*already registered by .*'first-plugin 1.0'"):
        reg.get("same")
    assert reg.usable() == {}
    # Registering the name from code settles it.
    reg.register("same", "mine", replace=True)
    assert reg.get("same") == "mine"


@settings(max_examples=25)
@given(st.permutations(["m1", "m2", "m3", "m4"]))
def test_the_listing_of_plugins_does_not_depend_on_the_order_of_sys_path(tmp_path_factory, order):
    group = "causalgraph.test-registry-paths"
    folder = tmp_path_factory.mktemp("dists")
    paths = []
    for name in order:
        d = folder / name
        d.mkdir()
        write_dist(d, f"dist-{name}", "1", group, {name: "causalgraph.errors:ConfigError"})
        paths.append(str(d))
    saved = list(sys.path)
    try:
        sys.path[:0] = paths
        assert Registry("thing", group=group).names() == ("m1", "m2", "m3", "m4")
    finally:
        sys.path[:] = saved


_KINDS = {"ok": "causalgraph.errors:ConfigError", "missing": "no_such_module_for_the_property:X",
          "wrong": "causalgraph.errors:__name__"}


@settings(max_examples=20, deadline=None)
@given(st.lists(st.text(alphabet="abcdef", min_size=1, max_size=3), min_size=1, max_size=4, unique=True),
       st.lists(st.tuples(st.text(alphabet="abcdef", min_size=1, max_size=3), st.sampled_from(sorted(_KINDS))),
                max_size=5, unique_by=lambda t: t[0]))
def test_built_ins_keep_their_names_and_a_broken_plugin_leaves_only_itself_out(tmp_path_factory, own, plugins):
    group = "causalgraph.test-registry-property"
    folder = tmp_path_factory.mktemp("dists")
    write_dist(folder, "prop-plugins", "1.0", group, {name: _KINDS[kind] for name, kind in plugins})

    def builtins(reg):
        for name in own:
            reg.register(name, f"built-in {name}")

    def coerce(name, obj):  # the "wrong" kind is a str where a class is expected
        if isinstance(obj, str) and not obj.startswith("built-in"):
            raise ConfigError(f"{obj!r} is not a class")
        return obj

    saved = list(sys.path)
    try:
        sys.path.insert(0, str(folder))
        reg = Registry("thing", group=group, builtins=builtins, coerce=coerce)
        usable = reg.usable()
    finally:
        sys.path[:] = saved
    # Every built-in answers as itself, whatever a plugin claims; of the plugins, only those that load count.
    assert {n: usable[n] for n in own} == {n: f"built-in {n}" for n in own}
    loading = sorted(n for n, kind in plugins if kind == "ok" and n not in own)
    assert list(usable) == [*own, *loading]
    status = {r.name: r.status for r in reg.plugins()}
    assert status == {n: "shadowed" if n in own else ("ok" if kind == "ok" else "failed") for n, kind in plugins}


def test_the_six_registries_are_registries():
    from causalgraph.bench.epochs import REDUCERS
    from causalgraph.encodings.registry import ENCODINGS_REGISTRY
    from causalgraph.llm.registry import PROVIDERS
    from causalgraph.metrics import complexity
    from causalgraph.readwrite import FORMATS
    from causalgraph.scoring.scoring_metrics import SCORING_METRICS
    from causalgraph.tasks import TASKS

    assert {r.group for r in (TASKS, PROVIDERS, ENCODINGS_REGISTRY, complexity._REGISTRY, REDUCERS, FORMATS,
                              SCORING_METRICS)} == {
        "causalgraph.tasks", "causalgraph.backends", "causalgraph.encodings", "causalgraph.metrics",
        "causalgraph.reducers", "causalgraph.formats", "causalgraph.scoring_metrics"} == set(ENTRY_POINT_GROUPS.values())
    assert REDUCERS.names()[:4] == ("majority", "mean", "pass@k", "pass^k")
    for reg, typo in ((TASKS, "corrri"), (PROVIDERS, "mokc"), (ENCODINGS_REGISTRY, "graphxml"),
                      (complexity._REGISTRY, "neste"), (REDUCERS, "majorty"), (FORMATS, "grahpml"),
                      (SCORING_METRICS, "mmc")):
        with pytest.raises(ConfigError, match="did you mean"):
            reg.get(typo)


def test_every_register_function_takes_a_lazy_target_imported_on_first_use(tmp_path, monkeypatch):
    """The five registries share the rule: a value, or a ``module:attr`` target loaded when first used."""
    from causalgraph.bench.epochs import parse_reducer, register_reducer, REDUCERS
    from causalgraph.encodings import encode
    from causalgraph.encodings.registry import register_encoding, unregister_encoding
    from causalgraph.llm.registry import PROVIDERS, register_provider
    from causalgraph.metrics.complexity import ComplexityMetric, complexity, register_metric, unregister_metric
    from causalgraph.model import Relation
    from causalgraph.tasks import TASKS, register_task

    (tmp_path / "lazy_plugin_parts.py").write_text(
        "from causalgraph.encodings import Encoding\n"
        "from causalgraph.bench.epochs import ReducerKind\n"
        "ENC = Encoding('lazy-arrows', lambda nodes, edges, signs: ' '.join(f'{c}=>{e}' for c, e, _ in edges),"
        " prefix='LZA')\n"
        "RED = ReducerKind('lazy#k', 'at least one right', lambda n, c, k: float(c > 0))\n"
        "def events(graph, options):\n    return len(graph.nodes)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert register_encoding("lazy_plugin_parts:ENC", name="lazy-arrows") == "lazy_plugin_parts:ENC"
        assert register_reducer("lazy_plugin_parts:RED", name="lazy#k") == "lazy_plugin_parts:RED"
        register_task("lazy_plugin_parts:NO_TASK", name="lazy-task")
        register_provider("lazy_plugin_parts:NO_BACKEND", name="lazyprov")
        register_metric(ComplexityMetric("lazy_events", "lazy_plugin_parts:events", "number of events"))
        assert "lazy_plugin_parts" not in sys.modules  # nothing imported yet
        assert encode([("a", "b")], "lazy-arrows") == "a=>b" and "lazy_plugin_parts" in sys.modules
        assert parse_reducer("lazy#3").k == 3
        assert complexity([Relation("a", "b"), Relation("b", "c")]).lazy_events == 3
        # a target whose attribute is missing fails when used, naming it
        with pytest.raises(ConfigError, match="lazy_plugin_parts:NO_TASK"):
            TASKS.get("lazy-task")
        with pytest.raises(ConfigError, match="lazy_plugin_parts:NO_BACKEND"):
            PROVIDERS.get("lazyprov")
        for register in (register_encoding, register_reducer):
            with pytest.raises(ConfigError, match="needs name="):
                register("lazy_plugin_parts:ENC")
        with pytest.raises(ConfigError, match="already registered"):
            register_encoding("lazy_plugin_parts:ENC", name="lazy-arrows")
    finally:
        unregister_encoding("lazy-arrows")
        REDUCERS.unregister("lazy#k")
        TASKS.unregister("lazy-task")
        PROVIDERS.unregister("lazyprov")
        unregister_metric("lazy_events")
        monkeypatch.delitem(sys.modules, "lazy_plugin_parts", raising=False)


def test_a_plugins_wrong_value_is_refused_by_one_mechanism_naming_it_and_left_out(tmp_path, monkeypatch):
    """Registry.refuse: every kind says a wrong value the same way, cut to one short line, and leaves the plugin out."""
    group = "causalgraph.test-registry-refuse"
    write_dist(tmp_path, "wrong-plugin", "0.9", group, {"bad": "causalgraph.errors:SchemaError"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry("thing", group=group)
    assert list(reg.usable()) == ["bad"]
    error = reg.refuse("bad", "function", list(range(1000)), "a number", given=" for n=3")
    origin = f"entry point 'bad' (causalgraph.errors:SchemaError) of distribution 'wrong-plugin 0.9' in group {group!r}"
    shown = repr(list(range(1000)))[:77] + "..."
    assert str(error) == f"thing 'bad' ({origin}): its function returned {shown} (list) for n=3; expected a number"
    assert list(reg.usable()) == []
    with pytest.raises(ConfigError) as info:
        reg.get("bad")
    assert str(info.value) == str(error)
    assert [r.status for r in reg.plugins()] == ["failed"]


def test_an_encoder_that_returns_a_long_value_is_one_short_line():
    """encode() refuses a non-text value through Registry.refuse: the value is cut, not printed whole."""
    from causalgraph.encodings import Encoding, encode, register_encoding, unregister_encoding

    register_encoding(Encoding("long-list", lambda nodes, edges, signs: list(range(5000)), prefix="LL"))
    try:
        with pytest.raises(ConfigError) as info:
            encode([("a", "b")], "long-list")
    finally:
        unregister_encoding("long-list")
    msg = str(info.value)
    assert msg == ("encoding 'long-list': its encoder returned " + repr(list(range(5000)))[:77] + "... (list); "
                   "expected the graph as text (str)")


def test_call_turns_a_plugins_exception_or_exit_into_one_line_and_leaves_the_rest_alone(tmp_path, monkeypatch):
    group = "causalgraph.test-registry-call"
    write_dist(tmp_path, "calling-plugin", "0.2", group, {"plug": "causalgraph.errors:SchemaError"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry("thing", group=group)
    reg.register("own", 0)

    def exits(n):
        raise SystemExit(n)

    with pytest.raises(ConfigError, match=r"^thing 'plug' \(entry point 'plug' .*'calling-plugin 0\.2'.*\): its "
                                          r"estimator raised SystemExit: 3$"):
        reg.call("plug", "estimator", exits, 3)
    assert list(reg.usable()) == ["own"]   # failed from then on
    # causalgraph's own one-line errors pass as they are; a built-in's (or code's) bug is not hidden.
    with pytest.raises(ParseError, match="^bad text$"):
        reg.call("plug", "estimator", lambda: (_ for _ in ()).throw(ParseError("bad text")))
    with pytest.raises(SystemExit):
        reg.call("own", "estimator", exits, 4)
    with pytest.raises(ZeroDivisionError):
        reg.call("own", "estimator", lambda: 1 / 0)
