"""Start-up and settings across processes: whatever one run wrote, the next one starts with it.

QSettings caches a file for the whole process, so a test that writes and reads in one process
never sees what the next start sees (an empty list written as ``@Invalid()`` read back as
nothing, and the app exited before showing a window). Every test here reads in a new process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.app.appsettings import load_settings, open_store, save_language, save_settings
from neardup_gui.app.errors import StartupErrorDialog
from neardup_gui.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("startup_driver.py")


def child_env() -> dict[str, str]:
    env = dict(os.environ)  # (the isolated HOME and XDG folders of this test)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONPATH"] = str(ROOT)
    return env


def run_app(*args: str) -> tuple[dict, subprocess.CompletedProcess]:
    """Start the real application in a new process; what it showed, as the driver reports it."""
    proc = subprocess.run([sys.executable, str(DRIVER), *args], capture_output=True, text=True,
                          env=child_env(), cwd=ROOT, timeout=300)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, f"no report; exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("REPORT "):]), proc


def read_in_new_process() -> dict:
    """``load_settings`` of the settings file, by a process that did not write it."""
    code = ("import dataclasses, json; from neardup_gui.app.appsettings import load_settings, load_language, "
            "load_recent, load_check_minimum, open_store; s = open_store(); v = load_settings(s); "
            "print(json.dumps({'settings': dataclasses.asdict(v), 'language': load_language(s), "
            "'recent': load_recent(s), 'minimum': load_check_minimum(s)}))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_env(),
                          cwd=ROOT, timeout=120, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


ODD_PATHS = (
    "/tmp/a, b/form.docx",  # a comma: QSettings' list separator
    '/tmp/"quoted" \\ back=slash;semi.pdf',
    "/tmp/@Invalid().txt",
    "/tmp/中文 文件/申请书模板.docx",
)

CASES = {
    "defaults": Settings(),
    "empty template list": Settings(threshold=0.55, template_files=()),
    "one template file": Settings(template_files=(ODD_PATHS[0],)),
    "odd paths": Settings(template_files=ODD_PATHS, exclude_quotes=True, exclude_bibliography=True),
    "edges": Settings(threshold=0.0, min_run=1, template_min_docs=2, template_min_share=1.0, workers=1,
                      strategy="lsh"),
    "top": Settings(threshold=1.0, min_run=200, template_min_share=0.125, strategy="grouped", workers=64),
    "a TLS cluster": Settings(dask_address="tls://10.1.2.3:8786", dask_ca="/etc/cluster/ca.pem",
                              dask_cert=ODD_PATHS[0], dask_key="/tmp/中文 文件/examiner.key"),
    "an unencrypted cluster allowed": Settings(dask_address="tcp://10.1.2.3:8786", dask_insecure=True),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_setting_survives_a_new_process(name):
    written = CASES[name]
    from dataclasses import replace

    written = written.with_(fingerprints=replace(written.fingerprints, minhash_bits=512))
    store = open_store()
    save_settings(store, written)
    save_language(store, "zh_CN")
    read = read_in_new_process()
    expected = json.loads(json.dumps(__import__("dataclasses").asdict(written)))
    assert read["settings"] == expected
    assert read["language"] == "zh_CN"


def test_the_real_start_up_reads_an_empty_template_list(isolated_home):
    """The reported crash: Settings → OK wrote ``template/files=@Invalid()``; the next start died."""
    store = open_store()
    save_settings(store, Settings(threshold=0.35, template_files=(), exclude_quotes=True))
    ini = (isolated_home / ".config" / "neardup" / "neardup.ini").read_text(encoding="utf-8")
    assert "files=@Invalid()" in ini  # what Qt writes for an empty list
    report, proc = run_app()
    assert report["exit_code"] == 0
    assert report["dialogs"] == []
    s = report["window"]["settings"]
    assert (s["threshold"], s["template_files"], s["exclude_quotes"]) == (0.35, [], True)


BROKEN_INI = """[General]
garbage line without an equals sign
\x01\x02 binary \xff junk
[match]
threshold=a lot
min_run=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x15QPersistentModelIndex\\0)
[template]
files=@Invalid()
min_docs=-4
min_share=NaN
[exclude]
quotes=maybe
bibliography=@Invalid()
[run]
workers=0
[search]
strategy=quantum
[fingerprints]
minhash_bits=7.5
[ui]
language=klingon
[collections]
recent=@Invalid()
[check]
minimum=lots
"""


def test_a_broken_settings_file_starts_with_the_defaults_and_says_so(isolated_home):
    ini = isolated_home / ".config" / "neardup" / "neardup.ini"
    ini.parent.mkdir(parents=True, exist_ok=True)
    ini.write_bytes(BROKEN_INI.encode("utf-8", "surrogateescape"))
    report, proc = run_app()
    assert report["exit_code"] == 0 and report["dialogs"] == []
    defaults = json.loads(json.dumps(__import__("dataclasses").asdict(Settings())))
    shown = report["window"]["settings"]
    assert {k: v for k, v in shown.items() if k != "workers"} == {k: v for k, v in defaults.items() if k != "workers"}
    assert shown["workers"] == defaults["workers"]
    # each unusable value is named in a warning (stderr and the log file)
    for key in ("threshold", "min_run", "template_min_docs", "exclude_quotes", "workers", "strategy", "minhash_bits"):
        assert f"setting {key}" in proc.stderr, key
    assert "ui/language" in proc.stderr and "check/minimum" in proc.stderr
    log = (isolated_home / ".local" / "state" / "neardup" / "neardup.log").read_text(encoding="utf-8")
    assert "setting threshold" in log


def test_a_start_up_failure_shows_the_error_the_log_and_a_reset(isolated_home):
    ini = isolated_home / ".config" / "neardup" / "neardup.ini"
    store = open_store()
    save_settings(store, Settings(threshold=0.42))
    assert ini.is_file()
    report, proc = run_app("--fail-once")
    assert len(report["dialogs"]) == 1
    dialog = report["dialogs"][0]
    assert "planted start-up failure" in dialog["message"]
    log_path = isolated_home / ".local" / "state" / "neardup" / "neardup.log"
    assert str(log_path) in dialog["log"]
    assert "Traceback" in dialog["details"]
    # "Reset settings": the file is set aside (kept), and the window starts on the defaults
    backups = list(ini.parent.glob("neardup.ini.reset-*"))
    assert len(backups) == 1 and "threshold=0.42" in backups[0].read_text(encoding="utf-8")
    assert not ini.exists() or "0.42" not in ini.read_text(encoding="utf-8")
    assert report["window"]["settings"]["threshold"] == Settings().threshold
    assert report["exit_code"] == 0
    assert "planted start-up failure" in log_path.read_text(encoding="utf-8")


def test_the_start_up_dialog_offers_reset_and_quit(qtbot):
    try:
        raise ValueError("bad value in the settings")
    except ValueError as exc:
        dialog = StartupErrorDialog(exc, "Traceback …", "/tmp/neardup.log")
    qtbot.addWidget(dialog)
    dialog.show()
    assert "bad value in the settings" in dialog.message.text()
    assert "/tmp/neardup.log" in dialog.log_label.text()
    with qtbot.waitSignal(dialog.finished) as finished:
        dialog.reset_button.click()
    assert finished.args == [StartupErrorDialog.RESET]
    again = StartupErrorDialog(RuntimeError("x"), "", "/tmp/neardup.log")
    qtbot.addWidget(again)
    again.show()
    with qtbot.waitSignal(again.finished) as finished:
        again.quit_button.click()
    assert finished.args != [StartupErrorDialog.RESET]


def test_settings_saved_from_the_window_start_the_next_process(qtbot, isolated_home):
    from neardup_gui.app.mainwindow import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.apply_settings(window.settings.with_(threshold=0.6, template_files=()), "en")
    window.close()
    read = read_in_new_process()
    assert read["settings"]["threshold"] == 0.6 and read["settings"]["template_files"] == []
    assert load_settings(open_store()).threshold == 0.6


def test_make_run_shows_the_welcome_once_then_the_sample(isolated_home):
    """`make run` (neardup-gui --sample): a new user's first start shows the welcome view, the
    sample one click away; the start after it (a new process, reading what the first wrote)
    opens the sample."""
    from neardup_gui.app.paths import sample_folder

    first, _ = run_app("--sample")
    assert first["window"]["welcome"] and first["window"]["folder"] is None
    ini = (isolated_home / ".config" / "neardup" / "neardup.ini").read_text(encoding="utf-8")
    assert "welcomed=true" in ini
    second, _ = run_app("--sample")
    assert not second["window"]["welcome"]
    assert Path(second["window"]["folder"]) == Path(sample_folder()).resolve()
