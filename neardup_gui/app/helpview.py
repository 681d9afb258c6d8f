"""The help page (F1): what each figure means, how to work, and the keyboard shortcuts."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget


class HelpDialog(QDialog):
    """One page of help in the interface language; re-translated live like every window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpDialog")
        self.browser = QTextBrowser()
        self.browser.setObjectName("helpText")
        self.browser.setOpenExternalLinks(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.resize(760, 680)
        self.retranslate_ui()

    def shortcuts(self) -> list[tuple[str, str]]:
        return [
            ("Ctrl+O", self.tr("Open a folder as a collection")),
            ("Ctrl+K", self.tr("Check files against the collection (or drop them on the window)")),
            ("F5", self.tr("Refresh the collection: read new, changed and deleted files")),
            ("Ctrl+E", self.tr("Export a report of the current tab")),
            ("Ctrl+,", self.tr("Settings")),
            ("Esc", self.tr("Cancel the running task (what is done is kept)")),
            ("Enter", self.tr("Open the chosen result side by side")),
            ("F3 / Shift+F3", self.tr("Side by side: next / previous matched passage (also Ctrl+Down / Ctrl+Up)")),
            ("Ctrl++ / Ctrl+− / Ctrl+0", self.tr("Side by side: larger / smaller / normal text in both panes (also Ctrl+wheel)")),
            ("F1", self.tr("This help")),
            ("Ctrl+Q", self.tr("Quit")),
        ]

    def figures(self) -> list[tuple[str, str]]:
        """Each figure by its one name (docs/glossary.md), and what it means."""
        return [
            (self.tr("Units"), self.tr(
                "The countable words and Chinese characters of a document: without punctuation, without template "
                "text (sentences of the call's form, your template files, page headers and footers) and without "
                "what the settings exclude (quotations, the bibliography). Every share below is a share of them.")),
            (self.tr("Copied"), self.tr(
                "The share of the submission's units found in any source, each passage counted once however many "
                "sources hold it. It is never below the largest single source.")),
            (self.tr("Copied without quotations"), self.tr(
                "Copied, not counting text inside quotation marks. Never above Copied; equal to it when quotations "
                "are excluded in the settings.")),
            (self.tr("Copied without own documents"), self.tr(
                "Copied, not counting the text credited to the applicant's own documents: what a submission of a "
                "screening is flagged by. A submission that is mostly one of its applicant's own documents is "
                "labelled a resubmission / duplicate submission. Applicants come from your CSV or “Set applicant…”, "
                "else from each file's author field.")),
            (self.tr("Decision"), self.tr(
                "Yours, on a pair or on a source of a submission: copying confirmed; permitted (own work, cited, "
                "common knowledge) or not relevant, whose text then leaves the copied share; with a note, printed in "
                "the reports. Kept under the two texts' contents: a text changed since is marked and its decision no "
                "longer applied.")),
            (self.tr("Largest single source"), self.tr(
                "The share of the submission's units found in the one source that holds the most.")),
            (self.tr("Share of the submission"), self.tr(
                "The share of the submission's units found in one source (a row of the Check tab, a source of the "
                "submission view).")),
            (self.tr("Credited"), self.tr(
                "The share of the submission's units credited to one source: a passage several sources hold is "
                "credited to one of them (a document of the collection before a submission of the call, then the "
                "earlier indexed, then the one holding more), so the sources' credited shares add up to Copied.")),
            (self.tr("Similarity r"), self.tr(
                "Identical / (A + B − identical), identical being the units of the identical runs inside the "
                "passages two texts share in order (runs of at least the minimum match length and the shorter ones "
                "between them, across small edits). 100 % means the same text; passages that moved count in A in "
                "B, not here.")),
            (self.tr("A in B"), self.tr(
                "The share of A's units found in B (B in A: the other way). A short text copied whole into a long "
                "one has a high A in B and a low similarity r.")),
            (self.tr("Contained"), self.tr("The larger of A in B and B in A.")),
            (self.tr("Identical units"), self.tr("The units inside the identical runs two texts share: what the "
                                                 "similarity r counts.")),
            (self.tr("Copied units"), self.tr("How many units of a submission (or of a section) lie in copied "
                                              "passages.")),
            (self.tr("Template share"), self.tr("The share of a document that is template text (shown grey, never "
                                                "counted).")),
            (self.tr("Flag line"), self.tr("A screened submission whose copied share reaches this line is "
                                           "flagged.")),
            (self.tr("Hide sources below"), self.tr(
                "An option of the Check tab, off at first: hides the sources whose similarity r and share of the "
                "submission are both below the value. Hidden sources still count in Copied, and the tab says how "
                "many are hidden.")),
        ]

    def html(self) -> str:
        rows = "".join(f"<tr><td><b>{escape(k)}</b></td><td>{escape(v)}</td></tr>" for k, v in self.shortcuts())
        terms = "".join(f"<dt><b>{escape(k)}</b></dt><dd>{escape(v)}</dd>" for k, v in self.figures())
        work = self.tr(
            "Open a folder of submissions: it is indexed once, then only changes are read. The Duplicates and "
            "Clusters tabs list near-duplicates inside the collection; drop a new file on the window to check it "
            "against the collection. Double-click any result to see both texts side by side. Matching and template "
            "settings are kept with each collection; new collections start from the defaults.")
        title = self.tr("neardup help")
        meaning = self.tr("What the figures mean")
        keys = self.tr("Keyboard shortcuts")
        return (f"<h2>{escape(title)}</h2><p>{escape(work)}</p>"
                f"<h3>{escape(meaning)}</h3><dl>{terms}</dl>"
                f"<h3>{escape(keys)}</h3><table cellspacing='0' cellpadding='4'>{rows}</table>")

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("neardup help"))
        self.browser.setAccessibleName(self.tr("Help"))
        self.browser.setHtml(self.html())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
