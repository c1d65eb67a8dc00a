"""English shapes: attributes, changes ("moved from X to Y"), jobs, copulas, third-person relations."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .endings import ENDING_VERBS
from .grammar import EN_STUDENT, SAYING_VERBS
from .idioms import EN_DAY_IS_MINE, EN_NAME_IS_MY_ROLE
from .shared import Found
from .mentions import pet_named_pattern
from .text import CONTRACTED_COPULAS, COPULAS, collapse, has_cjk, snake_name, third_person

if TYPE_CHECKING:
    from .turn import Turn

# "my X is Y"; "your X is Y" is about the user when the assistant says it.
EN_MY_ATTRIBUTE = re.compile(r"^(?P<owner>my|your|our)\s+(?P<attr>.+?)\s+(?:is|are|was|were)\s+(?P<value>.+)$", re.IGNORECASE)
# "my birthday's March 14": the contracted copula, after an attribute the lexicon names
EN_MY_ATTRIBUTE_S = re.compile(r"^(?P<owner>my|your|our)\s+(?P<attr>[^'’]+?)['’]s\s+(?P<value>.+)$", re.IGNORECASE)
EN_DETERMINER_OWNER = {"my": "i", "your": "you", "our": "we"}
EN_OF_ATTRIBUTE = re.compile(
    r"^the\s+(?P<attr>[^,]+?)\s+of\s+(?P<owner>.+?)\s+(?:is|are|was|were)\s+(?P<value>.+)$", re.IGNORECASE
)
# A passive verb where the value should be: "The Art of War was created in ...", "X's
# album was released by ..." state an event, not "art of War = created".
EN_PASSIVE = re.compile(  # ("located in", "based in" lead to a place: "The headquarters of X is located in Y")
    r"^(?!(?:located|based|situated|headquartered|stationed)\b)(?:\w+ed|born|made|built|written|known|held|taken|given|seen|sold|led|found|won|drawn|grown|shown|spoken|chosen)"
    r"\s+(?:in|by|at|on|from|to|as|into|for|with|under|during)\b", re.IGNORECASE)
# The attribute starts lower-case, so "Grey's Anatomy's broadcaster" finds the right "'s".
EN_POSSESSIVE = re.compile(
    r"^(?P<owner>.+?)'s\s+(?P<attr>[a-z][\w\s-]*?|[A-Z]{2,5})\s+(?:is|are|was|were)\s+(?P<value>.+)$"
)

# "moved from Shanghai to Shenzhen", "switched from coffee to tea": the old value is
# denied and the new one asserted, by the text itself.
EN_FROM_TO = re.compile(
    r"^(?P<before>.*?)\b(?P<verb>moved|move|moving|relocated|relocate|relocating|switched|switch|switching"
    r"|changed|change|changing|went|transferred|transfer|upgraded)\s+(?:back\s+|over\s+)?"
    r"from\s+(?P<old>.+?)\s+(?:to|into)\s+(?P<new>.+)$",
    re.IGNORECASE,
)
# "Moved back home to Cork after 6 yrs in Dublin": where one lived for years before the move.
EN_MOVED_AFTER = re.compile(
    r"^(?P<before>.*?)\b(?:moved|relocated)\s+(?:back\s+)?(?:home\s+)?to\s+(?P<new>.+?)\s+after\s+(?:[\w-]+\s+){1,2}?"
    r"(?:yrs?|years?|months?|decades?)\s+in\s+(?P<old>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)$",
    re.IGNORECASE,
)
EN_MOVE_VERBS = ("move", "moved", "moving", "relocated", "relocate", "relocating")
EN_INSTEAD = re.compile(r"^(?P<head>.+?)\s+(?:instead of|rather than)\s+(?P<old>.+)$", re.IGNORECASE)
# Jobs: "started a new job at Microsoft as a data scientist", "got a job with Acme", "got hired as a vet tech at X".
EN_NEW_JOB = re.compile(
    r"^(?P<before>.*?)\b(?:(?:started|start|starting|got|get|getting|landed|accepted|took|begin|began|have|had)\s+"
    r"(?:a|an|my|the)?\s*(?:(?:new|first|dream|part-time|full-time|part\s+time|full\s+time|summer|weekend|temp|remote)\s+){0,2}"
    r"(?:job|position|role|gig|internship|work)"
    r"|(?:got|gets|get|getting|was|were|been|is|am|are)\s+(?:just\s+)?hired(?:\s+on)?)\s+"
    r"(?:as\s+(?:a\s+|an\s+)?(?P<title0>[a-z][\w\s-]*?)\s+)?"
    r"(?:at|with|in)\s+(?P<org>.+?)(?:\s+as\s+(?:a\s+|an\s+)?(?P<title>.+))?$",
    re.IGNORECASE,
)
EN_NAME_THEN_DOING = re.compile(r"^(?P<org>(?-i:[A-Z][\w&'.-]*(?:\s+(?:&\s+)?[A-Z][\w&'.-]*)*))\s+(?-i:[a-z]+ing)\b")
EN_LEFT_JOB = re.compile(
    r"^(?P<before>.*?)\b(?P<verb>quit|left|leaving|quitting|resigned from|resign from|got fired from|was fired from"
    r"|got laid off from|was laid off from|got let go from|retired from|leave"
    r"|handed\s+in|gave\s+in|put\s+in|turned\s+in|handing\s+in)\s+"
    r"(?:(?:my|the|a|his|her|their|our)\s+(?:[\w-]+\s+){0,2}?(?:job|position|role|gig|internship|notice|resignation)\s+(?:at|with|in)\s+)?(?P<org>.+)$",
    re.IGNORECASE,
)
# "Just got a job offer from Spotify", "accepted the offer from Deloitte": a place one may (or
# will) work at, not yet one's employer: a plan.
EN_OFFER_KIND = r"(?:(?:job|internship|return|full-time|verbal)\s+)?offer"
EN_JOB_OFFER = re.compile(  # ... or "accepted Adyen's offer"
    r"^(?P<before>.*?)\b(?:got|get|received|receive|have|has|had|accepted|accept|took|signed)\s+(?:(?:a|an|the|my|their)\s+"
    rf"{EN_OFFER_KIND}\s+(?:from|at|with)\s+(?P<org>(?-i:[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){{0,3}}))"
    rf"|(?P<org2>(?-i:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){{0,3}}))'s\s+{EN_OFFER_KIND}\b)", re.IGNORECASE)
ZH_JOB_OFFER = re.compile(r"^(?P<before>.*?)(?:拿到了?|收到了?|接了|接受了)(?P<org>[^，。！？]{1,12}?)的(?:offer|Offer|OFFER|录用通知)")
# "I work as a vet tech at Greenhill Animal Clinic, ...": the title and the employer (not "worked as": maybe over)
EN_WORK_AS_AT = re.compile(r"^(?P<before>.*?)\bwork(?:s|ing)?\s+as\s+(?:a|an)\s+(?P<title>[a-z][\w\s-]{1,40}?)\s+(?:at|for)\s+"
                           r"(?P<org>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,4})(?:\s*,.*)?$", re.IGNORECASE)
EN_AS_TITLE = re.compile(r"^(?P<org>.+?)\s+as\s+(?:a\s+|an\s+|the\s+)?(?P<title>.+)$", re.IGNORECASE)
# First-person and third-person copulas: "I'm a nurse", "my mom is a doctor", "I'm vegetarian".
# A perfect tense after "has": "Bobby has already bought skis" (no possession).
EN_PARTICIPLE = re.compile(r"^(?:(?:already|just|finally|recently|also|never|not|since)\s+)*(?:\w+ed|bought|got|gotten|made|done|been|seen|"
                           r"gone|taken|given|found|left|won|lost|sold|built|written|begun|become|come|run|put|set|known|grown)\b", re.IGNORECASE)
# Motion after a copula: "going to a concert", "heading to the gym" (not "going to be a nurse").
EN_GOING_TO_A = re.compile(r"^\s*(?:(?:just|also|still|now|currently|really)\s+)*(?:going|heading|off|driving|walking|flying)\s+(?:to|into)\s+(?:a|an|the|my|our|this|that)\b",
                           re.IGNORECASE)
EN_COPULA = re.compile(
    r"^(?P<subject>.+?)(?:'ve been|'s been|\s+(?:have|has) been|'m|'re|'s|\s+(?P<verb>am|is|are|was|were|be))\s+(?P<rest>.+)$",
    re.IGNORECASE
)
RELATION_POINTERS = frozenset("its his her their my our your me him them us it".split())
# "the sport of association football": a class noun before "of" (the lexicon's class_nouns).
EN_CLASS_OF = re.compile(r"^(?:the\s+)?([a-z]+)\s+of\s+", re.IGNORECASE)
# "plays the position of": a relation that names one slot with a definite description.
EN_DEFINITE_RELATION = re.compile(r"\bthe\s+[a-z]+\s+(?:of|for)$", re.IGNORECASE)
# A role said without "I'm" but with a word that says it is new: "officially a data scientist
# now", "finally a senior engineer", "a nurse now", "GOT PROMOTED!! senior product designer now".
EN_BARE_ROLE = re.compile(
    r"^(?:(?:officially|finally|now|newly|proudly)\s+)+(?:a|an)\s+(?P<role>[a-z][a-z\s-]{1,40}?)(?:\s+now)?\s*$"
    r"|^(?:(?:a|an)\s+)?(?P<role2>[a-z][a-z\s-]{1,40}?)\s+now\s*$", re.IGNORECASE)
# "(Biscuit is) 9 and still acts like a puppy": the age, then what else is said of them
EN_AGE = re.compile(r"^(?P<age>\d{1,3})(?:\s+(?:years?|yrs?)(?:\s+old)?)?(?:,?\s+(?:and|but)\s+(?!a\s+half\b).+)?$", re.IGNORECASE)
# "a nurse in Leeds": a trade and the town it is practised in
EN_TRADE_IN = re.compile(r"^(?P<title>.+?)\s+(?:(?:up|down|over|out)\s+)?in\s+(?P<place>[\w'.-]+(?:\s+[\w'.-]+){0,2})$")


class EnglishRules:
    def _attribute(self, clause: str, turn: Turn) -> Found | None:
        """ "my X is Y" / "我的X是Y" -> attr:X; "The X of Y is Z" / "Y's X is Z" / "Y的X是Z" -> (Y, X, Z).

        The user's attributes and tastes ("favorite ...", "老王最喜欢的…") are "attr:X" whoever
        has them, so "my favorite color", "the user's favorite color" and "Mike's favorite
        color" name one slot.
        """
        lex = self.lexicon
        if has_cjk(clause):
            return self._zh_attribute(clause, turn)
        if (early := lex.time.lead.match(clause)) and early.end() < len(clause):  # "These days my favorite …"
            clause = clause[early.end():]
        if day := EN_DAY_IS_MINE.match(clause):  # "august 19 is my birthday!": the day, then whose
            clause = f"{day['owner']} {day['attr']} is {day['date']}"
        elif (role := EN_NAME_IS_MY_ROLE.match(clause)) and role["attr"].casefold() not in (*lex.relatives, *lex.pets):
            clause = f"my {role['attr']} is {role['name']}"  # "Dr. Lindqvist is my GP now", as "my GP is Dr. Lindqvist"
        if (m := EN_POSSESSIVE.match(clause)) and (relative := self._relative(m["owner"], turn)):
            owner, personal, attr = relative, False, m["attr"]  # "my sister's name is Anna"
        elif m := EN_MY_ATTRIBUTE.match(clause) or (
                (s := EN_MY_ATTRIBUTE_S.match(clause)) and collapse(s["attr"]).casefold() in lex.attributes and s):
            (owner, personal), attr = self._owner(EN_DETERMINER_OWNER[m["owner"].casefold()], turn), m["attr"]
            if lex.relative_regex.match(attr) or m["value"].split(" ", 1)[0].endswith("ing"):
                return None  # "my mom is a doctor": a person; "my feet are killing me": a clause
            if re.search(r"\s[A-Z][a-z]", attr):
                return None  # "my dog Rex is 3": someone named, not an attribute of mine
        elif m := EN_OF_ATTRIBUTE.match(clause):  # "The capital of X is Y": a definite description
            (owner, personal), attr = self._owner(m["owner"], turn), m["attr"]
            if owner is None or EN_PASSIVE.match(m["value"]):
                return None
            return self._attribute_claim(owner, personal, attr, m["value"], False, known_only=personal)
        elif m := EN_POSSESSIVE.match(clause):
            (owner, personal), attr = self._owner(m["owner"], turn), m["attr"]
            owner = owner or self._org_by_its_office(m["owner"], attr)
            if owner is None or EN_PASSIVE.match(m["value"]):
                return None  # "Kat's birthday": known slots, or a name as the value ("Ken Burns's child is …")
            return self._attribute_claim(owner, personal, attr, m["value"], False, known_only=personal or not m["value"][:1].isupper())
        else:
            return None
        if owner is None:
            return None
        return self._attribute_claim(owner, personal, attr, m["value"], False)

    def _change_from_to(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "moved from X to Y", "switched from X to Y", "moved to Y after 6 years in X", "X instead
        of Y" (and 从X搬到Y, 把X换成Y)."""
        if has_cjk(clause):
            return self._zh_change(clause, turn)
        if m := EN_FROM_TO.match(clause):
            before, negated = self._clean_before_verb(m["before"])
            subject = self._subject(before, turn)
            old, new = self._clean_value(m["old"]), self._clean_value(m["new"])
            if subject is None or negated or not (self._usable(old) and self._usable(new)):
                return None
            if m["verb"].casefold() in EN_MOVE_VERBS:
                predicate = "lives_in"
            else:
                predicate = self._value_predicate(new, old)
            return [Found(subject, predicate, old, True, True), Found(subject, predicate, new, False, True)]
        if m := EN_MOVED_AFTER.match(clause):
            before, negated = self._clean_before_verb(m["before"])
            subject = self._subject(before, turn)
            old, new = self._clean_value(m["old"]), self._clean_value(m["new"])
            if subject is None or negated or not (self._usable(old) and self._usable(new)) or not new[:1].isupper():
                return None
            return [Found(subject, "lives_in", old, True, True), Found(subject, "lives_in", new, False, True)]
        if m := EN_INSTEAD.match(clause):
            found = self._verb(m["head"], turn) or self._copula(m["head"], turn)
            old = self._clean_value(m["old"])
            found = found if isinstance(found, list) else [found] if found else []
            if len(found) == 1 and not found[0].negated and self._usable(old):
                f = found[0]
                return [Found(f.subject, f.predicate, f.value, False, True), Found(f.subject, f.predicate, old, True, True)]
        return None

    def _value_predicate(self, *values: str) -> str:
        """The predicate a switch between ``values`` changes: the lexicon's kind of the first
        value it knows ("from coffee to matcha": coffee is drunk, so matcha is), else "prefers"."""
        for value in values:
            if moved := self.lexicon.value_predicates.get(self.lexicon.value_of(value).casefold()):
                return moved[0]
        return "prefers"

    def _job(self, clause: str, turn: Turn) -> list[Found] | None:
        """A new job ("started a new job at X as Y"), leaving one ("quit my job at X"), or an
        offer (a plan: "got a job offer from Spotify", "拿到了阿里的offer")."""
        if m := (ZH_JOB_OFFER if has_cjk(clause) else EN_JOB_OFFER).match(clause):
            region, negated = self._clean_before_verb(m["before"])
            subject = self._subject(region, turn)
            org = self._clean_value(m["org"] or m.groupdict().get("org2") or "")
            return [Found(subject, "plan:works_at", org)] if subject and not negated and self._usable(org) else None
        if has_cjk(clause):
            return self._zh_job(clause, turn)
        if m := EN_NEW_JOB.match(clause):
            return self._job_found(m["before"], m["org"], m["title"] or m["title0"], turn, False)
        if m := EN_WORK_AS_AT.match(clause):  # "I work as a vet tech at Greenhill Animal Clinic"
            return self._job_found(m["before"], m["org"], m["title"], turn, False)
        if m := EN_LEFT_JOB.match(clause):
            org = m["org"]
            job_words = re.search(r"\b(?:job|position|role|gig|internship)\s+(?:at|with|in)\b", m.group(), re.IGNORECASE)
            job_verb = m["verb"].casefold() not in ("quit", "quitting", "left", "leaving", "leave")
            if not job_words and not job_verb:
                return None  # "I quit smoking" is a habit; "left Chicago" a city; "quit Facebook" an app
            if self.lexicon.value_of(self._clean_value(org)).casefold() in self.lexicon.values:
                return None  # "I quit coffee": a known consumable
            return self._job_found(m["before"], org, None, turn, True)
        return None

    def _job_found(self, before: str, org: str, title: str | None, turn: Turn, negated: bool) -> list[Found] | None:
        region, negated_before = self._clean_before_verb(before)
        subject = self._subject(region, turn)
        if title is None and (split := EN_AS_TITLE.match(org)):
            org, title = split["org"], split["title"]
        if doing := EN_NAME_THEN_DOING.match(org):
            org = doing["org"]  # "a job at Ferrovia Rail doing timetables": what the work is, not whose
        org = self._clean_value(org)
        if subject is None or negated_before or not self._usable(org) or not self.lexicon.name_run.match(org):
            return None
        found = [Found(subject, "works_at", org, negated, negated)]
        title = self._clean_value(title or "")
        if title and self._usable(title):
            found.append(Found(subject, "job_title", title, negated, negated))
        return found

    def _copula(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        """ "I'm a nurse (at X)", "I'm vegetarian", "I'm 32", "my mom is a doctor"; 我是老师."""
        lex = self.lexicon
        if has_cjk(clause):
            return self._zh_copula(clause, turn)
        m = EN_COPULA.match(clause)
        if m is None:
            role = EN_BARE_ROLE.match(clause)  # "officially a data scientist now!!": the speaker, left out
            said = role and (role["role"] or role["role2"])
            if said and lex.is_occupation(said) and self._usable(value := self._clean_value(said)):
                return Found(turn.speaker_id, "job_title", value, False)
            return None
        region, negated = self._clean_before_verb(m["subject"])
        plural = region.casefold() == "we"  # "we're vegetarian": only a listed state is the speaker's too
        if region.casefold() == "i" or plural:
            subject = turn.speaker_id
        elif region.casefold() in ("he", "she") and turn.other and turn.user_is_speaker:
            subject = turn.other  # "my sister lives in Rome, she's a nurse": the one named before
        elif region.casefold() in ("we", "you", "they", "it", "that", "this", "there", "he", "she", "what", "here"):
            return None
        else:
            subject = self._third_person(region, turn)
            if subject is None:
                return None
        if EN_GOING_TO_A.match(m["rest"]):
            return None  # "I'm going to a concert", "I've been going to a bouldering gym": where, not what one is
        rest, more_negated = self._peel(m["rest"], (lex.negation, lex.time, lex.before_verb), lead=True)
        negated = negated or more_negated
        if (m["verb"] or "").casefold() in ("was", "were"):
            negated = True  # "I was a teacher (for ten years)": a past state, no longer so
        rest = re.sub(r"\s+(?:rn|atm)$", "", rest.strip(" .!"))  # "a junior QA tester rn": right now (not "an ICU RN")
        if plural:
            rest = re.sub(r"^(?:both|all)\s+", "", rest, flags=re.IGNORECASE)
        if (age := EN_AGE.match(rest)) and not plural:
            return Found(subject, "age", age["age"], negated)
        article = re.match(r"^(?:a|an)\s+", rest, re.IGNORECASE)
        if article and pet_named_pattern(lex).match(region):
            return None  # "my cat Luna is a menace": what one thinks of a pet, not what it is
        if article and not plural:
            value = rest[article.end():]
            org = None
            town = None
            if job := re.match(r"^(?P<title>.+?)\s+(?:at|for|with)\s+(?P<org>[A-Z].*)$", value):
                value, org = job["title"], self._clean_value(job["org"])
            elif (job := EN_TRADE_IN.match(value)) and lex.is_occupation(self._clean_value(job["title"])) and self._town(job["place"], turn):
                value, town = job["title"], self._lower_case_place(job["place"]) or self._clean_value(job["place"])  # "a vet up in aberdeen"
            value = self._clean_value(value)
            if not self._usable(value) or len(value.split()) > 4:
                return None
            if org and self._usable(org) and EN_STUDENT.fullmatch(value):  # "a junior at Westbrook State": a student there
                kind = [Found(subject, "job_title", value, negated)] if "student" in value.casefold() else []
                return kind + [Found(subject, "studies_at", org, negated)]
            if org and self._usable(org):
                return [Found(subject, "job_title", value, negated), Found(subject, "works_at", org, negated)]
            if town and self._usable(town):
                return [Found(subject, "job_title", value, negated), Found(subject, "works_in", town, negated)]
            return Found(subject, "job_title" if lex.is_occupation(value) else "is", value, negated)
        for state in sorted(lex.states, key=len, reverse=True):
            if rest.casefold() == state or rest.casefold().startswith(state + " "):
                obj = self._clean_value(rest[len(state):])
                if state.endswith(" to") and obj and self._usable(obj):  # "allergic to peanuts (and shellfish)"
                    return [Found(subject, snake_name(state), o, negated) for o in self._coordinated(obj)]
                if not obj:
                    return Found(subject, "is", state, negated)
        if not plural and lex.is_occupation(value := self._clean_value(rest)) and self._usable(value) and len(value.split()) <= 3:
            return Found(subject, "job_title", value, negated)  # "i'm store manager now": a title needs no article
        return None

    def _english_relation(self, clause: str, turn: Turn) -> Found | None:
        """<Name> <relation phrase> <value>: "Alex Song plays the position of defender"."""
        lex = self.lexicon
        if has_cjk(clause):
            return None
        subject, rest = self._leading_name(clause, turn)
        if subject is None:
            return None
        words, negated = rest.split(), False
        while len(words) > 1 and words[0].casefold() in lex.adverbs and words[0].casefold() not in lex.relation_verbs:
            words = words[1:]  # "Alex usually plays": the adverb is not the relation
        if words and words[0].casefold() in CONTRACTED_COPULAS:  # "isn't" -> "is", negated
            words, negated = [CONTRACTED_COPULAS[words[0].casefold()], *words[1:]], True
        elif not_lead := lex.negation.lead.match(" ".join(words)):  # "no longer plays", "doesn't play"
            said = not_lead.group().strip().casefold()
            words, negated = " ".join(words)[not_lead.end():].split(), True
            if words and said in ("doesn't", "does not"):
                words[0] = third_person(words[0])
        if len(words) > 1 and words[0].casefold() in COPULAS:  # "is not a defender"
            if not_lead := lex.negation.lead.match(" ".join(words[1:])):
                words, negated = [words[0], *" ".join(words[1:])[not_lead.end():].split()], True
        if not words or not self._looks_like_verb(words[0]) or words[0].casefold() in ENDING_VERBS | SAYING_VERBS:
            return None  # "Dana left Nationwide" says that something ended: the endings rule's; "Kofi says ..." reports
        if words[0].casefold() in ("has", "have", "had") and EN_PARTICIPLE.match(" ".join(words[1:])):
            return None  # "Bobby has already bought skis": a perfect tense, not a possession
        if len(words) > 2 and words[0].casefold() in COPULAS and words[1].casefold() in ("done", "finished", "through"):
            return None  # "Kofi is done with Quorra Labs": an ending, not a relation "is_done_with"
        # The relation runs to the first preposition close after the verb
        # ("was born in", "is the capital of"); without one it is the verb alone.
        end = 1
        for i, word in enumerate(words[1:5], start=1):
            if word.casefold() in lex.prepositions:
                end = i + 1
                break
        relation = " ".join(words[:end])
        if any(w.casefold() in RELATION_POINTERS for w in words[:end]):
            return None  # "moved its HQ to", "sits next to me": a pronoun inside is no plain relation
        raw = " ".join(words[end:])
        # "the sport of X", "the city of X": the class noun says what X is; X is the value.
        described = EN_CLASS_OF.match(raw)
        if described and described.group(1).casefold() in lex.class_nouns and raw[described.end():].strip():
            raw = raw[described.end():]
        else:
            described = None
        value = self._clean_value(raw)
        if not self._usable(value):
            return None
        predicate = lex.predicate_of(relation)
        if predicate is None and end > 1 and words[0].casefold() in COPULAS:
            predicate = lex.predicate_of(" ".join(words[1:end]))  # "is located in" -> "located in"
        if end == 1 and words[0].casefold() in COPULAS:
            if not re.match(r"(?:a|an|the)\s", raw, re.IGNORECASE):
                return None  # "Mochi is NOT impressed": a mood, not a fact
            predicate = predicate or "is"  # "Alex Song isn't a defender"
        if predicate is None and not described and not value[:1].isupper() and not EN_DEFINITE_RELATION.search(relation):
            return None  # an unknown verb with a common noun after it: too loose to read
        if predicate is None and turn.listed:
            return None  # "Los angeles Lakers" among other teams' names: a name, not a clause
        return Found(subject, predicate or snake_name(relation), value, negated)

    def _name(self, text: str, turn: Turn) -> str | None:
        """``text`` if it is a whole name (known entity, capitalised words, a Chinese name)."""
        text = collapse(text)
        key = text.casefold()
        if key in turn.entities:
            return turn.entities[key]
        if not text or key in self.lexicon.not_names or self.lexicon.time.anywhere.fullmatch(text):
            return None
        if has_cjk(text):
            # a title before the name ("组长老许", "主任李明"): the name is whom it is
            titled = next((text[n:] for n in (3, 2) if len(text) > n + 1 and self.lexicon.is_occupation(text[:n])), None)
            return self._zh_name(text) or (self._zh_name(titled) if titled else None)
        first = text.split()[0].casefold()
        is_name = self.lexicon.name_run.fullmatch(text) and first not in self.lexicon.not_names and len(text.split()) <= 5
        return text if is_name else None

    def _leading_name(self, clause: str, turn: Turn) -> tuple[str | None, str]:
        """The name a clause starts with (or "the user"), and the rest of the clause."""
        folded = clause.casefold()
        for key in sorted(turn.entities, key=len, reverse=True):  # longest known name first
            if folded.startswith(key) and not folded[len(key): len(key) + 1].isalnum():
                return turn.entities[key], clause[len(key):].strip()
        if user := self.lexicon.user_lead.match(clause):
            return turn.user_id, clause[user.end():].strip()
        m = self.lexicon.name_run.match(clause)
        if m and (name := self._name(m.group(), turn)):
            return name, clause[m.end():].strip()
        return None, clause

    def _looks_like_verb(self, word: str) -> bool:
        """A listed relation verb, or a lower-case word with a verb ending (plays, founded)."""
        folded = word.casefold()
        if folded in self.lexicon.relation_verbs:
            return True
        return (
            word.isalpha() and word.islower() and len(word) > 3
            and (folded.endswith("ed") or (folded.endswith("s") and not folded.endswith(("ss", "us", "is"))))
        )
