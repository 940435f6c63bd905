"""The README's library tour runs as written, and its comments tell the truth."""

from __future__ import annotations

import math
import re

from conftest import ROOT


def test_readme_tour_runs_and_its_commented_values_hold(tmp_path, monkeypatch, climatecause):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(compile(code, "README.md", "exec"), ns)
    c = ns["cg"].complexity(ns["corpus"]["cc-046"])
    # cc-046 by hand: eight nesting events with one relation each (1 + 1 ln 1 = 1 each), one with 2, one with 4
    assert (c.com, c.ex, c.corr, c.pol) == (0, 7, 0, 0)
    assert math.isclose(c.nest, 8 + 2 + 2 * math.log(2) + 4 + 4 * math.log(4))
    assert len(ns["items"]) == 512
    assert ns["cg"].load_run("runs/demo").metrics.variants["0_1"]["f1"] == 1.0
    assert ns["report"].metric("token")["f1"] == 1.0 and ns["report"].metric("exact")["f1"] == 1.0
    assert ns["cg"].encode(ns["graph"], "adjacency").startswith("(weather extreme events, acute food insecurity) (")
    assert (tmp_path / "cc-047.html").is_file()
