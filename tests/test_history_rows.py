"""Belief histories as rows (``store_rows``): a write appends the entries a statement added
and replaces only a changed tail, readers that ask for no history get none, and a memory
written when each history was one JSON column opens (migrated) and reads the same. On
both backends."""

from __future__ import annotations

import json

import pytest
from servers import BACKENDS

from bcg_rag import BeliefMemory, Claim
from bcg_rag import lifecycle as lc
from bcg_rag import writing

pytestmark = pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)

CITIES = ("Paris", "Berlin", "Rome")


def _restate(m: BeliefMemory, days: range, user: str = "u") -> None:
    for day in days:
        m.observe(f"I live in {CITIES[day % 3]}", user_id=user, timestamp=f"2024-01-{day:02d}",
                  claim=Claim("I", "lives_in", CITIES[day % 3]))


def _writes(store) -> list[tuple]:
    """Record every history write of ``store``: ("tail", belief, start, n) or ("whole", belief)."""
    calls: list[tuple] = []
    write_history, upsert_belief = store.write_history, store.upsert_belief

    def tail(belief_id, start, entries):
        calls.append(("tail", belief_id, start, len(entries)))
        write_history(belief_id, start, entries)

    def upsert(row):
        if "history" in row:
            calls.append(("whole", row["id"]))
        upsert_belief(row)

    store.write_history, store.upsert_belief = tail, upsert
    return calls


def _lengths(m: BeliefMemory) -> dict[str, int]:
    return {r["id"]: len(r["history"]) for r in m.store.find_beliefs("u")}


def test_a_statement_in_time_order_appends_its_entries_only(memory_backend):
    m = memory_backend.new()
    _restate(m, range(1, 13))
    before = _lengths(m)
    calls = _writes(m.store)
    _restate(m, range(13, 14))
    after = _lengths(m)
    assert calls and all(c[0] == "tail" for c in calls)
    # Every belief of the slot got one entry (its support, or a refutation derived from
    # it), written at the end of what was stored: no stored entry was written again.
    assert {c[1]: (c[2], c[3]) for c in calls} == {b: (before[b], 1) for b in before}
    assert after == {b: n + 1 for b, n in before.items()}


def test_a_late_statement_rewrites_only_the_entries_after_its_time(memory_backend):
    m = memory_backend.new()
    _restate(m, range(1, 21, 2))  # odd days
    full = {r["id"]: r["history"] for r in m.store.find_beliefs("u")}
    calls = _writes(m.store)
    _restate(m, range(14, 15))  # day 14: 7 odd days (1..13) come before it
    assert calls and all(c[0] == "tail" for c in calls)
    for _, bid, start, _n in calls:
        assert start == sum(h["at"] < "2024-01-14" for h in full[bid])
    late = {r["id"]: r["history"] for r in m.store.find_beliefs("u")}
    writing.refold_user(m, "u")  # the tail refold is the full fold
    assert {r["id"]: r["history"] for r in m.store.find_beliefs("u")} == late


def test_readers_get_the_history_they_ask_for(memory_backend):
    m = memory_backend.new()
    _restate(m, range(1, 8))
    s = m.store
    rows = s.find_beliefs("u")
    ids = [r["id"] for r in rows]
    assert all(r["history"] for r in rows)
    assert all("history" not in r for r in s.find_beliefs("u", history=False))
    assert all("history" not in r for r in s.get_nodes("belief", ids, history=False).values())
    assert s.belief_history(ids + ["bel_none"]) == {**{r["id"]: r["history"] for r in rows}, "bel_none": []}
    for last in (0, 1, 3, 100):  # the newest entries only, oldest first
        assert s.belief_history(ids + ["bel_none"], last=last) == {
            **{r["id"]: r["history"][len(r["history"]) - min(last, len(r["history"])):] for r in rows}, "bel_none": []}
    assert {r["id"]: r for r in s.all_rows("belief")} == {r["id"]: r for r in rows}
    assert s.get_nodes("belief", ids) == {r["id"]: r for r in rows}
    none = dict(start=0, first=None, last=None, entries=[])
    for since in ("2024-01-01", "2024-01-02", "2024-01-04", "2024-01-04T12:00:00", "2025-01-01"):
        tails = s.history_tails(["bel_none"] + ids[::-1] + ids[:1], since)
        assert list(tails) == ["bel_none"] + ids[::-1] and tails["bel_none"] == none  # in the order asked
        for r in rows:
            h = r["history"]
            prefix = [e for e in h if e["at"] < since]
            assert tails[r["id"]] == dict(start=len(prefix), first=prefix[0] if prefix else None,
                                          last=prefix[-1] if prefix else None, entries=h[len(prefix):])
    assert s.history_tails([], "2024-01-04") == {}
    many = [f"bel_x{i}" for i in range(600)] + ids  # past one statement's chunk of ids
    assert s.history_tails(many, "2024-01-04") == {**{i: none for i in many[:600]}, **s.history_tails(ids, "2024-01-04")}


