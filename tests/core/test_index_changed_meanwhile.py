"""Another window or command changing the index while a command reads it.

Found by running `neardup index`, `screen`, `check`, `pairs` and `clusters` on one index at once
while files changed: `neardup screen` ended with a traceback (DocumentGone) — the automatic
template listed a frequent sentence's documents, the indexer removed one of them, and the reading
of its text failed. The sentences' documents and their texts are now read from one state of the
index; and a command that meets a document gone anyway says so in a line, not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import DocumentGone, Store

FORM = ("Applicants must state the aims of the project in plain words. The budget table lists every cost "
        "of the project by year. Each member of the team signs the declaration at the end of this form. ")


def _bodies(corpus_dir: Path) -> list[str]:
    texts = [f.read_text(encoding="utf-8") for f in sorted((corpus_dir / "debian-reference-en").glob("*.txt"))]
    return [t[:2500] for t in texts if len(t) > 3000][:6]


def test_the_automatic_template_reads_one_state_of_the_index(corpus_dir: Path, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "call"
    folder.mkdir()
    for i, body in enumerate(_bodies(corpus_dir)):
        (folder / f"p{i}.txt").write_text(FORM + "\n\n" + body + "\n\n" + FORM.replace("aims", "goals"), encoding="utf-8")
    db = tmp_path / "index.ndx"
    settings = Settings().with_(template_min_docs=3, template_min_share=0.0)
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), settings)
    with Collection.open(db) as coll:
        assert len(coll.store.frequent_sentences(3))
        docs = [d.doc_id for d in coll.documents()]
        read = coll.store.compared_text
        removed: list[int] = []

        def read_while_another_removes(doc_id: int):  # noqa: ANN202
            if not removed:  # another process removes the other documents after the first read
                with Store(db, create=False) as other, other.transaction() as conn:
                    for gone in docs:
                        if gone != doc_id:
                            other.remove(conn, gone)
                            removed.append(gone)
            return read(doc_id)

        monkeypatch.setattr(coll.store, "compared_text", read_while_another_removes)
        coll.copied_keys(coll.template_min_frequency(settings))  # (raised DocumentGone)
        assert removed and len(removed) == len(docs) - 1
        # once that reading is over, the index as it is now: the removed documents are gone
        with pytest.raises(DocumentGone):
            coll.document_text(removed[0])


def test_a_command_meeting_a_document_gone_says_so_in_a_line(tmp_path: Path, sample_dir: Path, monkeypatch,
                                                            capsys) -> None:
    from neardup_gui import cli

    db = tmp_path / "index.ndx"
    assert cli.main(["index", str(sample_dir), "--db", str(db), "-q"]) in (0, 1)
    capsys.readouterr()

    def gone(*_args, **_kwargs):  # noqa: ANN002, ANN003, ANN202 — (what a race with another writer raises)
        raise DocumentGone(67)

    monkeypatch.setattr(Collection, "clusters", gone)
    assert cli.main(["clusters", "--db", str(db), "-q"]) == cli.EXIT_INDEX
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "document 67 is no longer in the collection" in err and "changed by another neardup window or command" in err
