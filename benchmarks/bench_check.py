"""Speed of `check` (a 30-page docx against a large index) and of `pairs`, with their peers.

The collection (cached under ``benchmarks/out/bench_check/``, git-ignored):

- every section of the shared development corpus (real text, both languages);
- per language, the planted sources of the query: ``S1`` (a generated document of which the
  query holds a light edit), ``S2`` (a real corpus section the query copies whole) and three
  ``P`` documents, each holding one passage of the query's own fresh text (partial copies);
- the bulk: generated proposals (:mod:`synthcorpus`: order-2 Markov text trained on the corpus,
  60 % Chinese 3–8k characters, 40 % English 1.5–4k words), unrelated to each other.

Documents are written straight into the index (``Store`` + ``indexer.prepare`` in a pool of two
processes, one transaction per 500 documents) — extraction of files is measured elsewhere and
the fingerprinting is the product's own. A copy of the index is kept at each checkpoint size
(2k, 5k, 10k, 20k, …, and the size reached when the budget ran out) so check time can be measured at several sizes and extrapolated to 100k when
the build budget does not reach it.

The queries: one English (~15k words) and one Chinese (~30k characters) docx written with
python-docx, each = light edit of S1 + fresh text + S2 + fresh text (the P passages are in the
fresh text). Measured per checkpoint:

- cold: ``neardup check Q.docx --db F --json`` in a fresh process (start-up, jieba, extraction
  in a worker, loading the search tables), wall time;
- warm: ``Collection.check`` in-process, second call (as the window sees it), with a breakdown:
  extraction, units + marks, fingerprints, candidate search per channel, candidates, verification;
- peer: brute-force verification of the query against a random sample of indexed documents,
  extrapolated to the whole index and to 100k;
- ranks of the planted sources in the result.

Then ``pairs`` on a copy of a checkpoint, in a child process: time and peak memory (VmHWM).

Usage::

    python benchmarks/bench_check.py [--n 100000] [--budget-min 20] [--pairs-n 5000]
    python benchmarks/bench_check.py --build-only ...
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import synthcorpus  # noqa: E402
from neardup_gui.core import indexer  # noqa: E402
from neardup_gui.core.settings import FingerprintParams, Settings  # noqa: E402
from neardup_gui.core.store import Store  # noqa: E402
from neardup_gui.core.units import sentences  # noqa: E402

OUT = Path(os.environ.get("NEARDUP_BENCH_OUT", HERE / "out" / "bench_check"))
DB = OUT / "index.sqlite"
CHECKPOINTS = (2000, 5000, 10000, 20000, 40000, 60000, 80000, 100000)
BATCH = 500
ZH_SHARE = 0.6
PLANT_SEED = 10**9  # seeds of the query's own texts: never used by a bulk document
PARAMS = FingerprintParams()
NEARDUP = ROOT / ".venv" / "bin" / "neardup"


# ------------------------------------------------------------------------------ the texts


@lru_cache(maxsize=2)
def model(lang: str) -> synthcorpus.Markov:
    return synthcorpus.Markov.train(lang)


def real_sections() -> list[tuple[str, str]]:
    """(rel, text) of every corpus section."""
    out = []
    for lang, d in synthcorpus.LANG_DIRS.items():
        for p in sorted((synthcorpus.CORPUS / d).glob("*.txt")):
            out.append((f"real/{lang}/{p.name}", p.read_text(encoding="utf-8").strip()))
    return out


def light_edit(text: str, lang: str, rng: random.Random) -> str:
    """A resubmission: 5 % of sentences dropped, 10 % with two neighbouring units swapped."""
    out = []
    for s, e in sentences(text):
        sent = text[s:e]
        r = rng.random()
        if r < 0.05:
            continue
        if r < 0.15:
            parts = sent.split(" ") if lang == "en" else list(sent)
            if len(parts) > 3:
                i = rng.randrange(len(parts) - 1)
                parts[i], parts[i + 1] = parts[i + 1], parts[i]
            sent = (" " if lang == "en" else "").join(parts)
        out.append(sent)
    # keep paragraph breaks roughly: one paragraph per ~6 sentences
    paras = [(" " if lang == "en" else "").join(out[i:i + 6]) for i in range(0, len(out), 6)]
    return "\n".join(paras)


def _size(text: str, lang: str) -> int:
    return len(text.split()) if lang == "en" else len(text)


@dataclass(frozen=True)
class Plan:
    """The query of one language and the documents planted for it."""

    lang: str
    query_paragraphs: tuple[str, ...]
    planted: tuple[tuple[str, str], ...]  # (rel, text) written into the index
    sources: tuple[str, ...]  # rels the check must find, S1 first (it must rank first)


def make_plan(lang: str, sections: list[tuple[str, str]]) -> Plan:
    rng = random.Random(PLANT_SEED + (1 if lang == "en" else 2))
    m = model(lang)
    target = 15000 if lang == "en" else 30000
    s1 = m.generate(random.Random(PLANT_SEED + 10 + (lang == "zh")), 3500 if lang == "en" else 7000)
    s2_rel, s2 = max((x for x in sections if x[0].startswith(f"real/{lang}/")), key=lambda x: len(x[1]))
    fresh_units = target - _size(s1, lang) - _size(s2, lang)
    fresh = m.generate(random.Random(PLANT_SEED + 20 + (lang == "zh")), fresh_units).split("\n")
    # three passages of the fresh text, each copied into one planted P document
    n = len(fresh)
    passages = [fresh[int(n * f):int(n * f) + max(2, n // 25)] for f in (0.15, 0.45, 0.8)]
    planted = [(f"planted/{lang}/S1.txt", s1)]
    for j, passage in enumerate(passages, 1):
        own = m.generate(random.Random(PLANT_SEED + 30 + 10 * j + (lang == "zh")), 1500 if lang == "en" else 3000).split("\n")
        half = len(own) // 2
        planted.append((f"planted/{lang}/P{j}.txt", "\n".join(own[:half] + passage + own[half:])))
    query = light_edit(s1, lang, rng).split("\n") + fresh[: n // 2] + s2.split("\n") + fresh[n // 2:]
    return Plan(lang, tuple(p for p in query if p.strip()), tuple(planted),
                (f"planted/{lang}/S1.txt", s2_rel, *(f"planted/{lang}/P{j}.txt" for j in (1, 2, 3))))


def bulk_doc(i: int) -> tuple[str, str]:
    """Bulk document number ``i``: (rel, text), deterministic."""
    rng = random.Random(i)
    lang = "zh" if rng.random() < ZH_SHARE else "en"
    return f"synth/{lang}/{i // 1000:03d}/{i:06d}.txt", model(lang).generate(rng, synthcorpus.doc_length(lang, rng))


def _prepare_bulk(i: int):
    rel, text = bulk_doc(i)
    return rel, text, indexer.prepare(text, PARAMS)


def _prepare_given(item: tuple[str, str]):
    rel, text = item
    return rel, text, indexer.prepare(text, PARAMS)


# ------------------------------------------------------------------------------ the index


def _paragraph_spans(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for para in text.split("\n"):
        if para:
            spans.append((pos, pos + len(para)))
        pos += len(para) + 1
    return spans


def _write(store: Store, conn, rel: str, text: str, prep) -> None:  # noqa: ANN001
    """What ``indexer.write_indexed`` writes, inside the caller's (batched) transaction."""
    path = str(OUT / "docs" / rel)
    raw = text.encode("utf-8")
    doc_id = store.write_document(conn, rel=rel, path=path, size=len(raw), mtime_ns=0,
                                  sha256=hashlib.sha256(raw).hexdigest(), status="indexed", fmt="txt",
                                  units=prep.units, meta={"encoding": "utf-8"})
    store.write_text(conn, doc_id, text, _paragraph_spans(text), (), "")
    store.write_fingerprints(conn, doc_id, params_json=indexer.params_key(PARAMS), simhash=prep.simhash,
                             minhash_words=prep.minhash, lsh_keys=prep.lsh_keys, sentence_fps=prep.sentence_fps,
                             anchors=prep.anchors, sentence_hashes=prep.sentence_hashes, grams=prep.grams)


