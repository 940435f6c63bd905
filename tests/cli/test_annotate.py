"""annotate, score and evaluate-annotation on the command line (mock backends)."""

from __future__ import annotations

import json

import pytest

from causalgraph.cli import main

ANSWER = json.dumps({"causal": True, "abbreviations": None, "relations": [
    {"target": "reduces", "explicitness": "E", "cause_np": "warming", "cause_context": None,
     "cause_no_quantifier": "warming", "cause_belongs_to": None, "effect_np": "less sea ice",
     "effect_context": None, "effect_no_quantifier": "sea ice", "effect_belongs_to": None,
     "combined": None, "nested": None, "relation_type": "positive", "correlation": "negative"}]})


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_annotate_text_prints_the_relations_as_json(capsys, tmp_path):
    rc, out, _ = run(capsys, "annotate", "--text", "Warming reduces sea ice.", "--model", "mock/constant",
                     "--model-option", f"text={ANSWER}", "--out", str(tmp_path / "r"), "--no-cache",
                     "--format", "json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["parse_failures"] == 0 and doc["requests_sent"] == 1
    (st,) = doc["statements"]
    assert st["statement_id"].startswith("text-") and st["annotation"]["rule"] == "json"
    assert [(r["cause"], r["effect"], r["correlation"]) for r in st["relations"]] == [("warming", "sea ice",
                                                                                       "negative")]


def test_annotate_file_split_by_lines_resumes_per_text(capsys, tmp_path):
    f = tmp_path / "drafts.txt"
    f.write_text("Warming reduces sea ice.\n\nDrought lowers yields.\n", encoding="utf-8")
    args = ["annotate", "--file", str(f), "--split", "lines", "--model", "mock/constant", "--model-option",
            f"text={ANSWER}", "--out", str(tmp_path / "r"), "--no-cache", "--format", "csv"]
    rc, out, err = run(capsys, *args)
    assert rc == 0 and len(out.strip().splitlines()) == 3 and "requests 2" in err
    f.write_text("Warming reduces sea ice.\nDrought lowers yields.\nFloods damage roads.\n", encoding="utf-8")
    rc, out, err = run(capsys, *args)
    assert rc == 0 and "requests 1" in err and "already answered 2" in err


def test_annotate_reports_an_unreadable_answer_in_the_table(capsys, tmp_path):
    rc, out, err = run(capsys, "annotate", "--text", "Warming reduces sea ice.", "--model", "mock/constant",
                       "--model-option", "text=no idea", "--out", str(tmp_path / "r"), "--no-cache")
    assert rc == 0 and "(failed)" in out and "unparsed" in out and "1 unreadable or failed" in err


def test_score_prints_complexity_and_readability_as_json(capsys, tmp_path):
    page = tmp_path / "g.html"
    rc, out, _ = run(capsys, "score", "Warming reduces sea ice.", "--model", "mock/constant", "--model-option",
                     f"text={ANSWER}", "--reference", "paper", "--format", "json", "--no-cache", "--view", str(page))
    assert rc == 0 and page.is_file()
    doc = json.loads(out)
    assert doc["complexity"]["corr"] == 1 and doc["complexity"]["c_s"] == pytest.approx(1 / 70)
    assert set(doc["readability"]) == {"fre", "fkg", "ari", "cli", "dcrs"}


def test_score_table_lists_the_metrics(capsys):
    rc, out, err = run(capsys, "score", "Warming reduces sea ice.", "--model", "mock/constant", "--model-option",
                       f"text={ANSWER}", "--reference", "paper", "--no-cache")
    assert rc == 0 and "C^corr" in out and "C(s)" in out and "FRE" in out and "against paper ranges" in err


@pytest.mark.parametrize("argv,msg", [
    (["score", "--model", "mock/constant"], "either as an argument or with --file"),
    (["score", "x", "--model", "mock/constant", "--view", "g.png"], "ending in .html"),
    (["score", "x", "--model", "nomodel"], "provider/model"),
    (["annotate", "--text", " ", "--model", "mock/constant"], "text 1 is empty"),
])
def test_cli_errors_are_one_line_with_exit_2(capsys, argv, msg):
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and msg in err and len(err.strip().splitlines()) == 1


def test_evaluate_annotation_reads_an_oracle_run(capsys, tmp_path, climatecause_path):
    out = tmp_path / "oracle"
    rc, _, _ = run(capsys, "annotate", "--data", str(climatecause_path), "--limit", "4", "--model", "mock/oracle",
                   "--out", str(out), "--no-cache")
    assert rc == 0
    rc, text, _ = run(capsys, "evaluate-annotation", str(out), "--format", "json")
    doc = json.loads(text)
    assert rc == 0 and doc["pairs"]["exact"]["f1"] == 1.0 and doc["counts"]["statements"] == 4
    rc, text, _ = run(capsys, "evaluate-annotation", str(out), "--per-statement", "--format", "csv")
    assert rc == 0 and text.splitlines()[0].startswith("statement_id,") and len(text.splitlines()) == 5


def test_evaluate_annotation_refuses_a_text_run(capsys, tmp_path):
    out = tmp_path / "text"
    run(capsys, "annotate", "--text", "Warming reduces sea ice.", "--model", "mock/constant", "--model-option",
        f"text={ANSWER}", "--out", str(out), "--no-cache")
    rc, _, err = run(capsys, "evaluate-annotation", str(out))
    assert rc == 2 and "no gold annotation" in err


def test_annotate_asks_once_for_a_text_given_twice(capsys, tmp_path):
    rc, out, err = run(capsys, "annotate", "--text", "Warming reduces sea ice.", "--text", "Warming  reduces sea ice.",
                       "--model", "mock/constant", "--model-option", f"text={ANSWER}", "--out", str(tmp_path / "r"),
                       "--no-cache", "--format", "csv")
    assert rc == 0 and "requests 1" in err and len(out.strip().splitlines()) == 2


def test_annotate_temperature_default_sends_none(capsys, tmp_path):
    out = tmp_path / "r"
    rc, _, _ = run(capsys, "annotate", "--text", "Warming reduces sea ice.", "--model", "mock/constant",
                   "--model-option", f"text={ANSWER}", "--out", str(out), "--no-cache", "--temperature", "default")
    manifest = json.loads((out / "manifest.json").read_text())
    assert rc == 0 and manifest["parameters"]["temperature"] is None
    with pytest.raises(SystemExit) as exc:  # argparse's own usage error
        main(["annotate", "--text", "x", "--model", "mock/constant", "--temperature", "warm"])
    assert exc.value.code == 2 and "expected a number or 'default'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["score", "annotate"])
def test_file_that_is_not_utf8_is_one_line_naming_the_byte(capsys, tmp_path, command):
    f = tmp_path / "latin1.txt"
    f.write_bytes("café warming".encode("latin-1"))
    rc, _, err = run(capsys, command, "--file", str(f), "--model", "mock/constant")
    assert rc == 2 and f"--file {f}: not UTF-8 text (byte 3)" in err and len(err.strip().splitlines()) == 1


def test_score_says_where_to_find_an_unreadable_answer(capsys):
    rc, _, err = run(capsys, "score", "Warming reduces sea ice.", "--model", "mock/constant", "--model-option",
                     "text=I cannot help.", "--reference", "paper", "--no-cache")
    assert rc == 2 and "rule unparsed" in err and "nothing to score" in err and "responses.jsonl" in err


@pytest.mark.parametrize("command", ["score", "annotate"])
def test_file_that_is_a_folder_is_one_line_naming_it(capsys, tmp_path, command):
    # Was an IsADirectoryError traceback (issue #13).
    rc, out, err = run(capsys, command, "--file", str(tmp_path), "--model", "mock/constant")
    assert rc == 2 and out == ""
    assert err.strip() == f"causalgraph {command}: error: --file {tmp_path}: a folder; expected a UTF-8 text file"


def test_score_refuses_a_negative_weight_before_asking_the_model(capsys, tmp_path):
    # A model nothing listens for: asked first, it would fail with a connection error instead.
    rc, out, err = run(capsys, "score", "Warming reduces sea ice.", "--model", "openai/none", "--model-option",
                       "base_url=http://127.0.0.1:9/v1", "--reference", "paper", "--no-cache", "--weights",
                       "1,1,1,1,-0.5", "--view", str(tmp_path / "page.html"))
    assert rc == 2 and out == ""
    assert err == "causalgraph score: error: weight for pol is -0.5; expected a number >= 0 (0 leaves the metric out)\n"
    assert not (tmp_path / "page.html").exists()
