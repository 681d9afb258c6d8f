"""Candidate search over a real index: strategies agree, stored search tables stay exact."""

from __future__ import annotations

import random
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings as hsettings
from hypothesis import strategies as st

from neardup_gui.core import candidates
from neardup_gui.core.candidates import CandidateFinder
from neardup_gui.core.collection import Collection
from neardup_gui.core.fingerprints import Fingerprints, fingerprint, gram_guarantee
from neardup_gui.core.indexer import params_key
from neardup_gui.core.settings import FingerprintParams, Settings
from neardup_gui.core.units import tokenize
from benchmarks.obfuscate import english_vocab, obfuscate_en

SETTINGS = Settings(workers=2)


@pytest.fixture
def indexed(tmp_path, corpus_dir):
    root = tmp_path / "coll"
    root.mkdir()
    files = sorted((corpus_dir / "debian-reference-en").glob("ch0[12]-*.txt"))[:24]
    for f in files:
        shutil.copy(f, root / f.name)
    # light edits of three of them, so that fingerprint radii contain real neighbours
    for f in files[:3]:
        text = f.read_text(encoding="utf-8")
        (root / f"edit-{f.name}").write_text(text.replace(" the ", " a ", 3), encoding="utf-8")
    coll = Collection.open(tmp_path / "c.ndx")
    coll.index_folder(str(root), SETTINGS)
    yield coll, root
    coll.close()


def _found(finder: CandidateFinder, coll: Collection) -> dict[int, set[int]]:
    out = {}
    for d in coll.documents():
        fp = coll.store.fingerprints_of(d.doc_id)
        units = coll.marked(d.doc_id, coll.verifier(SETTINGS)).units
        out[d.doc_id] = {c for c in finder.find(fp, units.ids, exclude={d.doc_id})}
    return out


def test_every_strategy_proposes_the_same_hamming_neighbours(indexed):
    coll, _ = indexed
    results = {}
    for strategy in ("brute", "permuted", "grouped"):
        finder = CandidateFinder(coll.store, SETTINGS.with_(strategy=strategy))
        results[strategy] = {
            d.doc_id: set(finder.minhash.query(coll.store.fingerprints_of(d.doc_id).minhash_bits, finder.radius)[0].tolist())
            for d in coll.documents()
        }
    assert results["brute"] == results["permuted"] == results["grouped"]
    assert sum(len(v) for v in results["brute"].values()) > len(results["brute"])  # real neighbours exist


def test_stored_search_tables_are_brought_up_to_date(indexed, monkeypatch, corpus_dir):
    coll, root = indexed
    monkeypatch.setattr(candidates, "SNAPSHOT_MIN_DOCS", 1)
    finder = coll.finder(SETTINGS)
    assert finder.save()
    assert coll.store.load_search_table("minhash:grouped", finder.params_json) is not None
    # change the collection after the snapshot: add two documents, delete one
    extra = sorted((corpus_dir / "debian-reference-en").glob("ch03-*.txt"))[:2]
    for f in extra:
        shutil.copy(f, root / f.name)
    victim = sorted(root.glob("ch01-*.txt"))[-1]
    victim.unlink()
    monkeypatch.setattr(candidates, "SNAPSHOT_STALE_SHARE", 1.0)
    coll.index_folder(str(root), SETTINGS)
    loaded = coll.finder(SETTINGS)
    assert loaded.delta == 3  # two added, one removed on top of the stored tables
    fresh = CandidateFinder(coll.store, SETTINGS)
    coll.store.conn.execute("DELETE FROM search_tables")
    rebuilt = CandidateFinder(coll.store, SETTINGS)
    assert rebuilt.delta == rebuilt.count
    assert _found(loaded, coll) == _found(rebuilt, coll) == _found(fresh, coll)
    assert np.array_equal(loaded.minhash.doc_ids(), rebuilt.minhash.doc_ids())


