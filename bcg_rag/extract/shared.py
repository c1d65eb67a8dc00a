"""The rules both languages share: verb phrases, attributes and value cleaning.

A rule reads one clause and returns what it says (``Found``), or None to let the next
rule try. Language-specific shapes are in ``en.py`` and ``zh.py``; whom the words before
a verb name is ``subjects.py``'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .grammar import (EN_AMOUNT_PER, EN_DWELLING_IN, EN_TEAM_AT, MAX_VALUE_CJK_CHARS, MAX_VALUE_WORDS, TIME_TAILS,
                      ZH_DURATION, ZH_PLACE_CALLED)
from .text import (CJK_CHAR, EDGE_PUNCTUATION, EN_SETTING_LEAD, VERB_PARTICLES, collapse, has_cjk, inside_title,
                   is_business, snake_name, title_article)

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

MAX_RAW_VALUE_CHARS = 160  # a value region longer than this is a clause, not a thing: not cleaned at all
# A degree adverb right before 有: "很有耐心" is patient, "挺有钱" is well off.
ZH_DEGREE_END = re.compile(r"(?:很|挺|特别|非常|超|太|蛮|比较|相当|更|最|真)$")
# "my sister Anna", "my friend Sarah Lee": a relative named right after the relation word.
EN_NAME_AFTER = re.compile(r"^\s*,?\s*([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*,?\s*$")
# "plays the position of defender": the verb is part of a longer relation phrase.
LONGER_RELATION = re.compile(r"^the\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+of\s")
JOB_WORDS = re.compile(r"\b(?:job|position|role|gig|internship|shift|program|programme|class|course)s?\b|工作|岗位", re.IGNORECASE)
EN_CHAT_TAIL = re.compile(r"(?:\s+(?:rn|atm|tbh|ngl|fr|lol|lowkey|tho))+$", re.IGNORECASE)
# Values an unknown attribute may have: "my shoe size is 42", "my blood type is B", "my cat's name is Mochi".
SLOT_VALUE = re.compile(r"\d[\d.,:'\"]*\s*[a-zA-Z]{0,5}|[A-Z]{1,2}[+-]?")
EN_TITLE_NAME = re.compile(r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s*)?[A-Z][a-z][\w'-]*(?:\s+[A-Z][a-z][\w'-]*){0,3}")  # "Dr. Patel" too
# "a golden retriever named Biscuit", "一只柯基叫旺财": the pet's name after the thing owned.
PET_NAMED = re.compile(r"\s+(?:named|called)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\b.*$|(?<=[\u4e00-\u9fff])叫([\u4e00-\u9fffA-Za-z]{1,4})$")
ZH_COMPANION = re.compile(r"(?:和|跟|与)[\u4e00-\u9fff]{1,4}(?:一起)?$")
CLUB_WORDS = re.compile(
    r"\b(?:club|league|team|gym|fitness|society|association|union|party|choir|band|group|community|church|ymca|program)\b"
    r"|(?<=[a-z])(?-i:Gym|Club|Fitness|Fit)\b",  # "PureGym", "PureFit": the kind ends a name written as one word
    re.IGNORECASE,
)
EN_SOME = re.compile(r"(?:^\s*|(?<=\band\s))(?:a\s+little(?:\s+bit)?(?:\s+of)?|a\s+bit\s+of)\s+(?=\S)", re.IGNORECASE)
EN_KIN_NAMED = re.compile(r"^(?:his|her|my|their|our)\s+(?P<relation>[a-z-]+(?:\s+[a-z-]+)?)\s+(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)$")
EN_CONTRACTED_BE = re.compile(r"(?<=[A-Za-z])'(?:s|re)$")
EN_COUNT = re.compile(r"^(?:two|three|four|five|six|seven|eight|nine|ten|several|\d{1,2})\s+(?=[a-z]+s$)", re.IGNORECASE)
EN_NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())} | {
    str(i): i for i in range(100)}
EN_OWNER_WORDS = {"my": "i", "our": "we", "your": "you"}
# "March 14th" and "March 14" are one day: a restated birthday must not look like a new one
EN_DAY_ORDINAL = re.compile(r"\b((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2})(?:st|nd|rd|th)\b")
EN_MODEL_YEAR = re.compile(r"^(?:19|20)\d\d\s+(?=[A-Z])")  # "a 2015 Honda Civic": the car, not its year


# The speaker named by what others call them: "call me", "they call me", "叫我".
CALLED_ME = frozenset({"call me", "calls me", "called me", "calling me", "叫我"})


@dataclass(frozen=True)
class Found:
    """What one clause says, before value normalisation and stance."""

    subject: str
    predicate: str
    value: str
    negated: bool = False
    changed: bool = False  # the stance was set by a change shape ("from X to Y"); moods leave it alone
    rule: str = ""  # which rule read it (for measuring each rule's precision)


# The predicate of an ending read without its slot: "the user no longer does X" (endings.py).
ENDED = "does"


class SharedRules:
    lexicon: Lexicon

    def _attribute_claim(
        self, owner: str, personal: bool, attr: str, value: str, negated: bool, known_only: bool = True
    ) -> Found | None:
        """ "<owner>'s <attr> is <value>". With ``known_only`` the attribute must be one the lexicon
        names or a taste ("favorite X"): "my car is literally yellow" and "my teacher is very
        patient" describe things, they name no slot of the owner."""
        lex = self.lexicon
        attr, attr_negated = self._clean_attribute(attr)  # "颜色现在是", "名字不再是", "color now is"
        negated = negated or attr_negated
        if known_only and collapse(attr).casefold() not in lex.attributes and not lex.preference.match(attr):
            plain = value.strip(EDGE_PUNCTUATION)
            if not (SLOT_VALUE.fullmatch(plain) or EN_TITLE_NAME.fullmatch(plain) or has_cjk(plain) and self._zh_named(plain)):
                return None  # an unknown attribute needs a value that is plainly one: a number, a name
        if not_lead := lex.negation.lead.match(value):  # "is not blue", "is no longer"
            value, negated = value[not_lead.end():], True
        if (place := lex.locatives.lead.match(value)) and value[place.end():].strip():
            value = value[place.end():]  # "is in Munich" -> "Munich"
        value = self._clean_value(value)
        if not attr or not self._usable(value):
            return None
        name = lex.attribute_of(attr)
        if personal or lex.preference.match(attr):
            name = "attr:" + name
        return Found(owner, name, value, negated)

    def _verb(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        """<subject> [adverbs] [negation] <lexicon verb> <value>, first or third person.

        Verb matches are tried left to right until the words before one name a subject
        ("王爱华喜欢茶": "爱" is inside the name); in Chinese a verb must be a whole word of
        jieba's segmentation ("现在" holds 在, "小说" holds 说).
        """
        lex = self.lexicon
        cjk = has_cjk(clause)
        pos = 0
        for _ in range(4):  # a few tries keep a long message cheap
            verb = self._next_verb(lex.verb_regex, clause, pos, cjk)
            frame = min(
                ((m, predicate) for pattern, predicate in lex.frames if (m := self._next_verb(pattern, clause, pos, cjk))),
                key=lambda found: found[0].start(),
                default=None,
            )
            if frame and (verb is None or frame[0].start() <= verb.start()):
                match, kind, predicate, value = frame[0], "verb", frame[1], frame[0].group(1)
                value = self._peel(value, (lex.before_verb,), lead=False)[0]  # "对摄影很感兴趣": 很 is no part of it
            elif verb:
                match, value = verb, clause[verb.end():]
                kind, predicate = lex.verbs[collapse(verb.group()).casefold()]
            else:
                return None
            found = self._verb_claim(clause, match, kind, predicate, value, turn)
            if found is not False:
                return found
            pos = match.start() + 1
        return None

    def _next_verb(self, pattern: re.Pattern[str], clause: str, pos: int, cjk: bool) -> re.Match[str] | None:
        """The next match at or after ``pos``; in Chinese, only one on word boundaries."""
        for _ in range(8):
            m = pattern.search(clause, pos)
            if m is None or not cjk or self._on_tokens(clause, m.start(), m.end(), frame=bool(m.groups())):
                return m
            pos = m.start() + 1
        return None

    def _verb_claim(
        self, clause: str, match: re.Match[str], kind: str, predicate: str, value: str, turn: Turn
    ) -> Found | list[Found] | None | bool:
        """The claim one verb match makes; False when the words before it name no subject."""
        lex = self.lexicon
        before = clause[: match.start()]
        if "把" in before:  # 把-construction puts the object before the verb: "把美式停掉"
            before, _, value = before.rpartition("把")
        surface, raw_value = collapse(match.group()).casefold(), value
        if surface == "like" and (not before.strip() or re.search(r"(?:'m|'s|'re|\b(?:is|was|am|are|it|that))\s*$", before, re.IGNORECASE)):
            return None  # "like 38 degrees", "I'm like 5'9": a filler, not the verb
        if has_cjk(clause) and (place := self._locative(clause, before)) is not None:
            # "(我)在上海住了六年", "我在家喝茶": a place before the verb, not part of the subject
            if predicate == "lives_in" and (not self._clean_value(value) or re.fullmatch(f"了?(?:{ZH_DURATION})?了?", value.strip())):
                value = before[place + 1:]
            before = before[:place]
        if len(self.lexicon.negation.anywhere.findall(before)) > 1:
            return None  # "我不是不喜欢咖啡", "not that I don't like jazz": a double negation says neither
        before, negated = self._clean_before_verb(before)
        called_me = predicate == "name" and surface in CALLED_ME
        if predicate == "name" and not before and not called_me:
            return None  # "我养了一只柯基，叫豆豆": the dog's name, not the speaker's
        # "everyone at work calls me Katherine", "my friends have called me Kit since 6th grade":
        # whoever says it, it is what the speaker goes by
        subject = turn.speaker_id if called_me else self._subject(before, turn)
        negated = negated or called_me and bool(re.match(r"(?:nobody|no\s*one|no-one)\b", before, re.IGNORECASE))
        named = subject is not None and (subject in (turn.user_id, turn.speaker_id) or "'s " in subject or self._zh_named(subject))
        if (not named and has_cjk(clause) and before and not self._clean_value(value)
                and re.search(r"了[吧啊呀哦]?$", clause) and (negated or kind == "stop")):
            # The object comes first: "游戏早就不玩了", "啤酒已经戒了" (the speaker, dropped)
            subject, value = turn.speaker_id, before
        if subject is None:
            return False
        if EN_AMOUNT_PER.match(value):  # "I smoke half a pack a day": the habit of the verb itself
            doing = lex.activity_doing.get(surface)
            return Found(subject, "habit", doing, negated) if doing else None
        if predicate == "studies" and (learnt := self._learnt_doing(value)):
            value = learnt  # "learning to knit" -> knitting, "to play the cello" -> the cello
        if LONGER_RELATION.match(value.strip()) or value.strip().split(" ", 1)[0].casefold() in lex.prepositions:
            return None  # "plays the position of X", "plays for X": a relation longer than the verb
        if predicate == "has" and has_cjk(clause) and clause.startswith("还有"):
            return None  # "还有榴莲…": "and also", not a possession
        if predicate == "has" and ZH_DEGREE_END.search(clause[: match.start()]):
            return None  # "很有耐心", "挺有意思": a degree says a quality, not a thing owned
        if predicate == "has" and not self._possession(value):
            return False  # "I have a question", "我有点累": no possession (a later verb may say something)
        extra: list[Found] = []
        if predicate == "lives_in" and (home := EN_DWELLING_IN.match(value.strip())):
            value = home["place"]
        elif predicate == "lives_in" and surface.endswith("into") and not self._town(value, turn):
            return None  # "moved into a new apartment": a home, not a place (unless one follows it); "settled into Montreal" is one
        if predicate == "has" and (named := PET_NAMED.search(value)) and not is_business(value[: named.start()]):
            value = value[: named.start()]  # "a golden retriever named Biscuit", "一只柯基叫旺财"
            extra.append(Found(subject, "pet_name", named.group(1) or named.group(2), negated))
        elif predicate == "works_at" and (job := re.match(r"^(.+?)\s+as\s+(?:a|an|the)?\s*(.+)$", value)):
            value = job.group(1)  # "works at Boeing as a mechanic"
            extra.append(Found(subject, "job_title", self._clean_value(job.group(2)), negated))
        elif predicate == "member_of" and (team := EN_TEAM_AT.match(value.strip())):
            value = team["team"]  # "joined the fraud team at Brambleton Cooperative Bank": its employer too
            extra.append(Found(subject, "works_at", team["org"], negated))
        if predicate in ("likes", "dislikes") and re.match(r"(?:the\s+(?:new|latest|current|last|first|next)|this|that)\b", value.strip(), re.IGNORECASE):
            return None  # "Love the new update": an opinion of one thing, not a taste
        head, joined, tail = value.partition(" and ")
        if joined and (lex.verb_regex.search(tail) or len(self._clean_value(tail).split()) > 3):  # "likes tea and lives in Paris"
            value = head
        value = self._clean_value(value)
        gone = re.match(r"go(?:es|ing)?\s+to\s", value, re.IGNORECASE)  # "stopped going to the gym": a habit
        if light := self._light_verb(value):
            value = self._clean_value(value[light.end():])  # "打篮球" -> "篮球", "跳尊巴" -> "尊巴", "playing tennis" -> "tennis"
            if kind == "stop" and not predicate:  # "stopped playing tennis": what the light verb does
                predicate = lex.verbs.get(collapse(light.group()).casefold(), ("", ""))[1] or lex.cessation_predicate
        # A verb followed by another verb: the second one carries the object
        # ("stopped drinking coffee", "enjoy eating fish").
        elif re.match(r"(?:like|as)\s", value, re.IGNORECASE) and not has_cjk(value):
            return None  # "I eat like a bird": a comparison, not what is eaten or liked
        elif ZH_PLACE_CALLED.match(value):
            pass  # "在一家叫青禾的公司上班": the place's name, not a second verb (the gate takes the name)
        elif (inner := lex.verb_regex.match(value)) and lex.verbs[collapse(inner.group()).casefold()][0] == "verb":
            if kind == "stop" and not self._clean_value(value[inner.end():]) and not has_cjk(value):
                predicate = lex.cessation_predicate  # "quit drinking": the habit itself
            else:
                predicate = lex.verbs[collapse(inner.group()).casefold()][1]
                value = self._clean_value(value[inner.end():])
        elif kind == "stop" and not predicate:
            # "quit sugar" stops consuming it; "ditched the iphone", "quit tennis" end a thing of
            # another slot, which the endings rule finds by its name (``bcg_rag.endings``)
            predicate = ENDED if not has_cjk(value) and self._kept_or_done(value) else lex.cessation_predicate
        if kind == "stop" and gone:
            predicate = "habit"
        if kind == "stop":
            if JOB_WORDS.search(value):
                return None  # "quit the barista job": a job, read by the job rule or not at all
            if value.strip()[:1].isupper() and self.lexicon.value_of(self._clean_value(value)) == self._clean_value(value):
                return None  # "quit Facebook", "quit Acme": a name is no habit, and no job without a job word
            negated = not negated  # "I quit coffee" denies; "I didn't quit coffee" affirms
        if predicate == "member_of" and surface.startswith("join") and not raw_value.lstrip().casefold().startswith(
            ("the ", "a ", "an ", "my ", "our ")
        ) and value[:1].isupper() and not CLUB_WORDS.search(value):
            predicate = "works_at"  # "joined Stripe": an employer; "joined the YMCA / a league": a membership
        if (kin := EN_KIN_NAMED.match(value.strip())) and self.lexicon.relative_regex.fullmatch(kin["relation"]):
            value = kin["name"]  # "married her boyfriend Luis": the person is Luis
        values = self._coordinated(value, predicate)
        if predicate == "has":  # "two dogs", "three kids": the thing kept, not how many
            for v in values:  # ...but "four bikes": how many things, one number at a time (people and pets have names)
                if (count := EN_COUNT.match(v)) and (n := EN_NUMBERS.get(count.group().strip().casefold())) and not negated \
                        and not self._someone(v[count.end():]):
                    extra.append(Found(subject, f"number_of_{snake_name(v[count.end():])}", str(n), False))
            values = [EN_MODEL_YEAR.sub("", EN_COUNT.sub("", v) or v) for v in values]
        found = [Found(subject, predicate, v, negated) for v in values if self._usable(v)]
        found += [f for f in extra if found and self._usable(f.value)]
        return found or None

    def _locative(self, clause: str, before: str) -> int | None:
        """Where "在<place>" starts in the words before a verb: 在 as a word of its own (not the
        在 of 现在), with a place after it."""
        for word, _, at in reversed(self._tokens(clause)):
            if at < len(before) - 1 and word.startswith("在") and at + len(word) <= len(before):
                return at  # "在上海", and jieba's "在家"
        return None

    def _relation(self, clause: str, turn: Turn) -> Found | None:
        """Third-person-only verbs from the lexicon: "小张是医生" -> (小张, is, 医生)."""
        lex = self.lexicon
        m = self._next_verb(lex.relation_regex, clause, 0, has_cjk(clause))
        if m is None:
            return None
        before, negated = self._clean_before_verb(clause[: m.start()])
        subject = self._third_person(before, turn)
        value = self._clean_value(clause[m.end():])
        if subject is None or not self._usable(value):
            return None
        return Found(subject, lex.relations[collapse(m.group()).casefold()], value, negated)

    # ---- pieces the rules share

    def _time_spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self.lexicon.time.anywhere.finditer(text)]

    @staticmethod
    def _search_outside(
        pattern: re.Pattern[str], text: str, blocked: Sequence[tuple[int, int]], pos: int = 0
    ) -> re.Match[str] | None:
        """The first match at or after ``pos`` that does not start inside a blocked span."""
        for _ in range(16):
            m = pattern.search(text, pos)
            if m is None or not any(start < m.start() < end for start, end in blocked):
                return m
            pos = m.start() + 1
        return None

    def _peel(self, text: str, sets: Sequence, lead: bool) -> tuple[str, bool]:
        """Peel phrases of ``sets`` off the end (and the start when ``lead``); report a negation.

        At each step the longest phrase at an edge goes first ("我现在" loses 现在, not 在).
        A peel that would leave one Chinese character other than a pronoun or an adverb is
        not made: "王刚" is a name, not 王 + 刚 ("just").
        """
        lex = self.lexicon
        negated = False
        for _ in range(64):  # every step removes a phrase; a region is short
            best = None
            for phrases in sets:
                for edge in ((phrases.trail, phrases.lead) if lead else (phrases.trail,)):
                    m = edge.search(text)
                    if not (m and m.group().strip() and (lead or m.start() > 0)):
                        continue
                    peeled = (text[: m.start()] + " " + text[m.end():]).strip()
                    if CJK_CHAR.match(m.group()) and self._zh_splits_word(text, m.end() if m.start() == 0 else m.start()):
                        continue  # the 能 of 云杉智能 is no "can"
                    if (len(peeled) == 1 and CJK_CHAR.match(peeled) and not self._is_pronoun(peeled)
                            and peeled not in lex.adverbs and peeled not in "他她它"):
                        continue  # "王刚" is a name; "超能" is two adverbs
                    if best is None or len(m.group().strip()) > best[0]:
                        best = (len(m.group().strip()), peeled, phrases is lex.negation)
            if best is None:
                break
            _, text, said_not = best
            negated = negated or said_not
        return text, negated

    def _clean_before_verb(self, region: str) -> tuple[str, bool]:
        """Peel adverbs, time phrases and negations off the subject region; report a negation."""
        lex = self.lexicon
        purpose_negated = False
        if has_cjk(region) and "为了" in region:  # "(我)为了离公司近点搬到徐汇了": a purpose, then the verb
            region, purpose = region[: region.index("为了")], region[region.index("为了"):]
            purpose_negated = bool(lex.negation.trail.search(purpose))  # "为了减肥不吃晚饭了": the 不 is the verb's
        region, negated = self._peel(EN_SETTING_LEAD.sub("", region.strip()), (lex.negation, lex.time, lex.before_verb), lead=True)
        negated = negated or purpose_negated
        if EN_CONTRACTED_BE.search(region):  # "my uncle's from Ireland", "my sister's not into sports": 's is "is"
            region, more = self._peel(EN_CONTRACTED_BE.sub("", region), (lex.negation, lex.time, lex.before_verb), lead=True)
            negated = negated or more
        if has_cjk(region) and (company := ZH_COMPANION.search(region)):
            # "(现在)和老伴住在大理", "我跟老公住在上海": who else does it is not the subject
            region, more = self._peel(region[: company.start()], (lex.negation, lex.time, lex.before_verb), lead=True)
            negated = negated or more
        if has_cjk(region) and (bare := self._zh_without_adverbs(region)) != region:  # "今天正式从远川离职了": 正式 is no one
            region, more = self._peel(bare, (lex.negation, lex.time, lex.before_verb), lead=True)
            negated = negated or more
        return region, negated

    def _clean_attribute(self, attr: str) -> tuple[str, bool]:
        """Drop time words, adverbs and negations after an attribute ("颜色现在", "名字不再", "color now")."""
        lex = self.lexicon
        attr = EN_CHAT_TAIL.sub("", attr.strip(EDGE_PUNCTUATION))  # chat shorthand is no part of a name: "my fav band rn is …"
        return self._peel(attr, (lex.negation, lex.time, lex.before_verb), lead=False)

    def _clean_value(self, value: str) -> str:
        """Drop what surrounds a value without being it: articles, fillers, time, punctuation.

        Linear: a region too long to be a value is given up at once, and every pass of the
        loop removes something from a value of bounded length.
        """
        lex = self.lexicon
        value = EN_SOME.sub("", value)  # "speak a little French (and a bit of German)": no stop before a value
        # "tea over coffee": the value is what comes first; but not inside a title's name
        # ("Attack on Titan", "Gone with the Wind"), nor after a hyphen ("stay-at-home mom").
        if stop := next((m for m in lex.value_stops.finditer(value, 1)
                         if value[m.start() - 1] != "-" and not inside_title(value, m)), None):
            value = value[: stop.start()]
        if len(value) > MAX_RAW_VALUE_CHARS:
            return ""
        previous = None
        while value != previous:
            previous = value
            value = value.strip(EDGE_PUNCTUATION)
            for pattern in (lex.around_value.lead, lex.before_value, lex.around_value.trail, lex.time.trail, lex.time.lead,
                            *TIME_TAILS):
                m = pattern.search(value)
                if m and m.group().strip() and not self._in_mixed_word(value, m) and not title_article(value, m):
                    value = (value[: m.start()] + " " + value[m.end():]).strip()
        return collapse(EN_DAY_ORDINAL.sub(r"\1", value))

    @staticmethod
    def _in_mixed_word(value: str, m: re.Match[str]) -> bool:
        """An English word glued to a Chinese character is part of one token: the "A" of "A型"
        (a blood type) is no article."""
        word = m.group().strip()
        if not word.isascii():
            return False
        after, before = value[m.end():m.end() + 1], value[m.start() - 1:m.start()] if m.start() else ""
        return bool(m.group()[-1:].isalnum() and after and CJK_CHAR.match(after)
                    or m.group()[:1].isalnum() and before and CJK_CHAR.match(before))

    def _usable(self, value: str) -> bool:
        """A short thing, not a pronoun: anything else is a clause the rules misread."""
        if not value or value[0] == "-":  # "smoke-free": the verb was half of a compound
            return False
        words = value.casefold().split()
        if value.casefold() in self.lexicon.pronoun_values or words[0] in self.lexicon.pronoun_values:
            return False
        if words[0] in VERB_PARTICLES and words[1:2] != ["of"]:
            return False  # "i eat out way too much", "took up": the particle is the verb's, no thing ("Out of Africa" is)
        if value[0] in "我你他她它不没" or (
            words[0].endswith("ing") and len(words) > 1
            and (words[1] in self.lexicon.prepositions or words[1] in self.lexicon.pronoun_values or words[1] in ("the", "a", "an", "my", "out", "up"))
        ):
            return False  # "我大学室友" is a relation, "吃不下" a verb's ending, "staying with us" a clause ("shooting guard" is a thing)
        return len(words) <= MAX_VALUE_WORDS and len(CJK_CHAR.findall(value)) <= MAX_VALUE_CJK_CHARS
