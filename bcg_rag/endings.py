"""Endings linked to what they end, whatever the order of arrival.

"gave up on spanish" or "left Northwind" says that something is over without naming its
slot; the extractor reads it as the subject's ``ENDED`` value, denied. This rule links
such a statement to the same subject's stated values that it names ("Spanish on
Babbel" being learnt, "Northwind Traders" as employer), or, when it names a slot by what
it is (a job without its employer, an engagement, a relationship, a marriage, an activity by
its verb: "my last day of teaching"), to that slot's values stated before it: the ending
statement gets a denying claim on each of them, and the fold refutes the value at the
ending's time, so a value stated again later holds again. Pairs are found from both sides (an ending finds the
values already stored; a new value finds the endings already stored), so the claims, and
so the beliefs, are the same in any order of arrival. No belief is created here: an ending
that names nothing known stays a statement about ``ENDED`` only. Likewise a denial by a
shorter name ("cancelled my Ironworks membership") denies the longer name it names in the
same slot ("Ironworks Gym"), from either side.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .extract.endings import CAR, ENDED, PETS, SLOT_ENDINGS
from .extract.in_passing import is_car
from .extract.pets_hobbies import is_pet
from .ids import normalise_key
from .models import REFUTES, SUPPORTS, Claim
from .relevance import memory_lexicon
from .writing import add_claims_once

if TYPE_CHECKING:
    from .memory import BeliefMemory

# What an ending cannot end: tastes, identities and attributes outlast "gave up on spanish"
# (liking Spanish food, being Spanish), and plans or templates are not stated values.
NOT_ENDED = frozenset({ENDED, "likes", "loves", "dislikes", "hates", "prefers", "enjoys", "name", "age", "birthday",
                       "born_in", "from", "nationality", "hometown", "speaks", "is", "named"})
NOT_ENDED_PREFIXES = ("plan:", "stmt:", "slot:", "attr:", "favorite", "prefers_")
# "spanish" names "Spanish on Babbel": the value goes on with a preposition.
CONTINUES = frozenset({"on", "at", "in", "with", "from", "for", "of", "via", "through"})
# "IronPeak" names "IronPeak gym": the value goes on with the kind of place it is.
PLACE_KINDS = frozenset({"gym", "fitness", "studio", "studios", "club", "cafe", "café", "bar", "pub", "restaurant", "salon",
                         "spa", "academy", "school", "clinic", "store", "shop", "bakery", "center", "centre", "app"})


def endable(predicate: str) -> bool:
    return predicate not in NOT_ENDED and not predicate.startswith(NOT_ENDED_PREFIXES)


def names_value(ended: str, value: str) -> bool:
    """Whether an ending's thing names a stated value: the same words; the value's first
    words, then a preposition ("spanish" / "Spanish on Babbel"), more of a name
    ("Northwind" / "Northwind Traders"), the kind of place it is ("IronPeak" / "IronPeak gym") or a
    model number ("iphone" / "iPhone 12"); in
    Chinese, one the start or the end of the other ("吉他课" / "吉他", "朗逸" / "大众朗逸": a model without its make, "老卡罗拉" / "卡罗拉")."""
    # a name's article is no word of it: "the loose ends are no more" ends "The Loose Ends"
    e, v = (re.sub(r"^the\s+", "", normalise_key(said)) for said in (ended, value))
    if not e or not v:
        return False
    if e == v:
        return True
    if re.search(r"[\u4e00-\u9fff]", e + v):
        return min(len(e), len(v)) >= 2 and (e.startswith(v) or v.startswith(e) or e.endswith(v) or v.endswith(e))
    ew, vw, shown = e.split(), v.split(), value.split()
    if len(vw) <= len(ew) or vw[: len(ew)] != ew or len(shown) != len(vw):
        return False
    following = shown[len(ew)]
    # "iphone" names "iPhone 12": a model number goes on with the name
    return (following.casefold() in CONTINUES | PLACE_KINDS or (ended[:1].isupper() and following[:1].isupper())
            or bool(re.fullmatch(r"\d+[a-z]?", following, re.IGNORECASE)))


def names_predicates(memory: Any, ended: str) -> tuple[str, ...]:
    """The slots an ending names by what they are rather than by a value: the employer's for
    a job ended ("I quit my job"), the partner's for an engagement, relationship or marriage
    ended, the slot of a verb the memory's lexicon knows, named as an activity ("teaching" ->
    teaches); none for a thing ("spanish", "Northwind")."""
    if ended in SLOT_ENDINGS:
        return SLOT_ENDINGS[ended]
    if not re.fullmatch(r"[a-z]+ing", ended.casefold()):
        return ()
    kind, predicate = memory_lexicon(memory).verbs.get(ended.casefold(), ("", None))
    return (predicate,) if kind == "verb" and predicate and endable(predicate) else ()


def of_kind(memory: Any, ended: str, value: str) -> bool:
    """Whether a value of a slot that an ending names by its kind is of that kind: the pets
    ended ("家里没有宠物了") are the animals ``has`` holds, not the children or the car it holds
    too; the car sold ("车卖了") is a car owned, not the house."""
    if ended == PETS:
        return is_pet(memory_lexicon(memory), value)
    return ended != CAR or is_car(memory_lexicon(memory), value)


def link_endings(memory: BeliefMemory, evidence_id: str) -> list:
    """Denying claims for every (ending, stated value it names) pair this evidence is part of,
    then for the pets' names that go with the pets ended."""
    ev = memory.store.get_node("evidence", evidence_id)
    if ev is None:
        return []
    changes = _link_values(memory, ev)
    return changes + _names_with_pets(memory, evidence_id) + _pets_with_names(memory, evidence_id)


