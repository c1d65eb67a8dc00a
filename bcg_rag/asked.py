"""Whom a question asks about (the user or a relative of the user), and which of a subject's slots.

"Where does the user live?" and "Where does the user's mom live?" retrieve the same
message ("my mom lives in Tampa, 90 min from my place in Orlando") and the same two
slots; only the subject tells them apart, and a vector of the whole question hardly
does. So the question's subject is read the way the extractor reads a statement's, with
the same lexicon, and the groups about it come first (their order among themselves, and
among the others, is unchanged):

- a relative of the user ("my mom", "the user's boyfriend", "我室友的猫", "用户男朋友"):
  the entity ``"<user>'s <relation>"`` that the extractor writes for such a subject;
- otherwise the user, when the question refers to them ("I", "my", "the user", "我",
  "用户") and names no one else whose slots were retrieved.

Someone the question names is left to the vectors: a message that names Bobby is near a
question that names him, and moving all of an entity's slots up would also move them
above the answer a multi-hop chain through that entity places (``hops.py``).

When nothing is recognised, or no retrieved group is about the subject found, the order
stays as it is: a question may ask about something no statement names. Plain string work
over the retrieved groups' subjects; no embedding.

Which slot of a subject is asked for is the predicate's to say, not the message's
(``slots_by_predicate``): a message's vector says whom it is about as much as what.

When the question asks about the user or a relative and no retrieved group is about
them (``speaks_of_unanswered``), the beliefs do not answer it: the raw statements that
speak of that subject are what a plain retriever would answer from.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

from .errors import InvalidInputError
from .extract.endings import ENDED, SLOT_ENDINGS
from .groups import held_in
from .hop_words import CJK_RUN, normalise
from .relevance import memory_lexicon, predicate_similarity
from .threads import asks_through

# The user as an owner in a question: "my", "our", "the user's"; "我(的)", "用户(的)".
_EN_OWNER = r"\b(?:my|our|(?:the |this )?user's)\s+(?:[a-z-]+\s+)?"
_ZH_OWNER = r"(?:我们的|我们|我的|我|咱们|咱|用户的|用户)"
_EN_USER = frozenset("i me my mine myself we us our ours user".split())
_ZH_USER = ("我", "咱", "用户")
# A statement in the first person speaks of the user ("I'm stuck here in Kansas City").
_FIRST_PERSON = re.compile(r"(?<![\w'])(?:i|i'm|i've|i'd|i'll|im|me|my|mine|myself|we|we're|we've|our|ours|us)(?![\w'])|我|咱",
                           re.IGNORECASE)
NAMED_WINDOW = 10  # distinct subjects of the best-ranked groups checked for a name the question says


_POSSESSIVE_S = re.compile(r"(?<=[A-Za-z])(?<![Uu]ser)'s\b")  # "the user's" stays the owner


@lru_cache(maxsize=8)
def _relative_pattern(lexicon: Any) -> re.Pattern[str]:
    return re.compile(rf"(?:{_EN_OWNER}|{_ZH_OWNER})({lexicon.relative_regex.pattern})", re.IGNORECASE)


def _relations(memory: Any, text: str) -> list[str]:
    """The relations of the user a text names with an owner ("my mom" -> "mother")."""
    lexicon = memory_lexicon(memory)
    text = _POSSESSIVE_S.sub(" 's", text)  # "my son's school" names my son: the kin word ends before 's
    found = (lexicon.relatives.get(" ".join(m.group(1).split()).casefold()) for m in _relative_pattern(lexicon).finditer(text))
    return [r for r in found if r is not None]


def relatives_asked(memory: Any, user_id: str, query: str, reads: Any = None) -> list[str]:
    """Entity ids of the user's relatives the question asks about ("my mom" -> the
    entity "<user>'s mother"), in the order named; those no statement made are left out.
    ``reads``: a search's ``SearchReads`` (names it has looked up are not looked up again)."""
    out: list[str] = []
    resolve = reads.resolve_entity if reads is not None else memory.resolve_entity
    for relation in _relations(memory, query):
        try:
            entity_id = resolve(user_id, f"{user_id}'s {relation}")
        except InvalidInputError:
            continue
        if entity_id is not None and entity_id not in out:
            out.append(entity_id)
    return out


