"""A collection's own settings (kept in its index) and its members from outside the folder.

Both are persisted: every test reads them back in a new process, as the app's next start does.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection, copy_target
from neardup_gui.core.settings import COLLECTION_FIELDS, Settings
from neardup_gui.core.store import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = Settings(workers=1)


def in_new_process(code: str) -> object:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def folder(tmp_path, corpus_dir):
    root = tmp_path / "call"
    root.mkdir()
    texts = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))[:4]
    for p in texts:
        (root / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    return root


def test_a_collection_keeps_its_own_settings_across_processes(tmp_path, folder):
    db = tmp_path / "c.ndx"
    own = Settings(threshold=0.42, min_run=11, template_files=("/forms/申请书, 2024.docx", "/forms/b.pdf"),
                   exclude_quotes=True, exclude_bibliography=True, template_min_docs=7, template_min_share=0.03)
    with Collection.open(db) as coll:
        assert not coll.has_own_settings()
        assert coll.settings_for(SETTINGS) == SETTINGS  # a new collection starts from the defaults
        coll.save_settings(own)
    read = in_new_process(
        "import json, dataclasses; from neardup_gui.core.collection import Collection; "
        "from neardup_gui.core.settings import Settings; "
        f"c = Collection.open({str(db)!r}, create=False); s = c.settings_for(Settings(workers=3, strategy='lsh')); "
        "print(json.dumps(dataclasses.asdict(s)))")
    for name in COLLECTION_FIELDS:
        expected = getattr(own, name)
        assert (tuple(read[name]) if isinstance(expected, tuple) else read[name]) == expected, name
    assert read["workers"] == 3 and read["strategy"] == "lsh"  # the machine's settings are not the collection's


def test_an_empty_template_list_and_unreadable_values_fall_back(tmp_path, caplog):
    db = tmp_path / "c.ndx"
    with Collection.open(db) as coll:
        coll.save_settings(Settings(template_files=(), threshold=0.6))
    conn = sqlite3.connect(db)
    conn.execute("INSERT OR REPLACE INTO collection_settings VALUES ('min_run', '\"eight\"')")
    conn.execute("INSERT OR REPLACE INTO collection_settings VALUES ('exclude_quotes', 'not json')")
    conn.commit()
    conn.close()
    defaults = Settings(min_run=9, exclude_quotes=True)
    with Collection.open(db, create=False) as coll:
        s = coll.settings_for(defaults)
    assert (s.template_files, s.threshold, s.min_run, s.exclude_quotes) == ((), 0.6, 9, True)
    assert "min_run" in caplog.text and "exclude_quotes" in caplog.text


def test_an_index_of_schema_3_gains_the_tables(tmp_path, folder):
    db = tmp_path / "c.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), SETTINGS)
        n = len(coll.documents())
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE collection_settings")
    conn.execute("DROP TABLE external_members")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    with Collection.open(db, create=False) as coll:
        assert coll.store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert len(coll.documents()) == n
        coll.save_settings(Settings(threshold=0.3))
        assert coll.settings_for(Settings()).threshold == 0.3
        assert coll.store.external_members() == []


def test_an_external_member_survives_refresh_and_a_copy_lands_in_the_folder(tmp_path, folder, corpus_dir):
    outside = tmp_path / "inbox"
    outside.mkdir()
    texts = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    external = outside / "late-submission.txt"
    external.write_text(texts[0].read_text(encoding="utf-8"), encoding="utf-8")
    copied = outside / "copied.txt"
    copied.write_text(texts[1].read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "c.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), SETTINGS)
        kept = coll.add_files([str(external)], SETTINGS, keep="external")
        assert [(a.how, a.member) for a in kept] == [("external", str(external))]
        added = coll.add_files([str(copied)], SETTINGS, keep="copy")
        assert [(a.how, a.member) for a in added] == [("copied", str(folder / "copied.txt"))]
        assert (folder / "copied.txt").read_bytes() == copied.read_bytes()
    # the next refresh, in a new process, keeps both (it used to remove the added file)
    report = in_new_process(
        "import json; from neardup_gui.core.collection import Collection; from neardup_gui.core.settings import Settings; "
        f"c = Collection.open({str(db)!r}, create=False); r = c.index_folder({str(folder)!r}, Settings(workers=1)); "
        "print(json.dumps({'removed': r.removed, 'added': r.added, 'unchanged': r.unchanged, "
        "'docs': sorted(d.rel for d in c.documents())}))")
    assert report["removed"] == 0 and report["added"] == 0
    assert str(external) in report["docs"] and "copied.txt" in report["docs"]
    # an external member that is deleted drops out like any deleted file
    external.unlink()
    with Collection.open(db, create=False) as coll:
        r = coll.index_folder(str(folder), SETTINGS)
        assert r.removed == 1 and str(external) not in {d.rel for d in coll.documents()}
        assert coll.store.external_members() == []


def test_a_name_clash_is_renamed_or_replaced(tmp_path, folder, corpus_dir):
    taken = sorted(p.name for p in folder.iterdir())[0]
    outside = tmp_path / "inbox"
    outside.mkdir()
    newcomer = outside / taken
    newcomer.write_text(sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))[2].read_text(encoding="utf-8"),
                        encoding="utf-8")
    stem, ext = os.path.splitext(taken)
    assert copy_target(str(folder), taken) == str(folder / f"{stem} (2){ext}")
    before = (folder / taken).read_bytes()
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(folder), SETTINGS)
        renamed = coll.add_files([str(newcomer)], SETTINGS, keep="copy", on_clash="rename")
        assert renamed[0].member == str(folder / f"{stem} (2){ext}")
        assert (folder / taken).read_bytes() == before  # the collection's own file is untouched
        replaced = coll.add_files([str(newcomer)], SETTINGS, keep="copy", on_clash="replace")
        assert replaced[0].member == str(folder / taken)
        assert (folder / taken).read_bytes() == newcomer.read_bytes()
        rels = [d.rel for d in coll.documents()]
        assert rels.count(taken) == 1 and f"{stem} (2){ext}" in rels


class _Reversed:
    """The extraction's results in the reverse of the order the files were given (as two workers
    may finish them), closable as the real iterator is."""

    def __init__(self, results: list) -> None:
        self._results = list(reversed(results))

    def __iter__(self):
        return iter(self._results)

    def close(self) -> None:
        pass


def test_each_added_file_is_told_its_own_outcome_whatever_order_extraction_ends_in(tmp_path, folder, corpus_dir,
                                                                                   monkeypatch):
    """Three files added at once, the middle one damaged, extraction ending in the reverse order:
    each is reported with its own document (before, ids were paired with the files in order of
    completion, and a good file was reported damaged)."""
    from neardup_gui.core import indexer

    real = indexer.extract_many

    def reversed_order(paths, *args, **kwargs):
        runs = real(paths, *args, **kwargs)
        try:
            return _Reversed(list(runs))
        finally:
            runs.close()

    outside = tmp_path / "inbox"
    outside.mkdir()
    texts = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    good_a, broken, good_b = outside / "a.txt", outside / "b.pdf", outside / "c.txt"
    good_a.write_text(texts[3].read_text(encoding="utf-8"), encoding="utf-8")
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)  # a PDF with no page in it
    good_b.write_text(texts[4].read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(indexer, "extract_many", reversed_order)
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(folder), SETTINGS)
        added = coll.add_files([str(good_a), str(broken), str(good_b)], SETTINGS, keep="external")
        told = [(a.member, coll.store.document(a.doc_id).path, coll.store.document(a.doc_id).status) for a in added]
    assert [(m, p) for m, p, _ in told] == [(str(good_a),) * 2, (str(broken),) * 2, (str(good_b),) * 2]
    assert [s for _, _, s in told] == ["indexed", "skipped", "indexed"]