def _names_with_pets(memory: Any, evidence_id: str) -> list:
    """A pet's name goes with the pet: a name said together with an animal kept ("our cat
    Luna", "我家可乐（柯基）") is denied by whatever ends that animal ("gave the cat away", "柯基
    送人了", "no pets any more"), at the ending's time, whichever of the two arrived first."""
    return _ended_together(memory, evidence_id, "has", "pet_name")


def _pets_with_names(memory: Any, evidence_id: str) -> list:
    """And the other way: a pet ended by its name ("we had to rehome Biscuit", "mom gave Captain
    back to the rescue") ends the animal said together with that name ("our beagle Biscuit",
    "she adopted a parrot named Captain")."""
    return _ended_together(memory, evidence_id, "pet_name", "has")


def _ended_together(memory: Any, evidence_id: str, ended: str, together: str) -> list:
    """Denials, at each ending's time, of the ``together`` values said in the same statements
    as an ``ended`` value this evidence touches, for the same subject (a slot ``has`` counts
    only its animals)."""
    lexicon = memory_lexicon(memory)
    kept = lambda predicate, value: predicate != "has" or is_pet(lexicon, value)  # noqa: E731
    touched = sorted({e.dst for e in memory.store.edges_from([evidence_id], [SUPPORTS, REFUTES])})
    beliefs = [b for b in memory.store.get_nodes("belief", touched, history=False).values()
               if b["predicate"] == ended and kept(ended, b["value"])]
    edges = memory.store.edges_to([b["id"] for b in beliefs], [SUPPORTS, REFUTES]) if beliefs else []
    changes: list = []
    for b in beliefs:
        endings = [e for e in edges if e.dst == b["id"] and e.relation == REFUTES and not (e.reason or "").startswith("functional")]
        stated = sorted({e.src for e in edges if e.dst == b["id"] and e.relation == SUPPORTS})
        if not endings or not stated:
            continue
        others = [c for c in memory.store.claims_for_evidence(stated) if c["predicate"] == together and c["stance"] > 0
                  and kept(together, c["value"]) and memory.resolve_entity(b["user_id"], c["subject"]) == b["subject_id"]]
        for e in endings:
            for other in others:
                changes += _deny(memory, e.src, other["subject"], together, other["value"], e.value if e.value is not None else -1.0)
    return changes


