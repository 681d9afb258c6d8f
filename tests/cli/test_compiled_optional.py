"""The compiled parts (core/_myers.c, core/_kernels.c) are optional: without them the command
line gives the same pairs, figure for figure (diff-match-patch and numpy do the work)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from neardup_gui.core import compare
from tests.benchmarks.copyheavy import build

BLOCKED = textwrap.dedent("""
    import sys
    class Blocker:  # the compiled modules cannot be imported: as on a machine without a C compiler
        def find_spec(self, name, path=None, target=None):
            if name in ("neardup_gui.core._myers", "neardup_gui.core._kernels"):
                raise ImportError(name + " is not built here")
            return None
    sys.meta_path.insert(0, Blocker())
    from neardup_gui import cli
    from neardup_gui.core import compare
    assert compare._myers is None and compare._kernels is None
    sys.exit(cli.main(sys.argv[1:]))
""")


def pairs(db, *, compiled: bool) -> list[dict]:
    args = ["pairs", "--db", str(db), "--threshold", "0.5", "--json", "-q", "--workers", "1"]
    cmd = [sys.executable, "-m", "neardup_gui.cli", *args] if compiled else [sys.executable, "-c", BLOCKED, *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(compare._myers is None or compare._kernels is None, reason="the compiled parts are not built here")
def test_without_the_compiled_parts_the_same_pairs(tmp_path) -> None:
    build(tmp_path / "docs", 160, seed=8, families=30)
    db = tmp_path / "i.db"
    done = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(tmp_path / "docs"), "--db", str(db), "-q"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    plain = tmp_path / "plain.db"
    plain.write_bytes(db.read_bytes())  # (a pass stores its pairs: each run on its own copy)
    with_c, without = pairs(db, compiled=True), pairs(plain, compiled=False)
    assert len(with_c) > 40
    assert with_c == without
