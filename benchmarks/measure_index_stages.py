"""Where an index build's per-file CPU goes: each stage of what an extraction child does per file.

    python benchmarks/measure_index_stages.py FOLDER [PASSES]

Every file of FOLDER is extracted (``extract_file``) and prepared stage by stage as
``indexer.prepare_document`` does (units, sentence bounds, MinHash and LSH keys, simhash,
sentence fingerprints, anchors, sentence keys, the compressed text, the packed paragraph spans),
in this one process. Each stage's process time is summed over the files; the least of PASSES
passes (default 3) is printed, as other jobs share the cores. ``(prepare_document)`` is the whole
preparation timed on its own. Run it with the Python of two checkouts to compare versions
(docs/speed.md, "Index build, per-file CPU").
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from neardup_gui.core import fingerprints as F
from neardup_gui.core import indexer as I
from neardup_gui.core import store as S
from neardup_gui.core import templates as T
from neardup_gui.core import units as U
from neardup_gui.core.extract import extract_file
from neardup_gui.core.settings import ExtractLimits, FingerprintParams


def sentence_key_array(text, units):  # noqa: ANN001 — (a version without templates.sentence_key_array)
    if hasattr(T, "sentence_key_array"):
        return T.sentence_key_array(text, units)
    return [k for _, k in T.sentence_keys(text, units)]


def one_pass(paths: list[str], params: FingerprintParams, limits: ExtractLimits) -> dict[str, float]:
    spent: dict[str, float] = {}

    def timed(stage: str, fn, *args):  # noqa: ANN001, ANN202
        started = time.process_time()
        out = fn(*args)
        spent[stage] = spent.get(stage, 0.0) + time.process_time() - started
        return out

    for path in paths:
        doc = timed("extract", extract_file, path, limits)
        if not hasattr(doc, "text"):
            continue
        units = timed("units (tokenize)", U.tokenize, doc.text)
        timed("sentence bounds", lambda: units.sentence_units)
        timed("minhash + LSH keys", lambda: F.lsh_band_keys(F.minhash_signature(units.ids, params), params))
        timed("simhash", F.simhash64, doc.text, params, units)
        timed("sentence fingerprints", F.sentence_fingerprints, doc.text, params, units)
        timed("anchors", F.anchors, units.ids, params)
        timed("sentence keys", sentence_key_array, doc.text, units)
        timed("compressed text", S.compress_text, doc.text)
        timed("packed spans", S.pack_spans, doc.paragraphs)
        timed("(prepare_document)", I.prepare_document, doc, params)
    return spent


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    paths = sorted(str(p) for p in Path(sys.argv[1]).iterdir() if p.is_file())
    passes = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    params, limits = FingerprintParams(), ExtractLimits()
    best: dict[str, float] = {}
    for _ in range(passes):
        for stage, seconds in one_pass(paths, params, limits).items():
            best[stage] = min(best.get(stage, float("inf")), seconds)
    print(f"{len(paths)} files, least of {passes} passes, process time")
    for stage, seconds in best.items():
        print(f"{stage:24s} {seconds:7.3f} s")
    print(f"{'sum of the stages':24s} {sum(v for k, v in best.items() if not k.startswith('(')):7.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
