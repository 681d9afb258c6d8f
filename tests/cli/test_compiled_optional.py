"""The compiled parts (core/_myers.c, core/_kernels.c, core/_units.c) are optional: without them
the command line gives the same index and the same pairs, figure for figure (diff-match-patch and
numpy do the work)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import zlib

import pytest

from neardup_gui.core import align as align_module
from neardup_gui.core import compare, units
from benchmarks.copyheavy import build

BLOCKED = textwrap.dedent("""
    import sys
    class Blocker:  # the compiled modules cannot be imported: as on a machine without a C compiler
        def find_spec(self, name, path=None, target=None):
            if name in ("neardup_gui.core._myers", "neardup_gui.core._kernels", "neardup_gui.core._units"):
                raise ImportError(name + " is not built here")
            return None
    sys.meta_path.insert(0, Blocker())
    from neardup_gui import cli
    from neardup_gui.core import align, candidates, compare, prepared, units
    assert align._myers is None and compare._kernels is None and units._compiled_units is None
    assert candidates._kernels is None and prepared._kernels is None and align._kernels is None
    sys.exit(cli.main(sys.argv[1:]))
""")


def run(args: list[str], *, compiled: bool) -> str:
    cmd = [sys.executable, "-m", "neardup_gui.cli", *args] if compiled else [sys.executable, "-c", BLOCKED, *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def pairs(db, *, compiled: bool) -> list[dict]:
    return json.loads(run(["pairs", "--db", str(db), "--threshold", "0.5", "--json", "-q", "--workers", "1"],
                          compiled=compiled))


def stored(db) -> dict[str, list]:
    """What an index build stores of each document (by path): units, fingerprints, search rows."""
    conn = sqlite3.connect(db)
    try:
        path = dict(conn.execute("SELECT id, path FROM documents"))
        out = {"documents": sorted(conn.execute("SELECT path, units, sha256 FROM documents"))}
        out["fingerprints"] = sorted((path[r[0]], *r[1:]) for r in conn.execute(
            "SELECT doc_id, simhash, minhash, lsh, sentence_fps, anchors FROM fingerprints"))
        for table, key in (("sentences", "hash"), ("anchors", "hash"), ("lsh_keys", "key"), ("sentence_fps", "fp")):
            out[table] = sorted((path[d], k) for k, d in conn.execute(f"SELECT {key}, doc_id FROM {table}"))
        out["bags"] = sorted((path[d], zlib.decompress(b)) for d, b in conn.execute("SELECT doc_id, counts FROM bags"))
        return out
    finally:
        conn.close()


@pytest.mark.skipif(align_module._myers is None or compare._kernels is None or units._compiled_units is None,
                    reason="the compiled parts are not built here")
def test_without_the_compiled_parts_the_same_index_and_pairs(tmp_path) -> None:
    build(tmp_path / "docs", 160, seed=8, families=30)
    (tmp_path / "docs" / "mixed.txt").write_text(  # (runs the compiled tokenizer leaves to Python: é, ², ﬁ)
        "Café ² ﬁnal naïve Straße 中文本 ＡＢＣ résumé\n" * 40, encoding="utf-8")
    db, plain = tmp_path / "i.db", tmp_path / "plain.db"
    run(["index", str(tmp_path / "docs"), "--db", str(db), "-q"], compiled=True)
    run(["index", str(tmp_path / "docs"), "--db", str(plain), "-q"], compiled=False)
    assert stored(db) == stored(plain)
    with_c, without = pairs(db, compiled=True), pairs(plain, compiled=False)
    assert len(with_c) > 40
    assert with_c == without
