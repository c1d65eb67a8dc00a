"""Typed errors everywhere: every public call, fed bad input, raises a ``BCGError`` of
the expected type (never a UnicodeEncodeError, a TypeError from deep inside, or a
sqlite3 error) and changes nothing; what large input costs is ``test_bad_input_bounds.py``.

``BAD_INPUTS`` is the table: (case, call, expected error name, or "ok" for inputs that
must be accepted). ``census()`` classifies each case as typed / untyped / silently
accepted, so the same table measures any version of the library::

    PYTHONPATH=<checkout> python tests/test_bad_input.py
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bcg_rag import BeliefMemory, Claim, Policy
from bcg_rag import errors as E

NOW = "2025-07-01T00:00:00"
LONE = "\ud800"  # a lone surrogate: not UTF-8 encodable
MB = "x" * 1_000_000


class Env:
    """A small memory with one user, one belief, one evidence, for every case."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        self.m = BeliefMemory.in_memory(Policy.from_dict({"embedder": {"kind": "hash"}}), clock=lambda: NOW)
        r = self.m.observe("I live in Paris", user_id="u", timestamp="2025-01-01", source="chat:1",
                           claim=Claim("I", "lives_in", "Paris"))
        self.eid = r.evidence_id
        self.bid = self.m.beliefs("u")[0].id

    def obs(self, **kw):
        args = dict(text="I like tea", user_id="u", timestamp="2025-02-01")
        args.update(kw)
        text = args.pop("text")
        return self.m.observe(text, **args)

    def msg(self, text="I like tea", **kw):
        args = dict(user_id="u", timestamp="2025-02-01")
        args.update(kw)
        return self.m.add_message(text, **args)

    def q(self, query="where do I live?", **kw):
        args = dict(user_id="u")
        args.update(kw)
        return self.m.search(query, **args)

    def claim(self, **kw):
        args = dict(subject="I", predicate="likes", value="tea")
        args.update(kw)
        return self.obs(claim=args)

    def policy(self, raw):
        return Policy.from_dict(raw)

    def policy_file(self, text: str, name: str = "p.toml", raw: bytes | None = None):
        path = self.tmp / name
        path.write_bytes(raw if raw is not None else text.encode())
        return Policy.load(path)

    def damaged(self, name: str):
        path = self.tmp / f"damaged-{name.replace('/', '-')}"
        m = BeliefMemory.open(path, Policy.from_dict({"embedder": {"kind": "hash"}}), clock=lambda: NOW)
        m.observe("I like tea", user_id="u", timestamp="2025-01-01", claim=Claim("I", "likes", "tea"))
        m.close()
        with open(path / name, "r+b") as f:
            f.write(b"this is not a database" * 200)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = BeliefMemory.open(path, Policy.from_dict({"embedder": {"kind": "hash"}}), clock=lambda: NOW)
        try:
            assert m.search("tea", user_id="u")[0].best.value == "tea"
        finally:
            m.close()

    def duplicate_with_other_claim(self):
        first = self.obs(text="I drink tea", claim=Claim("I", "drinks", "tea"))
        again = self.obs(text="I drink tea", claim=Claim("I", "drinks", "coffee"))
        assert again.duplicate and again.claims == first.claims  # reports what was recorded
        assert [c.value for c in again.claims] == ["tea"]
        assert not [b for b in self.m.beliefs("u") if b.value == "coffee"]

    def close(self):
        self.m.close()


def policy_section(section: str, key: str, value) -> dict:
    return {section: {key: value}}