def test_deleting_beliefs_deletes_their_history(memory_backend):
    m = memory_backend.new()
    _restate(m, range(1, 5))
    _restate(m, range(1, 3), user="w")
    ids = [r["id"] for r in m.store.find_beliefs("u")]
    with m.store.transaction():
        m.store.delete_edges_touching(ids[:1])
        m.store.delete_beliefs(ids[:1])
        m.store.delete_nodes("belief", ids[1:2])
        m.store.delete_edges_touching(ids[1:2])
    assert m.store.belief_history(ids[:2]) == {ids[0]: [], ids[1]: []}
    assert m.store.belief_history(ids[2:])[ids[2]]
    m.forget_user("w")
    assert m.store.integrity_problems() == []  # (the claims behind the beliefs deleted by hand remain)
    assert m.store.execute("SELECT count(*) AS n FROM belief_history AS h WHERE NOT EXISTS"
                           " (SELECT 1 FROM belief AS b WHERE b.id = h.belief_id)")[0]["n"] == 0


def _to_json_layout(store) -> None:
    """Turn a store back into schema 1: each belief's history one JSON list in its row."""
    histories = store.belief_history([r["id"] for r in store.find_beliefs(None, history=False)])
    s = f"{store.schema}." if hasattr(store, "schema") else ""  # a cold schema is not on the search path
    with store.transaction():
        store.execute(f"ALTER TABLE {s}belief ADD COLUMN history TEXT NOT NULL DEFAULT '[]'")
        for bid, history in histories.items():
            store.execute(f"UPDATE {s}belief SET history = ? WHERE id = ?", (json.dumps(history, ensure_ascii=False), bid))
        store.execute(f"DROP TABLE {s}belief_history")
        store.execute(f"UPDATE {s}meta SET value = '1' WHERE key = 'schema_version'")


def _reopen(memory_backend, m: BeliefMemory) -> BeliefMemory:
    if memory_backend.server:
        return BeliefMemory.connect(store=m.store.dsn, schema=m.store.schema, index=None, policy=m.policy,
                                    clock=lambda: "2024-06-01T00:00:00")
    return BeliefMemory.open(m.path, m.policy, index=None, clock=lambda: "2024-06-01T00:00:00")


def _state(m: BeliefMemory) -> dict:
    with lc._cold(m, create=False) as cold:
        archived = cold.all_rows("belief")
    return dict(beliefs=m.store.all_rows("belief"), archived=archived, edges=m.store.all_edges(),
                shown=[(b.id, b.confidence, [h.__dict__ for h in b.history]) for b in m.beliefs("u")])


def test_a_memory_with_json_histories_opens_migrated_and_reads_the_same(memory_backend):
    m = memory_backend.new(durable=True, clock=lambda: "2024-06-01T00:00:00")
    _restate(m, range(1, 15))
    m.observe("old note", user_id="u", timestamp="2020-01-01", claim=Claim("I", "likes", "tea"))
    m.maintain(now="2024-06-01")  # archives the old note: the cold store has a history too
    before = _state(m)
    assert before["archived"] and all(r["history"] for r in before["archived"])
    _to_json_layout(m.store)
    with lc._cold(m, create=False) as cold:
        _to_json_layout(cold)
    m.close()

    for _ in range(2):  # the second open finds nothing left to migrate
        again = _reopen(memory_backend, m)
        assert _state(again) == before
        assert again.store.get_meta("schema_version") == "2"
        assert "history" not in again.store.execute("SELECT * FROM belief LIMIT 1")[0]
        assert again.validate() == []
        again.close()

    again = _reopen(memory_backend, m)  # and it keeps folding on from the migrated rows
    _restate(again, range(15, 18))
    extended = again.store.all_rows("belief")
    writing.refold_user(again, "u")
    assert again.store.all_rows("belief") == extended
    again.close()


@pytest.mark.embedded_only  # a file opened read-only
def test_a_read_only_memory_with_json_histories_reads_the_same_unmigrated(memory_backend):
    from bcg_rag.store_sqlite import SQLiteStore

    m = memory_backend.new(durable=True)
    _restate(m, range(1, 8))
    rows = m.store.all_rows("belief")
    _to_json_layout(m.store)
    path = m.store.path
    m.close()
    ro = SQLiteStore(path, read_only=True)
    ids = [r["id"] for r in rows]
    assert ro.all_rows("belief") == rows
    assert ro.get_nodes("belief", ids) == {r["id"]: r for r in rows}
    assert ro.find_beliefs("u", history=False) == [{k: v for k, v in r.items() if k != "history"} for r in rows]
    assert ro.belief_history(ids, last=2) == {r["id"]: r["history"][-2:] for r in rows}
    assert ro.get_meta("schema_version") == "1"  # nothing was written
    ro.close()


