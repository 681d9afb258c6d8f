"""Every SQL statement of the app lives in the store package (neardup_gui/core/store/).

The rest of the app asks the store in words (``store.pairs_at_least``, ``screenings.rows_of``):
a change of the schema is then made and reviewed in one package. This test reads every other
module's syntax tree and names each file and line that runs SQL itself or holds an SQL string.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import neardup_gui

PACKAGE = Path(neardup_gui.__file__).resolve().parent
STORE = PACKAGE / "core" / "store"
# the calls that run SQL on a connection or a cursor
SQL_CALLS = frozenset({"execute", "executemany", "executescript"})
# A string constant is SQL when it begins (after white space) with one of these words: written in
# capitals, as every statement of the app is, or in any case when the words after it make a
# statement ("select id from documents"), so that prose such as "Select a cluster…" or the
# argument errors="replace" is not taken for SQL.
SQL_WORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "PRAGMA", "WITH", "REPLACE",
             "BEGIN", "VACUUM")
SQL_IN_CAPITALS = re.compile(r"\s*(" + "|".join(SQL_WORDS) + r")\b")
SQL_STATEMENT = re.compile(r"""\s*(
      select\s+(distinct\s+)?(\w+|[\w.*(),\s]*[,*(][\w.*(),\s]*)\s+from\b
    | (insert|replace)\s+(or\s+\w+\s+)?into\b
    | update\s+(or\s+\w+\s+)?\w+\s+set\b
    | delete\s+from\b
    | (create|drop)\s+(unique\s+|temp\s+|temporary\s+)?(table|index|view|trigger)\b
    | alter\s+table\b
    | pragma\s+\w+\s*(=|\(|;|$)
    | with\s+(recursive\s+)?\w+(\s*\([\w,\s]*\))?\s+as\s*\(
    | begin(\s+(immediate|exclusive|deferred|transaction))?\s*;?\s*$
    | vacuum\b\s*(into\b|;|$)
    )""", re.IGNORECASE | re.VERBOSE)


def is_sql(text: str) -> bool:
    """True when ``text`` is (the head of) an SQL statement by the rule above."""
    return bool(SQL_IN_CAPITALS.match(text) or SQL_STATEMENT.match(text))


def violations(source: str, name: str) -> list[str]:
    """Each SQL call and each SQL string of one module, as ``name:line: what``."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS:
            found.append(f"{name}:{node.lineno}: calls .{node.func.attr}()")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and is_sql(node.value):
            found.append(f"{name}:{node.lineno}: SQL text {node.value.strip()[:40]!r}")
    return found


def modules_outside_store() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if STORE not in p.parents)


def test_no_sql_outside_the_store_package() -> None:
    modules = modules_outside_store()
    assert len(modules) > 50  # (the walk found the package, not an empty folder)
    found = [v for p in modules for v in violations(p.read_text(encoding="utf-8"), str(p.relative_to(PACKAGE.parent)))]
    assert not found, "SQL outside neardup_gui/core/store/:\n" + "\n".join(found)


def test_the_check_sees_each_kind_of_sql() -> None:
    source = ('conn.execute("x")\n'
              'cur.executemany(q, rows)\n'
              'db.executescript(s)\n'
              'q = "  select id, path from documents"\n'
              'w = """\n  with t as (select 1) select * from t"""\n'
              'p = "pragma user_version"\n'
              'f = f"SELECT {column} FROM {table}"\n'
              'u = "update documents set meta = ?"\n'
              'b = "BEGIN IMMEDIATE"\n')
    lines = sorted(int(v.split(":")[1]) for v in violations(source, "m.py"))
    assert lines == [1, 2, 3, 4, 5, 7, 8, 9, 10]  # (the string of lines 5-6 is reported at its first)


def test_words_that_only_look_like_sql_pass() -> None:
    source = ('a = "Selected documents"\n'
              'b = "Select a cluster of three or more documents to see every pair."\n'
              'c = "With integrity flags only"\n'
              'd = s.decode("utf-8", errors="replace")\n'
              'e = "Drop one folder to open it as a collection"\n'
              'g = "update"\n'
              'run(x)\n')
    assert violations(source, "m.py") == []
