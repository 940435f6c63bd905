"""``causalgraph annotate``: annotate text (or a corpus) into ClimateCause-style relations on the runner."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ..errors import ConfigError
from ..llm.registry import model_forms
from .._core.wording import plural
from ._common import add_list_option, add_model_args, emit_json, emit_table, model_options
from ..apps.annotator import annotate_corpus, annotate_texts, statements_from_run
from ..bench.config import default_run_dir
from ..datasets import load_corpus

__all__ = ["register", "add_model_options", "read_text_file", "read_texts"]

RELATION_COLUMNS = ["statement_id", "cause", "effect", "correlation", "polarity", "explicitness", "trigger",
                    "cause_belongs_to", "effect_belongs_to", "combined", "nested", "rule"]


def add_model_options(p) -> None:
    """Options shared by ``annotate`` and ``score``: model, prompt variant, generation, backend options."""
    add_model_args(p, model_help="backend and model: " + ", ".join(model_forms())
                                 + " (llamacpp/smollm2 names the bundled SmolLM2-135M)",
                   option_help="backend option (e.g. n_ctx=8192, base_url=http://127.0.0.1:8000/v1)",
                   max_tokens_help="completion tokens at most (default: 4096)")
    p.add_argument("--variant", choices=["few-shot", "zero-shot"], default="few-shot",
                   help="few-shot: guidelines and the paper's worked examples (default); zero-shot: guidelines only")
    p.add_argument("--shots", type=int, default=None, metavar="N", help="at most N worked examples")
    p.add_argument("--no-structured", action="store_true",
                   help="do not ask for schema-constrained JSON even where the provider supports it")


def run_options(args) -> dict:
    opts = {"temperature": args.temperature, "cache": not args.no_cache}
    if args.max_tokens is not None:
        opts["max_tokens"] = args.max_tokens
    return opts


def read_text_file(f: str) -> str:
    """The content of ``--file f``: a UTF-8 file, or stdin for ``-``."""
    try:
        return sys.stdin.read() if f == "-" else Path(f).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"--file {f}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"--file {f}: a folder; expected a UTF-8 text file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"--file {f}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        # No permission, a folder on Windows (PermissionError there), a device that fails to read ...
        raise ConfigError(f"--file {f}: cannot read it ({exc.strerror or exc}); expected a readable UTF-8 "
                          "text file") from None


def read_texts(args) -> list[str]:
    """The texts of ``--text`` (repeatable) and ``--file`` (split by ``--split``)."""
    texts = list(args.text or [])
    for f in args.file or []:
        content = read_text_file(f)
        if args.split == "lines":
            texts += [ln.strip() for ln in content.splitlines() if ln.strip()]
        elif args.split == "paragraphs":
            texts += [" ".join(par.split()) for par in content.split("\n\n") if par.strip()]
        else:
            texts.append(content.strip())
    empty = [i for i, t in enumerate(texts, start=1) if not t.strip()]
    if empty:
        raise ConfigError(f"text {empty[0]} is empty; expected a statement to annotate")
    return texts


def text_id(text: str) -> str:
    """``text-<8 hex>``: the same text always gets the same id, so a run resumes per text."""
    return "text-" + hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:8]


def register(sub) -> None:
    p = sub.add_parser(
        "annotate", help="annotate text into ClimateCause-style causal relations with a model (cached, resumable)",
        description="Ask a model to annotate statements the way ClimateCause annotators did (paper §4, App. B): "
                    "every relation with noun-phrase and no-quantifier forms, contexts, belongs-to, combined, "
                    "nested, explicitness, relation type and correlation. Runs on the benchmark runner (response "
                    "cache, resume, retries, progress); the run directory is what evaluate-annotation reads.")
    src = p.add_mutually_exclusive_group(required=True)
    # Text and file names may hold commas: each is taken whole, one per flag.
    add_list_option(src, "--text", split=False, metavar="TEXT", help="a statement to annotate")
    add_list_option(src, "--file", split=False, metavar="FILE", help="a UTF-8 text file ('-' for stdin)")
    src.add_argument("--data", metavar="NAME|PATH", default=None,
                     help="an annotated corpus (climatecause, a corpus file or folder): the run keeps the gold "
                          "annotations for evaluate-annotation")
    p.add_argument("--split", choices=["none", "lines", "paragraphs"], default="none",
                   help="how --file is cut into statements (default: the whole file is one statement)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="first N statements of --data only")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="run directory (default: runs/annotate__<model>__<variant> for --data, "
                        "runs/annotate-text__<model>__<variant> for text)")
    p.add_argument("--concurrency", type=int, default=None, metavar="N", help="requests in flight at most")
    add_model_options(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table",
                   help="output format of the relations (default: table)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.limit is not None and args.limit < 1:
        raise ConfigError(f"--limit {args.limit}: expected an integer >= 1")
    opts = run_options(args)
    common = dict(variant=args.variant, shots=args.shots, model_options=model_options(args),
                  structured=not args.no_structured, progress="auto" if not args.no_progress else False,
                  concurrency=args.concurrency, **opts)
    if args.data is not None:
        out = args.out or default_run_dir("annotate", args.model, [args.variant])
        corpus = load_corpus(args.data)
        ids = [s.id for s in corpus][: args.limit] if args.limit else [s.id for s in corpus]
        res = annotate_corpus(corpus, args.model, out=out, limit=args.limit, **common)
    else:
        texts = read_texts(args)
        out = args.out or default_run_dir("annotate-text", args.model, [args.variant])
        # The same text twice (up to whitespace) is one statement, annotated once.
        unique = {}
        for t in texts:
            unique.setdefault(text_id(t), t)
        ids = list(unique)
        res = annotate_texts(list(unique.values()), args.model, out=out, ids=ids, **common)
    # This invocation's statements, in input order (a run directory may hold earlier ones too).
    statements = statements_from_run(res.path, ids=ids)
    rows = []
    for st in statements:
        info = st.meta.get("annotation", {})
        if not st.relations:
            rows.append({"statement_id": st.id, "rule": info.get("rule"),
                         "cause": "(failed)" if info.get("failed") else "(no causal relation)"})
        for r in st.relations:
            rows.append({"statement_id": st.id, **r.to_dict(), "rule": info.get("rule")})
    failures = sum(1 for st in statements if st.meta.get("annotation", {}).get("failed"))
    if args.format == "json":
        emit_json({"run": str(res.path), "requests_sent": res.requests_sent, "cache_hits": res.cache_hits,
                   "skipped": res.skipped, "parse_failures": failures,
                   "statements": [{"statement_id": st.id, "text": st.text, "causal": st.causal,
                                   "annotation": {k: v for k, v in st.meta.get("annotation", {}).items()
                                                  if k != "response"},
                                   "relations": [r.to_dict() for r in st.relations]} for st in statements]})
        return 0
    emit_table(rows, args.format, columns=RELATION_COLUMNS)
    print(f"run: {res.path} ({plural(len(statements), 'statement')}, {failures} unreadable or failed; requests "
          f"{res.requests_sent}, cache hits {res.cache_hits}, already answered {res.skipped})", file=sys.stderr)
    return 0