def speaks_of_relation(memory: Any, query: str) -> Callable[[str], bool] | None:
    """When the question asks about a relative of the user ("my sister's company"), a test
    of whether a statement names that relation, with or without an owner ("the brother
    saga", "闺蜜跳槽了"); None when it asks about none."""
    relations = set(_relations(memory, query))
    if not relations:
        return None
    lexicon = memory_lexicon(memory)
    return lambda text: any(lexicon.relatives.get(" ".join(m.group().split()).casefold()) in relations
                            for m in lexicon.relative_regex.finditer(text))


def refers_to_user(query: str) -> bool:
    """The question speaks of the user: "I", "my", "the user", "我", "用户"."""
    if any(w in _EN_USER for w in normalise(query).split()):
        return True
    return any(ch in query for ch in _ZH_USER)


def names_entity(query: str, names: list[str]) -> bool:
    """One of ``names`` occurs in the question: as whole words, or for a CJK name (no
    spaces to cut at) as any occurrence of two characters or more."""
    asked = f" {normalise(query)} "
    for name in (normalise(n) for n in names):
        if CJK_RUN.search(name):
            if len(name) >= 2 and name in asked:
                return True
        elif name and f" {name} " in asked:
            return True
    return False


def asked_subjects(memory: Any, user_id: str, query: str, subject_ids: list[str], reads: Any = None) -> set[str]:
    """Of ``subject_ids``, those the question asks about (see module doc); empty when
    the question's subject is none of them or cannot be told. ``reads``: see ``_user_or_named``."""
    relatives = set(relatives_asked(memory, user_id, query, reads))
    if relatives:
        return relatives & set(subject_ids)
    if not refers_to_user(query):
        return set()
    user, other_named = _user_or_named(memory, query, subject_ids, reads=reads)
    return set() if other_named else user  # "does my brother Robert still live in Phoenix?": Robert's


def _named_subjects(memory: Any, query: str, subject_ids: list[str], reads: Any = None) -> set[str]:
    """Of the nearest subjects, those other than the user the question names."""
    return _user_or_named(memory, query, subject_ids, every=True, reads=reads)[1]


def _user_or_named(memory: Any, query: str, subject_ids: list[str], every: bool = False,
                   reads: Any = None) -> tuple[set[str], set[str]]:
    """Of the nearest subjects (each name check may cost a look-up of its aliases): the
    user's entity, and the others the question names (the first only, unless ``every``).
    ``reads``: a search's ``SearchReads`` (the hops read the same subjects and aliases again)."""
    ids = list(dict.fromkeys(subject_ids))[:NAMED_WINDOW]
    if reads:
        reads.names(ids)  # their rows and aliases in one statement
    rows = reads.entities(ids) if reads else memory.store.get_nodes("entity", ids)
    user = {i for i, r in rows.items() if r.get("entity_type") == "user"}
    named = (i for i, r in rows.items() if i not in user and names_entity(query, _names(memory, i, r, reads)))
    if every:
        return user, set(named)
    first = next(named, None)  # one name found says the question is about someone else: stop looking
    return user, set() if first is None else {first}


def asked_first(memory: Any, user_id: str, query: str, ranked: list, reads: Any = None) -> list:
    """Search's ranked groups ``(score, relevance, ordered rows, contexts)`` with those about
    the asked subject first (a stable partition: each side keeps its order). A slot whose
    value was refuted moves up too: "no longer" is its subject's answer."""
    if len(ranked) < 2:
        return ranked
    subject_ids = [g[2][0]["subject_id"] for g in ranked]
    asked = asked_subjects(memory, user_id, query, subject_ids, reads)
    if not asked and not refers_to_user(query) and not asks_through(query):
        # "What is Anya's job?": the slots of the asked kind of someone it names come first. Only
        # those, and not through an organisation: the subject a chain starts from ("the capital
        # of the country where the sport of Real Madrid originated", "... coached by Louis van
        # Gaal's employer") is not whom its end asks about.
        named = _named_subjects(memory, query, subject_ids, reads)
        if kind := answer_kind(query):
            first = [g for g in ranked if g[2][0]["subject_id"] in named and slot_name(g[2][0]["predicate"]) in kind]
            return first + [g for g in ranked if not any(g is f for f in first)]
        return _named_before_rivals(ranked, named)
    if not asked:
        return ranked
    return ([g for g in ranked if g[2][0]["subject_id"] in asked]
            + [g for g in ranked if g[2][0]["subject_id"] not in asked])


