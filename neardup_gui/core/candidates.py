"""Candidate sources of a document, from every search strategy, before exact verification.

Each strategy proposes documents; the union is verified by LCS. The strategies:

- ``anchors``: winnowing anchors shared with the document's countable text (finds partial copies
  of at least ``anchor_guarantee`` units whatever the overall similarity; our addition);
- ``minhash``: 1-bit minwise fingerprints within the Hamming radius of the estimate floor
  (seed 000), searched with the configured strategy (brute, permuted = alg.G, grouped = alg.H);
- ``simhash``: 64-bit simhash within Hamming distance 3 (seed 002, Manku's permuted tables);
- ``lsh``: a shared MinHash LSH band key (seed 001);
- ``sentences``: a shared seed-004 sentence fingerprint ("perhaps-similar").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from neardup_gui.core.fingerprints import Fingerprints, anchors, estimate_similarity, hamming_radius
from neardup_gui.core.search import make_search
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store

log = logging.getLogger(__name__)

# Estimated shingle resemblance below which the minhash search does not look: the LCS ratio we
# report is far above the 4-shingle resemblance for lightly edited text, so the floor is low.
ESTIMATE_FLOOR = 0.3
SIMHASH_RADIUS = 3
MAX_ANCHOR_CANDIDATES = 200


@dataclass
class Candidate:
    doc_id: int
    found_by: set[str] = field(default_factory=set)
    shared_anchors: int = 0
    estimate: float | None = None  # 1-bit minwise estimate of the shingle resemblance (an estimate)


def strategy_names(strategy: str) -> tuple[str, str]:
    """(minhash search, simhash search) for a settings strategy name."""
    if strategy == "auto":
        return "grouped", "permuted"
    if strategy in ("brute", "permuted", "grouped"):
        return strategy, ("permuted" if strategy != "brute" else "brute")
    if strategy == "lsh":
        return "brute", "brute"  # LSH buckets are looked up in the index; Hamming by brute force
    raise ValueError(f"unknown search strategy {strategy!r}")


class CandidateFinder:
    """Search tables over an index's fingerprints, built once per open collection state."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.params = settings.fingerprints
        ids, sims, words = store.fingerprint_matrix()
        self.doc_ids = ids
        minhash_name, simhash_name = strategy_names(settings.strategy)
        k = self.params.minhash_bits
        self.radius = hamming_radius(k, ESTIMATE_FLOOR)
        self.minhash = make_search(minhash_name, bits=k, max_radius=self.radius)
        self.simhash = make_search(simhash_name, bits=64, max_radius=SIMHASH_RADIUS)
        if len(ids):
            self.minhash.build(ids, words)
            self.simhash.build(ids, sims.reshape(-1, 1))
        self.words_by_id = {int(i): w for i, w in zip(ids, words)}

    def find(self, fp: Fingerprints, countable_ids: np.ndarray, *, exclude: set[int] = frozenset()) -> dict[int, Candidate]:
        """All candidates for a document with fingerprints ``fp`` (``countable_ids``: its countable unit ids)."""
        found: dict[int, Candidate] = {}

        def add(doc_id: int, how: str) -> Candidate | None:
            doc_id = int(doc_id)
            if doc_id in exclude:
                return None
            c = found.get(doc_id)
            if c is None:
                c = found[doc_id] = Candidate(doc_id)
            c.found_by.add(how)
            return c

        # Anchors of the countable text only: template text must not make every form a candidate.
        query_anchors = anchors(countable_ids, self.params)
        counts = self.store.lookup_counts("anchors", "hash", query_anchors) if len(query_anchors) else {}
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        for doc_id, n in ranked[:MAX_ANCHOR_CANDIDATES]:
            c = add(doc_id, "anchors")
            if c:
                c.shared_anchors = n

        if len(self.doc_ids):
            ids, _ = self.minhash.query(fp.minhash_bits, self.radius)
            for doc_id in ids:
                add(doc_id, "minhash")
            ids, _ = self.simhash.query(np.array([fp.simhash], dtype=np.uint64), SIMHASH_RADIUS)
            for doc_id in ids:
                add(doc_id, "simhash")
        for doc_id in self.store.lookup_counts("lsh_keys", "key", fp.lsh_keys):
            add(doc_id, "lsh")
        sent = fp.sentence_fps[fp.sentence_fps != 0]
        if len(sent):
            for doc_id in self.store.lookup_counts("sentence_fps", "fp", sent):
                add(doc_id, "sentences")

        k = self.params.minhash_bits
        for c in found.values():
            words = self.words_by_id.get(c.doc_id)
            if words is not None:
                c.estimate = estimate_similarity(fp.minhash_bits, words, k)
        return found