def test_a_snapshot_stamped_with_the_current_generation_opens_without_a_scan(indexed, monkeypatch, corpus_dir):
    """Schema 3: every fingerprint write or removal (a cascade included) moves the generation on;
    a snapshot saved at the current generation is used as it is, any other is checked in full."""
    coll, root = indexed
    monkeypatch.setattr(candidates, "SNAPSHOT_MIN_DOCS", 1)
    store = coll.store
    before = store.fingerprint_generation()
    finder = CandidateFinder(store, SETTINGS)
    assert finder.save()
    assert store.search_table_generation("minhash:grouped", finder.params_json) == before

    def no_scan(*_args):
        raise AssertionError("the fingerprints were scanned")

    with monkeypatch.context() as m:
        m.setattr(store, "fingerprint_ids", no_scan)
        exact = CandidateFinder(store, SETTINGS)
    assert exact.count == finder.count and exact.delta == 0
    assert _found(exact, coll) == _found(finder, coll)

    # a removal (cascading from documents) and an addition each move the generation on
    victim = sorted(root.glob("ch01-*.txt"))[-1]
    victim.unlink()
    shutil.copy(sorted((corpus_dir / "debian-reference-en").glob("ch03-*.txt"))[0], root / "new.txt")
    monkeypatch.setattr(candidates, "SNAPSHOT_STALE_SHARE", 1.0)  # keep the old snapshot
    coll.index_folder(str(root), SETTINGS)
    assert store.fingerprint_generation() > before
    checked = CandidateFinder(store, SETTINGS)  # stale stamp: brought up to date, not trusted
    assert checked.delta == 2
    store.conn.execute("DELETE FROM search_tables")
    assert _found(checked, coll) == _found(CandidateFinder(store, SETTINGS), coll)


def test_schema_2_index_is_migrated_to_the_generation_counter(indexed):
    coll, _ = indexed
    path = coll.store.path
    conn = coll.store.conn
    for event in ("insert", "update", "delete"):
        conn.execute(f"DROP TRIGGER fingerprints_{event}")
    conn.execute("DROP TABLE counters")
    conn.execute("ALTER TABLE search_tables DROP COLUMN generation")
    conn.execute("PRAGMA user_version = 2")
    n = conn.execute("SELECT COUNT(*) FROM fingerprints").fetchone()[0]
    coll.close()
    from neardup_gui.core.store import SCHEMA_VERSION, Store

    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        g = store.fingerprint_generation()
        with store.transaction() as c:
            c.execute("DELETE FROM documents WHERE id = (SELECT MIN(doc_id) FROM fingerprints)")
        assert store.fingerprint_generation() == g + 1
        assert store.conn.execute("SELECT COUNT(*) FROM fingerprints").fetchone()[0] == n - 1


def test_pairs_ask_anchor_only_candidates_for_two_shared_anchors(indexed, corpus_dir):
    """check takes a document sharing a single gram (one copied paragraph can be that); pairs,
    looking for whole near-duplicates, asks for two shared anchors (candidates.PAIR_MIN_SHARED_ANCHORS)."""
    coll, root = indexed
    # unrelated texts, each with a run of 59 words (>= G = 55) of an indexed document in it:
    # the run holds one whole winnowing window, so the two share an anchor
    words = sorted(root.glob("ch01-*.txt"))[0].read_text(encoding="utf-8").split()
    hosts = sorted((corpus_dir / "debian-reference-en").glob("ch09-*.txt"))[:6]
    for i, host in enumerate(hosts):
        text = host.read_text(encoding="utf-8").split()
        run = words[40 * i + 20 : 40 * i + 79]
        (root / f"host-{i}.txt").write_text(" ".join(text[:150] + run + text[150:]), encoding="utf-8")
    coll.index_folder(str(root), SETTINGS)
    finder = coll.finder(SETTINGS)
    v = coll.verifier(SETTINGS)
    seen_single = 0
    for d in coll.documents():
        units = coll.marked(d.doc_id, v).units
        fp = coll.store.fingerprints_of(d.doc_id)
        strict = finder.find(fp, units.ids, exclude={d.doc_id}, min_shared_anchors=candidates.PAIR_MIN_SHARED_ANCHORS)
        one = finder.find(fp, units.ids, exclude={d.doc_id}, min_shared_anchors=1)
        for doc_id, c in strict.items():
            if "anchors" in c.found_by:
                assert c.shared_anchors >= candidates.PAIR_MIN_SHARED_ANCHORS
                assert doc_id in one  # what the pass proposes by its anchors, a check proposes by its grams
        seen_single += sum(1 for doc_id, c in one.items() if c.found_by == {"grams"} and doc_id not in strict)
    assert seen_single  # the corpus has chance neighbours sharing a phrase: the rule was exercised


