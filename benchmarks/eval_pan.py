"""PAN-style evaluation of edited passages: copy, edit at 0–30 %, find the passage again.

Built from the development corpus (``$NEARDUP_CORPUS`` or ``<project root>/../shared/corpus``),
both languages. Per language the sections are split, deterministically, into *sources*, *hosts*
(unrelated text to hide a copy in; never indexed) and the *rest* (the other indexed documents,
and the pool the substitute words come from). The ground truth comes from the construction
only, never from the product.

1. **Whole copies**: each source copied whole, then edited at 0 / 10 / 20 / 30 %
   (``substitute``: that share of the words replaced; ``mixed``: substitutions, insertions and
   deletions 2 : 1 : 1 — English by words, Chinese by jieba words and single characters; see
   ``obfuscate.py``). Reported: the containment of the true source in the copy, exact runs only
   (before issue 15) and over passages (now), and passages per copy.
2. **PAN text alignment**: a suspicious document = a host with a block of paragraphs of a
   source (30–100 % of it) inserted at a paragraph break, edited at the rate. The passages
   found against the source, on the suspicious side, are scored at character level with the
   PAN 2012–2015 measures: macro precision and recall, granularity, plagdet = F1 / log2(1 + gran).
3. **False alarms**: every suspicious document against every *other* source, and every pair of
   hosts and sources: pairs whose larger containment reaches 0.1 (and how many of those the
   exact runs alone already reach: text the book really repeats).
4. **Through the product** (unless ``--no-index``): the sources and the rest indexed in a real
   index; every whole copy checked with ``Collection.check``: rank and containment of the true
   source; the hosts checked as negatives. With ``--formats`` a handful of Chinese copies are
   also written as DOCX (python-docx) and PDF (LibreOffice) and checked from those files.

5. **Chance seeds**: 64-unit windows of unrelated sections aligned as passages align them: the
   share of units in aligned runs of ≥ 1…5 units, beside windows of edited copies (30 %); the
   measurement behind ``PassageRules.word_weight``.

``--seeds 15,16,17,18,19`` repeats 1–3 on that many splits and pools the figures (the index
checks and the cost run on the first split only): twelve copies per rate are few, one copy
without any exact run of ``min_run`` moves a mean by 0.08.

Usage: ``python benchmarks/eval_pan.py [--per-lang 12] [--seeds 15] [--no-index] [--formats]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import obfuscate as ob  # noqa: E402
from neardup_gui.core.compare import compare_documents  # noqa: E402
from neardup_gui.core.settings import Settings  # noqa: E402

FOLDERS = {"zh": "debian-reference-zh-cn", "en": "debian-reference-en"}
RATES = (0.0, 0.1, 0.2, 0.3)
MODES = ("substitute", "mixed")
ALARM = 0.1


def corpus_root() -> Path:
    env = os.environ.get("NEARDUP_CORPUS")
    return Path(env) if env else ROOT.parent / "shared" / "corpus"


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.split("\n\n") if p.strip()]


@dataclass
class Split:
    lang: str
    names: list[str]
    texts: list[str]
    sources: list[int]
    hosts: list[int]
    rest: list[int]
    vocab: list[str] = field(default_factory=list)


def split_language(lang: str, per_lang: int, seed: int) -> Split:
    files = sorted((corpus_root() / FOLDERS[lang]).glob("*.txt"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    order = list(range(len(files)))
    random.Random(seed).shuffle(order)
    sp = Split(lang, [f.name for f in files], texts, order[:per_lang], order[per_lang : 2 * per_lang],
               order[2 * per_lang :])
    pool = [texts[i] for i in sp.rest[:40]]  # real words of other documents
    sp.vocab = ob.chinese_vocab(pool) if lang == "zh" else ob.english_vocab(pool)
    return sp


# --- PAN measures (character level, suspicious side) ----------------------------------------------


def overlap(x: tuple[int, int], y: tuple[int, int]) -> int:
    return max(0, min(x[1], y[1]) - max(x[0], y[0]))


def union_overlap(span: tuple[int, int], others: Sequence[tuple[int, int]]) -> int:
    """Characters of ``span`` covered by the union of ``others``."""
    covered = [False] * (span[1] - span[0])
    for o in others:
        for k in range(max(span[0], o[0]), min(span[1], o[1])):
            covered[k - span[0]] = True
    return sum(covered)


@dataclass
class PanScore:
    precision: float
    recall: float
    granularity: float

    @property
    def plagdet(self) -> float:
        f1 = 0.0 if self.precision + self.recall == 0 else 2 * self.precision * self.recall / (self.precision + self.recall)
        return f1 / math.log2(1 + self.granularity)


def pan_score(cases: Sequence[tuple[int, tuple[int, int]]], detections: Sequence[tuple[int, tuple[int, int]]]) -> PanScore:
    """PAN 2012–2015 macro precision/recall and granularity over (document, span) cases/detections."""
    by_doc_cases: dict[int, list[tuple[int, int]]] = {}
    by_doc_dets: dict[int, list[tuple[int, int]]] = {}
    for d, s in cases:
        by_doc_cases.setdefault(d, []).append(s)
    for d, r in detections:
        by_doc_dets.setdefault(d, []).append(r)
    rec = [union_overlap(s, [r for r in by_doc_dets.get(d, []) if overlap(s, r)]) / (s[1] - s[0]) for d, s in cases]
    prec = [union_overlap(r, [s for s in by_doc_cases.get(d, []) if overlap(s, r)]) / (r[1] - r[0])
            for d, r in detections]
    detected = [sum(1 for r in by_doc_dets.get(d, []) if overlap(s, r)) for d, s in cases]
    detected = [n for n in detected if n]
    return PanScore(
        precision=sum(prec) / len(prec) if prec else 0.0,
        recall=sum(rec) / len(rec) if rec else 0.0,
        granularity=sum(detected) / len(detected) if detected else 1.0,
    )


# --- the experiments ----------------------------------------------------------------------------


def whole_copies(sp: Split, min_run: int) -> tuple[list[dict], dict]:
    rows, copies = [], {}
    for mode in MODES:
        for rate in RATES:
            if rate == 0 and mode != MODES[0]:
                continue
            exact, passage, count, secs = [], [], [], 0.0
            for k, i in enumerate(sp.sources):
                copy = ob.obfuscate(sp.texts[i], sp.lang, rate, sp.vocab, random.Random(1000 * k + int(rate * 100)), mode)
                copies[(mode, rate, i)] = copy
                t = time.perf_counter()
                c = compare_documents(copy, sp.texts[i], min_run=min_run)
                secs += time.perf_counter() - t
                exact.append(c.common_units / c.units_a)
                passage.append(c.containment_a)
                count.append(len(c.passages))
            rows.append(dict(lang=sp.lang, mode=mode, rate=rate, n=len(exact), exact=mean(exact),
                             containment=mean(passage), min_containment=min(passage),
                             passages=mean(count), ms_per_compare=1000 * secs / len(exact)))
    return rows, copies


def pan_alignment(sp: Split, min_run: int, seed: int) -> tuple[list[dict], list[tuple[str, float, float]]]:
    rows = []
    suspicious_docs = []
    for mode in MODES:
        for rate in RATES:
            if rate == 0 and mode != MODES[0]:
                continue
            cases, dets = [], []
            for k, (i, host) in enumerate(zip(sp.sources, sp.hosts)):
                rng = random.Random(seed * 7919 + 100 * k + int(rate * 100))
                src_paras = paragraphs(sp.texts[i])
                take = max(1, round(len(src_paras) * rng.uniform(0.3, 1.0)))
                first = rng.randrange(len(src_paras) - take + 1)
                block = "\n\n".join(src_paras[first : first + take])
                copied = ob.obfuscate(block, sp.lang, rate, sp.vocab, rng, mode)
                host_paras = paragraphs(sp.texts[host])
                at = rng.randrange(len(host_paras) + 1)
                before = "\n\n".join(host_paras[:at])
                after = "\n\n".join(host_paras[at:])
                lead = before + "\n\n" if before else ""
                suspicious = lead + copied + ("\n\n" + after if after else "")
                case = (len(lead), len(lead) + len(copied))
                cases.append((k, case))
                c = compare_documents(suspicious, sp.texts[i], min_run=min_run)
                dets.extend((k, p.a) for p in c.passages)
                if mode == "mixed":
                    suspicious_docs.append((f"{mode}-{rate}-{k}", i, suspicious))
            score = pan_score(cases, dets)
            rows.append(dict(lang=sp.lang, mode=mode, rate=rate, n=len(cases), precision=score.precision,
                             recall=score.recall, granularity=score.granularity, plagdet=score.plagdet))
    # False alarms: each suspicious document against the other sources; hosts and sources pairwise.
    pairs = []
    for name, own, text in suspicious_docs:
        for i in sp.sources:
            if i != own:
                pairs.append((text, sp.texts[i]))
    unrelated = sp.sources + sp.hosts
    for x in range(len(unrelated)):
        for y in range(x + 1, len(unrelated)):
            pairs.append((sp.texts[unrelated[x]], sp.texts[unrelated[y]]))
    alarms = []
    for a, b in pairs:
        c = compare_documents(a, b, min_run=min_run)
        exact = max(c.common_units / max(c.units_a, 1), c.common_units / max(c.units_b, 1))
        alarms.append((sp.lang, max(c.containment_a, c.containment_b), exact))
    return rows, alarms


def through_index(sp: Split, copies: dict, workdir: Path, formats: bool) -> tuple[list[dict], list[dict]]:
    """Index the sources and the rest; check whole copies (and hosts as negatives)."""
    from neardup_gui.core.collection import Collection

    settings = Settings(workers=2)
    folder = workdir / f"collection-{sp.lang}"
    folder.mkdir(parents=True, exist_ok=True)
    for i in sp.sources + sp.rest:
        (folder / sp.names[i]).write_text(sp.texts[i], encoding="utf-8")
    queries = workdir / f"queries-{sp.lang}"
    queries.mkdir(exist_ok=True)
    wanted: dict[str, tuple[str, float, str]] = {}
    for (mode, rate, i), text in copies.items():
        if mode != "substitute" or rate == 0:
            continue
        p = queries / f"{rate:.1f}-{sp.names[i]}"
        p.write_text(text, encoding="utf-8")
        wanted[str(p)] = (sp.names[i], rate, "txt")
    negatives = []
    for i in sp.hosts:
        p = queries / f"neg-{sp.names[i]}"
        p.write_text(sp.texts[i], encoding="utf-8")
        negatives.append(str(p))
    if formats and sp.lang == "zh":
        wanted.update(write_formats(sp, copies, queries))
    rows = []
    with Collection.open(workdir / f"index-{sp.lang}.sqlite") as coll:
        coll.index_folder(str(folder), settings)
        results = coll.check(list(wanted) + negatives, settings)
    for res in results:
        ranked = [Path(m.source.path).name for m in res.matches]
        if res.path in wanted:
            name, rate, fmt = wanted[res.path]
            rank = ranked.index(name) + 1 if name in ranked else None
            cont = next((m.comparison.containment_a for m in res.matches if Path(m.source.path).name == name), 0.0)
            exact = next((m.comparison.common_units / max(m.comparison.units_a, 1)
                          for m in res.matches if Path(m.source.path).name == name), 0.0)
            rows.append(dict(lang=sp.lang, rate=rate, fmt=fmt, source=name, rank=rank, containment=cont,
                             exact=exact, copied=res.summary.copied_ratio_without_template))
    neg = [dict(lang=sp.lang, path=Path(r.path).name,
                top=max((m.comparison.containment_a for m in r.matches), default=0.0))
           for r in results if r.path in negatives]
    return rows, neg


def write_formats(sp: Split, copies: dict, queries: Path) -> dict[str, tuple[str, float, str]]:
    """Four Chinese copies (20 % and 30 % substitution) as DOCX and, through LibreOffice, PDF."""
    import docx

    out: dict[str, tuple[str, float, str]] = {}
    staged = []
    for rate in (0.2, 0.3):
        for i in sp.sources[:2]:
            text = copies[("substitute", rate, i)]
            d = docx.Document()
            for para in paragraphs(text):
                d.add_paragraph(para)
            stem = f"{rate:.1f}-{Path(sp.names[i]).stem}"
            path = queries / f"{stem}.docx"
            d.save(str(path))
            out[str(path)] = (sp.names[i], rate, "docx")
            pdf_dir = queries / "pdf"
            pdf_dir.mkdir(exist_ok=True)
            src = pdf_dir / f"{stem}-p.docx"
            d.save(str(src))
            staged.append(src)
            out[str(pdf_dir / f"{stem}-p.pdf")] = (sp.names[i], rate, "pdf")
    with tempfile.TemporaryDirectory(prefix="eval-pan-lo-") as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                        "--outdir", str(queries / "pdf"), *map(str, staged)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    return out


def seed_chance(sp: Split, windows: int = 600, width: int = 64) -> list[dict]:
    """Share of window units in aligned runs of ≥ s units: unrelated windows vs edited copies."""
    from neardup_gui.core.align import _align_codes, _dense_codes
    from neardup_gui.core.units import tokenize

    rng = random.Random(1)
    ids = {i: tokenize(sp.texts[i]).ids for i in sp.sources + sp.hosts}
    pools: dict[str, list] = {"unrelated": [], "copy, 30 %": []}
    for _ in range(windows):
        i, j = rng.sample(sp.sources + sp.hosts, 2)
        a, b = ids[i], ids[j]
        if len(a) > width and len(b) > width:
            p, q = rng.randrange(len(a) - width), rng.randrange(len(b) - width)
            pools["unrelated"].append((a[p : p + width], b[q : q + width]))
    for k, i in enumerate(sp.sources):
        copy = tokenize(ob.obfuscate(sp.texts[i], sp.lang, 0.3, sp.vocab, random.Random(k))).ids
        src = ids[i]
        for _ in range(10):
            if len(src) <= width + 10 or len(copy) <= width:
                break
            p = rng.randrange(len(src) - width)
            q = min(p * len(copy) // len(src), len(copy) - width)  # the copy's window at the same place
            pools["copy, 30 %"].append((copy[q : q + width], src[p : p + width]))
    rows = []
    for label, pairs in pools.items():
        covered = {s: 0 for s in range(1, 6)}
        for x, y in pairs:
            ca, cb, _ = _dense_codes(x, y)
            blocks = _align_codes(ca, cb)
            for s in covered:
                covered[s] += sum(n for _, _, n in blocks if n >= s)
        total = max(1, sum(len(x) for x, _ in pairs))
        rows.append(dict(lang=sp.lang, case=label, windows=len(pairs), **{f"ge{s}": covered[s] / total for s in covered}))
    return rows


def pooled(rows: list[dict], keys: tuple[str, ...], means: tuple[str, ...], mins: tuple[str, ...] = ()) -> list[dict]:
    """Rows of several splits pooled per ``keys``: means weighted by ``n``, minima of minima."""
    out: dict[tuple, dict] = {}
    for r in rows:
        k = tuple(r[x] for x in keys)
        o = out.setdefault(k, {**{x: r[x] for x in keys}, "n": 0, **{m: 0.0 for m in means},
                               **{m: float("inf") for m in mins}})
        o["n"] += r["n"]
        for m in means:
            o[m] += r[m] * r["n"]
        for m in mins:
            o[m] = min(o[m], r[m])
    for o in out.values():
        for m in means:
            o[m] /= max(o["n"], 1)
    return list(out.values())


def merge_cost(sp: Split, min_run: int) -> list[dict]:
    """What merging runs into passages costs on long texts (40 sections joined), beside the same
    comparison with the merging switched off (best of 3 each, same process)."""
    from neardup_gui.core import compare as compare_module
    from neardup_gui.core.units import tokenize

    big = "\n\n".join(sp.texts[i] for i in sp.rest[:40])
    other = "\n\n".join(sp.texts[i] for i in sp.rest[40:80])
    cases = [("copy, 0 %", big, big), ("copy, 10 %", ob.obfuscate(big, sp.lang, 0.1, sp.vocab, random.Random(1)), big),
             ("copy, 30 %", ob.obfuscate(big, sp.lang, 0.3, sp.vocab, random.Random(1)), big), ("unrelated", big, other)]
    rows = []
    merging = compare_module.find_passages

    def anchors_alone(runs, *args, **kw):  # every exact run a passage of its own: no merging
        return [(i, i + n, j, j + n, ((i, j, n),)) for i, j, n in sorted(runs)]

    for label, a, b in cases:
        ua, ub = tokenize(a), tokenize(b)
        times = {}
        for on in (True, False):
            compare_module.find_passages = merging if on else anchors_alone
            try:
                best = float("inf")
                for _ in range(3):
                    t = time.perf_counter()
                    compare_module.compare_units(ua, ub, min_run=min_run)
                    best = min(best, time.perf_counter() - t)
            finally:
                compare_module.find_passages = merging
            times[on] = best
        rows.append(dict(lang=sp.lang, case=label, units_a=len(ua), units_b=len(ub),
                         ms_with=1000 * times[True], ms_without=1000 * times[False]))
    return rows


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


# --- output ---------------------------------------------------------------------------------------


def markdown(whole: list[dict], pan: list[dict], alarms: list, checked: list[dict], negatives: list[dict],
             cost: Sequence[dict] = (), chance: Sequence[dict] = ()) -> str:
    out = ["### Whole copies: containment of the true source",
           "",
           "| lang | edits | rate | copies | exact runs only | passages (mean) | passages (min) | passages per copy | ms / compare |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in whole:
        out.append(f"| {r['lang']} | {r['mode']} | {r['rate']:.0%} | {r['n']} | {r['exact']:.3f} | {r['containment']:.3f} "
                   f"| {r['min_containment']:.3f} | {r['passages']:.2f} | {r['ms_per_compare']:.1f} |")
    out += ["", "### PAN text alignment (suspicious side, character level)", "",
            "| lang | edits | rate | cases | precision | recall | granularity | plagdet |", "|---|---|---|---|---|---|---|---|"]
    for r in pan:
        out.append(f"| {r['lang']} | {r['mode']} | {r['rate']:.0%} | {r['n']} | {r['precision']:.3f} | {r['recall']:.3f} "
                   f"| {r['granularity']:.3f} | {r['plagdet']:.3f} |")
    out += ["", "### False alarms (unrelated pairs, larger containment ≥ 0.1)", "",
            "| lang | pairs | ≥ 0.1 over passages | ≥ 0.1 exact runs only | largest (passages) | largest (exact) |",
            "|---|---|---|---|---|---|"]
    for lang in FOLDERS:
        rows = [a for a in alarms if a[0] == lang]
        if rows:
            out.append(f"| {lang} | {len(rows)} | {sum(a[1] >= ALARM for a in rows)} | {sum(a[2] >= ALARM for a in rows)} "
                       f"| {max(a[1] for a in rows):.3f} | {max(a[2] for a in rows):.3f} |")
    if checked:
        out += ["", "### Through the index (`Collection.check`): whole copies, substitution", "",
                "| lang | format | rate | copies | true source first | containment (mean) | (min) | exact runs only | copied % (mean) |",
                "|---|---|---|---|---|---|---|---|---|"]
        keys = sorted({(r["lang"], r["fmt"], r["rate"]) for r in checked}, key=lambda k: (k[0], k[1] != "txt", k[1], k[2]))
        for lang, fmt, rate in keys:
            rows = [r for r in checked if (r["lang"], r["fmt"], r["rate"]) == (lang, fmt, rate)]
            out.append(f"| {lang} | {fmt} | {rate:.0%} | {len(rows)} | {sum(r['rank'] == 1 for r in rows)} "
                       f"| {mean([r['containment'] for r in rows]):.3f} | {min(r['containment'] for r in rows):.3f} "
                       f"| {mean([r['exact'] for r in rows]):.3f} | {mean([r['copied'] for r in rows]):.3f} |")
        for lang in FOLDERS:
            rows = [n for n in negatives if n["lang"] == lang]
            if rows:
                out.append(f"\nNegatives ({lang}, hosts not in the index): {len(rows)} checked, "
                           f"{sum(n['top'] >= ALARM for n in rows)} with a source ≥ 0.1 "
                           f"(largest {max(n['top'] for n in rows):.3f}).")
    if chance:
        out += ["", "### Chance seeds: share of window units in aligned runs of ≥ s units (64-unit windows)", "",
                "| lang | windows | case | ≥ 1 | ≥ 2 | ≥ 3 | ≥ 4 | ≥ 5 |", "|---|---|---|---|---|---|---|---|"]
        for r in chance:
            out.append(f"| {r['lang']} | {r['windows']} | {r['case']} | " + " | ".join(f"{r[f'ge{s}']:.4f}" for s in range(1, 6)) + " |")
    if cost:
        out += ["", "### Cost of the merging (`compare_units`, best of 3)", "",
                "| lang | case | units A / B | with passages (ms) | runs only (ms) |", "|---|---|---|---|---|"]
        for r in cost:
            out.append(f"| {r['lang']} | {r['case']} | {r['units_a']} / {r['units_b']} | {r['ms_with']:.1f} | {r['ms_without']:.1f} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-lang", type=int, default=12, help="sources (and hosts) per language")
    ap.add_argument("--langs", default="zh,en")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--seeds", default="", help="several splits pooled, e.g. 15,16,17,18,19 (overrides --seed)")
    ap.add_argument("--no-index", action="store_true", help="skip the checks through a real index")
    ap.add_argument("--formats", action="store_true", help="also check Chinese copies as DOCX and PDF (LibreOffice)")
    ap.add_argument("--json", type=Path, help="write all figures to this file")
    args = ap.parse_args(argv)
    if not (corpus_root() / FOLDERS["en"]).is_dir():
        print("development corpus not found (set NEARDUP_CORPUS); skipped")
        return 0
    min_run = Settings().min_run
    seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else [args.seed]
    whole, pan, alarms, checked, negatives, cost, chance = [], [], [], [], [], [], []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="eval-pan-") as tmp:
        for lang in args.langs.split(","):
            for n, seed in enumerate(seeds):
                sp = split_language(lang, args.per_lang, seed)
                rows, copies = whole_copies(sp, min_run)
                whole += rows
                rows, al = pan_alignment(sp, min_run, seed)
                pan += rows
                alarms += al
                if n == 0:
                    chance += seed_chance(sp)
                    cost += merge_cost(sp, min_run)
                    if not args.no_index:
                        rows, neg = through_index(sp, copies, Path(tmp), args.formats)
                        checked += rows
                        negatives += neg
    if len(seeds) > 1:
        whole = pooled(whole, ("lang", "mode", "rate"), ("exact", "containment", "passages", "ms_per_compare"),
                       ("min_containment",))
        pan = pooled(pan, ("lang", "mode", "rate"), ("precision", "recall", "granularity"))
        for r in pan:  # plagdet of the pooled measures
            r["plagdet"] = PanScore(r["precision"], r["recall"], r["granularity"]).plagdet
    print(markdown(whole, pan, alarms, checked, negatives, cost, chance))
    print(f"\n({time.perf_counter() - started:.0f} s; per language {args.per_lang} sources and {args.per_lang} hosts, "
          f"seed{'s' if len(seeds) > 1 else ''} {','.join(map(str, seeds))}, min_run {min_run})")
    if args.json:
        args.json.write_text(json.dumps(dict(whole=whole, pan=pan, alarms=alarms, checked=checked,
                                             negatives=negatives, cost=cost), indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