def _named_before_rivals(ranked: list, named: set[str]) -> list:
    """ "What diet does Priya follow?" after "my girlfriend Priya has been vegan for years" (the
    user's diet and Priya's, from one message, equally near): the named one's slot comes before
    the same slot of anyone else, where the first of them stood; nothing else moves."""
    slots = {g[2][0]["predicate"] for g in ranked if g[2][0]["subject_id"] in named}
    if not slots:
        return ranked
    moved = [g for g in ranked if g[2][0]["subject_id"] in named and g[2][0]["predicate"] in slots]
    at = next(i for i, g in enumerate(ranked) if g[2][0]["predicate"] in slots)
    rest = [g for g in ranked if not any(g is m for m in moved)]
    return rest[:at] + moved + rest[at:]


# The kind of answer a question's words ask for, and the slots whose values are of that kind:
# "Where does she live?" with no lives_in for her ("我姐在北京当律师" gave her a job, 律师, and a
# city of work, 北京): the city answers a question about a place, the job does not; "用户是做什么
# 工作的？" asks for the title (数学老师), not the employer (小学) named in the same message
# ("what does she do for fun?" asks for no job).
PLACE_PREDICATES = frozenset({"lives_in", "works_in", "born_in", "hometown", "headquarters", "located_in",
                              "works_at", "studies_at", "attends", "member_of"})
JOB_PREDICATES = frozenset({"job_title", "occupation"})
# "Which hospital do I work at?", "who does she work for?", "我在哪家公司": an organisation
# (asked before "where": "which school is in Leeds?" still names one); "what pets do I
# have?", "我养的啥宠物": an animal kept; "what are my pets called?": their names.
ORG_PREDICATES = frozenset({"works_at", "studies_at", "attends", "member_of", "employer"})
# "Which city / district / country ...?", "哪个区", "哪个城市": a place on a map, not the
# organisation one is at ("我老公在哪个区上班？": 番禺, where he works, not 越秀's employer slot).
GEO_PREDICATES = PLACE_PREDICATES - ORG_PREDICATES
# "What's the user's hobby?", "他有什么爱好？": an activity done for its own sake, whichever
# verb said it (loves chess, learning the ukulele, plays tennis, runs every morning).
HOBBY_PREDICATES = frozenset({"hobby", "likes", "studies", "plays", "habit"})
_EN_ORGS = r"company|employer|firm|hospital|clinic|school|college|university|bank|band|team|club|studio|startup|agency|lab"
_ZH_ORGS = r"公司|单位|学校|大学|医院|银行|乐队|团队|队|俱乐部|机构"
# "which gym do I go to?", "哪家健身房": a club one is a member of is an organisation asked for too
# (not a way to a place: "what street is my gym on?" is asked of the gym, through no hop)
_EN_CLUBS, _ZH_CLUBS = r"gym|gyms", r"健身房|健身馆|瑜伽馆|游泳馆"
# An organisation's word before what is asked is no organisation asked for ("what team sport …?")
_NOT_THE_ORG = r"(?!\s+(?:sports?|games?|members?|mates?|players?|colou?rs?|names?|events?|activit(?:y|ies)))"
BIRTHDAY_ASKED = re.compile(r"\bwhen(?:'s|\s+is|\s+was|\s+does|\s+do)\b.{0,40}\b(?:birthday|bday)|\b(?:birthday|bday)\b.{0,20}\b(?:date|when)\b"
                            r"|\bwhat\s+(?:day|date)\b.{0,40}\b(?:birthday|bday)|生日.{0,6}(?:几号|哪天|什么时候|几月|多少号|哪一天)"
                            r"|(?:几号|哪天|什么时候|哪一天).{0,6}生日", re.IGNORECASE)
