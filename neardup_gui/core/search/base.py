"""The search interface, and the machinery every strategy shares (updates, exact check, bytes).

A strategy stores fingerprint rows (``np.ndarray`` of shape ``(n, words)``, uint64; a simhash is
``words = 1``) with a parallel ``doc_ids`` int64 array. The built structure covers a *main*
part; later additions wait in a small *pending* part searched by brute force, and removals are
*tombstones* filtered out of every answer, until either grows past a share of the main part and
the structure is rebuilt. Every answer is exact either way: candidates are always confirmed by
the real Hamming distance.
"""

from __future__ import annotations

import json
import logging
import struct
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from neardup_gui.core.arrays import distinct

try:  # the compiled exact check (core/_kernels.c: near_rows); numpy below otherwise
    from neardup_gui.core import _kernels
except ImportError:  # pragma: no cover - a build without the compiled parts
    _kernels = None

log = logging.getLogger(__name__)

_MAGIC = b"NDSX"
_FORMAT_VERSION = 1
_MIN_PENDING = 4096  # additions below this many are searched by brute force, not rebuilt


@runtime_checkable
class HammingSearch(Protocol):
    """Every stored document within a Hamming radius of a query fingerprint, exactly."""

    name: str
    bits: int
    max_radius: int | None  # the largest radius a query may ask for (None: any)

    def build(self, doc_ids: np.ndarray, fps: np.ndarray) -> None: ...

    def add(self, doc_ids: np.ndarray, fps: np.ndarray) -> None: ...

    def remove(self, doc_ids: np.ndarray) -> None: ...

    def query(self, fp: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray]: ...

    def query_many(self, fps: np.ndarray, radius: int) -> list[tuple[np.ndarray, np.ndarray]]: ...

    def __len__(self) -> int: ...


