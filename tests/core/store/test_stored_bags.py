"""The stored bags of units (schema 5) and the pass's family partitions: exact bounds, same pairs."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from benchmarks.copyheavy import build
from neardup_gui.core import pairpass
from neardup_gui.core.collection import Collection
from neardup_gui.core.prepared import BAG_BUCKETS, stored_bag_bounds, unit_bag
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import SCHEMA_VERSION, Store, pack_bag, unpack_bag
from neardup_gui.core.units import tokenize

SETTINGS = Settings(threshold=0.8, auto_template=False, workers=2)


def _overlap(a: list[int], b: list[int]) -> int:
    ca, cb = Counter(a), Counter(b)
    return sum(min(n, cb[k]) for k, n in ca.items())


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5000), max_size=300), st.lists(st.lists(st.integers(0, 5000), max_size=300), max_size=5))
def test_a_stored_bag_bounds_the_multiset_overlap_from_above(a, others) -> None:
    stored = np.array([unpack_bag(pack_bag(unit_bag(np.array(o, dtype=np.uint64)))) for o in others],
                      dtype=np.uint16).reshape(len(others), BAG_BUCKETS)
    bounds = stored_bag_bounds(unit_bag(np.array(a, dtype=np.uint64)), stored)
    for o, bound in zip(others, bounds.tolist()):
        assert bound >= _overlap(a, o)
    if others:
        assert stored_bag_bounds(unit_bag(np.array(others[0], dtype=np.uint64)), stored[:1])[0] == len(others[0])


def test_a_full_bucket_stands_for_any_count() -> None:
    """A bucket holding more units than uint16 counts is stored full, and bounds as unlimited."""
    many = np.full(70_000, 7, dtype=np.uint64)
    stored = unpack_bag(pack_bag(unit_bag(many)))
    assert stored[7] == 0xFFFF
    assert stored_bag_bounds(unit_bag(many), stored[None, :])[0] == 70_000  # not 65,535


def test_the_index_stores_every_documents_bag_read_by_another_process(tmp_path, corpus_dir) -> None:
    build(tmp_path / "docs", 12, seed=3, families=4)
    db = tmp_path / "i.db"
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(tmp_path / "docs"), "--db", str(db), "-q"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with Store(db, create=False) as store:
        ids, matrix = store.bags()
        assert len(ids) == 12
        for doc_id, row in zip(ids.tolist(), matrix):
            text = store.compared_text(doc_id).text
            assert np.array_equal(row, np.minimum(unit_bag(tokenize(text).ids), 0xFFFF))
        some = ids[[1, 5]].tolist()
        got, rows = store.bags(some + [10**6])  # an unknown id has no bag
        assert got.tolist() == some and np.array_equal(rows, matrix[[1, 5]])


def test_a_changed_file_gets_the_bag_of_its_new_text(tmp_path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("one two three four five six seven eight nine ten\n", encoding="utf-8")
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(docs), SETTINGS)
    (docs / "a.txt").write_text("alpha beta gamma delta epsilon\n", encoding="utf-8")
    with Collection.open(db) as coll:
        coll.index_folder(str(docs), SETTINGS)
        ids, matrix = coll.store.bags()
        assert len(ids) == 1 and int(matrix.sum()) == 5
        assert np.array_equal(matrix[0], unit_bag(tokenize("alpha beta gamma delta epsilon\n").ids))


def test_a_schema_4_index_migrates_and_pairs_without_bags_as_with_them(tmp_path, corpus_dir) -> None:
    """An index made before bags were stored: migrated to schema 5; its documents have no bag and
    are bounded once prepared, giving the same pairs."""
    build(tmp_path / "docs", 60, seed=5, families=12)
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
        with_bags = [(p.a.rel, p.b.rel, p.similarity, p.containment_a, p.containment_b) for p in coll.pairs(SETTINGS)]
    assert len(with_bags) > 20
    old = tmp_path / "old.db"
    shutil.copy(db, old)
    conn = sqlite3.connect(old)
    conn.execute("DROP TABLE bags")
    conn.execute("DELETE FROM pairs")
    conn.execute("DELETE FROM paired")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    with Collection.open(old) as coll:
        assert coll.store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert len(coll.store.bags()[0]) == 0
        without = [(p.a.rel, p.b.rel, p.similarity, p.containment_a, p.containment_b) for p in coll.pairs(SETTINGS)]
    assert without == with_bags
    # a refresh (nothing changed on disk) completes the index from its stored texts
    with Collection.open(old) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    with Store(old, create=False) as store, Store(db, create=False) as new:
        got, want = store.bags(), new.bags()
        rel = lambda s, ids: [s.conn.execute("SELECT rel FROM documents WHERE id = ?", (i,)).fetchone()[0] for i in ids]  # noqa: E731
        assert sorted(zip(rel(store, got[0].tolist()), map(bytes, got[1]))) == \
            sorted(zip(rel(new, want[0].tolist()), map(bytes, want[1])))
        assert len(got[0]) == 60 and not store.documents_without_bags()


def test_stored_bags_leave_near_duplicates_of_the_candidates_and_every_pair(tmp_path, corpus_dir) -> None:
    """Offered every other document as a candidate, the stored bags leave the light edits of the
    same text (which reach 0.8) and rule out the rest, which share a boilerplate paragraph at most:
    unprepared, so a task prepares the documents it pairs and their near-duplicates only."""
    build(tmp_path / "docs", 60, seed=11, families=6)  # document i: an edit of section i mod 6
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
        spec = coll.pass_spec(SETTINGS, None)
        pairs = {frozenset((p.a.doc_id, p.b.doc_id)) for p in coll.pairs(SETTINGS)}
        section = {d.doc_id: int(d.rel.split("doc")[-1].split(".")[0]) % 6 for d in coll.documents()}
    worker = pairpass.PartitionWorker(spec)
    try:
        for doc_id in spec.todo.tolist()[:12]:
            a = worker.prepared(doc_id)
            others = [d for d in spec.todo.tolist() if d != doc_id]
            left = worker._bag_survivors(a, others)
            assert {d for d in others if frozenset((doc_id, d)) in pairs} <= set(left)
            assert {section[d] for d in left} <= {section[doc_id]}
            assert len(left) < len(others) / 3
    finally:
        worker.close()


def test_family_partitions_hold_every_document_once_and_cut_at_a_change_of_key() -> None:
    rng = np.random.default_rng(4)
    todo = np.arange(1, 401, dtype=np.int64)
    keys = rng.integers(0, 40, size=len(todo))
    parts = pairpass.family_partitions(todo, keys, 16)
    flat = [d for p in parts for d in p]
    assert sorted(flat) == todo.tolist()
    key_of = dict(zip(todo.tolist(), keys.tolist()))
    for p, q in zip(parts, parts[1:]):
        assert len(p) <= 64
        if len(p) < 64:
            assert key_of[p[-1]] != key_of[q[0]]  # a family is cut only when it is too large
    for p in parts:
        assert [key_of[d] for d in p] == sorted(key_of[d] for d in p)


def test_family_keys_put_light_edits_of_one_text_together(tmp_path, corpus_dir) -> None:
    build(tmp_path / "docs", 90, seed=9, families=9)  # document i is an edit of section i mod 9
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
        docs = coll.documents()
        ids = np.array(sorted(d.doc_id for d in docs))
        section = {d.doc_id: int(d.rel.split("doc")[-1].split(".")[0]) % 9 for d in docs}
        keys = pairpass.family_keys(coll.store, ids)
    by_key: dict[int, list[int]] = {}
    for d, k in zip(ids.tolist(), keys.tolist()):
        by_key.setdefault(k, []).append(section[d])
    keys_of_section = Counter(sec for v in by_key.values() for sec in set(v))
    assert sum(keys_of_section.values()) <= 1.5 * 9  # one text's edits share a key (rarely two)
    assert max(len(v) for v in by_key.values()) <= 3 * 10  # and a key gathers a few texts at most


def test_search_rows_in_memory_give_the_candidates_sql_gives(tmp_path, corpus_dir) -> None:
    """A pass holds the anchors', LSH keys' and sentence fingerprints' rows in memory: every
    document's candidates, and the channels that found them, are those of the SQL look-ups."""
    from neardup_gui.core.candidates import PAIR_MIN_SHARED_ANCHORS, AnchorPostings, CandidateFinder
    from neardup_gui.core.verify import Verifier

    build(tmp_path / "docs", 60, seed=13, families=8)
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    with Store(db, create=False) as store:
        plain, held = CandidateFinder(store, SETTINGS), CandidateFinder(store, SETTINGS)
        held.anchor_postings = AnchorPostings.load(store)
        held.lsh_postings = AnchorPostings.load(store, "lsh_keys")
        held.sentence_postings = AnchorPostings.load(store, "sentence_fps")
        verifier = Verifier(SETTINGS, np.zeros(0, dtype=np.int64), frozenset(), frozenset())
        channels = Counter()
        for doc_id, in store.conn.execute("SELECT id FROM documents ORDER BY id").fetchall():
            fp = store.fingerprints_of(doc_id)
            stored = store.compared_text(doc_id)
            text, furniture = stored.text, stored.furniture
            ids = verifier.mark(text, furniture).units.ids
            got = [{d: sorted(c.found_by) for d, c in f.find(fp, ids, min_shared_anchors=PAIR_MIN_SHARED_ANCHORS,
                                                            estimates=False).items()} for f in (plain, held)]
            assert got[0] == got[1]
            channels.update(how for hows in got[1].values() for how in hows)
    assert channels["lsh"] and channels["anchors"] and channels["sentences"]  # every channel was exercised


