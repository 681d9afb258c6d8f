"""Fingerprint group merging ("alg.H" of Yuan, Long, Zhang and Gui): one index, radius per query.

The k bits are split into m groups A_1..A_m of at most g bits (C = 2^g). Group i of a document
is mapped to y_i = (i − 1)·C + A_i, so all groups share one key space and ONE index: a posting
list of document rows per key y (built with a counting sort: per group a radix argsort of the
narrow values, then offsets from the counts). A query looks up its own y_1..y_m, counts how
often each row appears, and keeps rows with count ≥ m − r_h: two fingerprints within r_h differ
in at most r_h groups, so they share at least m − r_h of them (pigeonhole) and nothing within
the radius is missed. The exact Hamming check removes the rest. Because the filter is a count,
the radius can change at query time without rebuilding, for any r_h < m.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import numpy as np

from neardup_gui.core.arrays import distinct
from neardup_gui.core.search.base import HammingBase, bit_field, index_dtype, key_dtype, query_int

try:  # the compiled count filter (core/_kernels.c: group_hits); numpy below otherwise
    from neardup_gui.core import _kernels
except ImportError:  # pragma: no cover - a build without the compiled parts
    _kernels = None

log = logging.getLogger(__name__)

MAX_GROUP_BITS = 16  # C = 2^16 keys per group at most: the offsets stay small


def group_layout(bits: int, max_radius: int, group_bits: int | None = None) -> tuple[tuple[int, int], ...]:
    """Groups as (first bit, width): m ≥ max_radius + 1 groups of nearly equal width ≤ g."""
    if max_radius < 0 or max_radius >= bits:
        raise ValueError(f"max_radius must be in [0, {bits}), not {max_radius}")
    if group_bits is None:
        group_bits = max(1, min(MAX_GROUP_BITS, bits // (max_radius + 1)))
    if not 1 <= group_bits <= MAX_GROUP_BITS:
        raise ValueError(f"group width must be 1..{MAX_GROUP_BITS} bits, not {group_bits}")
    m = -(-bits // group_bits)
    if m <= max_radius:
        raise ValueError(f"{m} groups of {group_bits} bits cannot serve radius {max_radius} (need r_h < m)")
    base, extra = divmod(bits, m)
    groups, start = [], 0
    for i in range(m):
        width = base + (1 if i < extra else 0)
        groups.append((start, width))
        start += width
    return tuple(groups)


class GroupedSearch(HammingBase):
    """Alg.H of Yuan et al.: exact for any radius below the number of groups, chosen per query."""

    name: ClassVar[str] = "grouped"

    def __init__(self, bits: int, max_radius: int, group_bits: int | None = None) -> None:
        self.groups = group_layout(bits, max_radius, group_bits)
        # the radius may change per query up to m − 1; max_radius only shaped the groups
        super().__init__(bits, len(self.groups) - 1)
        self.group_bits = max(w for _, w in self.groups)
        self.span = 1 << self.group_bits  # C
        self._postings = np.empty(0, dtype=np.int32)  # rows, sorted by y, then by row
        self._offsets = np.zeros(len(self.groups) * self.span + 1, dtype=np.int64)

    def _params(self) -> dict[str, Any]:
        return {**super()._params(), "group_bits": self.group_bits}

    @classmethod
    def _constructor_args(cls) -> tuple[str, ...]:
        return ("bits", "max_radius", "group_bits")

    def _build_index(self) -> None:
        n = len(self._rows)
        m, span = len(self.groups), self.span
        idx = index_dtype(n)
        narrow = key_dtype(self.group_bits)
        postings = np.empty(m * n, dtype=idx)
        offsets = np.empty(m * span + 1, dtype=np.int64)
        offsets[0] = 0
        for i, (start, width) in enumerate(self.groups):
            values = bit_field(self._rows, start, width).astype(narrow)
            # stable radix sort of 8/16-bit values: rows ascend inside each key
            postings[i * n : (i + 1) * n] = np.argsort(values, kind="stable")
            counts = np.bincount(values, minlength=span)
            offsets[i * span + 1 : (i + 1) * span + 1] = i * n + np.cumsum(counts)
        self._postings, self._offsets = postings, offsets

    def _index_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        return {}, {"postings": self._postings, "offsets": self._offsets}

    def _load_index(self, arrays: dict[str, np.ndarray]) -> None:
        self._postings, self._offsets = arrays["postings"], arrays["offsets"]

    def _check_index(self) -> None:
        n, m = len(self._rows), len(self.groups)
        offsets, postings = self._offsets, self._postings
        starts = np.arange(m + 1) * self.span  # group i's keys start at i·C and its postings at i·n
        if (offsets.ndim != 1 or len(offsets) != m * self.span + 1 or len(postings) != m * n
                or not np.array_equal(offsets[starts], np.arange(m + 1) * n) or bool(np.any(np.diff(offsets) < 0))):
            raise ValueError("grouped search: its offsets and postings do not hold together")
        if len(postings) and (int(postings.min()) < 0 or int(postings.max()) >= n):
            raise ValueError("grouped search: a posting outside the table")

    def query_keys(self, fp: np.ndarray) -> np.ndarray:
        """y_i = (i − 1)·C + A_i of a query fingerprint, one per group."""
        q = query_int(np.asarray(fp, dtype=np.uint64).reshape(-1))
        span = self.span
        return np.array([i * span + ((q >> s) & ((1 << w) - 1)) for i, (s, w) in enumerate(self.groups)], dtype=np.int64)

    def _candidate_rows(self, fp: np.ndarray, radius: int) -> np.ndarray | None:
        need = len(self.groups) - radius  # count(doc) ≥ m − r_h
        y = self.query_keys(fp)
        if _kernels is not None and self._postings.dtype in (np.int32, np.int64) and self._offsets.dtype == np.int64:
            # the same rows in C, counted in place (the pass queries every document, and sorting
            # the postings its groups list to count them would be most of a query's time)
            return np.frombuffer(_kernels.group_hits(self._postings, self._offsets, y, need, len(self._rows)),
                                 dtype=np.int64)
        lo, hi = self._offsets[y], self._offsets[y + 1]
        pieces = [self._postings[a:b] for a, b in zip(lo.tolist(), hi.tolist()) if b > a]
        if len(pieces) < need:
            return np.empty(0, dtype=np.int64)
        hits = np.concatenate(pieces)
        if need <= 1:
            return distinct(hits)
        hits.sort()  # the default (SIMD introsort) beats a merge of the m ascending runs
        starts = np.flatnonzero(np.concatenate(([True], hits[1:] != hits[:-1])))
        counts = np.diff(np.append(starts, len(hits)))
        return hits[starts[counts >= need]]

    def candidate_count(self, fp: np.ndarray, radius: int) -> int:
        """Rows handed to the exact check (the query cost Yuan et al. compare)."""
        rows = self._candidate_rows(np.asarray(fp, dtype=np.uint64).reshape(-1), radius)
        return len(self._rows) if rows is None else len(rows)

    def postings_scanned(self, fp: np.ndarray) -> int:
        """m·n_g: postings read by one query (O(m log(mn) + m·n_g) in Yuan et al.)."""
        y = self.query_keys(np.asarray(fp, dtype=np.uint64).reshape(-1))
        return int((self._offsets[y + 1] - self._offsets[y]).sum())
