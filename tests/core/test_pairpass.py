"""The collection-wide pass: serial and parallel give the same pairs, exact and complete; cancel; resume."""

from __future__ import annotations

import itertools
import multiprocessing

import numpy as np
import pytest

from benchmarks.copyheavy import build
from neardup_gui.core import pairpass
from neardup_gui.core.collection import Collection
from neardup_gui.core.compare import compare_documents
from neardup_gui.core.progress import Cancelled
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import tokenize

# plain similarity: the automatic template rule off (every document shares boilerplate)
SETTINGS = Settings(threshold=0.8, auto_template=False, workers=2)


@pytest.fixture(scope="module")
def copy_heavy(tmp_path_factory, corpus_dir):
    """A copy-heavy collection of real text (light edits of corpus sections), indexed."""
    root = tmp_path_factory.mktemp("copyheavy")
    build(root / "docs", 240, seed=7, families=60)
    db = root / "index.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(root / "docs"), SETTINGS)
    return db


def pair_rows(db, settings: Settings, executor=None, min_containment=None, partition_docs=16):
    with Collection.open(db) as coll:
        with coll.store.transaction() as conn:
            conn.execute("DELETE FROM pairs")
            conn.execute("DELETE FROM paired")
        spec = coll.pass_spec(settings, min_containment)
        pairpass.run_pass(spec, coll._write_pairs, executor=executor, partition_docs=partition_docs)
        return sorted(coll.store.conn.execute("SELECT a, b, similarity, containment_a, containment_b, common FROM pairs"))


def test_parallel_pass_gives_exactly_the_serial_pairs(copy_heavy) -> None:
    serial = pair_rows(copy_heavy, SETTINGS, pairpass.serial_results)
    parallel = pair_rows(copy_heavy, SETTINGS, pairpass.process_results(2))
    assert len(serial) > 20  # the families of light edits are found
    assert parallel == serial  # same set, same similarities and containments, bit for bit


def test_pass_pairs_are_exact_and_complete_against_brute_force(copy_heavy) -> None:
    with Collection.open(copy_heavy) as coll:
        docs = coll.documents()
        texts = {d.doc_id: coll.document_text(d.doc_id) for d in docs}
        found = {tuple(sorted((p.a.doc_id, p.b.doc_id))): p for p in coll.pairs(SETTINGS)}
    truth = {}
    units = {doc_id: tokenize(text) for doc_id, text in texts.items()}  # (each text once, not once a pair)
    for a, b in itertools.combinations(sorted(texts), 2):
        # similarity = common / (n_a + n_b - common) with common <= min(n_a, n_b): at most the
        # ratio of the lengths, so a pair whose lengths are further apart cannot reach it (exact)
        if min(len(units[a]), len(units[b])) < SETTINGS.threshold * max(len(units[a]), len(units[b])):
            continue
        comp = compare_documents(texts[a], texts[b], min_run=SETTINGS.min_run, with_raw_lcs=False,
                                 units_a=units[a], units_b=units[b])
        if comp.similarity >= SETTINGS.threshold:
            truth[(a, b)] = comp
    assert len(truth) > 20
    assert set(found) == set(truth)  # recall 1 and precision 1 on this collection
    for key, comp in truth.items():
        assert found[key].similarity == comp.similarity
        assert found[key].common_units == comp.common_units


def test_containment_cut_keeps_contained_pairs_below_the_similarity_cut(copy_heavy) -> None:
    by_similarity = pair_rows(copy_heavy, SETTINGS, pairpass.serial_results)
    with_containment = pair_rows(copy_heavy, SETTINGS, pairpass.serial_results, min_containment=0.5)
    extra = [r for r in with_containment if r[2] < SETTINGS.threshold]
    assert extra and all(max(r[3], r[4]) >= 0.5 for r in extra)
    assert [r for r in with_containment if r[2] >= SETTINGS.threshold] == by_similarity
    with Collection.open(copy_heavy) as coll:  # the public entry point lists them too
        listed = coll.pairs(SETTINGS, by="containment", cut=0.5)
        assert {tuple(sorted((p.a.doc_id, p.b.doc_id))) for p in listed} == {
            (r[0], r[1]) for r in with_containment if max(r[3], r[4]) >= 0.5}
        assert len(coll.pairs(SETTINGS)) == len(by_similarity)


