"""Build the issue-14 trial collections from rendered man pages (see render_man.py).

Usage: python build_man.py RAW_DIR OUT_DIR [--seed S] [--ring-rate R]

OUT_DIR/coll   525 documents: 518 real pages (6 of them carry an 800-character passage of
               page SOURCE) + a ring of 7 (one page + six light edits, 1.5 % of words each)
OUT_DIR/subs   byte copies / the 7th passage carrier for `neardup check`
OUT_DIR/call   26 proposals: one shared form text (a real page, ~75 % of each) + an unrelated body
OUT_DIR/meta.json  which file is what
"""
from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from copyheavy import light_edit  # noqa: E402


def main() -> None:
    raw, out = Path(sys.argv[1]), Path(sys.argv[2])
    rng = random.Random(int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 14)
    ring_rate = float(sys.argv[sys.argv.index("--ring-rate") + 1]) if "--ring-rate" in sys.argv else 0.015
    pages = sorted(p for p in raw.glob("*.txt") if 2000 <= p.stat().st_size <= 40000)
    rng.shuffle(pages)
    if out.exists():
        shutil.rmtree(out)
    coll, subs, call = out / "coll", out / "subs", out / "call"
    for d in (coll, subs, call):
        d.mkdir(parents=True)
    texts = {p.name: p.read_text(encoding="utf-8") for p in pages}
    names = [p.name for p in pages]
    ring_base = next(n for n in names if 6000 <= len(texts[n]) <= 15000)
    names.remove(ring_base)
    base = names[:518]
    rest = names[518:]
    for n in base:
        (coll / n).write_text(texts[n], encoding="utf-8")
    ring = []
    for k in range(7):
        t = texts[ring_base] if k == 0 else light_edit(texts[ring_base], ring_rate, rng)
        name = f"ring{k}-{ring_base}"
        (coll / name).write_text(t, encoding="utf-8")
        ring.append(name)
    # the passage: 800 characters of SOURCE, copied into 7 unrelated pages (6 in the collection, the 7th checked)
    source = next(n for n in base if len(texts[n]) > 6000)
    src_text = texts[source]
    start = src_text.find("\n", len(src_text) // 3) + 1
    passage = src_text[start:start + 800]
    carriers = [n for n in base if n != source and len(texts[n]) > 3000][:6] + [rest[0]]
    for k, n in enumerate(carriers):
        t = texts[n]
        cut = t.find("\n", len(t) // 2) + 1
        t = t[:cut] + passage + "\n" + t[cut:]
        (coll / n if k < 6 else subs / f"carrier7-{n}").write_text(t, encoding="utf-8")
    shutil.copyfile(coll / ring[3], subs / f"bytecopy-{ring[3]}")
    plain = next(n for n in base if n not in carriers and n != source)
    shutil.copyfile(coll / plain, subs / f"bytecopy-{plain}")
    # a call of 26 proposals: the form (a real page not in the collection) + an unrelated body each
    form_src = next(n for n in rest[1:] if 4000 <= len(texts[n]) <= 8000)
    form = texts[form_src][:4500]
    bodies = [n for n in rest[1:] if n != form_src and len(texts[n]) >= 1500][:26]
    for k, n in enumerate(bodies):
        (call / f"proposal{k:02d}.txt").write_text(form + "\n\n" + texts[n][:1500], encoding="utf-8")
    meta = {"ring": ring, "source": source, "passage": passage, "carriers": carriers[:6],
            "carrier7": f"carrier7-{carriers[6]}", "bytecopies": {f"bytecopy-{ring[3]}": ring[3], f"bytecopy-{plain}": plain},
            "form_source": form_src}
    (out / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    print(f"{len(list(coll.iterdir()))} documents in {coll}; ring base {ring_base}; source {source}")


if __name__ == "__main__":
    main()
