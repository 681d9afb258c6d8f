"""Credit: when a screened call copies one original several times over, whom does neardup name?

Built from the development corpus, per language and per group (``--groups``; DOCX by python-docx
and PDF by LibreOffice, in turn): an *archive* of corpus sections (indexed: the collection) and
a *call* folder of applicants (screened), each group using its own originals O, D and E:

- ``copies-original-1..3``: three applicants copied the same indexed original O with light edits
  (3–8 % of the words replaced by synonyms): the first a large part of it followed by a good
  share of its own text (what the fourth copies), the second and third the same large part of
  it beside a little text of their own (so their containments against O and against each other
  tie, and their similarity to each other is the higher: O is longer) — verbatim in groups 0,
  2, …, with light edits in groups 1, 3, …;
- ``copies-applicant``: a fourth copied the end of the first applicant (not O), in its order:
  its last paragraph from O (as the first edited it) and all of its own text; then text of its
  own;
- ``resubmission``: an applicant resubmitted the indexed document D with light edits;
- ``mosaic``: an applicant copied a block of D (which the resubmission also holds) and a
  smaller one of E, in any order, between paragraphs of its own;
- ``clean``: two applicants wrote everything themselves (held-out sections, never indexed).

Truth by construction (``evalkit.Built``): every copied unit is credited to where it came from,
by issue 44's rule — a document of the collection before a submission of the same call — so
text of O is O's wherever an applicant took it from, and only text found in no collection
document is credited to an applicant. Per submission: the share of its units credited to each
source, and the largest. Applicants are named so that a tie broken by file name goes to the
applicant, not to the collection's document. (Inside a call nothing tells who copied whom: the
first applicant's own text, which the fourth copied, is expected to show the fourth as a source;
the column "credited to applicants" shows it beside the truth.)

Measured: ``neardup index`` of the archive, ``neardup screen CALL --json`` (each submission's
largest source and its share), and for every submission ``neardup report --screening … --submission
… --out R.json`` (and ``.html``): the committee report's largest source, its per-source figures,
and the share of the submission's units its full text colours with each source. The report's
fields are read tolerantly (the first present of ``credited_share``, ``credited``, ``share``,
``containment`` per source; ``also_in`` if present); the output says which it used.

Usage: ``python benchmarks/eval_credit.py [--small] [--neardup PATH] [--out DIR]``
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import evalkit as kit  # noqa: E402
import revise  # noqa: E402
from evalkit import Built, Segment  # noqa: E402

ROLES = ("copies-original-1", "copies-original-2", "copies-original-3", "copies-applicant", "resubmission", "mosaic",
         "clean-1", "clean-2")
CALL_FORMATS = ("docx-python", "pdf-lo")
SHARE_FIELDS = ("credited_share", "credited", "share", "containment")
CLEAN_LINE = 0.05  # a clean applicant "has a source" when one reaches this share


def _own(paras: list[str]) -> list[list[Segment]]:
    return [[Segment(p)] for p in paras]


def _blocks_part(o: Built, lo: float, hi: float, rng: random.Random) -> list[str]:
    """Consecutive blocks of ``o`` making a share between ``lo`` and ``hi`` of it (paragraphs)."""
    blocks = kit.blocks_of(o.para_texts)
    n = max(2, min(len(blocks), round(len(blocks) * rng.uniform(lo, hi))))
    start = rng.randrange(len(blocks) - n + 1)
    return [p for b in blocks[start:start + n] for p in b]


def _with_own(copied: list[list[Segment]], own: list[str], rng: random.Random) -> list[list[Segment]]:
    """Own paragraphs put around and between the copied ones (the copied ones stay in order)."""
    out = list(copied)
    for p in own:
        out.insert(rng.randrange(len(out) + 1), [Segment(p)])
    return out


def build_group(lang: str, g: int, originals: list[Built], own: kit.HeldOut, th: revise.Thesaurus,
                rng: random.Random) -> list[Built]:
    o, d, e = originals
    # (named so that a tie between an applicant and a collection document, broken by name, goes
    # to the applicant: the credit must not rest on file names)
    name = {r: f"applicant-{lang}-g{g}-{r}" for r in ROLES}
    subs: dict[str, Built] = {}

    def edited(paras: list[str], origin: str, lo: float, hi: float) -> list[list[Segment]]:
        rate = rng.uniform(lo, hi)
        return [revise.substitute(p, origin, rate, rng, th) for p in paras]

    size = kit.n_units(o.text)
    # the first: a large part of O, then a good share of its own (what the fourth copies)
    a1_copied = edited(_blocks_part(o, 0.7, 1.0, rng), o.file_name, 0.03, 0.08)
    a1_own = own.take(round(size * 0.3))
    a1 = a1_copied + _own(a1_own)
    subs["copies-original-1"] = Built(name["copies-original-1"], lang, "copies-original", a1)
    # the second and third: the same large part of O, each with its own edits (against each
    # other they reach the containment they reach against O, and a higher similarity: O is longer)
    # (in every other group they copy it verbatim: the exact tie of the copies of one text)
    part = _blocks_part(o, 0.6, 0.8, rng)
    hi = 0.0 if g % 2 == 0 else 0.08
    for r, extra in (("copies-original-2", 0.15), ("copies-original-3", 0.1)):
        subs[r] = Built(name[r], lang, "copies-original",
                        _with_own(edited(part, o.file_name, hi / 2, hi), own.take(round(size * extra)), rng))
    # the fourth copies the end of the first, in its order: one or two of its paragraphs from O
    # (as the first edited them: credited to O, the collection comes first) and all of its own
    # text (credited to the first), then writes some of its own
    taken = [list(a1_copied[-1])] + [[Segment(p, "@copies-original-1")] for p in a1_own]
    a4 = taken + _own(own.take(round(size * 0.2)))
    subs["copies-applicant"] = Built(name["copies-applicant"], lang, "copies-applicant", a4)
    subs["resubmission"] = Built(name["resubmission"], lang, "resubmission",
                                 edited(d.para_texts, d.file_name, 0.03, 0.08))
    # (D's block clearly the larger: the question is whom it is credited to, D or the applicant
    # who resubmitted D, not which of two near-equal blocks is the larger)
    from_d = _blocks_part(d, 0.4, 0.6, rng)
    from_e = _blocks_part(e, 0.2, 0.4, rng)
    while len(from_e) > 1 and kit.n_units("\n".join(from_e)) > 0.6 * kit.n_units("\n".join(from_d)):
        from_e.pop()
    pieces = [[[Segment(p, d.file_name)] for p in from_d], [[Segment(p, e.file_name)] for p in from_e]]
    rng.shuffle(pieces)
    mosaic = [para for piece in pieces for para in piece]
    subs["mosaic"] = Built(name["mosaic"], lang, "mosaic", _with_own(mosaic, own.take(round(size * 0.5)), rng))
    for r in ("clean-1", "clean-2"):
        subs[r] = Built(name[r], lang, "clean", _own(own.take(round(size * rng.uniform(0.6, 1.0)))))
    for k, r in enumerate(ROLES):
        subs[r].fmt = CALL_FORMATS[(k + g) % len(CALL_FORMATS)]
        subs[r].meta["role"] = r
    # the copied applicant's name, now that its format is known
    real = subs["copies-original-1"].file_name
    for para in subs["copies-applicant"].paragraphs:
        for k, s in enumerate(para):
            if s.origin == "@copies-original-1":
                para[k] = Segment(s.text, real, s.verbatim)
    subs["mosaic"].meta["also_in"] = {d.file_name: subs["resubmission"].file_name}
    subs["copies-applicant"].meta["also_in"] = {o.file_name: real}
    return [subs[r] for r in ROLES]


def build(out: Path, groups: int, seed: int, langs: list[str]) -> dict:
    archive: list[Built] = []
    call: list[Built] = []
    thesaurus = {}
    held: dict[str, list[tuple[str, list[str]]]] = {}
    docs: dict[str, list[Built]] = {}
    for lang in langs:
        rng = random.Random(f"{seed}-credit-{lang}-split")
        sections = kit.read_sections(lang)
        order = list(range(len(sections)))
        rng.shuffle(order)
        n_held = max(int(0.35 * len(sections)), 24)
        held[lang] = [sections[i] for i in sorted(order[:n_held])]
        docs[lang] = [Built(f"{lang}-{sid}", lang, "archive", [[Segment(p)] for p in paras], "txt")
                      for sid, paras in (sections[i] for i in sorted(order[n_held:]))]
        archive += docs[lang]
    indexed = kit.Grams(x.text for x in archive)
    for lang in langs:
        rng = random.Random(f"{seed}-credit-{lang}")
        own = kit.HeldOut(held[lang], rng, indexed)
        th = revise.Thesaurus(lang, [" ".join(p) for _, p in held[lang]])
        thesaurus[lang] = th.source
        usable = [x for x in docs[lang] if kit.n_units(x.text) >= 200 and len(kit.blocks_of(x.para_texts)) >= 5]
        rng.shuffle(usable)
        if len(usable) < 3 * groups:
            raise RuntimeError(f"{lang}: {len(usable)} usable originals for {groups} groups")
        for g in range(groups):
            call += build_group(lang, g, usable[3 * g:3 * g + 3], own, th, rng)
    for folder in ("archive", "call", "reports"):
        if (out / folder).exists():
            shutil.rmtree(out / folder)
    kit.write_files([(out / "archive" / x.file_name, x.para_texts, "txt") for x in archive]
                    + [(out / "call" / s.file_name, s.para_texts, s.fmt) for s in call])
    cases = []
    for s in call:
        t = s.truth()
        shares = {k: v / max(t["units"], 1) for k, v in t["copied"].items()}
        largest = max(shares, key=shares.get) if shares else None
        cases.append({"file": s.file_name, "lang": s.lang, "role": s.meta["role"], "format": s.fmt, "units": t["units"],
                      "credited": shares, "largest": largest, "also_in": s.meta.get("also_in", {})})
    info = {"seed": seed, "groups": groups, "archive": len(archive), "call": len(call), "thesaurus": thesaurus,
            "cases": cases}
    kit.write_json(out / "cases.json", info)
    return info


def _coloured_shares(report: dict) -> dict[str, float]:
    """Share of the submission's units its report's full text colours with each source (by name)."""
    number_to_name = {}
    for e in report.get("sources", []):
        doc = e.get("document", {})
        number_to_name[e.get("number")] = Path(doc.get("path") or doc.get("name", "")).name
    units: dict[str, int] = {}
    total = 0
    for seg in report.get("full_text", []):
        n = kit.n_units(seg.get("text", ""))
        if seg.get("kind") in ("template", "excluded", "elided"):
            continue
        total += n
        if seg.get("kind") in ("match", "edited") and seg.get("match", -1) >= 0:
            name = number_to_name.get(seg["match"] + 1, f"#{seg['match'] + 1}")
            units[name] = units.get(name, 0) + n
    return {k: v / max(total, 1) for k, v in units.items()}


def _html_first_source(path: Path) -> str | None:
    """The name in the first row of the committee report's table of sources (HTML)."""
    try:
        html = path.read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r'<table[^>]*class="[^"]*\bsources\b[^"]*"[^>]*>.*?<tbody>\s*<tr[^>]*>\s*<td[^>]*>.*?</td>\s*<td[^>]*>(.*?)(?:<br>|</td>)',
                  html, re.S)
    return Path(re.sub(r"<[^>]+>", "", m.group(1)).strip()).name if m else None


