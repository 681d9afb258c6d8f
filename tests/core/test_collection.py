"""The collection end to end on real files: index, pairs, check, clusters, incremental updates."""

from __future__ import annotations

import os
import shutil

import docx
import pytest

from neardup_gui.core.collection import Collection, compare_files
from neardup_gui.core.settings import FingerprintParams, Settings
from neardup_gui.core.verify import Verifier

SETTINGS = Settings(workers=2, threshold=0.5)


def _edit_lightly(text: str) -> str:
    """A resubmission: every 25th word replaced, a sentence added, the title changed."""
    words = text.split(" ")
    for i in range(0, len(words), 25):
        words[i] = "revised"
    return "Revised proposal\n" + " ".join(words) + "\nWe also thank the reviewers of the first round."


@pytest.fixture(scope="module")
def corpus_texts(corpus_dir):
    en = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    zh = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    pick = [p for p in en if 2500 < p.stat().st_size < 6000][:6] + [p for p in zh if 2500 < p.stat().st_size < 6000][:4]
    return {p.stem + ("-zh" if "zh" in p.parent.name else "-en"): p.read_text(encoding="utf-8") for p in pick}


@pytest.fixture
def folder(tmp_path, corpus_texts):
    """A collection with a light-edit resubmission (as docx), a partial copy and clean documents."""
    root = tmp_path / "submissions"
    root.mkdir()
    names = sorted(corpus_texts)
    for name in names:
        (root / f"{name}.txt").write_text(corpus_texts[name], encoding="utf-8")
    original = corpus_texts[names[0]]
    d = docx.Document()
    for para in _edit_lightly(original).split("\n"):
        d.add_paragraph(para)
    d.save(root / "resubmission.docx")
    # A partial copy: half of another document's text inside new material of a different source.
    src = corpus_texts[names[1]]
    (root / "partial.txt").write_text(corpus_texts[names[7]][:400] + "\n" + src[: len(src) // 2], encoding="utf-8")
    return root, names


def test_index_pairs_check_and_clusters(tmp_path, folder):
    root, names = folder
    with Collection.open(tmp_path / "c.ndx") as coll:
        report = coll.index_folder(str(root), SETTINGS)
        assert report.added == len(names) + 2 and not report.skipped
        docs = {d.rel: d for d in coll.documents()}
        assert all(d.status == "indexed" and d.units > 100 for d in docs.values())

        pairs = coll.pairs(SETTINGS)
        found = {(p.a.rel, p.b.rel) for p in pairs}
        assert tuple(sorted([f"{names[0]}.txt", "resubmission.docx"])) in {tuple(sorted(x)) for x in found}
        resub = next(p for p in pairs if "resubmission.docx" in (p.a.rel, p.b.rel))
        assert 0.8 < resub.similarity < 1.0

        # The partial copy is found by check with its source ranked first, high containment.
        [result] = coll.check([str(root / "partial.txt")], SETTINGS)
        top = result.matches[0]
        assert top.source.rel == f"{names[1]}.txt"
        assert top.comparison.containment_a > 0.4
        assert "grams" in top.found_by
        # the file itself (indexed in the collection) is never its own source
        assert all(m.source.rel != "partial.txt" for m in result.matches)
        assert result.summary.largest_source_ratio == pytest.approx(top.comparison.containment_a)

        clusters = coll.clusters(SETTINGS)
        assert any({m.rel for m in c.members} >= {f"{names[0]}.txt", "resubmission.docx"} for c in clusters)
        for c in clusters:  # no chaining: every member is similar to the representative
            assert all(s >= SETTINGS.threshold for s in c.similarities)


def test_incremental_reindex_moves_changes_and_deletions(tmp_path, folder):
    root, names = folder
    db = tmp_path / "c.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(root), SETTINGS)
        before = {d.rel: d for d in coll.documents()}

        again = coll.index_folder(str(root), SETTINGS)
        assert (again.added, again.updated, again.removed, again.unchanged) == (0, 0, 0, len(before))

        (root / "sub").mkdir()
        shutil.move(root / f"{names[2]}.txt", root / "sub" / "moved.txt")  # moved: same content
        (root / f"{names[3]}.txt").write_text("完全不同的新内容。" * 50, encoding="utf-8")  # changed
        os.remove(root / f"{names[4]}.txt")  # deleted
        os.utime(root / f"{names[5]}.txt", ns=(1, 1))  # touched only: same content
        report = coll.index_folder(str(root), SETTINGS)
        assert (report.added, report.updated, report.moved, report.removed) == (0, 1, 1, 1)
        after = {d.rel: d for d in coll.documents()}
        assert after["sub/moved.txt"].doc_id == before[f"{names[2]}.txt"].doc_id
        assert f"{names[4]}.txt" not in after
        assert after[f"{names[3]}.txt"].doc_id != before[f"{names[3]}.txt"].doc_id
        assert after[f"{names[5]}.txt"].doc_id == before[f"{names[5]}.txt"].doc_id


def test_parameter_change_refingerprints_without_extracting(tmp_path, folder):
    root, names = folder
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        changed = SETTINGS.with_(fingerprints=FingerprintParams(minhash_bits=128))
        (root / "resubmission.docx").write_bytes(b"not a docx any more")  # would fail if re-extracted
        os.utime(root / "resubmission.docx", ns=(os.stat(root / f"{names[0]}.txt").st_mtime_ns,) * 2)
        report = coll.index_folder(str(root), changed)
        assert report.refingerprinted == len(names) + 1  # every indexed document but the changed file
        _, _, words = coll.store.fingerprint_matrix()
        assert words.shape[1] == 2  # 128 bits = two 64-bit words


def test_fingerprints_of_an_older_algorithm_are_recomputed(tmp_path, folder):
    """An index written before the one-permutation minhash (no algorithm version in the stored
    parameters) gets today's fingerprints on the next run, from its stored text."""
    import json

    from neardup_gui.core import indexer

    root, names = folder
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        fresh = {r[0]: r[1] for r in coll.store.conn.execute("SELECT doc_id, minhash FROM fingerprints")}
        old_key = json.dumps(SETTINGS.fingerprints.to_dict(), sort_keys=True)  # version 1 wrote this
        with coll.store.transaction() as conn:
            conn.execute("UPDATE fingerprints SET params = ?, minhash = zeroblob(length(minhash))", (old_key,))
        report = coll.index_folder(str(root), SETTINGS)
        assert report.refingerprinted == len(fresh)
        rows = coll.store.conn.execute("SELECT doc_id, minhash, params FROM fingerprints").fetchall()
        assert {r[0]: r[1] for r in rows} == fresh
        assert {r[2] for r in rows} == {indexer.params_key(SETTINGS.fingerprints)}


def test_compare_two_files_without_an_index(tmp_path, corpus_texts):
    name = sorted(corpus_texts)[0]
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text(corpus_texts[name], encoding="utf-8")
    b.write_text(_edit_lightly(corpus_texts[name]), encoding="utf-8")
    comp, text_a, _ = compare_files(str(a), str(b), SETTINGS)
    assert 0.8 < comp.similarity < 1.0
    assert comp.spans and all(text_a[s.a[0]:s.a[1]] for s in comp.spans)


def test_a_user_template_file_stops_form_text_counting_and_is_read_once_per_version(tmp_path):
    from neardup_gui.core import collection as coll_mod

    form = ("Section one describes the scientific question and why it matters to the field. "
            "Section two lists the methods, the data and the schedule of the work in detail. "
            "Section three explains the budget and the role of every member of the team here.\n")
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text(form + "Coastal erosion is measured with drones along three beaches every month.", encoding="utf-8")
    b.write_text(form + "Rice drought tolerance is studied through a zinc finger transcription factor.", encoding="utf-8")
    template = tmp_path / "form.txt"
    template.write_text(form, encoding="utf-8")
    plain, _, _ = compare_files(str(a), str(b), SETTINGS)
    assert plain.similarity > 0.5
    with_form = SETTINGS.with_(template_files=(str(template),))
    coll_mod._template_file_keys.cache_clear()
    masked, _, _ = compare_files(str(a), str(b), with_form)
    assert masked.similarity == 0.0 and masked.template_share_a > 0.5
    compare_files(str(a), str(b), with_form)
    assert coll_mod._template_file_keys.cache_info().hits >= 1  # not extracted again
    template.write_text("An unrelated line that no submission contains at all, for sure.\n", encoding="utf-8")
    os.utime(template, ns=(1, 1))
    changed, _, _ = compare_files(str(a), str(b), with_form)
    assert changed.similarity > 0.5  # the edited template file was read again


def test_pairs_cached_before_passages_are_recomputed(tmp_path, folder):
    """An index whose pairs were cached when containment counted exact runs only (its cache key
    has no passage rules) gets them recomputed, in a new process, with passage containments."""
    import hashlib
    import json
    import subprocess
    import sys

    import numpy as np

    from neardup_gui.core import indexer

    root, names = folder
    db = tmp_path / "c.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(root), SETTINGS)
        coll.pairs(SETTINGS)
        v = coll.verifier(SETTINGS)
        # the key as it was computed before passages existed, and a stale containment
        h = hashlib.sha256()
        h.update(json.dumps([SETTINGS.min_run, SETTINGS.exclude_quotes, SETTINGS.exclude_bibliography,
                             indexer.params_key(SETTINGS.fingerprints)]).encode())
        keys = v.all_template_keys
        h.update(np.sort(np.fromiter(keys, dtype=np.int64, count=len(keys))).tobytes())
        with coll.store.transaction():
            coll.store.set_meta("pairs_key", h.hexdigest())
            coll.store.conn.execute("UPDATE pairs SET containment_a = -1.0, containment_b = -1.0")
    script = (
        "import json, sys\n"
        "from neardup_gui.core.collection import Collection\n"
        "from neardup_gui.core.settings import Settings\n"
        "with Collection.open(sys.argv[1], create=False) as coll:\n"
        "    s = Settings(workers=2, threshold=0.5)\n"
        "    out = []\n"
        "    for p in coll.pairs(s):\n"
        "        c = coll.compare(p.a.doc_id, p.b.doc_id, s)\n"
        "        out.append([p.containment_a, c.containment_a, p.containment_b, c.containment_b])\n"
        "    print(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(db)], capture_output=True, text=True, check=True)
    rows = json.loads(done.stdout)
    assert rows
    for stored_a, fresh_a, stored_b, fresh_b in rows:
        assert stored_a == pytest.approx(fresh_a) and stored_b == pytest.approx(fresh_b)


def test_a_sources_quotations_are_not_looked_for_and_the_check_answers_the_same(tmp_path, corpus_texts,
                                                                               monkeypatch):
    """An indexed document's quotations are never read (only a submission's: "copied without
    quotations"), so its marks leave them out unless quotations are excluded from counting; the
    check's answer is what it is with them."""
    text = sorted(corpus_texts.values())[0]
    quote = " ".join(text.split(" ")[40:70])
    root = tmp_path / "docs"
    root.mkdir()
    (root / "source.txt").write_text(text + f'\nAs the handbook puts it, "{quote}" and so on.', encoding="utf-8")
    submission = tmp_path / "sub.txt"
    submission.write_text(f'Our plan. As the handbook puts it, "{quote}" and so on. Other words follow here.',
                          encoding="utf-8")
    for exclude in (False, True):
        settings = Settings(workers=1, exclude_quotes=exclude)
        with Collection.open(tmp_path / f"c{exclude}.ndx") as coll:
            coll.index_folder(str(root), settings)
            (doc,) = coll.documents()
            marked = coll.marked(doc.doc_id, coll.verifier(settings))
            assert bool(marked.quoted) == exclude and bool(marked.excluded) == exclude
            (got,) = coll.check([str(submission)], settings)
            with monkeypatch.context() as m:  # the source's quotations looked for, as before
                mark = Verifier.mark
                m.setattr(Verifier, "mark", lambda self, *a, **k: mark(self, *a, **{**k, "quoted": True}))
                coll._marked.clear()
                (want,) = coll.check([str(submission)], settings)
            assert got.summary == want.summary and got.summary.quoted_share > 0
            assert [(x.source.path, x.comparison) for x in got.matches] == [(x.source.path, x.comparison)
                                                                           for x in want.matches]
