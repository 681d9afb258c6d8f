"""`screen` and `report`: a call screened against the collection, and the reports written of it."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from neardup_gui.cli.common import (
    _applicants_option,
    command,
    _common_options,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SKIPPED,
    EXIT_USAGE,
    _flags_line,
    _index_problem,
    _on_collection,
    _open,
    other_files_line,
    print_json,
    _say_if_unfinished,
    _settings,
    StderrProgress,
)

if TYPE_CHECKING:
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.report.committee import ScreeningReport, SubmissionReport
    from neardup_gui.core.screening import Screening, ScreeningRow
    from neardup_gui.core.settings import Settings
    from neardup_gui.core.store import Store

log = logging.getLogger(__name__)

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


def _screened_sources_json(store: Store, screening_id: int, row: ScreeningRow) -> list[dict[str, Any]]:
    """A screened submission's sources with their credit (as the window lists them)."""
    from neardup_gui.core.screening import submission_detail

    if row.status != "done":
        return []
    return submission_detail(store, screening_id, row.rel).sources_json()


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
    from neardup_gui.cli_examiner import keep_applicants, read_applicants
    from neardup_gui.core.results import resubmission_label

    applicants = read_applicants(args, os.path.abspath(args.folder))

    def screen(coll: Collection, s: Settings) -> Screening:
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
        print_json(screening.to_json(rows, listed))
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
            label = f"  [{resubmission_label(r.resubmission_of)} of {os.path.basename(r.resubmission_of)}]" if r.resubmission_of else ""
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


def _write_out(report: object, path: str, fmt: str) -> int | None:  # (any report model)
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

    def build(coll: Collection, settings: Settings) -> SubmissionReport | ScreeningReport:
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
