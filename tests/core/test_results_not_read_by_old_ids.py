"""Results of an index rebuilt since are not read by their old numbers.

Ids are never reused within one index, but a rebuilt index numbers its documents from 1 again.
A check, pairs or clusters shown before a rebuild name their documents by the old numbers; a
report of them (or a source's side by side) read whichever document the new index gave that
number, under the old document's name: evidence of the wrong file. Now each document is checked
to be the one the result describes (its content), else the result's document is gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.report.committee import build_check_report
from neardup_gui.core.report.model import build_report
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import DocumentGone


def _texts(corpus_dir: Path) -> list[str]:
    texts = [f.read_text(encoding="utf-8") for f in sorted((corpus_dir / "debian-reference-en").glob("*.txt"))]
    return [t for t in texts if len(t) > 3000][:4]


def test_results_of_a_rebuilt_index_are_not_read_by_their_old_numbers(corpus_dir: Path, tmp_path: Path) -> None:
    a, b, c, d = _texts(corpus_dir)
    settings = Settings().with_(threshold=0.5)
    folder = tmp_path / "proposals"
    folder.mkdir()
    (folder / "a.txt").write_text(a, encoding="utf-8")
    (folder / "a2.txt").write_text(a.replace("the", "a", 8), encoding="utf-8")
    (folder / "b.txt").write_text(b, encoding="utf-8")
    submission = tmp_path / "new.txt"
    submission.write_text(a[: len(a) * 2 // 3] + "\n\n" + d, encoding="utf-8")
    db = tmp_path / "index.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), settings)
        [checked] = coll.check([str(submission)], settings)
        pairs = list(coll.pairs(settings))
        clusters = list(coll.clusters(settings))
    assert {m.source.rel for m in checked.matches} >= {"a.txt"}
    assert [{p.a.rel, p.b.rel} for p in pairs] == [{"a.txt", "a2.txt"}] and clusters

    # rebuilt from a folder without a.txt and a2.txt: its three documents are numbered 1-3
    for name in ("a.txt", "a2.txt"):
        (folder / name).unlink()
    (folder / "c.txt").write_text(c, encoding="utf-8")
    (folder / "d.txt").write_text(d, encoding="utf-8")
    for p in tmp_path.glob("index.ndx*"):
        p.unlink()
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), settings)
        gone = [m.source for m in checked.matches if m.source.rel != "b.txt"]
        assert gone and all(coll.store.document(s.doc_id).rel != s.rel for s in gone)  # (another file's number)
        for source in gone:
            with pytest.raises(DocumentGone):
                coll.same_document(source)
        with pytest.raises(DocumentGone):
            build_report(coll, "check", settings, items=[checked])
        with pytest.raises(DocumentGone):
            build_check_report(coll, checked, settings)
        with pytest.raises(DocumentGone):
            build_report(coll, "pairs", settings, items=pairs)
        with pytest.raises(DocumentGone):
            build_report(coll, "clusters", settings, items=clusters)
        # the index's own documents, and a new check's sources, are read as ever
        for doc in coll.documents():
            coll.same_document(doc)
        [again] = coll.check([str(submission)], settings)
        assert build_report(coll, "check", settings, items=[again]).pairs
        assert "d.txt" in {m.source.rel for m in again.matches}
