"""Entity linking at scale: each known name is embedded once per process, and the kept
names follow the store (new entities, merges, deletion); the aliases a message may use are
looked up by key."""

from __future__ import annotations

import sys
from pathlib import Path

from bcg_rag.names import alias_candidates

sys.path.insert(0, str(Path(__file__).parent / "bench"))
import scale_data  # noqa: E402


def _recorded(store, method: str) -> list[str]:
    """Wrap ``store.<method>(user_id)`` to record the users it is asked about."""
    asked: list[str] = []
    real = getattr(store, method)
    setattr(store, method, lambda user_id: (asked.append(user_id), real(user_id))[1])
    return asked


def _count_embedded(mem) -> list[int]:
    embedded = []
    real = mem.index.embed
    mem.index.embed = lambda texts: (embedded.append(len(texts)), real(texts))[1]
    return embedded


def test_known_names_are_embedded_once_not_per_message(make_memory):
    mem = make_memory("sentence-transformers")
    messages = list(scale_data.messages(600, users=1))
    embedded = _count_embedded(mem)
    for start in range(0, len(messages), 100):
        mem.add_messages(messages[start : start + 100])
    names = mem.names.names("user0000")
    assert len(names) > 100  # a memory that knows many people
    # Texts, subjects and each new name once (plus what the restatement links ask for),
    # where re-embedding every known name for every message would be ~names x messages.
    assert sum(embedded) < 3 * len(messages) + 2 * len(names), sum(embedded)
    assert len(embedded) < 5 * len(messages) // 100 + 600 // 10, len(embedded)  # batched, not one call per text


def test_kept_names_follow_merges_and_deletion(make_memory):
    mem = make_memory("sentence-transformers", linking={"entity_similarity": 0.6})  # MiniLM: "Ada Abot" ~ "Ada Abbott" 0.64
    mem.add_messages([
        dict(text="Ada Abbott works at Acme.", user_id="u", timestamp="2025-01-01T00:00:00"),
        dict(text="Bruno Castro lives in Lyon.", user_id="u", timestamp="2025-01-02T00:00:00"),
    ])
    assert {"Ada Abbott", "Bruno Castro"} <= set(mem.names.names("u"))
    mem.add_alias("u", "Bruno Castro", "Bruno C.")  # a merge keeps the count of names but changes them
    assert "Bruno Castro" not in mem.names.names("u") and "Bruno C." in mem.names.names("u")
    # A near-duplicate spelling links to the kept name.
    r = mem.add_message("Ada Abot lives in Oslo.", user_id="u", timestamp="2025-01-03T00:00:00")
    assert [c.subject for c in r.claims] == ["Ada Abbott"]
    mem.forget_user("u")
    assert "u" not in mem.names._users and mem.names.names("u") == []


def test_a_batch_checks_the_users_names_against_the_store_once(make_memory):
    """Asking the store per message and claim (a count over the user's entities) grew with
    them; a batch writes only after it is linked, so once per user per batch is the same."""
    mem = make_memory("hash")
    messages = list(scale_data.messages(120, users=2))
    mem.add_messages(messages[:60])
    asked = _recorded(mem.store, "entity_counts")
    mem.add_messages(messages[60:])
    assert sorted(asked) == ["user0000", "user0001"]
    asked.clear()
    mem.add_messages([dict(text="Zoe Zeller works at Acme.", user_id="user0000", timestamp="2025-01-01T00:00:00")])
    assert asked == ["user0000"]
    assert "Zoe Zeller" in mem.names.names("user0000")  # the next batch sees what this one wrote


def test_names_this_process_creates_are_appended_not_re_read(make_memory):
    """Re-reading every name whenever one was added made each batch cost the size of the
    memory; only a change made elsewhere (or a merge) re-reads them."""
    mem = make_memory("hash")
    messages = list(scale_data.messages(200, users=1))
    mem.add_messages(messages[:50])
    stored_names = mem.store.entity_names
    reads = _recorded(mem.store, "entity_names")
    for start in range(50, 200, 25):
        mem.add_messages(messages[start : start + 25])
    assert reads == []
    assert sorted(mem.names.names("user0000")) == stored_names("user0000")
    mem.store.entity_counts = lambda user_id: (0, 0)  # as if another writer had changed them
    mem.add_messages([dict(text="Zoe Zeller works at Acme.", user_id="user0000", timestamp=messages[-1]["timestamp"])])
    assert reads == ["user0000"]


def test_past_the_index_threshold_linking_finds_what_every_name_compared_finds(make_memory, monkeypatch):
    """Past ANN_FROM names the HNSW index proposes candidates, scored exactly: the nearest
    names (and so every link) are the ones an exact comparison with all names gives."""
    import numpy as np

    from bcg_rag import names as names_module

    monkeypatch.setattr(names_module, "ANN_FROM", 40)
    mem = make_memory("sentence-transformers")
    mem.add_messages(list(scale_data.messages(600, users=1)))
    entry = mem.names._current("user0000")
    assert entry.ann is not None and len(entry.names) > 100
    known = list(entry.names)
    matrix = names_module.unit_vectors(mem, known)
    for probe in known[::7] + ["Ada Abot", "Acme Corp", "the lake house"]:
        vector = names_module.unit_vectors(mem, [probe])[0]
        sims = matrix @ vector
        exact = [known[i] for i in sorted(range(len(known)), key=lambda i: (-float(sims[i]), known[i]))[:3]]
        assert mem.names.nearest("user0000", vector, 3) == exact, probe
    r = mem.add_message(f"{known[3]} lives in Oslo.", user_id="user0000", timestamp="2025-01-01T00:00:00")
    assert [c.subject for c in r.claims] == [known[3]]
    assert np.allclose(np.linalg.norm(entry.rows, axis=1), 1, atol=1e-4)


def test_the_keys_an_alias_in_a_message_could_have():
    keys = alias_candidates("Meg just got HIRED!! 豪哥住昆山")
    assert {"meg", "got hired", "meg just got hired", "豪哥", "昆山"} <= keys
    assert "meg just got hired!!" not in keys and "" not in keys  # normalised: case and edge punctuation folded
    assert not any(len(k.split()) > 4 for k in keys)  # the longest alias looked for
