"""causalgraph.extend: the one import of an extension author, and the one rule of its register functions."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import causalgraph.extend as extend
from causalgraph.errors import ConfigError
from causalgraph.llm.registry import PROVIDERS, get_backend
from causalgraph.metrics.complexity import complexity, unregister_metric
from causalgraph.model import Relation

REPO = Path(__file__).resolve().parents[1]
REGISTER = ["register_task", "register_provider", "register_encoding", "register_metric", "register_reducer",
            "register_format"]


def test_every_record_and_register_function_a_plugin_needs_is_exported():
    records = {"Task", "Item", "ItemView", "Backend", "Request", "Completion", "Encoding", "ComplexityMetric",
               "MetricOptions", "ReducerKind", "GraphFormat", "Binary", "Multiclass", "EventSet", "Pairs", "Custom",
               "Signs", "GraphFirst", "RunRecord"}
    assert records | set(REGISTER) <= set(extend.__all__)
    # each the object of its home, not a copy: a plugin built from extend registers where causalgraph looks
    from causalgraph.bench.epochs import ReducerKind
    from causalgraph.encodings import register_encoding
    from causalgraph.llm.base import Backend
    from causalgraph.metrics.complexity import ComplexityMetric
    from causalgraph.readwrite import GraphFormat, register_format
    from causalgraph.tasks import Task, kinds, register_task
    assert (extend.ReducerKind, extend.register_encoding, extend.Backend, extend.ComplexityMetric, extend.GraphFormat,
            extend.register_format, extend.Task, extend.register_task) == (
        ReducerKind, register_encoding, Backend, ComplexityMetric, GraphFormat, register_format, Task, register_task)
    for name in ("Binary", "Multiclass", "EventSet", "Pairs", "Custom", "Signs", "GraphFirst", "ItemView"):
        assert getattr(extend, name) is getattr(kinds, name)


@pytest.mark.parametrize("name", REGISTER)
def test_every_register_function_takes_the_record_first_and_replace_and_name_by_keyword(name):
    params = list(inspect.signature(getattr(extend, name)).parameters.values())
    assert params[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert [p.name for p in params[1:]] == ["replace", "name"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])
    assert params[1].default is False and params[2].default is None


def test_the_example_plugin_and_metric_import_causalgraph_only_through_extend():
    for path in (REPO / "examples" / "plugin" / "causalgraph_plugin_demo.py", REPO / "examples" / "custom_metric.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = [(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                   and n.module.startswith("causalgraph") for a in n.names]
        mine = [(module, name) for module, name in imports if name in extend.__all__]
        assert mine and {module for module, _ in mine} == {"causalgraph.extend"}, path.name


def test_a_metric_record_registers_under_its_own_name_with_the_default_symbol():
    metric = extend.register_metric(extend.ComplexityMetric("edges_x", lambda g, o: len(g.edges), "edges"))
    try:
        assert metric.symbol == "C^edges_x"
        assert complexity([Relation("a", "b"), Relation("b", "c")]).edges_x == 2
        with pytest.raises(ConfigError, match="already registered"):
            extend.register_metric(extend.ComplexityMetric("edges_x", lambda g, o: 0, "again"))
        with pytest.raises(ConfigError, match="differs from the complexitymetric's own name"):
            extend.register_metric(extend.ComplexityMetric("edges_y", lambda g, o: 0, "y"), name="other")
    finally:
        unregister_metric("edges_x")


def test_a_backend_class_registers_under_its_provider_and_a_factory_needs_a_name():
    class Echo(extend.Backend):
        provider = "echo-extend"

        async def complete(self, request):
            return extend.Completion(text=request.prompt)

    try:
        assert extend.register_provider(Echo) is Echo
        assert isinstance(get_backend("echo-extend/any"), Echo)
        with pytest.raises(ConfigError, match="needs name="):
            extend.register_provider(lambda model, **options: Echo(model))
        with pytest.raises(ConfigError, match="already registered"):
            extend.register_provider(Echo)
    finally:
        PROVIDERS.unregister("echo-extend")


def test_the_readme_extending_section_runs():
    text = (REPO / "README.md").read_text(encoding="utf-8").split("## Extending causalgraph", 1)[1]
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    try:
        assert complexity([Relation("a", "b"), Relation("b", "c")]).events == 3
    finally:
        unregister_metric("events")
