"""The `neardup` command line: the same core as the window, without one.

Results go to stdout (``--json`` for machine-readable output), progress and diagnostics to
stderr. Exit codes: 0 success; 1 some input was skipped or nothing was found where that is the
question; 2 usage error; 3 the index cannot be used (corrupt, too new, busy); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
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
    from neardup_gui.core.settings import ExtractLimits
    from neardup_gui.core.workers import extract_many

    limits = ExtractLimits()
    if args.timeout:
        limits = replace(limits, time_limit_s=args.timeout)
    results = dict(extract_many(list(dict.fromkeys(args.files)), limits, args.workers))
    ordered = [(path, results[path]) for path in dict.fromkeys(args.files)]
    skipped = any(isinstance(r, Skipped) for _, r in ordered)
    if args.json:
        print_json([
            {"path": path, "status": "skipped", "reason": r.reason, "code": r.code, "format": None, "meta": {}, "text": None}
            if isinstance(r, Skipped)
            else {"path": path, "status": "extracted", "reason": None, "code": None, "format": r.format,
                  "meta": r.meta, "text": r.text}
            for path, r in ordered
        ])
        return EXIT_SKIPPED if skipped else EXIT_OK
    several = len(ordered) > 1
    for path, r in ordered:
        if isinstance(r, Skipped):
            sys.stderr.write(f"{path}: skipped: {r.reason}\n")
            continue
        if several:
            sys.stdout.write(f"==> {path} <==\n")
        sys.stdout.write(r.text + "\n")
    return EXIT_SKIPPED if skipped else EXIT_OK



# --- index / check / pairs / clusters / compare ------------------------------------------------


def _settings(args: argparse.Namespace):
    """Settings from the command line's options (defaults for what is not given)."""
    from neardup_gui.core.settings import FingerprintParams, Settings

    s = Settings()
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
    if getattr(args, "bits", None):
        changes["fingerprints"] = FingerprintParams(**{**s.fingerprints.to_dict(), "minhash_bits": args.bits})
    return s.with_(**changes)


def _common_options(p: argparse.ArgumentParser, *, db: bool = True, threshold: bool = True) -> None:
    if db:
        p.add_argument("--db", required=True, metavar="F", help="the index file of the collection")
    if threshold:
        p.add_argument("--threshold", type=float, metavar="T", help="similarity to report, 0..1 (default 0.7)")
    p.add_argument("--min-run", type=int, dest="min_run", metavar="N", help="minimum units in a matched passage (default 8)")
    p.add_argument("--template", action="append", metavar="FILE", help="a template file whose text never counts (repeatable)")
    p.add_argument("--exclude-quotes", action="store_true", help="do not count quoted text")
    p.add_argument("--exclude-bibliography", action="store_true", help="do not count the bibliography")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _open(args: argparse.Namespace, *, create: bool = False):
    from neardup_gui.core.collection import Collection

    return Collection.open(args.db, create=create)


def _index_problem(exc) -> int:
    sys.stderr.write(f"neardup: {exc}\n")
    return EXIT_INDEX


def _on_collection(args: argparse.Namespace, work: Callable[[Any, Any], Any], *, create: bool = False) -> Any:
    """Open the index of ``--db``, run ``work(collection, settings)`` and close it again.

    Raises ``IndexProblem`` (damaged, too new, busy, full, read-only) for the caller to report.
    """
    settings = _settings(args)
    with _open(args, create=create) as coll:
        return work(coll, settings)


def _span_json(comp) -> list[dict[str, Any]]:
    return [{"a": list(s.a), "b": list(s.b), "units": s.units} for s in comp.spans]


def _passage_json(comp) -> list[dict[str, Any]]:
    """Edited passages: character spans, units covered in each text, identical units, and the
    identical runs inside (what lies between them was edited)."""
    return [{"a": list(p.a), "b": list(p.b), "units_a": p.units_a, "units_b": p.units_b,
             "identical_units": p.matched_units,
             "runs": [{"a": list(r.a), "b": list(r.b), "units": r.units} for r in p.runs]}
            for p in comp.passages]


