"""Manku's permuted sorted tables ("alg.G"): exact Hamming search for a fixed maximum radius.

The f fingerprint bits are cut into b contiguous blocks. Two fingerprints within Hamming
distance r_h differ in at most r_h blocks, so (pigeonhole) they agree exactly on at least
b − r_h of them. One table per choice of b − r_h blocks: the chosen blocks are permuted to the
top of a key ("permute some bits to the top bits", as Yu, Hu and Zhang put it), the keys are
sorted, and a query binary-searches its own key in each table. Every fingerprint within r_h lands in at least one
table's range, so the candidates miss nothing; the final Hamming check removes the rest.

The layout (b, and so t = C(b, r_h) tables) is chosen from f, r_h and the expected collection
size: the cheapest expected query (t binary searches plus the expected candidates) within a cap
on the number of tables (each table costs a key and a row index per document).
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from neardup_gui.core.arrays import distinct
from neardup_gui.core.search.base import HammingBase, bit_field, index_dtype, key_dtype, query_int

try:  # the compiled table look-ups (core/_kernels.c: table_hits); numpy below otherwise
    from neardup_gui.core import _kernels
except ImportError:  # pragma: no cover - a build without the compiled parts
    _kernels = None

log = logging.getLogger(__name__)

DEFAULT_MAX_TABLES = 32
DEFAULT_EXPECTED_SIZE = 1 << 20
_MAX_KEY_BITS = 64


@dataclass(frozen=True)
class PermutedLayout:
    """Blocks as (first bit, width) and, per table, the blocks permuted to the key's top."""

    bits: int
    radius: int
    blocks: tuple[tuple[int, int], ...]
    tables: tuple[tuple[int, ...], ...]

    def key_bits(self, table: int) -> int:
        return min(_MAX_KEY_BITS, sum(self.blocks[b][1] for b in self.tables[table]))


def _blocks(bits: int, count: int) -> tuple[tuple[int, int], ...]:
    base, extra = divmod(bits, count)
    out, start = [], 0
    for i in range(count):
        width = base + (1 if i < extra else 0)
        out.append((start, width))
        start += width
    return tuple(out)


