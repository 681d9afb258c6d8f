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
import errno
import json
import logging
import os
import select
import shlex
import shutil
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any, Callable, Sequence

from neardup_gui import __version__

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_SKIPPED = 1
EXIT_USAGE = 2
EXIT_INDEX = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # (128 + SIGPIPE: what a shell shows for a writer whose reader went away)


def configure_logging(verbose: int) -> None:
    """Configure logging once, for the command line (stderr)."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("jieba").setLevel(logging.ERROR)
    from neardup_gui.core.extract import quiet_parsers

    quiet_parsers(verbose == 0)  # (the workers the command forks inherit it)


def print_json(data: Any) -> None:
    """Print machine-readable output on stdout, UTF-8, one document."""
    # One write: json.dump writes every token separately (0.18 s for the pairs of 797 documents).
    # A list (pairs, clusters) is written one item per line: an indented dump runs json's Python
    # encoder, 0.95 s for the 12,815 pairs of 2,375 documents, where the compiled one per item
    # takes about a tenth of that.
    if isinstance(data, list) and data:
        text = "[\n" + ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in data) + "\n]"
    else:
        text = json.dumps(data, ensure_ascii=False, indent=2)
    sys.stdout.write(text + "\n")


class StderrProgress:
    """A ``progress(fraction, message)`` callable that writes progress to stderr.

    On a terminal, one line that updates in place: cut to the terminal's width (a Chinese
    character takes two columns) and ended by "erase to the end of the line", so a shorter
    message never shows the tail of a longer one; :func:`main` clears it before the command's
    own output. Elsewhere (a log file, a pipe), a line each time the whole percentage moves, each
    stage's start and end (0 % and 100 %) and at most every ``LOG_EVERY_S`` seconds otherwise:
    indexing 50,000 files writes about a hundred lines, not a hundred thousand.
    """

    LOG_EVERY_S = 5.0

    def __init__(self, quiet: bool = False, stream: Any = None) -> None:
        self.quiet = quiet
        self.stream = stream
        self._last = ""
        self._message = ""
        self._logged_percent = -1
        self._logged_at = float("-inf")

    def __call__(self, fraction: float, message: str = "") -> None:
        if self.quiet:
            return
        # An empty message only moves the bar: the previous message stands (never "[  5.0%] ").
        message = message or self._message
        self._message = message
        if not message:
            return
        line = f"[{fraction * 100:5.1f}%] {message}"
        if line == self._last:
            return
        self._last = line
        stream = self.stream or sys.stderr
        if _is_terminal(stream):
            _ProgressLine.show(stream, line)
            return
        percent, now = int(fraction * 100), time.monotonic()
        # (a percent back from the one logged is a rounding's jitter, not news: 1.999… after 2.0)
        if (0 < fraction < 1 and self._logged_percent - 1 <= percent <= self._logged_percent
                and now - self._logged_at < self.LOG_EVERY_S):
            return
        self._logged_percent, self._logged_at = percent, now
        stream.write(line[:200] + "\n")
        stream.flush()


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # (a closed or unusual stream: not a terminal)
        return False


def _columns(ch: str) -> int:
    """Columns a character takes on a terminal: two when wide (CJK), none when combining."""
    return 0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal."""
    return sum(map(_columns, text))


def clip_to_width(text: str, columns: int) -> str:
    """The longest head of ``text`` that fits in ``columns`` terminal columns."""
    used = 0
    for i, ch in enumerate(text):
        used += _columns(ch)
        if used > columns:
            return text[:i]
    return text


def _terminal_columns(stream: Any) -> int:
    """The width of the terminal ``stream`` writes to: $COLUMNS when set, else the terminal's own
    (stderr's, not stdout's: `neardup pairs | less` shows its progress on a terminal), else 80."""
    try:
        return max(int(os.environ["COLUMNS"]), 1)
    except (KeyError, ValueError):
        pass
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or shutil.get_terminal_size(fallback=(80, 24)).columns


class _ProgressLine:
    """The progress line standing on a terminal, if any (one per process)."""

    stream: Any = None

    @classmethod
    def show(cls, stream: Any, line: str) -> None:
        columns = _terminal_columns(stream)
        # one column short of the width: a line that fills it wraps on some terminals
        stream.write("\r" + clip_to_width(line, max(columns - 1, 10)) + "\x1b[K")
        stream.flush()
        cls.stream = stream

    @classmethod
    def clear(cls) -> None:
        """Erase the progress line, so that what is printed next starts on a clean line."""
        stream, cls.stream = cls.stream, None
        if stream is not None:
            try:
                stream.write("\r\x1b[K")
                stream.flush()
            except (OSError, ValueError):
                pass