def _link_values(memory: Any, ev: dict) -> list:
    """The denials of ``link_endings`` for the values an ending names, from either side."""
    evidence_id = ev["id"]
    user_id = ev["user_id"]
    claims = memory.store.claims_for_evidence([evidence_id])
    changes: list = []
    for c in claims:  # this statement ends values stated elsewhere
        if c["predicate"] != ENDED or c["stance"] >= 0:
            continue
        subject_id = memory.resolve_entity(user_id, c["subject"])
        if subject_id is None:  # no filter would mean every subject's beliefs
            continue
        beliefs = memory.store.find_beliefs(user_id, history=False, subject_id=subject_id)
        slots = names_predicates(memory, c["value"])
        # A slot ended by its verb ("my last day of teaching") ends the values stated before the
        # ending, not a later one ("new job at NIO" after "I quit my job").
        kept = [b["id"] for b in beliefs if b["predicate"] in slots and of_kind(memory, c["value"], b["value"])]
        begun = memory.store.supporter_types(kept, str(ev["timestamp"])) if slots else {}
        for b in beliefs:
            if endable(b["predicate"]) and (names_value(c["value"], b["value"]) or b["id"] in begun):
                changes += _deny(memory, evidence_id, c["subject"], b["predicate"], b["value"], c["stance"])
    changes += _short_names(memory, evidence_id, user_id, claims)
    stated = [c for c in claims if c["stance"] > 0 and endable(c["predicate"])]
    if not stated or ENDED not in memory.store.known_predicates(user_id):
        return changes
    for c in stated:  # endings stored already that name this statement's value
        subject_id = memory.resolve_entity(user_id, c["subject"])
        ended = [b for b in memory.store.find_beliefs(user_id, history=False, subject_id=subject_id, predicate=ENDED)
                 if _ends(memory, b["value"], c)] if subject_id is not None else []
        if not ended:
            continue
        sources = sorted({e.src for e in memory.store.edges_to([b["id"] for b in ended], [REFUTES])})
        times = {i: str(r["timestamp"]) for i, r in memory.store.get_nodes("evidence", sources).items()}
        for e in memory.store.claims_for_evidence(sources):
            earlier = str(ev["timestamp"]) < times.get(e["evidence_id"], "")  # stated before the ending
            if e["predicate"] == ENDED and e["stance"] < 0 and (names_value(e["value"], c["value"]) or (
                    earlier and c["predicate"] in names_predicates(memory, e["value"]) and of_kind(memory, e["value"], c["value"]))):
                changes += _deny(memory, e["evidence_id"], c["subject"], c["predicate"], c["value"], e["stance"])
    return changes


# Slots whose values are names, which chat shortens: "cancelled my Ironworks membership" after
# "signed up at Ironworks Gym", "left Northwind" after "I work at Northwind Traders". An animal
# kept is shortened to its kind too ("龟送人了" after "家里两只巴西龟"): ``has`` when it holds a pet.
NAMED_SLOTS = frozenset({"member_of", "works_at", "studies_at", "subscribes_to", "banks_with", "owns"})


# A denial read in one slot reaches the same name in the slots one leaves the same way: "left
# X" (read as a group's membership) ends a job at X, "Cancelled X" (read as a subscription)
# the membership of a gym called X. The memory, not the sentence, knows which slot X is in.
DENIAL_REACHES = {"member_of": ("subscribes_to", "works_at"), "subscribes_to": ("member_of",)}


def _reached(predicate: str) -> tuple[str, ...]:
    """The slots a denial in ``predicate`` ends a named value of."""
    return (predicate, *DENIAL_REACHES.get(predicate, ()))


def _reaching(predicate: str) -> tuple[str, ...]:
    """The slots whose denials end a named value of ``predicate``."""
    return (predicate, *sorted(p for p, reached in DENIAL_REACHES.items() if predicate in reached))


