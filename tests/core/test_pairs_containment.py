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
            assert (p.a.units, -p.a.doc_id) <= (p.b.units, -p.b.doc_id)


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