def test_cancelled_parallel_pass_stops_its_workers_and_resumes_to_the_same_pairs(copy_heavy) -> None:
    expected = pair_rows(copy_heavy, SETTINGS, pairpass.serial_results)
    with Collection.open(copy_heavy) as coll:
        with coll.store.transaction() as conn:
            conn.execute("DELETE FROM pairs")
            conn.execute("DELETE FROM paired")
        seen = []

        def progress(fraction: float, message: str) -> None:
            seen.append(fraction)
            if fraction > 0.3:
                raise Cancelled()

        spec = coll.pass_spec(SETTINGS)
        with pytest.raises(Cancelled):
            pairpass.run_pass(spec, coll._write_pairs, progress, executor=pairpass.process_results(2),
                              partition_docs=8)
        assert not multiprocessing.active_children()  # the pool was terminated, not left running
        paired = coll.store.conn.execute("SELECT COUNT(*) FROM paired").fetchone()[0]
        assert 0 < paired < 240  # what was written stays, the rest is left to resume
        coll.pairs(SETTINGS)  # resumes with the documents not yet paired
        rows = sorted(coll.store.conn.execute("SELECT a, b, similarity, containment_a, containment_b, common FROM pairs"))
    assert rows == expected


def test_a_cut_below_the_threshold_pairs_down_to_the_cut(copy_heavy) -> None:
    """Regression: the pass verified down to the threshold only, so a lower cut missed pairs."""
    lower = pair_rows(copy_heavy, SETTINGS.with_(threshold=0.6), pairpass.serial_results)
    assert any(r[2] < SETTINGS.threshold for r in lower)
    with Collection.open(copy_heavy) as coll:
        with coll.store.transaction() as conn:
            conn.execute("DELETE FROM pairs")
            conn.execute("DELETE FROM paired")
        listed = coll.pairs(SETTINGS, cut=0.6)  # threshold 0.8, cut 0.6
    assert sorted(tuple(sorted((p.a.doc_id, p.b.doc_id))) for p in listed) == sorted((r[0], r[1]) for r in lower)


def test_length_bound_uses_countable_units_not_totals(tmp_path, corpus_dir) -> None:
    """Regression guard for the pass's length bound: a document whose quotations are excluded is
    far longer in total than in countable units. Its light edit must still pair with the short
    original, whichever of the two is paired first, exactly as a brute-force comparison says; a
    document with the same text unquoted (all of it countable) must not."""
    from benchmarks.copyheavy import light_edit
    from neardup_gui.core.verify import Verifier
    import random

    en = [p.read_text(encoding="utf-8") for p in sorted((corpus_dir / "debian-reference-en").glob("*.txt"))]
    base = max(en[:40], key=len)
    marks = set("\"'()[]\u201c\u201d\u2018\u2019")
    filler = [" ".join(s.split()) for t in en[40:60] for s in t.split(".")
              if 40 < len(s.strip()) < 300 and not set(s) & marks][:200]
    quoted = "\n".join(f"\u201c{s}.\u201d" for s in filler)
    unquoted = "\n".join(f"{s}." for s in filler)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "0_quoted.txt").write_text(light_edit(base, 0.02, random.Random(1)) + "\n" + quoted, encoding="utf-8")
    (docs / "1_original.txt").write_text(base, encoding="utf-8")
    (docs / "2_quoted.txt").write_text(light_edit(base, 0.02, random.Random(2)) + "\n" + quoted, encoding="utf-8")
    (docs / "3_unquoted.txt").write_text(base + "\n" + unquoted, encoding="utf-8")
    for i, t in enumerate(en[60:66]):
        (docs / f"9_other{i}.txt").write_text(t, encoding="utf-8")
    settings = Settings(threshold=0.8, auto_template=False, exclude_quotes=True, workers=1)
    with Collection.open(tmp_path / "index.db") as coll:
        coll.index_folder(str(docs), settings)
        found = {tuple(sorted((p.a.path.rsplit("/", 1)[-1], p.b.path.rsplit("/", 1)[-1]))): p.similarity
                 for p in coll.pairs(settings)}
    verifier = Verifier(settings)
    marked = {p.name: verifier.mark(p.read_text(encoding="utf-8")) for p in sorted(docs.iterdir())}
    truth = {}
    for x, y in itertools.combinations(sorted(marked), 2):
        comp = verifier.compare(marked[x], marked[y])
        if comp.similarity >= 0.8:
            truth[(x, y)] = comp.similarity
    assert {("0_quoted.txt", "1_original.txt"), ("1_original.txt", "2_quoted.txt")} <= set(truth)
    assert not any("3_unquoted.txt" in k for k in truth)
    assert found == truth