BAD_INPUTS = [
    # --- observe: text -----------------------------------------------------------------
    ("observe text None", lambda e: e.obs(text=None), "EmptyTextError"),
    ("observe text empty", lambda e: e.obs(text="   "), "EmptyTextError"),
    ("observe text int", lambda e: e.obs(text=123), "EmptyTextError"),
    ("observe text bytes", lambda e: e.obs(text=b"I like tea"), "EmptyTextError"),
    ("observe text lone surrogate", lambda e: e.obs(text=f"I like {LONE} tea"), "InvalidInputError"),
    ("observe text 1 MB", lambda e: e.obs(text=MB), "InputTooLargeError"),
    # --- observe: user ------------------------------------------------------------------
    ("observe user None", lambda e: e.obs(user_id=None), "MissingUserError"),
    ("observe user empty", lambda e: e.obs(user_id=""), "MissingUserError"),
    ("observe user int", lambda e: e.obs(user_id=7), "MissingUserError"),
    ("observe user lone surrogate", lambda e: e.obs(user_id=f"u{LONE}"), "InvalidInputError"),
    ("observe user 100 KB", lambda e: e.obs(user_id="u" * 100_000), "InputTooLargeError"),
    # --- observe: time ------------------------------------------------------------------
    ("observe timestamp None", lambda e: e.obs(timestamp=None), "InvalidTimestampError"),
    ("observe timestamp prose", lambda e: e.obs(timestamp="yesterday"), "InvalidTimestampError"),
    ("observe timestamp int", lambda e: e.obs(timestamp=20250101), "InvalidTimestampError"),
    ("observe timestamp month 13", lambda e: e.obs(timestamp="2025-13-01"), "InvalidTimestampError"),
    ("observe timestamp year 2205", lambda e: e.obs(timestamp="2205-01-01"), "FutureTimestampError"),
    ("observe timestamp next week", lambda e: e.obs(timestamp="2025-07-08"), "FutureTimestampError"),
    ("observe timestamp tomorrow (within skew)", lambda e: e.obs(timestamp="2025-07-01T20:00:00"), "ok"),
    # --- observe: other fields ----------------------------------------------------------
    ("observe source int", lambda e: e.obs(source=123), "InvalidInputError"),
    ("observe source empty", lambda e: e.obs(source=" "), "InvalidInputError"),
    ("observe source lone surrogate", lambda e: e.obs(source=f"chat:{LONE}"), "InvalidInputError"),
    ("observe source 10 KB", lambda e: e.obs(source="s" * 10_000), "InputTooLargeError"),
    ("observe source_type unknown", lambda e: e.obs(source_type="gossip"), "UnknownSourceTypeError"),
    ("observe source_type None", lambda e: e.obs(source_type=None), "UnknownSourceTypeError"),
    ("observe source_type list", lambda e: e.obs(source_type=["user_explicit"]), "UnknownSourceTypeError"),
    ("observe context int", lambda e: e.obs(context=5), "InvalidInputError"),
    ("observe context empty", lambda e: e.obs(context=""), "InvalidInputError"),
    ("observe context lone surrogate", lambda e: e.obs(context=f"topic:{LONE}"), "InvalidInputError"),
    ("observe context 10 KB", lambda e: e.obs(context="t" * 10_000), "InputTooLargeError"),
    ("observe weight 2", lambda e: e.obs(weight=2), "InvalidWeightError"),
    ("observe weight str", lambda e: e.obs(weight="0.5"), "InvalidWeightError"),
    ("observe weight inf", lambda e: e.obs(weight=float("inf")), "InvalidWeightError"),
    ("observe weight nan", lambda e: e.obs(weight=float("nan")), "InvalidWeightError"),
    ("observe weight bool", lambda e: e.obs(weight=True), "InvalidWeightError"),
    ("observe agent_id int", lambda e: e.obs(agent_id=3), "InvalidInputError"),
    ("observe agent_id empty", lambda e: e.obs(agent_id=""), "InvalidInputError"),
    ("observe agent_id lone surrogate", lambda e: e.obs(agent_id=LONE), "InvalidInputError"),
    ("observe event_id int", lambda e: e.obs(event_id=9), "InvalidInputError"),
    ("observe event_type int", lambda e: e.obs(event_type=9), "InvalidInputError"),
    ('observe private "false"', lambda e: e.obs(private="false"), "InvalidInputError"),
    ("observe private 1", lambda e: e.obs(private=1), "InvalidInputError"),
    ("observe private None", lambda e: e.obs(private=None), "InvalidInputError"),
    ("observe unknown argument", lambda e: e.obs(confidence=0.9), "InvalidInputError"),
    # --- observe: claims ----------------------------------------------------------------
    ("claim as a string", lambda e: e.obs(claim="likes tea"), "InvalidInputError"),
    ("claim dict missing value", lambda e: e.obs(claim=dict(subject="I", predicate="likes")), "InvalidInputError"),
    ("claim dict unknown key", lambda e: e.claim(certainty=1), "InvalidInputError"),
    ("claim subject empty", lambda e: e.claim(subject=" "), "InvalidInputError"),
    ("claim subject int", lambda e: e.claim(subject=5), "InvalidInputError"),
    ("claim subject lone surrogate", lambda e: e.claim(subject=LONE), "InvalidInputError"),
    ("claim predicate lone surrogate", lambda e: e.claim(predicate=f"likes{LONE}"), "InvalidInputError"),
    ("claim value lone surrogate", lambda e: e.claim(value=f"tea{LONE}"), "InvalidInputError"),
    ("claim value 10 KB", lambda e: e.claim(value="v" * 10_000), "InputTooLargeError"),
    ("claim predicate 10 KB", lambda e: e.claim(predicate="p" * 10_000), "InputTooLargeError"),
    ("claim stance 2", lambda e: e.claim(stance=2), "InvalidStanceError"),
    ("claim stance nan", lambda e: e.claim(stance=float("nan")), "InvalidStanceError"),
    ('claim stance "1"', lambda e: e.claim(stance="1"), "InvalidStanceError"),
    ("claim context empty", lambda e: e.claim(context=""), "InvalidInputError"),
    ("claim context int", lambda e: e.claim(context=4), "InvalidInputError"),
    ("claim source_type unknown", lambda e: e.claim(source_type="gossip"), "UnknownSourceTypeError"),
    ("claim source_type int", lambda e: e.claim(source_type=4), "InvalidInputError"),
    ("claims an int", lambda e: e.obs(claims=5), "InvalidInputError"),
    ("claims a string", lambda e: e.obs(claims="likes tea"), "InvalidInputError"),
    ("claims a dict", lambda e: e.obs(claims={"subject": "I"}), "InvalidInputError"),
    ("claims 1000", lambda e: e.obs(claims=[Claim("I", "likes", f"v{i}") for i in range(1000)]), "InputTooLargeError"),
    ("Claim() lone surrogate", lambda e: Claim("I", "likes", LONE), "InvalidInputError"),
    ("repeated observe, other claim", lambda e: e.duplicate_with_other_claim(), "ok"),
    # --- observe_many ---------------------------------------------------------------------
    ("observe_many a string", lambda e: e.m.observe_many("I like tea"), "InvalidInputError"),
    ("observe_many None", lambda e: e.m.observe_many(None), "InvalidInputError"),
    ("observe_many [1]", lambda e: e.m.observe_many([1]), "InvalidInputError"),
    ("observe_many unknown key", lambda e: e.m.observe_many([dict(text="x", user_id="u", timestamp="2025-01-01", mood=1)]),
     "InvalidInputError"),
    ("observe_many 20000 items", lambda e: e.m.observe_many([{}] * 20_000), "InputTooLargeError"),
    # --- add_message ----------------------------------------------------------------------
    ("add_message 1 MB", lambda e: e.msg(MB), "InputTooLargeError"),
    ("add_message lone surrogate", lambda e: e.msg(f"I live in {LONE}"), "InvalidInputError"),
    ("add_message user lone surrogate", lambda e: e.msg(user_id=LONE), "InvalidInputError"),
    ("add_message text None", lambda e: e.msg(None), "EmptyTextError"),
    ("add_message user None", lambda e: e.msg(user_id=None), "MissingUserError"),
    ("add_message timestamp 2205", lambda e: e.msg(timestamp="2205-01-01"), "FutureTimestampError"),
    ("add_message speaker int", lambda e: e.msg(speaker=1), "InvalidInputError"),
    ('add_message private "false"', lambda e: e.msg(private="false"), "InvalidInputError"),
    ("add_message unknown argument", lambda e: e.msg(mood="happy"), "InvalidInputError"),
    ("add_messages a string", lambda e: e.m.add_messages("I like tea"), "InvalidInputError"),
    ("add_messages [None]", lambda e: e.m.add_messages([None]), "InvalidInputError"),
    # --- search ---------------------------------------------------------------------------
    ("search query empty", lambda e: e.q(""), "InvalidInputError"),
    ("search query None", lambda e: e.q(None), "InvalidInputError"),
    ("search query int", lambda e: e.q(42), "InvalidInputError"),
    ("search query lone surrogate", lambda e: e.q(f"where {LONE}?"), "InvalidInputError"),
    ("search query 1 MB", lambda e: e.q(MB), "InputTooLargeError"),
    ("search without user", lambda e: e.m.search("where do I live?"), "MissingUserError"),
    ("search user empty", lambda e: e.q(user_id=""), "MissingUserError"),
    ("search user int", lambda e: e.q(user_id=1), "MissingUserError"),
    ("search user lone surrogate", lambda e: e.q(user_id=LONE), "InvalidInputError"),
    ('search top_k "5"', lambda e: e.q(top_k="5"), "InvalidInputError"),
    ("search top_k -1", lambda e: e.q(top_k=-1), "InvalidInputError"),
    ("search top_k 1.5", lambda e: e.q(top_k=1.5), "InvalidInputError"),
    ("search top_k True", lambda e: e.q(top_k=True), "InvalidInputError"),
    ("search top_k 10**9", lambda e: e.q(top_k=10**9), "InputTooLargeError"),
    ('search candidates "30"', lambda e: e.q(candidates="30"), "InvalidInputError"),
    ("search as_of prose", lambda e: e.q(as_of="last year"), "InvalidTimestampError"),
    ("search now int", lambda e: e.q(now=5), "InvalidTimestampError"),
    ("search context int", lambda e: e.q(context=5), "InvalidInputError"),
    ("search agent_id int", lambda e: e.q(agent_id=5), "InvalidInputError"),
    ('search include_archived "yes"', lambda e: e.q(include_archived="yes"), "InvalidInputError"),
    ("search unknown argument", lambda e: e.q(limit=3), "InvalidInputError"),
    # --- beliefs --------------------------------------------------------------------------
    ('beliefs("")', lambda e: e.m.beliefs(""), "MissingUserError"),
    ("beliefs(None)", lambda e: e.m.beliefs(None), "MissingUserError"),
    ("beliefs(int)", lambda e: e.m.beliefs(5), "MissingUserError"),
    ("beliefs lone surrogate", lambda e: e.m.beliefs(LONE), "InvalidInputError"),
    ("beliefs predicate int", lambda e: e.m.beliefs("u", predicate=5), "InvalidInputError"),
    ("beliefs predicate empty", lambda e: e.m.beliefs("u", predicate=""), "InvalidInputError"),
    ("beliefs subject int", lambda e: e.m.beliefs("u", subject=5), "InvalidInputError"),
    ("beliefs subject empty", lambda e: e.m.beliefs("u", subject=""), "InvalidInputError"),
    ("beliefs context int", lambda e: e.m.beliefs("u", context=5), "InvalidInputError"),
    ("beliefs as_of prose", lambda e: e.m.beliefs("u", as_of="then"), "InvalidTimestampError"),
    ('beliefs global_read "yes"', lambda e: e.m.beliefs(None, global_read="yes"), "InvalidInputError"),
    # --- explain / get_belief / evidence ----------------------------------------------------
    ("explain without user", lambda e: e.m.explain(e.bid), "MissingUserError"),
    ("explain other user", lambda e: e.m.explain(e.bid, user_id="mallory"), "NotFoundError"),
    ("explain unknown id", lambda e: e.m.explain("bel_nope", user_id="u"), "NotFoundError"),
    ("explain id int", lambda e: e.m.explain(123, user_id="u"), "InvalidInputError"),
    ("explain id None", lambda e: e.m.explain(None, user_id="u"), "InvalidInputError"),
    ("explain as_of prose", lambda e: e.m.explain(e.bid, user_id="u", as_of="then"), "InvalidTimestampError"),
    ("explain before it existed", lambda e: e.m.explain(e.bid, user_id="u", as_of="1999-01-01"), "NotFoundError"),
    ("explain agent_id int", lambda e: e.m.explain(e.bid, user_id="u", agent_id=5), "InvalidInputError"),
    ("get_belief without user", lambda e: e.m.get_belief(e.bid), "MissingUserError"),
    ("get_belief other user", lambda e: e.m.get_belief(e.bid, user_id="mallory"), "NotFoundError"),
    ("get_belief id list", lambda e: e.m.get_belief([e.bid], user_id="u"), "InvalidInputError"),
    ("evidence without user", lambda e: e.m.evidence(e.eid), "MissingUserError"),
    ("evidence other user", lambda e: e.m.evidence(e.eid, user_id="mallory"), "NotFoundError"),
    ("evidence id int", lambda e: e.m.evidence(5, user_id="u"), "InvalidInputError"),
    # --- add_claims / refold ------------------------------------------------------------------
    ("add_claims unknown evidence", lambda e: e.m.add_claims("ev_nope", [Claim("I", "likes", "tea")]), "NotFoundError"),
    ("add_claims id int", lambda e: e.m.add_claims(5, [Claim("I", "likes", "tea")]), "InvalidInputError"),
    ("add_claims a string", lambda e: e.m.add_claims(e.eid, "likes tea"), "InvalidInputError"),
    ("add_claims value 10 KB", lambda e: e.m.add_claims(e.eid, [Claim("I", "likes", "v" * 10_000)]), "InputTooLargeError"),
    ("add_claims source_type unknown", lambda e: e.m.add_claims(e.eid, [Claim("I", "likes", "tea", source_type="gossip")]),
     "UnknownSourceTypeError"),
    ("add_claims origin int", lambda e: e.m.add_claims(e.eid, [Claim("I", "likes", "tea")], origin=3), "InvalidInputError"),
    ('refold_user("")', lambda e: e.m.refold_user(""), "MissingUserError"),
    # --- lifecycle ---------------------------------------------------------------------------
    ("maintain now prose", lambda e: e.m.maintain(now="soon"), "InvalidTimestampError"),
    ("archive unknown id", lambda e: e.m.archive("bel_nope"), "NotFoundError"),
    ("archive id int", lambda e: e.m.archive(5), "InvalidInputError"),
    ("restore unknown id", lambda e: e.m.restore("bel_nope"), "NotFoundError"),
    ("restore id None", lambda e: e.m.restore(None), "InvalidInputError"),
    ('archived_beliefs("")', lambda e: e.m.archived_beliefs(""), "MissingUserError"),
    ("archived_beliefs agent int", lambda e: e.m.archived_beliefs("u", agent_id=4), "InvalidInputError"),
    ("review_queue user int", lambda e: e.m.review_queue(5), "MissingUserError"),
    ("review_queue now prose", lambda e: e.m.review_queue(now="soon"), "InvalidTimestampError"),
    ("review unknown id", lambda e: e.m.review("bel_nope", "confirm", "ann"), "NotFoundError"),
    ("review verdict maybe", lambda e: e.m.review(e.bid, "maybe", "ann"), "InvalidInputError"),
    ("review verdict 2", lambda e: e.m.review(e.bid, 2.0, "ann"), "InvalidStanceError"),
    ("review verdict True", lambda e: e.m.review(e.bid, True, "ann"), "InvalidStanceError"),
    ("review reviewer empty", lambda e: e.m.review(e.bid, "confirm", ""), "InvalidInputError"),
    ("review note int", lambda e: e.m.review(e.bid, "confirm", "ann", note=5), "InvalidInputError"),
    ("review now 2205", lambda e: e.m.review(e.bid, "confirm", "ann", now="2205-01-01"), "FutureTimestampError"),
    ("audit user int", lambda e: e.m.audit(user_id=5), "MissingUserError"),
    ("audit action int", lambda e: e.m.audit(action=5), "InvalidInputError"),
    ('forget_user("")', lambda e: e.m.forget_user(""), "MissingUserError"),
    ("forget_user None", lambda e: e.m.forget_user(None), "MissingUserError"),
    ("forget_user lone surrogate", lambda e: e.m.forget_user(LONE), "InvalidInputError"),
    ("forget_evidence unknown", lambda e: e.m.forget_evidence("ev_nope"), "NotFoundError"),
    ("forget_evidence None", lambda e: e.m.forget_evidence(None), "InvalidInputError"),
    ('forget_evidence purge "no"', lambda e: e.m.forget_evidence(e.eid, purge="no"), "InvalidInputError"),
    # --- entities ------------------------------------------------------------------------------
    ("resolve_entity name empty", lambda e: e.m.resolve_entity("u", ""), "InvalidInputError"),
    ("resolve_entity name None", lambda e: e.m.resolve_entity("u", None), "InvalidInputError"),
    ("resolve_entity name lone surrogate", lambda e: e.m.resolve_entity("u", LONE), "InvalidInputError"),
    ("resolve_entity user empty", lambda e: e.m.resolve_entity("", "Bob"), "MissingUserError"),
    ("entity unknown", lambda e: e.m.entity("ent_nope"), "NotFoundError"),
    ("entity None", lambda e: e.m.entity(None), "InvalidInputError"),
    ("add_alias alias empty", lambda e: e.m.add_alias("u", "", "Bob"), "InvalidInputError"),
    ("add_alias canonical empty", lambda e: e.m.add_alias("u", "Bobby", ""), "InvalidInputError"),
    ("add_alias alias int", lambda e: e.m.add_alias("u", 5, "Bob"), "InvalidInputError"),
    ("add_alias lone surrogate", lambda e: e.m.add_alias("u", LONE, "Bob"), "InvalidInputError"),
    ("undo_merge unknown", lambda e: e.m.undo_merge(999), "NotFoundError"),
    ("undo_merge str", lambda e: e.m.undo_merge("1"), "InvalidInputError"),
    ("to_networkx user int", lambda e: e.m.to_networkx(5), "MissingUserError"),
    # --- opening -------------------------------------------------------------------------------
    ('open("")', lambda e: BeliefMemory.open(""), "InvalidInputError"),
    ("open(None)", lambda e: BeliefMemory.open(None), "InvalidInputError"),
    ("open(int)", lambda e: BeliefMemory.open(5), "InvalidInputError"),
    ("open a file", lambda e: BeliefMemory.open(Path(__file__)), "InvalidInputError"),
    ("open policy int", lambda e: BeliefMemory.open(e.tmp / "m", policy=5), "ConfigError"),
    ("open policy missing file", lambda e: BeliefMemory.open(e.tmp / "m", policy=e.tmp / "nope.toml"), "ConfigError"),
    ("open damaged memory.sqlite3", lambda e: e.damaged("memory.sqlite3"), "StoreError"),
    ("open damaged chroma.sqlite3 (rebuilt)", lambda e: e.damaged("chroma/chroma.sqlite3"), "ok"),
    ("open damaged small vectors file (rebuilt)", lambda e: e.damaged("chroma/bcg_small_vectors.sqlite3"), "ok"),
    # --- policy --------------------------------------------------------------------------------
    ("policy not a table", lambda e: e.policy(["bands"]), "ConfigError"),
    ("policy section not a table", lambda e: e.policy({"bands": 0.5}), "ConfigError"),
    ('policy bands high "0.7"', lambda e: e.policy(policy_section("bands", "high", "0.7")), "ConfigError"),
    ("policy bands decision 2", lambda e: e.policy(policy_section("bands", "decision", 2)), "ConfigError"),
    ("policy weights bool", lambda e: e.policy(policy_section("weights", "user_explicit", True)), "ConfigError"),
    ("policy weights negative", lambda e: e.policy(policy_section("weights", "user_explicit", -0.5)), "ConfigError"),
    ("policy weight without initial", lambda e: e.policy(policy_section("weights", "gossip", 0.1)), "ConfigError"),
    ('policy synchronous typo', lambda e: e.policy(policy_section("storage", "synchronous", "FULLL")), "ConfigError"),
    ('policy busy_timeout "x"', lambda e: e.policy(policy_section("storage", "busy_timeout_ms", "x")), "ConfigError"),
    ("policy cache_mib 0", lambda e: e.policy(policy_section("storage", "cache_mib", 0)), "ConfigError"),
    ("policy loaded_indexes 0", lambda e: e.policy(policy_section("chroma", "loaded_indexes", 0)), "ConfigError"),
    ("policy exact_cache_mib -1", lambda e: e.policy(policy_section("chroma", "exact_cache_mib", -1)), "ConfigError"),
    ('policy lifecycle "0.2"', lambda e: e.policy(policy_section("lifecycle", "weak_below", "0.2")), "ConfigError"),
    ('policy candidates "30"', lambda e: e.policy(policy_section("search", "candidates", "30")), "ConfigError"),
    ("policy functional a string", lambda e: e.policy(policy_section("functional", "predicates", "lives_in")), "ConfigError"),
    ('policy hedge_stance "x"', lambda e: e.policy(policy_section("revision", "hedge_stance", "x")), "ConfigError"),
    ('policy conflicts "no"', lambda e: e.policy(policy_section("revision", "conflicts_from_weaker_sources", "no")),
     "ConfigError"),
    ("policy limits negative", lambda e: e.policy(policy_section("limits", "max_message_chars", -1)), "ConfigError"),
    ("policy limits unknown key", lambda e: e.policy(policy_section("limits", "max_messages", 5)), "ConfigError"),
    ("policy embedder kind int", lambda e: e.policy(policy_section("embedder", "kind", 5)), "ConfigError"),
    ("policy extractor kind typo", lambda e: e.policy(policy_section("extractor", "kind", "ofline")), "ConfigError"),
    ("policy context parent int", lambda e: e.policy(policy_section("contexts", "topic:latte", 5)), "ConfigError"),
    ('policy linking "high"', lambda e: e.policy(policy_section("linking", "entity_similarity", "high")), "ConfigError"),
    ('policy chroma port "x"', lambda e: e.policy(policy_section("chroma", "port", "x")), "ConfigError"),
    ('policy half-life "365"', lambda e: e.policy(policy_section("decay", "half_life_days", "365")), "ConfigError"),
    ("policy file not UTF-8", lambda e: e.policy_file("", raw=b"[bands]\nhigh = \xff\xfe"), "ConfigError"),
    ("policy file not TOML", lambda e: e.policy_file("[bands\nhigh = 1"), "ConfigError"),
    ("policy file a directory", lambda e: Policy.load(e.tmp), "ConfigError"),
    ("policy file nan", lambda e: e.policy_file("[bands]\nhigh = nan"), "ConfigError"),
]