def checkpoint_path(n: int) -> Path:
    return OUT / f"index-{n}.sqlite"


def _snapshot(store: Store, n: int) -> None:
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    tmp = checkpoint_path(n).with_suffix(".tmp")
    shutil.copyfile(store.path, tmp)
    os.replace(tmp, checkpoint_path(n))
    print(f"  checkpoint {n} documents: {checkpoint_path(n).stat().st_size / 1e6:.0f} MB", flush=True)


def build(n_target: int, budget_s: float, plans: list[Plan], sections: list[tuple[str, str]]) -> int:
    """Build (or extend) the index to ``n_target`` documents, or as far as ``budget_s`` allows."""
    OUT.mkdir(parents=True, exist_ok=True)
    store = Store(DB)
    store.conn.execute("PRAGMA synchronous = OFF")  # build speed; the benchmark rebuilds on a crash
    have = store.count()
    fixed = sections + [d for p in plans for d in p.planted]
    started = time.monotonic()
    if have < len(fixed):
        with mp.Pool(2) as pool, store.transaction() as conn:
            for rel, text, prep in pool.imap(_prepare_given, fixed[have:], chunksize=8):
                _write(store, conn, rel, text, prep)
        have = store.count()
    next_bulk = have - len(fixed)
    print(f"building: {have} documents in the index, target {n_target}, budget {budget_s / 60:.0f} min", flush=True)
    if have < n_target:
        pool = mp.Pool(2)
        it = pool.imap(_prepare_bulk, range(next_bulk, next_bulk + n_target - have), chunksize=16)
        done_early = False
        try:
            while have < n_target and not done_early:
                with store.transaction() as conn:
                    for _ in range(min(BATCH, n_target - have)):
                        rel, text, prep = next(it)
                        _write(store, conn, rel, text, prep)
                        have += 1
                        if have in CHECKPOINTS:
                            break
                rate = (have - len(fixed) - next_bulk) / max(time.monotonic() - started, 1e-9)
                print(f"  {have} documents ({rate:.1f} docs/s)", flush=True)
                if have in CHECKPOINTS and not checkpoint_path(have).exists():
                    _snapshot(store, have)
                if time.monotonic() - started > budget_s:
                    done_early = True
        finally:
            pool.terminate()
            pool.join()
    if not any(checkpoint_path(c).exists() for c in CHECKPOINTS if c >= have) and not checkpoint_path(have).exists():
        _snapshot(store, have)
    store.close()
    return have