def _index_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", metavar="DIR", help="the folder of submissions")
    p.add_argument("--db", required=True, metavar="F", help="the index file (created if missing)")
    p.add_argument("--workers", type=int, metavar="N", help="extraction processes (default: number of cores)")
    p.add_argument("--bits", type=int, metavar="K", help="size of the 1-bit minwise fingerprint (64..1024)")
    p.add_argument("--json", action="store_true", help="machine-readable summary on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


@command("index", "Index a folder (incremental: only new and changed files are read).", _index_args)
def run_index(args: argparse.Namespace) -> int:
    from neardup_gui.core.store import IndexProblem

    settings = _settings(args)
    try:
        with _open(args, create=True) as coll:
            report = coll.index_folder(args.folder, settings, StderrProgress(args.quiet))
            stats = coll.stats()
    except IndexProblem as exc:
        return _index_problem(exc)
    if args.json:
        print_json({
            "folder": args.folder, "db": args.db, "documents": stats["documents"], "indexed": stats["indexed"],
            "added": report.added, "updated": report.updated, "moved": report.moved, "removed": report.removed,
            "unchanged": report.unchanged, "refingerprinted": report.refingerprinted,
            "skipped": [{"path": s.path, "code": s.code, "reason": s.reason} for s in report.skipped],
            "elapsed_s": round(report.elapsed_s, 3),
        })
    else:
        print(f"{stats['indexed']} documents indexed in {args.db} ({report.added} added, {report.updated} updated, "
              f"{report.moved} moved, {report.removed} removed, {report.unchanged} unchanged) in {report.elapsed_s:.1f} s")
        if report.skipped:
            print(f"{len(report.skipped)} skipped:")
            for s in report.skipped:
                print(f"  {s.path}: {s.reason}")
    return EXIT_SKIPPED if report.skipped else EXIT_OK


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
    # the files are read (and fingerprinted) in worker processes from now on, while the index
    # opens and loads
    runs = start_extraction(list(dict.fromkeys(os.path.abspath(f) for f in args.files)), settings.limits,
                            max(1, min(settings.workers, len(args.files))),
                            prepare=(SUBMISSION_PREPARE, settings.fingerprints))
    try:
        with _open(args) as coll:
            results = coll.check(args.files, settings, progress, extraction=runs)
    except IndexProblem as exc:
        return _index_problem(exc)
    finally:
        runs.close()
    threshold = args.threshold
    out = []
    for r in results:
        matches = [m for m in r.matches if threshold is None or max(m.comparison.similarity, m.comparison.containment_a) >= threshold]
        out.append({
            "path": r.path, "units": r.units, "skipped_reason": r.skipped_reason or None,
            "summary": {
                "copied_ratio": r.summary.copied_ratio,
                "copied_ratio_without_quotes": r.summary.copied_ratio_without_quotes,
                "copied_ratio_without_template": r.summary.copied_ratio_without_template,
                "largest_source_ratio": r.summary.largest_source_ratio,
                "largest_source": r.summary.largest_source or None,
                "template_share": r.summary.template_share,
            },
            "matches": [{
                "path": m.source.path, "similarity": m.comparison.similarity,
                "containment": m.comparison.containment_a, "source_containment": m.comparison.containment_b,
                "common_units": m.comparison.common_units, "template_share": m.comparison.template_share_b,
                "estimate": m.estimate, "found_by": list(m.found_by), "spans": _span_json(m.comparison),
                "passages": _passage_json(m.comparison),
            } for m in matches[: args.top]],
        })
    if args.json:
        print_json(out)
    else:
        for r in out:
            if r["skipped_reason"]:
                print(f"{r['path']}: skipped: {r['skipped_reason']}")
                continue
            s = r["summary"]
            print(f"{r['path']}: copied {s['copied_ratio_without_template']:.1%} (template excluded), "
                  f"largest source {s['largest_source_ratio']:.1%}")
            if not r["matches"]:
                print("  no source found")
            for m in r["matches"]:
                print(f"  {m['similarity']:.3f} similarity  {m['containment']:.3f} contained  {m['path']}")
    return EXIT_SKIPPED if any(r.skipped_reason for r in results) else EXIT_OK


def _pairs_args(p: argparse.ArgumentParser) -> None:
    _common_options(p)


@command("pairs", "List the verified near-duplicate pairs of a collection, best first.", _pairs_args)
def run_pairs(args: argparse.Namespace) -> int:
    from neardup_gui.core.store import IndexProblem

    settings = _settings(args)
    try:
        pairs = _on_collection(args, lambda coll, s: coll.pairs(s, StderrProgress(args.quiet)))
    except IndexProblem as exc:
        return _index_problem(exc)
    if args.json:
        print_json([{"a": p.a.path, "b": p.b.path, "similarity": p.similarity, "containment_a": p.containment_a,
                     "containment_b": p.containment_b, "common_units": p.common_units} for p in pairs])
    else:
        for p in pairs:
            print(f"{p.similarity:.3f}  {p.a.rel}  ~  {p.b.rel}")
        print(f"{len(pairs)} pairs at or above {settings.threshold}", file=sys.stderr)
    return EXIT_OK


@command("clusters", "Group the collection's near-duplicates (no chaining: each member is similar to the first).", _pairs_args)
def run_clusters(args: argparse.Namespace) -> int:
    from neardup_gui.core.store import IndexProblem

    try:
        clusters = _on_collection(args, lambda coll, s: coll.clusters(s, StderrProgress(args.quiet)))
    except IndexProblem as exc:
        return _index_problem(exc)
    if args.json:
        print_json([{"representative": c.representative.path,
                     "members": [{"path": m.path, "similarity": s} for m, s in zip(c.members, c.similarities)]}
                    for c in clusters])
    else:
        for i, c in enumerate(clusters, 1):
            print(f"cluster {i} ({len(c.members)} documents)")
            for m, s in zip(c.members, c.similarities):
                print(f"  {s:.3f}  {m.rel}")
    return EXIT_OK


def _compare_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    _common_options(p, db=False, threshold=False)


@command("compare", "Compare two files exactly (no index needed): similarity, containment, passages.", _compare_args)
def run_compare(args: argparse.Namespace) -> int:
    from neardup_gui.core.collection import compare_files

    try:
        comp, text_a, text_b = compare_files(args.a, args.b, _settings(args))
    except ValueError as exc:
        sys.stderr.write(f"neardup: {exc}\n")
        return EXIT_SKIPPED
    if args.json:
        print_json({"a": args.a, "b": args.b, "similarity": comp.similarity, "containment_a": comp.containment_a,
                    "containment_b": comp.containment_b, "common_units": comp.common_units,
                    "units_a": comp.units_a, "units_b": comp.units_b, "spans": _span_json(comp),
                    "passages": _passage_json(comp)})
    else:
        print(f"similarity {comp.similarity:.3f}; {comp.containment_a:.1%} of A is in B; {comp.containment_b:.1%} of B is in A")
        for p in comp.passages:
            quote = text_a[p.a[0]:p.a[1]].replace("\n", " ")
            edited = f", {p.matched_units} identical" if p.matched_units < max(p.units_a, p.units_b) else ""
            print(f"  [{p.units_a} units{edited}] {quote[:100]}{'…' if len(quote) > 100 else ''}")
    return EXIT_OK


# --- report -----------------------------------------------------------------------------------


def _report_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="R", help="the report file: .html, .csv, .json or .pdf")
    p.add_argument("--scope", choices=("check", "pairs", "clusters"),
                   help="what to report (default: check when --check is given, else pairs)")
    p.add_argument("--check", nargs="+", metavar="FILE", default=[], help="submissions to check and report")
    _common_options(p)