def _error(name: str):
    return getattr(E, name, None) if name != "ok" else None


def classify(call, expected: str, env: Env) -> tuple[str, BaseException | None]:
    """typed (a BCGError), untyped (any other exception), silent (bad input accepted),
    ok (an input that must be accepted, accepted)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call(env)
        if isinstance(out, BeliefMemory):
            out.close()
    except E.BCGError as exc:
        return "typed", exc
    except Exception as exc:  # noqa: BLE001 - that is what is measured
        return "untyped", exc
    return ("ok" if expected == "ok" else "silent"), None


@pytest.mark.parametrize("case,call,expected", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_raises_its_typed_error_and_changes_nothing(case, call, expected, tmp_path):
    env = Env(tmp_path)
    try:
        before = (env.m.store.evidence_ids(), [(b.id, b.confidence) for b in env.m.beliefs(None, global_read=True)])
        kind, exc = classify(call, expected, env)
        if expected == "ok":
            assert kind == "ok", f"{case}: must be accepted, raised {exc!r}"
            return
        assert kind == "typed", f"{case}: expected {expected}, got {kind}: {exc!r}"
        assert isinstance(exc, _error(expected)), f"{case}: expected {expected}, got {type(exc).__name__}: {exc}"
        after = (env.m.store.evidence_ids(), [(b.id, b.confidence) for b in env.m.beliefs(None, global_read=True)])
        assert after == before, f"{case}: a refused call changed the memory"
    finally:
        env.close()


def census(tmp: Path) -> dict[str, list[str]]:
    """Run the whole table; cases per outcome (for the closing note of issue 12)."""
    out: dict[str, list[str]] = {"typed": [], "untyped": [], "silent": [], "ok": []}
    for case, call, expected in BAD_INPUTS:
        env = Env(tmp / f"c{len(sum(out.values(), []))}")
        try:
            kind, exc = classify(call, expected, env)
            if expected == "ok" and kind != "ok":
                kind = "untyped" if kind == "untyped" else "typed"  # a wrongly refused good input
            out[kind].append(case if exc is None else f"{case}: {type(exc).__name__}")
        finally:
            env.close()
    return out


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        result = census(Path(d))
    for kind in ("typed", "untyped", "silent", "ok"):
        print(f"{kind}: {len(result[kind])}")
    for kind in ("untyped", "silent"):
        for case in result[kind]:
            print(f"  {kind}: {case}")