BIRTHDAY_KIND = frozenset({"birthday"})
# The slots a "who is my <relation>?" question asks of the user (``ANSWER_KINDS``)
ASKS_WHO_ONE_IS = frozenset({"has_boss"})
ANSWER_KINDS = (
    (re.compile(rf"\b(?:which|what)\s+(?:[a-z-]+\s+)?(?:{_EN_ORGS}|{_EN_CLUBS})s?\b{_NOT_THE_ORG}|\bwho\s+(?:do|does|did)\s+.{{1,40}}?\bwork\s+for\b"
                rf"|(?:哪|什么|啥)(?:一|个|家|所|间)?(?:{_ZH_ORGS}|{_ZH_CLUBS})", re.IGNORECASE), ORG_PREDICATES),
    # "who is my manager?", "我领导是谁？": a person in a one-at-a-time role (not "what does my boss do?")
    (re.compile(r"\bwho(?:'s|\s+is|\s+was)\s+.{0,30}?\b(?:manager|boss|supervisor)\b|(?:领导|老板|上司)(?:现在)?(?:是谁|叫什么)",
                re.IGNORECASE), ASKS_WHO_ONE_IS),
    (BIRTHDAY_ASKED, BIRTHDAY_KIND),  # "when is Theo's birthday?": a day, whatever else one knows of Theo
    (re.compile(r"\bbreeds?\b|品种", re.IGNORECASE), frozenset({"breed"})),  # "what breed is my dog?": no name, no "has dog"
    # "what kind of dog does Jess have?": the breed, or the animal kept (a corgi), not its name
    (re.compile(r"\b(?:what|which)\s+(?:kind|type|sort)s?\s+of\s+(?:dog|cat|pet|bird|fish|snake|lizard|rabbit|horse)s?\b"
                r"|(?:什么|哪种|啥)(?:样的)?(?:狗|猫)", re.IGNORECASE), frozenset({"breed", "has"})),
    (re.compile(r"\b(?:pet|dog|cat|puppy|kitten|hamster|rabbit|bunny|parrot|turtle|tortoise)s?\b.*\b(?:called|named?|names)\b"
                r"|(?:宠物|狗|猫|狗狗|猫咪|乌龟|兔子|仓鼠|鹦鹉).*(?:叫|名字)", re.IGNORECASE), frozenset({"pet_name"})),
    (re.compile(r"\bpets?\b|宠物", re.IGNORECASE), frozenset({"has"})),
    (re.compile(r"\b(?:which|what)\s+(?:city|town|country|state|province|district|neighbou?rhood|area|part of town"
                r"|street|road|avenue)\b|(?:哪|什么)(?:个|座|条)?(?:城市|国家|省|区|县|镇|片区|街|路)", re.IGNORECASE), GEO_PREDICATES),
    (re.compile(r"\bhobb(?:y|ies)\b|\bpastimes?\b|爱好|兴趣爱好", re.IGNORECASE), HOBBY_PREDICATES),
    (re.compile(r"\bwhere\b|\bwhich place\b|哪里|哪儿|什么地方|在哪", re.IGNORECASE), PLACE_PREDICATES),
    (re.compile(r"\bwhat does .{1,40}? do\b(?! for (?!a living|work))|\b(?:job|occupation|profession|work as|job title)\b"
                r"|\b(?:role|position|title)\s+(?:at|in)\s+(?:work|the\s+company|the\s+office)\b|做什么工作|是做什么的|干什么的|"
                r"干啥的|什么职业|职业是|岗位|职位|职务", re.IGNORECASE), JOB_PREDICATES),
)


_KNOWN_SLOTS = frozenset().union(*(slots for _, slots in ANSWER_KINDS))

# A question about what is new ("what has she been into lately?", "用户最近迷上的爱好是什么？"):
# of the slots of the asked kind, the one stated last answers it.
_RECENT = re.compile(r"\b(?:recently|lately|latest|newest|most recent)\b|最近|近来|最新|新近|这阵子", re.IGNORECASE)


