"""The command line's output where it goes in practice: a log file, a terminal, a pipe whose
reader stops early (`neardup pairs | head`)."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from neardup_gui import cli
from neardup_gui.cli import EXIT_BROKEN_PIPE, StderrProgress, clip_to_width, display_width, main
from neardup_gui.core.collection import Collection

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^\[ *(\d+\.\d)%\] (.+)$")


def _steps(n: int):
    """A run's progress as the core reports it: a stage start, n documents (two messages each), an end."""
    yield 0.0, "Scanning the folder"
    for i in range(1, n + 1):
        yield (i - 1) / n, f"Comparing {i} of {n}"
        yield i / n * 0.999, f"Compared {i} of {n}"
    yield 1.0, f"Compared {n} of {n}"
    yield 1.0, "Saving the search tables"


def test_a_log_gets_a_line_per_whole_percent_and_every_stage(monkeypatch) -> None:
    monkeypatch.setattr(StderrProgress, "LOG_EVERY_S", float("inf"))  # (the count, whatever the machine's speed)
    log = io.StringIO()
    progress = StderrProgress(stream=log)
    for fraction, message in _steps(50_000):
        progress(fraction, message)
    lines = log.getvalue().splitlines()
    assert 100 <= len(lines) <= 110  # 100,002 updates
    assert all(LINE.match(line) for line in lines)
    assert lines[0] == "[  0.0%] Scanning the folder"
    assert lines[-2:] == ["[100.0%] Compared 50000 of 50000", "[100.0%] Saving the search tables"]
    percents = [int(float(LINE.match(line)[1])) for line in lines if 0 < float(LINE.match(line)[1]) < 100]
    assert percents == sorted(set(percents))  # one line per whole percent in between
    # and a slow stage still shows it is alive: a line at least every LOG_EVERY_S seconds
    monkeypatch.setattr(StderrProgress, "LOG_EVERY_S", 0.0)
    log = io.StringIO()
    progress = StderrProgress(stream=log)
    for fraction, message in _steps(300):
        progress(fraction, message)
    assert len(log.getvalue().splitlines()) == 603
    quiet = io.StringIO()
    for fraction, message in _steps(10):
        StderrProgress(quiet=True, stream=quiet)(fraction, message)
    assert quiet.getvalue() == ""


def test_a_terminal_line_is_cut_to_its_width_and_erases_what_was_longer(monkeypatch) -> None:
    """On a real terminal (a pseudo-terminal here) of 40 columns: every update returns to the
    line's start, fits in 39 columns (a Chinese character takes two) and erases the rest."""
    monkeypatch.setenv("COLUMNS", "40")
    master, slave = pty.openpty()
    try:
        with open(slave, "w", encoding="utf-8", closefd=False) as terminal:
            assert terminal.isatty()
            progress = StderrProgress(stream=terminal)
            messages = ["Indexed 3 of 30: a-very-long-file-name-that-does-not-fit-in-forty-columns.docx",
                        "Indexed 4 of 30: 海洋环境监测与海岸带侵蚀过程的长期观测研究申请书.docx",
                        "Saving"]
            for i, message in enumerate(messages):
                progress(0.1 * (i + 1), message)
        got = b""
        while select.select([master], [], [], 1.0)[0]:
            got += os.read(master, 65536)
        written = got.decode("utf-8")
    finally:
        os.close(master)
        os.close(slave)
    updates = written.split("\r")[1:]
    assert len(updates) == 3
    for update, message in zip(updates, messages):
        assert update.endswith("\x1b[K")  # the tail of a longer line before is erased
        shown = update[: -len("\x1b[K")]
        assert display_width(shown) <= 39
        assert message.startswith(shown.split("] ", 1)[1])
    assert display_width(updates[1][: -len("\x1b[K")]) in (38, 39)  # cut between two Chinese characters
    assert updates[2] == "[ 30.0%] Saving\x1b[K"


def test_the_width_is_the_terminal_progress_goes_to(monkeypatch) -> None:
    """stderr's terminal, not stdout's (`neardup pairs | less`: stdout is a pipe)."""
    import fcntl
    import struct
    import termios

    monkeypatch.delenv("COLUMNS", raising=False)
    master, slave = pty.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 52, 0, 0))
        with open(slave, "w", encoding="utf-8", closefd=False) as terminal:
            assert cli._terminal_columns(terminal) == 52
            StderrProgress(stream=terminal)(0.5, "x" * 100)
        got = b""
        while select.select([master], [], [], 1.0)[0]:
            got += os.read(master, 65536)
    finally:
        os.close(master)
        os.close(slave)
    assert got.decode("utf-8") == "\r" + ("[ 50.0%] " + "x" * 100)[:51] + "\x1b[K"
    monkeypatch.setenv("COLUMNS", "33")  # (the user's say first)
    assert cli._terminal_columns(io.StringIO()) == 33