def test_stored_anchors_are_the_anchors_a_pass_would_compute(copy_heavy) -> None:
    """The pass looks up a document's stored anchors when nothing of it was removed; they must be
    the winnowed anchors of its units, as the index stored them."""
    from neardup_gui.core.fingerprints import anchors
    from neardup_gui.core.units import tokenize

    with Collection.open(copy_heavy) as coll:
        store = coll.store
        ids = [r[0] for r in store.conn.execute("SELECT id FROM documents WHERE status = 'indexed' ORDER BY id")]
        assert len(ids) == 240
        for doc_id in ids[::7]:
            text = store.compared_text(doc_id).text
            stored = store.fingerprints_of(doc_id).anchors
            assert np.array_equal(np.sort(stored), anchors(tokenize(text).ids, SETTINGS.fingerprints))


def test_byte_copies_share_their_preparation_and_give_the_brute_force_pairs(tmp_path, corpus_dir) -> None:
    """Real archives hold byte-identical files: the pass prepares each content once and compares
    two contents once, and the pairs are still exactly the brute-force ones, copies included."""
    import random
    import shutil

    from benchmarks.copyheavy import light_edit

    en = [p.read_text(encoding="utf-8") for p in sorted((corpus_dir / "debian-reference-en").glob("*.txt"))][:12]
    docs = tmp_path / "docs"
    docs.mkdir()
    rng = random.Random(11)
    for i, text in enumerate(en):
        (docs / f"s{i:02d}.txt").write_text(text, encoding="utf-8")
        if i % 2 == 0:
            (docs / f"s{i:02d}_edit.txt").write_text(light_edit(text, 0.03, rng), encoding="utf-8")
        if i % 3 == 0:  # byte copies, one of them of an edit
            shutil.copy(docs / f"s{i:02d}.txt", docs / f"z{i:02d}_copy.txt")
            if i % 2 == 0:
                shutil.copy(docs / f"s{i:02d}_edit.txt", docs / f"t{i:02d}_copy_of_edit.txt")
    settings = Settings(threshold=0.8, auto_template=False, workers=1)
    db = tmp_path / "index.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(docs), settings)
        texts = {d.doc_id: coll.document_text(d.doc_id) for d in coll.documents()}
        names = {d.doc_id: d.path.rsplit("/", 1)[-1] for d in coll.documents()}
        found = {tuple(sorted((names[p.a.doc_id], names[p.b.doc_id]))): (p.similarity, p.common_units)
                 for p in coll.pairs(settings)}
        spec = coll.pass_spec(settings)
    truth = {}
    for a, b in itertools.combinations(sorted(texts), 2):
        comp = compare_documents(texts[a], texts[b], min_run=settings.min_run, with_raw_lcs=False)
        if comp.similarity >= settings.threshold:
            truth[tuple(sorted((names[a], names[b])))] = (comp.similarity, comp.common_units)
    assert found == truth
    assert found[("s00.txt", "z00_copy.txt")] == (1.0, found[("s00.txt", "z00_copy.txt")][1])
    worker = pairpass.PartitionWorker(spec)
    try:
        by_name = {n: i for i, n in names.items()}
        assert worker.prepared(by_name["s03.txt"]) is worker.prepared(by_name["z03_copy.txt"])
        assert worker.prepared(by_name["s03.txt"]) is not worker.prepared(by_name["s04.txt"])
    finally:
        worker.close()


