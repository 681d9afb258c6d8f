"""Honest documents raise no integrity flag: every file of the given folders (default: the
development corpus, the sample collection and the test fixtures) extracted and flagged; prints
how many were read and lists any flagged one. (`python benchmarks/flags_clean.py [FOLDER…]`)"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neardup_gui.core.document import Document  # noqa: E402
from neardup_gui.core.extract import extract_file  # noqa: E402
from neardup_gui.core.flags import integrity_flags  # noqa: E402
from benchmarks.copyheavy import CORPUS  # noqa: E402


def main() -> int:
    folders = [Path(a) for a in sys.argv[1:]] or [CORPUS, ROOT / "resources" / "sample", ROOT / "tests" / "fixtures"]
    started = time.monotonic()
    read = 0
    flagged = []
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            doc = extract_file(str(path))
            if not isinstance(doc, Document):
                continue
            read += 1
            flags = integrity_flags(doc.text, doc.hidden)
            if flags:
                flagged.append((path, flags))
    print(f"{read} documents read in {time.monotonic() - started:.1f} s; {len(flagged)} flagged")
    for path, flags in flagged:
        print(f"  {path}: " + "; ".join(f"{f.kind} {f.count}" for f in flags))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
