"""The command line's part of the examiner's records: applicants (`--applicants CSV`, `applicants`)
and decisions (`decide`), and how results show them in words and in JSON.

Registered with the other commands by :mod:`neardup_gui.cli` (its ``COMMANDS``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from typing import TYPE_CHECKING, Any

from neardup_gui.cli import EXIT_OK, EXIT_SKIPPED, EXIT_USAGE, _index_problem, _open, command, print_json

if TYPE_CHECKING:
    from neardup_gui.core.applicants import CsvApplicants
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.results import Pair
    from neardup_gui.core.store import Store


# --- applicants from a CSV (index, add, screen) ---------------------------------------------------


def applicants_option(p: argparse.ArgumentParser, where: str) -> None:
    p.add_argument("--applicants", metavar="CSV",
                   help=f"a CSV of `path,applicant` lines naming each file's applicants (paths relative to {where}; "
                        "several applicants separated by ';'); kept in the index. Without it, a file's own metadata "
                        "(its author) names them")


def read_applicants(args: argparse.Namespace, folder: str) -> Any:
    """The CSV of ``--applicants`` as read (before any work: a file given wrong stops nothing
    done yet); None without the option. Raises ``ApplicantsFileError`` when it cannot be read at
    all (``main`` says so, a usage error)."""
    from neardup_gui.core.applicants import read_applicants_csv

    if not getattr(args, "applicants", None):
        return None
    return read_applicants_csv(args.applicants, folder)


def keep_applicants(args: argparse.Namespace, store: Store, table: CsvApplicants | None, contents: dict[str, str]
                    ) -> dict[str, Any] | None:
    """Keep a read CSV's applicants (``table``, of ``args.applicants``) in the index (``store``:
    the collection's), say what was kept and what was not on stderr, and make the figures of the
    screenings it touches again; what `--json` reports of it. ``contents``: sha256 of files
    already read, by path."""
    if table is None:  # (before the imports: the screenings module is not needed then)
        return None
    from neardup_gui.core.applicants import import_applicants
    from neardup_gui.core.screening import refigure_files

    imported = import_applicants(store, table, contents)
    refigure_files(store, imported.changed)
    for problem in imported.problems:
        sys.stderr.write(f"neardup: {args.applicants}: {problem}\n")
    if not getattr(args, "quiet", False):
        sys.stderr.write(f"applicants of {imported.files} file(s) kept in the index "
                         f"({len(imported.changed)} changed)\n")
    return {"files": imported.files, "changed": len(imported.changed), "problems": list(imported.problems)}


# --- what results say of them ------------------------------------------------------------------------


def decision_words(decision: dict[str, Any] | None) -> str:
    """A decision (as JSON) in a few words, for the plain output; "" for none."""
    if not decision:
        return ""
    changed = " (text changed since: not applied)" if decision["text_changed_since"] else ""
    return f"  [decided: {decision['decision']}{changed}]"


def wanted_pair(p: Pair, applicant: str | None, undecided: bool) -> bool:
    """`pairs --applicant same|others --undecided`: whether the pair is listed."""
    if applicant is not None and p.same_applicant != (applicant == "same"):
        return False
    return not undecided or p.decision is None or p.decision.changed


# --- `neardup applicants` -------------------------------------------------------------------------------


def _applicants_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="the files to name (default with no action: list "
                   "every document of the collection)")
    p.add_argument("--db", required=True, metavar="F", help="the index file of the collection")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--set", metavar="NAMES", help="name the files' applicants (several separated by ';')")
    action.add_argument("--none", action="store_true", help="the files have no applicant (their metadata is not used)")
    action.add_argument("--metadata", action="store_true",
                        help="forget what was said of the files: their own metadata names their applicants again")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")


@command("applicants", "List or name the applicants of documents (kept in the index; a CSV: `index --applicants`).",
         _applicants_args)
def run_applicants(args: argparse.Namespace) -> int:
    from neardup_gui.core.applicants import set_applicants, split_names
    from neardup_gui.core.screening import refigure_files
    from neardup_gui.core.store import IndexProblem

    acting = args.set is not None or args.none or args.metadata
    if acting and not args.files:
        sys.stderr.write("neardup: name the files to set the applicants of\n")
        return EXIT_USAGE
    try:
        with _open(args) as coll:
            indexed = {d.path: d for d in coll.documents()}
            files = [os.path.abspath(f) for f in args.files]
            if acting:
                missing = [f for f in files if f not in indexed and not os.path.isfile(f)]
                if missing:
                    sys.stderr.write("neardup: not a file: " + ", ".join(missing) + "\n")
                    return EXIT_USAGE
                names = None if args.metadata else () if args.none else split_names(args.set)
                changed = set_applicants(coll.store, [(f, file_identity(coll, f)[0]) for f in files], names)
                refigure_files(coll.store, changed)
                indexed = {d.path: d for d in coll.documents()}
            book = coll.records().applicants
            listed = [(f, indexed[f].applicants if f in indexed else book.of(f, file_identity(coll, f)[0]))
                      for f in (files or sorted(indexed))]
    except IndexProblem as exc:
        return _index_problem(exc)
    if args.json:
        print_json([{"path": path, **a.to_json()} for path, a in listed])
    else:
        for path, a in listed:
            print(f"{path}: {a.text() or '-'}" + (f"  ({a.source})" if a.source else ""))
    return EXIT_OK


def file_identity(coll: Collection, path: str) -> tuple[str, str]:
    """(sha256, absolute path) of a file: the index's for a document of it, a screening's for a
    submission, else its content read now ("" when it cannot be read)."""
    from neardup_gui.core.store import examiner

    path = os.path.abspath(path)
    known = examiner.known_content(coll.store, path)
    if known:
        return known, path
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest(), path
    except OSError:
        return "", path


def _content_now(coll: Collection, path: str, decided: str) -> tuple[str, str]:
    """(sha256, path) of a file as it is now: read again when it is there, else as the index
    knows it, else as it was decided on (a file gone: nothing tells it changed)."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest(), path
    except OSError:
        from neardup_gui.core.store import examiner

        return examiner.known_content(coll.store, path) or decided, path


