"""Compare two neardup indexes table by table: the same rows whatever order they were written in.

    python benchmarks/acceptance/same_index.py A.db B.db

Document ids are replaced by the documents' names (two builds number them in the order their
files finished), texts are decompressed, and the time stamps (``documents.indexed_at``, the
``created_at`` meta row) are left out; a stored search table is compared by the documents and
fingerprints it holds (without the time it was built). Prints each table's row count and whether it is the same;
exits 0 when every table is. Used to check that a faster index build stores exactly what the
slower one did (docs/speed.md).
"""

from __future__ import annotations

import sqlite3
import sys
import zlib


def index_rows(db: str, decompress: bool = True) -> dict[str, list[str]]:
    """Every table's rows as sorted text, plus the schema, a few pragmas and the integrity check
    (``decompress`` False: texts compared as stored, compressed)."""
    conn = sqlite3.connect(db)
    rel = dict(conn.execute("SELECT id, rel FROM documents"))
    out: dict[str, list[str]] = {}
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for table in tables:
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        rows = []
        for values in conn.execute(f"SELECT * FROM {table}"):
            row = dict(zip(cols, values))
            if table == "documents":
                row.pop("indexed_at")
                row["id"] = None  # (the name, rel, stays)
            if table == "meta" and row["key"] == "created_at":
                row["value"] = None
            for col in ("doc_id", "a", "b"):
                if col in row:
                    row[col] = rel.get(row[col], row[col])
            if table == "search_tables":
                row["data"] = _search_table_rows(row["data"], rel)
                row["built_at"] = None
            if table == "texts" and decompress:
                row["body"] = zlib.decompress(row["body"])
                row["margins"] = zlib.decompress(row["margins"])
            rows.append(repr(sorted(row.items())))
        out[table] = sorted(rows)
    out["(schema)"] = sorted(r[0] or "" for r in conn.execute("SELECT sql FROM sqlite_master"))
    out["(pragmas)"] = [str(conn.execute(f"PRAGMA {p}").fetchone()[0])
                        for p in ("user_version", "application_id", "page_size", "auto_vacuum")]
    out["(integrity)"] = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    conn.close()
    return out


def _search_table_rows(data: bytes, rel: dict[int, str]) -> list[tuple[str, bytes]] | str:
    """A stored search table (a snapshot of the minhash or simhash search) as what it holds: each
    document's name and fingerprint, sorted. Its arrays follow the documents' ids, which two
    builds give in the order files finished; what it answers depends only on this."""
    from neardup_gui.core.search import deserialise

    try:
        search = deserialise(data)
    except ValueError as exc:
        return f"unreadable: {exc}"
    search.compact()
    return sorted((rel.get(int(i), str(i)), row.tobytes()) for i, row in zip(search._ids.tolist(), search._rows))


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    a, b = index_rows(sys.argv[1]), index_rows(sys.argv[2])
    same_all = True
    for table in sorted(set(a) | set(b)):
        same = a.get(table) == b.get(table)
        same_all &= same
        print(f"{table:22s} {len(a.get(table) or []):9,d} rows  {'same' if same else 'DIFFERENT'}")
    print("the same index" if same_all else "the indexes differ")
    return 0 if same_all else 1


if __name__ == "__main__":
    sys.exit(main())
