"""The `neardup` command line: the same core as the window, without one.

Results go to stdout (``--json`` for machine-readable output), progress and diagnostics to
stderr. Exit codes: 0 success; 1 some input was skipped or nothing was found where that is the
question; 2 usage error; 3 the index cannot be used (corrupt, too new, busy); 130 interrupted
(Ctrl+C), 143 terminated (SIGTERM: a logout, a shutdown, a task manager), 129 hung up (SIGHUP: its
terminal closed), each stopping the work as Ctrl+C does; 141 the reader of the output went away
(`neardup pairs | head`).
"""

from __future__ import annotations

import argparse
import os
import select
import sys
from typing import Any, Sequence

from neardup_gui import __version__
from neardup_gui.cli.common import (
    COMMANDS,
    EXIT_BROKEN_PIPE,
    EXIT_INDEX,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SKIPPED,
    EXIT_USAGE,
    StderrProgress,
    _ClearsProgress,
    _index_problem,
    _is_terminal,
    _open,
    _ProgressLine,
    _terminal_columns,
    clip_to_width,
    command,
    configure_logging,
    display_width,
    print_json,
)

# Importing the modules of the subcommands registers them, in the order `neardup --help` lists them
# (`applicants` and `decide`, of cli_examiner, last: build_parser imports it).
from neardup_gui.cli import indexing, collection, comparing, screening  # noqa: F401, I001

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_INDEX", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_SKIPPED", "EXIT_USAGE",
           "StderrProgress", "_ClearsProgress", "_index_problem", "_open", "_terminal_columns", "build_parser",
           "clip_to_width", "command", "display_width", "main", "print_json"]


# --- entry point ------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from neardup_gui import cli_examiner  # noqa: F401 — (registers `applicants` and `decide`)

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


# The commands that may run the collection-wide pass in worker processes (core/processes.py),
# and the size of an index below which it cannot hold the documents that make the pass parallel
# (PARALLEL_MIN_DOCS_FORKED, 400: the generated 1,000 take 7.4 MB, the 796 copyright files
# 34 MB; the 32 sample files 0.3 MB): a smaller one starts no fork server beside the command
# (which costs a command of 32 documents 0.08 s; the pass would start it itself if needed).
PASS_COMMANDS = frozenset({"pairs", "clusters", "screen", "report"})
SERVER_MIN_INDEX_BYTES = 1_000_000
# A wait this long for another writer of the index is said on stderr (shorter ones are usual
# when two programs work on one index: another commits a batch).
SAY_WAITING_AFTER_S = 1.0


def _index_bytes(args: argparse.Namespace) -> int:
    """The size of ``--db`` with its write-ahead log (0 where there is none)."""
    db, total = getattr(args, "db", None), 0
    for tail in ("", "-wal") if db else ():
        try:
            total += os.stat(f"{db}{tail}").st_size
        except OSError:
            pass
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging(args.verbose)
    from neardup_gui.core import processes

    # (a command-line process runs one thread: its children start faster; the choice is undone
    # on return, for a caller that runs a command in its own process, such as a test)
    chosen_before = processes.allow_fork()
    if (getattr(args, "command", None) in PASS_COMMANDS and getattr(args, "workers", 0) != 1
            and _index_bytes(args) >= SERVER_MIN_INDEX_BYTES):
        processes.start_server()  # (imports the core beside this process: the pass's workers start at once)
    if not getattr(args, "run", None):
        processes.allow_fork(chosen_before)
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    stdout = sys.stdout
    if _is_terminal(sys.stderr):
        sys.stdout = _ClearsProgress(stdout)
    from neardup_gui.core.applicants import ApplicantsFileError
    from neardup_gui.core.store import DocumentGone, while_busy

    from neardup_gui.stopping import Terminated, said, stop_on_signals

    handlers = stop_on_signals()
    try:
        with while_busy(_WaitingNotice()):
            code = args.run(args)
        _ProgressLine.clear()
        sys.stdout.flush()  # (here, not at exit: a reader gone is handled below)
        return code
    except DocumentGone as exc:
        # another window or command changed the index under this one (a document it was reading
        # removed or indexed again): said, not a traceback; the index itself is sound
        _ProgressLine.clear()
        sys.stderr.write(f"neardup: {exc}: the index was changed by another neardup window or command while this "
                         "ran. Run it again.\n")
        return EXIT_INDEX
    except ApplicantsFileError as exc:  # (`--applicants CSV` given wrong: said before any work)
        _ProgressLine.clear()
        sys.stderr.write(f"neardup: cannot read the applicants: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt as exc:
        _ProgressLine.clear()
        if isinstance(exc, Terminated):
            sys.stderr.write(said(exc) + "\n")
            return 128 + exc.signum
        sys.stderr.write("interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of the output went away (`neardup pairs | head`): stop quietly, as any
        # writer to a pipe does, not with a traceback. What is left unwritten goes nowhere.
        # (Another pipe broken, a worker's, is a fault: it is raised as before.)
        if not (_reader_gone(stdout) or _reader_gone(sys.stderr)):
            raise
        _silence_closed_outputs()
        return EXIT_BROKEN_PIPE
    finally:
        handlers.restore()
        sys.stdout = stdout
        processes.allow_fork(chosen_before)


class _WaitingNotice:
    """Says once on stderr, after SAY_WAITING_AFTER_S, that the command waits for another writer
    of the index (core/store/: the wait can be stopped with Ctrl+C)."""

    def __init__(self) -> None:
        self.said = False

    def __call__(self, waited_s: float) -> None:
        if waited_s >= SAY_WAITING_AFTER_S and not self.said:
            self.said = True
            _ProgressLine.clear()
            sys.stderr.write("neardup: the index is being written by another neardup window or command; "
                             "waiting for it (Ctrl+C stops)\n")
            sys.stderr.flush()


def _reader_gone(stream: Any) -> bool:
    """True when ``stream`` is a pipe whose reading end is closed (poll reports an error on the
    writing end); where poll is missing (Windows), any broken pipe is taken for it."""
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    if not hasattr(select, "poll"):
        return True
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


def _silence_closed_outputs() -> None:
    """Point stdout and stderr at the null device (the pipe's reader is gone; Python would report
    the failed flush of their buffers at exit)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(null, stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass
