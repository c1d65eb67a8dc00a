"""Everyday shapes that a blind set (chat_fresh29, facts said in passing inside requests) showed
unread, each a general mechanism rather than one sentence:

* "从绿禾离职了，上周去了云帆物流": the next employer said in the past, as in the future;
* "Jonah came back from Lisbon…, so he's pescatarian these days": a name leading a clause with
  an irregular past verb is whom "he" means next;
* "爷爷奶奶住在绍兴柯桥": two relatives as one subject each say the clause (not "爸妈", one word);
* "我报了个尤克里里班", "转去学吉他了": an instrument's class enrolled in, an instrument switched to,
  is learnt, as a language's course is (not every class: "报了个瑜伽班" stays a sign-up).
"""

from __future__ import annotations

import pytest

from claims import USER, triples

GRANDFATHER, GRANDMOTHER, DAUGHTER = (f"{USER}'s {kin}" for kin in ("grandfather", "grandmother", "daughter"))


@pytest.mark.parametrize("text, expected", [
    ("从绿禾离职了，上周去了云帆物流，还是做质量这块。", [(USER, "works_at", "绿禾", -0.8), (USER, "works_at", "云帆物流", 1.0)]),
    ("Jonah came back from Lisbon eating fish again, so he's pescatarian these days.", [("Jonah", "diet", "pescatarian", 1.0)]),
    ("爷爷奶奶住在绍兴柯桥", [(GRANDFATHER, "lives_in", "绍兴柯桥", 1.0), (GRANDMOTHER, "lives_in", "绍兴柯桥", 1.0)]),
    ("外公外婆都住在成都", [(GRANDFATHER, "lives_in", "成都", 1.0), (GRANDMOTHER, "lives_in", "成都", 1.0)]),
    ("我爸妈搬到了海南", [(f"{USER}'s parents", "lives_in", "海南", 1.0)]),
    ("我报了个尤克里里班，每周六上午上课", [(USER, "studies", "尤克里里", 1.0)]),
    ("我女儿报了个钢琴班", [(DAUGHTER, "studies", "钢琴", 1.0)]),
    ("尤克里里学了半年觉得太简单了，转去学吉他了", [(USER, "studies", "吉他", 1.0)]),
])
def test_employers_pronouns_pairs_and_classes(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


@pytest.mark.parametrize("text", ["从绿禾离职了，上周去了上海", "我报了个班"])
def test_a_trip_or_a_class_of_nothing_says_nothing_of_it(extractor, text):
    assert not [t for t in triples(extractor, text) if t[2] in ("上海",) or t[1] == "studies"]
