"""A copy-heavy collection: many light edits of every section of the real corpus, as .txt files.

A fund's archive of resubmissions (or a distribution's copyright files, licence texts shared by
hundreds) is copy-heavy: most documents have several near-duplicates, and every pair inside a
family is a candidate. Built here from the shared development corpus, deterministically:

* document *i* is a light edit of section ``i mod S`` (S = 347 sections): words (English) or
  characters (Chinese) dropped, replaced by another unit of the same section, or duplicated, at
  a per-document rate between 0.5 % and ``max_edit`` (so pairs land on both sides of 0.8);
* every document also carries one or two of a few shared boilerplate paragraphs (a licence
  notice, an acknowledgement), at its head or tail: common text that is not template, as the
  automatic template rule is switched off for these runs.

Usage: ``python benchmarks/copyheavy.py --out DIR --docs 1000``
"""

from __future__ import annotations

import argparse
import os
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))
SECTION_DIRS = ("debian-reference-en", "debian-reference-zh-cn")

BOILERPLATE = (
    "This document is distributed under the terms of the GNU General Public License, version 2 or "
    "any later version. It is distributed in the hope that it will be useful, but without any "
    "warranty; without even the implied warranty of merchantability or fitness for a particular purpose.",
    "The author thanks the maintainers of the packages described here, the translators, and everyone "
    "who reported errors in earlier versions of this text.",
    "本文件依照 GNU 通用公共许可证第二版或任何更新的版本发布。发布本文件是希望它有用，但不提供任何担保，"
    "甚至不提供适销性或适用于特定用途的默示担保。",
    "Permission is granted to copy, distribute and modify this document provided that the copyright "
    "notice and this permission notice are preserved on all copies.",
)

_EN_TOKEN_RE = re.compile(r"\S+|\s+")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")


def sections() -> list[str]:
    out = []
    for d in SECTION_DIRS:
        out.extend(p.read_text(encoding="utf-8") for p in sorted((CORPUS / d).glob("*.txt")))
    return out


def light_edit(text: str, rate: float, rng: random.Random) -> str:
    """Drop, replace or double a share ``rate`` of the words (or CJK characters) of ``text``."""
    chinese = len(_CJK_RE.findall(text)) > len(text) / 4
    toks = list(text) if chinese else _EN_TOKEN_RE.findall(text)
    words = [t for t in toks if not t.isspace()]
    out = []
    for t in toks:
        if t.isspace() or rng.random() >= rate:
            out.append(t)
            continue
        r = rng.random()
        if r < 0.4:
            continue  # dropped
        if r < 0.8:
            out.append(rng.choice(words))  # replaced
        else:
            out.extend([t, t])  # doubled
    return "".join(out)


def build(out: str | Path, n_docs: int, *, max_edit: float = 0.03, seed: int = 16,
          families: int | None = None) -> list[Path]:
    """Write ``n_docs`` copy-heavy .txt files into ``out``; returns their paths (sorted).

    ``families``: use only that many sections (every one then has about n_docs / families
    light edits); all 347 by default."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    secs = sections()[: families or None]
    paths = []
    for i in range(n_docs):
        base = secs[i % len(secs)]
        rate = rng.uniform(0.005, max_edit)
        body = light_edit(base, rate, rng)
        extras = rng.sample(BOILERPLATE, rng.choice((1, 2)))
        head = [p for p in extras if rng.random() < 0.5]
        tail = [p for p in extras if p not in head]
        text = "\n".join([*head, body, *tail]) + "\n"
        p = out / f"d{i // 1000:03d}" / f"doc{i:06d}.txt"
        p.parent.mkdir(exist_ok=True)
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--max-edit", type=float, default=0.03)
    ap.add_argument("--families", type=int, help="sections used (default: all)")
    args = ap.parse_args()
    paths = build(args.out, args.docs, max_edit=args.max_edit, families=args.families)
    print(f"{len(paths)} documents in {args.out}")


if __name__ == "__main__":
    main()
