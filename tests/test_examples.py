"""Every script in examples/ runs to completion, so the README's promise of a runnable example per job holds."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def test_there_is_an_example_for_every_job():
    names = {p.stem for p in EXAMPLES}
    for job in ("load_and_compile", "complexity_scores", "readability_scores", "chain_labels", "encode_graph",
                "build_items", "run_benchmark_mock", "statistical_tests", "pubmedcausal_extract",
                "pubmedcausal_evaluate", "view_statement", "corpus_report", "score_text", "own_relations",
                "graph_files", "export_graphs", "compare_graphs", "identification_tasks", "plugin_status", "custom_metric",
                "sign_tasks", "align_graphs"):
        assert job in names


@pytest.mark.slow
@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script, tmp_path):
    env = dict(os.environ, CAUSALGRAPH_CACHE=str(tmp_path / "cache"), MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, f"{script.name} failed:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    assert r.stdout.strip(), f"{script.name} printed nothing"


def _never_returns(fn) -> bool:
    """A function annotated ``-> NoReturn`` or whose last statement is ``sys.exit(...)`` or a ``raise``."""
    import ast

    if isinstance(fn.returns, ast.Name) and fn.returns.id == "NoReturn":
        return True
    last = fn.body[-1]
    return isinstance(last, ast.Raise) or (
        isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
        and ast.unparse(last.value.func) in ("sys.exit", "exit", "os._exit"))


def test_no_example_has_code_after_a_call_that_never_returns():
    import ast

    found = []
    for script in EXAMPLES:
        tree = ast.parse(script.read_text(encoding="utf-8"))
        stops = {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and _never_returns(f)}
        for node in ast.walk(tree):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if not isinstance(block, list):
                    continue
                for stmt, after in zip(block, block[1:]):
                    call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
                    if call is not None and isinstance(call.func, ast.Name) and call.func.id in stops:
                        found.append(f"{script.name}:{after.lineno}: {ast.unparse(after)[:60]} follows "
                                     f"{call.func.id}(), which never returns")
    assert not found, found
