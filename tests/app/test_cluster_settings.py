"""The Dask cluster in the window's Settings: its TLS certificates kept as the machine's values, a
plain (unencrypted) address on another computer asked about once, and a cluster that cannot be used
said in words, not as a bug."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from neardup_gui.app.appsettings import load_settings, open_store
from neardup_gui.app.errors import explain, is_bug
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.core.dask_connection import ClusterUnavailable

ELSEWHERE = "tcp://192.0.2.1:8786"  # (TEST-NET-1: no machine here; never contacted)


def settings_with(qtbot, window: MainWindow, address: str, *, answer=QMessageBox.StandardButton.Yes,
                  monkeypatch=None, **files: str):  # noqa: ANN001, ANN003, ANN201
    """Open Settings, type the cluster's address (and certificate files), press OK; the dialog."""
    window.open_settings()
    dialog = window.settings_dialog
    dialog.dask_address.setText(address)
    for name, path in files.items():
        getattr(dialog, name).edit.setText(path)
    if monkeypatch is not None:
        monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: answer))
    dialog.accept()
    return dialog


def test_a_plain_address_on_another_computer_is_asked_about_once(qtbot, no_blocking_dialogs, isolated_home):
    window = MainWindow()
    qtbot.addWidget(window)
    settings_with(qtbot, window, ELSEWHERE)
    assert len(no_blocking_dialogs) == 1 and ELSEWHERE in no_blocking_dialogs[0][1]
    assert "not encrypted" in no_blocking_dialogs[0][1]
    assert window.settings.dask_address == ELSEWHERE and window.settings.dask_insecure
    settings_with(qtbot, window, ELSEWHERE)  # the same address again: not asked again
    assert len(no_blocking_dialogs) == 1 and window.settings.dask_insecure
    for address in ("tls://192.0.2.1:8786", "tcp://127.0.0.1:8786", ""):  # encrypted, or this computer
        settings_with(qtbot, window, address)
        assert len(no_blocking_dialogs) == 1 and not window.settings.dask_insecure
    stored = load_settings(open_store())
    assert stored.dask_address == "" and not stored.dask_insecure
    window.close()


def test_no_keeps_the_settings_open_and_the_address_unused(qtbot, isolated_home, monkeypatch):
    window = MainWindow()
    qtbot.addWidget(window)
    dialog = settings_with(qtbot, window, ELSEWHERE, answer=QMessageBox.StandardButton.No, monkeypatch=monkeypatch)
    assert dialog.isVisible() and window.settings.dask_address == ""
    dialog.reject()
    window.close()


def test_the_cluster_and_its_certificates_are_kept_with_a_collection_open(qtbot, no_blocking_dialogs, isolated_home, tmp_path):
    """The machine's values are saved as the defaults even while a collection's own are edited
    (before, the cluster's address set with a collection open was lost at the next start)."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.folder, window.db_path = str(tmp_path), str(tmp_path / "x.db")  # (a collection is open)
    files = {"dask_ca": "/etc/cluster/ca.pem", "dask_cert": "/etc/cluster/examiner.pem",
             "dask_key": "/etc/cluster/examiner.key"}
    settings_with(qtbot, window, "tls://scheduler.example.org:8786", **files)
    assert not no_blocking_dialogs  # (an encrypted address is not asked about)
    stored = load_settings(open_store())
    assert stored.dask_address == "tls://scheduler.example.org:8786"
    assert (stored.dask_ca, stored.dask_cert, stored.dask_key) == tuple(files.values())
    window.db_path = None
    window.close()


def test_a_cluster_that_cannot_be_used_is_said_in_words_without_a_traceback(qtbot, isolated_home):
    refused = ClusterUnavailable(f"Refusing to send the documents to {ELSEWHERE}: tcp:// is not encrypted …")
    assert not is_bug(refused)
    headline, advice = explain(refused)
    assert headline == "The Dask cluster cannot be used." and "Settings" in advice
    window = MainWindow()
    qtbot.addWidget(window)
    window._task_error(refused, "Traceback (most recent call last): …")
    dialog = window._error_dialogs[-1]
    assert str(refused) in dialog.advice.text() and dialog.details.toPlainText() == ""
    dialog.close()
    window.close()
