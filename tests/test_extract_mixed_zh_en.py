"""Chinese with English words in it, spaced as people type it ("title 变成 EM 了"), reads as the
same Chinese written without the spaces; an English message quoting a Chinese word keeps its own."""

import pytest

from bcg_rag.extract.text import chat_text


def _claims(extractor, text):
    return {(c.subject, c.predicate, c.value, c.stance > 0) for c in extractor.extract(text, user_id="u1")}


@pytest.mark.parametrize(
    "spaced, unspaced",
    [
        ("上个月开始正式带人，title 变成 EM 了", "上个月开始正式带人，title变成EM了"),
        ("我的 title 变成 EM 了", "我的title变成EM了"),
        ("最近买了辆 Model Y，开着挺爽", "最近买了辆Model Y，开着挺爽"),
    ],
)
def test_spaces_around_english_words_in_chinese_change_nothing(extractor, spaced, unspaced):
    assert _claims(extractor, spaced) == _claims(extractor, unspaced)
    assert _claims(extractor, spaced)


def test_the_spaces_go_only_in_a_chinese_message(extractor):
    assert chat_text("title 变成 EM 了") == "title变成EM了"
    assert chat_text("帮我把这份 design doc 缩成一页") == "帮我把这份design doc缩成一页"  # English keeps its own spaces
    assert chat_text("I love 火锅 a lot") == "I love 火锅 a lot"  # an English message
    assert ("u1", "job_title", "EM", True) in _claims(extractor, "title 变成 EM 了")