class _ClearsProgress:
    """``sys.stdout`` while a progress line may stand on the terminal: erased before any output."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if _ProgressLine.stream is not None:
            _ProgressLine.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


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


# --- extract ----------------------------------------------------------------------------------


def _extract_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="documents to extract")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("--workers", type=int, default=0, metavar="N", help="extraction processes (default: number of cores)")
    p.add_argument("--timeout", type=float, metavar="S", help="time limit per file in seconds (default 60)")


@command("extract", "Print the text extracted from each file (a skipped file's reason goes to stderr).", _extract_args)
def run_extract(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from neardup_gui.core.document import Skipped
    from neardup_gui.core.flags import integrity_flags
    from neardup_gui.core.settings import ExtractLimits
    from neardup_gui.core.workers import extract_many

    limits = ExtractLimits()
    if args.timeout:
        limits = replace(limits, time_limit_s=args.timeout)
    results = dict(extract_many(list(dict.fromkeys(args.files)), limits, args.workers))
    ordered = [(path, r if not isinstance(r, Skipped) or (problem := given_path_problem(path)) is None
                else replace(r, reason=problem))  # (its code stays: machine-readable, stable)
               for path in dict.fromkeys(args.files) for r in [results[path]]]
    skipped = any(isinstance(r, Skipped) for _, r in ordered)
    if args.json:
        print_json([
            {"path": path, "status": "skipped", "reason": r.reason, "code": r.code, "format": None, "meta": {},
             "warnings": [], "text": None, "hidden": [], "flags": []}
            if isinstance(r, Skipped)
            else {"path": path, "status": "extracted", "reason": None, "code": None, "format": r.format,
                  "meta": r.meta, "warnings": list(r.warnings), "text": r.text,
                  "hidden": [list(s) for s in r.hidden], "flags": [f.to_json() for f in integrity_flags(r.text, r.hidden)]}
            for path, r in ordered
        ])
        return EXIT_SKIPPED if skipped else EXIT_OK
    several = len(ordered) > 1
    for path, r in ordered:
        if isinstance(r, Skipped):
            sys.stderr.write(f"{path}: skipped: {r.reason}\n")
            continue
        for warning in r.warnings:
            sys.stderr.write(f"{path}: warning: {warning}\n")
        for flag in integrity_flags(r.text, r.hidden):  # (with the first places, as the reader finds them)
            from neardup_gui.core.report.model import flag_places
            from neardup_gui.core.report.strings import flag_text, translator

            shown, more = flag_places(r.text, flag)
            places = " ".join(f"«{p}» at {a}" for p, (a, _) in zip(shown, flag.spans)) + (f" … (+{more})" if more else "")
            sys.stderr.write(f"{path}: flag: {flag_text(flag, translator('en'))}: {places}\n")
        if several:
            sys.stdout.write(f"==> {path} <==\n")
        sys.stdout.write(r.text + "\n")
    return EXIT_SKIPPED if skipped else EXIT_OK



# --- index / check / pairs / clusters / compare ------------------------------------------------


def _settings(args: argparse.Namespace, base=None):  # noqa: ANN001, ANN202 - a core Settings
    """Settings from the command line's options (``base``, else the defaults, for what is not given)."""
    from neardup_gui.core.settings import FingerprintParams, Settings

    s = base or Settings()
    changes: dict[str, Any] = {}
    for name in ("threshold", "min_run", "strategy", "workers"):
        value = getattr(args, name, None)
        if value is not None:
            changes[name] = value
    if getattr(args, "template", None):
        changes["template_files"] = tuple(args.template)
    if getattr(args, "exclude_quotes", False):
        changes["exclude_quotes"] = True
    if getattr(args, "exclude_bibliography", False):
        changes["exclude_bibliography"] = True
    if getattr(args, "dask", None):
        changes["dask_address"] = args.dask
    for name in ("dask_ca", "dask_cert", "dask_key"):
        if getattr(args, name, None):
            changes[name] = getattr(args, name)
    if getattr(args, "dask_insecure", False):
        changes["dask_insecure"] = True
    if getattr(args, "no_auto_template", False):
        changes["auto_template"] = False
    if getattr(args, "bits", None):
        changes["fingerprints"] = FingerprintParams(**{**s.fingerprints.to_dict(), "minhash_bits": args.bits})
    return s.with_(**changes)


def _common_options(p: argparse.ArgumentParser, *, db: bool = True, threshold: bool = True) -> None:
    if db:
        p.add_argument("--db", required=True, metavar="F", help="the index file of the collection")
    if threshold:
        p.add_argument("--threshold", type=float, metavar="T", help="similarity r to report, 0..1 (default 0.7)")
    p.add_argument("--min-run", type=int, dest="min_run", metavar="N", help="minimum units in a matched passage (default 8)")
    p.add_argument("--template", action="append", metavar="FILE", help="a template file whose text never counts (repeatable)")
    p.add_argument("--exclude-quotes", action="store_true", help="do not count quoted text")
    p.add_argument("--exclude-bibliography", action="store_true", help="do not count the bibliography")
    p.add_argument("--no-auto-template", action="store_true", dest="no_auto_template",
                   help="count all text except your template files and the passages you marked "
                        "(no sentence is taken out for being in most documents)")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _open(args: argparse.Namespace, *, create: bool = False):
    from neardup_gui.core.collection import Collection

    return Collection.open(args.db, create=create)


def given_path_problem(path: str) -> str | None:
    """What is wrong with a file named on the command line, said plainly (the extraction's own
    reasons are about files that change under it: "no longer exists", and "unsupported file
    type ''" for a folder), or None."""
    if os.path.isdir(path):
        return "a folder, not a file: give the files in it, or `neardup screen FOLDER` for a folder of submissions"
    if not os.path.lexists(path):
        return "no such file"
    return None


def _index_problem(exc) -> int:
    hint = ""
    if exc.kind == "not-an-index" and str(exc).startswith("There is no index at"):
        hint = " Make one with `neardup index FOLDER --db F`."
    sys.stderr.write(f"neardup: {exc}{hint}\n")
    return EXIT_INDEX


def _on_collection(args: argparse.Namespace, work: Callable[[Any, Any], Any], *, create: bool = False) -> Any:
    """Open the index of ``--db``, run ``work(collection, settings)`` and close it again.

    The collection's own settings (saved by the app: threshold, exclusions, template files)
    apply where no option is given. Raises ``IndexProblem`` (damaged, too new, busy, full,
    read-only) for the caller to report.
    """
    from neardup_gui.core.settings import Settings

    with _open(args, create=create) as coll:
        _say_if_unfinished(coll, args.db)
        return work(coll, _settings(args, coll.settings_for(Settings())))


def _say_if_unfinished(coll, db: str) -> None:  # noqa: ANN001 - a Collection
    """A note on stderr when the last indexing stopped before its end: the answers cover only
    the documents indexed until then (JSON on stdout stays as it is)."""
    from neardup_gui.core.indexer import unfinished

    folder = unfinished(coll.store)
    if folder:
        # (the mark is also there while another command or window is indexing it now)
        sys.stderr.write(f"neardup: note: the last indexing of {folder} did not finish (or is still running in "
                         f"another window or command); this index holds only the documents indexed until then. "
                         f"Run `neardup index {shlex.quote(folder)} --db {shlex.quote(db)}` to complete it.\n")


def _rules_json(coll, settings) -> dict[str, Any]:
    from neardup_gui.core.common_passages import exclusion_rules

    return exclusion_rules(coll, settings)


def _exclusions_line(units: dict[str, int]) -> str:
    """``not counted: 120 units (template files 80, automatic 40)`` for the plain output."""
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in units.items() if v]
    return f"not counted: {sum(units.values())} units" + (f" ({', '.join(parts)})" if parts else "")


def _span_json(comp) -> list[dict[str, Any]]:
    return [{"a": list(s.a), "b": list(s.b), "units": s.units} for s in comp.spans]


def _passage_json(comp, credit=None) -> list[dict[str, Any]]:  # noqa: ANN001 - a Comparison, its Credit
    """Edited passages: character spans, units covered in each text, identical units, the
    identical runs inside (what lies between them was edited), whether it was found out of the
    source's order (moved), and, for a checked submission's source, the other sources holding it."""
    also = dict(zip(comp.shown_passages(), credit.also_in)) if credit is not None else {}
    return [{"a": list(p.a), "b": list(p.b), "units_a": p.units_a, "units_b": p.units_b,
             "identical_units": p.matched_units, "moved": p.moved, "revised": p.revised,
             "runs": [{"a": list(r.a), "b": list(r.b), "units": r.units} for r in p.runs],
             **({"also_in": list(also.get(p, ()))} if credit is not None else {})}
            for p in comp.passages]