def test_clip_to_width_counts_wide_and_combining_characters() -> None:
    assert clip_to_width("abcdef", 4) == "abcd"
    assert clip_to_width("中文字", 5) == "中文"
    assert clip_to_width("中文字", 6) == "中文字"
    assert clip_to_width("e\u0301e\u0301x", 2) == "e\u0301e\u0301"  # accents take no column
    assert display_width("ａ中e\u0301") == 5  # a full-width letter takes two


def _pty_run(args: list[str], columns: int = 60) -> str:
    """Run the command line with stdout and stderr on a pseudo-terminal; what the terminal got."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns)}
    proc = subprocess.Popen([sys.executable, "-m", "neardup_gui.cli", *args], stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL, cwd=ROOT, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # (Linux: EIO once the last writer closed)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait(timeout=300) == 0
    return b"".join(chunks).decode("utf-8")


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("cli_output") / "sample.db"
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(ROOT / "resources" / "sample"),
                          "--db", str(db), "-q"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return db


def test_on_a_terminal_the_progress_line_is_erased_before_the_commands_own_output(tmp_path) -> None:
    db = tmp_path / "again.db"
    shown = _pty_run(["index", str(ROOT / "resources" / "sample"), "--db", str(db)])
    assert "\r[100.0%] Indexed 30 documents (0 with warnings, 0 skipped)\x1b[K" in shown
    # the summary starts on an erased line, not over the tail of the last progress message
    assert re.search(r"\r\x1b\[K30 documents indexed in .*again\.db", shown), shown[-400:]
    shown = _pty_run(["pairs", "--db", str(db)])  # (pairs not computed yet: progress shown)
    assert "\r[100.0%] Compared 30 of 30\x1b[K" in shown
    assert re.search(r"\r\x1b\[Ksimilarity r \d\.\d{3}  en-01", shown), shown[-400:]  # the first pair, on an erased line
    assert "Traceback" not in shown


@pytest.mark.parametrize("command", [["pairs"], ["clusters"], ["pairs", "--json"], ["common"]])
def test_a_reader_that_stops_early_ends_the_command_quietly(sample_index, command) -> None:
    """`neardup pairs | head`: the reader closes the pipe before the output is written. Before,
    a BrokenPipeError traceback (or "Exception ignored ... BrokenPipeError" at exit, code 120)."""
    proc = subprocess.Popen([sys.executable, "-m", "neardup_gui.cli", *command, "--db", str(sample_index)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()  # the reader is gone before a byte is written
    with proc.stderr:
        err = proc.stderr.read().decode("utf-8")
    assert proc.wait(timeout=300) == EXIT_BROKEN_PIPE, err
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err


def test_a_broken_pipe_that_is_not_the_output_is_still_an_error(sample_index, monkeypatch) -> None:
    """Only a closed stdout or stderr is taken for a reader gone; a worker's broken pipe is raised."""
    def broken(*args, **kwargs):
        raise BrokenPipeError(32, "a worker's pipe")

    monkeypatch.setattr(Collection, "pairs", broken)
    with pytest.raises(BrokenPipeError):
        main(["pairs", "--db", str(sample_index)])
    assert not isinstance(sys.stdout, cli._ClearsProgress)


def test_check_says_plainly_what_is_wrong_with_a_path_as_given(sample_index, tmp_path, capsys) -> None:
    """A path that does not exist is "no such file" (not "no longer exists"), a folder is a folder
    (not "unsupported file type ''"); the files beside them are checked, and the exit code is 1."""
    other = tmp_path / "budget.xlsx"  # (a suffix of a format neardup does not read: taken at its word)
    other.write_text("some text", encoding="utf-8")
    archive = tmp_path / "proposals.zip"  # (submissions sent zipped: say what to do)
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a.txt", "some text")
    submission = ROOT / "resources" / "sample" / "en-01-coastal-erosion.docx"
    capsys.readouterr()
    code = main(["check", str(tmp_path / "missing.docx"), str(tmp_path), str(other), str(archive), str(submission),
                 "--db", str(sample_index), "--json", "-q"])
    assert code == 1
    got = {Path(r["path"]).name: r for r in json.loads(capsys.readouterr().out)}
    assert got["missing.docx"]["skipped_reason"] == "no such file"
    assert got[tmp_path.name]["skipped_reason"].startswith("a folder, not a file")
    assert got["budget.xlsx"]["skipped_reason"] == "unsupported file type '.xlsx'"
    assert got["proposals.zip"]["skipped_reason"] == "an archive (.zip): unpack it and check the documents inside"
    assert got[submission.name]["skipped_reason"] is None and got[submission.name]["matches"]