@hsettings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 70_000), min_size=1, max_size=40), st.integers(0, 12), st.data())
def test_the_compiled_bag_bounds_are_the_numpys(counts, n_rows, data) -> None:
    """core/_kernels.c's bag_bounds against the numpy code, on chosen rows of stored bags with
    full buckets (a count beyond uint16), empty ones and counts on either side of the bag's."""
    from neardup_gui.core import prepared

    width = len(counts)
    bag = np.array(counts, dtype=np.int64)
    stored = np.array(data.draw(st.lists(st.lists(st.sampled_from([0, 1, 2, 7, 300, 65_534, 0xFFFF]) | st.integers(0, 0xFFFF),
                                                  min_size=width, max_size=width), min_size=n_rows, max_size=n_rows)),
                      dtype=np.uint16).reshape(n_rows, width)
    picked = np.array(data.draw(st.lists(st.integers(0, max(n_rows - 1, 0)), max_size=20 if n_rows else 0)), dtype=np.int64)
    kept = prepared._kernels
    try:
        prepared._kernels = None
        want_all, want = stored_bag_bounds(bag, stored), stored_bag_bounds(bag, stored, picked)
    finally:
        prepared._kernels = kept
    got_all, got = stored_bag_bounds(bag, stored), stored_bag_bounds(bag, stored, picked)
    assert got_all.dtype == got.dtype == want.dtype == np.int64
    assert got_all.tolist() == want_all.tolist() and got.tolist() == want.tolist()


