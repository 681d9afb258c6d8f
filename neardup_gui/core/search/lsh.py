"""LSH buckets over MinHash band keys (LSH banding): candidates share at least one band key.

NOT exact, unlike the Hamming strategies: LSH is probabilistic by design. A pair of Jaccard
similarity s shares at least one of b bands of r rows with probability 1 − (1 − s^r)^b, so
pairs above the threshold the bands were derived from are found with high probability but not
always, and pairs below it may still come back. Candidates must be verified. What the tests
prove is the bucket logic itself: exactly the stored documents with a common band key are
returned, with the number of keys they share.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import numpy as np

from neardup_gui.core.search.base import DeltaStore, as_rows, index_dtype

log = logging.getLogger(__name__)


class LshSearch(DeltaStore):
    """All band keys of all documents in ONE sorted array; a query is one vectorised lookup.

    Each sorted key remembers its (row, band), and a hit counts only in its own band, so one
    array serves every band: the b lookups of a query are a single
    ``searchsorted`` rather than b dictionary or table probes, and the memory is one key and
    one row index per (document, band) instead of a hash table of Python objects.
    """

    name: ClassVar[str] = "lsh"
    max_radius = None

    def __init__(self, bands: int) -> None:
        super().__init__(bands)
        self.bands = bands
        self._keys = np.empty(0, dtype=np.uint64)
        self._order = np.empty(0, dtype=np.int32)  # row · bands + band of each sorted key

    def _params(self) -> dict[str, Any]:
        return {"bands": self.bands}

    @classmethod
    def _constructor_args(cls) -> tuple[str, ...]:
        return ("bands",)

    def _build_index(self) -> None:
        flat = self._rows.reshape(-1)
        order = np.argsort(flat)
        self._keys = flat[order]
        # position in the flattened (n, bands) matrix: row · bands + band
        self._order = order.astype(index_dtype(self._rows.size))

    def _index_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        return {}, {"keys": self._keys, "order": self._order}

    def _load_index(self, arrays: dict[str, np.ndarray]) -> None:
        self._keys, self._order = arrays["keys"], arrays["order"]

    def query(self, band_keys: np.ndarray, min_shared: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Stored docs sharing ≥ ``min_shared`` band keys: (doc ids, shared counts), most first."""
        q = as_rows(np.asarray(band_keys, dtype=np.uint64).reshape(1, -1), self.bands)[0]
        lo = np.searchsorted(self._keys, q, side="left")
        hi = np.searchsorted(self._keys, q, side="right")
        lengths = hi - lo
        total = int(lengths.sum())
        ramp = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        where = self._order[np.repeat(lo, lengths) + ramp]
        # a key only counts in its own band (real keys never collide across bands, but the
        # structure stays exact whatever the keys are)
        same_band = where % self.bands == np.repeat(np.arange(self.bands), lengths)
        rows, counts = np.unique(where[same_band] // self.bands, return_counts=True)
        ids, counts = self._drop_removed(self._ids[rows], counts.astype(np.int64))
        if len(self._pending_ids):
            pcounts = (self._pending_rows == q).sum(axis=1, dtype=np.int64)
            hit = pcounts > 0
            ids = np.concatenate([ids, self._pending_ids[hit]])
            counts = np.concatenate([counts, pcounts[hit]])
        keep = counts >= min_shared
        ids, counts = ids[keep], counts[keep]
        order = np.lexsort((ids, -counts))
        return ids[order], counts[order]

    def query_many(self, band_keys: np.ndarray, min_shared: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
        return [self.query(q, min_shared) for q in as_rows(band_keys, self.bands)]
