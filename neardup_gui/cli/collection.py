"""`check`, `pairs` and `clusters`: the answers of an indexed collection."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING

from neardup_gui.cli.common import (
    _applied,
    _auto_words,
    _cluster_problem,
    command,
    _common_options,
    _dask_option,
    _exclusions_line,
    EXIT_OK,
    EXIT_SKIPPED,
    _flags_line,
    given_path_problem,
    _index_problem,
    _on_collection,
    _open,
    print_json,
    _rules_json,
    _say_if_unfinished,
    _settings,
    StderrProgress,
)

if TYPE_CHECKING:
    from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

def _check_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="submissions to check")
    p.add_argument("--top", type=int, default=10, metavar="N", help="sources to list per submission (default 10)")
    _common_options(p)


@command("check", "Check submissions against an indexed collection: ranked sources, best first.", _check_args)
def run_check(args: argparse.Namespace) -> int:
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
    # (the index's modules are imported once the workers run: a worker forked before needs none
    # of them, and reads its file while this process imports them)
    from neardup_gui.core.store import IndexProblem

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
    from neardup_gui.cli_examiner import decision_words

    threshold = args.threshold
    exclusions = {"applied": _applied(rules), "rules": rules}
    out = []
    for r in results:
        matches = [m for m in r.matches if threshold is None or max(m.comparison.similarity, m.comparison.containment_a) >= threshold]
        out.append(r.to_json(exclusions, matches[: args.top]))
        if r.skipped_reason:  # (what was wrong with the path as given, where it says more)
            out[-1]["skipped_reason"] = given.get(r.path) or r.skipped_reason
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

    def cut_of(s: Settings) -> float:  # (the collection's settings with the options applied)
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
    from neardup_gui.cli_examiner import decision_words, wanted_pair

    pairs = [p for p in pairs if wanted_pair(p, args.applicant, args.undecided)]
    if args.json:
        applied = _applied(rules)
        print_json([p.to_json(applied) for p in pairs])
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
        print_json([c.to_json() for c in clusters])
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