def test_check_finds_and_ranks_first_the_source_of_a_copy_edited_at_20_percent(indexed, corpus_dir, tmp_path):
    """A section copied with a fifth of its words replaced keeps few whole k-grams, and winnowing
    picks different minima around them in the copy and in the source, so the two share no
    winnowed anchor (nor any minhash, simhash, LSH or sentence key). The check looks up every
    k-gram of the copy among the stored grams and finds the source."""
    coll, root = indexed
    source = root / "ch01-024.txt"
    vocab = english_vocab([f.read_text(encoding="utf-8") for f in sorted((corpus_dir / "debian-reference-en").glob("ch09-*.txt"))])
    copy = tmp_path / "edited.txt"
    copy.write_text(obfuscate_en(source.read_text(encoding="utf-8"), 0.2, vocab, random.Random(1)), encoding="utf-8")
    finder = coll.finder(SETTINGS)
    units = tokenize(copy.read_text(encoding="utf-8"))
    fp = fingerprint(copy.read_text(encoding="utf-8"), units, SETTINGS.fingerprints)
    source_id = next(d.doc_id for d in coll.documents() if d.path == str(source))
    found = finder.find(fp, units.ids)
    assert "grams" in found[source_id].found_by

    [result] = coll.check([str(copy)], SETTINGS)
    assert result.matches and result.matches[0].source.path == str(source)
    assert "grams" in result.matches[0].found_by
    assert result.matches[0].comparison.containment_a > 0.5  # the passages of issue 15 see most of it


def test_excluded_documents_do_not_take_the_places_of_the_anchor_cap(tmp_path, corpus_dir, monkeypatch):
    """A pass excludes the documents paired already; they must be left out BEFORE the cap on
    anchor candidates, or, where a licence is shared by hundreds of files, the partner of a later
    document never becomes its candidate (797 real copyright files: 104 of 2,095 pairs at r ≥ 0.5
    were lost so)."""
    root = tmp_path / "coll"
    root.mkdir()
    sections = sorted((corpus_dir / "debian-reference-en").glob("ch0[3-9]-*.txt"))
    common = sections[0].read_text(encoding="utf-8")  # the "licence" every file holds
    for i, body in enumerate(sections[1:9]):
        (root / f"doc-{i}.txt").write_text(common + "\n" + body.read_text(encoding="utf-8"), encoding="utf-8")
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        ids = {d.rel: d.doc_id for d in coll.documents()}
        query = ids["doc-0.txt"]
        fp = coll.store.fingerprints_of(query)
        units = coll.marked(query, coll.verifier(SETTINGS)).units
        finder = CandidateFinder(coll.store, SETTINGS)
        everyone = finder.find(fp, units.ids, exclude={query}, min_shared_anchors=2)
        by_anchors = {d for d, c in everyone.items() if "anchors" in c.found_by}
        assert len(by_anchors) == 7  # every other file shares the licence's anchors
        monkeypatch.setattr(candidates, "MAX_PAIR_ANCHOR_CANDIDATES", 3)
        paired_already = {query} | set(sorted(by_anchors)[:5])
        left = finder.find(fp, units.ids, exclude=paired_already, min_shared_anchors=2)
        assert {d for d, c in left.items() if "anchors" in c.found_by} == by_anchors - paired_already


