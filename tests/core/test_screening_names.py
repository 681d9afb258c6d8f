"""Two calls whose folders have the same name ("submissions" of 2024 and of 2025) are two
screenings: the second never replaces the first unless its name is given explicitly. Before,
screening the 2025 folder deleted the 2024 screening's rows."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from neardup_gui.core.collection import Collection
from neardup_gui.core.screening import list_screenings, screen_folder
from neardup_gui.core.settings import Settings
from tests.conftest import SAMPLE

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = Settings(workers=1)


def _rows_in_new_process(db: Path) -> dict[str, list[str]]:
    code = ("import json; from neardup_gui.core.store import Store; "
            "from neardup_gui.core.screening import list_screenings, load_screening; "
            f"s = Store({str(db)!r}, create=False); "
            "print(json.dumps({i.name: sorted(r.rel for r in load_screening(s, i.name).rows) "
            "for i in list_screenings(s)}))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_call_folder_of_the_same_name_is_a_new_screening(tmp_path) -> None:
    files = sorted(p for p in SAMPLE.iterdir() if p.suffix == ".txt")
    calls = {}
    for year, chosen in (("2024", files[:2]), ("2025", files[2:4])):
        folder = tmp_path / year / "submissions"
        folder.mkdir(parents=True)
        for f in chosen:
            shutil.copy(f, folder / f.name)
        calls[year] = (folder, sorted(f.name for f in chosen))
    db = tmp_path / "index.ndx"
    with Collection.open(db) as coll:
        first = screen_folder(coll, str(calls["2024"][0]), SETTINGS)
        second = screen_folder(coll, str(calls["2025"][0]), SETTINGS)
        again = screen_folder(coll, str(calls["2024"][0]), SETTINGS)  # screened again: the same one
        assert (first.info.name, second.info.name, again.info.name) == ("submissions", "submissions (2)", "submissions")
        assert len(list_screenings(coll.store)) == 2
    assert _rows_in_new_process(db) == {"submissions": calls["2024"][1], "submissions (2)": calls["2025"][1]}
    # a name given explicitly is the examiner's: it takes the other folder's screening over
    with Collection.open(db) as coll:
        taken = screen_folder(coll, str(calls["2025"][0]), SETTINGS, name="submissions")
        assert taken.info.name == "submissions"
    assert _rows_in_new_process(db) == {"submissions": calls["2025"][1], "submissions (2)": calls["2025"][1]}
