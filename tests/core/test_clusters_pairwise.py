"""A cluster's matrix of its members' similarities: a pair below the pairs cache's floor is
compared for its figures only (``counts_only``, as the collection-wide pass compares), and gives
exactly the similarity of the full comparison a side-by-side view makes (collection.compare)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from tests.corpus import corpus_dir

SETTINGS = Settings(workers=1, threshold=0.8, auto_template=False)
LOW = SETTINGS.with_(threshold=0.7)


def _star(folder: Path, rank: int = 0) -> list[str]:
    """A text and four copies, each with a different fifth replaced by another section's text:
    each copy is near the text (about 0.8–0.9), the copies less near one another (about 0.6–0.7).
    The text: the corpus's longest section (``rank`` 1: the second longest, …)."""
    sections = sorted((corpus_dir() / "debian-reference-en").glob("*.txt"))
    texts = [p.read_text(encoding="utf-8") for p in sections]
    root = sorted(texts, key=len, reverse=True)[rank]
    others = [t for t in texts if t is not root]
    lines = root.split("\n")
    fifth = max(1, len(lines) // 10)
    names = ["root.txt"]
    (folder / "root.txt").write_text(root, encoding="utf-8")
    for i in range(4):
        start = i * 2 * fifth
        copy = lines[:start] + others[i].split("\n")[:fifth] + lines[start + fifth:]
        (folder / f"copy{i}.txt").write_text("\n".join(copy), encoding="utf-8")
        names.append(f"copy{i}.txt")
    return names


def _paired_star(tmp_path: Path) -> Path:
    """The index of a star (``_star``), indexed and paired; returns its path."""
    folder = tmp_path / "star"
    folder.mkdir()
    _star(folder)
    db = tmp_path / "index.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), SETTINGS)
        coll.pairs(SETTINGS)
    return db


def test_members_below_the_floor_are_compared_exactly(tmp_path):
    folder = tmp_path / "star"
    folder.mkdir()
    _star(folder)
    with Collection.open(tmp_path / "index.db") as coll:
        coll.index_folder(str(folder), SETTINGS)
        clusters = [c for c in coll.clusters(SETTINGS) if len(c.members) >= 3]
        assert clusters, "the star is one cluster"
        computed = 0
        for cluster in clusters:
            ids = [m.doc_id for m in cluster.members]
            cached = {frozenset((p.a.doc_id, p.b.doc_id)) for p in coll.pairs(SETTINGS)}
            for x in range(len(ids)):
                for y in range(x + 1, len(ids)):
                    full = coll.compare(ids[x], ids[y], SETTINGS).similarity
                    assert cluster.pairwise[x][y] == cluster.pairwise[y][x] == pytest.approx(full, abs=1e-12)
                    computed += frozenset((ids[x], ids[y])) not in cached
            assert cluster.ring == all(cluster.pairwise[x][y] >= SETTINGS.threshold
                                       for x in range(len(ids)) for y in range(x + 1, len(ids)))
        assert computed >= 1  # (some pair was below the cache's floor: compared for the matrix)


def test_the_matrices_say_their_progress_and_can_be_cancelled(tmp_path):
    """The clusters' matrices took tens of seconds at 10,000 documents without a word of progress
    (the window's bar stood still, and Cancel waited for them): now each cluster is said, and the
    progress callable that raises (as a cancelled task's does) stops them."""
    from neardup_gui.core.progress import Cancelled

    with Collection.open(_paired_star(tmp_path)) as coll:
        said: list[tuple[float, str]] = []
        clusters = coll.clusters(SETTINGS, lambda f, m="": said.append((f, m)))
        counted = [(f, m) for f, m in said if m.startswith("Comparing ")]
        assert counted and counted[0][1] == f"Comparing 1 of {len(clusters)}"
        fractions = [f for f, _ in said]
        assert fractions == sorted(fractions) and fractions[-1] == 1.0

        def cancelled(fraction: float, message: str = "") -> None:
            if message.startswith("Comparing "):
                raise Cancelled()

        with pytest.raises(Cancelled):
            coll.clusters(SETTINGS, cancelled)


def test_a_cancelled_call_keeps_what_it_compared(tmp_path, monkeypatch):
    """Cancelled in its second cluster, the matrices keep the first one's comparisons: the next
    call compares the rest only, and the one after nothing."""
    from neardup_gui.core.matrixcache import MatrixCache
    from neardup_gui.core.progress import Cancelled
    from neardup_gui.core.verify import Verifier

    for rank in (0, 1):
        (tmp_path / "stars" / f"s{rank}").mkdir(parents=True)
        _star(tmp_path / "stars" / f"s{rank}", rank)
    made: list[int] = []
    real = Verifier.compare_prepared
    monkeypatch.setattr(Verifier, "compare_prepared", lambda self, *a, **k: made.append(1) or real(self, *a, **k))
    with Collection.open(tmp_path / "index.db") as coll:
        coll.index_folder(str(tmp_path / "stars"), LOW)
        coll.pairs(LOW)
        made.clear()
        full = coll.clusters(LOW)
        matrices = [c for c in full if len(c.members) >= 3]
        assert len(matrices) == 2
        everything = len(made)
        coll.store.conn.execute("DELETE FROM search_tables WHERE name = ?", (MatrixCache.NAME,))

        seen: list[str] = []

        def cancel_at_the_second(_fraction: float, message: str = "") -> None:
            if message.startswith("Comparing "):
                seen.append(message)
                if len(seen) == 2:
                    raise Cancelled()

        made.clear()
        with pytest.raises(Cancelled):
            coll.clusters(LOW, cancel_at_the_second)
        first_only = len(made)
        assert 1 <= first_only < everything
        made.clear()
        again = coll.clusters(LOW)
        assert len(made) == everything - first_only  # (the first cluster's values were kept)
        assert [c.pairwise for c in again] == [c.pairwise for c in full]
        made.clear()
        coll.clusters(LOW)
        assert made == []


# A new process reads the clusters' matrices: it prints them, and how many comparisons it made.
_CHILD = """
import json, sys
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from neardup_gui.core.verify import Verifier

made = []
real = Verifier.compare_prepared
def counting(self, *args, **kwargs):
    made.append(1)
    return real(self, *args, **kwargs)
Verifier.compare_prepared = counting
settings = Settings(workers=1, threshold=float(sys.argv[2]), auto_template=False)
with Collection.open(sys.argv[1], create=False) as coll:
    coll.pairs(settings)  # (a document indexed again is paired first: those comparisons are the pass's)
    made.clear()
    matrices = {c.representative.rel: c.pairwise for c in coll.clusters(settings) if len(c.members) >= 3}
print(json.dumps({"matrices": matrices, "compared": len(made)}))
"""


def _in_new_process(db: Path, settings: Settings = SETTINGS) -> dict:
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _CHILD, str(db), repr(settings.threshold)], capture_output=True, text=True, check=True,
                         cwd=root, env={**__import__("os").environ, "PYTHONPATH": str(root)})
    return json.loads(out.stdout.strip().splitlines()[-1])