def _index_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", metavar="DIR", help="the folder of submissions")
    p.add_argument("--db", required=True, metavar="F", help="the index file (created if missing)")
    p.add_argument("--workers", type=int, metavar="N", help="extraction processes (default: number of cores)")
    p.add_argument("--bits", type=int, metavar="K", help="size of the 1-bit minwise fingerprint (64..1024)")
    p.add_argument("--replace-folder", action="store_true", dest="replace_folder",
                   help="make DIR the folder of an index made of another folder that still exists (its "
                        "documents not in DIR leave the index); without it, that is refused")
    p.add_argument("--allow-empty", action="store_true", dest="allow_empty",
                   help="when the folder holds no documents now, remove them all from the index (by default "
                        "nothing is changed: an unmounted share leaves an empty folder)")
    _dask_option(p)
    _applicants_option(p, "DIR")
    p.add_argument("--json", action="store_true", help="machine-readable summary on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _applicants_option(p: argparse.ArgumentParser, where: str) -> None:
    from neardup_gui.cli_examiner import applicants_option

    applicants_option(p, where)


@command("index", "Index a folder (incremental: only new and changed files are read).", _index_args)
def run_index(args: argparse.Namespace) -> int:
    from neardup_gui.core.dask_connection import ClusterUnavailable
    from neardup_gui.core.progress import count_noun
    from neardup_gui.core.store import IndexProblem

    from neardup_gui.core.scan import FolderUnavailable, folder_problem

    settings = _settings(args)
    # before the index is opened: a folder given wrong must not create an index, or change one
    problem = folder_problem(os.path.abspath(args.folder))
    if problem is not None:
        return _folder_unavailable(FolderUnavailable(os.path.abspath(args.folder), problem), args.db)
    from neardup_gui.cli_examiner import keep_applicants, read_applicants

    applicants = read_applicants(args, os.path.abspath(args.folder))
    try:
        with _open(args, create=True) as coll:
            other = None if args.replace_folder else _other_folder(coll.folder, os.path.abspath(args.folder))
            if other is not None:
                # `neardup index 2025/ --db archive.db` meant as "add 2025 to the archive" would
                # remove every document of 2024/ (a folder moved is no such case: the old one is gone)
                sys.stderr.write(
                    f"neardup: {args.db} is the index of {other}; indexing {os.path.abspath(args.folder)} into it "
                    f"would remove the documents of {other} from it. Nothing was changed. Use another --db for "
                    f"this folder, `neardup add FILE… --db {args.db}` to add files to the collection, or "
                    "--replace-folder to make this folder its folder.\n")
                return EXIT_USAGE
            report = coll.index_folder(args.folder, settings, StderrProgress(args.quiet), allow_empty=args.allow_empty)
            stats = coll.stats()
            kept = keep_applicants(args, coll.store, applicants, {d.path: d.sha256 for d in coll.documents()})
    except IndexProblem as exc:
        return _index_problem(exc)
    except ClusterUnavailable as exc:
        return _cluster_problem(exc)
    except FolderUnavailable as exc:
        return _folder_unavailable(exc, args.db)
    if args.json:
        print_json({
            "folder": args.folder, "db": args.db, "documents": stats["documents"], "indexed": stats["indexed"],
            "added": report.added, "updated": report.updated, "moved": report.moved, "removed": report.removed,
            "unchanged": report.unchanged, "unread": report.unread, "refingerprinted": report.refingerprinted,
            "reread": report.reread,
            "with_warnings": [{"path": path, "warnings": list(warnings)} for path, warnings in report.warned],
            "with_flags": [{"path": path, "flags": [f.to_json() for f in flags]} for path, flags in report.flagged],
            "skipped": [{"path": s.path, "code": s.code, "reason": s.reason} for s in report.skipped],
            "other_files": list(report.others),
            "elapsed_s": round(report.elapsed_s, 3),
            **({"applicants": kept} if kept is not None else {}),
        })
    else:
        unread = f", {report.unread} kept as they were (their folder could not be read)" if report.unread else ""
        print(f"{count_noun(stats['indexed'], 'document')} indexed in {args.db}, {len(report.warned)} with warnings, "
              f"{len(report.skipped)} skipped ({report.added} added, {report.updated} updated, {report.moved} moved, "
              f"{report.removed} removed, {report.unchanged} unchanged{unread}) in {report.elapsed_s:.1f} s")
        if report.reread:
            print(f"{count_noun(report.reread, 'unchanged file')} read again: this version reads "
                  f"{'its' if report.reread == 1 else 'their'} format differently (see docs/extraction.md); "
                  "the figures that involve them may change")
        if report.warned:
            print(f"{count_noun(len(report.warned), 'document')} indexed with warnings:")
            for path, warnings in report.warned:
                for warning in warnings:
                    print(f"  {path}: {warning}")
        if report.skipped:
            print(f"{len(report.skipped)} skipped:")
            for s in report.skipped:
                print(f"  {s.path}: {s.reason}")
        if report.flagged:
            print(f"{count_noun(len(report.flagged), 'document')} with integrity flags:")
            for path, flags in report.flagged:
                print(f"  {path}: {_flags_line([f.to_json() for f in flags])}")
        if report.others:
            print(other_files_line(report.others, args.folder))
    return EXIT_SKIPPED if report.skipped else EXIT_OK


OTHERS_NAMED = 5  # the other files named in `index`'s summary (all of them in its --json)


def other_files_line(others: Sequence[str], folder: str) -> str:
    """"2 files of other formats left out (neardup reads …): ls.1, README": what `index` and
    `screen` say of the files they do not read, so that none is left out in silence."""
    from neardup_gui.core.extract import READ_SUFFIXES
    from neardup_gui.core.progress import count_noun

    names = [os.path.relpath(p, folder) for p in others[:OTHERS_NAMED]]
    more = f" and {len(others) - OTHERS_NAMED} more (--json lists them all)" if len(others) > OTHERS_NAMED else ""
    return (f"{count_noun(len(others), 'file')} of other formats left out (neardup reads "
            f"{' '.join(READ_SUFFIXES)}, and by its content a file named without a type): "
            f"{', '.join(names)}{more}")


def _other_folder(old: str | None, folder: str) -> str | None:
    """``old``, the folder an index was made of, when it is another one that still exists."""
    if not old or os.path.normpath(old) == os.path.normpath(folder) or not os.path.isdir(old):
        return None
    return old


def _folder_unavailable(exc, db: str) -> int:  # noqa: ANN001 — a scan.FolderUnavailable
    _ProgressLine.clear()
    hint = " (if its documents were deleted on purpose: --allow-empty)" if exc.emptied else ""
    sys.stderr.write(f"neardup: cannot index {exc.folder}: {exc.reason}; nothing in {db} was changed{hint}\n")
    return EXIT_USAGE


def _add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="files to make members of the collection")
    p.add_argument("--db", required=True, metavar="F", help="the index file of the collection")
    p.add_argument("--copy", action="store_true",
                   help="copy the files into the collection's folder (default: keep them where they are, "
                        "as external members that a refresh keeps)")
    p.add_argument("--replace", action="store_true",
                   help="with --copy: replace a file of the same name in the folder (default: rename the copy)")
    _applicants_option(p, "the collection's folder, else to the CSV's")
    p.add_argument("--json", action="store_true", help="machine-readable summary on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


@command("add", "Add files to an indexed collection (copied into its folder, or kept as external members).", _add_args)
def run_add(args: argparse.Namespace) -> int:
    from neardup_gui.core.scan import UnkeepableName
    from neardup_gui.core.store import IndexProblem

    missing = [f for f in args.files if not os.path.isfile(f)]
    if missing:
        sys.stderr.write("neardup: not a file: " + ", ".join(missing) + "\n")
        return EXIT_USAGE
    from neardup_gui.cli_examiner import keep_applicants, read_applicants

    try:
        with _open(args) as coll:
            if not coll.folder:
                sys.stderr.write(f"neardup: {args.db} has no collection folder; run `neardup index DIR --db F` first\n")
                return EXIT_USAGE
            # (before the files are added: a file copied into the folder takes its original's names)
            keep_applicants(args, coll.store, read_applicants(args, coll.folder), {})
            added = coll.add_files(args.files, _settings(args), StderrProgress(args.quiet),
                                   keep="copy" if args.copy else "external",
                                   on_clash="replace" if args.replace else "rename")
            skipped = {d.doc_id: d.reason for d in coll.documents() if d.status == "skipped"}
    except IndexProblem as exc:
        return _index_problem(exc)
    except UnkeepableName as exc:  # (nothing was added)
        sys.stderr.write(f"neardup: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        sys.stderr.write(f"neardup: {exc.filename or ''}: {exc.strerror or exc}\n")
        return EXIT_SKIPPED
    if args.json:
        print_json([{"file": a.source, "member": a.member, "how": a.how, "skipped_reason": skipped.get(a.doc_id)}
                    for a in added])
    else:
        words = {"copied": "copied into the folder as", "external": "kept where it is, as an external member:",
                 "inside": "already in the folder:"}
        for a in added:
            print(f"{a.source}: {words[a.how]} {a.member}" + (f" (skipped: {skipped[a.doc_id]})" if a.doc_id in skipped else ""))
    return EXIT_SKIPPED if any(a.doc_id in skipped for a in added) else EXIT_OK


def _check_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="submissions to check")
    p.add_argument("--top", type=int, default=10, metavar="N", help="sources to list per submission (default 10)")
    _common_options(p)


@command("check", "Check submissions against an indexed collection: ranked sources, best first.", _check_args)
def run_check(args: argparse.Namespace) -> int:
    from neardup_gui.core.store import IndexProblem

    from neardup_gui.core.workers import SUBMISSION_PREPARE, start_extraction

    settings = _settings(args)
    progress = StderrProgress(args.quiet)
    # what was wrong with a path as given, said plainly (the extraction's reasons are about files
    # that changed under it: "no longer exists", "unsupported file type ''" for a folder)
    given = {path: problem for path in map(os.path.abspath, args.files)
             if (problem := given_path_problem(path)) is not None}
    # the files are read (and fingerprinted) in worker processes from now on, while the index
    # opens and loads
    runs = start_extraction(list(dict.fromkeys(os.path.abspath(f) for f in args.files)), settings.limits,
                            max(1, min(settings.workers, len(args.files))),
                            prepare=(SUBMISSION_PREPARE, settings.fingerprints))
    try:
        with _open(args) as coll:
            _say_if_unfinished(coll, args.db)
            settings = _settings(args, coll.settings_for(settings))  # the collection's own values
            results = coll.check(args.files, settings, progress, extraction=runs)
            rules = _rules_json(coll, settings)
    except IndexProblem as exc:
        return _index_problem(exc)
    finally:
        runs.close()
    from neardup_gui.cli_examiner import decision_words, label_of, match_json, summary_json

    threshold = args.threshold
    out = []
    for r in results:
        matches = [m for m in r.matches if threshold is None or max(m.comparison.similarity, m.comparison.containment_a) >= threshold]
        out.append({
            "path": r.path, "units": r.units,
            "skipped_reason": (given.get(r.path) or r.skipped_reason) if r.skipped_reason else None,
            "warnings": list(r.warnings),
            "flags": [f.to_json() for f in r.flags],
            "applicants": r.applicants.to_json(), "label": label_of(r.summary.resubmission_of),
            "summary": {
                "copied_ratio": r.summary.copied_ratio,
                "copied_ratio_without_quotes": r.summary.copied_ratio_without_quotes,
                "copied_ratio_without_template": r.summary.copied_ratio_without_template,
                "largest_source_ratio": r.summary.largest_source_ratio,
                "largest_source": r.summary.largest_source or None,
                "template_share": r.summary.template_share,
                # the one denominator of every ratio above, and the units left out of it
                "countable_units": r.summary.countable_units,
                "template_units": r.summary.template_units,
                "excluded_units": r.summary.excluded_units,
                # copied_ratio split by whose the credited text is, and what decisions set apart
                **summary_json(r.summary),
            },
            "exclusions": {"applied": _applied(rules), "rules": rules, "units": r.exclusions.as_dict()},
            "matches": [{
                "path": m.source.path, "similarity": m.comparison.similarity,
                "containment": m.comparison.containment_a, "source_containment": m.comparison.containment_b,
                # the share of the submission credited to it: a passage several sources hold is
                # credited to one (the collection's, the earlier indexed, the one holding more)
                "credited": m.credit.share if m.credit else m.comparison.containment_a,
                "credited_units": m.credit.units if m.credit else None,
                "common_units": m.comparison.common_units, "template_share": m.comparison.template_share_b,
                "source_exclusions": m.comparison.exclusions_b.as_dict(),
                "estimate": m.estimate, "found_by": list(m.found_by), "spans": _span_json(m.comparison),
                "passages": _passage_json(m.comparison, m.credit),
                **match_json(m),
            } for m in matches[: args.top]],
        })
    if args.json:
        print_json(out)
    else:
        for r in out:
            if r["skipped_reason"]:
                print(f"{r['path']}: skipped: {r['skipped_reason']}")
                continue
            for warning in r["warnings"]:
                print(f"{r['path']}: warning: {warning}")
            if r["flags"]:
                print(f"{r['path']}: flags: {_flags_line(r['flags'])}")
            s = r["summary"]
            own = f", copied from own documents {s['copied_from_own']:.1%}" if s["copied_from_own"] else ""
            print(f"{r['path']}: copied {s['copied_ratio_without_template']:.1%}, copied without own documents "
                  f"{s['copied_from_others']:.1%}{own}, copied without quotations "
                  f"{s['copied_ratio_without_quotes']:.1%}, largest single source {s['largest_source_ratio']:.1%}; "
                  f"{_exclusions_line(r['exclusions']['units'])}")
            if r["label"]:
                print(f"  {r['label']} of {s['resubmission_of']}")
            if not r["matches"]:
                print("  no source found")
            for m in r["matches"]:
                mine = "  (same applicant)" if m["same_applicant"] else ""
                print(f"  share of the submission {m['containment']:.1%}  similarity r {m['similarity']:.3f}  "
                      f"{m['path']}{mine}{decision_words(m['decision'])}")
    return EXIT_SKIPPED if any(r["skipped_reason"] for r in out) else EXIT_OK


def _flags_line(flags: list[dict[str, Any]]) -> str:
    """Integrity flags (as JSON) in words: "replaced characters: 212 in 118 words; hidden text: …"."""
    from neardup_gui.core.flags import Flag
    from neardup_gui.core.report.strings import flag_text, translator

    t = translator("en")
    return "; ".join(flag_text(Flag.from_json(f), t).lower() for f in flags)


def _dask_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask cluster, e.g. tls://host:8786 (needs neardup[cluster]; see docs/scale.md)")
    p.add_argument("--dask-ca", dest="dask_ca", metavar="FILE",
                   help="the CA certificate that signed the scheduler's (PEM; default: dask's configuration)")
    p.add_argument("--dask-cert", dest="dask_cert", metavar="FILE",
                   help="this machine's certificate, signed by that CA (PEM; it may hold the key too)")
    p.add_argument("--dask-key", dest="dask_key", metavar="FILE", help="the private key of --dask-cert (PEM)")
    p.add_argument("--dask-insecure", dest="dask_insecure", action="store_true",
                   help="allow a plain tcp:// scheduler on another machine: every text then crosses the network "
                        "unencrypted")


def _cluster_problem(exc) -> int:
    sys.stderr.write(f"neardup: {exc}\n")
    return EXIT_USAGE


def _pairs_args(p: argparse.ArgumentParser) -> None:
    _common_options(p)
    p.add_argument("--workers", type=int, metavar="N", help="worker processes for the pass (default: number of cores)")
    _dask_option(p)


def _pairs_by_args(p: argparse.ArgumentParser) -> None:
    _pairs_args(p)
    p.add_argument("--by", choices=("similarity", "containment"), default="similarity",
                   help="rank and cut by the similarity r (default) or by the larger containment "
                        "max(A in B, B in A), r beside it; --threshold is then the containment cut (default 0.3)")
    p.add_argument("--applicant", choices=("same", "others"),
                   help="only pairs of one applicant's own documents (resubmissions, duplicate submissions), or "
                        "only the others (copying between applicants, or applicants not known)")
    p.add_argument("--undecided", action="store_true", help="only pairs without a decision of the examiner")


@command("pairs", "List the verified near-duplicate pairs of a collection, best first.", _pairs_by_args)
def run_pairs(args: argparse.Namespace) -> int:
    from neardup_gui.core.dask_connection import ClusterUnavailable
    from neardup_gui.core.collection import CONTAINMENT_CUT
    from neardup_gui.core.store import IndexProblem

    by = getattr(args, "by", "similarity")

    def cut_of(s) -> float:  # noqa: ANN001 - the collection's settings with the options applied
        if args.threshold is not None:
            return args.threshold
        return s.threshold if by == "similarity" else CONTAINMENT_CUT

    try:
        pairs, rules, cut = _on_collection(args, lambda coll, s: (
            coll.pairs(s, StderrProgress(args.quiet), by=by, cut=cut_of(s)), _rules_json(coll, s), cut_of(s)))
    except IndexProblem as exc:
        return _index_problem(exc)
    except ClusterUnavailable as exc:
        return _cluster_problem(exc)
    from neardup_gui.cli_examiner import decision_words, pair_json, wanted_pair

    pairs = [p for p in pairs if wanted_pair(p, args.applicant, args.undecided)]
    if args.json:
        applied = _applied(rules)
        print_json([{"a": p.a.path, "b": p.b.path, "similarity": p.similarity, "containment_a": p.containment_a,
                     "containment_b": p.containment_b, "common_units": p.common_units,
                     "exclusions": {"applied": applied, "units_a": p.a.exclusions.as_dict(),
                                    "units_b": p.b.exclusions.as_dict()}, **pair_json(p)} for p in pairs])
    else:
        for p in pairs:
            mine = "  (same applicant)" if p.same_applicant else ""
            said = decision_words(p.decision.to_json() if p.decision else None)
            if by == "containment":
                inner, outer = (p.a, p.b) if p.containment_a >= p.containment_b else (p.b, p.a)
                print(f"contained {max(p.containment_a, p.containment_b):.1%}  (similarity r {p.similarity:.3f})  "
                      f"{inner.rel}  in  {outer.rel}{mine}{said}")
            else:
                print(f"similarity r {p.similarity:.3f}  {p.a.rel}  ~  {p.b.rel}{mine}{said}")
        from neardup_gui.core.progress import count_noun

        print(f"{count_noun(len(pairs), 'pair')} with {'similarity r' if by == 'similarity' else 'contained'} "
              f"at or above {cut}; {_auto_words(rules)}",
              file=sys.stderr)
    return EXIT_OK


def _applied(rules: dict[str, Any]) -> list[str]:
    """The kinds of exclusion in effect, by name (as in ``Exclusions``)."""
    kinds = [("template_files", bool(rules["template_files"])), ("marked", rules["marked"] > 0),
             ("automatic", rules["automatic"]), ("furniture", rules["furniture"]), ("quotes", rules["quotes"]),
             ("bibliography", rules["bibliography"])]
    return [name for name, on in kinds if on]


def _auto_words(rules: dict[str, Any]) -> str:
    if not rules["automatic"]:
        return "automatic template off (--no-auto-template)"
    return (f"automatic template: sentences in at least {rules['automatic_min_frequency']} documents, "
            f"unless those documents copy one another (see `neardup common`)")


@command("clusters", "Group the collection's near-duplicates (no chaining: each member is similar to the first).", _pairs_args)
def run_clusters(args: argparse.Namespace) -> int:
    from neardup_gui.core.dask_connection import ClusterUnavailable
    from neardup_gui.core.store import IndexProblem

    try:
        clusters = _on_collection(args, lambda coll, s: coll.clusters(s, StderrProgress(args.quiet)))
    except IndexProblem as exc:
        return _index_problem(exc)
    except ClusterUnavailable as exc:
        return _cluster_problem(exc)
    if args.json:
        print_json([{"representative": c.representative.path,
                     "members": [{"path": m.path, "similarity": s} for m, s in zip(c.members, c.similarities)],
                     "ring": c.ring, "pairwise": [list(row) for row in c.pairwise]}
                    for c in clusters])
    else:
        for i, c in enumerate(clusters, 1):
            ring = ": a ring, every pair near-identical" if c.ring else ""
            print(f"cluster {i} ({len(c.members)} documents{ring})")
            for m, s in zip(c.members, c.similarities):
                print(f"  {s:.3f}  {m.rel}")
            if c.ring:
                print("  pairwise: " + "; ".join(
                    f"{c.members[x].rel} ~ {c.members[y].rel} {c.pairwise[x][y]:.3f}"
                    for x in range(len(c.members)) for y in range(x + 1, len(c.members))))
    return EXIT_OK


def _compare_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    _common_options(p, db=False, threshold=False)


@command("compare", "Compare two files exactly (no index needed): similarity, containment, passages.", _compare_args)
def run_compare(args: argparse.Namespace) -> int:
    from neardup_gui.core.collection import compare_files

    for path in (args.a, args.b):
        problem = given_path_problem(path)
        if problem is not None:
            sys.stderr.write(f"neardup: {path}: {problem}\n")
            return EXIT_SKIPPED
    try:
        comp, text_a, text_b = compare_files(args.a, args.b, _settings(args))
    except ValueError as exc:
        sys.stderr.write(f"neardup: {exc}\n")
        return EXIT_SKIPPED
    if args.json:
        print_json({"a": args.a, "b": args.b, "similarity": comp.similarity, "containment_a": comp.containment_a,
                    "containment_b": comp.containment_b, "common_units": comp.common_units,
                    "units_a": comp.units_a, "units_b": comp.units_b, "spans": _span_json(comp),
                    "exclusions": {"applied": _applied(_rules_json(None, _settings(args))),
                                   "rules": _rules_json(None, _settings(args)),
                                   "units_a": comp.exclusions_a.as_dict(), "units_b": comp.exclusions_b.as_dict()},
                    "passages": _passage_json(comp)})
    else:
        print(f"similarity r {comp.similarity:.3f}; A in B {comp.containment_a:.1%}; B in A {comp.containment_b:.1%}; "
              f"identical units {comp.common_units}")
        print(f"A {_exclusions_line(comp.exclusions_a.as_dict())}; B {_exclusions_line(comp.exclusions_b.as_dict())}")
        for p in comp.passages:
            quote = text_a[p.a[0]:p.a[1]].replace("\n", " ")
            size = (f"A {p.units_a} units, B {p.units_b}; {p.matched_units} identical"
                    if p.matched_units < max(p.units_a, p.units_b) else f"{p.units_a} units, identical")
            print(f"  [{size}] {quote[:100]}{'…' if len(quote) > 100 else ''}")
    return EXIT_OK


# --- common passages -------------------------------------------------------------------------


def _common_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--min-docs", type=int, dest="min_docs", metavar="N",
                   help="list passages found in at least N documents (default 5)")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--exclude", metavar="ID", help="mark the passage ID as template (stored in the index)")
    action.add_argument("--count", metavar="ID", help="count the passage ID even if the automatic rule takes it out")
    action.add_argument("--mark", metavar="FILE", help="mark the sentences of a text file as template (stored)")
    action.add_argument("--unmark", type=int, metavar="MARK", help="undo your mark number MARK")
    _common_options(p, threshold=False)