def measure(out: Path, info: dict, nd: kit.Neardup) -> tuple[list[dict], dict]:
    db = out / "index.sqlite"
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    nd.index(out / "archive", db)
    name = "credit-eval"
    screen = nd.run("screen", str(out / "call"), "--db", str(db), "--name", name)
    rows_by_file = {Path(r["path"]).name: r for r in screen["submissions"]}
    (out / "reports").mkdir(exist_ok=True)
    used: dict[str, set[str]] = {"report": set(), "screen": set()}
    rows = []
    for c in info["cases"]:
        srow = rows_by_file.get(c["file"], {})
        rel = srow.get("rel", c["file"])
        rep_json = out / "reports" / (c["file"] + ".json")
        rep_html = out / "reports" / (c["file"] + ".html")
        nd.run("report", "--db", str(db), "--screening", name, "--submission", rel, "--out", str(rep_json))
        nd.run("report", "--db", str(db), "--screening", name, "--submission", rel, "--out", str(rep_html))
        report = json.loads(rep_json.read_text(encoding="utf-8"))
        figures: dict[str, float] = {}
        also: dict[str, list[str]] = {}
        for e in report.get("sources", []):
            if e.get("excluded"):
                continue
            doc = e.get("document", {})
            src = Path(doc.get("path") or doc.get("name", "")).name
            for f in SHARE_FIELDS:
                if isinstance(e.get(f), (int, float)):
                    figures[src] = float(e[f])
                    used["report"].add(f)
                    break
            if e.get("also_in"):
                also[src] = [Path(str(x.get("path", x) if isinstance(x, dict) else x)).name for x in e["also_in"]]
        # the screening's own per-source figures, when its JSON lists them (a count today)
        screen_sources: dict[str, float] = {}
        if isinstance(srow.get("sources"), list):
            for e in srow["sources"]:
                src = Path(str(e.get("path", ""))).name
                for f in SHARE_FIELDS:
                    if isinstance(e.get(f), (int, float)):
                        screen_sources[src] = float(e[f])
                        used["screen"].add(f)
                        break
        coloured = _coloured_shares(report)
        truth_largest = c["largest"]
        screen_largest = Path(srow["largest_source"]).name if srow.get("largest_source") else None
        report_largest = Path(report["largest_source"]).name if report.get("largest_source") else None
        t_share = c["credited"].get(truth_largest, 0.0) if truth_largest else 0.0
        rows.append({
            "file": c["file"], "lang": c["lang"], "role": c["role"], "format": c["format"],
            "truth_largest": truth_largest, "truth_share": t_share, "truth_credited": c["credited"],
            "screen_largest": screen_largest, "screen_ratio": srow.get("largest_source_ratio", 0.0),
            "screen_copied": srow.get("copied", 0.0), "screen_sources": srow.get("sources"),
            "screen_per_source": screen_sources,
            "report_largest": report_largest, "report_ratio": report.get("largest", 0.0),
            "report_figures": figures, "coloured": coloured, "also_in": also,
            "html_first": _html_first_source(rep_html),
            "figure_of_truth_largest": figures.get(truth_largest, 0.0) if truth_largest else None,
            "coloured_of_truth_largest": coloured.get(truth_largest, 0.0) if truth_largest else None,
        })
    return rows, {k: sorted(v) for k, v in used.items()}


