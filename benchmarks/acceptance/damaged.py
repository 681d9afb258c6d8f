"""Issue 17's acceptance trial: damaged real files are indexed with a warning and checked to their source.

Usage: python damaged.py ZH_RAW_DIR WORK_DIR

WORK_DIR/coll     the clean sources (rendered manpages-zh pages) — the collection checked against
WORK_DIR/damaged  one damaged file per source:
  cut-utf8.txt       UTF-8 Chinese text ending in the middle of a 3-byte character
  stray-40k.txt      40 KB UTF-8 text with one stray 0xFF byte in the middle
  gb18030-bad.txt    GB18030 text with one invalid byte pair (0xFF 0xFF) in the middle
  cut92.docx         LibreOffice DOCX cut at 92 % (central directory lost)
  noxref.pdf         LibreOffice PDF cut just before its last `xref` (cross-reference table and trailer lost)
Prints `neardup index` on the damaged folder (warnings, skipped) and the top source of each check.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
CJK = re.compile(r"[\u4e00-\u9fff]")


def main() -> None:
    raw, work = Path(sys.argv[1]), Path(sys.argv[2])
    if work.exists():
        shutil.rmtree(work)
    coll, dmg, tmp = work / "coll", work / "damaged", work / "tmp"
    for d in (coll, dmg, tmp):
        d.mkdir(parents=True)
    pages = sorted(raw.glob("*.txt"))
    texts = {p.name: p.read_text(encoding="utf-8") for p in pages}
    for n, t in texts.items():
        shutil.copyfile(raw / n, coll / n)
    zh = sorted((n for n, t in texts.items() if len(CJK.findall(t)) >= 1500 and len(t.encode()) < 30000),
                key=lambda n: -len(CJK.findall(texts[n])))
    big = min((n for n, t in texts.items() if len(t.encode()) >= 40000), key=lambda n: len(texts[n].encode()))
    src = {"cut-utf8.txt": zh[0], "stray-40k.txt": big, "gb18030-bad.txt": zh[1], "cut92.docx": zh[2], "noxref.pdf": zh[3]}
    b = texts[zh[0]].encode("utf-8")
    i = len(b) - 200
    while (b[i] & 0xF0) != 0xE0:  # the lead byte of a 3-byte character near the end
        i -= 1
    (dmg / "cut-utf8.txt").write_bytes(b[: i + 2])
    b = texts[big].encode("utf-8")[:40000].decode("utf-8", "ignore").encode("utf-8")  # 40 KB, whole characters
    (dmg / "stray-40k.txt").write_bytes(b[: len(b) // 2] + b"\xff" + b[len(b) // 2:])
    b = texts[zh[1]].encode("gb18030")
    mid = len(b) // 2
    while b[mid] < 0x81:  # a lead byte of a double-byte character
        mid += 1
    (dmg / "gb18030-bad.txt").write_bytes(b[:mid] + b"\xff\xff" + b[mid + 2:])
    for name, fmt in (("cut92.docx", "docx"), ("noxref.pdf", "pdf")):
        n = src[name]
        shutil.copyfile(raw / n, tmp / n)
        subprocess.run(["soffice", "--headless", "--convert-to", fmt, "--outdir", str(tmp), str(tmp / n)],
                       capture_output=True, check=True, timeout=300)
        data = (tmp / f"{Path(n).stem}.{fmt}").read_bytes()
        cut = int(len(data) * 0.92) if fmt == "docx" else data.rindex(b"xref")
        (dmg / name).write_bytes(data[:cut])
    shutil.rmtree(tmp)
    db, dmg_db = work / "coll.db", work / "damaged.db"
    subprocess.run([str(BIN / "neardup"), "index", str(coll), "--db", str(db), "-q"], check=True, timeout=1800)
    idx = subprocess.run([str(BIN / "neardup"), "index", str(dmg), "--db", str(dmg_db)], capture_output=True, text=True,
                         timeout=900)
    print("neardup index damaged/:", idx.returncode)
    print("\n".join(line for line in idx.stderr.splitlines() + idx.stdout.splitlines() if "%]" not in line))
    out = subprocess.run([str(BIN / "neardup"), "check", *sorted(map(str, dmg.iterdir())), "--db", str(db), "--json", "-q"],
                         capture_output=True, text=True, timeout=900)
    for r in json.loads(out.stdout):
        name = Path(r["path"]).name
        top = Path(r["matches"][0]["path"]).name if r["matches"] else None
        same = {n for n, t in texts.items() if t == texts[src[name]]}
        print(f"{name}: top source {top} ({'TRUE' if top in same else 'WRONG, expected ' + src[name]}), "
              f"containment {r['matches'][0]['containment'] if r['matches'] else 0:.3f}, skipped: {r['skipped_reason']}")
    if out.stderr.strip():
        print("check stderr:", out.stderr.strip()[-800:])


if __name__ == "__main__":
    main()
