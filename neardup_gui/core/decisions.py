"""The examiner's decisions on what was found: copying confirmed, permitted, or not relevant.

A decision is taken on two texts — a pair of the collection, or a submission and one of its
sources — and kept under their contents (sha256), so it holds wherever the files are and however
often the index is refreshed or rebuilt (:mod:`neardup_gui.core.store.examiner`). When either
text changes, the decision found by the two files' paths is marked "text changed since" and no
longer applied: what it was taken on is not what is there now.

Applied to the figures as it says: *confirmed* copying counts as before; *permitted* text (the
applicant's own work, cited, common knowledge) and text *not relevant* leave the copied share and
are listed apart, as excluded template text is.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Iterable

from neardup_gui.core.results import (
    CITED, COMMON_KNOWLEDGE, CONFIRMED, DECISION_CHOICES, NOT_RELEVANT, OWN_WORK, PERMITTED, Decision,
)
from neardup_gui.core.store import Store, examiner

__all__ = ["CHOICES", "CITED", "COMMON_KNOWLEDGE", "CONFIRMED", "NOT_RELEVANT", "OWN_WORK", "PERMITTED", "Decision",
           "DecisionBook", "decide"]

log = logging.getLogger(__name__)

VERDICTS = examiner.VERDICTS
REASONS = examiner.REASONS
CHOICES = DECISION_CHOICES


class DecisionBook:
    """Every decision, read once from the index; the decision on two texts."""

    def __init__(self, rows: Iterable[examiner.DecisionRow]) -> None:
        self._by_content: dict[tuple[str, str], Decision] = {}
        self._by_paths: dict[tuple[str, str], tuple[tuple[str, str], Decision]] = {}
        for sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, at in rows:
            d = Decision(verdict, reason, note, at, (path_lo, path_hi))
            self._by_content[(sha_lo, sha_hi)] = d
            self._by_paths[(path_lo, path_hi)] = self._by_paths[(path_hi, path_lo)] = ((sha_lo, sha_hi), d)

    @classmethod
    def load(cls, store: Store) -> "DecisionBook":
        return cls(examiner.decision_rows(store))

    def __len__(self) -> int:
        return len(self._by_content)

    def on(self, a: tuple[str, str], b: tuple[str, str]) -> Decision | None:
        """The decision on the texts ``a`` and ``b`` (``(sha256, path)`` each): taken on these very
        texts, or taken on these two files before one of them changed (``changed``); None."""
        if not a[0] or not b[0]:
            return None
        found = self._by_content.get(tuple(sorted((a[0], b[0]))))
        if found is not None:
            return found
        by_paths = self._by_paths.get((a[1], b[1]))
        if by_paths is None:
            return None
        return dataclasses.replace(by_paths[1], changed=True)


def decide(store: Store, a: tuple[str, str], b: tuple[str, str], choice: str | None, note: str = "") -> Decision | None:
    """Record the examiner's ``choice`` (a key of :data:`CHOICES`) on texts ``a`` and ``b``
    (``(sha256, path)`` each), replacing an earlier decision on them; None takes it back."""
    if choice is None:
        examiner.remove_decision(store, a, b)
        return None
    if choice not in CHOICES:
        raise ValueError(f"a decision is one of {', '.join(CHOICES)}, not {choice!r}")
    verdict, reason = CHOICES[choice]
    at = examiner.put_decision(store, a, b, verdict, reason, note.strip())
    return Decision(verdict, reason, note.strip(), at, (a[1], b[1]))
