"""`compare` and `common`: two files compared exactly, and the passages found in many documents."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from neardup_gui.cli.common import (
    _applied,
    _auto_words,
    command,
    _common_options,
    _exclusions_line,
    EXIT_OK,
    EXIT_SKIPPED,
    EXIT_USAGE,
    given_path_problem,
    _index_problem,
    _open,
    print_json,
    _rules_json,
    _say_if_unfinished,
    _settings,
)

log = logging.getLogger(__name__)

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
                    "units_a": comp.units_a, "units_b": comp.units_b, "spans": comp.spans_json(),
                    "exclusions": {"applied": _applied(_rules_json(None, _settings(args))),
                                   "rules": _rules_json(None, _settings(args)),
                                   "units_a": comp.exclusions_a.as_dict(), "units_b": comp.exclusions_b.as_dict()},
                    "passages": comp.passages_json()})
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
