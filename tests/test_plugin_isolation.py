"""A plugin can only break itself (issue 35, item 1): every registry group × five ways to be broken, through the CLI.

Each cell installs one broken distribution in a folder of its own (its module and a ``*.dist-info``
folder with ``entry_points.txt``, what ``pip install`` leaves in site-packages) and runs the
command line in a fresh process with that folder on ``PYTHONPATH``.  With the broken plugin there:

* ``--help``, ``--version``, ``info``, ``complexity``, ``encode``, ``bench run --help``,
  ``bench tasks`` and ``bench report --reducer`` exit 0 and print, byte for byte, what they print
  with no plugin installed (a collision is a note on stderr naming the distribution, once);
* asking for the plugin by name is one line on stderr, exit 2, naming its distribution (a
  collision: the built-in answers, as without the plugin);
* ``causalgraph plugins`` lists it with its distribution, version, group and status.

The five ways: the module is missing, its import raises, the value is of the wrong type, the name
is a built-in's, and the value gives a wrong result when used (a metric returning ``"seven"``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

#: group -> (entry-point group, the plugin's own name, a built-in name of the group)
GROUPS = {
    "tasks": ("causalgraph.tasks", "bad-task", "corri"),
    "providers": ("causalgraph.backends", "badprov", "mock"),
    "encodings": ("causalgraph.encodings", "bad-encoding", "adjacency"),
    "metrics": ("causalgraph.metrics", "bad_metric", "com"),
    "reducers": ("causalgraph.reducers", "bad~k", "mean"),
    "formats": ("causalgraph.formats", "bad-format", "graphml"),
    "scoring metrics": ("causalgraph.scoring_metrics", "bad_scoring", "mcc"),
}
KINDS = ("missing module", "raises at import", "wrong type", "name collision", "bad return value")

#: The plugin module every cell installs (the values its entry points name).
PLUGIN_MODULE = textwrap.dedent('''
    from causalgraph.bench.epochs import ReducerKind
    from causalgraph.encodings import Encoding
    from causalgraph.metrics.complexity import ComplexityMetric
    from causalgraph.readwrite import GraphFormat
    from causalgraph.scoring.scoring_metrics import ScoringMetric
    from causalgraph.tasks import Binary, Task

    WRONG = 42   # no group holds an int

    # Valid values named like a built-in: were one of them used, the outputs would change.
    CORRI = Task(name="corri", answers=Binary(labels=("yes", "no"), positive="yes"), build_items=lambda corpus, variant: [],
                 list_variants=lambda: ["v_1"], default_data="sample")

    def MOCK(model, **options):
        raise AssertionError("the plugin's mock was used instead of the built-in")

    ADJACENCY = Encoding("adjacency", lambda nodes, edges, signs: "PLUGIN ADJACENCY", prefix="PZ")
    COM = ComplexityMetric("com", lambda graph, options: 99, "not the paper's C^com", "C^com")
    MEAN = ReducerKind("mean", "not the built-in mean")
    GRAPHML = GraphFormat("graphml", ".graphml", lambda graph: "PLUGIN GRAPHML", None)
    MCC = ScoringMetric("mcc", lambda matrix, labels, positive: 0.999, "not the built-in mcc",
                        kinds=("binary", "multiclass"), bounds=(-1.0, 1.0))

    # Values that load and then answer wrongly.
    BAD_TASK = Task(name="bad-task", answers=Binary(labels=("yes", "no"), positive="yes"), default_data="sample",
                    build_items=lambda corpus, variant, **options: "seven", list_variants=lambda: "seven")

    def bad_provider(model, **options):
        return "seven"

    BAD_ENCODING = Encoding("bad-encoding", lambda nodes, edges, signs: 7, prefix="BE")

    def bad_metric(graph, options):
        """A metric that is not a number."""
        return "seven"

    BAD_REDUCER = ReducerKind("bad~k", "a chance that is text", lambda n, c, k: "seven")

    BAD_FORMAT = GraphFormat("bad-format", ".bad", lambda graph: 7, None)

    BAD_SCORING = ScoringMetric("bad_scoring", lambda matrix, labels, positive: "seven", "a score that is text")
''')

BAD_VALUES = {"tasks": "BAD_TASK", "providers": "bad_provider", "encodings": "BAD_ENCODING", "metrics": "bad_metric",
              "reducers": "BAD_REDUCER", "formats": "BAD_FORMAT", "scoring metrics": "BAD_SCORING"}
COLLIDING = {"tasks": "CORRI", "providers": "MOCK", "encodings": "ADJACENCY", "metrics": "COM", "reducers": "MEAN",
             "formats": "GRAPHML", "scoring metrics": "MCC"}

#: Runs main() on each argv of a JSON list, in one process, and prints every (rc, stdout, stderr).
DRIVER = textwrap.dedent('''
    import contextlib, io, json, sys
    from causalgraph.cli import main
    out = []
    for argv in json.loads(sys.argv[1]):
        o, e = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
            try:
                rc = main(argv)
            except SystemExit as exc:
                rc = exc.code
        out.append([rc, o.getvalue(), e.getvalue()])
    sys.__stdout__.write(json.dumps(out))
''')


def write_dist(folder: Path, name: str, group: str, entry: str, target: str) -> None:
    info = folder / f"{name.replace('-', '_')}-1.5.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.5\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{group}]\n{entry} = {target}\n", encoding="utf-8")


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return {**os.environ, "PYTHONPATH": str(ROOT), "CAUSALGRAPH_CACHE": str(cache), "CAUSALGRAPH_OFFLINE": "1",
            "PYTHONHASHSEED": "0"}


def drive(env: dict, commands: list[list[str]], extra: Path | None = None) -> list[tuple[int, str, str]]:
    e = dict(env)
    if extra is not None:
        e["PYTHONPATH"] = os.pathsep.join([e["PYTHONPATH"], str(extra)])
    p = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], capture_output=True, text=True,
                       env=e, timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return [tuple(r) for r in json.loads(p.stdout)]


@pytest.fixture(scope="module")
def epochs_run(env, tmp_path_factory) -> Path:
    """A small run with two epochs per item, for ``bench report --reducer``."""
    run = tmp_path_factory.mktemp("runs") / "noisy"
    [(rc, out, err)] = drive(env, [["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/noisy",
                                    "--temperature", "1", "--epochs", "2", "--limit", "3", "--out", str(run),
                                    "--no-progress"]])
    assert rc == 0, err
    return run


def common(run: Path) -> list[list[str]]:
    """The built-in commands that must answer the same whatever plugin is installed."""
    return [["--help"], ["--version"], ["info"], ["complexity", "--format", "csv"],
            ["complexity", "--summary", "--format", "json"], ["encode", "--statement", "cc-007"],
            ["encode", "--help"], ["items", "--help"], ["bench", "run", "--help"], ["bench", "tasks", "--format", "csv"],
            ["bench", "report", str(run), "--reducer", "pass@2", "--format", "csv"],
            ["bench", "report", str(run), "--reducer", "mean", "--format", "csv"],
            ["bench", "report", str(run), "--scoring-metric", "mcc", "--format", "csv"],
            ["items", "--task", "corri", "--variant", "0_1", "--limit", "2", "--format", "json"]]


@pytest.fixture(scope="module")
def baseline(env, epochs_run):
    """What the common commands print with no plugin installed."""
    results = drive(env, common(epochs_run))
    for argv, (rc, out, err) in zip(common(epochs_run), results):
        assert rc == 0 and "Traceback" not in err, (argv, err)
    return results


def by_name(group: str, name: str, tmp: Path, run: Path) -> list[str]:
    """The command that asks for the plugin ``name`` of ``group``."""
    k = name[:-1] + "2" if name.endswith("~k") else name
    return {"tasks": ["items", "--task", name, "--variant", "v_1"],
            "providers": ["bench", "run", "--task", "corri", "--variant", "0_1", "--model", f"{name}/x", "--limit",
                          "2", "--out", str(tmp / "run"), "--no-progress"],
            "encodings": ["encode", "--statement", "cc-007", "--encoding", name],
            "metrics": ["complexity", "--metrics", f"com,ex,nest,corr,pol,{name}", "--format", "csv"],
            "reducers": ["bench", "report", str(run), "--reducer", k, "--format", "csv"],
            "formats": ["export-graphs", str(tmp / "graphs"), "--format", name, "--statement", "cc-007"],
            "scoring metrics": ["bench", "report", str(run), "--scoring-metric", name, "--format", "csv"]}[group]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("group", list(GROUPS))
def test_a_broken_plugin_breaks_only_itself(group, kind, env, baseline, epochs_run, tmp_path):
    ep_group, own, builtin = GROUPS[group]
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "cg_iso_plugin.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    (folder / "cg_iso_raises.py").write_text("raise RuntimeError('the plugin exploded at import')\n",
                                             encoding="utf-8")
    dist = f"broken-{group}-{kind.replace(' ', '-')}"
    name = builtin if kind == "name collision" else own
    target = {"missing module": "cg_iso_no_such_module:X", "raises at import": "cg_iso_raises:X",
              "wrong type": "cg_iso_plugin:WRONG", "name collision": f"cg_iso_plugin:{COLLIDING[group]}",
              "bad return value": f"cg_iso_plugin:{BAD_VALUES[group]}"}[kind]
    write_dist(folder, dist, ep_group, name, target)

    asking = by_name(group, name, tmp_path, epochs_run)
    if kind == "name collision":
        # The built-in name asked for: the built-in answers, as the baseline printed it.
        asking, same_as = {"tasks": (common(epochs_run)[-1], -1),
                           "providers": (["bench", "run", "--task", "corri", "--variant", "0_1", "--model",
                                          "mock/oracle", "--limit", "2", "--out", str(tmp_path / "run"),
                                          "--no-progress"], None),
                           "encodings": (["encode", "--statement", "cc-007", "--encoding", "adjacency"], 5),
                           "metrics": (["complexity", "--metrics", "com,ex,nest,corr,pol", "--format", "csv"], 3),
                           "reducers": (common(epochs_run)[-3], -3),
                           "formats": (["export-graphs", str(tmp_path / "graphs"), "--format", "graphml", "--statement",
                                        "cc-007"], None),
                           "scoring metrics": (common(epochs_run)[-2], -2)}[group]
    commands = [["plugins", "--format", "json"], *common(epochs_run), asking]
    results = drive(env, commands, folder)
    listed, *rest, asked = results

    # `causalgraph plugins` lists it: distribution, version, group, name and status.
    rc, out, err = listed
    assert rc == 0, err
    [row] = json.loads(out)
    assert (row["distribution"], row["version"], row["group"], row["name"], row["target"]) == \
        (dist, "1.5", ep_group, name, target)
    expected_status = {"missing module": "failed", "raises at import": "failed", "wrong type": "failed",
                       "name collision": "shadowed"}.get(kind)
    if expected_status is not None:
        assert row["status"] == expected_status, row
    else:
        assert row["status"] in ("ok", "failed"), row
    detail = {"missing module": "ModuleNotFoundError", "raises at import": "the plugin exploded at import",
              "wrong type": "int", "name collision": "causalgraph's own"}.get(kind)
    if detail:
        assert detail in row["detail"], row

    # The built-in commands answer as without the plugin, byte for byte, with no traceback.
    for argv, (rc, out, err), (rc0, out0, err0) in zip(common(epochs_run), rest, baseline):
        assert rc == rc0 == 0, (argv, err)
        assert out == out0, argv
        assert "Traceback" not in err, (argv, err)
        # Anything more on stderr is a note about this plugin, never a second error.
        extra = [line for line in err.splitlines() if line not in err0.splitlines()]
        assert all(dist in line and "note" in line for line in extra), (argv, extra)
    notes = sum(err.count(f"'{dist} 1.5'") for _, _, err in [listed, *rest, asked])
    if kind == "name collision":
        assert notes == 1  # said once, whatever the commands that read the group

    # Asked for by name: one line naming the distribution (a collision: the built-in answers).
    rc, out, err = asked
    assert "Traceback" not in err
    if kind == "name collision":
        assert rc == 0, err
        if same_as is not None:
            assert out == baseline[same_as][1]
        if group == "formats":  # the built-in GraphML was written, not the plugin's text
            written = (tmp_path / "graphs" / "cc-007.graphml").read_text(encoding="utf-8")
            assert written.startswith("<graphml xmlns=") and "PLUGIN" not in written
        return
    assert rc == 2 and out == "" and err.count("\n") == 1, (rc, out, err)
    assert f"'{dist} 1.5'" in err and repr(name) in err, err
    if kind == "bad return value":
        assert "returned" in err and ("'seven'" in err or " 7 " in err), err