def test_search_reads_a_long_slots_newest_entries_and_states_it_as_a_full_replay_would(memory_backend, monkeypatch):
    """A slot restated thousands of times held 150,000 history entries, read whole by every
    search of it (seconds). Search now reads each belief's newest SHOWN_HISTORY entries when
    it need not replay (no ``as_of``): the same values, confidences and bands, the newest
    evidence quoted; with ``as_of`` it replays the whole history as before."""
    from conftest import policy_for

    from bcg_rag import search as search_module

    m = memory_backend.new(policy_for("hash"), index="auto", clock=lambda: "2024-02-01T00:00:00")
    _restate(m, range(1, 29))
    full = m.search("Where do I live?", user_id="u", now="2024-02-01")
    monkeypatch.setattr(search_module, "SHOWN_HISTORY", 4)
    short = m.search("Where do I live?", user_id="u", now="2024-02-01")
    state = lambda groups: [(g.best.value, g.best.confidence, g.best.band, g.current is None) for g in groups]
    assert state(short) == state(full)
    assert [a["value"] for a in short[0].alternatives] == [a["value"] for a in full[0].alternatives]
    newest = max(e["timestamp"] for e in full[0].supporters + full[0].refuters)
    quoted = short[0].supporters + short[0].refuters
    assert 0 < len(quoted) < len(full[0].supporters + full[0].refuters)
    assert max(e["timestamp"] for e in quoted) == newest
    past = m.search("Where do I live?", user_id="u", as_of="2024-01-10", now="2024-02-01")
    assert len(past[0].supporters + past[0].refuters) > 4  # replayed from the whole history


def test_a_tail_of_conflicts_only_dates_the_belief_as_its_whole_history_does(memory_backend, monkeypatch):
    """When a belief's newest entries are all conflicts (a weaker source disagreeing), the
    tail cannot tell when it was last confirmed: search reads that belief's whole history."""
    from conftest import policy_for

    from bcg_rag import search as search_module

    m = memory_backend.new(policy_for("hash"), index="auto", clock=lambda: "2024-03-01T00:00:00")
    m.observe("I live in Paris", user_id="u", timestamp="2024-01-01", claim=Claim("I", "lives_in", "Paris"))
    for day in (2, 3, 4):
        m.observe(f"record {day}: lives in Berlin", user_id="u", timestamp=f"2024-01-0{day}",
                  source_type="third_party", claim=Claim("I", "lives_in", "Berlin"))

    def paris(groups):
        values = [(g.best.value, g.best.last_updated, g.best.effective_confidence) for g in groups]
        values += [(a["value"], a.get("last_updated"), a.get("effective_confidence")) for g in groups for a in g.alternatives]
        return [v[1:] for v in values if v[0] == "Paris"]

    full = m.search("Where do I live?", user_id="u")
    monkeypatch.setattr(search_module, "SHOWN_HISTORY", 2)
    assert paris(m.search("Where do I live?", user_id="u")) == paris(full) != []
    assert paris(full)[0][0].startswith("2024-01-01")


def test_a_slots_other_values_are_read_by_their_newest_entries_and_stay_the_groups(memory_backend, monkeypatch):
    """A value other than the slot's best is rendered with its newest entry, so search reads
    SHOWN_HISTORY_OTHERS of its entries: the same values, statuses and bands, the same newest
    quote; and its evidence among the hits still counts as the group's, not as raw memory."""
    from conftest import policy_for

    from bcg_rag import search as search_module

    m = memory_backend.new(policy_for("hash"), index="auto", clock=lambda: "2024-02-01T00:00:00")
    _restate(m, range(1, 29))
    full = m.search("Where do I live?", user_id="u", now="2024-02-01")
    monkeypatch.setattr(search_module, "SHOWN_HISTORY_OTHERS", 2)
    short = m.search("Where do I live?", user_id="u", now="2024-02-01")
    others = lambda groups: [(a["value"], a["status"], a["band"], a["confidence"]) for a in groups[0].alternatives]
    assert others(short) == others(full) and len(others(full)) == 2
    for s, f in zip(short[0].alternatives, full[0].alternatives):
        entries = lambda a: a["supporters"] + a["refuted_by"]
        assert 0 < len(entries(s)) <= 2 < len(entries(f))
        assert max(e["timestamp"] for e in entries(s)) == max(e["timestamp"] for e in entries(f))
    assert [u["id"] for u in short.unstructured] == [u["id"] for u in full.unstructured] == []
