"""`extract`, `index` and `add`: reading files and keeping them in an index."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING

from neardup_gui.cli.common import (
    _applicants_option,
    _cluster_problem,
    command,
    _dask_option,
    EXIT_OK,
    EXIT_SKIPPED,
    EXIT_USAGE,
    _flags_line,
    given_path_problem,
    _index_problem,
    _open,
    other_files_line,
    print_json,
    _ProgressLine,
    _settings,
    StderrProgress,
)

if TYPE_CHECKING:
    from neardup_gui.core.scan import FolderUnavailable

log = logging.getLogger(__name__)

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
            kept = keep_applicants(args, coll.store, applicants,
                                   {} if applicants is None else {d.path: d.sha256 for d in coll.documents()})
    except IndexProblem as exc:
        return _index_problem(exc)
    except ClusterUnavailable as exc:
        return _cluster_problem(exc)
    except FolderUnavailable as exc:
        return _folder_unavailable(exc, args.db)
    if args.json:
        print_json(report.to_json(folder=args.folder, db=args.db, documents=stats["documents"],
                                  indexed=stats["indexed"], applicants=kept))
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


def _other_folder(old: str | None, folder: str) -> str | None:
    """``old``, the folder an index was made of, when it is another one that still exists."""
    if not old or os.path.normpath(old) == os.path.normpath(folder) or not os.path.isdir(old):
        return None
    return old


def _folder_unavailable(exc: FolderUnavailable, db: str) -> int:
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
        print_json([a.to_json(skipped.get(a.doc_id)) for a in added])
    else:
        words = {"copied": "copied into the folder as", "external": "kept where it is, as an external member:",
                 "inside": "already in the folder:"}
        for a in added:
            print(f"{a.source}: {words[a.how]} {a.member}" + (f" (skipped: {skipped[a.doc_id]})" if a.doc_id in skipped else ""))
    return EXIT_SKIPPED if any(a.doc_id in skipped for a in added) else EXIT_OK
