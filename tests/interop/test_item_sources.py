"""Items built from statements sampled with ``--sources`` show those sources in ``export-dataset``'s column."""

from __future__ import annotations

import io
import json
from collections import defaultdict

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from causenet_files import relation, write  # noqa: E402

from causalgraph.cli import main  # noqa: E402
from causalgraph.datasets import load_corpus  # noqa: E402
from causalgraph.interop.export import ITEM_COLUMNS, write_items_parquet  # noqa: E402
from causalgraph.taskkit.item import Item  # noqa: E402
from causalgraph.tasks import get_task  # noqa: E402

LINES = [relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smoking causes lung cancer."),
                                             ("clueweb12_sentence", "Cigarettes cause cancer of the lung.")]),
         relation("lung_cancer", "death", [("wikipedia_sentence", "Lung cancer often leads to death.")]),
         relation("smoking", "lung_cancer", [("wikipedia_infobox", None)]),
         relation("smoking", "death", [("clueweb12_sentence", "Smoking kills.")])]


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))


def _scan(lines) -> dict:
    """Every edge's sources as a full read of the lines finds them: (line, type, sentence)."""
    out = defaultdict(list)
    for n, obj in enumerate(lines, start=1):
        cr = obj["causal_relation"]
        key = (cr["cause"]["concept"].replace("_", " "), cr["effect"]["concept"].replace("_", " "))
        for s in obj.get("sources", []):
            sent = s["payload"].get("sentence")
            out[key].append((n, s["type"], sent["surface"] if sent else None))
    return out


def test_export_sources_column_holds_each_edges_sources_cell_by_cell(tmp_path, capsys):
    f = write(tmp_path / "c.jsonl.bz2", LINES, "bz2")
    out = tmp_path / "s.jsonl"
    assert main(["sample-subgraphs", "--data", f"causenet:{f}", "--around", "smoking", "--hops", "2",
                 "--sources", "--max-sources", "2", "-o", str(out)]) == 0
    capsys.readouterr()
    corpus = load_corpus(str(out))
    items = get_task("parents").build_items(corpus, "A_1")
    assert items
    plain = Item("x/1", "parents", "A_1", "Which?", None, {"statement_id": "s0"})  # no sources in its meta
    buf = io.BytesIO()
    write_items_parquet([*items, plain], buf)
    table = pq.read_table(io.BytesIO(buf.getvalue()))
    assert table.column_names == list(ITEM_COLUMNS) and table.schema.field("sources").type == pa.string()
    rows = table.to_pylist()
    scan = _scan(LINES)
    for row in rows[:-1]:
        cells = json.loads(row["sources"])
        assert {(c["cause"], c["effect"]) for c in cells} == {("smoking", "lung cancer"), ("lung cancer", "death"),
                                                              ("smoking", "death")}
        for c in cells:
            exp = scan[(c["cause"], c["effect"])]
            assert c["sources_total"] == len(exp)
            assert [(s["line"], s["type"], s["sentence"]) for s in c["sources_shown"]] == exp[:2]
    assert rows[-1]["sources"] is None
