"""The `neardup` command line: the same core as the window, without one.

Results go to stdout (``--json`` for machine-readable output), progress and diagnostics to
stderr. Exit codes: 0 success; 1 some input was skipped or nothing was found where that is the
question; 2 usage error; 3 the index cannot be used (corrupt, too new, busy); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any, Callable, Sequence

from neardup_gui import __version__

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_SKIPPED = 1
EXIT_USAGE = 2
EXIT_INDEX = 3
EXIT_INTERRUPTED = 130


def configure_logging(verbose: int) -> None:
    """Configure logging once, for the command line (stderr)."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("jieba").setLevel(logging.ERROR)


def print_json(data: Any) -> None:
    """Print machine-readable output on stdout, UTF-8, one document."""
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


class StderrProgress:
    """A ``progress(fraction, message)`` callable that writes one updating line to stderr."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self._last = ""

    def __call__(self, fraction: float, message: str = "") -> None:
        if self.quiet:
            return
        line = f"[{fraction * 100:5.1f}%] {message}"
        if line != self._last:
            self._last = line
            end = "\r" if sys.stderr.isatty() else "\n"
            sys.stderr.write(line[:200] + end)
            sys.stderr.flush()


# Each subcommand registers (name, help, add_arguments, run) here; run(args) returns an exit code.
Command = tuple[str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
COMMANDS: list[Command] = []


def command(name: str, help: str, add_arguments: Callable[[argparse.ArgumentParser], None]):
    """Register a subcommand's ``run(args) -> int``."""

    def register(run: Callable[[argparse.Namespace], int]):
        COMMANDS.append((name, help, add_arguments, run))
        return run

    return register


# --- subcommands ------------------------------------------------------------------------------
# (each subcommand lives in its own block below; add new ones as new blocks)


# --- entry point ------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neardup",
        description="Find near-duplicate and copied documents in a local collection.",
    )
    parser.add_argument("--version", action="version", version=f"neardup {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text, add_arguments, run in COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments(p)
        p.set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging(args.verbose)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.run(args)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    raise SystemExit(main())
