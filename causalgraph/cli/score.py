"""``causalgraph score``: causal complexity C(s) and classic readability of any text, annotated by a model."""

from __future__ import annotations

import sys

from ..errors import ConfigError, ParseError
from ._common import add_format_option, emit_json, emit_table, model_options
from .annotate import add_model_options, read_text_file, run_options
from ..apps.text_score import score_text

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "score", help="score any text: C^com … C^pol and C(s) from a model's annotation, plus readability",
        description="Annotate a text with a model, then compute the five causal complexity metrics, C(s) "
                    "normalised against the ClimateCause ranges (min-max over its 75 statements; values beyond "
                    "the range are not clipped) and the classic readability formulas. --view writes the "
                    "statement's graph page.")
    p.add_argument("text", nargs="?", default=None, help="the text to score (or --file)")
    p.add_argument("--file", metavar="FILE", default=None, help="read the text from a UTF-8 file ('-' for stdin)")
    add_model_options(p)
    p.add_argument("--reference", metavar="climatecause|paper|NAME|PATH", default="climatecause",
                   help="ranges C(s) is normalised with: climatecause (default, computed from the corpus), paper "
                        "(the ranges printed in the paper), or another annotated corpus")
    p.add_argument("--weights", metavar="W1,…,W5", default=None, help="weights of eq. 7 (default: 1,1,1,1,1)")
    p.add_argument("--view", metavar="FILE.html", default=None, help="also write the graph page to this file")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if (args.text is None) == (args.file is None):
        raise ConfigError("give the text to score either as an argument or with --file (one of them)")
    text = read_text_file(args.file) if args.file is not None else args.text
    if not text.strip():
        raise ConfigError("the text to score is empty")
    try:
        res = score_text(text.strip(), args.model, reference=args.reference, weights=args.weights, view=args.view,
                         variant=args.variant, shots=args.shots,
                         model_options=model_options(args),
                         structured=not args.no_structured, **run_options(args))
    except ParseError as exc:
        raise ParseError(f"{exc}; nothing to score. `causalgraph annotate --text … --out DIR` with the same options "
                         "keeps the raw answer in DIR/responses.jsonl") from exc
    if args.format == "json":
        emit_json(res.to_dict())
    else:
        emit_table(res.rows(), args.format, columns=["metric", "value", "normalised", "reference_min",
                                                     "reference_max"])
        if args.format == "table":
            beyond = res.complexity["beyond_range"]
            note = f"; beyond the reference range: {', '.join(beyond)}" if beyond else ""
            print(f"C(s) = {res.c_s:.4f} against {res.complexity['reference']['name']} ranges{note}", file=sys.stderr)
            if args.view:
                print(f"graph page: {args.view}", file=sys.stderr)
    return 0