def _short_names(memory: Any, evidence_id: str, user_id: str, claims: list[dict]) -> list:
    """A denial by a shorter name (or the same name, read in a slot one leaves alike) denies
    the stated value it names, from either side: this evidence's denials end the names
    stored; this evidence's names are denied by the denials stored."""
    changes: list = []
    lexicon = memory_lexicon(memory)
    for c in claims:
        pet = c["predicate"] == "has" and is_pet(lexicon, c["value"])
        slots = _reached(c["predicate"]) if c["stance"] < 0 else _reaching(c["predicate"])
        if c["predicate"] not in NAMED_SLOTS and not pet or (
                c["stance"] > 0 and not (pet or _may_be_shortened(c["value"])) and len(slots) == 1):
            continue  # a one-word name is no longer name of anything shorter: no look-up on the way in
        if (subject_id := memory.resolve_entity(user_id, c["subject"])) is None:
            continue
        for slot in slots:
            beliefs = [b for b in memory.store.find_beliefs(user_id, history=False, subject_id=subject_id, predicate=slot)
                       if slot != c["predicate"] or normalise_key(b["value"]) != normalise_key(c["value"])]
            if c["stance"] < 0:  # "cancelled my Ironworks membership": the stored "Ironworks Gym" ends
                changes += [ch for b in beliefs if _shortens(lexicon, pet, c["value"], b["value"])
                            for ch in _deny(memory, evidence_id, c["subject"], slot, b["value"], c["stance"])]
                continue
            shorter = [b for b in beliefs if _shortens(lexicon, pet, b["value"], c["value"])]  # "Ironworks Gym" after its cancellation
            sources = sorted({e.src for e in memory.store.edges_to([b["id"] for b in shorter], [REFUTES])}) if shorter else []
            for e in memory.store.claims_for_evidence(sources):
                if e["predicate"] == slot and e["stance"] < 0 and _shortens(lexicon, pet, e["value"], c["value"]):
                    changes += _deny(memory, e["evidence_id"], c["subject"], c["predicate"], c["value"], e["stance"])
    return changes


def _shortens(lexicon: Any, pet: bool, short: str, value: str) -> bool:
    """Whether ``short`` names the longer ``value``: by its first words, as the value spells
    them ("ironworks", typed in lower case, names "IronWorks Gym"), or, for an animal, by the
    kind it ends with ("龟" / "巴西龟", "猫" / "小橘猫", "greyhound" / "retired greyhound")."""
    if names_value(_spelled_as(short, value), value):
        return True
    s, v = normalise_key(short), normalise_key(value)
    if not (pet and s and len(v) > len(s) and is_pet(lexicon, short) and is_pet(lexicon, value)):
        return False
    return v.endswith(s) if re.search(r"[\u4e00-\u9fff]", s) else v.endswith(" " + s)


def _spelled_as(short: str, value: str) -> str:
    """A shorter name as the longer one spells it: "cancelled my ironworks membership", typed
    in lower case, names "IronWorks Gym" as "IronWorks" would."""
    words, shown = short.split(), value.split()[: len(short.split())]
    return " ".join(shown) if [w.casefold() for w in shown] == [w.casefold() for w in words] else short


def _may_be_shortened(value: str) -> bool:
    """A name of two words or more, or of three Chinese characters or more: one a shorter name may name."""
    return len(value.split()) > 1 or len(re.findall(r"[\u4e00-\u9fff]", value)) > 2


def _ends(memory: Any, ended: str, claim: dict) -> bool:
    """Whether an ending's thing may end a stated claim: it names its value, its verb or its kind."""
    return names_value(ended, claim["value"]) or (claim["predicate"] in names_predicates(memory, ended)
                                                  and of_kind(memory, ended, claim["value"]))


def _deny(memory: Any, evidence_id: str, subject: str, predicate: str, value: str, stance: float) -> list:
    return add_claims_once(memory, evidence_id, [Claim(subject, predicate, value, stance)], origin="ending")
