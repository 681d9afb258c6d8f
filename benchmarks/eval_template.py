"""What the template rule hides, measured: rings, widely copied passages, byte copies, forms, licences.

Builds the cases of ``tests/template_cases.py`` from the development corpus (real text, .txt
files), indexes each with the product, and scores what it reports against brute force
(``groundtruth.py``), under the default rule (a sentence is template automatically only when it
is in at least ``template_min_docs`` documents AND ``template_min_share`` of the collection)
and under the former frequency-only rule (``template_min_share = 0``) for comparison:

- a ring of 7 light edits in a collection of 525: how many of its 21 pairs are reported at 0.5;
- a byte copy of an indexed document, checked: similarity and copied share;
- an 800-character passage copied into 7 unrelated documents: is its source listed when the
  7th is checked;
- a call of 26 proposals on one form, no template file: form-only pairs reported at 0.5;
- copyright-like files (a header of their own + whole licence texts shared by dozens of files),
  with ``--no-auto-template``: recall and precision at 0.5, 0.7 and 0.9 against brute force.

Usage: ``python benchmarks/eval_template.py [--ring-docs 525] [--licence-files 300]``
(prints a Markdown table for docs/quality.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import groundtruth as gt  # noqa: E402

from neardup_gui.core.collection import Collection  # noqa: E402
from neardup_gui.core.settings import Settings  # noqa: E402
from neardup_gui.core.units import tokenize  # noqa: E402
from tests import template_cases as tc  # noqa: E402


def _name(p: str) -> str:
    return Path(p).name


def ring_case(tmp: Path, documents: int, rules: dict[str, Settings]) -> list[str]:
    case = tc.ring_collection(tmp, documents)
    rows = []
    truth = {frozenset((a, b)): gt.truth_of_texts(case.texts[a], case.texts[b]).similarity
             for i, a in enumerate(case.ring) for b in case.ring[i + 1:]}
    with Collection.open(tmp / "ring.db") as coll:
        t = time.perf_counter()
        coll.index_folder(str(case.root), Settings(workers=2))
        print(f"ring collection: {documents} documents indexed in {time.perf_counter() - t:.1f} s", file=sys.stderr)
        for label, s in rules.items():
            got = {frozenset((_name(p.a.path), _name(p.b.path))): p.similarity for p in coll.pairs(s.with_(threshold=0.5))}
            ring = [got[k] for k in truth if k in got]
            rows.append(f"| ring of 7 in {documents} (truth {min(truth.values()):.2f}–{max(truth.values()):.2f}): "
                        f"pairs reported at 0.5 | {label} | {len(ring)}/21"
                        f"{f', lowest {min(ring):.3f}' if ring else ''} |")
            copy = coll.check([str(case.byte_copy)], s)[0]
            best = copy.matches[0] if copy.matches else None
            rows.append(f"| byte copy checked: similarity, copied share | {label} | "
                        f"{best.comparison.similarity if best else 0:.3f}, "
                        f"{copy.summary.copied_ratio_without_template:.1%} |")
            checked = coll.check([str(case.passage_checked)], s)[0]
            listed = {_name(m.source.path) for m in checked.matches}
            hosts = sum(h in listed for h in case.passage_hosts)
            rows.append(f"| {tc.PASSAGE_CHARS}-character passage in 7 documents ({7 / documents:.1%}): source listed, "
                        f"hosts listed | {label} | {'yes' if case.passage_source in listed else 'no'}, {hosts}/6 |")
    return rows


def form_case(tmp: Path, rules: dict[str, Settings]) -> list[str]:
    root, texts = tc.form_collection(tmp)
    names = sorted(texts)
    truth = [gt.truth_of_texts(texts[a], texts[b]).similarity for i, a in enumerate(names) for b in names[i + 1:]]
    rows = []
    with Collection.open(tmp / "form.db") as coll:
        coll.index_folder(str(root), Settings(workers=2))
        for label, s in rules.items():
            n = len(coll.pairs(s.with_(threshold=0.5)))
            rows.append(f"| call of 26 on one form, no template file (form counted: "
                        f"{sum(t >= 0.5 for t in truth)} pairs ≥ 0.5): pairs reported at 0.5 | {label} | {n} |")
    return rows


def licence_case(tmp: Path, files: int) -> list[str]:
    root, texts = tc.license_collection(tmp, files=files, licences=6)
    names = sorted(texts)
    t = time.perf_counter()
    truth = {frozenset((names[i], names[j])): r.similarity
             for (i, j), r in gt.all_pairs([tokenize(texts[n]).ids for n in names]).items()}
    print(f"licence truth: {len(truth)} pairs in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    rows = []
    with Collection.open(tmp / "licence.db") as coll:
        coll.index_folder(str(root), Settings(workers=2))
        for label, s in (("--no-auto-template", Settings(workers=2, auto_template=False)),
                         ("default rule", Settings(workers=2))):
            cells = []
            for threshold in (0.5, 0.7, 0.9):
                want = {k for k, v in truth.items() if v >= threshold}
                got = {frozenset((p.a.rel, p.b.rel)) for p in coll.pairs(s.with_(threshold=threshold))}
                hit = len(want & got)
                cells.append(f"{threshold}: {hit / max(len(want), 1):.3f} / {hit / max(len(got), 1):.3f} "
                             f"({len(want)} true)")
            rows.append(f"| {files} copyright-like files, 6 licences: recall / precision | {label} | "
                        f"{'; '.join(cells)} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ring-docs", type=int, default=525)
    parser.add_argument("--licence-files", type=int, default=300)
    args = parser.parse_args(argv)
    rules = {"default (5 docs and 50 %)": Settings(workers=2),
             "former (5 docs, no share)": Settings(workers=2, template_min_share=0.0)}
    rows = ["| case | rule | result |", "|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="eval-template-") as tmp:
        base = Path(tmp)
        for name, fn in (("ring", lambda d: ring_case(d, args.ring_docs, rules)),
                         ("form", lambda d: form_case(d, rules)),
                         ("licence", lambda d: licence_case(d, args.licence_files))):
            (base / name).mkdir()
            rows += fn(base / name)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
