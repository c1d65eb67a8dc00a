"""Everyday shapes that a blind set (chat_fresh28) showed unread or misread, each a general
mechanism rather than one sentence:

* "title是产品专家", "我妈的职位是护士长": a title by its word; "又升了，区域经理": a bare title right
  after a promotion is the new one;
* "还是干测试" is the trade 测试, but "还是干电池" (still doing batteries) is nothing one is;
* in-laws said at a clause's start are the speaker's, and the clause after is about them
  ("公公还没退，在无锡一家厂里上班");
* "got poached by Arcwave Studios": a new employer; "a deeply normal person" is no taste;
* "parents are officially in Whitby now": where they live, as "are in Whitby now" says.
"""

from __future__ import annotations

import pytest

from claims import USER, triples

MOTHER, FATHER_IN_LAW = f"{USER}'s mother", f"{USER}'s father-in-law"


@pytest.mark.parametrize("text, expected", [
    ("title是产品专家", [(USER, "job_title", "产品专家", 1.0)]),
    ("我妈的职位是护士长", [(MOTHER, "job_title", "护士长", 1.0)]),
    ("又升了，区域经理，管华东三个省", [(USER, "job_title", "区域经理", 1.0)]),
    ("公公还没退，在无锡一家厂里上班", [(FATHER_IN_LAW, "works_in", "无锡", 1.0)]),
    ("跳槽了，去了恒芯电池，还是干电池", [(USER, "works_at", "恒芯电池", 1.0)]),
    ("left Pellton!! got poached by Arcwave Studios", [(USER, "does", "Pellton", -0.8), (USER, "works_at", "Arcwave Studios", 1.0)]),
    ("parents are officially in Whitby now, the sea view is unreal", [(f"{USER}'s parents", "lives_in", "Whitby", 1.0)]),
])
def test_titles_in_laws_and_employers(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


@pytest.mark.parametrize("text", ["职位是跑来跑去", "I am a deeply normal person"])
def test_no_title_or_taste_in_near_misses(extractor, text):
    assert not [t for t in triples(extractor, text) if t[1] in ("job_title", "likes")]
