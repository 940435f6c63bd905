"""Which plugins are installed, and what a broken one does: `causalgraph plugins`.

Installs, in a temporary folder, the example plugin (examples/plugin: a task, a backend, an encoding
and a metric) and a broken one (its encoding's module is missing; its task claims the built-in name
`corri`), as `pip install` would leave them in site-packages, then runs the command line with that
folder on PYTHONPATH:

* `causalgraph plugins` lists every extension, its distribution, version, group and status;
* `causalgraph complexity` still answers: the example's metric is an extra column `c_events`, and
  C(s) stays the paper's five (the c_metrics column says so);
* asking for the broken encoding by name is one line on stderr naming its distribution.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/plugin_status.py
"""

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "plugin"


def install(site: Path, name: str, version: str, entry_points: dict) -> None:
    """What pip leaves in site-packages for a distribution: a ``*.dist-info`` folder with its entry points."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    text = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
                   for group, eps in entry_points.items())
    (info / "entry_points.txt").write_text(text, encoding="utf-8")


def causalgraph(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]), CAUSALGRAPH_OFFLINE="1")
    return subprocess.run([sys.executable, "-m", "causalgraph", *args], capture_output=True, text=True, env=env)


with tempfile.TemporaryDirectory() as tmp:
    site = Path(tmp)
    shutil.copy(EXAMPLE / "causalgraph_plugin_demo.py", site)
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    install(site, project["name"], project["version"], project["entry-points"])
    install(site, "broken-demo", "0.2", {"causalgraph.encodings": {"broken-arrows": "no_such_module:ENCODING"},
                                         "causalgraph.tasks": {"corri": "causalgraph_plugin_demo:TASK"}})

    listed = causalgraph(site, "plugins")
    print(listed.stdout)

    scores = causalgraph(site, "complexity", "--format", "csv")
    header, first = scores.stdout.splitlines()[:2]
    print(header)
    print(first[:60] + " ...")
    print("notes:", scores.stderr.strip() or "none")

    asked = causalgraph(site, "encode", "--statement", "cc-007", "--encoding", "broken-arrows")
    print(f"\nencode --encoding broken-arrows: exit {asked.returncode}")
    print(asked.stderr.strip())