@command("common", "List the passages found in many documents and what is done with them; exclude or count one.",
         _common_args)
def run_common(args: argparse.Namespace) -> int:
    from neardup_gui.core.common_passages import common_passages, find_passage, set_passage
    from neardup_gui.core.store import IndexProblem

    from neardup_gui.core.settings import Settings

    message = ""
    try:
        with _open(args) as coll:
            _say_if_unfinished(coll, args.db)
            settings = _settings(args, coll.settings_for(Settings()))  # the collection's own, options win
            passages = common_passages(coll, settings, min_docs=args.min_docs)
            if args.exclude or args.count:
                wanted = args.exclude or args.count
                try:
                    passage = find_passage(passages, wanted)
                except KeyError:
                    sys.stderr.write(f"neardup: no common passage has the id {wanted} (see `neardup common`)\n")
                    return EXIT_USAGE
                mark = set_passage(coll, passage, "exclude" if args.exclude else "count")
                message = f"mark {mark}: passage {passage.id} {'excluded' if args.exclude else 'counted'}"
            elif args.mark:
                try:
                    text = Path(args.mark).read_text(encoding="utf-8", errors="replace")
                    mark = coll.mark_template(text, "exclude")
                except (OSError, ValueError) as exc:
                    sys.stderr.write(f"neardup: {args.mark}: {exc}\n")
                    return EXIT_USAGE
                message = f"mark {mark}: the sentences of {args.mark} are template"
            elif args.unmark is not None:
                if not coll.unmark(args.unmark):
                    sys.stderr.write(f"neardup: there is no mark {args.unmark}\n")
                    return EXIT_USAGE
                message = f"mark {args.unmark} undone"
            if message:
                passages = common_passages(coll, settings, min_docs=args.min_docs)
            marks = coll.store.template_marks()
            rules = _rules_json(coll, settings)
    except IndexProblem as exc:
        return _index_problem(exc)
    if message:
        print(message, file=sys.stderr)
    if args.json:
        print_json({
            "rules": rules,
            "passages": [{"id": p.id, "status": p.status, "by_examiner": p.by_examiner, "copied": p.copied,
                          "documents": p.documents,
                          "share": p.share, "names": list(p.names), "sentences": len(p.keys), "text": p.text,
                          "marks": list(p.mark_ids)} for p in passages],
            "marks": [{"id": m.id, "action": m.action, "sentences": len(m.keys), "text": m.text} for m in marks],
        })
        return EXIT_OK
    from neardup_gui.core.progress import count_noun

    print(f"{count_noun(len(passages), 'passage')} in at least {args.min_docs or settings.template_min_docs} documents; "
          f"{_auto_words(rules)}")
    for p in passages:
        status = p.status + (" (your choice)" if p.by_examiner else " (copies)" if p.copied else "")
        text = " ".join(p.text.split())
        print(f"{p.id}  {p.documents:5d} docs ({p.share:.0%})  {status:<24}  {text[:70]}{'…' if len(text) > 70 else ''}")
        print(f"{'':18}e.g. {', '.join(p.names[:3])}")
    if marks:
        print("your marks (undo with --unmark MARK):")
        for m in marks:
            text = " ".join(m.text.split())
            print(f"  {m.id:4d}  {m.action:<7}  {count_noun(len(m.keys), 'sentence')}  {text[:60]}{'…' if len(text) > 60 else ''}")
    return EXIT_OK
