"""The exhaustive comparison is the candidate search's truth: does ``check`` list every source?

For the collection of ``eval_revisions.py`` (1,000 documents by default, ``--docs 10000`` for the
large run; its revised answers and independent answers inside), every answer is compared
exactly with EVERY indexed document — the product's own comparison
(``Collection.verifier(settings).compare``, the one ``check`` verifies its candidates with, under
the collection's settings and template model; its cut-offs only skip pairs they prove cannot
reach containment 0.05) — and each document found at containment ≥ 0.05 must be listed by
``neardup check`` (``--top`` large enough to list all). Printed: the share listed, per revision
level and overall, the misses (answer, source, containment), anything the check lists at ≥ 0.05
that the exhaustive run does not find, and the unrelated pairs the exhaustive run finds at ≥ 0.1
(split by whether the two texts really share 8-unit runs). Issue 45's target: ≥ 99 % listed.

The exhaustive run imports the product, so it runs under the Python beside ``--neardup`` (that
environment's product: the same code as the ``check`` measured), in two worker processes.

Usage: ``python benchmarks/eval_search_exhaustive.py [--small] [--docs 10000] [--neardup PATH]
[--out DIR] [--reuse]`` (``--reuse``: the collection already built in ``--out``, or in
``--collection DIR`` by ``eval_revisions.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

FIND = 0.05  # every source the exhaustive comparison finds at this containment must be listed
ALARM = 0.1


def exhaustive_worker(db: str, answers: list[str], part: int, parts: int, out: str) -> None:
    """Compare every answer with every ``parts``-th indexed document (from ``part``); write JSON."""
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.settings import Settings

    found = []
    t0 = time.perf_counter()
    with Collection.open(db, create=False) as coll:
        settings = coll.settings_for(Settings(workers=1))
        v = coll.verifier(settings)
        marked = []
        for path, doc in read_answers(answers, settings):
            if not hasattr(doc, "text"):
                raise SystemExit(f"{path}: not read: {getattr(doc, 'reason', doc)}")
            marked.append((path, v.mark(doc.text, doc.furniture)))
        docs = [d for d in coll.documents() if d.status == "indexed"][part::parts]
        compared = 0
        for d in docs:
            m = coll.marked(d.doc_id, v)
            for path, a in marked:
                try:
                    comp = v.compare(a, m, min_containment=FIND)
                except TypeError:  # a product whose compare takes no cut-offs: the same answer, slower
                    comp = v.compare(a, m)
                compared += 1
                if comp is not None and comp.containment_a >= FIND:
                    found.append({"answer": Path(path).name, "doc": d.path, "containment": comp.containment_a,
                                  "similarity": comp.similarity})
    Path(out).write_text(json.dumps({"found": found, "pairs": compared, "docs": len(docs),
                                     "seconds": time.perf_counter() - t0}), encoding="utf-8")


def read_answers(paths: list[str], settings) -> list:  # noqa: ANN001 - the product's Settings
    """(path, Document) of every answer, read as ``check`` reads them (the extraction workers)."""
    try:
        from neardup_gui.core.workers import extract_many

        runs = extract_many([os.path.abspath(p) for p in paths], settings.limits, 1)
        try:
            got = dict(runs)
        finally:
            runs.close()
        return [(p, got[os.path.abspath(p)]) for p in paths]
    except (ImportError, TypeError, KeyError):  # a product without that function: one process per file
        from neardup_gui.core.collection import read_submission

        return [(p, read_submission(p, settings)) for p in paths]


def python_beside(neardup: str) -> str:
    """The Python of the environment ``neardup`` belongs to, else this one."""
    for name in ("python", "python3"):
        exe = Path(neardup).parent / name
        if exe.exists():
            return str(exe)
    return sys.executable


def exhaustive(out: Path, db: Path, answers: list[Path], neardup: str, workers: int = 2) -> tuple[list[dict], dict]:
    spec = out / "exhaustive-answers.json"
    spec.write_text(json.dumps([str(a) for a in answers]), encoding="utf-8")
    python = python_beside(neardup)
    procs = []
    t0 = time.perf_counter()
    for k in range(workers):
        part_out = out / f"exhaustive-{k}.json"
        procs.append((subprocess.Popen([python, str(Path(__file__).resolve()), "--worker", str(db), str(spec), str(k),
                                        str(workers), str(part_out)], env={**os.environ, "PYTHONPATH": str(HERE)}),
                      part_out))
    found, pairs, secs = [], 0, 0.0
    for p, part_out in procs:
        if p.wait() != 0:
            raise SystemExit(f"the exhaustive worker failed (exit {p.returncode})")
        data = json.loads(part_out.read_text(encoding="utf-8"))
        found += data["found"]
        pairs += data["pairs"]
        secs += data["seconds"]
    return found, {"pairs": pairs, "wall_s": time.perf_counter() - t0, "cpu_s": secs, "python": python}


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--worker":
        db, spec, part, parts, out = sys.argv[2:7]
        exhaustive_worker(db, json.loads(Path(spec).read_text(encoding="utf-8")), int(part), int(parts), out)
        return 0
    import evalkit as kit
    import eval_revisions as ev

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ev.add_collection_arguments(ap, "eval_search_exhaustive")
    ap.add_argument("--collection", type=Path, help="with --reuse: a folder eval_revisions.py built")
    args = ap.parse_args(argv)
    nd = kit.Neardup(args.neardup)
    where = args.collection if args.collection and args.reuse else args.out
    t0 = time.perf_counter()
    info = ev.load_or_build(where, args)
    t_build = time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    db = args.out / "index.sqlite"
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    nd.index(where / "collection", db)
    answers = [where / "answers" / a["file"] for a in info["answers"]]
    t = time.perf_counter()
    results = {Path(r["path"]).name: r for r in nd.check(answers, db, top=100000)}
    check_s = time.perf_counter() - t
    found, cost = exhaustive(args.out, db, answers, args.neardup)
    by_answer = {a["file"]: a for a in info["answers"]}
    listed = {(name, Path(m["path"]).name): m["containment"] for name, r in results.items() for m in r.get("matches", [])}
    rows = []
    for f in found:
        key = (f["answer"], Path(f["doc"]).name)
        a = by_answer[f["answer"]]
        rows.append({**f, "doc": key[1], "level": a["level"], "lang": a["lang"], "true_source": key[1] == a["source"],
                     "listed": key in listed, "check": listed.get(key)})
    found_keys = {(r["answer"], r["doc"]) for r in rows}
    extra = [(k, c) for k, c in listed.items() if c >= FIND and k not in found_keys]

    body = []
    figures: dict = {"levels": {}}
    for level in (*ev.LEVELS, "all"):
        rs = [r for r in rows if level == "all" or r["level"] == level]
        true = [r for r in rs if r["true_source"]]
        n_answers = sum(1 for a in info["answers"] if level == "all" or a["level"] == level)
        s = {"answers": n_answers, "found": len(rs), "listed": sum(r["listed"] for r in rs),
             "true_found": len(true), "true_listed": sum(r["listed"] for r in true)}
        figures["levels"][level] = s
        body.append([level, n_answers, s["found"], s["listed"], kit.fmt(s["listed"] / s["found"]) if s["found"] else "–",
                     f"{s['true_found']}/{n_answers}", s["true_listed"]])
    misses = sorted((r for r in rows if not r["listed"]), key=lambda r: -r["containment"])
    alarms = [r for r in rows if not r["true_source"] and r["containment"] >= ALARM]
    cache: dict = {}
    for r in alarms:
        r["ngram8"] = ev.ngram_cover(where, r["answer"], r["doc"], cache)
    over = [r for r in alarms if r["ngram8"] < ALARM]
    unrelated = [r for r in alarms if r["ngram8"] == 0.0]
    total = figures["levels"]["all"]
    lines = [
        f"## The exhaustive comparison as the search's truth ({nd.version()}; {info['docs']} documents, "
        f"{len(answers)} answers, {cost['pairs']:,} pairs compared; seed {info['seed']})", "",
        kit.table(["level", "answers", f"sources found at ≥ {FIND} (exhaustive)", "listed by check", "share listed",
                   "true source found (exhaustive)", "true source listed"], body), "",
        f"Listed: {total['listed']} of {total['found']} ({(total['listed'] / total['found'] if total['found'] else 1):.3f}); "
        f"the check lists {len(extra)} (answer, source) at ≥ {FIND} that the exhaustive run does not find.",
    ]
    if misses:
        lines += ["", "Misses (answer, source, exhaustive containment):", ""]
        lines += [f"- {r['answer']} ({r['level']}) ~ {r['doc']}{' (its true source)' if r['true_source'] else ''}: "
                  f"{r['containment']:.3f}" for r in misses[:40]]
        if len(misses) > 40:
            lines.append(f"- … and {len(misses) - 40} more (JSON)")
    if extra:
        lines += ["", "Listed by check but not found by the exhaustive run:", ""]
        lines += [f"- {a} ~ {d}: {c:.3f}" for (a, d), c in extra[:20]]
    lines += ["", f"Pairs other than (answer, its true source) the exhaustive run finds at ≥ {ALARM}: {len(alarms)}; "
                  f"{len(over)} where the 8-unit runs the two texts share cover less than {ALARM} of the answer (the "
                  f"figure above the order-free truth), {len(unrelated)} sharing no 8-unit run at all (unrelated)."]
    shown = sorted(alarms, key=lambda r: r["ngram8"] - r["containment"])[:12]
    lines += [f"- {r['answer']} ~ {r['doc']}: {r['containment']:.3f} (n-gram 8 coverage {r['ngram8']:.3f}, "
              f"{'listed' if r['listed'] else 'not listed'})" for r in shown]
    if len(alarms) > 12:
        lines.append(f"- … and {len(alarms) - 12} more (JSON)")
    lines += ["", f"Time: build {t_build:.0f} s; index {nd.seconds.get('index', 0):.1f} s, check {check_s:.1f} s "
                  f"({check_s / max(len(answers), 1):.3f} s per answer, whole command); exhaustive "
                  f"{cost['wall_s']:.0f} s wall, {cost['cpu_s']:.0f} s in {2} workers ({cost['python']})"]
    report = "\n".join(lines)
    print(report)
    (args.out / "eval_search_exhaustive.md").write_text(report + "\n", encoding="utf-8")
    kit.write_json(args.out / "eval_search_exhaustive.json", {
        "neardup": args.neardup, "version": nd.version(), "seed": info["seed"], "docs": info["docs"],
        "figures": {**figures, "alarms": len(alarms), "alarms_above_ngram_truth": len(over),
                    "alarms_unrelated": len(unrelated)}, "misses": misses, "extra": [[a, d, c] for (a, d), c in extra], "alarms": alarms,
        "found": rows, "cost": cost, "check_s": check_s})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