@command("report", "Write a duplicate report (HTML, PDF, CSV or JSON) of a check, the pairs or the clusters.", _report_args)
def run_report(args: argparse.Namespace) -> int:
    import os
    from dataclasses import replace

    from neardup_gui.core.report import build_report, format_for, write_report
    from neardup_gui.core.store import IndexProblem

    scope = args.scope or ("check" if args.check else "pairs")
    try:
        fmt = format_for(args.out)
    except ValueError as exc:
        sys.stderr.write(f"neardup: {exc}\n")
        return EXIT_USAGE
    if scope == "check" and not args.check:
        sys.stderr.write("neardup: a check report needs the submissions: --check FILE…\n")
        return EXIT_USAGE
    settings = _settings(args)
    progress = StderrProgress(args.quiet)
    try:
        with _open(args) as coll:
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
            report = build_report(coll, scope, settings, items=items, progress=progress)
    except IndexProblem as exc:
        return _index_problem(exc)
    pages = None
    if fmt == "pdf":
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no window is ever shown
        from neardup_gui.qtpdf import write_pdf

        pages = write_pdf(report, args.out)
    else:
        write_report(report, args.out, fmt)
    counts = report.summary.counts
    if args.json:
        print_json({"out": args.out, "format": fmt, "scope": scope, "pairs": counts["pairs"],
                    "passages": counts["passages"], "pages": pages})
    else:
        print(f"wrote {args.out}: {counts['pairs']} pairs, {counts['passages']} matched passages"
              + (f", {pages} pages" if pages else ""))
    return EXIT_SKIPPED if skipped else EXIT_OK


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