# --- `neardup decide` -------------------------------------------------------------------------------------


def _decide_args(p: argparse.ArgumentParser) -> None:
    from neardup_gui.core.decisions import CHOICES

    p.add_argument("files", nargs="*", metavar="FILE", help="the two documents decided on (a pair of the "
                   "collection, or a submission and its source); none with --list")
    p.add_argument("--db", required=True, metavar="F", help="the index file of the collection")
    action = p.add_mutually_exclusive_group(required=True)
    action.add_argument("--as", dest="choice", choices=tuple(CHOICES),
                        help="the decision: copying confirmed; permitted as the applicant's own work, cited, or "
                             "common knowledge; or not relevant (permitted and not relevant text leaves the copied "
                             "share)")
    action.add_argument("--undo", action="store_true", help="take the decision on the two documents back")
    action.add_argument("--list", action="store_true", help="list every decision")
    p.add_argument("--note", default="", metavar="TEXT", help="the examiner's note, printed in the reports")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")


@command("decide", "Record the examiner's decision on two documents: copying confirmed, permitted, or not relevant.",
         _decide_args)
def run_decide(args: argparse.Namespace) -> int:
    from neardup_gui.core.decisions import decide
    from neardup_gui.core.screening import refigure_files
    from neardup_gui.core.store import IndexProblem, examiner

    if args.list:
        try:
            with _open(args) as coll:
                rows = examiner.decision_rows(coll.store)
                book = coll.records().decisions
        except IndexProblem as exc:
            return _index_problem(exc)
        # (each against its files as they are now: a text changed since is said)
        listed = [(a_path, b_path, book.on(_content_now(coll, a_path, a), _content_now(coll, b_path, b)))
                  for a, b, a_path, b_path, *_ in rows]
        if args.json:
            print_json([{"a": a, "b": b, **d.to_json()} for a, b, d in listed])
        else:
            for a, b, d in listed:
                print(f"{d.date()}  {d.choice}  {a}  ~  {b}" + (f"  ({d.note})" if d.note else ""))
        return EXIT_OK
    if len(args.files) != 2:
        sys.stderr.write("neardup: a decision is taken on two documents: FILE FILE\n")
        return EXIT_USAGE
    try:
        with _open(args) as coll:
            a, b = (file_identity(coll, f) for f in args.files)
            unread = [p for sha, p in (a, b) if not sha]
            if unread:
                sys.stderr.write("neardup: neither in the index nor a file that can be read: " + ", ".join(unread) + "\n")
                return EXIT_USAGE
            decision = decide(coll.store, a, b, None if args.undo else args.choice, args.note)
            updated = refigure_files(coll.store, [(a[1], a[0]), (b[1], b[0])])
    except IndexProblem as exc:
        return _index_problem(exc)
    if args.json:
        print_json({"a": a[1], "b": b[1], "decision": decision.to_json() if decision else None,
                    "screened_rows_updated": updated})
    elif decision is None:
        print(f"decision taken back: {a[1]} ~ {b[1]}")
    else:
        print(f"decided {decision.choice}: {a[1]} ~ {b[1]}" + (f" ({decision.note})" if decision.note else "")
              + (f"; {updated} screened submission(s) updated" if updated else ""))
    return EXIT_OK if decision is not None or args.undo else EXIT_SKIPPED
