"""The sign items' features (hops, negative edges, paths, conflicting paths) reach stats difficulty."""

from __future__ import annotations

import networkx as nx
import pytest

from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.model import Polarity
from causalgraph.stats.difficulty import _statement_features, difficulty_frame, difficulty_runs


@pytest.fixture(scope="module")
def flipped_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "net-effect"
    assert main(["bench", "run", "--task", "net-effect", "--variant", "A_1.flip-signs", "--model", "mock/noisy",
                 "--temperature", "1", "--out", str(out)]) == 0
    return out


def test_the_frame_holds_each_items_features_as_networkx_finds_them(flipped_run, climatecause):
    frame = difficulty_frame(flipped_run, _statement_features(climatecause))
    assert len(frame) == 670 and frame["conflicting"].sum() == 16  # flipping every sign makes 16 pairs mixed
    for row in frame.head(120).itertuples():
        stmt = climatecause[row.statement_id]
        nodes = list(dict.fromkeys(e for r in stmt.relations for e in (r.cause, r.effect)))
        i, j = (int(x[1:]) for x in row.item_id.rsplit("/", 1)[1].split("-"))
        G = nx.DiGraph([(r.cause, r.effect) for r in stmt.relations if r.polarity is Polarity.POSITIVE])
        paths = list(nx.all_simple_paths(G, nodes[i], nodes[j]))
        assert row.hops == min(map(len, paths)) - 1 and row.n_paths == len(paths)


def test_difficulty_fits_them(flipped_run):
    fits = difficulty_runs([flipped_run], ["hops", "negative_edges", "n_paths", "conflicting"])
    assert [r["feature"] for r in fits[0].rows] == ["hops", "negative_edges", "n_paths", "conflicting"]
    assert all(r["ci_low"] < r["odds_ratio"] < r["ci_high"] for r in fits[0].rows)


def test_items_without_the_feature_are_named(tmp_path):
    out = tmp_path / "ccr"
    assert main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle",
                 "--out", str(out)]) == 0
    with pytest.raises(ConfigError, match="feature 'hops' has no value for 512 items"):
        difficulty_runs([out], ["hops"])