# ------------------------------------------------------------------------------ the queries


def write_query(plan: Plan) -> Path:
    import docx

    path = OUT / f"query-{plan.lang}.docx"
    if path.exists():
        return path
    d = docx.Document()
    d.add_heading("Research proposal" if plan.lang == "en" else "项目申请书", 0)
    for para in plan.query_paragraphs:
        d.add_paragraph(para)
    d.save(str(path))
    return path


def vm_hwm_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# ------------------------------------------------------------------------------ measurements (child processes)


def child_warm(db: str, query: str, sources: list[str], sample: int) -> dict:
    """Warm ``Collection.check`` with a breakdown, ranks of the planted sources, brute-force peer."""
    from neardup_gui.core import candidates as cand_mod
    from neardup_gui.core.collection import SOURCE_FLOOR, Collection, read_submission
    from neardup_gui.core.prepared import UnitCodes
    from neardup_gui.core.fingerprints import fingerprint, gram_kgrams
    from neardup_gui.core.units import tokenize

    settings = Settings()
    out: dict = {}
    coll = Collection.open(db, create=False)
    t = time.perf_counter()
    first = coll.check([query], settings)[0]
    out["first_check_s"] = time.perf_counter() - t
    t = time.perf_counter()
    res = coll.check([query], settings)[0]
    out["warm_check_s"] = time.perf_counter() - t
    rels = [m.source.rel for m in res.matches]
    out["matches"] = len(rels)
    out["ranks"] = {s: (rels.index(s) + 1 if s in rels else None) for s in sources}
    out["top"] = [(m.source.rel, round(m.comparison.containment_a, 3), round(m.comparison.similarity, 3), list(m.found_by))
                  for m in res.matches[:6]]
    assert [m.source.rel for m in first.matches] == rels

    # breakdown of the warm path, step by step as check_document does it
    b: dict[str, float] = {}
    t = time.perf_counter(); doc = read_submission(query, settings); b["extraction (worker process)"] = time.perf_counter() - t
    t = time.perf_counter(); v = coll.verifier(settings); b["template keys + verifier"] = time.perf_counter() - t
    t = time.perf_counter(); units = tokenize(doc.text); sub = v.mark(doc.text, doc.furniture, units); b["units + marks"] = time.perf_counter() - t
    t = time.perf_counter(); fp = fingerprint(doc.text, units, settings.fingerprints); b["fingerprints"] = time.perf_counter() - t
    t = time.perf_counter(); finder = coll.finder(settings); b["finder (cached)"] = time.perf_counter() - t
    countable = units.ids[sub.countable_mask()]
    store = coll.store
    t = time.perf_counter()
    qa = gram_kgrams(countable, settings.fingerprints)  # a check looks up every k-gram among the stored grams
    counts = store.lookup_counts("grams", "hash", qa) if len(qa) else {}
    b["channel grams (SQL)"] = time.perf_counter() - t
    out["anchor_docs"] = len(counts)
    t = time.perf_counter(); mids, _ = finder.minhash.query(fp.minhash_bits, finder.radius); b["channel minhash (alg.H)"] = time.perf_counter() - t
    t = time.perf_counter(); sids, _ = finder.simhash.query(np.array([fp.simhash], dtype=np.uint64), cand_mod.SIMHASH_RADIUS); b["channel simhash"] = time.perf_counter() - t
    t = time.perf_counter(); lids = store.lookup_counts("lsh_keys", "key", fp.lsh_keys); b["channel lsh (SQL)"] = time.perf_counter() - t
    sent = fp.sentence_fps[fp.sentence_fps != 0]
    t = time.perf_counter(); snids = store.lookup_counts("sentence_fps", "fp", sent) if len(sent) else {}; b["channel sentences (SQL)"] = time.perf_counter() - t
    t = time.perf_counter(); found = finder.find(fp, countable); b["find() total incl. estimates"] = time.perf_counter() - t
    out["channel_hits"] = {"grams": min(len(counts), cand_mod.MAX_ANCHOR_CANDIDATES), "minhash": len(mids),
                           "simhash": len(sids), "lsh": len(lids), "sentences": len(snids)}
    out["candidates"] = len(found)
    coll._marked.clear()  # verification as on a first check of this submission: sources not cached
    t = time.perf_counter()
    for c in found.values():
        coll.marked(c.doc_id, v)
    b["verification: load + mark sources"] = time.perf_counter() - t
    t = time.perf_counter()  # (as check_document does it: the submission coded once, the prepared path)
    codes = UnitCodes()
    prepared_sub = v.prepare(sub, codes)
    for c in found.values():
        v.compare_prepared(prepared_sub, v.prepare(coll.marked(c.doc_id, v), codes),
                           min_similarity=SOURCE_FLOOR, min_containment=SOURCE_FLOOR)
    b["verification: LCS compare"] = time.perf_counter() - t
    out["breakdown"] = b
    out["query_units"] = len(units)

    # peer: brute force, every document verified (sample, extrapolated)
    ids = [r[0] for r in store.conn.execute("SELECT id FROM documents WHERE status = 'indexed'")]
    rng = random.Random(7)
    pick = rng.sample(ids, min(sample, len(ids)))
    t = time.perf_counter()
    for doc_id in pick:
        stored = store.text(doc_id)
        v.compare(sub, v.mark(stored.text, stored.furniture), min_similarity=0.01, min_containment=0.01)
    per = (time.perf_counter() - t) / len(pick)
    out["brute_per_doc_s"] = per
    out["n"] = len(ids)

    import cProfile
    import io
    import pstats

    prof = cProfile.Profile()
    coll._marked.clear()
    prof.enable()
    coll.check([query], settings)
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(30)
    out["profile"] = s.getvalue()
    out["vm_hwm_mb"] = vm_hwm_mb()
    coll.close()
    return out