def asks_a_day(kind: frozenset[str]) -> bool:
    """A question of this kind (``answer_kind``) asks for a day that no other slot's value can be: a birthday."""
    return kind == BIRTHDAY_KIND


def asks_recent(query: str) -> bool:
    """The question asks what is new ("recently", "lately", "最近")."""
    return bool(_RECENT.search(query))


def slot_name(predicate: str) -> str:
    """The slot a predicate fills: "attr:hometown" and "plan:works_at" are hometown and works_at."""
    return predicate.removeprefix("attr:").removeprefix("plan:")


# A question that asks for a place through an organisation ("which city is my company's HQ
# in?", "用户现在所在公司的总部在哪个城市？"): the organisation's slot is the way to the answer.
_THROUGH_ORG = re.compile(rf"\b(?:{_EN_ORGS})(?:'s)?\b|{_ZH_ORGS}|\bhq\b|headquarters|总部", re.IGNORECASE)


@lru_cache(maxsize=4)  # a search asks it of its question three or four times
def of_a_known_kind(predicate: str) -> bool:
    """A slot the kinds of answer above know (``ANSWER_KINDS``), or an ending: whether it is of the
    kind asked can be told. An extractor's other predicates ("has_pet", "diet") may be of any kind."""
    return predicate == ENDED or slot_name(predicate) in _KNOWN_SLOTS


def of_asked_kind(predicate: str, value: str, kind: frozenset[str]) -> bool | None:
    """Whether a slot holds the kind of answer asked (None: the question asks no kind). An ending
    said by its slot's word ("quit my job", "裸辞了" end a job) is of that slot's kind; one that
    names a thing ("done with the Norway trips") is of no kind asked."""
    if not kind:
        return None
    if predicate == ENDED:
        return any(slot in kind for slot in SLOT_ENDINGS.get(value, ()))
    return slot_name(predicate) in kind


def answer_kind(query: str) -> frozenset[str]:
    """The slots whose values are the kind of answer the question asks for (none: any)."""
    kind = next((predicates for pattern, predicates in ANSWER_KINDS if pattern.search(query)), frozenset())
    return PLACE_PREDICATES if kind == GEO_PREDICATES and _THROUGH_ORG.search(query) else kind


def slots_by_predicate(memory: Any, ranked: list, vector: Any, query: str = "", context: str | None = None) -> list:
    """Search's ranked groups ``(score, ...)`` with each subject's slots reordered among the
    places they hold by their score plus ``[search] slot_predicate_weight`` x how near their
    predicate is to the question (``relevance.predicate_similarity``). A message's
    similarity says whom it is about as much as what, so for two slots of one subject
    whose messages name it alike or not ("Bobby just got a job at Intel" against "my
    brother Robert lives in Phoenix", for "where does Bobby live?") the predicate weighs
    more. The slots whose values are the kind of answer the question's words ask for
    (``answer_kind``: a place, a job) come first among them, whatever the scores (a bonus
    of 0.1 on their fit was too small to move "what is the user's job?" off the employer).
    Of the slots of the asked kind, predicates whose fits differ by at most ``[search]
    slot_fit_tie`` count as one fit. Among those of the asked kind, the slots held in the
    question's ``context`` come first: asked in topic:office what the user drinks, the
    office's americano before the water a doctor prescribed in topic:health, whichever
    predicate is nearer. Ties keep their order (stable sorts)."""
    weight = float(memory.policy.section("search").get("slot_predicate_weight", 2.0))
    tie = float(memory.policy.section("search").get("slot_fit_tie", 0.0))
    if len(ranked) < 2 or not weight:
        return ranked
    near = predicate_similarity(memory, sorted({g[2][0]["predicate"] for g in ranked}), vector)
    kind = answer_kind(query)
    recent = bool(kind) and bool(_RECENT.search(query))
    places: dict[str, list[int]] = {}
    for i, g in enumerate(ranked):
        places.setdefault(g[2][0]["subject_id"], []).append(i)
    out = list(ranked)
    for at in places.values():
        if len(at) > 1:
            # Of the slots of the asked kind, predicates about as near as the nearest tie
            # (``slot_fit_tie``: a hobby as "habit" or as "likes"); their scores decide.
            fits = {id(ranked[i]): near[ranked[i][2][0]["predicate"]] for i in at}
            asked = [ranked[i] for i in at if kind and _of_kind(ranked[i], kind)]
            top = max((fits[id(g)] for g in asked), default=0.0)
            for g in asked:
                if top - fits[id(g)] <= tie:
                    fits[id(g)] = top
            slots = sorted((ranked[i] for i in at), key=lambda g: -(g[0] + weight * fits[id(g)]))
            if recent:  # stable sorts: the slots stated last first, then those of the asked kind
                slots.sort(key=lambda g: max(r["last_updated"] for r in g[2]) if _of_kind(g, kind) else "", reverse=True)
            if context:
                slots.sort(key=lambda g: not held_in(memory, context, g[3], g[2][0]["context_key"]))
            # "where ...?": a slot whose value is a place before a job or an age, whatever the scores
            slots.sort(key=lambda g: not _of_kind(g, kind))
            for i, g in zip(at, slots):
                out[i] = g
    return out


