"""Candidate recall of ``check`` for edited copies: is the true source proposed, and ranked first?

Built from the development corpus (``$NEARDUP_CORPUS`` or ``<project root>/../shared/corpus``).
Per language every section is indexed (as .txt); ``--per-lang`` of them are copied and edited
(``obfuscate.py``, substitution of 10 / 20 / 30 % of the words, vocabulary from sections not
copied) and checked with ``Collection.check``. Each check runs twice in the same process, with
the anchor look-up of issue 15 (every k-gram of the submission) and with the winnowed anchors
only (before it), so the two are measured side by side: how often the true source comes first,
how often it is a candidate at all, candidates verified per check and seconds per check.

``--mosaic N`` adds N documents made of 3–6 random paragraphs of random sections of both
languages other than the copied ones (real text that shares phrases with the sources by chance:
the false candidates) to a second, larger index holding every section, on which the recall,
the candidates per check and the check time are measured again.

Usage: ``python benchmarks/eval_edited_recall.py [--per-lang 24] [--mosaic 2000]``
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import obfuscate as ob  # noqa: E402
from eval_pan import FOLDERS, corpus_root, paragraphs  # noqa: E402
from neardup_gui.core import candidates  # noqa: E402
from neardup_gui.core.collection import Collection  # noqa: E402
from neardup_gui.core.fingerprints import fingerprint  # noqa: E402
from neardup_gui.core.units import tokenize  # noqa: E402
from neardup_gui.core.settings import FingerprintParams, Settings  # noqa: E402

RATES = (0.1, 0.2, 0.3)


def edited_copies(lang: str, per_lang: int, seed: int, queries: Path) -> dict[str, tuple[str, float]]:
    """Write ``per_lang`` edited copies per rate; {path: (source name, rate)}."""
    files = sorted((corpus_root() / FOLDERS[lang]).glob("*.txt"))
    order = list(range(len(files)))
    random.Random(seed).shuffle(order)
    sources, pool = order[:per_lang], order[per_lang:][:40]
    texts = {i: files[i].read_text(encoding="utf-8") for i in sources + pool}
    vocab = (ob.chinese_vocab if lang == "zh" else ob.english_vocab)([texts[i] for i in pool])
    wanted = {}
    for rate in RATES:
        for k, i in enumerate(sources):
            copy = ob.obfuscate(texts[i], lang, rate, vocab, random.Random(1000 * k + int(rate * 100)))
            p = queries / f"{lang}-{rate:.1f}-{files[i].name}"
            p.write_text(copy, encoding="utf-8")
            wanted[str(p)] = (files[i].name, rate)
    return wanted


def counting_finds(counts: list[tuple[int, bool]]):  # noqa: ANN201
    """Wrap CandidateFinder.find to record (candidates, true source among them) per call."""
    original = candidates.CandidateFinder.find

    def find(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        found = original(self, *args, **kwargs)
        counts.append((len(found), set(found)))
        return found

    return original, find


def run_checks(coll: Collection, wanted: dict[str, tuple[str, float]], every_kgram: bool, settings: Settings) -> dict:
    finder = coll.finder(settings)
    finder.check_every_kgram = every_kgram
    calls: list = []
    original, patched = counting_finds(calls)
    candidates.CandidateFinder.find = patched
    try:
        t = time.perf_counter()
        results = coll.check(list(wanted), settings)
        secs = time.perf_counter() - t
    finally:
        candidates.CandidateFinder.find = original
    ids = {Path(d.path).name: d.doc_id for d in coll.documents()}
    per_rate: dict[float, list[int]] = {r: [0, 0, 0] for r in RATES}  # first, candidate, n
    for res, (n_cands, cand_ids) in zip(results, calls):
        name, rate = wanted[res.path]
        ranked = [Path(m.source.path).name for m in res.matches]
        per_rate[rate][0] += bool(ranked) and ranked[0] == name
        per_rate[rate][1] += ids.get(name) in cand_ids
        per_rate[rate][2] += 1
    return dict(per_rate=per_rate, candidates=sum(c for c, _ in calls) / max(len(calls), 1),
                ms_per_check=1000 * secs / max(len(wanted), 1))


def mosaics(n: int, seed: int, folder: Path, copied: set[str]) -> None:
    rng = random.Random(seed)
    paras = []
    for lang in FOLDERS:
        for f in sorted((corpus_root() / FOLDERS[lang]).glob("*.txt")):
            if f"{lang}-{f.name}" in copied:
                continue  # their paragraphs in many documents would be template text
            paras.append(paragraphs(f.read_text(encoding="utf-8")))
    for j in range(n):
        doc = []
        for _ in range(rng.randint(3, 6)):
            src = rng.choice(paras)
            doc.append(rng.choice(src))
        (folder / f"mosaic-{j:05d}.txt").write_text("\n\n".join(doc), encoding="utf-8")


def report(label: str, lang: str, before: dict, after: dict) -> None:
    print(f"\n{label} ({lang}): true source first / proposed, of n")
    print("| rate | before: first | before: proposed | after: first | after: proposed | n |")
    print("|---|---|---|---|---|---|")
    for r in RATES:
        b, a = before["per_rate"][r], after["per_rate"][r]
        print(f"| {int(r * 100)} % | {b[0]} | {b[1]} | {a[0]} | {a[1]} | {b[2]} |")
    print(f"candidates per check: {before['candidates']:.1f} before, {after['candidates']:.1f} after; "
          f"ms per check: {before['ms_per_check']:.0f} before, {after['ms_per_check']:.0f} after")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-lang", type=int, default=24)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--mosaic", type=int, default=0, help="documents in the larger index (0: skip it)")
    ap.add_argument("--langs", default="zh,en")
    ap.add_argument("--anchor-kgram", type=int, default=FingerprintParams.anchor_kgram,
                    help="index setting to compare with (the product's default unless given)")
    ap.add_argument("--anchor-window", type=int, default=FingerprintParams.anchor_window)
    args = ap.parse_args()
    settings = Settings(workers=2, fingerprints=FingerprintParams(anchor_kgram=args.anchor_kgram,
                                                                  anchor_window=args.anchor_window))
    print(f"anchors: k-grams of {args.anchor_kgram} units, windows of {args.anchor_window}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        queries = tmp / "queries"
        queries.mkdir()
        wanted_all = {}
        for lang in args.langs.split(","):
            wanted = edited_copies(lang, args.per_lang, args.seed, queries)
            # the two folders use the same file names: prefixed in the index of both languages
            wanted_all.update({p: (f"{lang}-{name}", rate) for p, (name, rate) in wanted.items()})
            folder = tmp / f"coll-{lang}"
            folder.mkdir()
            for f in sorted((corpus_root() / FOLDERS[lang]).glob("*.txt")):
                (folder / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
            with Collection.open(tmp / f"{lang}.ndx") as coll:
                coll.index_folder(str(folder), settings)
                run_checks(coll, dict(list(wanted.items())[:2]), True, settings)  # warm: search tables, template model
                before = run_checks(coll, wanted, False, settings)
                after = run_checks(coll, wanted, True, settings)
            report(f"{len(list(folder.iterdir()))} sections indexed", lang, before, after)
        if args.mosaic:
            folder = tmp / "coll-all"
            folder.mkdir()
            for lang in FOLDERS:
                for f in sorted((corpus_root() / FOLDERS[lang]).glob("*.txt")):
                    (folder / f"{lang}-{f.name}").write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
            mosaics(args.mosaic, args.seed, folder, {name for name, _ in wanted_all.values()})
            t = time.perf_counter()
            with Collection.open(tmp / "all.ndx") as coll:
                coll.index_folder(str(folder), settings)
                print(f"\nindexed {len(list(folder.iterdir()))} documents in {time.perf_counter() - t:.0f} s")
                run_checks(coll, dict(list(wanted_all.items())[:2]), True, settings)
                before = run_checks(coll, wanted_all, False, settings)
                after = run_checks(coll, wanted_all, True, settings)
                report(f"{len(list(folder.iterdir()))} documents (sections + mosaics)", "both", before, after)
                # the look-up alone for a long submission (every English section once: many k-grams)
                en = sorted((corpus_root() / FOLDERS["en"]).glob("*.txt"))
                text = "\n\n".join(f.read_text(encoding="utf-8") for f in en)
                units = tokenize(text)
                fp = fingerprint(text, units, settings.fingerprints)
                finder = coll.finder(settings)
                for every in (False, True, False, True):
                    finder.check_every_kgram = every
                    t = time.perf_counter()
                    found = finder.find(fp, units.ids)
                    print(f"candidates of a {len(units)}-unit submission, {'every k-gram' if every else 'winnowed'}: "
                          f"{len(found)} in {1000 * (time.perf_counter() - t):.0f} ms")

if __name__ == "__main__":
    main()