# --- screen -----------------------------------------------------------------------------------


def _screen_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", metavar="FOLDER", help="the folder of new submissions (a call)")
    p.add_argument("--name", metavar="N", help="the screening's name, kept in the index (default: the folder's name, "
                   "\"name (2)\" when a screening of another folder has it); the same name again resumes or "
                   "refreshes it, and takes over a screening of another folder")
    p.add_argument("--flag", type=float, default=None, metavar="S",
                   help="flag a submission whose copied share (template excluded) reaches S, 0..1 (default 0.3)")
    p.add_argument("--top", type=int, default=0, metavar="N", help="rows to print (default: all)")
    p.add_argument("--workers", type=int, metavar="N", help="extraction processes (default: number of cores)")
    _applicants_option(p, "FOLDER")
    _common_options(p, threshold=False)


def _screened_sources_json(store, screening_id: int, row) -> list[dict[str, Any]]:  # noqa: ANN001
    """A screened submission's sources with their credit, counted ones first (as the window lists them)."""
    from neardup_gui.core.screening import submission_detail

    if row.status != "done":
        return []
    detail = submission_detail(store, screening_id, row.rel)
    counted = {s.rank: s for s in detail.counted()}
    return [{"path": s.path, "kind": s.kind, "credited": counted[s.rank].credit.share if s.rank in counted else 0.0,
             "containment": s.containment, "similarity": s.similarity, "excluded": s.excluded,
             "also_in": sorted({o for names in counted[s.rank].credit.also_in for o in names}) if s.rank in counted else [],
             "applicants": s.applicants.to_json(), "same_applicant": s.same_applicant,
             "decision": s.decision.to_json() if s.decision else None}
            for s in detail.sources]


