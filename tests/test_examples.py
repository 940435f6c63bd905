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
