"""The settings dialog: matching, fingerprints, search, templates, exclusions, language, workers."""

from __future__ import annotations

import logging
import os
from dataclasses import replace

from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFrame,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app.appsettings import last_folder, needs_refingerprint, remember_folder
from neardup_gui.core.dask_connection import plain_remote
from neardup_gui.core.extract import DIALOG_PATTERNS
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

FINGERPRINT_SIZES = (64, 128, 256, 512, 1024)
STRATEGIES = ("auto", "brute", "permuted", "grouped", "lsh")


class FileField(QWidget):
    """A file's path, typed or chosen ("Choose…")."""

    def __init__(self, path: str, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit(path)
        self.edit.setObjectName(object_name)
        self.choose = QPushButton()
        self.choose.clicked.connect(self._choose)
        self.title = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.choose)
        self.setFocusProxy(self.edit)  # (its label's shortcut goes to the path)

    def text(self) -> str:
        return self.edit.text().strip()

    def _choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.title, os.path.dirname(self.text()),
                                              self.tr("Certificates (*.pem *.crt *.key);;All files (*)"))
        if path:
            self.edit.setText(path)


class SettingsDialog(QDialog):
    """Edits a :class:`Settings` and the interface language; ``result_settings()`` gives them back."""

    def __init__(self, settings: Settings, language: str, parent: QWidget | None = None, *,
                 collection: str | None = None, store: QSettings | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.original = settings
        self.original_language = language
        self.collection = collection  # the open collection's name: its values are edited
        self.store = store  # for the template files' dialog to open where it last was
        # Which values are the collection's, and whether they also become the defaults.
        self.scope_note = QLabel()
        self.scope_note.setObjectName("settingsScopeNote")
        self.scope_note.setWordWrap(True)
        self.as_defaults = QCheckBox()
        self.as_defaults.setObjectName("asDefaultsBox")
        self.as_defaults.setVisible(collection is not None)

        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(5.0, 100.0)
        self.threshold.setDecimals(0)
        self.threshold.setSingleStep(5.0)
        self.threshold.setSuffix(" %")
        self.threshold.setValue(round(settings.threshold * 100))
        self.min_run = QSpinBox()
        self.min_run.setRange(2, 200)
        self.min_run.setValue(settings.min_run)
        self.fingerprint_size = QComboBox()
        for bits in FINGERPRINT_SIZES:
            self.fingerprint_size.addItem(str(bits), bits)
        size_index = self.fingerprint_size.findData(settings.fingerprints.minhash_bits)
        if size_index < 0:
            self.fingerprint_size.addItem(str(settings.fingerprints.minhash_bits), settings.fingerprints.minhash_bits)
            size_index = self.fingerprint_size.count() - 1
        self.fingerprint_size.setCurrentIndex(size_index)
        self.strategy = QComboBox()
        for key in STRATEGIES:
            self.strategy.addItem(key, key)
        self.strategy.setCurrentIndex(max(0, self.strategy.findData(settings.strategy)))
        self.auto_template = QCheckBox()  # off: only your template files and marks are left out
        self.auto_template.setObjectName("autoTemplate")
        self.auto_template.setChecked(settings.auto_template)
        self.template_min_docs = QSpinBox()
        self.template_min_docs.setRange(2, 10000)
        self.template_min_docs.setValue(settings.template_min_docs)
        self.template_min_share = QDoubleSpinBox()
        self.template_min_share.setRange(0.0, 100.0)
        self.template_min_share.setDecimals(1)
        self.template_min_share.setSuffix(" %")
        self.template_min_share.setValue(settings.template_min_share * 100)
        self.template_files = QListWidget()
        self.template_files.addItems(list(settings.template_files))
        self.template_files.setMaximumHeight(80)
        self.add_template = QPushButton()
        self.remove_template = QPushButton()
        self.add_template.clicked.connect(self._add_template)
        self.remove_template.clicked.connect(self._remove_template)
        self.exclude_quotes = QCheckBox()
        self.exclude_quotes.setChecked(settings.exclude_quotes)
        self.exclude_bibliography = QCheckBox()
        self.exclude_bibliography.setChecked(settings.exclude_bibliography)
        self.language = QComboBox()
        for key in ("", "en", "zh_CN"):
            self.language.addItem("", key)
        self.language.setCurrentIndex(max(0, self.language.findData(language)))
        self.workers = QSpinBox()
        self.workers.setRange(1, max(64, os.cpu_count() or 1))
        self.workers.setValue(settings.workers)
        self.dask_address = QLineEdit(settings.dask_address)
        self.dask_address.setObjectName("daskAddress")
        self.dask_address.setPlaceholderText("tls://host:8786")
        self.dask_ca = FileField(settings.dask_ca, "daskCa")
        self.dask_cert = FileField(settings.dask_cert, "daskCert")
        self.dask_key = FileField(settings.dask_key, "daskKey")
        # the plain address on another machine the examiner allowed (asked once, on OK)
        self._insecure_address = settings.dask_address if settings.dask_insecure else None
        self.refingerprint_note = QLabel()
        self.refingerprint_note.setObjectName("refingerprintNote")
        self.refingerprint_note.setWordWrap(True)
        self.refingerprint_note.setVisible(False)
        self.fingerprint_size.currentIndexChanged.connect(self._update_note)

        self._labels: dict[QWidget, QLabel] = {}
        self._lay_out(settings)
        self.retranslate_ui()

    def _lay_out(self, settings: Settings) -> None:
        """The fields in their groups (matching, index, template text, interface), scrolling above OK and Cancel."""
        self.matching_box = QGroupBox()
        self.matching_form = QFormLayout(self.matching_box)
        self._row(self.matching_form, self.threshold)
        self._row(self.matching_form, self.min_run)
        self._row(self.matching_form, self.exclude_quotes)
        self._row(self.matching_form, self.exclude_bibliography)
        self.index_box = QGroupBox()
        self.index_form = QFormLayout(self.index_box)
        self._row(self.index_form, self.fingerprint_size)
        self._row(self.index_form, self.strategy)
        self._row(self.index_form, self.workers)
        self._row(self.index_form, self.dask_address)
        for field in (self.dask_ca, self.dask_cert, self.dask_key):
            self._row(self.index_form, field)
        self.index_form.addRow(self.refingerprint_note)
        self.template_box = QGroupBox()
        self.template_form = QFormLayout(self.template_box)
        self._row(self.template_form, self.auto_template)
        self._row(self.template_form, self.template_min_docs)
        self._row(self.template_form, self.template_min_share)
        self.auto_template.toggled.connect(self.template_min_docs.setEnabled)
        self.auto_template.toggled.connect(self.template_min_share.setEnabled)
        self.template_min_docs.setEnabled(settings.auto_template)
        self.template_min_share.setEnabled(settings.auto_template)
        files_row = QHBoxLayout()
        files_row.addWidget(self.template_files, 1)
        files_buttons = QVBoxLayout()
        files_buttons.addWidget(self.add_template)
        files_buttons.addWidget(self.remove_template)
        files_buttons.addStretch(1)
        files_row.addLayout(files_buttons)
        self.template_files_label = QLabel()
        self.template_form.addRow(self.template_files_label, files_row)
        self.interface_box = QGroupBox()
        self.interface_form = QFormLayout(self.interface_box)
        self._row(self.interface_form, self.language)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        # The settings scroll when the window is short (a small screen, a large text); OK and
        # Cancel stay in view below them.
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.setContentsMargins(0, 0, 0, 0)
        for w in (self.scope_note, self.matching_box, self.index_box, self.template_box, self.interface_box,
                  self.as_defaults):
            inner.addWidget(w)
        inner.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setObjectName("settingsScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.buttons)

    def _row(self, form: QFormLayout, field: QWidget) -> None:
        label = QLabel()
        label.setBuddy(field)
        form.addRow(label, field)
        self._labels[field] = label

    def _label(self, form: QFormLayout, field: QWidget, text: str, tip: str) -> None:
        label = self._labels[field]
        label.setText(text)
        label.setToolTip(tip)
        field.setToolTip(tip)
        field.setAccessibleName(text.rstrip(":："))

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        if self.collection is not None:
            self.scope_note.setText(self.tr(
                "Matching and template text are kept with the collection “{name}”: other collections keep "
                "their own. Index and interface settings apply everywhere.").format(name=self.collection))
        else:
            self.scope_note.setText(self.tr(
                "No collection is open: matching and template settings set here are the defaults every new "
                "collection starts from."))
        self.as_defaults.setText(self.tr("Also use these matching and template settings for new collections"))
        self.matching_box.setTitle(self.tr("Matching"))
        self.index_box.setTitle(self.tr("Index and search"))
        self.template_box.setTitle(self.tr("Template text"))
        self.interface_box.setTitle(self.tr("Interface"))
        self._label(self.matching_form, self.threshold, self.tr("Report pairs from similarity r:"),
                    self.tr("Pairs of the collection at or above this similarity r are listed as duplicates"))
        self._label(self.matching_form, self.min_run, self.tr("Minimum match length (units):"),
                    self.tr("A common passage counts only if it is at least this many characters or words long"))
        self._label(self.matching_form, self.exclude_quotes, self.tr("Quotations:"),
                    self.tr("Leave text in quotation marks out of every figure"))
        self._label(self.matching_form, self.exclude_bibliography, self.tr("Bibliography:"),
                    self.tr("Leave the reference list out of every figure"))
        self.exclude_quotes.setText(self.tr("Exclude quoted text"))
        self.exclude_bibliography.setText(self.tr("Exclude the bibliography"))
        self._label(self.index_form, self.fingerprint_size, self.tr("Fingerprint size (bits):"),
                    self.tr("Larger fingerprints estimate similarity more precisely but take more space"))
        self._label(self.index_form, self.strategy, self.tr("Search strategy:"),
                    self.tr("How candidates are found; every strategy finds the same pairs"))
        self._label(self.index_form, self.workers, self.tr("Worker processes:"),
                    self.tr("How many documents are read and fingerprinted at the same time"))
        self._label(self.index_form, self.dask_address, self.tr("Dask cluster (optional):"),
                    self.tr("Address of a Dask scheduler to index and compare on, e.g. tls://host:8786; empty: this "
                            "computer only. Every document's text is sent to it."))
        for field, text, tip in (
            (self.dask_ca, self.tr("Cluster's CA certificate:"),
             self.tr("The certificate of the authority that signed the scheduler's (PEM); empty: dask's own "
                     "configuration")),
            (self.dask_cert, self.tr("This computer's certificate:"),
             self.tr("This computer's certificate for the cluster, signed by that authority (PEM); empty: dask's "
                     "own configuration")),
            (self.dask_key, self.tr("Its private key:"),
             self.tr("The private key of this computer's certificate (PEM), unless the certificate file holds it")),
        ):
            self._label(self.index_form, field, text, tip)
            field.edit.setAccessibleName(text.rstrip(":："))
            field.choose.setText(self.tr("Choose…"))
            field.title = text.rstrip(":：")
        names = {
            "auto": self.tr("Automatic"),
            "brute": self.tr("Brute force (reference)"),
            "permuted": self.tr("Permuted tables"),
            "grouped": self.tr("Group merging"),
            "lsh": self.tr("LSH buckets"),
        }
        for i in range(self.strategy.count()):
            self.strategy.setItemText(i, names.get(self.strategy.itemData(i), self.strategy.itemData(i)))
        self._label(self.template_form, self.auto_template, self.tr("Automatic template:"),
                    self.tr("Off: count all text except your template files and the passages you marked"))
        self.auto_template.setText(self.tr("Leave out sentences found in most documents (the call's form)"))
        self._label(self.template_form, self.template_min_docs, self.tr("Template if in at least (documents):"),
                    self.tr("A sentence found in at least this many documents is treated as template"))
        self._label(self.template_form, self.template_min_share, self.tr("and at least (share of collection):"),
                    self.tr("... and in at least this share of all documents"))
        self.template_files_label.setText(self.tr("Template files:"))
        self.template_files.setAccessibleName(self.tr("Template files"))
        self.template_files.setToolTip(self.tr("Files whose sentences are template wherever they occur (e.g. the blank application form)"))
        self.add_template.setText(self.tr("Add…"))
        self.remove_template.setText(self.tr("Remove"))
        self._label(self.interface_form, self.language, self.tr("Language:"),
                    self.tr("The language of the interface; the change applies at once"))
        self.language.setItemText(0, self.tr("System default"))
        self.language.setItemText(1, "English")
        self.language.setItemText(2, "简体中文")
        self._update_note()

    def _update_note(self) -> None:
        changed = needs_refingerprint(self.original, self.result_settings())
        self.refingerprint_note.setText(
            self.tr("Changing the fingerprint size re-fingerprints every document from its stored "
                    "text. This runs in the background after you press OK; the files are not read again.")
        )
        self.refingerprint_note.setVisible(changed)

    def _add_template(self) -> None:
        start = last_folder(self.store, "template") if self.store is not None else ""
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Choose template files"), start,
            self.tr("Documents ({patterns});;All files (*)").format(patterns=DIALOG_PATTERNS)
        )
        if paths and self.store is not None:
            remember_folder(self.store, "template", paths[0])
        existing = {self.template_files.item(i).text() for i in range(self.template_files.count())}
        self.template_files.addItems([p for p in paths if p not in existing])

    def _remove_template(self) -> None:
        for item in self.template_files.selectedItems():
            self.template_files.takeItem(self.template_files.row(item))

    def result_settings(self) -> Settings:
        s = self.original
        return s.with_(
            threshold=round(self.threshold.value()) / 100.0,
            min_run=self.min_run.value(),
            strategy=self.strategy.currentData(),
            template_min_docs=self.template_min_docs.value(),
            template_min_share=self.template_min_share.value() / 100.0,
            auto_template=self.auto_template.isChecked(),
            template_files=tuple(self.template_files.item(i).text() for i in range(self.template_files.count())),
            exclude_quotes=self.exclude_quotes.isChecked(),
            exclude_bibliography=self.exclude_bibliography.isChecked(),
            workers=self.workers.value(),
            dask_address=self.dask_address.text().strip(),
            dask_ca=self.dask_ca.text(),
            dask_cert=self.dask_cert.text(),
            dask_key=self.dask_key.text(),
            dask_insecure=self.dask_address.text().strip() == self._insecure_address,
            fingerprints=replace(s.fingerprints, minhash_bits=int(self.fingerprint_size.currentData())),
        )

    def accept(self) -> None:
        """A plain (unencrypted) cluster address on another computer is asked about once: every
        document's text would cross the network readable. No keeps the dialog open."""
        address = self.dask_address.text().strip()
        if plain_remote(address) and address != self._insecure_address:
            answer = QMessageBox.question(
                self, self.tr("Unencrypted cluster"),
                self.tr("{address} is not encrypted and is not this computer: every document's text would cross "
                        "the network, readable by anyone on it. Use the scheduler's TLS address (tls://…) with its "
                        "certificates instead, unless this network is trusted.\n\nSend the texts unencrypted to "
                        "{address}?").format(address=address),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                self.dask_address.setFocus()
                return
            self._insecure_address = address
        super().accept()

    def result_as_defaults(self) -> bool:
        """Whether the collection's values also become the defaults for new collections."""
        return self.collection is None or self.as_defaults.isChecked()

    def result_language(self) -> str:
        return str(self.language.currentData())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)

