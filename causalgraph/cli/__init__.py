"""The ``causalgraph`` command: one subcommand per job, a thin layer over the library.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; the module list below is the only place that names
them.  Library errors become a one-line message on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from typing import Optional, Sequence

from ..errors import CausalGraphError
from .._version import __version__

__all__ = ["main", "build_parser", "Parser", "StderrHandler", "library_notes_on_stderr"]

# Subcommand modules, in the order `causalgraph --help` lists them.
COMMAND_MODULES = [
    "info",
    "complexity",
    "readability",
    "view",
    "report",
    "stats",
    "chains",
    "sample_subgraphs",
    "causenet",
    "encode",
    "items",
    "export_dataset",
    "export_graphs",
    "bench",
    "extract",
    "evaluate_extraction",
    "extraction_chains",
    "annotate",
    "score",
    "evaluate_annotation",
    "compare_graphs",
    "plugins",
]


class _StoreOnce(argparse._StoreAction):
    """argparse's plain store, except that a flag of one value given twice with two values is refused.

    argparse keeps the last value silently: ``encode --statement cc-007 --statement cc-047``
    would print cc-047 alone, ``view`` would write one page of the two asked for.  Flags that
    take several values use :class:`~causalgraph.cli._common.MultiValue`; the same value twice
    is harmless and accepted.
    """

    def __call__(self, parser, namespace, values, option_string=None):
        if self.option_strings:
            given = namespace.__dict__.setdefault("_given_once", {})
            if self.dest in given and given[self.dest][1] != values:
                first_flag, first = given[self.dest]
                parser.error(f"{option_string} given twice ({first_flag} {first!r}, then {option_string} "
                             f"{values!r}); expected one value: this flag takes one")
            given[self.dest] = (option_string, values)
        super().__call__(parser, namespace, values, option_string)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose option errors are one line on stderr (exit code 2), like library errors.

    argparse prints its usage block (4 to 6 lines) before the message; the
    usage stays under ``--help``.  ``add_subparsers`` builds subcommand
    parsers of the parser's own class, so every subcommand, nested ones
    included, inherits this.  A one-value flag given twice with different
    values is refused (argparse would keep the last silently).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str, prog: Optional[str] = None):
        prog = prog or self.prog
        msg = " ".join(message.split())
        self.exit(2, f"{prog}: error: {msg} (see {prog} --help)\n")

    def parse_known_args(self, args=None, namespace=None):
        ns, extras = super().parse_known_args(args, namespace)
        vars(ns).pop("_given_once", None)
        # Arguments left over are reported by the top parser; remember which (sub)command met them
        # first, so that the message names `causalgraph info`, not `causalgraph`.
        if extras and getattr(ns, "_unrecognized_by", None) is None:
            ns._unrecognized_by = self.prog
        return ns, extras

    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        prog = vars(ns).pop("_unrecognized_by", None)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}", prog)
        return ns


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="causalgraph",
        description="Causal-graph analysis of text: ClimateCause and PubMedCausal corpora, causal complexity, "
                    "causal chains, graph encodings and LLM benchmarks.",
    )
    parser.add_argument("--version", action="version", version=f"causalgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def _one_line(text: str) -> str:
    r"""``text`` as one line a terminal shows as written: whitespace runs made one space, and any other
    character that does not print (an escape sequence from a damaged file, a NUL) spelled as its escape.

    Examples
    --------
    >>> _one_line("x.gml: cannot tokenize \x1b[2J\nat (1, 1)")
    'x.gml: cannot tokenize \\x1b[2J at (1, 1)'
    """
    flat = " ".join(text.split())
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in flat)


def _os_error(exc: OSError) -> str:
    """``<file>: <reason>`` of an OSError on one line (``str(exc)`` reads ``[Errno 28] …``)."""
    reason = exc.strerror or type(exc).__name__
    names = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
    msg = f"{' -> '.join(names)}: {reason}" if names else " ".join(str(exc).split()) or reason
    return _one_line(msg)


class StderrHandler(logging.Handler):
    """The library's log records on stderr, as the commands have always shown its notes: ``causalgraph: <message>``.

    The stream is looked up at each record (not kept), so that a caller
    that swaps ``sys.stderr`` (a test capturing it, a notebook) gets the
    lines where it expects them.

    Examples
    --------
    >>> import logging, io, contextlib
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err), library_notes_on_stderr():
    ...     logging.getLogger("causalgraph.runlog.store").warning("note: a torn line")
    >>> err.getvalue()
    'causalgraph: note: a torn line\\n'
    """

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(f"causalgraph: {record.getMessage()}\n")
        except Exception:  # noqa: BLE001 - logging's own contract: a failing handler reports, never raises
            self.handleError(record)


class library_notes_on_stderr:
    """While a command runs, the ``causalgraph`` logger's records (notes and warnings) go to stderr.

    Installed by :func:`main` for one command and removed after it, so that
    commands run one after another in a process (tests, a notebook calling
    ``main``) never print a note twice.
    """

    def __enter__(self) -> StderrHandler:
        self.handler = StderrHandler(logging.WARNING)
        logging.getLogger("causalgraph").addHandler(self.handler)
        return self.handler

    def __exit__(self, *exc) -> None:
        logging.getLogger("causalgraph").removeHandler(self.handler)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        # Building the parser reads no plugin (help texts list causalgraph's own encodings, tasks and
        # providers), so that a broken plugin cannot stop --help, --version or any other command.
        parser = build_parser()
        args = parser.parse_args(argv)
    except CausalGraphError as exc:
        print(f"causalgraph: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    with library_notes_on_stderr():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """One parsed command: its exit code, an error of the library as one line on stderr."""
    try:
        rc = args.func(args)
    except CausalGraphError as exc:
        print(f"causalgraph {args.command}: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"causalgraph {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # The library checks the paths it is given (causalgraph._core.outputs, the loaders); what still
        # fails here is the file system itself (disk full, a permission changed mid-run, a path
        # another process removed).  That is the user's to fix, so it is one line too, naming the file.
        print(f"causalgraph {args.command}: error: {_os_error(exc)}", file=sys.stderr)
        return 2
    return int(rc or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
