"""A collection's folder that cannot be read changes nothing in its index.

Before: `neardup index /typo --db archive.db` (or Refresh with the collection's drive not
connected) took every document for deleted and emptied the index; a subfolder that could not be
listed lost its documents the same way. Every test reads the index back in a new process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.scan import FolderUnavailable, folder_problem
from neardup_gui.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"
SETTINGS = Settings(workers=1)


def _documents_in_new_process(db: Path) -> dict:
    code = ("import json; from neardup_gui.core.collection import Collection; "
            f"c = Collection.open({str(db)!r}, create=False); "
            "print(json.dumps({'docs': sorted(d.rel for d in c.documents() if d.status == 'indexed'), "
            "'folder': c.folder}))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def _collection(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    folder = tmp_path / "proposals"
    (folder / "2024").mkdir(parents=True)
    names = sorted(p.name for p in SAMPLE.iterdir() if p.suffix in (".txt", ".docx", ".pdf"))[:9]
    for i, name in enumerate(names):
        shutil.copy(SAMPLE / name, folder / ("2024" if i < 4 else ".") / name)
    db = tmp_path / "c.ndx"
    with Collection.open(db) as coll:
        report = coll.index_folder(str(folder), SETTINGS)
    assert report.added == 9 and not report.skipped
    return folder, db, sorted(_documents_in_new_process(db)["docs"])


@pytest.mark.parametrize("how", ["renamed", "replaced-by-a-file"])
def test_a_folder_that_is_gone_changes_nothing(tmp_path, how) -> None:
    folder, db, before = _collection(tmp_path)
    moved = tmp_path / "elsewhere"
    folder.rename(moved)
    if how == "replaced-by-a-file":
        folder.write_text("not a folder", encoding="utf-8")
    with Collection.open(db) as coll, pytest.raises(FolderUnavailable) as raised:
        coll.index_folder(str(folder), SETTINGS)
    assert raised.value.reason == ("no such folder" if how == "renamed" else "not a folder")
    assert "nothing in the index was changed" in str(raised.value)
    after = _documents_in_new_process(db)
    assert after["docs"] == before and after["folder"] == str(folder)


def test_a_subfolder_that_cannot_be_read_keeps_its_documents(tmp_path) -> None:
    """The subfolder 2024 replaced by a link that leads to itself (a loop: it cannot be looked
    at, root or not): its 4 documents are kept and counted as such, the problem listed, while a
    file really deleted elsewhere is removed. With the folder back, nothing is left to do."""
    folder, db, before = _collection(tmp_path)
    sub = folder / "2024"
    kept = tmp_path / "2024.kept"
    sub.rename(kept)
    sub.symlink_to(sub)  # 2024 -> 2024
    deleted = sorted(p for p in folder.iterdir() if p.is_file())[0]
    deleted.unlink()
    with Collection.open(db) as coll:
        report = coll.index_folder(str(folder), SETTINGS)
    assert (report.removed, report.unread, report.added, report.updated) == (1, 4, 0, 0)
    assert any(s.path == str(sub) and "cannot be read" in s.reason for s in report.skipped)
    after = _documents_in_new_process(db)["docs"]
    assert after == sorted(set(before) - {deleted.name})
    assert sum(rel.startswith("2024/") for rel in after) == 4
    sub.unlink()
    kept.rename(sub)
    with Collection.open(db) as coll:
        again = coll.index_folder(str(folder), SETTINGS)
    assert (again.removed, again.unread, again.added, again.unchanged) == (0, 0, 0, 8)


def _unprivileged() -> list[str] | None:
    """How to run a command as a user that permissions apply to (root reads any folder)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import neardup_gui.core.collection"], cwd=ROOT,
                           capture_output=True, timeout=120)
    return prefix if probe.returncode == 0 else None


def test_a_subfolder_without_permission_keeps_its_documents() -> None:
    prefix = _unprivileged()
    if prefix is None:
        pytest.skip("no unprivileged user to run as (the checkout is not readable by one)")
    work = Path(tempfile.mkdtemp(prefix="neardup-perm-"))
    try:
        os.chmod(work, 0o777)
        folder, db, before = _collection(work)
        for path in [work, *work.rglob("*")]:
            os.chmod(path, 0o777 if path.is_dir() else 0o666)
        sub = folder / "2024"
        os.chmod(sub, 0)
        assert folder_problem(str(folder)) is None
        code = ("import json; from neardup_gui.core.collection import Collection; "
                "from neardup_gui.core.settings import Settings; "
                f"c = Collection.open({str(db)!r}); r = c.index_folder({str(folder)!r}, Settings(workers=1)); "
                "print(json.dumps([r.removed, r.unread, [s.reason for s in r.skipped]]))")
        run = subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                             timeout=300)
        assert run.returncode == 0, run.stderr
        removed, unread, reasons = json.loads(run.stdout.strip().splitlines()[-1])
        assert (removed, unread) == (0, 4)
        assert "folder cannot be read: permission denied" in reasons
        assert _documents_in_new_process(db)["docs"] == before
        # and the collection's folder itself without permission: nothing changed, said why
        os.chmod(sub, 0o777)
        os.chmod(folder, 0)
        code = ("from neardup_gui.core.scan import folder_problem; "
                f"print(folder_problem({str(folder)!r}))")
        run = subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        assert run.stdout.strip() == "folder cannot be read: permission denied"
    finally:
        for path in [work, *work.rglob("*")]:
            try:
                os.chmod(path, 0o777)
            except OSError:
                pass
        shutil.rmtree(work, ignore_errors=True)


