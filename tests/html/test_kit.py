"""The HTML kit every page is built from (causalgraph/html/kit.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.errors import ConfigError
from causalgraph.html.kit import require, script_json


@settings(max_examples=200)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20))
def test_script_json_never_holds_a_character_that_could_end_the_script_block(value):
    text = script_json(value)
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == value


def test_script_json_writes_keys_sorted_so_pages_do_not_depend_on_dict_order():
    assert script_json({"b": 1, "a": [2, {"d": 3, "c": 4}]}) == '{"a": [2, {"c": 4, "d": 3}], "b": 1}'


def test_require_names_the_missing_package_and_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyvis", None)
    with pytest.raises(ConfigError, match=r"^pyvis is needed for graph pages .* pip install 'causalgraph\[viz\]'$"):
        require("pyvis")
    assert require("json") is json


def test_content_security_policy_hashes_each_inline_script_once():
    import base64
    import hashlib

    from causalgraph.html.kit import content_security_policy

    body = "console.log('<x>')"
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert content_security_policy([body, body]) == (f"default-src 'none'; script-src 'sha256-{digest}'; "
                                                     "style-src 'unsafe-inline'; img-src data:")
    assert content_security_policy([], local_files=True) == ("default-src 'none'; script-src 'self'; "
                                                             "style-src 'self' 'unsafe-inline'; img-src data:")


def test_write_vis_assets_writes_the_library_once(tmp_path):
    from causalgraph.html.kit import ASSET_FILES, vis_assets, write_vis_assets

    paths = write_vis_assets(tmp_path / "assets")
    assert {k: p.name for k, p in paths.items()} == ASSET_FILES
    assert (paths["js"].read_text(encoding="utf-8"), paths["css"].read_text(encoding="utf-8")) == vis_assets()