@command("screen", "Screen a folder of new submissions against the collection and each other: a ranked table.",
         _screen_args)
def run_screen(args: argparse.Namespace) -> int:
    from neardup_gui.core.progress import Cancelled
    from neardup_gui.core.screening import DEFAULT_FLAG, screen_folder
    from neardup_gui.core.store import IndexProblem

    if not os.path.isdir(args.folder):
        sys.stderr.write(f"neardup: {args.folder} is not a folder\n")
        return EXIT_USAGE
    flag = DEFAULT_FLAG if args.flag is None else args.flag
    if not 0.0 <= flag <= 1.0:
        sys.stderr.write("neardup: --flag is a share between 0 and 1\n")
        return EXIT_USAGE
    from neardup_gui.cli_examiner import keep_applicants, label_of, read_applicants

    applicants = read_applicants(args, os.path.abspath(args.folder))

    def screen(coll, s):  # noqa: ANN001, ANN202
        # (the call's applicants first: its figures are made with them)
        keep_applicants(args, coll.store, applicants, {})
        return screen_folder(coll, args.folder, s, name=args.name, flag=flag, progress=StderrProgress(args.quiet))

    try:
        screening = _on_collection(args, screen, create=True)
    except IndexProblem as exc:
        return _index_problem(exc)
    except Cancelled:
        return EXIT_INTERRUPTED
    rows = screening.rows[: args.top] if args.top else screening.rows
    if args.json:
        from neardup_gui.core.store import Store

        with Store(args.db, create=False) as store:
            listed = {r.rel: _screened_sources_json(store, screening.info.id, r) for r in rows}
        print_json({
            "name": screening.info.name, "folder": screening.info.folder, "flag": screening.info.flag,
            "submissions": [{
                "rank": i, "path": r.path, "rel": r.rel, "status": r.status, "reason": r.reason or None,
                "units": r.units, "copied": r.copied, "copied_overall": r.copied_overall,
                "copied_without_quotes": r.copied_without_quotes, "largest_source_ratio": r.largest,
                "largest_source": r.largest_source or None, "sources": r.sources,
                "template_share": r.template_share, "flagged": r.flagged(screening.info.flag),
                # the copied share split by whose the credited text is (the flag is by others')
                "copied_from_others": r.copied_from_others, "copied_from_own": r.copied_from_own,
                "set_apart_ratio": r.set_apart, "resubmission_of": r.resubmission_of or None,
                "label": label_of(r.resubmission_of), "applicants": r.applicants.to_json(),
                "decided_sources": r.decided, "undecided_sources": r.undecided,
                "warnings": list(r.warnings), "sha256": r.sha256, "flags": [f.to_json() for f in r.flags],
                "source_list": listed[r.rel],
            } for i, r in enumerate(rows, 1)],
            "other_files": list(screening.others),
        })
    elif not screening.rows:
        from neardup_gui.core.extract import READ_SUFFIXES

        print(f"no submissions in {screening.info.folder}: it holds no "
              f"{', '.join(READ_SUFFIXES)} files", file=sys.stderr)
        if screening.others:
            print(other_files_line(screening.others, screening.info.folder), file=sys.stderr)
        return EXIT_SKIPPED  # (nothing was found where that is the question)
    else:
        from neardup_gui.core.progress import count_noun

        print(f"{'rank':>4}  {'copied':>7}  {'copied without own documents':>28}  {'largest single source':>21}  "
              f"{'sources':>7}  submission  (largest source)")
        for i, r in enumerate(rows, 1):
            if r.status != "done":
                print(f"{i:>4}  {'':>7}  {'':>28}  {'':>21}  {'':>7}  {r.rel}: skipped: {r.reason}")
                continue
            mark = " !" if r.flagged(screening.info.flag) else "  "
            largest = os.path.basename(r.largest_source) if r.largest_source else "-"
            warn = f"  [{'; '.join(r.warnings)}]" if r.warnings else ""
            flags = f"  [flags: {_flags_line([f.to_json() for f in r.flags])}]" if r.flags else ""
            label = f"  [{label_of(r.resubmission_of)} of {os.path.basename(r.resubmission_of)}]" if r.resubmission_of else ""
            print(f"{i:>4}{mark}{r.copied:>7.1%}  {r.copied_from_others:>28.1%}  {r.largest:>21.1%}  {r.sources:>7}  "
                  f"{r.rel}  ({largest}){label}{warn}{flags}")
        flagged = len(screening.flagged())
        print(f"{count_noun(len(screening.rows), 'submission')} screened as {screening.info.name!r}; {flagged} flagged "
              f"(!): copied without own documents at or above the flag line, {screening.info.flag:.0%}", file=sys.stderr)
        if screening.others:
            print(other_files_line(screening.others, screening.info.folder), file=sys.stderr)
    return EXIT_SKIPPED if any(r.status != "done" for r in screening.rows) else EXIT_OK