def test_the_command_line_creates_or_changes_no_index_for_a_folder_given_wrong(tmp_path) -> None:
    folder, db, before = _collection(tmp_path)
    typo = str(folder) + "s"
    for target in (db, tmp_path / "new.ndx"):
        run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", typo, "--db", str(target)],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert run.returncode == 2
        assert run.stderr.strip().endswith(f"cannot index {typo}: no such folder; nothing in {target} was changed")
        assert "Traceback" not in run.stderr
    assert not (tmp_path / "new.ndx").exists()
    assert _documents_in_new_process(db)["docs"] == before


def test_a_folder_that_holds_nothing_now_changes_nothing_unless_asked(tmp_path) -> None:
    """An unmounted share leaves its mount point: an empty folder, as if every file was deleted.
    Nothing is removed unless asked for (allow_empty); a new collection of an empty folder and
    a collection of external members only are no such case."""
    folder, db, before = _collection(tmp_path)
    stash = tmp_path / "stash"
    folder.rename(stash)
    folder.mkdir()  # the empty mount point
    with Collection.open(db) as coll, pytest.raises(FolderUnavailable) as raised:
        coll.index_folder(str(folder), SETTINGS)
    assert raised.value.emptied == 9 and "holds no documents now" in raised.value.reason
    assert _documents_in_new_process(db)["docs"] == before
    with Collection.open(db) as coll:
        report = coll.index_folder(str(folder), SETTINGS, allow_empty=True)
    assert report.removed == 9 and _documents_in_new_process(db)["docs"] == []
    with Collection.open(db) as coll:  # empty and empty: nothing to ask
        assert coll.index_folder(str(folder), SETTINGS).removed == 0
    with Collection.open(tmp_path / "new.ndx") as coll:
        assert coll.index_folder(str(folder), SETTINGS).added == 0
    # external members only: the folder was always empty
    with Collection.open(tmp_path / "ext.ndx") as coll:
        coll.index_folder(str(folder), SETTINGS)
        coll.add_files([str(next(stash.glob("*.txt")))], SETTINGS)
        again = coll.index_folder(str(folder), SETTINGS)
        assert again.removed == 0 and len([d for d in coll.documents() if d.status == "indexed"]) == 1


def test_the_command_line_asks_for_allow_empty(tmp_path) -> None:
    folder, db, before = _collection(tmp_path)
    for path in folder.rglob("*"):
        if path.is_file():
            path.unlink()

    def index(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(folder), "--db", str(db), "-q",
                               *extra], capture_output=True, text=True, cwd=ROOT, timeout=300)

    run = index()
    assert run.returncode == 2 and run.stderr.strip().endswith(
        f"nothing in {db} was changed (if its documents were deleted on purpose: --allow-empty)")
    assert _documents_in_new_process(db)["docs"] == before
    run = index("--allow-empty")
    assert run.returncode == 0 and "9 removed" in run.stdout
    assert _documents_in_new_process(db)["docs"] == []


def test_the_command_line_will_not_turn_one_folders_index_into_anothers(tmp_path) -> None:
    """`neardup index 2025/ --db archive.db`, meant as "add 2025 to the archive", removed every
    document of 2024/. Refused now while 2024/ exists; --replace-folder does it; a folder moved
    (the old one gone) is indexed in its new place, its documents kept."""
    folder, db, before = _collection(tmp_path)
    other = tmp_path / "2025"
    other.mkdir()
    shutil.copy(SAMPLE / "zh-04-山区滑坡监测.txt", other)  # (not one of the collection's 9)

    def index(target: Path, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(target), "--db", str(db), "-q",
                               *extra], capture_output=True, text=True, cwd=ROOT, timeout=300)

    run = index(other)
    assert run.returncode == 2
    assert run.stderr.startswith(f"neardup: {db} is the index of {folder}; indexing {other} into it would remove")
    assert "Nothing was changed" in run.stderr and "--replace-folder" in run.stderr
    assert _documents_in_new_process(db) == {"docs": before, "folder": str(folder)}
    moved = tmp_path / "proposals-moved"
    folder.rename(moved)
    run = index(moved)
    assert run.returncode == 0 and "0 removed, 9 unchanged" in run.stdout
    assert _documents_in_new_process(db) == {"docs": before, "folder": str(moved)}
    run = index(other, "--replace-folder")
    assert run.returncode == 0 and "9 removed" in run.stdout
    assert _documents_in_new_process(db) == {"docs": ["zh-04-山区滑坡监测.txt"], "folder": str(other)}
