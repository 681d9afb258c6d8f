"""The Clusters tab: groups of near-duplicates, each around a representative."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView, QVBoxLayout, QWidget

from neardup_gui.app.models import RECORD_ROLE, percent
from neardup_gui.core.results import Cluster


class ClustersView(QWidget):
    """A tree: one row per cluster, its members below with their similarity to the representative."""

    member_activated = Signal(int, int)  # representative doc_id, member doc_id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clustersTab")
        self.clusters: list[Cluster] = []
        self.model = QStandardItemModel(self)
        self.view = QTreeView()
        self.view.setObjectName("clustersView")
        self.view.setModel(self.model)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.activated.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        self.retranslate_ui()

    def set_clusters(self, clusters: Sequence[Cluster]) -> None:
        self.clusters = list(clusters)
        self._fill()

    def reset(self) -> None:
        self.set_clusters(())

    def _activated(self, index: QModelIndex) -> None:
        data = index.data(RECORD_ROLE)
        if not data or data[0] != "member":
            return
        cluster = self.clusters[data[1]]
        if data[2] != cluster.representative.doc_id:
            self.member_activated.emit(cluster.representative.doc_id, data[2])

    def _fill(self) -> None:
        model = self.model
        model.clear()
        model.setHorizontalHeaderLabels([self.tr("Cluster / document"), self.tr("Similarity to representative")])
        for i, cluster in enumerate(self.clusters, 1):
            rep = cluster.representative
            top = QStandardItem(self.tr("Cluster {i}: {n} documents, around {name}").format(
                i=i, n=len(cluster.members), name=rep.rel or rep.path))
            top.setData(("cluster", i - 1), RECORD_ROLE)
            blank = QStandardItem("")
            for member, sim in zip(cluster.members, cluster.similarities or (1.0,) * len(cluster.members)):
                name = QStandardItem(member.rel or member.path)
                name.setToolTip(member.path)
                name.setData(("member", i - 1, member.doc_id), RECORD_ROLE)
                score = QStandardItem(self.tr("representative") if member.doc_id == rep.doc_id else percent(sim))
                score.setData(("member", i - 1, member.doc_id), RECORD_ROLE)
                top.appendRow([name, score])
            model.appendRow([top, blank])
        self.view.expandAll()
        self.view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

    def retranslate_ui(self) -> None:
        self.view.setAccessibleName(self.tr("Clusters"))
        self.view.setToolTip(self.tr("Double-click a member or press Enter to compare it with the representative"))
        self._fill()
