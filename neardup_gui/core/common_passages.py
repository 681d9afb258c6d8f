"""Common passages: every run of sentences that recurs in many documents, and what is done with it.

The examiner sees here everything that may be ignored and why. A passage is a run of
consecutive sentences of one document, each found in at least ``min_docs`` documents of the
collection, holding sentences shared by (nearly) the same documents, together with the other
such runs held by (nearly) the same documents (a form's parts between the applicants' answers);
its status says what the comparison does with it:

- ``template-file``: a sentence of the examiner's template files;
- ``marked``: the examiner marked it as template (stored in the index, reversible);
- ``automatic``: the automatic rule takes it out (in at least ``template_min_docs`` documents
  and ``template_min_share`` of the collection: the call's form);
- ``counted``: it counts, as copying does (below the automatic rule; frequent enough for it, but
  the documents holding it are copies of one another: ``copied``; or the examiner chose to count
  it: ``by_examiner``).

One action per passage: exclude it (a mark ``exclude``) or count it (a mark ``count``).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from neardup_gui.core.progress import ProgressFn, count_noun, no_progress
from neardup_gui.core.settings import Settings
from neardup_gui.core.templates import SAME_DOCUMENTS, sentence_keys

if TYPE_CHECKING:
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.store import Store

log = logging.getLogger(__name__)

# Consecutive frequent sentences belong to one passage when the documents holding them are
# nearly the same (Jaccard similarity of the two sets of documents at least SAME_DOCUMENTS): the
# form's sentences stay one passage although a few applicants deleted one instruction or another.
NAMES_SHOWN = 5  # document names listed per passage
PART_SEPARATOR = "\n…\n"  # between the parts of one passage (a form between the answers)

STATUSES = ("template-file", "marked", "automatic", "counted")


@dataclass(frozen=True)
class CommonPassage:
    """A passage recurring in many documents, as the common-passages list shows it."""

    id: str  # stable: the hex of its first sentence's key
    text: str  # as it stands in the first document holding it (parts joined by PART_SEPARATOR)
    keys: tuple[int, ...]  # its sentences' keys, in text order
    documents: int  # documents holding at least one of its sentences
    share: float  # documents / indexed documents
    names: tuple[str, ...]  # a few of those documents (relative paths)
    status: str  # one of STATUSES
    by_examiner: bool = False  # the status is the examiner's choice (marked, or counted on purpose)
    mark_ids: tuple[int, ...] = ()  # the examiner's marks deciding it (to undo them)
    copied: bool = False  # counted though frequent enough for the automatic rule: its documents copy one another


def _jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    if not (a or b):
        return 1.0
    shared = len(a & b)  # (the union's size by arithmetic: the same number, without building it)
    return shared / (len(a) + len(b) - shared)


def alike_groups(sets: list[frozenset[int]], same: float = SAME_DOCUMENTS) -> list[int]:
    """For each set in turn, the group it joins: the first group whose first set is alike to it
    (Jaccard similarity at least ``same``), or a new one. Groups are numbered in the order they
    are opened.

    The groups of comparing each set with every group's first set in turn, found without that
    quadratic scan (millions of comparisons for a few thousand passages) by
    prefix filtering (Chaudhuri et al. 2006; Bayardo et al.'s All-Pairs, 2007): with the elements
    in one fixed order, rarest first, two sets of Jaccard similarity at least t share an element
    among the first |S| − ⌈t·|S|⌉ + 1 of each (their overlap is at least t·|S| for both). Each
    group's first set is filed under the elements of its prefix; a set is compared with the groups
    filed under its own prefix's elements only, in their order, by the same test as before.
    """
    if same <= 0:  # every set is alike to the first (disjoint ones too: no shared element to file by)
        return [0] * len(sets)
    frequency = Counter(d for s in sets for d in s)
    index: dict[int, list[int]] = {}  # element -> the groups whose first set's prefix holds it
    firsts: list[frozenset[int]] = []
    empty_group = -1  # (an empty set is alike only to another: 0 / n otherwise)
    out: list[int] = []
    for s in sets:
        if not s:
            if empty_group < 0:
                empty_group = len(firsts)
                firsts.append(s)
            out.append(empty_group)
            continue
        # (the ceiling a hair low: a longer prefix is always safe, a float rounding up never cuts it)
        prefix = sorted(s, key=lambda d: (frequency[d], d))[:len(s) - math.ceil(same * len(s) - 1e-9) + 1]
        candidates = sorted({g for d in prefix for g in index.get(d, ())})
        # (Jaccard similarity is at most the ratio of the sizes: a group whose first set is too
        # large or too small is passed over without its intersection, as the test would be)
        n = len(s)
        group = next((g for g in candidates
                      if min(n, len(firsts[g])) / max(n, len(firsts[g])) >= same and _jaccard(firsts[g], s) >= same), -1)
        if group < 0:
            group = len(firsts)
            firsts.append(s)
            for d in prefix:
                index.setdefault(d, []).append(group)
        out.append(group)
    return out


def passage_status(keys: tuple[int, ...], *, file_keys: frozenset[int], marked: frozenset[int],
                   counted: frozenset[int], automatic: frozenset[int]) -> tuple[str, bool]:
    """(status, by_examiner) of a passage: the status most of its sentences have (ties go to the
    stronger reason: template file, then the examiner's mark, then the automatic rule)."""
    votes = {status: 0 for status in STATUSES}
    examiner = 0
    for k in keys:
        if k in file_keys:
            votes["template-file"] += 1
        elif k in marked:
            votes["marked"] += 1
            examiner += 1
        elif k in counted:
            votes["counted"] += 1
            examiner += 1
        elif k in automatic:
            votes["automatic"] += 1
        else:
            votes["counted"] += 1
    status = max(STATUSES, key=lambda s: (votes[s], -STATUSES.index(s)))
    return status, status in ("marked", "counted") and examiner * 2 >= len(keys)


# A part of a common passage: (keys, text, documents) of one run of sentences
_Part = tuple[tuple[int, ...], str, frozenset[int]]


def _reading_order(holders: dict[int, frozenset[int]]) -> tuple[dict[int, list[int]], list[int]]:
    """The frequent sentences of each document, and the documents holding the most of them
    first (the order in which they are read to spell the passages)."""
    held: dict[int, list[int]] = {}  # the frequent sentences of each document
    for k, docs in holders.items():
        for d in docs:
            held.setdefault(d, []).append(k)
    order = sorted(held, key=lambda d: (-len(held[d]), d))
    return held, order


def _runs_of(text: str, unplaced: set[int],
             holders: dict[int, frozenset[int]]) -> list[list[tuple[tuple[int, int], int]]]:
    """The runs of sentences of one document's text still to place, as (span, key) lists: a
    run is cut where a sentence is held by other documents than the run's first."""
    runs: list[list[tuple[tuple[int, int], int]]] = []
    current: list[tuple[tuple[int, int], int]] = []
    taken: set[int] = set()  # a sentence repeated in this document is placed once
    for span, key in sentence_keys(text):
        fits = key in unplaced and key not in taken
        if fits and current and _jaccard(holders[current[0][1]], holders[key]) < SAME_DOCUMENTS:
            runs.append(current)
            current = []
        if fits:
            current.append((span, key))
            taken.add(key)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _spell(store: Store, holders: dict[int, frozenset[int]], held: dict[int, list[int]], order: list[int],
           progress: ProgressFn) -> list[_Part]:
    """Spell the passages from the documents holding the most frequent sentences first: every
    sentence is placed once, in the first document read that holds it."""
    unplaced = set(holders)
    raw: list[_Part] = []  # (keys, text, documents) of each run
    # A document holding no sentence left to place would add nothing: it is not read. (Every
    # document was read until the last sentence was placed: 9,771 of the generated 10,000, of
    # which 666 placed a sentence; the same passages.)
    read = 0
    for doc_id in order:
        if not unplaced:
            break
        if unplaced.isdisjoint(held[doc_id]):
            continue
        read += 1
        progress(1.0 - len(unplaced) / max(len(holders), 1),
                 f"Finding common passages ({count_noun(read, 'document')} read)")
        try:
            text = store.text(doc_id).text
        except KeyError:
            continue
        for run in _runs_of(text, unplaced, holders):
            keys = tuple(k for _, k in run)
            unplaced.difference_update(keys)
            raw.append((keys, text[run[0][0][0]:run[-1][0][1]], frozenset().union(*(holders[k] for k in keys))))
    return raw


def _group_parts(raw: list[_Part]) -> list[list[_Part]]:
    """The parts of one form lie between the applicants' answers; parts held by (nearly) the same
    documents are one entry, so that a form is one click however it is cut up."""
    groups: list[list[_Part]] = []
    for part, g in zip(raw, alike_groups([part[2] for part in raw])):
        if g == len(groups):
            groups.append([part])
        else:
            groups[g].append(part)
    return groups


def _marks_not_listed(store: Store, passages: list[CommonPassage], indexed: int, rel: dict[int, str]) -> list[CommonPassage]:
    """The examiner's marks are always listed (and can be undone here), however few documents
    hold their text: the passages of the marks whose sentences are not listed yet."""
    extra: list[CommonPassage] = []
    listed = {k for p in passages for k in p.keys}
    for mark in store.template_marks():
        keys = tuple(k for k in mark.keys if k not in listed)
        if not keys:
            continue
        docs = frozenset().union(*(frozenset(v) for v in store.sentence_documents(list(keys)).values()))
        extra.append(CommonPassage(
            id=f"{keys[0] & 0xFFFFFFFFFFFFFFFF:016x}", text=mark.text, keys=keys, documents=len(docs),
            share=len(docs) / indexed if indexed else 0.0,
            names=tuple(sorted(rel.get(d, str(d)) for d in docs)[:NAMES_SHOWN]),
            status="marked" if mark.action == "exclude" else "counted", by_examiner=True, mark_ids=(mark.id,)))
        listed.update(keys)
    return extra


def common_passages(collection: Collection, settings: Settings, *, min_docs: int | None = None,
                    progress: ProgressFn = no_progress) -> list[CommonPassage]:
    """Every passage found in at least ``min_docs`` documents (default: ``template_min_docs``),
    most widespread first, with its status under ``settings``.

    ``collection``: an open :class:`~neardup_gui.core.collection.Collection`. Reads the
    sentence tables of the index, and the text of just enough documents to spell every passage.
    """
    from neardup_gui.core.collection import user_template_keys  # (collection imports this module's users)

    store = collection.store
    floor = max(2, min_docs if min_docs is not None else settings.template_min_docs)
    indexed = store.count("indexed")
    frequency = store.sentence_frequencies(floor)
    progress(0.0, "Finding common passages")
    holders = {k: frozenset(v) for k, v in store.sentence_documents(list(frequency)).items()}
    file_keys = user_template_keys(settings)
    marked, counted = store.marked_keys()
    automatic = frozenset(int(k) for k in collection.template_keys(settings.with_(auto_template=True))) \
        if settings.auto_template else frozenset()
    copied = collection.copied_keys(collection.template_min_frequency(settings)) \
        if settings.auto_template else frozenset()
    marks_of: dict[int, list[int]] = {}
    for mark in store.template_marks():
        for k in mark.keys:
            marks_of.setdefault(k, []).append(mark.id)

    held, order = _reading_order(holders)
    rel = {d.id: d.rel for d in store.documents()}
    raw = _spell(store, holders, held, order, progress)
    groups = _group_parts(raw)
    passages: list[CommonPassage] = []
    for group in groups:
        keys = tuple(k for part in group for k in part[0])
        docs = frozenset().union(*(part[2] for part in group))
        status, by_examiner = passage_status(keys, file_keys=file_keys, marked=marked, counted=counted,
                                             automatic=automatic)
        passages.append(CommonPassage(
            id=f"{keys[0] & 0xFFFFFFFFFFFFFFFF:016x}", text=PART_SEPARATOR.join(part[1] for part in group),
            keys=keys, documents=len(docs), share=len(docs) / indexed if indexed else 0.0,
            names=tuple(sorted(rel.get(d, str(d)) for d in docs)[:NAMES_SHOWN]),
            status=status, by_examiner=by_examiner,
            mark_ids=tuple(sorted({m for k in keys for m in marks_of.get(k, ())})),
            copied=status == "counted" and not by_examiner and sum(k in copied for k in keys) * 2 > len(keys),
        ))
    passages.extend(_marks_not_listed(store, passages, indexed, rel))
    passages.sort(key=lambda p: (-p.documents, -len(p.text), p.id))
    progress(1.0, "Common passages found")
    return passages


def find_passage(passages: list[CommonPassage], passage_id: str) -> CommonPassage:
    """The passage of that id (a prefix of it is enough when it is unique); KeyError otherwise."""
    exact = [p for p in passages if p.id == passage_id]
    found = exact or [p for p in passages if p.id.startswith(passage_id.lower())]
    if len(found) != 1:
        raise KeyError(passage_id)
    return found[0]


def set_passage(collection: Collection, passage: CommonPassage, action: str) -> int:
    """Exclude (``exclude``) or count (``count``) a common passage: one mark in the index."""
    return collection.mark_keys(passage.keys, passage.text, action)


def exclusion_rules(collection: Collection, settings: Settings) -> dict:
    """Which exclusions apply under ``settings``, in words a report can print and JSON can carry."""
    marks = collection.store.template_marks() if collection is not None else []
    return {
        "template_files": list(settings.template_files),
        "marked": sum(m.action == "exclude" for m in marks),
        "counted": sum(m.action == "count" for m in marks),
        "automatic": settings.auto_template,
        "automatic_min_docs": settings.template_min_docs,
        "automatic_min_share": settings.template_min_share,
        "automatic_min_frequency": (collection.template_min_frequency(settings)
                                    if collection is not None and settings.auto_template else None),
        "quotes": settings.exclude_quotes,
        "bibliography": settings.exclude_bibliography,
        "furniture": True,
    }