def _of_kind(group: Any, kind: frozenset[str]) -> bool:
    return slot_name(group[2][0]["predicate"]) in kind


# Relations that are the value of a slot of the user's own (dating, married_to, engaged_to).
PARTNERS = frozenset({"husband", "wife", "boyfriend", "girlfriend", "partner"})
# Asking who the partner is, or their name: the user's own slot ("用户的男朋友是谁？", "what's my wife's name?")
_ASKS_WHO = re.compile(r"\bwho\b|\bname\b|是谁|叫什么|名字|哪位", re.IGNORECASE)


def speaks_of_unanswered(memory: Any, user_id: str, query: str, subject_ids: list[str],
                         reads: Any = None) -> Callable[[str], bool] | None:
    """When the question asks about the user or one of their relatives (as ``asked_subjects``
    reads it) and none of ``subject_ids`` (the returned groups' subjects) is that subject,
    a test of whether a statement speaks of it: in the first person for the user, by one of
    its names or its relation ("my sister") for a relative. None when a group is about the
    asked subject, or the question asks about no one it can tell. ``reads``: see ``_user_or_named``."""
    relatives = relatives_asked(memory, user_id, query, reads)
    relations = set(_relations(memory, query))
    if answer_kind(query) & ASKS_WHO_ONE_IS:  # "who is my manager?" asks the user's slot, not about the manager
        relatives, relations = [], set()
    # A relative no claim is about yet ("用户的妈妈养了什么宠物？" when only "我妈…买了只虎皮鹦鹉"
    # was said, unread) is asked about all the same when every group is the user's own: they do
    # not answer. Not a partner ("用户的男朋友是谁？" asks the user's dating slot), nor when a group
    # is about someone else, who may be that relative by name ("Ana", the user's sibling).
    # (a partner's own tastes or doings are theirs: "用户的老公喜欢吃什么？")
    unknown_relative = (not relatives and bool(relations - PARTNERS or relations and not _ASKS_WHO.search(query))
                        and _user_or_named(memory, query, subject_ids, reads=reads)[0] == set(subject_ids))
    if relatives or unknown_relative:
        if set(relatives) & set(subject_ids):
            return None
        names = [n for r in relatives for n in _names(memory, r, reads=reads)]
        return lambda text: names_entity(text, names) or bool(relations & set(_relations(memory, text)))
    if not refers_to_user(query):
        return None
    user, other_named = _user_or_named(memory, query, subject_ids, reads=reads)
    if user or other_named:  # a group is about the user, or the question asks about someone retrieved
        return None
    return lambda text: bool(_FIRST_PERSON.search(text))


def _names(memory: Any, entity_id: str, row: dict | None = None, reads: Any = None) -> list[str]:
    row = row or (reads.entity(entity_id) if reads else memory.store.get_node("entity", entity_id)) or {}
    return [n for n in [row.get("name")] if n] + list(reads.aliases_of(entity_id) if reads else memory.store.aliases_of(entity_id))