def child_pairs(db: str) -> dict:
    from neardup_gui.core.collection import Collection

    settings = Settings()
    coll = Collection.open(db, create=False)
    n = coll.stats()["indexed"]
    t = time.perf_counter()
    pairs = coll.pairs(settings)
    elapsed = time.perf_counter() - t
    low = coll.store.conn.execute("SELECT COUNT(*) FROM pairs").fetchone()[0]
    coll.close()
    return {"n": n, "pairs_s": elapsed, "pairs": len(pairs), "cached_pairs": low, "vm_hwm_mb": vm_hwm_mb(),
            "top": [(p.a.rel, p.b.rel, round(p.similarity, 3)) for p in pairs[:8]]}


def ensure_search_tables(db: Path) -> float:
    """Save the search tables in the index (as ``index_folder`` does at ≥ SNAPSHOT_MIN_DOCS),
    stamped with the fingerprint generation."""
    from neardup_gui.core import candidates as cand_mod
    from neardup_gui.core.collection import Collection

    coll = Collection.open(db, create=False)
    try:
        store = coll.store
        stamps = {r[0] for r in store.conn.execute("SELECT generation FROM search_tables")}
        if stamps == {store.fingerprint_generation()}:
            return 0.0  # saved already, at today's generation (schema 3): opened without a scan
        with store.transaction() as conn:
            conn.execute("DELETE FROM search_tables")  # none, or saved before schema 3
        cand_mod.SNAPSHOT_MIN_DOCS = 0  # small checkpoints too, so every size is measured alike
        t = time.perf_counter()
        coll.finder(Settings()).save()
        coll.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return time.perf_counter() - t
    finally:
        coll.close()


