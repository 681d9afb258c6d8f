"""A run of min_run that short seeds of another passage stand in the way of is taken when all
passages then cover more; a step that gains nothing is followed by one more, which may win back
what the first cost (a table repeating its phrases: the wrong row's run taken first frees the
right row's). The one more step never makes the passages cover less, and finds copying the
single step left out."""

from __future__ import annotations

import random

from neardup_gui.core import compare
from neardup_gui.core.compare import compare_documents

PHRASES = ["的转换器把文本转化", "使用命令输出结果", "配置文件位于目录下", "软件包管理的前端", "安装后重新启动服务",
           "把HTML转化为文本"]


def _table(seed: int) -> tuple[str, str]:
    """(copy, source): rows of three repeated phrases, shuffled, most of them edited a little."""
    rng = random.Random(seed)
    rows = [f"{rng.choice(PHRASES)}{rng.choice(PHRASES)}{rng.choice(PHRASES)}。" for _ in range(rng.randint(6, 16))]
    shuffled = rows[:]
    rng.shuffle(shuffled)

    def edit(row: str) -> str:
        chars = list(row)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars))
            chars[at] = rng.choice("改换变")
        return "".join(chars)

    return "\n".join(edit(r) if rng.random() < 0.6 else r for r in shuffled), "\n".join(rows)


def _covers(monkeypatch, copy: str, source: str, ahead: int) -> tuple[int, int]:
    monkeypatch.setattr(compare, "SHORT_SEED_LOOKAHEAD", ahead)
    c = compare_documents(copy, source, min_run=8, with_raw_lcs=False)
    assert c.passage_units_a <= c.units_a and c.passage_units_b <= c.units_b
    return c.passage_units_a, c.passage_units_b


def test_one_more_step_wins_back_what_the_first_cost(monkeypatch):
    copy, source = _table(1556)
    assert _covers(monkeypatch, copy, source, 0) == (202, 219)  # a step that first loses: not taken
    assert _covers(monkeypatch, copy, source, 1) == (230, 231)


def test_one_more_step_never_covers_less(monkeypatch):
    gained = 0
    for seed in range(300):
        copy, source = _table(seed)
        before, after = _covers(monkeypatch, copy, source, 0), _covers(monkeypatch, copy, source, 1)
        assert after[0] >= before[0] and after[1] >= before[1]
        gained += after != before
    assert gained >= 1