def test_the_compiled_bag_bounds_refuse_what_does_not_fit() -> None:
    from neardup_gui.core import compare

    if compare._kernels is None:
        pytest.skip("the compiled kernels are not built here")
    bag, stored = np.ones(4, dtype=np.int64), np.ones((3, 4), dtype=np.uint16)
    with pytest.raises(IndexError):
        compare._kernels.bag_bounds(bag, stored, np.array([3], dtype=np.int64))
    with pytest.raises(ValueError):
        compare._kernels.bag_bounds(np.ones(5, dtype=np.int64), stored, np.array([0], dtype=np.int64))
    with pytest.raises(TypeError):
        compare._kernels.bag_bounds(bag, stored.astype(np.int32), np.array([0], dtype=np.int64))


def test_the_bag_cache_gives_what_reading_the_bags_gives(tmp_path, corpus_dir) -> None:
    """Above BAG_MATRIX_MAX_DOCS a task reads its candidates' bags and keeps the last ones decoded
    (a ring): whatever was kept, overwritten or never stored, each call returns the bags the index
    holds, row for row, and remembers ids without one."""
    build(tmp_path / "docs", 40, seed=17, families=5)
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    with Store(db, create=False) as store:
        ids, matrix = store.bags()
        top = int(ids.max())
        gone = ids[[3, 17]].tolist()  # two documents without a stored bag (as after a migration)
        store.conn.execute(f"DELETE FROM bags WHERE doc_id IN ({gone[0]}, {gone[1]})")
        row_of = {d: matrix[i] for i, d in enumerate(ids.tolist()) if d not in gone}
        cache = pairpass._BagCache(store, top, rows=7)  # smaller than a call: rows overwritten in it
        rng = np.random.default_rng(2)
        universe = np.concatenate([ids, [top + 1, top + 50]])  # ids unknown when the task started
        for _ in range(60):
            asked = np.unique(rng.choice(universe, size=int(rng.integers(0, 12)), replace=True))
            has, stored, picked = cache.get(asked)
            assert has.tolist() == [d in row_of for d in asked.tolist()]
            for d, p in zip(asked[has].tolist(), picked.tolist()):
                assert np.array_equal(stored[p], row_of[d])
        assert cache.hits > 0 and cache.reads > 0
        assert all(cache.absent[g] for g in gone if cache.slot[g] < 0)
        assert not cache.absent[[d for d in ids.tolist() if d not in gone]].any()


