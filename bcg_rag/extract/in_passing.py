"""What English chat says in passing, while talking of something else:

* a pet named by its kind after "my" / "our": "walking my corgi before work", "my cat knocked
  over my plant again" (has corgi, has cat). Like a named pet (``mentions.py``) the possessive
  presupposes it whatever the clause says; not "my old dog", "my future dog", "my friend's dog";
* a partner named after "my": "my wife Sarah and I are celebrating 10 years" (married_to
  Sarah; dating a girlfriend or boyfriend; has_boss for "told my manager Priya I'm off friday").
  Not where the clause is about them ("my boss Linda is the VP of engineering": the rules read
  what it says of her, and the raw text stays unread if they cannot). Other kin named in
  passing ("my nephew Leo") are not read: measured, such claims were mostly not what
  annotators store (``mentions.py``);
* a car by its make or model after "my": "my 2016 mazda 3 makes a clicking noise", "my civic
  needs new tires" (owns Mazda 3 / Civic; not "my old civic", "sold my civic"); in Chinese,
  "我那台本田飞度开了六年了", "我的卡罗拉该保养了" (owns 本田飞度 / 卡罗拉). Beside them, the clause
  rule of things bought or sold (``_zh_bought``: "我买了一辆特斯拉", "卖了车", a car by its name
  "朗逸终于出掉了", "新提的汉EV"), which the shapes rule calls; a pet after "我家" /
  "我的": "只有我家兔子陪我" (has 兔子; not "我家狗粮", "我家以前的猫");
* an office in a town: "the drive to my office in Burbank takes forever", "our office in
  Leeds is closing" (works_in);
* how often said by a count: "I've been running 3x a week", "I swim 4 times a week", "I lift
  five days a week" read as the routines rule reads "every week";
* a practice kept up: "I've been doing yoga for years", "been practicing pilates lately" (habit);
* an ability never learned or learned: "never learned to drive", "I learned to swim last year"
  (can, denied or said);
* what one has none of: "I don't have any pets", "I have no kids", "we don't have a car"
  (has, denied).

Said only by the user ("my" is the speaker's), never in a question or a request (those
clauses are silent before any rule reads them). A wish or a plan keeps the presupposition of
a possessive ("can't wait to see my nephew Leo") but not the clause's own claim.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import TYPE_CHECKING

from .mentions import ZH_OURS
from .pets_hobbies import is_pet
from .shared import Found
from .text import CJK, collapse, has_cjk, phrase_pattern

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# Before the pet word, these say it is not one kept now: "my old dog", "my future cat".
NOT_KEPT = r"(?<!\bold\s)(?<!\blate\s)(?<!\bfuture\s)(?<!\bdream\s)(?<!\bfirst\s)(?<!\bnext\s)(?<!\bchildhood\s)(?<!\bformer\s)"
# A pet no longer kept, or a word after the pet word that makes it no pet: "lost my cat", "my cat allergy".
PET_GONE = re.compile(r"\b(?:lost|los(?:e|ing)|died|dies|passed|put\s+down|rehom\w*|gave\s+away|miss(?:ed|ing)?|rip|used\s+to"
                      r"|had|allerg\w*|borrow\w*|sitting|watching|neighbou?r's|gave|give|giving)\b", re.IGNORECASE)
# A car no longer kept, or someone else's: "sold my civic", "my civic got totaled", "my dad's civic".
CAR_GONE = re.compile(r"\b(?:sold|sell(?:ing)?|totall?ed|traded|trade(?:d|-in)?|scrapp\w*|stolen|used\s+to|miss(?:ed|ing)?"
                      r"|had|gave\s+away|borrow\w*|rent(?:ed|al))\b", re.IGNORECASE)
ZH_CAR_GONE = re.compile(r"卖了|卖掉|报废|被偷|以前|之前|原来|租的|借的")
# The household's animal by its kind; gone, allergic to, wished for or just taken in, it is
# none said in passing (taking one in is the shapes rule's).
ZH_OURS_BEFORE_PET = re.compile(rf"(?:{ZH_OURS.pattern}|咱家的?|我的)(?:那只|这只|那条|这条)?")
# Someone else's animal by its kind: "楼下王阿姨家那只泰迪", "小林家的狗" (the owner by a name)
ZH_THEIRS_BEFORE_PET = re.compile(r"(?P<who>[\u4e00-\u9fff]{2,3}?)家的?(?:那只|这只|那条|这条)?")
ZH_PET_GONE = re.compile(r"以前|之前|原来|去世|走了|没了|丢了|死了|送人|送走|过敏|想养|要养|领养|收养")
# Kin whose name is a partner's: married to a spouse, dating a girlfriend or boyfriend.
PARTNER_PREDICATES = {"wife": "married_to", "husband": "married_to", "girlfriend": "dating", "boyfriend": "dating"}
# Kin named in passing that are stored: the partners, and one's boss (one at a time: "told my
# manager Priya I need Friday off" names the current one). Other kin are not what annotators store.
IN_PASSING_PREDICATES = {**PARTNER_PREDICATES, "boss": "has_boss"}
# "Zalando's HQ in Berlin is massive": where a company is headquartered, said in passing
EN_ORG_HQ_IN = re.compile(r"(?<![\w'])(?P<org>(?-i:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2}))'s\s+(?:HQ|headquarters|head\s+office)"
                          r"\s+in\s+(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))", re.IGNORECASE)
ZH_OUR_OFFICE = re.compile(r"(?:我们|咱们)(?:公司)?(?P<place>[\u4e00-\u9fff]{2,3}?)(?:办公室|办事处)")
# "Adyen flew all the new joiners to the Amsterdam HQ": the clause's subject, an organisation, has it there
# (its people are what it sends there: not "Tom went to the London HQ", which says nothing of whose)
EN_SUBJECT_HQ = re.compile(r"^(?P<org>(?-i:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2}))\s+(?-i:[a-z]+)\s+(?:(?:all|the)\s+)*"
                           r"(?:us|everyone|everybody|staff|employees|team|new\s+(?:joiners|hires|starters|grads)|interns|juniors)"
                           r"\b.*?\b(?:to|at|in)\s+(?:the|their|its)\s+"
                           r"(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))\s+(?:HQ|headquarters|head\s+office)\b", re.IGNORECASE)
EN_OFFICE_IN = re.compile(
    r"(?<![\w'])(?:my|our)\s+(?:new\s+)?(?:office|workplace)\s+(?:is\s+|'s\s+)?(?:in|over\s+in|down\s+in|up\s+in)\s+"
    r"(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))(?![\w'-])", re.IGNORECASE)
# "3x a week", "4 times a week", "five days a week", "twice a day": how often, by a count.
EN_COUNT_PER = re.compile(
    r"\b(?:\d{1,2}\s*x|\d{1,2}(?:-\d{1,2})?\s+(?:times|days|nights|mornings|evenings)"
    r"|(?:two|three|four|five|six|seven|a\s+few|several)\s+(?:times|days|nights|mornings|evenings))"
    r"\s+(?:a|per|each|every|this)\s+(?:week|month|day)\b", re.IGNORECASE)
# Practices said as a noun after "doing": "doing yoga", "practicing tai chi".
PRACTICES = ("yoga", "pilates", "crossfit", "tai chi", "meditation", "karate", "judo", "jiu jitsu", "jiu-jitsu",
             "taekwondo", "kickboxing", "boxing", "ballet", "zumba", "barre", "calisthenics", "parkour", "spin")
EN_DOING = re.compile(
    r"^(?P<who>.*?)\b(?:(?:have|'ve|has|'s)\s+)?been\s+(?:doing|practicing|practising)\s+"
    rf"(?P<what>{'|'.join(re.escape(p) for p in PRACTICES)})\b(?P<rest>.*)$", re.IGNORECASE)
EN_KEPT_UP = re.compile(r"\b(?:for\s+(?:years|ages|months|a\s+while|(?:a\s+few|several|\d+|two|three|four|five|ten)\s+"
                        r"(?:years|months))|lately|recently|these\s+days|since\s+\w+)\b", re.IGNORECASE)
EN_LEARNED = re.compile(
    r"^(?P<who>.*?)\b(?P<neg>never\s+|didn't\s+|did\s+not\s+|still\s+haven't\s+|haven't\s+|have\s+not\s+)?"
    r"(?:learned|learnt|learn)\s+(?:how\s+)?to\s+(?P<verb>[a-z]+(?:\s+out)?)(?P<rest>.*)$", re.IGNORECASE)
# What a "learned to" clause may end with: a time, "finally", "as a kid".
EN_LEARNED_TAIL = re.compile(r"^(?:\s*,?\s*(?:last\s+\w+|this\s+\w+|in\s+(?:19|20)\d\d|(?:\w+\s+)?(?:years?|months?)\s+ago"
                             r"|at\s+\d+|as\s+an?\s+(?:kid|child|adult|teen(?:ager)?)|finally|yet|either|properly|tbh|lol|haha"
                             r"|over\s+the\s+summer|in\s+college|in\s+school))*\s*[.!]*\s*$", re.IGNORECASE)
EN_NONE_OF = re.compile(
    r"^(?P<who>i|we)\s+(?:(?:don't|do\s+not|dont|never)\s+(?:have|own)\s+(?:any\s+|a\s+|an\s+)|have\s+no\s+)"
    r"(?P<what>[a-z]+(?:\s+[a-z]+)?)(?:\s+(?:anymore|any\s+more|yet|either|at\s+the\s+moment|right\s+now))?\s*$",
    re.IGNORECASE)
# What one may have none of and be asked about: pets, children, a vehicle, siblings.
NONE_OF_THINGS = frozenset(
    "pets pet kids kid children child car cars siblings sibling brothers sisters dog dogs cat cats tv "
    "bike motorcycle license licence tattoos tattoo roommates roommate".split())


@functools.lru_cache(maxsize=8)
def pet_word_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """ "my <pet>" with no name after it (a name is ``mentions.py``'s)."""
    pets = [w for w in lexicon.words("mentions", "pets") if w.isascii()]
    return re.compile(
        rf"(?<![\w'])(?:my|our)\s+(?:(?:little|baby|big|sweet|rescue|two|three|[a-z]+-year-old)\s+)?{NOT_KEPT}"
        rf"(?P<word>{phrase_pattern(pets)})(?P<plural>s)?(?![\w'-])(?!\s*,?\s+(?-i:[A-Z][a-z]))", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def kin_named_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """ "my <kin> <Name>": "my nephew Leo", "my coworker Dana"."""
    kin = [w for w in lexicon.relatives if w.isascii()]
    return re.compile(
        rf"(?<![\w'])my\s+(?P<kin>{phrase_pattern(kin)})\s*,?\s+(?P<name>(?-i:[A-Z][a-z][\w'-]*))(?![\w'-])(?!\s+(?-i:[A-Z]))",
        re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def car_patterns(lexicon: Lexicon) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """ "my (2016) <make> (<model>)" or "my <model>"; "我(的|那台|这辆)<make>(<model>)"."""
    makes, models = lexicon.words("mentions", "car_makes"), lexicon.words("mentions", "car_models")
    en_make, en_model = phrase_pattern([w for w in makes if w.isascii()]), phrase_pattern([w for w in models if w.isascii()])
    en = re.compile(
        rf"(?<![\w'])my\s+(?:(?:new|trusty|beloved|little)\s+)?{NOT_KEPT}(?:(?:19|20)\d\d\s+)?"
        rf"(?P<car>(?:{en_make})(?:\s+(?:{en_model}|[a-z]?\d{{1,3}}|[a-z]{{1,2}}-?\d{{1,2}}))?|{en_model})(?![\w'-])", re.IGNORECASE)
    zh = re.compile(rf"^(?:我|我家|我们家)(?:的|那台|这台|那辆|这辆|那部|这部)(?:老|破|小)?(?P<car>{zh_car_pattern(lexicon).pattern})")
    return en, zh


@functools.lru_cache(maxsize=8)
def zh_car_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """A car named in Chinese chat: a make, a model, or both ("特斯拉Model Y", "本田飞度", "卡罗拉")."""
    makes, models = lexicon.words("mentions", "car_makes"), lexicon.words("mentions", "car_models")
    zh_make = "|".join(sorted((w for w in makes if not w.isascii()), key=len, reverse=True))
    zh_model = "|".join(sorted((re.escape(w) for w in models if not w.isascii() or w[:1].isupper()), key=len, reverse=True))
    # a make and a model the list lacks, by its letters and digits: "问界M7", "理想L7", "极氪001"
    return re.compile(rf"(?:{zh_make})?\s*(?:{zh_model})|(?:{zh_make})(?:\s?[A-Za-z]{{0,3}}\d{{1,3}}[A-Za-z]?(?![A-Za-z0-9]))?")


@functools.lru_cache(maxsize=8)
def _car_words(lexicon: Lexicon) -> frozenset[str]:
    return frozenset(w.casefold() for w in lexicon.words("mentions", "car_makes") + lexicon.words("mentions", "car_models"))


def is_car(lexicon: Lexicon, value: str) -> bool:
    """A value that names a car: a make or a model the lexicon lists ("Skoda Octavia", "特斯拉Model Y"), or the word."""
    words = set(collapse(value).casefold().split())
    return (bool(words & _car_words(lexicon)) or zh_car_pattern(lexicon).search(value) is not None
            or value.casefold().split()[-1:] in (["car"], ["车"]))


# Someone named after their title in the speaker's team: "我们财务总监老李今天又让我改报表",
# "our head chef Marco quit": the person holds that title. ("my guitar teacher Marcus" is whom
# the speaker goes to, not a colleague's title: left to the raw text.)
ZH_OUR_TITLED = re.compile(rf"^(?:我们|我们的|咱们)(?:公司|部门|组|团队|科室|店里)?的?(?P<rest>[{CJK}]{{3,10}})")
EN_OUR_TITLED = re.compile(r"(?<![\w'])our\s+(?P<title>[a-z]+(?:\s+[a-z]+)?)\s+(?P<name>(?-i:[A-Z][a-z]+))(?![\w'-])(?!\s+(?-i:[A-Z]))",
                           re.IGNORECASE)
ZH_BOUGHT = re.compile(r"^(?P<who>.*?)(?P<verb>买了|买|入手了|提了|换了|卖了|卖掉了)(?:一)?(?:辆|台|套|部|架|个)?(?P<thing>.+)$")
ZH_DURABLE_GOODS = ("车", "房", "房子", "公寓", "自行车", "电动车", "摩托车", "钢琴", "吉他", "手机", "电脑", "相机")


class InPassingRules:
    lexicon: Lexicon

    def _in_passing(self, clause: str, turn: Turn) -> list[Found]:
        """What a possessive presupposes: a pet by its kind, a relative by name, an office's town."""
        if not turn.user_is_speaker:
            return []
        lex, me = self.lexicon, turn.speaker_id
        en_car, zh_car = car_patterns(lex)
        if has_cjk(clause):
            # "我的Model Y", "家里就一辆Model Y": the household's car
            m = zh_car.match(clause) or re.match(rf"^(?:现在)?(?:家里|我家|我们家)(?:就|只)?有?一?(?:辆|台)\s*(?:[\u4e00-\u9fff0-9]{{1,6}}的)?\s*(?P<car>{zh_car_pattern(lex).pattern})", clause)
            if m is None and (driven := re.search(rf"开(?:着)?(?:一辆|辆)?\s*(?P<car>{zh_car_pattern(lex).pattern})", clause)):
                region, negated = self._clean_before_verb(clause[:driven.start()])
                # "平时开Model Y通勤": the car one drives is one's own (not "我老公开宝马", "想开特斯拉")
                m = driven if not negated and self._subject(region, turn) == me and not re.search(r"想|要|租|借|会|能", clause[:driven.start()]) else None
            found = [Found(me, "owns", m["car"].strip())] if m and not ZH_CAR_GONE.search(clause) else []
            # "我们杭州办公室少了一个奶茶赞助商": the town of the office one works in
            if (office := ZH_OUR_OFFICE.search(clause)) and self._zh_place(office["place"]):
                found.append(Found(me, "works_in", office["place"]))
            found += self._titled(clause, turn)
            return found + ([] if ZH_PET_GONE.search(clause) else self._zh_pets_in_passing(clause, me))
        found: list[Found] = []
        for m in en_car.finditer(clause) if not CAR_GONE.search(clause) else ():
            found.append(Found(me, "owns", collapse(m["car"])))  # as said: "civic" and "Civic" are one value
        for m in pet_word_pattern(lex).finditer(clause) if not PET_GONE.search(clause) else ():
            if not clause[:m.start()].strip() and re.match(r"\s*(?:is|'s|was|are)\b", clause[m.end():]):
                continue  # "my dog is old": what is said of it is read, or nothing (``mentions.py``)
            found.append(Found(me, "has", collapse(m["word"]).casefold()))
        for m in kin_named_pattern(lex).finditer(clause):
            relation = lex.relatives[collapse(m["kin"]).casefold()]
            if m["name"].casefold() in lex.not_names or not clause[:m.start()].strip() and re.match(
                    r"\s*(?:$|and\s+I\b)", clause[m.end():]) is None:
                continue  # "my wife Ines is a dentist": the clause is about her (an alias, ``Reading.kin``)
            if predicate := IN_PASSING_PREDICATES.get(relation):
                found.append(Found(me, predicate, m["name"]))
        found += self._titled(clause, turn)
        if (m := EN_OFFICE_IN.search(clause)) and m["place"].casefold() not in lex.not_names:
            found.append(Found(me, "works_in", self._clean_value(m["place"])))
        if (m := EN_ORG_HQ_IN.search(clause) or EN_SUBJECT_HQ.match(clause)) and not {m["org"].casefold(), m["place"].casefold()} & lex.not_names:
            found.append(Found(m["org"], "headquarters", self._clean_value(m["place"])))
        return [f for f in found if self._usable(f.value)]

    def _zh_bought(self, clause: str, turn: Turn) -> Found | None:
        """ "我买了一辆特斯拉", "我们在郊区买了套房子", "换了台比亚迪汉", "卖了车": a durable thing or a
        brand, owned or not; a car by its name: "朗逸终于出掉了" (sold), "新提的汉EV开起来真安静"."""
        if car := self._zh_car_changed(clause, turn):
            return car
        if not (m := ZH_BOUGHT.match(clause)) or "了" not in m["verb"] + m["thing"][-1:]:
            return None  # "我想买车" is no purchase
        if re.match(r"[0-9一二三四五六七八九十两几]+(?:万|千|百|块|元)", m["thing"]):
            return None  # "卖了3万出头": the price, not the thing
        thing = self._clean_value(m["thing"])
        tokens = self._tokens(thing)
        brand = (tokens and tokens[0][1].startswith(("nr", "nz", "nt", "eng")) and len(tokens) <= 2  # "比亚迪汉": a make and model
                 or bool(zh_car_pattern(self.lexicon).fullmatch(thing)))  # "特斯拉Model Y"
        if not tokens or not (thing.endswith(ZH_DURABLE_GOODS) or brand):
            return None  # "买了咖啡": nothing durable
        who = m["who"]
        if (place := self._locative(clause, who)) is not None:
            who = who[:place]  # "我们在郊区买了套房子"
        region, negated = self._clean_before_verb(who)
        subject = self._subject(region, turn)
        return Found(subject, "owns", thing, negated != m["verb"].startswith("卖"), True) if subject else None

    def _zh_car_changed(self, clause: str, turn: Turn) -> Found | None:
        """A car by its name, sold or newly had: "(把)朗逸终于出掉了" (owns, denied), "新提的汉EV开起来
        真安静" (owns, a change); the speaker's, not "我老公新提的宝马"."""
        car = zh_car_pattern(self.lexicon).pattern
        if m := re.match(rf"^(?:我)?(?:把)?(?P<car>{car})(?:终于|已经|总算)?(?:出掉|卖掉|卖|出手)了", clause):
            return Found(turn.speaker_id, "owns", m["car"].strip(), True, True)
        if (m := re.search(rf"(?:新提的|刚提的|新提了)(?:一辆|辆|台)?\s*(?P<car>{car})", clause)) and turn.user_is_speaker:
            region, negated = self._clean_before_verb(clause[: m.start()])
            if not negated and (not region or self._subject(region, turn) == turn.speaker_id):
                return Found(turn.speaker_id, "owns", m["car"].strip(), False, True)
        return None

    def _titled(self, clause: str, turn: Turn) -> list[Found]:
        """A person of the speaker's team named after the title they hold (a trade the lexicon
        lists, not a relation: "my sister Anna" is kin, read elsewhere)."""
        lex = self.lexicon
        if not has_cjk(clause):
            return [Found(m["name"], "job_title", collapse(m["title"]).casefold()) for m in EN_OUR_TITLED.finditer(clause)
                    if lex.is_occupation(m["title"]) and not lex.relative_regex.fullmatch(m["title"])
                    and m["name"].casefold() not in lex.not_names]
        if not (m := ZH_OUR_TITLED.match(clause)):
            return []
        rest = m["rest"]
        for cut in range(len(rest) - 2, 1, -1):  # the longest title before a name of two or three characters
            title = rest[:cut]
            name = next((rest[cut:cut + n] for n in (3, 2) if self._zh_named(rest[cut:cut + n])), None)
            if name and lex.is_occupation(title) and not lex.relative_regex.fullmatch(title):
                return [Found(name, "job_title", title)]
        return []

    def _zh_pets_in_passing(self, clause: str, me: str) -> list[Found]:
        """ "我家兔子", "我家那只橘猫": the nouns right after the possessive, when together they
        name a pet of the lexicon (not "狗粮" or "猫砂", which the segmenter cuts after 狗 / 猫)."""
        tokens = self._tokens(clause)
        found = []
        owners = [(ours, me) for ours in ZH_OURS_BEFORE_PET.finditer(clause)] + [
            (theirs, theirs["who"]) for theirs in ZH_THEIRS_BEFORE_PET.finditer(clause) if self._zh_named(theirs["who"])]
        for ours, owner in owners:
            if not any(at == ours.end() for _, _, at in tokens):
                continue  # the possessive ends inside a word
            after = [(word, flag) for word, flag, at in tokens if at >= ours.end()]
            nouns = [word for word, _ in itertools.takewhile(lambda t: t[1].startswith("n"), after)]
            if 0 < len(nouns) <= 3 and is_pet(self.lexicon, pet := "".join(nouns)):
                found.append(Found(owner, "has", pet))
        return found

    def _said_in_passing(self, clause: str, turn: Turn) -> Found | None:
        """A clause rule: a habit by a count, a practice kept up, an ability learned, none of a thing."""
        if has_cjk(clause):
            return None
        if count := EN_COUNT_PER.search(clause):  # "I've been running 3x a week": how often, said by a count
            if re.search(r"\bthis\s+\w+$", count.group(), re.IGNORECASE):  # "went bouldering 4 times this week": lately
                clause = re.sub(r"^((?:i\s+)?)went(?=\s+\w+ing\b)", r"\1go", clause, flags=re.IGNORECASE)
            found = self._en_routine(EN_COUNT_PER.sub("every week", clause), turn)
            if found and found.predicate == "habit":
                return found
        if (m := EN_DOING.match(clause)) and (EN_KEPT_UP.search(m["rest"]) or EN_COUNT_PER.search(m["rest"])):
            return self._habit(m["who"], "habit", collapse(m["what"]).casefold(), turn)
        if (m := EN_LEARNED.match(clause)) and EN_LEARNED_TAIL.match(m["rest"]):
            if m["verb"] and not m["neg"] and not re.search(r"\blearn(?:ed|t)\b", m.group(), re.IGNORECASE):
                return None  # "I learn to ski", a wish's "learn to": not yet an ability
            doing = self.lexicon.activity_doing.get(m["verb"].casefold())
            who = m["who"].strip()
            if doing is None or re.search(r"\b(?:to|want|wanna|should|could|would|will|gonna|going|need|trying|try)\s*$", who, re.I):
                return None  # "I want to learn to ski": a wish, not an ability
            found = self._habit(who, "can", doing, turn)
            return Found(found.subject, "can", doing, found.negated or bool(m["neg"])) if found else None
        if (m := EN_NONE_OF.match(clause)) and m["what"].casefold() in NONE_OF_THINGS:
            return Found(turn.speaker_id, "has", m["what"].casefold(), True)
        return None
