"""Issue 15's acceptance trial: Chinese man pages checked after 10/20/30 % of their jieba words were replaced.

Usage: python zh_edits.py ZH_RAW_DIR NEGATIVES_DIR WORK_DIR [--docx-pdf] [--holdout]

With --holdout, the 20 negatives are instead 20 pages of ZH_RAW_DIR left out of the index (same
domain and vocabulary: the harder false-alarm test); pages byte-identical to an indexed one are not used.

Indexes ZH_RAW_DIR (rendered manpages-zh pages) with `neardup index`, writes 15 sources × 3 edited
versions (benchmarks/obfuscate.py, substitution by other real jieba words of the collection) and 20
unrelated negatives (Chinese texts from another source), checks them all with one `neardup check --json`,
and prints: the true source's rank and containment per rate, and the negatives' best containment.
With --docx-pdf, 3 of the 20 % versions are also checked as LibreOffice DOCX and PDF.
"""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from obfuscate import chinese_vocab, obfuscate_zh  # noqa: E402

BIN = Path(sys.executable).parent
CJK = re.compile(r"[\u4e00-\u9fff]")
TARGET = {0.1: 0.95, 0.2: 0.90, 0.3: 0.80}


def check(files: list[Path], db: Path) -> dict[str, dict]:
    out = subprocess.run([str(BIN / "neardup"), "check", *map(str, files), "--db", str(db), "--json", "-q", "--top", "10"],
                         capture_output=True, text=True, check=True, timeout=1800).stdout
    return {Path(r["path"]).name: r for r in json.loads(out)}


def main() -> None:
    raw, neg_dir, work = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    rng = random.Random(15)
    if work.exists():
        shutil.rmtree(work)
    coll, subs = work / "coll", work / "subs"
    coll.mkdir(parents=True)
    subs.mkdir()
    pages = sorted(raw.glob("*.txt"))
    texts = {p.name: p.read_text(encoding="utf-8") for p in pages}
    held: dict[str, str] = {}
    if "--holdout" in sys.argv:
        counts: dict[str, int] = {}
        for t in texts.values():
            counts[t] = counts.get(t, 0) + 1
        lone = [n for n, t in texts.items() if counts[t] == 1 and len(CJK.findall(t)) >= 300]
        for n in random.Random(151).sample(lone, 20):
            held[n] = texts.pop(n)
    for name, t in texts.items():
        (coll / name).write_text(t, encoding="utf-8")
    db = work / "zh.db"
    subprocess.run([str(BIN / "neardup"), "index", str(coll), "--db", str(db), "-q"], check=True, timeout=1800)
    vocab = chinese_vocab(list(texts.values()))
    rich = sorted(n for n, t in texts.items() if len(CJK.findall(t)) >= 1500)
    sources = rng.sample(rich, 15)
    files, truth = [], {}
    for n in sources:
        for rate in TARGET:
            f = subs / f"{Path(n).stem}.r{int(rate * 100)}.txt"
            f.write_text(obfuscate_zh(texts[n], rate, vocab, rng), encoding="utf-8")
            files.append(f)
            truth[f.name] = (n, rate)
    if held:
        negs = [Path(n) for n in sorted(held)]
        for n in negs:
            (subs / f"neg-{n.name}").write_text(held[n.name], encoding="utf-8")
            files.append(subs / f"neg-{n.name}")
    else:
        negs = sorted(neg_dir.glob("*.txt"), key=lambda p: -p.stat().st_size)[:20]
        for p in negs:
            f = subs / f"neg-{p.name}"
            shutil.copyfile(p, f)
            files.append(f)
    if "--docx-pdf" in sys.argv:
        picked = [f for f in files if f.name.endswith(".r20.txt")][:3]
        for fmt in ("docx", "pdf"):
            subprocess.run(["soffice", "--headless", "--convert-to", fmt, "--outdir", str(subs), *map(str, picked)],
                           capture_output=True, check=True, timeout=600)
            for f in picked:
                g = subs / f"{f.stem}.{fmt}"
                files.append(g)
                truth[g.name] = (truth[f.name][0], f"{fmt}@0.2")
    results = check(files, db)
    by_rate: dict = {}
    for name, (src, rate) in truth.items():
        r = results[name]
        ms = r["matches"]
        # a page byte-identical to the source (manpages-zh has such twins: zcat = gzip) is the source too
        same = {n for n, t in texts.items() if t == texts[src]}
        rank = next((i + 1 for i, m in enumerate(ms) if Path(m["path"]).name in same), None)
        cont = next((m["containment"] for m in ms if Path(m["path"]).name in same), 0.0)
        by_rate.setdefault(rate, []).append((rank, cont, name))
    for rate, rows in by_rate.items():
        conts = [c for _, c, _ in rows]
        firsts = sum(1 for k, _, _ in rows if k == 1)
        target = TARGET.get(rate)
        print(f"rate {rate}: true source first {firsts}/{len(rows)}; containment min {min(conts):.3f} "
              f"mean {sum(conts) / len(conts):.3f}" + (f" (target ≥ {target})" if target else ""))
        for k, c, name in rows:
            if k != 1 or (target and c < target) or "--verbose" in sys.argv:
                print(f"   {name}: rank {k}, containment {c:.3f}")
    worst = max(((max((m["containment"] for m in results[f"neg-{p.name}"]["matches"]), default=0.0), p.name) for p in negs))
    print(f"negatives: {len(negs)}, best containment of any {worst[0]:.3f} ({worst[1]}) (target < 0.1)")


if __name__ == "__main__":
    main()
