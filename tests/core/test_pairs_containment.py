"""Duplicates ranked by containment: a partial copy with a low similarity r is still listed."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.collection import CONTAINMENT_CUT, Collection
from neardup_gui.core.settings import Settings

SETTINGS = Settings(workers=2)


def _sections(corpus: Path, n: int, start: int) -> list[str]:
    files = sorted((corpus / "debian-reference-en").glob("*.txt"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    return [t for t in texts if 2500 < len(t) < 6000][start:start + n]


@pytest.fixture(scope="module")
def partial_copy(tmp_path_factory, corpus_dir):
    """A long source (five sections) and a proposal of which 40 % is one of those sections."""
    folder = tmp_path_factory.mktemp("pc")
    docs = folder / "docs"
    docs.mkdir()
    s = _sections(corpus_dir, 12, 0)
    source = "\n".join(s[:5])
    copied = s[2]
    own = "\n".join(s[5:8])
    # trim the proposal's own text so that the copied section is about 40 % of its units
    own_words = own.split()
    n_copy = len(copied.split())
    own = " ".join(own_words[: int(n_copy * 1.5)])
    (docs / "source-long.txt").write_text(source, encoding="utf-8")
    (docs / "proposal-partial.txt").write_text(own[: len(own) // 2] + "\n" + copied + "\n" + own[len(own) // 2:],
                                               encoding="utf-8")
    for i, t in enumerate(s[8:12]):
        (docs / f"other-{i}.txt").write_text(t, encoding="utf-8")
    db = folder / "i.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(docs), SETTINGS)
    return db


def test_a_partial_copy_40_percent_contained_is_listed(partial_copy) -> None:
    with Collection.open(partial_copy) as coll:
        by_similarity = coll.pairs(SETTINGS.with_(threshold=0.2))
        pairs = coll.pairs(SETTINGS, by="containment")
    assert by_similarity == []  # its r is far below any similarity cut
    [p] = pairs
    assert (p.a.rel, p.b.rel) == ("proposal-partial.txt", "source-long.txt")  # the smaller one is A
    assert p.containment_a == pytest.approx(0.4, abs=0.06)
    assert p.similarity < 0.2
    assert p.containment_a >= CONTAINMENT_CUT


def test_containment_listing_equals_brute_force(partial_copy) -> None:
    """Every pair whose larger containment reaches the cut, by exact comparison of all pairs."""
    with Collection.open(partial_copy) as coll:
        listed = {(p.a.doc_id, p.b.doc_id): p for p in coll.pairs(SETTINGS, by="containment", cut=0.05)}
        docs = [d for d in coll.documents() if d.status == "indexed"]
        truth = {}
        for x, y in itertools.combinations(docs, 2):
            c = coll.compare(x.doc_id, y.doc_id, SETTINGS)
            if max(c.containment_a, c.containment_b) >= 0.05:
                truth[frozenset((x.doc_id, y.doc_id))] = max(c.containment_a, c.containment_b)
    got = {frozenset(k): max(p.containment_a, p.containment_b) for k, p in listed.items()}
    # the cache keeps pairs from its containment floor (0.2): below it, only those r keeps
    assert {k for k, v in truth.items() if v >= 0.2} <= set(got)
    for k, v in got.items():
        assert v == pytest.approx(truth[k])


def test_pairs_orientation_smaller_document_first(partial_copy) -> None:
    with Collection.open(partial_copy) as coll:
        for p in coll.pairs(SETTINGS, by="containment", cut=0.0):
            assert p.a.units < p.b.units or (p.a.units == p.b.units and p.a.rel > p.b.rel)


def test_orientation_of_equal_sizes_does_not_depend_on_the_ids() -> None:
    """An index build numbers documents as their extraction finishes (it varies between runs):
    two builds of one folder must still show a pair of equal size the same way round."""
    from dataclasses import replace

    from neardup_gui.core.collection import oriented
    from neardup_gui.core.results import DocumentInfo, Pair

    first = DocumentInfo(doc_id=1, path="/c/ch01.txt", rel="ch01.txt", size=10, sha256="", status="indexed", units=500)
    edit = DocumentInfo(doc_id=2, path="/c/edit-ch01.txt", rel="edit-ch01.txt", size=10, sha256="", status="indexed",
                        units=500)
    one = oriented(Pair(first, edit, 0.9, 0.8, 0.7, 450))
    other = oriented(Pair(replace(edit, doc_id=1), replace(first, doc_id=2), 0.9, 0.7, 0.8, 450))
    assert one.a.rel == other.a.rel == "edit-ch01.txt"  # the later in path order is A
    assert (one.containment_a, one.containment_b) == (other.containment_a, other.containment_b) == (0.7, 0.8)
    smaller = oriented(Pair(edit, replace(first, units=499), 0.9, 0.7, 0.8, 450))
    assert smaller.a.rel == "ch01.txt" and smaller.containment_a == 0.8  # the smaller first, whatever the path


def test_cli_pairs_by_containment(partial_copy) -> None:
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "pairs", "--db", str(partial_copy),
                          "--by", "containment", "--json", "-q"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    [p] = json.loads(run.stdout)
    assert p["a"].endswith("proposal-partial.txt") and p["containment_a"] > 0.3 and p["similarity"] < 0.2
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "pairs", "--db", str(partial_copy), "-q"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == ""  # by similarity at 0.7: nothing


def test_an_old_cache_without_the_containment_floor_is_recomputed(partial_copy, tmp_path) -> None:
    import shutil

    db = tmp_path / "old.ndx"
    shutil.copy(partial_copy, db)
    with Collection.open(db) as coll:
        coll.pairs(SETTINGS)
        coll.store.conn.execute("DELETE FROM pairs WHERE similarity < 0.2")  # as a cache made before
        coll.store.conn.execute("DELETE FROM meta WHERE key = 'pairs_containment_floor'")
        assert len(coll.pairs(SETTINGS, by="containment")) == 1


def test_pairs_and_clusters_of_equal_documents_do_not_depend_on_the_ids(tmp_path, corpus_dir) -> None:
    """Three documents of one size (the same text; one has extra spaces, so its file is larger
    and extracted first, and gets the first id): the pairs' orientation and order (all tie at
    1.0), the representative and the members' order follow the paths, whichever got which id."""
    text = (corpus_dir / "debian-reference-en" / "ch01-001.txt").read_text(encoding="utf-8")
    settings = SETTINGS.with_(workers=1)
    seen = []
    for padded in ("a.txt", "c.txt"):
        folder = tmp_path / padded / "docs"
        folder.mkdir(parents=True)
        for name in ("a.txt", "b.txt", "c.txt"):
            (folder / name).write_text(text.replace(" ", "   ") if name == padded else text, encoding="utf-8")
        with Collection.open(tmp_path / padded / "c.ndx") as coll:
            coll.index_folder(str(folder), settings)
            first = coll.store.conn.execute("SELECT rel FROM documents ORDER BY id LIMIT 1").fetchone()[0]
            assert first == padded  # the ids differ between the two builds
            pairs = [(p.a.rel, p.b.rel, p.containment_a) for p in coll.pairs(settings)]  # as listed
            clusters = [tuple(m.rel for m in c.members) for c in coll.clusters(settings)]
        seen.append((pairs, clusters))
    assert seen[0] == seen[1]
    assert seen[0][0] == [("b.txt", "a.txt", 1.0), ("c.txt", "a.txt", 1.0), ("c.txt", "b.txt", 1.0)]
    assert seen[0][1] == [("a.txt", "b.txt", "c.txt")]
