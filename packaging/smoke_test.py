"""Smoke test of the built bundle (dist/neardup/): the command line and the window, as shipped.

Run from the project folder after `make package` (`make package-test` does both):

    python3 packaging/smoke_test.py [dist/neardup]

It uses only the bundle's own executables and its own copy of the sample collection (never the
source tree's code), in a temporary HOME, and checks that

1. ``neardup --version`` prints the version;
2. ``neardup index`` indexes the 30 sample files with nothing skipped: extraction runs in
   worker processes that are the frozen executable started again, so this fails if a spawned
   child runs the command line instead of the worker;
3. ``neardup check`` ranks each planted resubmission's source first, and ``neardup report``
   writes a PDF (drawn by Qt inside the bundle);
4. ``neardup-gui --sample`` starts offscreen, shows its window, and indexes the sample with its
   own worker processes (which must be workers, not second windows);
5. the window starts in a Chinese locale with its translation;
6. ``neardup pairs`` of a collection large enough for a parallel pass (440 generated texts in
   families of light edits) runs its workers from the fork server (the frozen executable started
   again as the server: PyInstaller's multiprocessing hook must recognise it) and finds the same
   pairs as one process;
7. the fast PDF reader is in the bundle: PDFium (pypdfium2 and its shared library) loads, and
   the structure check sends a PDF whose stream is longer than its /Length says to the salvage
   reader, which says why (without PDFium every PDF is read by pdfminer.six, in silence).

Prints the timings (start-up of the command line and of the window) and the bundle size.
Exit code 0 when every check passes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The planted resubmissions of resources/sample/EXPECTED.md and the source each must find.
PLANTED = {
    "en-02-shoreline-retreat.pdf": "en-01-coastal-erosion.docx",
    "zh-02-水稻干旱响应调控.pdf": "zh-01-水稻抗旱基因.docx",
}
SAMPLE_FILES = 30
STARTED = "started"  # the window's log line once it is shown (neardup_gui.app.main, at -v)


class SmokeFailure(AssertionError):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


def isolated_env(home: Path) -> dict[str, str]:
    """The environment of a first start: a fresh HOME and XDG folders, no display."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NEARDUP_", "PYTHON"))}
    for name in ("config", "data", "cache"):
        (home / name).mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_CACHE_HOME=str(home / "cache"), XDG_RUNTIME_DIR=str(home), QT_QPA_PLATFORM="offscreen",
               LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def run(cmd: list[str], env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def test_version(bundle: Path, env: dict[str, str], runs: int = 5) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = run([str(bundle / "neardup"), "--version"], env, timeout=60)
        times.append(time.perf_counter() - t0)
        check(proc.returncode == 0, f"neardup --version exited {proc.returncode}: {proc.stderr[-2000:]}")
        check(proc.stdout.strip().startswith("neardup "), f"unexpected --version output {proc.stdout!r}")
    print(f"ok  neardup --version -> {proc.stdout.strip()!r}")
    return times


def test_index_and_check(bundle: Path, sample: Path, work: Path, env: dict[str, str]) -> float:
    db = work / "sample.sqlite"
    t0 = time.perf_counter()
    proc = run([str(bundle / "neardup"), "index", str(sample), "--db", str(db), "--json", "--workers", "2"], env)
    elapsed = time.perf_counter() - t0
    check(proc.returncode == 0, f"neardup index exited {proc.returncode}: {proc.stdout[-2000:]} {proc.stderr[-3000:]}")
    report = json.loads(proc.stdout)
    check(report["skipped"] == [], f"files were skipped: {report['skipped']}")
    check(report["indexed"] == SAMPLE_FILES, f"indexed {report['indexed']} files, expected {SAMPLE_FILES}")
    print(f"ok  neardup index: {report['indexed']} files indexed, none skipped ({elapsed:.1f} s)")

    submissions = [str(sample / name) for name in PLANTED]
    proc = run([str(bundle / "neardup"), "check", *submissions, "--db", str(db), "--json"], env)
    check(proc.returncode == 0, f"neardup check exited {proc.returncode}: {proc.stderr[-3000:]}")
    results = json.loads(proc.stdout)
    check(len(results) == len(PLANTED), f"{len(results)} results for {len(PLANTED)} submissions")
    for result in results:
        name = Path(result["path"]).name
        check(bool(result["matches"]), f"{name}: no source found")
        first = result["matches"][0]
        check(Path(first["path"]).name == PLANTED[name],
              f"{name}: first source is {Path(first['path']).name}, expected {PLANTED[name]}")
        print(f"ok  neardup check {name}: first source {Path(first['path']).name} "
              f"(similarity {first['similarity']:.2f})")

    # The PDF report is drawn with Qt (fonts, offscreen platform) from inside the bundle.
    pdf = work / "report.pdf"
    proc = run([str(bundle / "neardup"), "report", "--db", str(db), "--out", str(pdf), "--json", "-q"], env)
    check(proc.returncode == 0, f"neardup report exited {proc.returncode}: {proc.stderr[-3000:]}")
    summary = json.loads(proc.stdout)
    check(summary["pairs"] >= len(PLANTED) and summary["pages"] >= 1, f"unexpected report summary {summary}")
    check(pdf.read_bytes()[:5] == b"%PDF-", "the report is not a PDF file")
    print(f"ok  neardup report: {summary['pairs']} pairs on {summary['pages']} PDF pages")
    return elapsed


def family_texts(folder: Path, families: int = 40, copies: int = 11, words: int = 260) -> int:
    """Write ``families × copies`` texts: each family a random text and its light edits (2 % of
    the words replaced), so that the pass has pairs to verify in every family."""
    import random

    rng = random.Random(7)
    vocabulary = [f"{a}{b}" for a in ("ka", "lo", "mi", "ne", "pu", "ri", "so", "tu", "ve", "zo")
                  for b in ("ran", "lem", "tis", "dor", "vak", "sun", "pel", "gor", "mis", "tal")]
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(families):
        base = [rng.choice(vocabulary) for _ in range(words)]
        for c in range(copies):
            text = [w if rng.random() > 0.02 else rng.choice(vocabulary) for w in base]
            sentences = [" ".join(text[i:i + 13]).capitalize() + "." for i in range(0, len(text), 13)]
            (folder / f"f{f:02d}-{c:02d}.txt").write_text(" ".join(sentences) + "\n", encoding="utf-8")
    return families * copies


def test_parallel_pass(bundle: Path, work: Path, env: dict[str, str]) -> None:
    folder = work / "families"
    count = family_texts(folder)
    db = work / "families.sqlite"
    proc = run([str(bundle / "neardup"), "index", str(folder), "--db", str(db), "--json", "-q"], env)
    check(proc.returncode == 0, f"neardup index exited {proc.returncode}: {proc.stderr[-3000:]}")
    check(json.loads(proc.stdout)["indexed"] == count, f"not every generated text was indexed: {proc.stdout[-500:]}")
    found = {}
    for workers in ("2", "1"):
        copy = work / f"families-{workers}.sqlite"
        shutil.copy(db, copy)  # (the pairs are kept in the index: each run starts from none)
        proc = run([str(bundle / "neardup"), "-vv", "pairs", "--db", str(copy), "--threshold", "0.8", "--json",
                    "-q", "--workers", workers], env)
        check(proc.returncode == 0, f"neardup pairs --workers {workers} exited {proc.returncode}: {proc.stderr[-3000:]}")
        found[workers] = sorted((r["a"], r["b"], r["similarity"]) for r in json.loads(proc.stdout))
        if workers == "2":
            check("starting a child process by forkserver" in proc.stderr,
                  f"the pass did not run its workers from the fork server: {proc.stderr[-2000:]}")
    check(len(found["1"]) >= 40 * 11 * 10 // 2 // 2, f"too few pairs found: {len(found['1'])}")
    check(found["2"] == found["1"], "two worker processes found other pairs than one process")
    print(f"ok  neardup pairs: {len(found['2'])} pairs among {count} texts, two workers forked by the "
          "fork server, the same as one process")


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the direct children of ``pid`` (Linux /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                out.append((int(entry.name), cmdline.strip()))
        except (OSError, IndexError, ValueError):
            continue
    return out


def indexed_count(data_home: Path) -> int:
    """Documents with fingerprints in the window's index of the sample (0 while there is none)."""
    for db in (data_home / "neardup" / "collections").glob("sample-*.sqlite"):
        try:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
            try:
                return conn.execute("SELECT count(*) FROM fingerprints").fetchone()[0]
            finally:
                conn.close()
        except sqlite3.Error:
            return 0
    return 0


def test_window(bundle: Path, env: dict[str, str], data_home: Path, log_path: Path, timeout: float = 180) -> float:
    """Start the window on the sample; returns the seconds until it logged that it is shown."""
    with open(log_path, "w+", encoding="utf-8") as log:
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(bundle / "neardup-gui"), "--sample", "-v"], env=env,
                                stdout=log, stderr=subprocess.STDOUT, text=True)
        shown = None
        worker_cmds: set[str] = set()
        try:
            deadline = t0 + timeout
            while time.perf_counter() < deadline:
                check(proc.poll() is None, f"neardup-gui exited {proc.returncode}:\n{log_path.read_text()[-3000:]}")
                if shown is None and STARTED in log_path.read_text(encoding="utf-8", errors="replace"):
                    shown = time.perf_counter() - t0
                    print(f"ok  neardup-gui window shown offscreen ({shown:.2f} s)")
                worker_cmds.update(cmd for _, cmd in children_of(proc.pid))
                if shown is not None and indexed_count(data_home) >= SAMPLE_FILES:
                    break
                time.sleep(0.1)
            else:
                raise SmokeFailure(f"neardup-gui: window shown={shown is not None}, indexed "
                                   f"{indexed_count(data_home)}/{SAMPLE_FILES} after {timeout:.0f} s:\n"
                                   f"{log_path.read_text()[-3000:]}")
            # Let the window settle a moment: a crash after indexing would show here.
            time.sleep(1.0)
            check(proc.poll() is None, f"neardup-gui exited {proc.returncode} after indexing")
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    text = log_path.read_text(encoding="utf-8", errors="replace")
    check("Traceback" not in text, f"neardup-gui logged a traceback:\n{text[-3000:]}")
    check(text.count(STARTED) == 1, f"more than one window started (a worker ran the app?):\n{text[-3000:]}")
    forks = [c for c in worker_cmds if "--multiprocessing-fork" in c]
    check(bool(forks), f"no extraction worker seen among the window's children: {sorted(worker_cmds)}")
    check(all(c.split()[0].endswith("neardup-gui") for c in forks), f"workers not run by the bundle: {forks}")
    print(f"ok  neardup-gui --sample indexed {SAMPLE_FILES} files with {len(forks)} worker process(es) "
          f"of the frozen executable")
    return shown


def test_window_chinese(bundle: Path, env: dict[str, str], log_path: Path, timeout: float = 60) -> None:
    """Start the window in a Chinese locale: its translation must load from the bundle."""
    env = dict(env, LANG="zh_CN.UTF-8", LC_ALL="zh_CN.UTF-8")
    with open(log_path, "w+", encoding="utf-8") as log:
        proc = subprocess.Popen([str(bundle / "neardup-gui"), "-v"], env=env, stdout=log,
                                stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.perf_counter() + timeout
            while STARTED not in log_path.read_text(encoding="utf-8", errors="replace"):
                check(proc.poll() is None, f"neardup-gui exited {proc.returncode}:\n{log_path.read_text()[-3000:]}")
                check(time.perf_counter() < deadline, f"no window after {timeout:.0f} s:\n{log_path.read_text()[-3000:]}")
                time.sleep(0.1)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    text = log_path.read_text(encoding="utf-8", errors="replace")
    check("no translation" not in text and "Traceback" not in text, f"Chinese start failed:\n{text[-3000:]}")
    print("ok  neardup-gui starts in Chinese (zh_CN translation found in the bundle)")


def test_pdf_readers(bundle: Path, work: Path, env: dict[str, str]) -> None:
    page = b"BT /F1 12 Tf 72 700 Td (Words of a page whose stream length is wrong.) Tj ET\n%%"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
               b"/Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(page) - 1, page),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 6\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path = work / "length.pdf"
    path.write_bytes(bytes(out))
    proc = run([str(bundle / "neardup"), "extract", str(path), "--json"], env)
    check(proc.returncode == 0, f"neardup extract exited {proc.returncode}: {proc.stderr[-3000:]}")
    [result] = json.loads(proc.stdout)
    wanted = "read by the salvage reader (pdfminer.six): a stream does not end where its length says"
    check(result.get("warnings") == [wanted], f"the fast PDF reader is not in the bundle: {result}")
    print("ok  the fast PDF reader (PDFium) is in the bundle, the salvage reader reads a damaged PDF")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", nargs="?", type=Path, default=ROOT / "dist" / "neardup")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, index)")
    args = parser.parse_args(argv)
    bundle = args.bundle.resolve()
    for exe in ("neardup", "neardup-gui"):
        if not os.access(bundle / exe, os.X_OK):
            print(f"FAIL: no executable {bundle / exe}: build it first (make package)", file=sys.stderr)
            return 1
    sample = bundle / "_internal" / "resources" / "sample"
    work = Path(tempfile.mkdtemp(prefix="neardup-smoke-"))
    failed = True
    try:
        env = isolated_env(work / "home")
        version_times = test_version(bundle, env)
        index_s = test_index_and_check(bundle, sample, work, env)
        test_parallel_pass(bundle, work, env)
        test_pdf_readers(bundle, work, env)
        # A second, fresh home for the window: it starts like a first start.
        gui_env = isolated_env(work / "gui-home")
        shown_s = test_window(bundle, gui_env, work / "gui-home" / "data", work / "gui.log")
        test_window_chinese(bundle, isolated_env(work / "zh-home"), work / "gui-zh.log")
        failed = False
    except (SmokeFailure, subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        print(f"FAIL: {exc}", file=sys.stderr)
        print(f"(logs kept in {work})", file=sys.stderr)
        return 1
    finally:
        if not args.keep and not failed:
            shutil.rmtree(work, ignore_errors=True)
    size = subprocess.run(["du", "-sh", str(bundle)], capture_output=True, text=True).stdout.split()[0]
    print(f"bundle {bundle}: {size}")
    print(f"start-up: neardup --version median {statistics.median(version_times):.2f} s "
          f"(min {min(version_times):.2f} s, first {version_times[0]:.2f} s); "
          f"window shown {shown_s:.2f} s; indexing the sample (CLI, 2 workers) {index_s:.1f} s")
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
