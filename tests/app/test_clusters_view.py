"""The Clusters tab made again (every refresh, a change of language): one matrix shown, the one
of the cluster the examiner was looking at.

Found by timing the real window on 10,000 copy-heavy documents: each refresh held the GUI thread
for 5–7 s in the Clusters tab. Emptying the tree moved its current row once per row removed, and
each move drew that row's matrix of every pair (889 matrices); the examiner's cluster was then
replaced by the first ring."""

from __future__ import annotations

from neardup_gui.app.clustersview import ClustersView
from neardup_gui.app.models import RECORD_ROLE, percent
from neardup_gui.core.results import Cluster, DocumentInfo


def _doc(i: int) -> DocumentInfo:
    return DocumentInfo(doc_id=i, path=f"/archive/p{i:04d}.txt", rel=f"p{i:04d}.txt", size=100, sha256="",
                        status="indexed", units=100)


def _clusters(n: int, skip: int | None = None) -> list[Cluster]:
    """``n`` rings of three documents (representative 3k), the ``skip``-th left out."""
    out = []
    for k in range(n):
        if k == skip:
            continue
        members = tuple(_doc(3 * k + j) for j in range(3))
        out.append(Cluster(members[0], members, (1.0, 0.9, 0.85),
                           ((1.0, 0.9, 0.85), (0.9, 1.0, 0.8), (0.85, 0.8, 1.0)), ring=True))
    return out


def _count_matrices(view: ClustersView) -> list[int]:
    drawn: list[int] = []
    draw = view._show_pairwise

    def counted() -> None:
        drawn.append(1)
        draw()

    view._show_pairwise = counted  # (what the current row's changes and the filling call)
    return drawn


def test_a_refresh_draws_one_matrix_and_keeps_the_cluster_shown(qtbot) -> None:
    view = ClustersView()
    qtbot.addWidget(view)
    view.show()
    drawn = _count_matrices(view)
    view.set_clusters(_clusters(300))
    assert len(drawn) == 1  # (the first ring's)
    assert view.current_cluster().representative.doc_id == 0

    # the examiner looks at the 200th cluster; a refresh (one cluster before it gone) keeps it
    view.view.setCurrentIndex(view.model.index(199, 0))
    assert view.current_cluster().representative.doc_id == 3 * 199
    drawn.clear()
    view.set_clusters(_clusters(300, skip=10))
    assert len(drawn) == 1  # (before: 103, as the current row moved through the rows removed)
    assert view.current_cluster().representative.doc_id == 3 * 199
    assert view.pairwise.rowCount() == 3 and view.pairwise.item(0, 1).text() == percent(0.9)

    # a member row selected: its cluster stays shown
    member = view.model.index(2, 0, view.model.index(50, 0))
    assert member.data(RECORD_ROLE)[0] == "member"
    view.view.setCurrentIndex(member)
    rep = view.current_cluster().representative.doc_id
    drawn.clear()
    view.set_clusters(_clusters(300, skip=10))
    assert len(drawn) == 1 and view.current_cluster().representative.doc_id == rep

    # a cluster that is gone: the first ring again
    drawn.clear()
    view.set_clusters([c for c in _clusters(300, skip=10) if c.representative.doc_id != rep])
    assert len(drawn) == 1 and view.current_cluster().representative.doc_id == 0

    # nothing left: no matrix, and its message
    view.set_clusters([])
    assert view.pairwise.rowCount() == 0 and view.current_cluster() is None


def test_a_pair_not_compared_is_said_to_be_below_the_threshold(qtbot) -> None:
    """In a cluster too large to compare every pair (more than RING_MAX_COMPARE documents), a pair
    below the pairs list's threshold is not known: it read "<20%" (a floor of long ago), though
    it may be anything below the threshold."""
    view = ClustersView()
    qtbot.addWidget(view)
    members = tuple(_doc(j) for j in range(3))
    cluster = Cluster(members[0], members, (1.0, 0.9, 0.85), ((1.0, 0.9, 0.85), (0.9, 1.0, None), (0.85, None, 1.0)))
    view.set_clusters([cluster], 0.7)
    assert view.pairwise.item(1, 2).text() == "<" + percent(0.7) == view.pairwise.item(2, 1).text()
    assert "not compared" in view.pairwise.item(1, 2).toolTip()
    assert view.pairwise.item(0, 1).text() == percent(0.9) and "not compared" not in view.pairwise.item(0, 1).toolTip()