def run_child(*args: str, timeout: float | None = None) -> dict:
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        raise RuntimeError(f"child {args} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def cold_check(db: Path, query: Path) -> tuple[float, dict]:
    t = time.perf_counter()
    proc = subprocess.run([str(NEARDUP), "check", str(query), "--db", str(db), "--json", "-q"],
                          capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode not in (0,):
        raise RuntimeError(f"neardup check failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return wall, json.loads(proc.stdout)


# ------------------------------------------------------------------------------ main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="documents in the index (default 100000)")
    ap.add_argument("--budget-min", type=float, default=20.0, help="build time budget in minutes")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--sizes", default="", help="checkpoint sizes to measure (default: all built)")
    ap.add_argument("--pairs-n", type=int, default=5000, help="checkpoint on which pairs is measured")
    ap.add_argument("--sample", type=int, default=200, help="documents in the brute-force sample")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        kind, *rest = args.child
        if kind == "warm":
            print(json.dumps(child_warm(rest[0], rest[1], json.loads(rest[2]), int(rest[3]))))
        elif kind == "pairs":
            print(json.dumps(child_pairs(rest[0])))
        return 0

    sections = real_sections()
    plans = [make_plan("en", sections), make_plan("zh", sections)]
    built = build(args.n, args.budget_min * 60, plans, sections)
    queries = {p.lang: write_query(p) for p in plans}
    if args.build_only:
        print(f"built {built} documents")
        return 0

    sizes = sorted(int(m.group(1)) for p in OUT.glob("index-*.sqlite") if (m := re.match(r"index-(\d+)\.sqlite$", p.name)))
    if args.sizes:
        sizes = [s for s in sizes if str(s) in args.sizes.split(",")]
    rows = []
    for n in sizes:
        db = checkpoint_path(n)
        saved = ensure_search_tables(db)
        for plan in plans:
            q = queries[plan.lang]
            cold_check(db, q)  # page cache warm-up: the examiner's index is read often
            cold, cold_json = cold_check(db, q)
            warm = run_child("--child", "warm", str(db), str(q), json.dumps(list(plan.sources)), str(args.sample))
            cli_rels = [m["path"] for m in cold_json[0]["matches"]]
            rows.append({"n": n, "lang": plan.lang, "cold_s": cold, "save_tables_s": saved,
                         "cli_first": cli_rels[0] if cli_rels else None, **warm})
            r = rows[-1]
            print(f"\n## {n} documents, {plan.lang} query ({r['query_units']} units)", flush=True)
            print(f"cold CLI {cold:.2f} s; first in-process check {r['first_check_s']:.2f} s; warm {r['warm_check_s']:.2f} s; "
                  f"brute force {r['brute_per_doc_s'] * 1e3:.1f} ms/doc → {r['brute_per_doc_s'] * n:.0f} s here, "
                  f"{r['brute_per_doc_s'] * 100_000:.0f} s at 100k")
            print(f"candidates {r['candidates']} (per channel {r['channel_hits']}, docs sharing a gram {r['anchor_docs']}); "
                  f"ranks of planted sources {r['ranks']}; CLI first = {r['cli_first']}")
            for k, val in r["breakdown"].items():
                print(f"  {k:40s} {val * 1e3:8.1f} ms")
            print("  top:", r["top"])
            (OUT / f"profile-{n}-{plan.lang}.txt").write_text(r["profile"], encoding="utf-8")

    pairs_row = None
    if args.pairs_n and checkpoint_path(args.pairs_n).exists():
        work = OUT / f"pairs-{args.pairs_n}.sqlite"
        shutil.copyfile(checkpoint_path(args.pairs_n), work)
        pairs_row = run_child("--child", "pairs", str(work))
        work.unlink()
        for suffix in ("-wal", "-shm"):
            Path(str(work) + suffix).unlink(missing_ok=True)

    print("\n| documents | query | cold CLI (s) | warm check (s) | candidates | verification (s) | planted ranks | brute force here (s) | brute force at 100k (s) |")
    print("|---:|---|---:|---:|---:|---:|---|---:|---:|")
    for r in rows:
        ver = r["breakdown"]["verification: load + mark sources"] + r["breakdown"]["verification: LCS compare"]
        ranks = ",".join(str(x) for x in r["ranks"].values())
        print(f"| {r['n']:,} | {r['lang']} | {r['cold_s']:.2f} | {r['warm_check_s']:.2f} | {r['candidates']} | {ver:.2f} | "
              f"{ranks} | {r['brute_per_doc_s'] * r['n']:.0f} | {r['brute_per_doc_s'] * 100_000:.0f} |")
    if len({r["n"] for r in rows}) >= 2:
        for lang in ("en", "zh"):
            pts = [(r["n"], r["cold_s"], r["warm_check_s"]) for r in rows if r["lang"] == lang]
            if len(pts) >= 2:
                xs = np.array([p[0] for p in pts], float)
                for col, name in ((1, "cold CLI"), (2, "warm check")):
                    slope, icept = np.polyfit(xs, np.array([p[col] for p in pts]), 1)
                    print(f"extrapolated {name} at 100,000 ({lang}, linear fit over {len(pts)} sizes): {icept + slope * 100_000:.2f} s")
    if pairs_row:
        per = pairs_row["pairs_s"] / pairs_row["n"]
        print(f"\npairs on {pairs_row['n']:,} documents: {pairs_row['pairs_s']:.1f} s ({per * 1e3:.1f} ms/doc), "
              f"peak memory (VmHWM) {pairs_row['vm_hwm_mb']:.0f} MB; {pairs_row['pairs']} pairs ≥ 0.7, "
              f"{pairs_row['cached_pairs']} cached ≥ 0.2; extrapolated to 100,000 at the same per-document cost: "
              f"{per * 100_000 / 60:.0f} min")
        print("  top pairs:", pairs_row["top"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