def test_a_pass_over_the_bag_cache_gives_the_pairs_of_the_matrix(tmp_path, corpus_dir, monkeypatch) -> None:
    """The pass of a collection too large to hold every bag (the matrix's limit lowered to 0, a
    ring of 16 rows) prunes the same candidates and gives the same pairs."""
    build(tmp_path / "docs", 80, seed=19, families=8)
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
        spec = coll.pass_spec(SETTINGS, None)
        want = [(p.a.rel, p.b.rel, p.similarity, p.containment_a, p.containment_b) for p in coll.pairs(SETTINGS)]
    assert len(want) > 20
    held = pairpass.PartitionWorker(spec)
    monkeypatch.setattr(pairpass, "BAG_MATRIX_MAX_DOCS", 0)
    monkeypatch.setattr(pairpass, "BAG_CACHE_ROWS", 16)
    read = pairpass.PartitionWorker(spec)
    try:
        assert held._bag_cache is None and len(read._bag_cache.held) == 16
        for doc_id in spec.todo.tolist():
            a = held.prepared(doc_id)
            others = [d for d in spec.todo.tolist() if d != doc_id]
            assert read._bag_survivors(read.prepared(doc_id), others) == held._bag_survivors(a, others)
        assert read._bag_cache.hits > 0 and read._bag_cache.reads > 16
    finally:
        held.close()
        read.close()
    calls = []
    real_get = pairpass._BagCache.get
    monkeypatch.setattr(pairpass._BagCache, "get", lambda self, ids: calls.append(len(ids)) or real_get(self, ids))
    again = tmp_path / "again.db"
    shutil.copy(db, again)
    with Collection.open(again) as coll:
        coll.store.conn.execute("DELETE FROM pairs")
        coll.store.conn.execute("DELETE FROM paired")
        coll.store.conn.commit()
        got = [(p.a.rel, p.b.rel, p.similarity, p.containment_a, p.containment_b)
               for p in coll.pairs(Settings(threshold=0.8, auto_template=False, workers=1))]
    assert calls and got == want