# --- report -----------------------------------------------------------------------------------


def _report_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="R", help="the report file: .html, .csv, .json or .pdf")
    p.add_argument("--scope", choices=("check", "pairs", "clusters"),
                   help="what to report (default: check when --check is given, else pairs)")
    p.add_argument("--check", nargs="+", metavar="FILE", default=[], help="submissions to check and report")
    p.add_argument("--screening", metavar="N", help="report a screening kept in the index (see `screen`): its "
                   "ranked table, or with --submission one submission's committee report")
    p.add_argument("--submission", metavar="REL", help="with --screening: the submission (its name in the folder)")
    p.add_argument("--lang", choices=("en", "zh_CN"), default="en", help="the report's language (default en)")
    _common_options(p)


@command("report", "Write a duplicate report (HTML, PDF, CSV or JSON) of a check, the pairs or the clusters.", _report_args)
def run_report(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from neardup_gui.core.report import build_report, format_for
    from neardup_gui.core.store import IndexProblem

    scope = args.scope or ("check" if args.check else "pairs")
    try:
        fmt = format_for(args.out)
    except ValueError as exc:
        sys.stderr.write(f"neardup: {exc}\n")
        return EXIT_USAGE
    if args.submission and not args.screening:
        sys.stderr.write("neardup: --submission needs the screening it belongs to: --screening N\n")
        return EXIT_USAGE
    problem = output_problem(args.out)
    if problem is not None:  # (said before the work, not after it)
        sys.stderr.write(f"neardup: cannot write {args.out}: {problem}\n")
        return EXIT_USAGE
    if args.screening:
        return _committee_report(args, fmt)
    if scope == "check" and not args.check:
        sys.stderr.write("neardup: a check report needs the submissions: --check FILE…\n")
        return EXIT_USAGE
    settings = _settings(args)
    progress = StderrProgress(args.quiet)
    try:
        with _open(args) as coll:
            _say_if_unfinished(coll, args.db)
            settings = _settings(args, coll.settings_for(settings))  # the collection's own values
            items = None
            skipped = False
            if scope == "check":
                results = coll.check(args.check, settings, progress)
                skipped = any(r.skipped_reason for r in results)
                if args.threshold is not None:  # as `check` does: keep sources at or above T
                    results = [replace(r, matches=tuple(
                        m for m in r.matches
                        if max(m.comparison.similarity, m.comparison.containment_a) >= args.threshold))
                        for r in results]
                items = results
            report = build_report(coll, scope, settings, items=items, progress=progress, lang=args.lang)
    except IndexProblem as exc:
        return _index_problem(exc)
    try:
        pages = _write_out(report, args.out, fmt)
    except OSError as exc:
        return _not_written(args.out, exc)
    counts = report.summary.counts
    if args.json:
        print_json({"out": args.out, "format": fmt, "scope": scope, "pairs": counts["pairs"],
                    "passages": counts["passages"], "pages": pages})
    else:
        print(f"wrote {args.out}: {counts['pairs']} pairs, {counts['passages']} matched passages"
              + (f", {pages} pages" if pages else ""))
    return EXIT_SKIPPED if skipped else EXIT_OK


def output_problem(path: str) -> str | None:
    """Why a report cannot be written at ``path`` (its folder missing, not writable; a folder
    there), or None."""
    target = Path(path).expanduser()
    parent = target.parent if str(target.parent) else Path(".")
    try:
        if target.is_dir():
            return "it is a folder"
    except OSError as exc:  # (a name longer than the file system allows: before, a traceback)
        return (exc.strerror or str(exc)).lower()
    if not parent.exists():
        return f"no such folder: {parent}"
    if not parent.is_dir():
        return f"not a folder: {parent}"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"no permission to write in {parent}"
    return None


def _write_out(report, path: str, fmt: str) -> int | None:  # noqa: ANN001 — any report model
    """Write ``report`` as ``fmt`` at ``path`` (whole or not at all); the PDF's number of pages."""
    if fmt == "pdf":
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no window is ever shown
        from neardup_gui.qtpdf import write_pdf

        return write_pdf(report, path)
    from neardup_gui.core.report import write_report

    write_report(report, path, fmt)
    return None


def _not_written(path: str, exc: OSError) -> int:
    why = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror or str(exc)
    sys.stderr.write(f"neardup: cannot write {path}: {why}; nothing was written\n")
    return EXIT_USAGE


def _committee_report(args: argparse.Namespace, fmt: str) -> int:
    """`report --screening N [--submission REL]`: the committee's report of a screening."""
    from neardup_gui.core.report.committee import build_screening_report, build_submission_report
    from neardup_gui.core.store import IndexProblem

    def build(coll, settings):  # noqa: ANN001, ANN202
        if args.submission:
            return build_submission_report(coll.store, args.screening, args.submission, settings, lang=args.lang)
        return build_screening_report(coll.store, args.screening, settings, lang=args.lang)

    try:
        report = _on_collection(args, build)
    except IndexProblem as exc:
        return _index_problem(exc)
    except KeyError as exc:
        sys.stderr.write(f"neardup: {exc.args[0] if exc.args else exc}\n")
        return EXIT_USAGE
    try:
        pages = _write_out(report, args.out, fmt)
    except OSError as exc:
        return _not_written(args.out, exc)
    if args.json:
        print_json({"out": args.out, "format": fmt, "scope": "submission" if args.submission else "screening",
                    "pages": pages})
    else:
        print(f"wrote {args.out}" + (f", {pages} pages" if pages else ""))
    return EXIT_OK


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


if __name__ == "__main__":
    # (through the module as imported: the commands of cli_examiner register with it, not with __main__)
    from neardup_gui.cli import main as _main

    raise SystemExit(_main())