def summarise(rows: list[dict], used: dict) -> tuple[str, dict]:
    call = {r["file"] for r in rows}
    by_role: dict = {}
    body = []
    roles = ["copies-original", "copies-applicant", "resubmission", "mosaic", "clean"]
    for role in roles:
        rs = [r for r in rows if r["role"].rstrip("-123") == role]
        if not rs:
            continue
        if role == "clean":
            ok = [r for r in rs if r["screen_ratio"] < CLEAN_LINE]
            s = {"n": len(rs), "no_source": len(ok), "largest_max": max(r["screen_ratio"] for r in rs)}
            by_role[role] = s
            body.append([role, len(rs), f"{len(ok)}/{len(rs)} below {CLEAN_LINE}", "", "", "", "", "", "",
                         f"largest {s['largest_max']:.3f}", "", "", ""])
            continue
        s = {
            "n": len(rs),
            "screen_right": sum(r["screen_largest"] == r["truth_largest"] for r in rs),
            "report_right": sum(r["report_largest"] == r["truth_largest"] for r in rs),
            "html_right": sum(r["html_first"] == r["truth_largest"] for r in rs),
            "fellow_named": sum(r["screen_largest"] != r["truth_largest"] and r["screen_largest"] in call
                                for r in rs),
            "truth_share": kit.mean(r["truth_share"] for r in rs),
            "figure": kit.mean(r["figure_of_truth_largest"] for r in rs),
            "coloured": kit.mean(r["coloured_of_truth_largest"] for r in rs),
            "coloured_err": kit.mean(abs(r["coloured_of_truth_largest"] - r["truth_share"]) for r in rs),
            "fellows_listed": sum(sum(1 for k, v in r["report_figures"].items()
                                      if k in call and v >= CLEAN_LINE and r["truth_credited"].get(k, 0.0) == 0.0)
                                  for r in rs),
            "truth_to_applicants": kit.mean(sum(v for k, v in r["truth_credited"].items() if k in call) for r in rs),
            "coloured_to_applicants": kit.mean(sum(v for k, v in r["coloured"].items() if k in call) for r in rs),
        }
        by_role[role] = s
        body.append([role, s["n"], f"{s['screen_right']}/{s['n']}", f"{s['report_right']}/{s['n']}",
                     f"{s['html_right']}/{s['n']}", s["fellow_named"], s["truth_share"], s["figure"], s["coloured"],
                     s["coloured_err"], s["truth_to_applicants"], s["coloured_to_applicants"], s["fellows_listed"]])
    text = kit.table(["role", "n", "screen: largest right", "report JSON: largest right", "report HTML: first right",
                      "a fellow applicant named instead", "truth: credited share", "report figure of it",
                      "report colours it", "abs(colours − truth)", "truth: credited to applicants",
                      "report colours as applicants'", f"applicants listed at ≥ {CLEAN_LINE}, truth none"], body)
    detail = kit.table(
        ["submission", "truth: largest (share)", "screen: largest (share)", "report: figures", "coloured", "also in"],
        [[r["file"], f"{r['truth_largest']} ({r['truth_share']:.3f})",
          f"{r['screen_largest']} ({r['screen_ratio']:.3f})",
          "; ".join(f"{k} {v:.3f}" for k, v in sorted(r["report_figures"].items(), key=lambda x: -x[1])[:3]),
          "; ".join(f"{k} {v:.3f}" for k, v in sorted(r["coloured"].items(), key=lambda x: -x[1])[:3]),
          "; ".join(f"{k}: {', '.join(v)}" for k, v in r["also_in"].items()) or "–"]
         for r in rows if not r["role"].startswith("clean")])
    fields = (f"Fields used: report per-source figure {', '.join(used['report']) or 'none'}; screen per-source "
              f"figure {', '.join(used['screen']) or 'none (its JSON gives a count of sources)'}; "
              f"'also_in' {'present' if any(r['also_in'] for r in rows) else 'absent'}.")
    return text + "\n\n" + fields + "\n\n" + detail, {"by_role": by_role, "fields": used}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    kit.add_common_arguments(ap, "eval_credit")
    ap.add_argument("--groups", type=int, default=0, help="groups per language (default 3; 1 with --small)")
    ap.add_argument("--langs", default="zh,en")
    ap.add_argument("--measure-only", action="store_true", help="measure the collection already in --out")
    args = ap.parse_args(argv)
    nd = kit.Neardup(args.neardup)
    groups = args.groups or (1 if args.small else 3)
    t0 = time.perf_counter()
    if args.measure_only:
        info = json.loads((args.out / "cases.json").read_text(encoding="utf-8"))
    else:
        info = build(args.out, groups, args.seed, [x for x in args.langs.split(",") if x])
    t_build = time.perf_counter() - t0
    rows, used = measure(args.out, info, nd)
    text, figures = summarise(rows, used)
    report = (f"## Credit ({nd.version()}; {info['archive']} archive documents indexed, {info['call']} submissions "
              f"in the call, {info['groups']} group(s) per language, seed {info['seed']})\n\n{text}\n\n"
              f"Time: build {t_build:.0f} s; " + ", ".join(f"{k} {v:.1f} s" for k, v in nd.seconds.items())
              + " (whole commands)")
    print(report)
    (args.out / "eval_credit.md").write_text(report + "\n", encoding="utf-8")
    kit.write_json(args.out / "eval_credit.json", {"neardup": args.neardup, "version": nd.version(),
                                                   "seed": info["seed"], "figures": figures, "rows": rows,
                                                   "seconds": nd.seconds})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