def test_documents_added_later_are_paired_down_to_the_caches_floor(tmp_path, corpus_dir) -> None:
    """Regression: after pairs down to a cut of 0.3, a document added and paired at the threshold
    was paired only down to the threshold, and a later cut of 0.3 silently missed its pairs."""
    en = [p.read_text(encoding="utf-8") for p in sorted((corpus_dir / "debian-reference-en").glob("*.txt"))]
    base = next(t for t in en if len(t) > 6000)
    others = [t for t in en if t is not base and len(t) > 3000][:4]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a_base.txt").write_text(base, encoding="utf-8")
    for i, t in enumerate(others):
        (docs / f"o{i}.txt").write_text(t, encoding="utf-8")
    settings = Settings(threshold=0.8, auto_template=False, workers=1)
    with Collection.open(tmp_path / "index.db") as coll:
        coll.index_folder(str(docs), settings)
        coll.pairs(settings, cut=0.3)  # the cache now holds every pair down to 0.3
        half = base[: len(base) // 2]
        (docs / "b_half.txt").write_text(half + "\n" + others[0][: len(half)], encoding="utf-8")
        coll.index_folder(str(docs), settings)
        assert all(p.similarity >= 0.8 for p in coll.pairs(settings))  # the list is still cut at the threshold
        low = {tuple(sorted((p.a.path.rsplit("/", 1)[-1], p.b.path.rsplit("/", 1)[-1]))): p.similarity
               for p in coll.pairs(settings, cut=0.3)}
    assert 0.3 <= low[("a_base.txt", "b_half.txt")] < 0.8


def test_countable_lengths_known_before_preparation_are_the_prepared_ones(tmp_path, corpus_dir) -> None:
    """When a pass removes nothing from a text (no template sentence, quotes and bibliography
    counted), a document without furniture counts all its units: its length bounds its pairs
    before it is prepared. That length must be what preparing it gives; a document with furniture
    (a PDF's running heads) and every document of a pass that removes something stay unknown
    until prepared; and the pass's pairs stay the brute-force ones."""
    import dataclasses

    from neardup_gui.core.store import Store, _pack_spans
    from neardup_gui.core.verify import Verifier

    build(tmp_path / "docs", 60, seed=21, families=8)
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    with Store(db, create=False) as store:
        ids = [r[0] for r in store.conn.execute("SELECT id FROM documents WHERE status = 'indexed' ORDER BY id")]
        headed = ids[3]
        text = store.compared_text(headed).text
        with store.transaction() as conn:  # a third of it furniture, as running heads are
            conn.execute("UPDATE texts SET furniture = ? WHERE doc_id = ?", (_pack_spans([(0, len(text) // 3)]), headed))
    with Collection.open(db) as coll:
        spec = coll.pass_spec(SETTINGS)
    worker = pairpass.PartitionWorker(spec)
    try:
        known = worker._countable.copy()
        assert known[headed] == -1
        assert all(known[d] >= 0 for d in ids if d != headed)
        for d in ids:
            prepared = len(worker.prepared(d).codes)
            if d != headed:
                assert known[d] == prepared
            else:
                assert prepared < worker._total[d]  # its furniture does not count
    finally:
        worker.close()
    some_key = int(next(iter(Verifier(SETTINGS).mark(text).units.ids)))  # (any key: a template is set)
    for removing in (dataclasses.replace(spec, user_template_keys=frozenset([some_key])),
                     dataclasses.replace(spec, settings=dataclasses.replace(SETTINGS, exclude_quotes=True))):
        worker = pairpass.PartitionWorker(removing)
        try:
            assert (worker._countable == -1).all()
        finally:
            worker.close()
    # the pairs with the furniture: those of comparing every two documents as marked
    with Collection.open(db) as coll:
        found = {tuple(sorted((p.a.doc_id, p.b.doc_id))): round(p.similarity, 9) for p in coll.pairs(SETTINGS)}
        verifier = coll.verifier(SETTINGS)
        marked = {d: verifier.mark(coll.store.compared_text(d).text, coll.store.compared_text(d).furniture) for d in ids}
    truth = {}
    for a, b in itertools.combinations(ids, 2):
        comp = verifier.compare(marked[a], marked[b])
        if comp.similarity >= SETTINGS.threshold:
            truth[(a, b)] = round(comp.similarity, 9)
    assert len(truth) > 20
    assert found == truth
