"""Reliability of the index: killed, damaged, full, read-only, shared, and files that move underneath.

Every scenario uses the real thing: real documents written from the corpus, real index files,
the real ``neardup`` command in child processes killed with SIGKILL, a real size-limited file
system (tmpfs) for the full disk and a read-only mount for the read-only location. The checks
read the index with plain ``sqlite3`` (``reliability_helpers``), independently of the code
under test.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import select
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.core import reliability_helpers as rh
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import IndexProblem, Store
from tests.signals import end_session, left_alive

N_TXT, N_DOCX = 185, 15
KILLS = 32  # planned per round
KILLS_REQUIRED = 30  # kills that must really land (issue 8)
# Rounds are added only while too few kills have landed; how many land in a round depends on the
# machine's speed and load (a run that finishes before its planned kill does not count): 4 rounds
# gave 23 kills on a loaded 2-core machine. The bound only stops a broken run from looping.
MAX_ROUNDS = 12
SEED = 20261122
# A child that has not finished in this long is stuck: the test fails instead of hanging.
RUN_BOUND_S = 120.0


@pytest.fixture(scope="module")
def collection_dir(corpus_dir, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("reliability") / "submissions"
    rels = rh.write_collection(corpus_dir, folder, txt=N_TXT, docx=N_DOCX, chars=450)
    assert len(rels) == N_TXT + N_DOCX
    return folder


def run_index(folder: Path, db: Path, *extra: str, timeout: float = RUN_BOUND_S) -> subprocess.CompletedProcess:
    """``neardup index`` run to completion in a child process."""
    return subprocess.run(rh.cli("index", str(folder), "--db", str(db), "-q", *extra), env=rh.child_env(),
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def reference(collection_dir, tmp_path_factory) -> tuple[Path, rh.Snapshot, float]:
    """An uninterrupted run: the index every interrupted one must end up equal to."""
    db = tmp_path_factory.mktemp("reference") / "reference.ndx"
    start = time.monotonic()
    done = run_index(collection_dir, db, "--workers", "2")
    elapsed = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    snap = rh.snapshot(db)
    assert len(snap.documents) == N_TXT + N_DOCX
    assert {s for s, _ in snap.documents.values()} == {"indexed"}
    return db, snap, elapsed


def remove_index(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


# --- kill loop --------------------------------------------------------------------------------


class KilledRun:
    """One ``neardup index`` child, read line by line from its progress, killed by plan."""

    def __init__(self, folder: Path, db: Path, workers: int) -> None:
        self.proc = rh.start_group(rh.cli("index", str(folder), "--db", str(db), "--workers", str(workers)),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.started = time.monotonic()
        self.left: list[tuple[int, str]] = []  # its processes alive ORPHANS_GONE_S after the kill
        self.lines: list[str] = []
        self._buf = b""

    def _read(self, timeout: float) -> bool:
        """Read what the child wrote within ``timeout``; False at end of output."""
        fd = self.proc.stderr.fileno()
        ready, _, _ = select.select([fd], [], [], max(timeout, 0.0))
        if not ready:
            return True
        chunk = os.read(fd, 65536)
        if not chunk:
            return False
        self._buf += chunk
        *complete, self._buf = self._buf.split(b"\n")
        self.lines.extend(x.decode("utf-8", "replace") for x in complete)
        return True

    def written(self) -> tuple[int, int] | None:
        """(j, M) of the last "Indexed j of M" line: documents written by this run so far."""
        for line in reversed(self.lines):
            if "] Indexed " in line and " of " in line:
                head = line.split("] Indexed ", 1)[1].split(":", 1)[0]
                j, _, m = head.partition(" of ")
                if j.isdigit() and m.isdigit():
                    return int(j), int(m)
        return None

    def kill_when(self, plan: tuple) -> str:
        """Kill the process group when ``plan`` says; return the phase it was killed in, or
        "finished" if the run ended first.

        Plans: ``("time", s)`` s seconds after the start; ``("writes", n, s)`` s seconds after
        this run has written its n-th document; ``("end", s)`` s seconds after its last
        document (or, when there is nothing left to write, after it starts saving the search
        tables).
        """
        kind = plan[0]
        deadline = self.started + RUN_BOUND_S
        fire_at: float | None = self.started + plan[1] if kind == "time" else None
        try:
            while True:
                now = time.monotonic()
                assert now < deadline, f"indexing run stuck: {self.lines[-3:]}"
                if fire_at is not None and now >= fire_at:
                    break
                if not self._read(0.05 if fire_at is None else min(0.05, fire_at - now)):
                    self.proc.wait(30)
                    return "finished"
                if fire_at is None:
                    w = self.written()
                    if kind == "writes" and w is not None and w[0] >= min(plan[1], w[1]):
                        fire_at = time.monotonic() + plan[2]
                    elif kind == "end" and ((w is not None and w[0] == w[1])
                                            or any("Saving the search tables" in ln for ln in self.lines)):
                        fire_at = time.monotonic() + plan[1]
            if self.proc.poll() is not None:
                return "finished"
            w = self.written()
            phase = "before the first write" if w is None else (
                "after the last document" if w[0] == w[1] else "writing")
            # The command alone, as the out-of-memory killer kills it: its worker processes must
            # end by themselves (they are bound to it), so none is left to hold the files.
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
            self.left = left_alive(self.proc.pid)
            end_session(self.proc.pid)  # (what was left, before the next run starts)
            return phase
        finally:
            if self.proc.poll() is None:
                rh.kill_group(self.proc)
            self.proc.stderr.close()


def kill_plans(rng: random.Random, n_docs: int, run_s: float) -> list[tuple]:
    """Where to kill each run, as (kind, target, delay): spread over one whole indexing job.

    Write kills stop the job when the index holds a random number of documents (sorted, the
    first at document 1: the very first writes); time kills fall in start-up, schema creation
    and the scan; the last kills fall after the last document (search tables, closing).
    """
    n_end = 4
    n_time = 5
    n_write = KILLS - n_end - n_time
    targets = [1] + sorted(rng.sample(range(2, n_docs), n_write - 1))
    # a document takes a few milliseconds: a longer delay would let a run overshoot its target
    # by so much that the index is complete before the round's plans are
    plans: list[tuple] = [("writes", t, rng.uniform(0.0, 0.004)) for t in targets]
    for _ in range(n_time):  # within the uninterrupted run's duration (``run_s``)
        plans.insert(rng.randrange(0, len(plans) + 1), ("time", rng.uniform(0.05, max(0.1, 0.9 * run_s)), 0.0))
    plans += [("end", rng.uniform(0.0, 0.25), 0.0) for _ in range(n_end)]
    return plans


def check_after_kill(db: Path, ref: rh.Snapshot, cache: dict) -> rh.Snapshot:
    """Reopen, integrity, every document fully indexed (as in the reference) or absent."""
    with Store(db) as store:  # the reopen path of `neardup index`
        assert store.integrity_check() == []
    assert rh.integrity(db) == ["ok"]
    assert rh.consistency_problems(db, cache) == []
    snap = rh.snapshot(db)
    for rel, row in snap.documents.items():
        assert row == ref.documents[rel], rel
        assert snap.fingerprints[rel] == ref.fingerprints[rel], rel
        assert snap.texts[rel] == ref.texts[rel], rel
    return snap


@pytest.mark.slow
def test_kill_loop_leaves_every_document_whole_or_absent(collection_dir, reference, tmp_path, record_property):
    ref_db, ref, ref_elapsed = reference
    rng = random.Random(SEED)
    cache: dict = {}
    kills = checks = lost = finished = rounds = left = 0
    phases: dict[str, int] = {}
    started = time.monotonic()
    # Rounds of planned kills, each on a fresh index, until at least KILLS_REQUIRED kills have
    # really landed: a run may finish before its kill (indexing got faster than the plan), and
    # once an index is complete only start-up is left to kill. Bounded by MAX_ROUNDS.
    while kills < KILLS_REQUIRED and rounds < MAX_ROUNDS:
        rounds += 1
        db = tmp_path / f"killed-{rounds}.ndx"
        previous: set[str] = set()
        for plan in kill_plans(rng, len(ref.documents), ref_elapsed):
            if plan[0] == "writes":
                # The target counts documents in the index; this run writes what is missing.
                plan = ("writes", max(1, plan[1] - len(previous)), plan[2])
            # Mostly one worker (each worker costs start-up time on a busy machine), some two.
            run = KilledRun(collection_dir, db, workers=2 if rng.random() < 0.25 else 1)
            phase = run.kill_when(plan)
            if phase == "before the first write" and len(previous) == len(ref.documents):
                phase = "after the last document"  # nothing left to write: search tables, closing
            if phase == "finished":
                assert run.proc.returncode == 0, run.lines[-5:]
                finished += 1
            else:
                kills += 1
                left += len(run.left)
                phases[phase] = phases.get(phase, 0) + 1
            if not db.exists():
                continue  # killed before the file was made
            snap = check_after_kill(db, ref, cache)
            checks += 1
            present = set(snap.documents)
            lost += len(previous - present)
            previous = present
    # Resume to the end: the result is the uninterrupted run's index, document for document.
    done = run_index(collection_dir, db, "--workers", "2")
    assert done.returncode == 0, done.stderr
    final = rh.snapshot(db)
    lost += len(set(ref.documents) - set(final.documents))
    assert final.documents == ref.documents
    assert final.fingerprints == ref.fingerprints
    assert final.texts == ref.texts
    assert rh.integrity(db) == ["ok"] and rh.consistency_problems(db, cache) == []
    figures = {"documents": len(ref.documents), "rounds": rounds, "kills": kills, "integrity_checks_passed": checks,
               "documents_lost": lost, "processes_left": left, "runs_that_finished_first": finished,
               "kill_phases": phases,
               "uninterrupted_run_s": round(ref_elapsed, 1), "loop_s": round(time.monotonic() - started, 1)}
    record_property("kill_loop", json.dumps(figures))
    print("\nkill loop:", json.dumps(figures))
    assert kills >= KILLS_REQUIRED and lost == 0 and left == 0 and checks >= kills - 5


# --- a small real index for the other scenarios -----------------------------------------------


@pytest.fixture(scope="module")
def small(corpus_dir, tmp_path_factory) -> tuple[Path, Path, rh.Snapshot]:
    """(folder, index, snapshot): 13 real documents indexed, the file closed and checkpointed."""
    base = tmp_path_factory.mktemp("small")
    folder = base / "docs"
    rh.write_collection(corpus_dir, folder, txt=12, docx=1, chars=450)
    db = base / "index" / "small.ndx"
    with Collection.open(db) as coll:
        report = coll.index_folder(str(folder), Settings(workers=1))
    assert report.added == 13 and not report.skipped
    assert not Path(f"{db}-wal").exists()  # the last close checkpointed everything into the file
    return folder, db, rh.snapshot(db)


def copy_index(db: Path, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(db, target / db.name)
    return target / db.name


# --- damaged index files ----------------------------------------------------------------------


def flip(path: Path, offset: int, length: int) -> None:
    data = bytearray(path.read_bytes())
    for i in range(offset, offset + length):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def damage(db: Path, how: str) -> str:
    """Damage ``db`` in place; return the kind of problem it must be reported as."""
    if how == "flipped documents page":
        offset, _ = rh.page_of(db, "documents")
        flip(db, offset, 12)  # the b-tree page header: page type, cell count, content start
        return "corrupt"
    if how == "flipped search-table page":
        offset, page_size = rh.page_of(db, "anchors")
        flip(db, offset + 8, page_size // 2)  # cell pointers and cells of the anchors table
        return "corrupt"
    if how == "truncated mid-page":
        db.write_bytes(db.read_bytes()[: db.stat().st_size // 2 + 100])
        return "corrupt"
    if how == "truncated at a page boundary":
        _, page_size = rh.page_of(db, "documents")
        db.write_bytes(db.read_bytes()[: (db.stat().st_size // page_size // 2) * page_size])
        return "corrupt"
    if how == "not an SQLite file":
        db.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 64)
        return "not-an-index"
    if how == "newer schema":
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA user_version = 99")
        conn.close()
        return "too-new"
    raise AssertionError(how)


DAMAGES = ["flipped documents page", "flipped search-table page", "truncated mid-page",
           "truncated at a page boundary", "not an SQLite file", "newer schema"]


@pytest.mark.parametrize("how", DAMAGES)
def test_damaged_index_is_reported_at_open_and_left_untouched(small, tmp_path, how):
    folder, source, _ = small
    db = copy_index(source, tmp_path / "idx")
    kind = damage(db, how)
    before = rh.files_of(db)
    with pytest.raises(IndexProblem) as problem:
        Collection.open(db)
    assert problem.value.kind == kind
    message = str(problem.value)
    assert str(db) in message
    assert {"corrupt": "damaged", "too-new": "newer neardup", "not-an-index": "not a neardup index"}[kind] in message \
        or (kind == "corrupt" and "truncated" in message)
    assert rh.files_of(db) == before  # never overwritten, never deleted, nothing left beside it
    done = run_index(folder, db, timeout=60)
    assert done.returncode == 3, (done.returncode, done.stderr[-500:])
    assert message.split(" (")[0] in done.stderr or message in done.stderr
    assert rh.files_of(db) == before


def test_damage_beyond_the_open_check_is_reported_on_the_first_read(small, tmp_path, monkeypatch):
    """A file too big for quick_check at open: the first query that meets the damage says so."""
    import neardup_gui.core.store as store_mod

    monkeypatch.setattr(store_mod, "QUICK_CHECK_MAX_BYTES", 0)
    _, source, _ = small
    db = copy_index(source, tmp_path / "idx")
    damage(db, "flipped documents page")
    before = rh.files_of(db)
    coll = Collection.open(db)  # header and schema are sound: the open is quick and succeeds
    try:
        with pytest.raises(IndexProblem) as problem:
            coll.documents()
        assert problem.value.kind == "corrupt"
        assert "damaged" in str(problem.value) and "untouched" in str(problem.value)
    finally:
        coll.close()
    assert rh.files_of(db) == before


def test_an_index_killed_while_being_created_is_created_again(tmp_path, small):
    """The first moments of a run: the file exists (WAL set) but the schema was never committed."""
    folder, _, ref = small
    db = tmp_path / "new.ndx"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")  # what Store does before creating the schema
    conn.close()
    assert db.stat().st_size > 0
    with Collection.open(db) as coll:
        assert coll.documents() == []
    done = run_index(folder, db, "--workers", "1", timeout=60)
    assert done.returncode == 0, done.stderr
    assert rh.snapshot(db).fingerprints == ref.fingerprints


# --- full disk, read-only location ------------------------------------------------------------


@contextmanager
def tmpfs(mountpoint: Path, size: str):
    """A size-limited file system at ``mountpoint`` (skips when mounting is not permitted)."""
    mountpoint.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mountpoint)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a size-limited tmpfs here ({done.stderr.strip() or done.returncode}): "
                    "needs root with CAP_SYS_ADMIN")
    try:
        yield mountpoint
    finally:
        subprocess.run(["umount", "-l", str(mountpoint)], check=True)


def big_documents(corpus: Path, folder: Path, n: int) -> None:
    """``n`` long real documents (whole corpus sections joined): several hundred KB of index each."""
    sections = sorted((corpus / "debian-reference-en").glob("*.txt"))
    for i in range(n):
        text = "\n".join(s.read_text(encoding="utf-8") for s in sections[i * 12:(i + 1) * 12])
        (folder / f"long{i:02d}.txt").write_text(text, encoding="utf-8")


def test_full_disk_rolls_back_and_keeps_the_earlier_index(small, corpus_dir, tmp_path):
    folder, source, ref = small
    docs = tmp_path / "docs"
    shutil.copytree(folder, docs)
    big_documents(corpus_dir, docs, 18)  # enough to fill the disk even when documents share commits
    with tmpfs(tmp_path / "disk", "4m") as disk:
        db = copy_index(source, disk)
        free = os.statvfs(disk)
        filler = disk / "filler"
        filler.write_bytes(bytes(max(0, free.f_bavail * free.f_frsize - 400_000)))
        settings = Settings(workers=1)
        with Collection.open(db) as coll:
            with pytest.raises(IndexProblem) as problem:
                coll.index_folder(str(docs), settings)
        assert problem.value.kind == "disk-full"
        assert "full" in str(problem.value) and "rolled back" in str(problem.value)
        # Regression: the failed write used to leave the extraction workers running for as long
        # as the traceback (held here, and by the app to show it) kept the generator alive.
        assert multiprocessing.active_children() == []
        # The earlier documents are intact; whatever was added before the disk filled is whole.
        assert rh.integrity(db) == ["ok"]
        assert rh.consistency_problems(db) == []
        snap = rh.snapshot(db)
        for rel, row in ref.documents.items():
            assert snap.documents[rel] == row and snap.fingerprints[rel] == ref.fingerprints[rel]
        assert len(snap.documents) < 13 + 18  # the disk really filled up
        done = run_index(docs, db, "--workers", "1", timeout=60)
        assert done.returncode == 3 and "full" in done.stderr, done.stderr[-500:]
        # Space again: the same run completes from where it stopped.
        filler.unlink()
        with Collection.open(db) as coll:
            report = coll.index_folder(str(docs), settings)
            assert coll.stats()["indexed"] == 13 + 18
        assert report.added == 13 + 18 - len(snap.documents)
        assert rh.integrity(db) == ["ok"] and rh.consistency_problems(db) == []


def test_disk_already_full_at_open_says_so_and_recovers(small, tmp_path):
    """No byte left: SQLite fails on the -shm file with a bare I/O error; the examiner reads "full"."""
    folder, source, ref = small
    with tmpfs(tmp_path / "disk", "2m") as disk:
        db = copy_index(source, disk)
        before = db.read_bytes()
        free = os.statvfs(disk)
        filler = disk / "filler"
        filler.write_bytes(bytes(free.f_bavail * free.f_frsize))
        assert os.statvfs(disk).f_bavail == 0
        with pytest.raises(IndexProblem) as problem:
            with Collection.open(db) as coll:
                coll.index_folder(str(folder), Settings(workers=1))
        assert problem.value.kind == "disk-full" and "Free some space" in str(problem.value)
        assert db.read_bytes() == before
        filler.unlink()
        with Collection.open(db) as coll:
            assert coll.index_folder(str(folder), Settings(workers=1)).unchanged == 13
        assert rh.integrity(db) == ["ok"] and rh.snapshot(db).documents == ref.documents


def test_read_only_location_is_reported_and_left_intact(small, tmp_path):
    folder, source, ref = small
    with tmpfs(tmp_path / "ro", "4m") as mnt:
        db = copy_index(source, mnt)
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True, capture_output=True)
        before = rh.files_of(db)
        with pytest.raises(IndexProblem) as problem:
            Collection.open(db)
        assert problem.value.kind == "read-only"
        assert "read-only" in str(problem.value) and str(db) in str(problem.value)
        done = run_index(folder, db, timeout=60)
        assert done.returncode == 3 and "read-only" in done.stderr, done.stderr[-500:]
        assert rh.files_of(db) == before
        subprocess.run(["mount", "-o", "remount,rw", str(mnt)], check=True, capture_output=True)
        assert rh.snapshot(db).documents == ref.documents


# --- two processes on one index ---------------------------------------------------------------


def test_a_held_write_lock_means_busy_and_readers_keep_reading(small, tmp_path):
    _, source, ref = small
    db = copy_index(source, tmp_path / "idx")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another window in the middle of a write
    holder.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('note', 'held')")
    try:
        with Collection.open(db, create=False) as reader:  # WAL: reading is never blocked
            assert [d.rel for d in reader.documents()] == sorted(ref.documents)
            assert reader.document_text(reader.documents()[0].doc_id)
        store = Store(db, create=False, timeout_s=0.3)
        try:
            # (it returns at all: the 0.3 s busy timeout, not a wait for the holder)
            with pytest.raises(IndexProblem) as problem:
                with store.transaction():
                    pass
            assert problem.value.kind == "busy"
            assert "another neardup" in str(problem.value)
            with pytest.raises(IndexProblem) as problem:
                store.set_meta("folder", "/elsewhere")  # a write outside a transaction, too
            assert problem.value.kind == "busy"
        finally:
            store.close()
        # A second `neardup index` waits for the lock instead of failing: released after a second.
        proc = subprocess.Popen(rh.cli("index", str(small[0]), "--db", str(db), "-q"), env=rh.child_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        assert proc.poll() is None
    finally:
        holder.execute("COMMIT")
        holder.close()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert rh.integrity(db) == ["ok"] and rh.snapshot(db).documents == ref.documents


def test_two_writers_and_a_reader_on_one_index(corpus_dir, tmp_path):
    folder = tmp_path / "docs"
    rels = rh.write_collection(corpus_dir, folder, txt=55, docx=5, chars=450)
    db = tmp_path / "shared.ndx"
    first = subprocess.Popen(rh.cli("index", str(folder), "--db", str(db), "--workers", "1"), env=rh.child_env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    reads = pairs_calls = 0
    counts: list[int] = []
    second = None
    deadline = time.monotonic() + RUN_BOUND_S
    settings = Settings(workers=1)
    try:
        # Until both writers are done and the reader has had its turns: on a fast machine the
        # writers may finish before the fifth read, which then reads the finished index.
        while (first.poll() is None or second is None or second.poll() is None
               or reads < 5 or pairs_calls < 1):
            assert time.monotonic() < deadline, "writers did not finish"
            if not db.exists() or db.stat().st_size == 0:
                time.sleep(0.05)
                continue
            try:
                coll = Collection.open(db, create=False)
            except IndexProblem as exc:
                assert exc.kind == "not-an-index"  # the first writer has not committed the schema yet
                time.sleep(0.05)
                continue
            with coll:
                docs = coll.documents()
                counts.append(len(docs))
                if docs:
                    assert coll.document_text(docs[-1].doc_id)
                    if second is None:
                        # The second window starts while the first is writing.
                        second = subprocess.Popen(rh.cli("index", str(folder), "--db", str(db), "--workers", "1"),
                                                  env=rh.child_env(), stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.PIPE, text=True)
                if len(docs) > 20 and pairs_calls < 3:
                    coll.pairs(settings)  # writes the pairs cache: a third writer, in turns
                    pairs_calls += 1
                reads += 1
            time.sleep(0.1)
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.kill()
    err1, err2 = first.stderr.read(), second.stderr.read()
    first.stderr.close(), second.stderr.close()
    assert first.returncode == 0, err1[-800:]
    assert second.returncode == 0, err2[-800:]
    assert reads >= 5 and pairs_calls >= 1
    assert counts == sorted(counts)  # a reader never sees a document disappear
    assert rh.integrity(db) == ["ok"] and rh.consistency_problems(db) == []
    snap = rh.snapshot(db)
    assert sorted(snap.documents) == sorted(rels)
    assert {s for s, _ in snap.documents.values()} == {"indexed"}


# --- files that change while they are indexed -------------------------------------------------


def test_files_that_change_vanish_or_appear_during_indexing(small, corpus_dir, tmp_path):
    folder = tmp_path / "docs"
    rels = rh.write_collection(corpus_dir, folder, txt=24, docx=0, chars=450)
    extra = (corpus_dir / "debian-reference-en" / "ch02-004.txt").read_text(encoding="utf-8")[:600]
    db = tmp_path / "moving.ndx"
    done_first: list[str] = []

    def meddle(fraction: float, message: str = "") -> None:
        if message.startswith("Indexed ") and not done_first:
            first_rel = message.split(": ", 1)[1]
            done_first.append(first_rel)
            # Already indexed: edited afterwards. Not yet read: edited, deleted. And a new file.
            with open(folder / first_rel, "a", encoding="utf-8") as fh:
                fh.write("A line added after this file was read.\n")
            with open(folder / rels[-2], "a", encoding="utf-8") as fh:
                fh.write("A line added before this file was read.\n")
            (folder / rels[-1]).unlink()
            (folder / "batch00" / "appeared.txt").write_text(extra, encoding="utf-8")

    settings = Settings(workers=1)
    with Collection.open(db) as coll:
        report = coll.index_folder(str(folder), settings, meddle)
        assert done_first
        # the file deleted before it was read is skipped as vanished; unless the worker had read it
        # ahead already (files are sent ahead of the writer: how far depends on the machine's load)
        skipped = [(os.path.basename(s.path), s.code) for s in report.skipped]
        texts = rh.snapshot(db).texts
        assert skipped == [(os.path.basename(rels[-1]), "vanished")] or (not skipped and rels[-1] in texts)
        # indexed as read: with the line added, unless read before it was added (the same race)
        assert texts[rels[-2]].endswith("A line added before this file was read.") or not skipped
        assert not texts[done_first[0]].endswith("after this file was read.")
        # The refresh picks everything up: the edit, the deletion, the new file.
        again = coll.index_folder(str(folder), settings)
        assert again.removed == 1 and again.added == 1 and again.updated in (1, 2) and not again.skipped
    fresh = tmp_path / "fresh.ndx"
    with Collection.open(fresh) as coll:
        coll.index_folder(str(folder), settings)
    got, want = rh.snapshot(db), rh.snapshot(fresh)
    assert got.documents == want.documents
    assert got.fingerprints == want.fingerprints
    assert rh.consistency_problems(db) == []
