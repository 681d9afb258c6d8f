"""The unit contract: CJK characters and letter/digit runs, NFKC + lower-case, exact offsets."""

from __future__ import annotations

from hypothesis import given, strategies as st
import numpy as np

from neardup_gui.core.units import cjk_share, paragraphs, sentences, tokenize, unit_id


def test_mixed_text_units_and_offsets():
    text = "研究背景：本项目研究ＡＢＣ算法。The ﬁrst-order model, v2.0!"
    u = tokenize(text)
    assert u.tokens == (
        "研", "究", "背", "景", "本", "项", "目", "研", "究", "abc", "算", "法",
        "the", "first", "order", "model", "v2", "0",
    )
    assert [text[s:e] for s, e in zip(u.starts, u.ends)][9] == "ＡＢＣ"
    assert text[u.starts[13]:u.ends[13]] == "ﬁrst"
    # the same word in another form is the same unit
    assert u.ids[9] == unit_id("abc") == tokenize("abc").ids[0]


def test_punctuation_and_space_are_not_units():
    assert len(tokenize("，。！？ ,.;:()[]  \n\t—")) == 0
    assert tokenize("a_b").tokens == ("a", "b")


def test_cjk_never_glued_to_latin():
    assert tokenize("GPU加速x86").tokens == ("gpu", "加", "速", "x86")


def test_sentences_chinese_and_english():
    text = "第一句。第二句！“第三句？”第四句；\nFirst one. Second? Third e.g. fine\nlast"
    got = [text[a:b] for a, b in sentences(text)]
    assert got == ["第一句。", "第二句！", "“第三句？”", "第四句；", "First one.", "Second?", "Third e.g.", "fine", "last"]


def test_paragraph_spans():
    text = "one\n\n  two  \nthree"
    assert [text[a:b] for a, b in paragraphs(text)] == ["one", "two", "three"]


def test_cjk_share():
    assert cjk_share("中文 text") == 2 / 3
    assert cjk_share("...") == 0.0


@given(st.text(max_size=200))
def test_offsets_always_point_at_the_unit(text):
    u = tokenize(text)
    assert len(u.tokens) == len(u.ids) == len(u.starts) == len(u.ends)
    for tok, s, e in zip(u.tokens, u.starts, u.ends):
        assert 0 <= s < e <= len(text)
        assert tok  # never empty
    assert list(u.starts) == sorted(u.starts)


def _tokenize_reference(text, hidden=()):
    """The plain definition: one ``finditer`` step per unit (hidden characters read as a zero-width
    space), normalised and hashed one by one."""
    from neardup_gui.core.units import normalise_token, unit_pattern

    for a, b in hidden:
        text = text[:a] + "\u200b" * (b - a) + text[b:]
    spans = [m.span() for m in unit_pattern().finditer(text)]
    tokens = tuple(normalise_token(text[a:b]) for a, b in spans)
    return tokens, [unit_id(t) for t in tokens], [a for a, _ in spans], [b for _, b in spans]


_MIXED = st.text(
    alphabet=st.one_of(
        st.characters(),  # anything, astral planes and lone surrogates included
        # disguises: look-alikes, format characters (a soft hyphen, zero-width and bidi ones, a
        # tag), traditional characters
        st.sampled_from("中文字々〇かカ한ｱＡＢ１２ﬁ²_- \n。，.é\U00020000\U0002a700"
                        "аеорсхуіАВНαορνΙ\u00ad\u200b\u200c\u200d\u2060\ufeff\u202e\U000e0041後發國"),
    ),
    max_size=300,
)


@given(_MIXED, st.lists(st.tuples(st.integers(0, 300), st.integers(0, 8)), max_size=4))
def test_vectorised_tokenize_equals_the_plain_definition(text, hidden):
    hidden = [(a, min(a + k, len(text))) for a, k in hidden if a < len(text)]
    u = tokenize(text, hidden)
    tokens, ids, starts, ends = _tokenize_reference(text, hidden)
    assert u.tokens == tokens
    assert u.ids.tolist() == ids
    assert u.starts.tolist() == starts
    assert u.ends.tolist() == ends


def test_disguises_give_the_units_of_the_plain_text():
    plain = tokenize("The copied page, word for word. 复制的内容后来发现")
    for disguised, hidden in [
        ("Thе соpiеd pаgе, wоrd fоr wоrd. 复制的内容后来发现", ()),  # Cyrillic look-alikes
        ("The co\u00adpied pa\u00adge, wo\u200brd for wo\u200dr\u2060d. 复\u200b制\u200b的内容后来发现", ()),
        ("The copied page, word for word. 複製的內容後來發現", ()),  # traditional characters
        ("Thex copiedx pagex, wordx forx wordx. 复制的内容后来发现", [(3, 4), (11, 12), (17, 18), (24, 25), (29, 30),
                                                             (35, 36)]),  # letters the file hides
    ]:
        u = tokenize(disguised, hidden)
        assert u.tokens == plain.tokens, disguised
        assert np.array_equal(u.ids, plain.ids)
        # the offsets point into the text as the file holds it: the first unit ends before "x"
        assert disguised[u.starts[0]:u.ends[0]] in ("Thе", "The")


def test_greek_in_a_formula_and_russian_names_fold_alike_on_both_sides():
    # (folded the same wherever they stand: comparing two honest texts is unchanged)
    assert tokenize("α = 0.05, Путин").tokens == tokenize("α = 0.05, Путин").tokens == ("a", "0", "05", "пyтин")


def test_vectorised_tokenize_on_real_text():
    from tests.corpus import corpus_dir

    files = sorted(corpus_dir().glob("*/*.txt"))
    for path in files[:: max(1, len(files) // 40)]:
        text = path.read_text(encoding="utf-8")
        u = tokenize(text)
        tokens, ids, starts, ends = _tokenize_reference(text)
        assert u.tokens == tokens and u.ids.tolist() == ids
        assert u.starts.tolist() == starts and u.ends.tolist() == ends


def _sentences_reference(text):
    """The plain definition: cut after each end mark, trim white space one character at a time."""
    from neardup_gui.core.units import _SENTENCE_END_RE

    def trimmed(start, end):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return (start, end) if start < end else None

    spans, pos = [], 0
    for m in _SENTENCE_END_RE.finditer(text):
        span = trimmed(pos, m.end())
        if span:
            spans.append(span)
        pos = m.end()
    span = trimmed(pos, len(text))
    if span:
        spans.append(span)
    return spans


@given(st.text(alphabet=st.sampled_from(list("ab 中文\n\t。！？；.!?…”」)\u3000\u00a0")), max_size=120))
def test_sentences_equal_the_plain_definition(text):
    assert sentences(text) == _sentences_reference(text)