def test_pairs_rank_anchor_candidates_by_resemblance_not_raw_count(tmp_path, corpus_dir, monkeypatch):
    """Long files sharing a licence share more anchors with a document than its short near-
    duplicate does; ranked by the raw count the near-duplicate falls beyond the cap (real
    copyright files: 34 of 2,095 pairs at r >= 0.5), ranked by anchor-set resemblance it leads."""
    root = tmp_path / "coll"
    root.mkdir()
    texts = [f.read_text(encoding="utf-8") for f in sorted((corpus_dir / "debian-reference-en").glob("ch0[3-9]-*.txt"))]
    texts.sort(key=len)
    licence, short = texts[-1], texts[len(texts) // 3]  # a long shared text, a shorter own part
    for i in range(5):
        (root / f"long-{i}.txt").write_text(licence + "\n" + texts[-2 - i] + "\n" + texts[-8 - i], encoding="utf-8")
    (root / "query.txt").write_text(short + "\n" + licence[: len(licence) // 3], encoding="utf-8")
    (root / "twin.txt").write_text(short, encoding="utf-8")
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        ids = {d.rel: d.doc_id for d in coll.documents()}
        query, twin = ids["query.txt"], ids["twin.txt"]
        fp = coll.store.fingerprints_of(query)
        units = coll.marked(query, coll.verifier(SETTINGS)).units
        finder = CandidateFinder(coll.store, SETTINGS)
        everyone = finder.find(fp, units.ids, exclude={query}, min_shared_anchors=2)
        shared = {d: c.shared_anchors for d, c in everyone.items() if "anchors" in c.found_by}
        longs = [ids[f"long-{i}.txt"] for i in range(5)]
        assert all(shared[twin] < shared[d] for d in longs)  # by the raw count the twin comes last
        monkeypatch.setattr(candidates, "MAX_PAIR_ANCHOR_CANDIDATES", 2)
        capped = finder.find(fp, units.ids, exclude={query}, min_shared_anchors=2)
        assert twin in {d for d, c in capped.items() if "anchors" in c.found_by}


def test_check_proposes_the_source_of_a_30_percent_edited_section_inside_a_larger_document(tmp_path, corpus_dir):
    """Issue 15: a 607-word section with 30 % of its words replaced, inside 1,900 words of other
    text. Its whole 12-word k-grams are few (0.7^12: one in 70) and none is a stored anchor of
    the source, so with anchors of 12 units no channel proposed the source. With anchors of
    ``anchor_kgram`` = 8 units five of the copy's k-grams are stored anchors of the source: the
    check proposes it, verifies it, and the passages find most of the section."""
    en = corpus_dir / "debian-reference-en"
    root = tmp_path / "coll"
    root.mkdir()
    source = root / "ch10-008.txt"
    shutil.copy(en / source.name, source)
    for f in sorted(en.glob("ch1[01]-*.txt"))[:30]:
        if f.name != source.name:
            shutil.copy(f, root / f.name)
    vocab = english_vocab([f.read_text(encoding="utf-8") for f in sorted(en.glob("ch09-*.txt"))])
    copied = obfuscate_en(source.read_text(encoding="utf-8"), 0.3, vocab, random.Random(2))
    host = "\n\n".join(f.read_text(encoding="utf-8") for f in sorted(en.glob("ch07-*.txt"))[:6])
    cut = host.index("\n\n", len(host) // 2)
    submission = tmp_path / "submission.txt"
    submission.write_text(host[:cut] + "\n\n" + copied + host[cut:], encoding="utf-8")
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        [result] = coll.check([str(submission)], SETTINGS)
    found = {m.source.path: m for m in result.matches}
    assert str(source) in found, [m.source.path for m in result.matches]
    match = found[str(source)]
    assert "grams" in match.found_by
    assert match.comparison.containment_b >= 0.8  # the passages cover most of the source


def test_an_index_made_with_12_unit_anchors_is_flagged_until_indexed_again(tmp_path, corpus_dir, caplog):
    """Anchors of 12 units (before issue 15) in an index opened with 8: the search would miss
    candidates, so the finder says so; indexing again re-fingerprints from the stored text."""
    root = tmp_path / "coll"
    root.mkdir()
    for f in sorted((corpus_dir / "debian-reference-en").glob("ch01-*.txt"))[:5]:
        shutil.copy(f, root / f.name)
    old = SETTINGS.with_(fingerprints=FingerprintParams(anchor_kgram=12))
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(root), old)
        caplog.clear()
        CandidateFinder(coll.store, SETTINGS)
        assert any("fingerprinted with other parameters" in r.getMessage() for r in caplog.records)
        report = coll.index_folder(str(root), SETTINGS)
        assert report.refingerprinted == 5
        caplog.clear()
        CandidateFinder(coll.store, SETTINGS)
        assert not any("fingerprinted with other parameters" in r.getMessage() for r in caplog.records)


def test_pairs_on_an_index_made_with_12_unit_anchors_brings_it_up_to_date_first(tmp_path, corpus_dir):
    """`pairs` on an index fingerprinted with the old anchors re-fingerprints it from the stored
    texts before the pass (the search would miss candidates otherwise): the pairs are those of a
    fresh index, and the index records the current parameters."""
    import random

    from benchmarks.copyheavy import light_edit

    root = tmp_path / "coll"
    root.mkdir()
    rng = random.Random(4)
    for f in sorted((corpus_dir / "debian-reference-en").glob("ch0*.txt"))[:8]:
        text = f.read_text(encoding="utf-8")
        (root / f.name).write_text(text, encoding="utf-8")
        (root / ("edit-" + f.name)).write_text(light_edit(text, 0.03, rng), encoding="utf-8")
    old = SETTINGS.with_(fingerprints=FingerprintParams(anchor_kgram=12))
    with Collection.open(tmp_path / "fresh.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        fresh = sorted((p.a.path, p.b.path, p.similarity) for p in coll.pairs(SETTINGS))
    with Collection.open(tmp_path / "old.ndx") as coll:
        coll.index_folder(str(root), old)
        assert coll.store.get_meta("params") != params_key(SETTINGS.fingerprints)
        got = sorted((p.a.path, p.b.path, p.similarity) for p in coll.pairs(SETTINGS))
        assert coll.store.get_meta("params") == params_key(SETTINGS.fingerprints)
    assert len(fresh) >= 8 and got == fresh


def _postings_of_the_table(store, table: str) -> tuple[np.ndarray, np.ndarray]:
    column = {"anchors": "hash", "lsh_keys": "key", "sentence_fps": "fp"}[table]
    rows = store.conn.execute(f"SELECT {column}, doc_id FROM {table} ORDER BY {column}").fetchall()
    flat = np.array(rows, dtype=np.int64).reshape(-1, 2)
    return flat[:, 0], flat[:, 1]


def test_postings_made_from_the_fingerprints_are_the_search_rows(indexed, tmp_path):
    """A pass loads each search table from the fingerprints table (one row a document): the same
    rows, in the same order, as reading the table, after documents are added, changed and removed;
    and when the two disagree in number, the table is read itself."""
    coll, root = indexed

    def check() -> None:
        for table in ("anchors", "lsh_keys", "sentence_fps"):
            got = candidates.AnchorPostings.load(coll.store, table)
            hashes, docs = _postings_of_the_table(coll.store, table)
            assert len(hashes) > 0
            assert got.hashes.dtype == got.doc_ids.dtype == np.int64
            assert np.array_equal(got.hashes, hashes) and np.array_equal(got.doc_ids, docs), table

    check()
    files = sorted(root.glob("*.txt"))
    files[0].unlink()  # removed
    files[1].write_text(files[1].read_text(encoding="utf-8") + "\nA paragraph added later on.\n", encoding="utf-8")
    (root / "copy.txt").write_text(files[2].read_text(encoding="utf-8"), encoding="utf-8")  # added
    coll.index_folder(str(root), SETTINGS)
    check()
    # a search row the fingerprints do not hold (the counts differ): the table is read
    with coll.store.transaction() as conn:
        conn.execute("INSERT INTO anchors (hash, doc_id) VALUES (?, ?)", (12345, coll.documents()[0].doc_id))
    got = candidates.AnchorPostings.load(coll.store)
    hashes, docs = _postings_of_the_table(coll.store, "anchors")
    assert 12345 in got.hashes.tolist() and np.array_equal(got.hashes, hashes) and np.array_equal(got.doc_ids, docs)
    # a damaged array among the fingerprints: the table is read
    with coll.store.transaction() as conn:
        conn.execute("UPDATE fingerprints SET lsh = ? WHERE doc_id = ?", (b"1234567", coll.documents()[0].doc_id))
    got = candidates.AnchorPostings.load(coll.store, "lsh_keys")
    hashes, docs = _postings_of_the_table(coll.store, "lsh_keys")
    assert np.array_equal(got.hashes, hashes) and np.array_equal(got.doc_ids, docs)


def test_a_damaged_snapshot_is_built_again_from_the_fingerprints(indexed, monkeypatch, caplog):
    """A stored search table is a cache: one whose arrays do not hold together (a posting
    outside the table, unsorted keys, a cut or scrambled blob) is reported and built again from
    the fingerprints, with the answers of a fresh build; it never fails the pass or the check."""
    from neardup_gui.core.search import deserialise, serialise

    coll, _ = indexed
    store = coll.store
    monkeypatch.setattr(candidates, "SNAPSHOT_MIN_DOCS", 1)
    fresh = CandidateFinder(store, SETTINGS)
    assert fresh.save()
    expected = _found(fresh, coll)
    generation = store.fingerprint_generation()
    names = {"minhash:grouped": "_postings", "simhash:permuted": "_keys"}
    originals = {name: bytes(store.load_search_table(name, fresh.params_json)) for name in names}

    def damaged_postings(search):  # noqa: ANN001, ANN202
        search._postings = search._postings.copy()
        search._postings[:3] = len(search._rows) + 7
        return search

    def unsorted_keys(search):  # noqa: ANN001, ANN202
        search._keys = [k[::-1].copy() for k in search._keys]
        return search

    damages = {"minhash:grouped": damaged_postings, "simhash:permuted": unsorted_keys}
    for name, damage in damages.items():
        for blob in (serialise(damage(deserialise(originals[name]))), originals[name][:-40], b"NDST" + b"\0" * 64):
            store.save_search_table(name, fresh.params_json, blob, generation)  # stamped exact: trusted unless checked
            caplog.clear()
            with caplog.at_level("WARNING", logger="neardup_gui.core.candidates"):
                loaded = CandidateFinder(store, SETTINGS)
            assert any("damaged" in r.getMessage() for r in caplog.records), name
            assert loaded.delta == loaded.count  # built again, so save() stores it again
            assert _found(loaded, coll) == expected
        store.save_search_table(name, fresh.params_json, originals[name], generation)

    # bytes flipped anywhere: it loads (the flip fell in values a query checks) or is built again
    rng = random.Random(16)
    for name in names:
        for _ in range(40):
            blob = bytearray(originals[name])
            for _ in range(3):
                blob[rng.randrange(len(blob))] ^= 1 << rng.randrange(8)
            store.save_search_table(name, fresh.params_json, bytes(blob), generation)
            _found(CandidateFinder(store, SETTINGS), coll)  # never raises
        store.save_search_table(name, fresh.params_json, originals[name], generation)
    assert _found(CandidateFinder(store, SETTINGS), coll) == expected


@hsettings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(length=st.integers(8, 30), at=st.integers(0, 500), seed=st.integers(0, 10_000))
def test_property_a_check_proposes_every_document_sharing_a_run_of_the_minimum_run(indexed, length, at, seed):
    """The check's guarantee is the comparison's: a submission of unrelated words holding one run
    of ``min_run`` (8) units or more of any indexed document proposes that document, whatever the
    two lengths (the dense grams: fingerprints.gram_guarantee)."""
    coll, _ = indexed
    rng = random.Random(seed)
    docs = [d for d in coll.documents() if d.status == "indexed" and d.units > 40]
    d = rng.choice(docs)
    ids = coll.marked(d.doc_id, coll.verifier(SETTINGS)).units.ids
    start = at % (len(ids) - length)
    own = np.array([rng.getrandbits(63) | 1 for _ in range(60)], dtype=np.uint64)  # words found nowhere
    query = np.concatenate([own[:30], ids[start:start + length], own[30:]])
    assert SETTINGS.min_run >= gram_guarantee(SETTINGS.fingerprints)
    fp = Fingerprints(simhash=0, minhash_bits=np.zeros(4, dtype=np.uint64), lsh_keys=np.zeros(0, dtype=np.uint64),
                      sentence_fps=np.zeros(0, dtype=np.uint64), anchors=np.zeros(0, dtype=np.uint64))
    assert d.doc_id in coll.finder(SETTINGS).find(fp, query)


def test_a_long_submission_is_searched_by_its_anchors_and_finds_its_sources(indexed, monkeypatch, tmp_path):
    """Beyond GRAMS_MAX_QUERY_UNITS a check does not look up the submission's short k-grams (a long
    text shares them with most documents of a large collection by chance); its copied passages
    are found by the anchors, as before the grams: the source of a copied section is listed
    first, found by the anchors, and a short submission still goes through the grams."""
    coll, root = indexed
    source = root / "ch01-024.txt"
    copy = tmp_path / "copy.txt"
    copy.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    [short] = coll.check([str(copy)], SETTINGS)
    assert short.matches[0].source.path == str(source) and "grams" in short.matches[0].found_by
    monkeypatch.setattr(candidates, "GRAMS_MAX_QUERY_UNITS", 50)
    coll.finder(SETTINGS)._raw_channels.clear()
    assert len(tokenize(copy.read_text(encoding="utf-8")).ids) > 50
    [long] = coll.check([str(copy)], SETTINGS)
    assert long.matches[0].source.path == str(source)
    assert "anchors" in long.matches[0].found_by
    assert not any("grams" in m.found_by for m in long.matches)
    assert long.matches[0].comparison.containment_a == short.matches[0].comparison.containment_a