def permuted_layout(
    bits: int,
    radius: int,
    *,
    blocks: int | None = None,
    expected_size: int = DEFAULT_EXPECTED_SIZE,
    max_tables: int = DEFAULT_MAX_TABLES,
) -> PermutedLayout:
    """The table layout for f = ``bits`` and r_h = ``radius`` (see the module docstring)."""
    if radius < 0 or radius >= bits:
        raise ValueError(f"radius must be in [0, {bits}), not {radius}")
    if blocks is None:
        best: tuple[float, int] | None = None
        for b in range(radius + 1, min(bits, radius + 16) + 1):
            tables = math.comb(b, radius)
            if tables > max_tables and b > radius + 1:
                break
            key = min(_MAX_KEY_BITS, (bits // b) * (b - radius))
            cost = tables * (20.0 + expected_size / 2.0**key)
            if best is None or cost < best[0]:
                best = (cost, b)
        assert best is not None
        blocks = best[1]
    if blocks <= radius or blocks > bits:
        raise ValueError(f"need more than {radius} and at most {bits} blocks, not {blocks}")
    block_list = _blocks(bits, blocks)
    # widest blocks first in each key, so a key cut at 64 bits keeps as many bits as it can
    tables = tuple(
        tuple(sorted(chosen, key=lambda b: -block_list[b][1]))
        for chosen in itertools.combinations(range(blocks), blocks - radius)
    )
    return PermutedLayout(bits, radius, block_list, tables)


def table_keys(rows: np.ndarray, layout: PermutedLayout, table: int) -> np.ndarray:
    """The permuted key of each row for one table: its chosen blocks at the top, concatenated."""
    total = layout.key_bits(table)
    key = np.zeros(len(rows), dtype=np.uint64)
    used = 0
    for b in layout.tables[table]:
        start, width = layout.blocks[b]
        width = min(width, total - used)
        if width <= 0:
            break
        key = (key << np.uint64(width)) | bit_field(rows, start, width) if used else bit_field(rows, start, width)
        used += width
    return key.astype(key_dtype(total))


class PermutedSearch(HammingBase):
    """Manku's t permuted sorted tables, exact for any radius up to ``max_radius``."""

    name: ClassVar[str] = "permuted"

    def __init__(
        self,
        bits: int,
        max_radius: int,
        blocks: int | None = None,
        expected_size: int = DEFAULT_EXPECTED_SIZE,
        max_tables: int = DEFAULT_MAX_TABLES,
    ) -> None:
        super().__init__(bits, max_radius)
        self.layout = permuted_layout(
            bits, max_radius, blocks=blocks, expected_size=expected_size, max_tables=max_tables
        )
        self._keys: list[np.ndarray] = []
        self._order: list[np.ndarray] = []
        self._flat: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # see _flat_tables

    def _params(self) -> dict[str, Any]:
        return {**super()._params(), "blocks": len(self.layout.blocks)}

    @classmethod
    def _constructor_args(cls) -> tuple[str, ...]:
        return ("bits", "max_radius", "blocks")

    def _build_index(self) -> None:
        self._keys, self._order, self._flat = [], [], None
        idx = index_dtype(len(self._rows))
        for t in range(len(self.layout.tables)):
            keys = table_keys(self._rows, self.layout, t)
            order = np.argsort(keys, kind="stable").astype(idx)
            self._keys.append(keys[order])
            self._order.append(order)

    def _index_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        arrays: dict[str, np.ndarray] = {}
        for t, (keys, order) in enumerate(zip(self._keys, self._order)):
            arrays[f"keys{t}"] = keys
            arrays[f"order{t}"] = order
        return {}, arrays

    def _load_index(self, arrays: dict[str, np.ndarray]) -> None:
        count = len(self.layout.tables)
        self._keys = [arrays[f"keys{t}"] for t in range(count)]
        self._order = [arrays[f"order{t}"] for t in range(count)]
        self._flat = None

    def _check_index(self) -> None:
        n = len(self._rows)
        if len(self._keys) != len(self.layout.tables) or len(self._order) != len(self._keys):
            raise ValueError("permuted search: tables missing")
        for keys, order in zip(self._keys, self._order):
            if keys.ndim != 1 or len(keys) != n or len(order) != n or bool(np.any(keys[1:] < keys[:-1])):
                raise ValueError("permuted search: a table is not sorted over every row")
            if n and (int(order.min()) < 0 or int(order.max()) >= n):
                raise ValueError("permuted search: a table points outside the rows")

    def _flat_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tables' keys (uint64) and rows (int64) end to end, with each table's offset: made
        once from the tables as built or loaded (what :func:`_kernels.table_hits` reads)."""
        if self._flat is None:
            offsets = np.zeros(len(self._keys) + 1, dtype=np.int64)
            np.cumsum([len(k) for k in self._keys], out=offsets[1:])
            self._flat = (np.concatenate(self._keys).astype(np.uint64),
                          np.concatenate(self._order).astype(np.int64), offsets)
        return self._flat

    def _candidate_rows(self, fp: np.ndarray, radius: int) -> np.ndarray | None:
        q = query_int(fp)
        if _kernels is not None and self._keys:
            # the same rows in C (core/_kernels.c: table_hits): one binary search per table,
            # where each took two numpy calls of a few microseconds
            keys, order, offsets = self._flat_tables()
            queries = np.array([self._query_key(q, t) for t in range(len(self._keys))], dtype=np.uint64)
            return np.frombuffer(_kernels.table_hits(keys, offsets, order, queries), dtype=np.int64)
        found = []
        for t, (keys, order) in enumerate(zip(self._keys, self._order)):
            qkey = keys.dtype.type(self._query_key(q, t))
            lo = np.searchsorted(keys, qkey, side="left")
            hi = np.searchsorted(keys, qkey, side="right")
            if hi > lo:
                found.append(order[lo:hi])
        if not found:
            return np.empty(0, dtype=np.int64)
        return distinct(np.concatenate(found))

    def _query_key(self, q: int, table: int) -> int:
        """:func:`table_keys` of one query held as a Python integer (no array round trips)."""
        total = self.layout.key_bits(table)
        key, used = 0, 0
        for b in self.layout.tables[table]:
            start, width = self.layout.blocks[b]
            width = min(width, total - used)
            if width <= 0:
                break
            key = (key << width) | ((q >> start) & ((1 << width) - 1))
            used += width
        return key

    def table_count(self) -> int:
        return len(self.layout.tables)

    def candidate_count(self, fp: np.ndarray, radius: int) -> int:
        """Rows the tables hand to the exact check (the query cost Yuan et al. compare)."""
        rows = self._candidate_rows(np.asarray(fp, dtype=np.uint64).reshape(-1), radius)
        return len(self._rows) if rows is None else len(rows)