def _exact(coll: Collection, settings: Settings = SETTINGS) -> dict[str, list[list[float]]]:
    """Every matrix of the clusters, each value compared in full now (collection.compare)."""
    out = {}
    for cluster in coll.clusters(settings):
        ids = [m.doc_id for m in cluster.members]
        if len(ids) >= 3:
            out[cluster.representative.rel] = [[1.0 if x == y else coll.compare(ids[x], ids[y], settings).similarity
                                                for y in range(len(ids))] for x in range(len(ids))]
    return out


def _assert_same(got: dict, want: dict) -> None:
    assert got.keys() == want.keys() and got
    for rel, matrix in want.items():
        assert [[pytest.approx(v, abs=1e-12) for v in row] for row in matrix] == got[rel]


def test_the_matrices_are_kept_in_the_index_for_the_next_process(tmp_path):
    """The matrices' comparisons (10–12 s at every refresh of 10,000 copy-heavy documents) are
    kept in the index: a new process reads them without comparing anything, the same values; a
    changed document's pairs are compared again (the others read), a template mark or a damaged
    record makes it compare them all again, exactly."""
    from neardup_gui.core.matrixcache import MatrixCache

    db = _paired_star(tmp_path)  # (at 0.7 the star's four copies join one cluster; most of their pairs are below it)
    folder = tmp_path / "star"
    first = _in_new_process(db, LOW)
    assert first["compared"] >= 1  # (pairs below the cache's floor: compared, then kept)
    with Collection.open(db) as coll:
        _assert_same(first["matrices"], _exact(coll, LOW))
    again = _in_new_process(db, LOW)
    assert again["compared"] == 0
    assert again["matrices"] == first["matrices"]

    # a member edited and indexed again (under a new id): its pairs are compared, the others read
    copy = folder / "copy1.txt"
    copy.write_text(copy.read_text(encoding="utf-8").replace(" the ", " a ", 5), encoding="utf-8")
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), LOW)
    edited = _in_new_process(db, LOW)
    assert 1 <= edited["compared"] < first["compared"]  # (2 of 5)
    with Collection.open(db) as coll:
        _assert_same(edited["matrices"], _exact(coll, LOW))
    assert _in_new_process(db, LOW)["compared"] == 0

    # a template mark changes every comparison's key
    with Collection.open(db) as coll:
        root = coll.document_text(next(d.doc_id for d in coll.documents() if d.rel == "root.txt"))
        lines = root.split("\n")
        fifth = max(1, len(lines) // 10)
        coll.mark_template("\n".join(lines[fifth:fifth + fifth // 2]))  # (text all five share)
    marked = _in_new_process(db, LOW)
    assert marked["compared"] >= 1
    with Collection.open(db) as coll:
        want = _exact(coll, LOW)
    _assert_same(marked["matrices"], want)

    # a damaged record is not read: compared again, and the values stay exact
    with Collection.open(db) as coll:
        coll.store.conn.execute("UPDATE search_tables SET data = x'0102030405' WHERE name = ?", (MatrixCache.NAME,))
    damaged = _in_new_process(db, LOW)
    assert damaged["compared"] >= 1
    _assert_same(damaged["matrices"], want)
    assert _in_new_process(db, LOW)["compared"] == 0


def test_an_index_it_cannot_write_still_gives_the_matrices(tmp_path):
    """An index SQLite refuses to write (``query_only``: as a read-only file or share refuses)
    loses only the saving: the same matrices, nothing kept, no error."""
    from neardup_gui.core.matrixcache import MatrixCache

    with Collection.open(_paired_star(tmp_path)) as coll:
        coll.store.conn.execute("PRAGMA query_only = ON")
        got = {c.representative.rel: c.pairwise for c in coll.clusters(SETTINGS) if len(c.members) >= 3}
        coll.store.conn.execute("PRAGMA query_only = OFF")
        assert coll.store.conn.execute("SELECT COUNT(*) FROM search_tables WHERE name = ?",
                                       (MatrixCache.NAME,)).fetchone()[0] == 0
        want = _exact(coll)
    _assert_same({rel: [list(row) for row in m] for rel, m in got.items()}, want)
