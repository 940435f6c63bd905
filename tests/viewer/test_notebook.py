"""examples/viewer.ipynb runs headless (nbclient) and its graph, run and extraction outputs are working pages."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "viewer.ipynb"


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    cwd = tmp_path_factory.mktemp("notebook")
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


def _outputs(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def _iframes(nb) -> list[str]:
    return [o["data"]["text/html"] for o in _outputs(nb) if o.get("output_type") == "execute_result"
            and "text/html" in o.get("data", {})]


def test_notebook_runs_and_prints_the_scores(executed):
    text = "".join(o.get("text", "") for o in _outputs(executed) if o.get("output_type") == "stream")
    assert "16 items, F1 of 0_1: 1.0" in text
    # Row 1: S = (1 + 2/3) / 2 for Smoking → cancer; row 2: the reversed pair scores 0; paper precision = recall.
    assert f"token pair F1 {round(((1 + 2 / 3) / 2) / 2, 4)}" in text
    assert not [o for o in _outputs(executed) if o.get("output_type") == "error"]


def test_notebook_outputs_are_sandboxed_iframes_holding_offline_pages(executed):
    frames = _iframes(executed)
    assert len(frames) == 3  # the graph, the run, the extraction report
    for f in frames:
        assert f.startswith('<iframe sandbox="allow-scripts" ')
        page = html.unescape(re.search(r'srcdoc="(.*)"></iframe>$', f, re.S).group(1))
        assert page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
        assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)\s*=\s*[\"']?(https?:|//)", page, re.I)


@pytest.mark.browser
def test_notebook_run_output_works_inside_its_iframe(executed, tmp_path):
    from chromium import Chromium, find_binaries

    browser, driver = find_binaries()
    if not (browser and driver):
        pytest.skip("needs chromium and chromium-driver")
    frames = _iframes(executed)
    wrapper = tmp_path / "notebook.html"
    wrapper.write_text("<!DOCTYPE html><html><body>" + "".join(frames)
                       + "<script>document.body.setAttribute('data-ready', '1')</script></body></html>", encoding="utf-8")
    b = Chromium(tmp_path / "profile")
    try:
        load = b.open(wrapper, ready="data-ready")
        b.driver.switch_to.frame(b.driver.find_elements("tag name", "iframe")[1])
        deadline = time.monotonic() + 30
        while not b.js("return document.body && document.body.getAttribute('data-ready')"):
            assert time.monotonic() < deadline, "the run page in the iframe did not start"
            time.sleep(0.05)
        assert b.js("return window.cgRunView.visibleCount()") == 16
        b.driver.switch_to.default_content()
        after = b.collect(load.url)
        assert load.errors + after.errors == []
        assert [u for u in load.requests + after.requests if not u.startswith(("file:", "about:", "data:"))] == []
    finally:
        b.quit()
