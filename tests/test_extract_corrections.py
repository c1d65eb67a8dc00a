"""A name taken back inside a message is replaced by the one meant, and only with an explicit marker."""

import pytest

from bcg_rag.extract.corrections import corrections_applied


def _values(extractor, text):
    return {(c.predicate, c.value) for c in extractor.extract(text, user_id="u1") if c.stance > 0}


@pytest.mark.parametrize(
    "text, predicate, meant, taken_back",
    [
        ("搬家累死了，终于搬完了，现在住望京——哦不对，严格说是酒仙桥，反正离公司近多了", "lives_in", "酒仙桥", "望京"),
        ("我现在在腾讯上班，不对，是字节跳动", "works_at", "字节跳动", "腾讯"),
        ("I live in Leeds, sorry, I mean Bradford, near the station.", "lives_in", "Bradford", "Leeds"),
        ("we moved to Leeds - no wait, Bradford.", "lives_in", "Bradford", "Leeds"),
        ("I work at Google now — sorry, DeepMind", "works_at", "DeepMind", "Google"),
        ("I live in Leeds, or rather Bradford", "lives_in", "Bradford", "Leeds"),
    ],
)
def test_the_name_meant_replaces_the_one_taken_back(extractor, text, predicate, meant, taken_back):
    values = _values(extractor, text)
    assert (predicate, meant) in values
    assert (predicate, taken_back) not in values


@pytest.mark.parametrize(
    "text, predicate, value",
    [
        ("I live in Leeds. I mean, it's fine.", "lives_in", "Leeds"),  # "I mean" as a filler
        ("我住在上海，不对，我再想想", "lives_in", "上海"),  # no name after the marker
        ("my sister works at Google, well, technically at DeepMind", "works_at", "Google"),  # no marker
    ],
)
def test_without_a_marker_and_a_bare_name_nothing_is_corrected(extractor, text, predicate, value):
    assert (predicate, value) in _values(extractor, text)


def test_the_clauses_keep_their_places():
    """The corrected clause stays where it was; the marker and the correcting clause read as nothing."""
    no_words = lambda text: ()  # English needs no segmentation
    parts = ["I live in Leeds", "sorry", "I mean Bradford", "near the station"]
    assert corrections_applied(parts, no_words) == ["I live in Bradford", "", "", "near the station"]
    assert corrections_applied(["sorry", "Bradford"], no_words) == ["sorry", "Bradford"]  # nothing said before
