"""Everyday facts said in passing, by what they take for granted:

* a home by its lease or its purchase: "finally signed the lease on a place in Austin",
  "we rent an apartment in Brooklyn", "bought a house in Denver" (lives_in; a purchase also owns),
  given up: "I gave up my place in Oakland" (lives_in denied); "the commute from Oakland" (lives_in);
* a workplace by the way there: "my commute to the Google office is brutal" (works_at);
* two people who share what the clause says: "my wife and I live in Chicago", "我和老公都在上海
  工作": the claim is the speaker's and the companion's;
* a thing kept, named by its make after "my new / our old": "our new Corolla is great" (owns);
  like a pet's name (``mentions.py``), the possessive presupposes it whatever the clause says;
* a place one goes to, named after a possessive: "my son Leo loves his new school, Maple Grove
  Elementary" (Leo studies_at), "I love my new job at Stripe" (works_at), "my gym, Iron Temple"
  (member_of); presupposed the same way;
* a job title said as a heading: "new title: art director", "my new job title is senior analyst";
* a couple by how long they have been together: "跟阿晨在一起八年了", "我和小林在一起了" (dating).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .gate import NOT_PLACE_WORDS
from .shared import Found
from .text import collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

PLACE_NAME = r"(?P<place>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})"
HOME_WORDS = r"(?:place|apartment|house|home|flat|condo|studio|townhouse|townhome)"
EN_HOME_IN = re.compile(
    r"^(?P<who>.*?)\b(?P<verb>signed\s+(?:a|the|our|my)\s+lease\s+(?:on|for)|rent(?:s|ing|ed)?|bought|buy(?:ing)?|closed\s+on"
    r"|(?P<left>g[ai]ve\s+up|giving\s+up|moved\s+out\s+of|moving\s+out\s+of))\s+"
    rf"(?:a|an|the|our|my)\s+(?:(?:new|little|small|tiny|big|cute|two-bedroom|one-bedroom)\s+)*{HOME_WORDS}\s+in\s+{PLACE_NAME}"
)
# "moved out of the Bristol flat": the home named by its town, left; "crashing at his brother's place
# in Bath (for now)": where one sleeps now, someone else's home (a hotel or a trip is "staying").
EN_OUT_OF_TOWN_HOME = re.compile(rf"^(?P<who>.*?)\b(?:moved|moving)\s+out\s+of\s+(?:the|our|my)\s+{PLACE_NAME}\s+{HOME_WORDS}\b")
EN_CRASHING_IN = re.compile(rf"^(?P<who>.*?)\bcrashing\s+at\s+(?:my|his|her|their|our|a\s+friend's|[A-Z]\w+'s)\s+(?:[\w-]+'s\s+)?"
                            rf"(?:place|house|flat|apartment|sofa|couch)\s+in\s+{PLACE_NAME}(?!.*\b(?:tonight|this\s+week(?:end)?|for\s+the\s+weekend)\b)")
# "the radiator in my Leeds flat", "our Brooklyn apartment has no AC": the home named by its
# town is where one lives (not a former one's, a parent's, a holiday let's).
EN_TOWN_HOME = re.compile(
    r"\b(?:my|our)\s+(?!(?:old|former|previous|last|first|parents'?|mum's|mom's|dad's|holiday|summer|rental|airbnb)\b)"
    r"(?P<place>[A-Za-z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)\s+(?:flat|apartment|condo|townhouse)\b", re.IGNORECASE)
# "we're officially out of Denver!": the town left (a move out said without where to); after it, in
# the same message, "the Boulder place" is the new home (alone, "the Thai place" is a restaurant).
EN_OUT_OF_TOWN = re.compile(r"^(?P<who>.*?)(?:'re|'m|\s+are|\s+am)\s+(?:(?:officially|finally)\s+)+(?:moved\s+)?out\s+of\s+"
                            + PLACE_NAME + r"\s*$")
EN_THE_TOWN_HOME = re.compile(r"^(?:the|our|my)\s+(?:new\s+)?" + PLACE_NAME.replace("{0,2}", "{0,1}") + r"\s+(?:place|house|flat|apartment|condo)\b")
# "I support Everton", "my dad roots for the Yankees": a team one follows, named.
EN_SUPPORTS_TEAM = re.compile(
    r"^(?P<who>.*?)\b(?:support|supports|supported|root\s+for|roots\s+for|rooting\s+for|cheer\s+for|cheers\s+for)\s+"
    r"(?P<team>(?:the\s+)?[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})(?:\s+(?:fc|FC|now|too|lol|haha))*$")
# "first week of my masters at Kestrel Polytechnic", "doing my PhD at Leeds": where one studies.
EN_DEGREE_AT = re.compile(
    r"\bmy\s+(?:(?:first|second|third|final|last)\s+(?:year|term|semester)\s+of\s+my\s+)?"
    r"(?:masters?|master's|phd|ph\.d\.?|mba|msc|degree|doctorate|undergrad|bachelor's|bachelors|postgrad|llm)\s+"
    r"(?:(?:course|program(?:me)?|studies)\s+)?at\s+(?P<school>(?-i:[A-Z][\w&'.-]*(?:\s+(?:of\s+)?[A-Z][\w&'.-]*){0,4}))"
    r"(?![\w&'.-])(?!\s+(?:was|were|had|back\s+in|years\s+ago)\b)",  # "my degree at UCL was a waste": a past one
    re.IGNORECASE)
# A degree said as ended or done ("dropped out of my MBA program at Wharton"): other rules read it.
DEGREE_ENDED = re.compile(r"\b(?:drop(?:ped|ping)?|quit|finish(?:ed|ing)?|complet(?:ed|ing)|left|graduat\w*|gave\s+up|abandon\w*"
                          r"|defer\w*|paus\w*|after|before|during|since)\b", re.IGNORECASE)
# What stands where the town would and is none: "my tiny flat", "my student flat".
NOT_TOWNS = NOT_PLACE_WORDS | frozenset("""new own tiny small big little cute current shared student rented cheap nice lovely
    cozy cosy messy empty damp cold hot dream top ground one two three beach lake garden uni university work corporate
    company""".split())
# "the new apartment in Leeds is tiny", "big month: new job, new apartment in Oakland": a new
# home said in passing is the speaker's.
EN_NEW_HOME_IN = re.compile(rf"^(?:(?:the|my|our|a)\s+)?new\s+(?:(?:little|small|tiny|big|cute)\s+)?{HOME_WORDS}\s+in\s+{PLACE_NAME}")
# "new title: art director", "my new job title is senior analyst": the colon cuts clauses, so
# read on the sentence
EN_NEW_TITLE = re.compile(r"^(?:(?:my|our)\s+)?(?:(?:new|official)\s+)?(?:job\s+)?title\s*(?::|\bis\b|'s)\s*"
                          r"(?P<title>[A-Za-z][\w/&'-]*(?:\s+[\w/&'-]+){0,3})\s*$", re.IGNORECASE)
# "12 hour shifts as an ICU nurse at Mass General are no joke", "started as sous chef at Ostrava
# Kitchen": a job and its employer said in passing, by a clause that names no one else (the speaker's).
EN_AS_JOB_AT = re.compile(r"\bas\s+(?:an?\s+)?(?P<title>[A-Za-z][\w-]*(?:\s+[\w-]+){0,2}?)\s+(?:at|for)\s+"
                          r"(?P<org>[A-Z][\w&'.-]*(?:\s+(?!I\b)[A-Z][\w&'.-]*){0,3})")
# "quarterly reserving as an actuary is no joke", "life as a nurse is hard": one's work said in
# passing (a job the lexicon knows; not "years as a nurse", which may be over, nor "dressed up as")
EN_DOING_AS_JOB = re.compile(r"(?:^(?:[a-z]+\s+)?|\b(?:my|the)\s+)(?:[a-z]+ing|life|work|job|shifts?|days?)\s+as\s+an?\s+"
                             r"(?P<title>[a-z][\w-]*(?:\s+(?!(?:is|are|has|means|isn't|on|at|for|in)\b)[a-z][\w-]*)?)"
                             r"(?=\s+(?:is|are|has|means|isn't|on|at|for|in)\b|\s*$|\s*[,.!])", re.IGNORECASE)
# "I basically live on double espressos": what one consumes most (a drink or food the lexicon
# knows; "I live on Elm Street" is an address, no food)
EN_LIVE_ON = re.compile(r"^(?P<who>.*?)\bliv(?:e|es|ing)\s+on\s+(?P<what>[a-z][a-z -]{1,30}?)\s*$", re.IGNORECASE)
# "I'm on the procurement team at Corvalis Robotics", "she works on the payments team at Stripe":
# a team inside a company says who employs them.
EN_ON_TEAM_AT = re.compile(
    r"^(?P<who>.*?)\s*(?:'m|'s|'re|\b(?:am|is|are|was|work|works|working|worked))\s+(?:now\s+|currently\s+|still\s+)?on\s+"
    r"(?:the|a|an)\s+(?:[\w&-]+\s+){1,3}?team\s+(?:at|for|over\s+at)\s+(?P<org>[A-Z][\w&'.-]*(?:\s+(?!I\b)[A-Z][\w&'.-]*){0,3})",
    re.IGNORECASE)
EN_SOMEONE_ELSE = re.compile(r"^(?:.*\b(?:he|she|they|his|her|their)\b|\W*(?:my|our)\s+\w+|\W*(?-i:[A-Z][a-z]+\s+(?![A-Z])))",
                             re.IGNORECASE)
# The fields of a record about the user (a CRM row, an import): name -> slot.
RECORD_FIELDS = {"employer": "works_at", "company": "works_at", "workplace": "works_at", "title": "job_title",
                 "job title": "job_title", "position": "job_title", "occupation": "job_title", "city": "lives_in",
                 "location": "lives_in", "hometown": "hometown"}
EN_RECORD_FIELD = re.compile(rf"(?<![\w-])(?P<key>{'|'.join(sorted(RECORD_FIELDS, key=len, reverse=True))})\s*[:=]\s*"
                             r"(?P<value>[^;|,\n]{2,60}?)\s*(?=[;|,\n]|$)", re.IGNORECASE)
# "Ella started reception at Maple Grove Primary", "Leo's doing his A-levels at Kingsbridge
# College": a school year, then where it is spent (studies_at).
EN_SCHOOL_YEAR_AT = re.compile(
    r"^(?P<who>.*?)\b(?:started|starting|starts|is\s+in|in|doing|does|finished|finishing)\s+(?:his|her|their|my|our)?\s*"
    r"(?:reception|nursery|kindergarten|pre-?k|preschool|year\s+\d{1,2}|grade\s+\d{1,2}|\d{1,2}(?:st|nd|rd|th)\s+grade|"
    r"a-?levels|gcses|sixth\s+form|(?:freshman|sophomore|junior|senior)\s+year)\s+at\s+"
    r"(?P<school>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3}))", re.IGNORECASE)
# "the commute from Oakland is brutal", "commuting in from Reading every day": where one lives is
# where the way to work starts.
EN_COMMUTE_FROM = re.compile(rf"^(?i:(?:but|and|so|though|tho|although)\s+)?(?:(?i:my|the)\s+(?:daily\s+)?commute\s+(?:in\s+)?"
                             rf"|(?i:(?:i'm|i\s+am|been)\s+)?(?i:commuting)\s+(?:in\s+)?)from\s+(?!(?i:mon|tues|wednes|thurs|fri|satur|sun)day\b)"
                             rf"{PLACE_NAME}(?![\w'])")
EN_COMMUTE = re.compile(
    r"^(?P<who>.*?)\b(?:my|the)\s+(?:commute|drive|ride|walk|bike\s+ride)\s+to\s+(?:the\s+)?"
    r"(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2})\s+(?:office|offices|campus|HQ|headquarters|plant|factory|warehouse)\b"
)
# "跟阿晨在一起八年了": 在一起 with a span, or with 了 alone (they got together), is a couple.
ZH_TOGETHER_FOR = re.compile(r"^(?P<who>.*?)(?:跟|和|与)(?P<name>[\u4e00-\u9fffA-Za-z]{2,4}?)在一起(?:快|都|已经|差不多)?"
                             r"(?P<span>[一二两三四五六七八九十几半\d]{1,3}个?(?:年|月)多?)?(?P<le>了)?$")
# "my wife and I", "me and my brother", "Jess and I"; "我和老公", "我跟我妈".
EN_TOGETHER = re.compile(
    r"^(?:(?i:my|our)\s+(?P<kin>[a-z-]+(?:\s+[a-z-]+)?)|(?P<name>[A-Z][a-z]+))\s+and\s+I\b"
    r"|^(?i:me|I)\s+and\s+(?:(?i:my)\s+(?P<kin2>[a-z-]+(?:\s+(?!both\b)[a-z-]+)?)|(?P<name2>[A-Z][a-z]+))\b"
)
# Two relatives as one subject: "my mom and dad live in Tampa", "he and mom moved to Málaga" (a
# pronoun is the one the message spoke of). Each one's own clause is read; names are left out
# ("Paris and Rome are lovely" is no pair of people).
# "she and her boyfriend Tom moved to York": the one the message spoke of, and someone of theirs by name.
EN_PAIR = re.compile(r"^(?P<one>(?:(?i:my|our)\s+)?[a-z-]+)\s+and\s+(?P<other>(?P<theirs>(?:his|her|their)\s+[a-z-]+\s+(?-i:[A-Z][a-z]+))"
                     r"|(?:(?i:my|our)\s+)?[a-z-]+)\s+(?P<rest>(?!and\b)[a-z].*)$", re.IGNORECASE)
ZH_TOGETHER = re.compile(r"^我(?:和|跟|与)(?:我的?)?(?P<who>[\u4e00-\u9fff]{1,3}?)(?:都|俩|两个|一起|也)")
# What two people do not share by being named together: a name, an age, whom one dates.
UNSHARED = frozenset({"name", "age", "dating", "married_to", "engaged_to", "pet_name"})
# "our new Corolla", "my old iPhone": the make of a thing kept. Only after new/old/used/first, which
# a person or a place does not take ("my new Boss" is rare; "my new job" is lower-case).
EN_KEPT_MAKE = re.compile(
    r"(?<![\w'])(?:[Mm]y|[Oo]ur)\s+(?:new|old|used|first|beloved)\s+(?P<make>[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)"
    r"(?=\s+(?:is|was|has|had|broke|keeps|needs|just|still|finally|died|won't|isn't)\b|\s*[,.!?]|\s*$)"
)

# "his new school, Maple Grove Elementary", "my new job at Stripe": the kind of place -> its slot.
VENUE_KINDS = {"school": "studies_at", "university": "studies_at", "college": "studies_at",
               "kindergarten": "studies_at", "daycare": "studies_at", "job": "works_at", "office": "works_at",
               "company": "works_at", "employer": "works_at", "gym": "member_of", "club": "member_of", "team": "member_of"}
EN_MY_VENUE = re.compile(
    r"(?<![\w'])(?P<owner>[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+(?:(?:new|current)\s+)?"
    rf"(?P<kind>{'|'.join(VENUE_KINDS)})(?:\s*,\s*|\s+(?:at|called|named)\s+)"
    r"(?P<name>[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,3})"
)


class EverydayRules:
    lexicon: Lexicon

    def _everyday(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        if m := EN_NEW_HOME_IN.search(clause):
            place = self._clean_value(m["place"])
            return Found(turn.speaker_id, "lives_in", place) if place else None
        if m := EN_HOME_IN.search(clause):
            subject = self._subject(self._clean_before_verb(m["who"])[0], turn)
            place = self._clean_value(m["place"])
            if subject is None or not place:
                return None
            # "gave up my place in Oakland", "moved out of our flat in Leeds": no longer lives there
            found = [Found(subject, "lives_in", place, bool(m["left"]), bool(m["left"]))]
            if m["left"]:
                return found
            if m["verb"].casefold().startswith(("bought", "buy", "closed")):
                found.append(Found(subject, "owns", re.search(HOME_WORDS, m.group()).group()))
            return found
        for m, left in ((EN_OUT_OF_TOWN_HOME.match(clause), True), (EN_CRASHING_IN.match(clause), False)):
            if m and (subject := self._subject(self._clean_before_verb(m["who"])[0], turn)):
                return Found(subject, "lives_in", self._clean_value(m["place"]), left, True)
        if (m := ZH_TOGETHER_FOR.match(clause)) and (m["span"] or m["le"]) and self._zh_named(m["name"]):
            region, negated = self._clean_before_verb(m["who"])
            if negated or self._subject(region, turn) != turn.speaker_id:
                return None  # "没跟他在一起", "我妈和老王在一起了": not the speaker's couple
            return Found(turn.speaker_id, "dating", m["name"])
        if (m := EN_AS_JOB_AT.search(clause)) and self.lexicon.is_occupation(m["title"]) and not EN_SOMEONE_ELSE.match(
                clause[: m.start()]):
            return [Found(turn.speaker_id, "works_at", self._clean_value(m["org"])),
                    Found(turn.speaker_id, "job_title", self._clean_value(m["title"]))]
        if (m := EN_LIVE_ON.match(clause)) and (subject := self._subject(self._clean_before_verb(m["who"])[0], turn)):
            what = self._clean_value(m["what"])
            kind = next((k[0] for v in (what, what.rsplit(" ", 1)[-1])
                         if (k := self.lexicon.value_predicates.get(self.lexicon.value_of(v).casefold()))), "")
            if kind in ("drinks", "prefers_coffee_type", "eats") and self._usable(what):
                return Found(subject, "drinks" if kind != "eats" else "eats", what)
        if (m := EN_DOING_AS_JOB.search(clause)) and not EN_SOMEONE_ELSE.match(clause[: m.start()]) \
                and not re.match(r"(?:dress|pos|masquerad|pretend|act)ing\b", m.group().strip(), re.IGNORECASE) \
                and self.lexicon.is_occupation(title := self._clean_value(m["title"])):
            return Found(turn.speaker_id, "job_title", title)
        if (m := EN_ON_TEAM_AT.match(clause)) and (subject := self._subject(self._clean_before_verb(m["who"])[0], turn)):
            return Found(subject, "works_at", self._clean_value(m["org"]))
        if m := EN_SCHOOL_YEAR_AT.match(clause):
            subject = self._subject(self._clean_before_verb(m["who"])[0], turn) if m["who"].strip() else turn.speaker_id
            school = self._clean_value(m["school"])
            return Found(subject, "studies_at", school) if subject and school else None
        if (m := EN_OUT_OF_TOWN.match(clause)) and self._town(m["place"], turn) and (
                subject := self._subject(self._clean_before_verb(m["who"])[0], turn)) == turn.speaker_id:
            turn.home_left = True
            return Found(subject, "lives_in", self._clean_value(m["place"]), True, True)
        if turn.home_left and (m := EN_THE_TOWN_HOME.match(clause)) and self._town(m["place"], turn):
            return Found(turn.speaker_id, "lives_in", self._clean_value(m["place"]), False, True)
        if (m := EN_TOWN_HOME.search(clause)) and (m["place"].split()[0].casefold() not in NOT_TOWNS or " " in m["place"] and m["place"][:1].isupper()) \
                and self._town(m["place"], turn):
            return Found(turn.speaker_id, "lives_in", self._clean_value(m["place"]))
        if (m := EN_DEGREE_AT.search(clause)) and not DEGREE_ENDED.search(clause[: m.start()]):
            return Found(turn.speaker_id, "studies_at", self._clean_value(m["school"]))
        if (m := EN_SUPPORTS_TEAM.match(clause)) and (subject := self._subject(self._clean_before_verb(m["who"])[0], turn)):
            return Found(subject, "likes", self._clean_value(m["team"]))
        if m := EN_COMMUTE_FROM.match(clause):
            place = self._clean_value(m["place"])
            return Found(turn.speaker_id, "lives_in", place) if place else None
        if m := EN_COMMUTE.search(clause):
            subject = self._subject(self._clean_before_verb(m["who"])[0], turn) if m["who"].strip() else turn.speaker_id
            org = self._clean_value(m["org"])
            return Found(subject, "works_at", org) if subject and org else None
        return None

    def _together(self, clause: str, found: list[Found], turn: Turn) -> list[Found]:
        """The companion of "my wife and I live in Chicago" shares the speaker's claims."""
        m = EN_TOGETHER.match(clause) or ZH_TOGETHER.match(clause)
        if m is None:
            return found
        if "who" in m.re.groupindex:
            who = m["who"]
            other = self._third_person(who, turn) if self.lexicon.relative_regex.fullmatch(who) or self._zh_named(who) else None
        else:
            kin, name = m["kin"] or m["kin2"], m["name"] or m["name2"]
            other = self._third_person(f"my {kin}", turn) if kin else self._name(name, turn)
        if other is None or other == turn.speaker_id:
            return found
        shared = [replace(f, subject=turn.speaker_id if f.subject == other else other) for f in found
                  if f.subject in (turn.speaker_id, other) and f.predicate.removeprefix("attr:") not in UNSHARED]
        return found + shared

    def _pair(self, clause: str, turn: Turn) -> list[Found]:
        """ "my mom and dad live in Tampa", "爷爷奶奶住在绍兴": each of two relatives says the clause as
        its subject (not a relation of two words, "爸妈", which is one subject)."""
        if has_cjk(clause):
            return self._zh_pair(clause, turn)
        if (m := EN_PAIR.match(clause)) is None:
            return []
        owner = re.match(r"(?i:my|our)\s+", m["one"])  # "my mom and dad": dad is the speaker's too
        one, other = (self._subject(said if said.startswith(("my ", "our ")) or said in ("he", "she") or not owner
                                    else owner.group() + said, turn) for said in (m["one"].casefold(), m["other"].casefold()))
        if m["theirs"] and m["one"].casefold() in ("he", "she"):  # named, so a person: "she and her boyfriend Tom"
            other = self._subject(m["theirs"], turn)
        elif "'s " not in f"{one} {other}":
            return []
        if not (one and other and one != other and turn.speaker_id not in (one, other)):
            return []
        return self._both_say(f"{m['one']} {m['rest']}", one, other, turn)

    def _zh_pair(self, clause: str, turn: Turn) -> list[Found]:
        kin = self.lexicon.relative_regex
        lead = re.match(r"(?:我们家的?|我家的?|我的?)?", clause)
        if not (one := kin.match(clause, lead.end())) or not (other := kin.match(clause, one.end())) \
                or kin.fullmatch(clause, one.start(), other.end()):
            return []
        rest = re.sub(r"^(?:和|跟|与)", "", clause[other.end():])
        subjects = [self._subject("我" + said.group(), turn) for said in (one, other)]
        if not all(subjects) or subjects[0] == subjects[1] or turn.speaker_id in subjects:
            return []
        return self._both_say(f"我{one.group()}{rest}", subjects[0], subjects[1], turn)

    def _both_say(self, said_by_one: str, one: str, other: str, turn: Turn) -> list[Found]:
        """What the clause with the first relative as its subject says of them, and the same of the
        other (but a name, an age, whom one dates: ``UNSHARED``)."""
        found = [f for f in self._parse_clause(said_by_one, turn, reported=False) if f.subject == one]
        return found + [replace(f, subject=other) for f in found if f.predicate.removeprefix("attr:") not in UNSHARED]

    def _venues(self, sentence: str, turn: Turn) -> list[Found]:
        """ "my son Leo loves his new school, Maple Grove Elementary": Leo goes to Maple Grove
        Elementary; "his" is the person the sentence starts with."""
        if not turn.user_is_speaker:
            return []
        out = []
        for m in EN_MY_VENUE.finditer(sentence):
            own = m["owner"].casefold() in ("my", "our")
            words = sentence[: m.start()].split()[:4]  # "my son Leo loves his ...": the longest lead that names someone
            owner = turn.speaker_id if own else next(
                (who for k in range(len(words), 0, -1) if (who := self._third_person(" ".join(words[:k]), turn))), None)
            name = collapse(m["name"])
            if owner and name.split()[0].casefold() not in self.lexicon.not_names:
                out.append(Found(owner, VENUE_KINDS[m["kind"]], name))
        out += self._hooked_on_venue(sentence, turn)  # "…to a bouldering gym and i'm obsessed" (pets_hobbies.py)
        if (m := EN_NEW_TITLE.match(sentence)) and re.search(r"\b(?:new|job)\b", sentence[: m.start("title")], re.IGNORECASE):
            out.append(Found(turn.speaker_id, "job_title", collapse(m["title"])))  # "new title: art director"
        # A record of fields ("Contact sync: employer: Baxter Legal Group; title: legal assistant"):
        # each field the user's slot of its name, when two or more are listed.
        fields = [(RECORD_FIELDS[f["key"].casefold()], collapse(f["value"])) for f in EN_RECORD_FIELD.finditer(sentence)]
        # A record capitalises its titles ("Title: Product Designer"); chat does not: one spelling
        # for one title, whichever arrives first.
        fields = [(slot, value.casefold() if slot == "job_title" and self.lexicon.is_occupation(value) else value)
                  for slot, value in fields]
        if fields and len(turn.record) + len(fields) >= 2:  # the message's earlier fields count (";" ends a sentence)
            out += [Found(turn.speaker_id, slot, value) for slot, value in turn.record + fields if self._usable(value)]
            turn.record = []
        else:
            turn.record = turn.record + fields
        return out

    def _kept(self, clause: str, turn: Turn) -> list[Found]:
        """ "our new Corolla is great": the speaker owns a Corolla."""
        if not turn.user_is_speaker:
            return []
        out = []
        for m in EN_KEPT_MAKE.finditer(clause):
            make = collapse(m["make"])
            if make.split()[0].casefold() in self.lexicon.not_names or self.lexicon.relative_regex.fullmatch(make):
                continue
            out.append(Found(turn.speaker_id, "owns", make))
        return out