def words_for(bits: int) -> int:
    """uint64 words holding ``bits`` bits."""
    return -(-bits // 64)


def as_rows(fps: np.ndarray, width: int) -> np.ndarray:
    """Fingerprints as a C-contiguous ``(n, width)`` uint64 matrix (a vector is one row each)."""
    arr = np.asarray(fps, dtype=np.uint64)
    if arr.ndim == 1 and width == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2 or arr.shape[1] != width:
        raise ValueError(f"expected fingerprints of shape (n, {width}), got {arr.shape}")
    return np.ascontiguousarray(arr)


def as_query(fp: np.ndarray | int, width: int) -> np.ndarray:
    """One query fingerprint as a ``(width,)`` uint64 vector (an int for a 64-bit simhash)."""
    arr = np.atleast_1d(np.asarray(fp, dtype=np.uint64)).reshape(-1)
    if arr.shape != (width,):
        raise ValueError(f"expected a fingerprint of {width} words, got shape {arr.shape}")
    return arr


def distances(rows: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """Hamming distance of each row to ``fp`` (int64)."""
    counts = np.bitwise_count(rows ^ fp)
    # adding the few word columns one by one is 3× faster than a reduction over a short axis
    total = counts[:, 0].astype(np.int64)
    for j in range(1, counts.shape[1]):
        total += counts[:, j]
    return total


def query_int(fp: np.ndarray) -> int:
    """A query fingerprint as one Python integer (bit j = bit j%64 of word j//64)."""
    return sum(int(w) << (64 * i) for i, w in enumerate(fp.tolist()))


def bit_field(rows: np.ndarray, start: int, width: int) -> np.ndarray:
    """Bits ``start .. start+width-1`` of each row (bit j is bit j%64 of word j//64), as uint64."""
    word, offset = divmod(start, 64)
    mask = np.uint64((1 << width) - 1)
    low = rows[:, word] >> np.uint64(offset)
    if offset + width <= 64:
        return low & mask
    high = rows[:, word + 1] << np.uint64(64 - offset)
    return (low | high) & mask


def key_dtype(bits: int) -> np.dtype:
    """The narrowest unsigned type for keys of ``bits`` bits (narrow keys sort by radix)."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if bits <= np.iinfo(dtype).bits:
            return np.dtype(dtype)
    return np.dtype(np.uint64)


def index_dtype(n: int) -> np.dtype:
    """Row indices of a table of ``n`` rows: int32 while it fits (half the memory)."""
    return np.dtype(np.int32) if n < 2**31 else np.dtype(np.int64)


class DeltaStore:
    """Rows with doc ids: a built main part, a pending part, and tombstones (see module doc)."""

    name: ClassVar[str] = ""
    width: int

    def __init__(self, width: int) -> None:
        self.width = width
        self._ids = np.empty(0, dtype=np.int64)
        self._rows = np.empty((0, width), dtype=np.uint64)
        self._pending_ids = np.empty(0, dtype=np.int64)
        self._pending_rows = np.empty((0, width), dtype=np.uint64)
        self._removed = np.empty(0, dtype=np.int64)  # sorted doc ids of the main part

    # -- the part a strategy supplies
    def _build_index(self) -> None:
        """Build the strategy's structure over ``self._rows``."""

    def _index_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        return {}, {}

    def _load_index(self, arrays: dict[str, np.ndarray]) -> None:
        self._build_index()

    def _check_index(self) -> None:
        """Raise ValueError when the strategy's arrays are not a structure over ``self._rows``."""

    def check(self) -> None:
        """Raise ValueError when the arrays (of a stored snapshot) do not hold together: the ids
        and rows pair up, each id once, and the strategy's own arrays are sorted and point at
        rows that exist. A damaged snapshot is then built again from the fingerprints instead of
        failing a query (or answering from out-of-range rows); a linear pass, no rebuild."""
        ids, rows = self._ids, self._rows
        if ids.ndim != 1 or rows.ndim != 2 or len(ids) != len(rows) or rows.shape[1] != self.width:
            raise ValueError(f"{self.name}: ids and fingerprints do not pair up")
        if len(ids) > 1 and len(distinct(ids)) != len(ids):
            raise ValueError(f"{self.name}: a document listed twice")
        self._check_index()

    def _params(self) -> dict[str, Any]:
        return {"width": self.width}

    # -- updates
    def _checked(self, doc_ids: np.ndarray, fps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ids, rows) of a build or add, after checking they pair up and the ids are unique."""
        ids = np.asarray(doc_ids, dtype=np.int64).reshape(-1)
        rows = as_rows(fps, self.width)
        if len(ids) != len(rows):
            raise ValueError(f"{len(ids)} doc ids for {len(rows)} fingerprints")
        if len(distinct(ids)) != len(ids):
            raise ValueError("doc ids must be unique")
        return ids, rows

    def build(self, doc_ids: np.ndarray, fps: np.ndarray) -> None:
        """Replace everything with these documents and build the structure over them."""
        ids, rows = self._checked(doc_ids, fps)
        self._ids, self._rows = ids, rows
        self._pending_ids = np.empty(0, dtype=np.int64)
        self._pending_rows = np.empty((0, self.width), dtype=np.uint64)
        self._removed = np.empty(0, dtype=np.int64)
        self._build_index()

    def add(self, doc_ids: np.ndarray, fps: np.ndarray) -> None:
        """Add documents; a doc id already stored is replaced."""
        ids, rows = self._checked(doc_ids, fps)
        self.remove(ids)
        self._pending_ids = np.concatenate([self._pending_ids, ids])
        self._pending_rows = np.concatenate([self._pending_rows, rows])
        if len(self._pending_ids) > max(_MIN_PENDING, len(self._ids) // 8):
            self.compact()

    def remove(self, doc_ids: np.ndarray) -> None:
        """Remove documents (unknown ids are ignored)."""
        ids = np.asarray(doc_ids, dtype=np.int64).reshape(-1)
        if len(self._pending_ids):
            keep = ~np.isin(self._pending_ids, ids)
            self._pending_ids, self._pending_rows = self._pending_ids[keep], self._pending_rows[keep]
        gone = ids[np.isin(ids, self._ids)]
        if len(gone):
            self._removed = np.union1d(self._removed, gone)
            if len(self._removed) > max(_MIN_PENDING, len(self._ids) // 4):
                self.compact()

    def compact(self) -> None:
        """Fold pending rows and tombstones into a freshly built structure."""
        if not len(self._pending_ids) and not len(self._removed):
            return
        live = ~np.isin(self._ids, self._removed) if len(self._removed) else slice(None)
        ids = np.concatenate([self._ids[live], self._pending_ids])
        rows = np.concatenate([self._rows[live], self._pending_rows])
        self.build(ids, rows)

    def __len__(self) -> int:
        return len(self._ids) - len(self._removed) + len(self._pending_ids)

    def doc_ids(self) -> np.ndarray:
        """Every stored doc id, ascending."""
        live = self._ids[~np.isin(self._ids, self._removed)] if len(self._removed) else self._ids
        return np.sort(np.concatenate([live, self._pending_ids]))

    def _drop_removed(self, ids: np.ndarray, *others: np.ndarray) -> tuple[np.ndarray, ...]:
        if not len(self._removed) or not len(ids):
            return (ids, *others)
        keep = ~np.isin(ids, self._removed)
        return (ids[keep], *(o[keep] for o in others))

    # -- bytes
    def state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Parameters and arrays that rebuild this object without re-sorting (compacts first)."""
        self.compact()
        params, arrays = self._index_state()
        return {**self._params(), **params}, {"ids": self._ids, "rows": self._rows, **arrays}

    @classmethod
    def from_state(cls, params: dict[str, Any], arrays: dict[str, np.ndarray]) -> "DeltaStore":
        obj = cls(**{k: v for k, v in params.items() if k in cls._constructor_args()})
        obj._ids = arrays["ids"]
        obj._rows = arrays["rows"].reshape(-1, obj.width)
        obj._load_index(arrays)
        return obj

    @classmethod
    def _constructor_args(cls) -> tuple[str, ...]:
        return ("width",)


class HammingBase(DeltaStore):
    """A Hamming search over the shared store: candidates from the structure, then exact check."""

    bits: int
    max_radius: int | None

    def __init__(self, bits: int, max_radius: int | None = None) -> None:
        if bits < 1:
            raise ValueError("fingerprints need at least one bit")
        super().__init__(words_for(bits))
        self.bits = bits
        self.max_radius = max_radius

    def _params(self) -> dict[str, Any]:
        return {"bits": self.bits, "max_radius": self.max_radius}

    @classmethod
    def _constructor_args(cls) -> tuple[str, ...]:
        return ("bits", "max_radius")

    def _candidate_rows(self, fp: np.ndarray, radius: int) -> np.ndarray | None:
        """Rows of the main part that may lie within ``radius`` (None: all of them)."""
        return None

    def _check_radius(self, radius: int) -> int:
        radius = int(radius)
        if radius < 0:
            raise ValueError("a Hamming radius cannot be negative")
        if self.max_radius is not None and radius > self.max_radius:
            raise ValueError(f"{self.name} was built for radius ≤ {self.max_radius}, not {radius}")
        return radius

    def query(self, fp: np.ndarray | int, radius: int) -> tuple[np.ndarray, np.ndarray]:
        """Every stored doc within ``radius`` of ``fp``: (doc ids, distances) by distance, id."""
        radius = self._check_radius(radius)
        fp = as_query(fp, self.width)
        rows = self._candidate_rows(fp, radius)
        if (_kernels is not None and rows is not None and not len(self._removed) and not len(self._pending_ids)
                and self._ids.dtype == np.int64 and self._rows.dtype == np.uint64 and self._rows.flags.c_contiguous):
            # the exact check and the order in C (core/_kernels.c: near_rows): the pass queries
            # every document, and these steps were a dozen numpy calls of a few microseconds each
            ids, dist = _kernels.near_rows(self._rows, np.asarray(rows, dtype=np.int64), np.ascontiguousarray(fp),
                                           radius, self._ids)
            return np.frombuffer(ids, dtype=np.int64), np.frombuffer(dist, dtype=np.int64)
        if rows is None:
            ids, dist = self._ids, distances(self._rows, fp)
        else:
            ids, dist = self._ids[rows], distances(self._rows[rows], fp)
        near = dist <= radius
        ids, dist = self._drop_removed(ids[near], dist[near])
        if len(self._pending_ids):
            pdist = distances(self._pending_rows, fp)
            pnear = pdist <= radius
            ids = np.concatenate([ids, self._pending_ids[pnear]])
            dist = np.concatenate([dist, pdist[pnear]])
        order = np.lexsort((ids, dist))
        return ids[order], dist[order]

    def query_many(self, fps: np.ndarray, radius: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`query` for each row of ``fps``."""
        return [self.query(fp, radius) for fp in as_rows(fps, self.width)]


# ------------------------------------------------------------------------------------ bytes


def pack_state(name: str, params: dict[str, Any], arrays: dict[str, np.ndarray]) -> bytes:
    """A self-describing blob: magic, version, JSON header, then little-endian arrays."""
    meta = []
    blobs = []
    for key, arr in arrays.items():
        arr = np.asarray(arr)
        le = arr.dtype.newbyteorder("<") if arr.dtype.itemsize > 1 else arr.dtype
        meta.append([key, le.str, list(arr.shape)])
        blobs.append(np.ascontiguousarray(arr, dtype=le).tobytes())
    header = json.dumps({"strategy": name, "params": params, "arrays": meta}).encode("utf-8")
    return b"".join([_MAGIC, struct.pack("<II", _FORMAT_VERSION, len(header)), header, *blobs])


def _stored_dtype(text: object) -> np.dtype:
    """The numeric dtype a stored array names; ValueError for anything else (a damaged header
    can name any string, and numpy raises SyntaxError on some, or makes object arrays)."""
    try:
        dtype = np.dtype(text)  # type: ignore[call-overload]
    except Exception as exc:  # noqa: BLE001 — numpy's parser raises SyntaxError, TypeError, …
        raise ValueError(f"search table: unknown array type {text!r}") from exc
    if dtype.kind not in "biuf" or dtype.subdtype is not None or dtype.names is not None:
        raise ValueError(f"search table: array type {text!r} is not numeric")
    return dtype


def unpack_state(data: bytes) -> tuple[str, dict[str, Any], dict[str, np.ndarray]]:
    """Inverse of :func:`pack_state`; arrays come back in native byte order."""
    view = memoryview(data)
    if bytes(view[:4]) != _MAGIC or len(view) < 12:
        raise ValueError("not a neardup search table")
    version, hlen = struct.unpack_from("<II", view, 4)
    if version > _FORMAT_VERSION:
        raise ValueError(f"search table format {version} is newer than this program ({_FORMAT_VERSION})")
    header = json.loads(bytes(view[12 : 12 + hlen]).decode("utf-8"))
    pos = 12 + hlen
    arrays: dict[str, np.ndarray] = {}
    for key, dtype_str, shape in header["arrays"]:
        dtype = _stored_dtype(dtype_str)
        if not all(isinstance(n, int) and n >= 0 for n in shape):
            raise ValueError(f"search table: array {key!r} has the shape {shape!r}")
        count = int(np.prod(shape)) if shape else 1
        arr = np.frombuffer(view, dtype=dtype, count=count, offset=pos).reshape(shape)
        pos += count * dtype.itemsize
        arrays[key] = arr.astype(dtype.newbyteorder("="), copy=False)
    if pos != len(view):
        raise ValueError(f"search table has {len(view) - pos} trailing bytes")
    return header["strategy"], header["params"], arrays