def test_a_report_that_cannot_be_written_says_why_and_leaves_nothing(sample_index, tmp_path) -> None:
    """--out in a folder that does not exist, or a name longer than the file system allows, is
    refused before any work; a name as long as it allows is written (its part file's name is
    shortened: before, that write failed); no part file is ever left."""
    def report(out: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "neardup_gui.cli", "report", "--db", str(sample_index),
                               "--out", str(out), "-q"], capture_output=True, text=True, cwd=ROOT, timeout=300)

    run = report(tmp_path / "no" / "such" / "r.html")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip() == f"neardup: cannot write {tmp_path / 'no' / 'such' / 'r.html'}: no such folder: {tmp_path / 'no' / 'such'}"
    too_long = tmp_path / ("r" * 251 + ".html")  # 256 bytes: one more than the file system allows
    run = report(too_long)  # (before: a traceback, from the check before the work)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip() == f"neardup: cannot write {too_long}: file name too long"
    assert list(tmp_path.iterdir()) == []
    long_name = tmp_path / ("报" * 83 + ".html")  # 254 bytes: fits (255 at most); its part file is shortened
    run = report(long_name)
    assert run.returncode == 0, run.stderr
    assert [p.name for p in tmp_path.iterdir()] == [long_name.name] and "<html" in long_name.read_text(encoding="utf-8")
    long_name.unlink()
    ok = report(tmp_path / "r.json")
    assert ok.returncode == 0 and json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))


def test_a_missing_index_says_how_to_make_one(tmp_path) -> None:
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "pairs", "--db", str(tmp_path / "none.db")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 3
    assert run.stderr.strip() == (f"neardup: There is no index at {tmp_path / 'none.db'}. "
                                  "Make one with `neardup index FOLDER --db F`.")


def test_compare_and_extract_say_plainly_what_is_wrong_with_a_path(tmp_path, capsys) -> None:
    submission = str(ROOT / "resources" / "sample" / "en-01-coastal-erosion.docx")
    for a, said in ((str(tmp_path / "missing.txt"), "no such file"), (str(tmp_path), "a folder, not a file")):
        capsys.readouterr()
        assert main(["compare", a, submission]) == 1
        assert capsys.readouterr().err.startswith(f"neardup: {a}: {said}")
    capsys.readouterr()
    assert main(["extract", str(tmp_path / "missing.txt"), str(tmp_path), submission, "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert [(r["status"], r["reason"] and r["reason"][:20], r["code"]) for r in got] == [
        ("skipped", "no such file", "vanished"),  # (the codes stay as documented)
        ("skipped", "a folder, not a file", "unsupported"),
        ("extracted", None, None)]


def test_screening_an_empty_call_says_so(sample_index, tmp_path) -> None:
    empty, one = tmp_path / "empty", tmp_path / "one"
    empty.mkdir()
    one.mkdir()
    shutil.copy(ROOT / "resources" / "sample" / "en-05-dementia-speech.txt", one)

    def screen(folder: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "neardup_gui.cli", "screen", str(folder), "--db", str(sample_index),
                               "-q"], capture_output=True, text=True, cwd=ROOT, timeout=300)

    run = screen(empty)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"no submissions in {empty}: it holds no ") and ".docx" in run.stderr
    run = screen(one)
    assert run.returncode == 0 and "1 submission screened as 'one'" in run.stderr  # (not "1 submissions")
    assert "other formats" not in run.stderr
    # files of other formats in a call are named, not screened (a budget sheet, a scanned form)
    for name in ("budget.xlsx", "form.png"):
        (one / name).write_bytes(b"not a document neardup reads")
        (empty / name).write_bytes(b"not a document neardup reads")
    run = screen(one)
    assert run.returncode == 0 and "1 submission screened as 'one'" in run.stderr
    assert "2 files of other formats left out (neardup reads .docx .doc .wps " in run.stderr
    assert run.stderr.rstrip().endswith("): budget.xlsx, form.png")
    run = screen(empty)
    assert run.returncode == 1 and "no submissions in" in run.stderr and "): budget.xlsx, form.png" in run.stderr
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "screen", str(one), "--db", str(sample_index),
                          "-q", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert json.loads(run.stdout)["other_files"] == [str(one / "budget.xlsx"), str(one / "form.png")]
    # kept with the screening: another process reopening it knows them (the Screening tab does)
    read = subprocess.run([sys.executable, "-c", (
        "import sys; from neardup_gui.core.collection import Collection; "
        "from neardup_gui.core.screening import load_screening; "
        "c = Collection.open(sys.argv[1], create=False); print('\\n'.join(load_screening(c.store, 'one').others))"),
        str(sample_index)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert read.stdout.splitlines() == [str(one / "budget.xlsx"), str(one / "form.png")], read.stderr
    (one / "form.png").unlink()  # screened again: what the folder holds now
    assert screen(one).returncode == 0
    read = subprocess.run(read.args, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert read.stdout.splitlines() == [str(one / "budget.xlsx")], read.stderr
