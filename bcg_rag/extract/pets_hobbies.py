"""A pet that died or taken in, and a hobby said as an obsession, as chat says them:

* a pet that died: "our cat passed away last night", "we lost our dog Max last week", "RIP
  to my hamster", "had to put our old greyhound down" (has <animal>, denied, and its name
  when said: the speaker keeps it no more). Only an animal the lexicon lists as a pet
  (``[mentions] pets``), owned ("my", "our", "my sister's"), and only when nothing but a
  time follows: "I lost my keys", "lost my dog's leash", "lost my dog in the park for an
  hour", "my cat nearly died" stay silent;
* a hobby taken up: "took up running", "picked up watercolor painting", "got into climbing",
  "picked up the ukulele again", "signed up for a pottery class" (habit, as "took up cycling"
  is): an activity said as a gerund, or one the lexicon lists as an activity, a pastime or an
  instrument; "picked up the kids", "got into Stanford", "got into an argument" name none;
* a pet taken in, in Chinese: "前两天在楼下捡了只小橘猫", "我们领养了一只流浪狗" (has 橘猫 / 流浪狗),
  named by the next clause: "给它起名大橘", "起名叫豆豆" (pet_name); and in English: "we adopted a
  dog", "got a kitten named Miso", then "her name is Juno" or "a beagle called Rocket";
* a hobby said as an obsession: "new obsession: pickleball", "my latest obsession is
  sourdough", "ok new hobby: pottery", "bouldering is my new obsession", "pottery is honestly my
  new therapy", "dragged me to a bouldering gym and i'm obsessed" (likes). "new
  obsession" may end its clause, the thing being the next one ("new obsession: pickleball"
  is cut at the colon); "my whole personality is padel now" (likes). A pointer is no fact ("new obsession: this song"), nor a question
  ("any new hobby ideas?", silent before any rule reads it).

The descriptive words before an animal ("a retired racing greyhound", "our sweet old cat")
do not change what it is: ``pet_noun`` finds the animal at the end of such a phrase (also
for ``shapes.py``'s "we adopted a …").
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import ENDED, Found
from .text import CJK, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# Words that make a pet word before them into something else: a "hot dog", a "toy cat".
NOT_PET_WORDS = frozenset(
    "hot corn chili chilli top sea prairie copy fat toy stuffed plush robot robotic fake cuddly ceramic inflatable cartoon "
    "wooden paper glass porcelain chocolate lucky cyber lap hush".split()
)
# What may describe an animal: words, not a second noun phrase ("a dog and a cat", "a cat with a collar").
DESCRIBING = re.compile(r"(?:(?!(?:and|or|a|an|the|with|of|for|to|from|my|our|his|her|their)\b)[a-z0-9][a-z0-9-]*(?:\s+|$))*")
OWNER = r"(?P<owner>my|our|his|her|(?:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?'s|(?-i:[A-Z][a-z]+)'s)"
ANIMAL = r"(?P<animal>[a-z0-9][a-z0-9-]*(?:\s+[a-z0-9][a-z0-9-]*){0,4}?)"
PET_NAME = r"(?:\s*,?\s+(?P<name>(?-i:[A-Z][a-z][\w'-]*)))?"
# A time or a manner at the end, nothing more: "last night", "in her sleep", "at 14", "after 12 years".
TAIL = (r"(?P<tail>(?:\s*,?\s+(?:last\s+(?:night|week|month|year|weekend|\w+day)|yesterday|today|this\s+(?:morning|afternoon|evening|week|month|year)"
        r"|over\s+the\s+weekend|earlier(?:\s+this\s+\w+)?|recently|peacefully|in\s+(?:his|her|its|their)\s+sleep"
        r"|at\s+(?:the\s+age\s+of\s+)?\d+|aged\s+\d+|after\s+(?:\w+\s+){1,2}years?|after\s+(?:a\s+)?(?:long|short)\s+illness"
        r"|(?:to|from)\s+cancer|on\s+(?-i:[A-Z])[a-z]+day|this\s+\w+day))*)")
# "our cat passed away last night", "my sister's dog Rex died".
EN_PET_DIED = re.compile(
    rf"^{OWNER}\s+{ANIMAL}{PET_NAME}\s+(?:(?:sadly|just|finally|peacefully|suddenly|unexpectedly|unfortunately)\s+)?"
    r"(?:passed\s+away|passed\s+on|died|has\s+died|is\s+dead|crossed\s+the\s+rainbow\s+bridge|went\s+over\s+the\s+rainbow\s+bridge"
    r"|was\s+put\s+down|had\s+to\s+be\s+put\s+down|was\s+put\s+to\s+sleep|had\s+to\s+be\s+put\s+to\s+sleep)"
    + TAIL + r"$",
    re.IGNORECASE,
)
# "we lost our dog Max last week", "had to put our cat down", "RIP to my hamster".
EN_LOST_PET = re.compile(
    r"^(?:(?P<who>.*?)\b(?:lost|had\s+to\s+put\s+down|put\s+down|had\s+to\s+say\s+goodbye\s+to|said\s+goodbye\s+to|buried"
    r"|had\s+to\s+euthanize|had\s+to\s+euthanise)"
    r"|(?P<rip>rip|r\.i\.p\.?|rest\s+in\s+peace)\s*,?(?:\s+to)?)"
    rf"\s+{OWNER}\s+{ANIMAL}{PET_NAME}" + TAIL + r"$",
    re.IGNORECASE,
)
# "we had to give the cat to my aunt", "gave our rabbit away": kept no more (someone else has it).
EN_PET_GIVEN = re.compile(
    rf"^(?P<who>.*?)\b(?:gave|give|giving|given)\s+(?P<owner>the|our|my)\s+{ANIMAL}{PET_NAME}"
    r"\s+(?:away" + TAIL + r"|to\s+(?:my|our|a|the|his|her|some|\w+'s)\b.*)$",
    re.IGNORECASE,
)
# "Miso went back to the shelter", "returned Biscuit to the shelter": an animal by its name,
# kept no more (an ending of what the name names, as "we had to rehome Biscuit" is: endings.py)
EN_NAMED_PET_GONE = re.compile(
    r"^(?:(?:sad\s+update|update|so)\s+)?(?:(?P<name1>(?-i:[A-Z][a-z]+))\s+(?:went|has\s+gone|is\s+going|had\s+to\s+go)\s+back\s+to\s+"
    r"(?:the|her|his|their)\s+(?:shelter|rescue|breeder|foster)|(?:i|we)\s+(?:had\s+to\s+|decided\s+to\s+)?"
    r"return(?:ed)?\s+(?P<name2>(?-i:[A-Z][a-z]+))\s+to\s+the\s+(?:shelter|rescue|breeder))\b",
    re.IGNORECASE)
EN_PUT_DOWN = re.compile(
    rf"^(?P<who>.*?)\bhad\s+to\s+put\s+{OWNER}\s+{ANIMAL}{PET_NAME}\s+(?:down|to\s+sleep)" + TAIL + r"$",
    re.IGNORECASE,
)
# "new obsession: pickleball", "my latest obsession is sourdough", "ok new hobby: pottery".
LEAD_FILLERS = r"(?:(?:ok|okay|so|well|lol|omg|ngl|honestly|also|and|anyway|oh|btw)\s*,?\s+)*"
NEW = r"(?:new|latest|newest|current|biggest)"
TASTE = r"(?:obsession|hobby|addiction|fixation|passion)"
EN_NEW_TASTE = re.compile(
    rf"^{LEAD_FILLERS}(?P<owner>my|his|her|our)?\s*{NEW}\s+{TASTE}(?:\s*(?:is|=|-|–|—)\s+(?P<thing>.+))?$", re.IGNORECASE
)
EN_TASTE_IS_MY = re.compile(rf"^{LEAD_FILLERS}(?P<thing>.+?)\s+is\s+(?:(?:honestly|officially|basically|literally|definitely)\s+)?"
                            rf"(?P<owner>my|his|her)\s+{NEW}\s+(?:{TASTE}|therapy|thing)$", re.IGNORECASE)
# "a friend dragged me to a bouldering gym and i'm obsessed": the pastime of the place one is
# hooked on, read on the sentence (the "and" cuts the clauses).
EN_HOOKED_ON_VENUE = re.compile(
    r"\b(?:to|at|into)\s+(?:a|an|the|my|this|some)\s+(?:(?:new|local|little|nearby|free|first)\s+)?"
    r"(?!(?:new|local|little|nearby|free|first)\b)(?P<thing>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+(?:gym|class|classes|studio|lesson|lessons|club|workshop)\b"
    r"[^.!?]*?\b(?:i'm|i\s+am)\s+(?:(?:so|totally|completely|officially|already|kinda)\s+)?(?:obsessed|hooked|addicted)\b",
    re.IGNORECASE)
# "my whole personality is padel now", "padel is my entire personality": a taste said as an identity
PERSONALITY = r"(?:whole|entire)\s+personality"
EN_WHOLE_PERSONALITY = re.compile(
    rf"^{LEAD_FILLERS}(?:(?P<owner>my|his|her)\s+{PERSONALITY}\s+is\s+(?P<thing>.+?)|(?P<thing2>.+?)\s+is\s+(?P<owner2>my|his|her)\s+{PERSONALITY})"
    r"(?:\s+(?:now|rn|lately|these\s+days|lol|haha))*$", re.IGNORECASE)
EN_TOOK_UP = re.compile(
    r"^(?P<who>.*?)\b(?:took|take|takes|taking|picked|pick|picks|picking|got|get|gets|getting)\s+(?:(?:really|super|so|totally|very|back)\s+)*(?:up|into)\s+"
    r"(?:(?:the|a|some)\s+)?(?P<thing>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)"
    r"(?:\s+(?:again|lately|recently|this\s+\w+|last\s+\w+|over\s+the\s+\w+|during\s+\w+|for\s+fun|lol|haha|finally))*$",
    re.IGNORECASE,
)
@functools.lru_cache(maxsize=8)
def _pastimes(lexicon: Lexicon) -> frozenset[str]:
    """Pastimes by name and activities by verb: what a class, a taking up or a doing may be of."""
    return lexicon.pastimes | frozenset(lexicon.words("habits", "activities"))


# A pastime done, in the present: "I do yoga every week", "still doing 5-a-side on thursdays with the lads"
# (a known pastime only: "doing laundry", "doing great" are no hobbies; "did yoga yesterday" is once).
EN_DOES_PASTIME = re.compile(
    r"^(?P<who>.*?)\b(?:(?:still|also|now|usually|mostly|regularly|really|mainly)\s+)*(?:do|does|doing)\s+"
    r"(?:(?:some|a\s+bit\s+of|a\s+lot\s+of|more)\s+)?(?P<thing>[a-z0-9][a-z0-9-]*(?:\s+[a-z][a-z-]*)?)"
    r"(?:\s+(?:on|every|each|twice|once|three|with|at|in|after|before|most|these|nowadays|again|now|anymore|any\s+more)\b.*)?$",
    re.IGNORECASE,
)
# "signed up for a wheel-throwing pottery class", "taking salsa lessons", "started pottery classes":
# the pastime is what the class teaches.
EN_CLASS_OF = re.compile(
    r"^(?P<who>.*?)\b(?:signed\s+up\s+for|sign\s+up\s+for|enrolled\s+in|joined|taking|take|takes|started|start|starting)\s+"
    r"(?:a|an|some|the|my)?\s*(?P<thing>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)\s+(?:class|classes|lessons|course|workshop)"
    r"(?:\s+(?:downtown|again|lately|recently|this\s+\w+|last\s+\w+|on\s+\w+days?|every\s+\w+|at\s+the\s+\w+|lol|haha))*$",
    re.IGNORECASE,
)
# Words in -ing that name no activity: "picked up a wedding invitation", "got into the building".
NOT_ACTIVITIES = frozenset("thing something nothing anything everything morning evening building wedding ceiling clothing "
                           "meeting feeling bring string king spring ring wing sibling pudding earring outing stuffing "
                           "filling icing housing parking lightning shopping".split())
# Not a thing liked: a pointer ("this song"), a question's filler, "none".
NOT_TASTES = frozenset("this that these those the my his her our their your it none nothing idk everything something".split())


def pet_noun(lexicon: Lexicon, phrase: str) -> str | None:
    """The pet a phrase ends with, with what describes it dropped: "retired racing greyhound"
    -> greyhound, "golden retriever" -> golden retriever; None when it names no pet ("hot dog",
    "dog bed")."""
    words = collapse(phrase).casefold().split()
    for size in (2, 1):
        if len(words) >= size and (pet := " ".join(words[-size:])) in lexicon.pets:
            before = words[:-size]
            if before and before[-1] in NOT_PET_WORDS or len(before) > 3 or not DESCRIBING.fullmatch(" ".join(before)):
                return None  # "a hot dog"; "a dog and a cat" (two animals: which one is named?)
            return pet
    return None

# Pets said by breed or nickname beside the lexicon's ([mentions] pets).
ZH_MORE_PETS = ("二哈", "哈士奇", "边牧", "比熊", "博美", "萨摩", "萨摩耶", "英短", "美短", "橘猫", "狸花猫", "加菲猫",
                "布偶", "法斗", "拉布拉多", "阿拉斯加", "德牧", "雪纳瑞", "猫主子", "主子")


def is_pet(lexicon: Lexicon, value: str) -> bool:
    """Whether a thing kept is an animal: a Chinese pet word of the lexicon ends it ("巴西龟" is a
    龟, "小橘猫" a 猫) or it is a breed listed here; an English phrase that ends with a pet."""
    key = collapse(value).casefold()
    if has_cjk(key):
        return key in ZH_MORE_PETS or any(key.endswith(p) for p in lexicon.pets if has_cjk(p))
    return pet_noun(lexicon, key) is not None


# "前两天在楼下捡了只小橘猫", "我们领养了一只流浪狗", "买了只仓鼠": an animal taken in (the place before the verb is dropped)
ZH_PET_TAKEN = re.compile(rf"^(?P<who>.*?)(?:捡了|捡到了|捡回了?|收养了|领养了|抱回了?|接回了?|买了|买回了?|入了)(?:一)?(?:只|条|个)(?P<pet>[{CJK}]{{1,5}})(?:回家|回来)?(?:了|啦)?$")
ZH_PLACE_BEFORE = re.compile(rf"在[{CJK}]{{1,6}}?(?:楼下|门口|路边|小区|公司|学校|附近|外面|街上|家门口)$|在(?:楼下|门口|路边|小区里?|附近|外面|街上)$")
ZH_LITTLE = re.compile(r"^(?:小|一)")
# "给它起名大橘", "起名叫豆豆", "取了个名叫团子"
ZH_NAMED_IT = re.compile(rf"^(?:给(?:它|她|他))?(?:起名|取名|起了个名字?|取了个名字?)(?:叫|为)?(?P<name>[{CJK}A-Za-z]{{1,4}})(?:了|啦)?$")


# "we adopted a dog", "just got a puppy named Biscuit", "adopted a retired racing greyhound",
# "adopted a tabby from the shelter":
# an animal taken in is kept (the lexicon's [mentions] pets only, with what describes it
# dropped, ``pet_noun``: "got a cold", "adopted a new policy", "got a hot dog" are no pet).
EN_PET_TAKEN = re.compile(
    r"^(?P<who>.*?)\b(?:adopted|adopt|got|get|rescued|rescue|brought\s+home|bring\s+home)\s+(?:a|an|our|my)\s+"
    r"(?P<pet>[a-z0-9][a-z0-9-]*(?:\s+[a-z0-9][a-z0-9-]*){0,4}?)"
    r"(?:\s+from\s+(?:the|a|an|our|my)\s+(?:local\s+)?(?:shelter|rescue|pound|breeder|rspca|spca)(?:\s+(?:centre|center))?)?"
    r"(?:\s*,?\s+(?:named|called)\s+(?P<name>(?-i:[A-Z][a-z][\w'-]*)))?(?:\s+(?:today|yesterday|last\s+\w+|this\s+(?:week|weekend|morning)"
    r"|on\s+\w+day|(?:mon|tues|wednes|thurs|fri|satur|sun)day))?$",
    re.IGNORECASE,
)
# "a beagle called Rocket", after "we have a puppy too!!": the kind of the animal just said, and its name
EN_KIND_CALLED = re.compile(r"^(?:an?\s+)?(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?:called|named)\s+(?P<name>[A-Z][a-z][\w'-]*)$", re.IGNORECASE)
# "her name is Juno", "named him Waffles", "she's called Pickle", after a clause that said which animal.
EN_ITS_NAME = re.compile(
    r"^(?:(?:her|his|its|their)\s+name(?:'s|\s+is)|(?:(?:we|i)\s+)?(?:named|called|(?:'re|are|am|'m)\s+calling)\s+(?:him|her|it)"
    r"|(?:she|he|it)(?:'s|\s+is)\s+(?:called|named))"
    r"\s+(?P<name>[A-Z][a-z][\w'-]*)$"
)


class PetHobbyRules:
    lexicon: Lexicon

    def _pets_and_hobbies(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        # "new obsession" ended the clause before: only this clause may say what it is.
        labelled, turn.label = turn.label, None
        if has_cjk(clause):
            return self._zh_pet_taken(clause, turn) or self._zh_pet_named_it(clause, turn)
        return self._new_taste(clause, turn, labelled) or self._pet_died(clause, turn) or self._took_up(clause, turn)

    def _zh_pet_taken(self, clause: str, turn: Turn) -> Found | None:
        """ "捡了只小橘猫", "领养了一只流浪狗": an animal the lexicon lists, taken in."""
        if not (m := ZH_PET_TAKEN.match(clause)):
            return None
        pet = ZH_LITTLE.sub("", m["pet"])
        if not self._zh_pet_word(pet):
            return None  # "捡了个钱包": no animal
        subject, negated = self._zh_who(ZH_PLACE_BEFORE.sub("", m["who"]), turn)  # times peeled: "前两天"
        if subject is None or negated:
            return None
        turn.owned = (subject, pet)
        return Found(subject, "has", pet)

    def _zh_pet_word(self, word: str) -> bool:
        """An animal: a Chinese pet word of the lexicon ends it (小橘猫 is a 猫), or a breed listed here."""
        return has_cjk(word) and is_pet(self.lexicon, word)

    def _zh_pet_named_it(self, clause: str, turn: Turn) -> Found | None:
        """ "给它起名大橘" after a clause that said which animal the speaker took in."""
        if turn.owned is None or not (m := ZH_NAMED_IT.match(clause)):
            return None
        if not self._zh_pet_word(turn.owned[1]):
            return None
        return Found(turn.owned[0], "pet_name", m["name"])

    def _took_up(self, clause: str, turn: Turn) -> Found | None:
        """ "took up running", "picked up the ukulele again", "signed up for a pottery class": a
        hobby begun (the class's subject by its last word: "wheel-throwing pottery" is pottery)."""
        known = _pastimes(self.lexicon)
        if m := EN_CLASS_OF.match(clause):
            words = collapse(m["thing"]).casefold().split()
            # the pastime the class teaches: "salsa dance class" -> dance; "pottery wheel course" -> pottery
            thing = next((w for w in (words[-1], words[0]) if w in known), words[-1])
        elif m := EN_TOOK_UP.match(clause):
            thing = collapse(m["thing"]).casefold()
        elif (m := EN_DOES_PASTIME.match(clause)) and collapse(m["thing"]).casefold() in known:
            thing = collapse(m["thing"]).casefold()  # "I do yoga every week", "still doing 5-a-side on thursdays"
        else:
            return None
        last = thing.rsplit(" ", 1)[-1]
        listed = thing in known
        if not (listed or len(last) > 4 and last.endswith("ing") and last not in NOT_ACTIVITIES):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        return Found(subject, "habit", thing, negated) if subject is not None and self._usable(thing) else None

    def _pet_died(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "our cat passed away last night", "we lost our dog Max": the animal is kept no more."""
        if (gone := EN_NAMED_PET_GONE.match(clause)) and (name := gone["name1"] or gone["name2"]).casefold() not in self.lexicon.not_names:
            return [Found(turn.speaker_id, ENDED, name, True, True)]  # "Miso went back to the shelter"
        m = EN_PET_DIED.match(clause) or EN_LOST_PET.match(clause) or EN_PUT_DOWN.match(clause) or EN_PET_GIVEN.match(clause)
        if m is None or (pet := pet_noun(self.lexicon, m["animal"])) is None:
            return None
        who, teller = m.groupdict().get("who"), None
        if who and who.strip():
            region, negated = self._clean_before_verb(who)
            if negated or (teller := self._subject(region, turn)) is None:
                return None  # "I didn't lose my dog", "the vet said we lost our dog": not the speaker's telling
        owner = collapse(m["owner"])
        key = owner.casefold()
        if key in ("my", "our") or key == "the" and teller in (None, turn.speaker_id):
            subject = turn.speaker_id  # "gave the cat to my aunt": the one the speaker kept
        elif key == "the":
            subject = teller  # "my mum gave the dog to a neighbour": hers
        elif key in ("his", "her"):  # "my mum lost her cat": hers; "her cat died": the one named before
            subject = teller if teller not in (None, turn.speaker_id) else turn.other
        else:  # "my sister's dog", "Kofi's cat"
            subject = self._subject(owner[:-2], turn)
        if subject is None:
            return None
        found = [Found(subject, "has", pet, True, True)]
        if m["name"] and m["name"].casefold() not in self.lexicon.not_names:
            found.append(Found(subject, "pet_name", m["name"], True, True))  # "we lost our dog Max": Max is gone too
        return found

    def _new_taste(self, clause: str, turn: Turn, labelled: str | None) -> Found | None:
        """ "my latest obsession is sourdough", "new hobby: pottery" (the thing in the next clause)."""
        if whole := EN_WHOLE_PERSONALITY.match(clause):
            owner = (whole["owner"] or whole["owner2"]).casefold()
            subject, thing = turn.speaker_id if owner == "my" else turn.other, whole["thing"] or whole["thing2"]
            if re.match(r"(?:a|an|the|so|very|just|kind\s+of|basically)\b", thing.strip(), re.IGNORECASE):
                return None  # "my whole personality is a mess": what it is like, not a taste
            return self._taste(subject, thing) if subject else None
        m = EN_NEW_TASTE.match(clause) or EN_TASTE_IS_MY.match(clause)
        if m is not None:
            owner = (m["owner"] or "my").casefold()
            subject = turn.speaker_id if owner in ("my", "our") else turn.other
            if subject is None:
                return None
            if not m["thing"]:
                turn.label = subject  # "new obsession: pickleball": the colon cut the clause
                return None
            return self._taste(subject, m["thing"])
        if labelled is not None:
            return self._taste(labelled, clause)
        return None

    def _hooked_on_venue(self, sentence: str, turn: Turn) -> list[Found]:
        """ "a friend dragged me to a bouldering gym and i'm obsessed" (likes bouldering)."""
        m = EN_HOOKED_ON_VENUE.search(sentence) if turn.user_is_speaker else None
        found = self._taste(turn.speaker_id, m["thing"]) if m else None
        return [found] if found else []

    def _taste(self, subject: str, thing: str) -> Found | None:
        lex = self.lexicon
        value = self._clean_value(thing)
        if light := self._light_verb(value):
            value = self._clean_value(value[light.end():])  # "watching Bluey": Bluey
        words = value.casefold().split()
        if not words or words[0] in NOT_TASTES or len(words) > 3 or not self._usable(value):
            return None  # "new obsession: this song", a clause after the colon
        if any(w in lex.first_person or w in lex.second_person or w in ("is", "are", "was", "he", "she", "they") for w in words):
            return None  # "new hobby: I guess nothing": a sentence, not a thing
        return Found(subject, "likes", value)

    def _pet_taken(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "we adopted a dog", "got a kitten named Miso": the speaker keeps one (and its name).
        The next clause may name it ("her name is Juno", ``_pet_name_after``)."""
        if not (m := EN_PET_TAKEN.match(clause)) or (pet := pet_noun(self.lexicon, m["pet"])) is None:
            return None
        region, negated = self._clean_before_verb(m["who"])
        # "my mum finally caved and adopted a cat": the clause before says whose it is
        subject = turn.other if not region and turn.topic and turn.other else self._subject(region, turn)
        if subject is None or negated:
            return None
        turn.owned = (subject, pet)
        found = [Found(subject, "has", pet)]
        if m["name"] and m["name"].casefold() not in self.lexicon.not_names:
            found.append(Found(subject, "pet_name", m["name"]))
        return found

    def _pet_name_after(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        """ "her name is Juno" right after a clause that said the speaker keeps an animal; "a
        beagle called Rocket" after "we have a puppy too!!" (which kind, and its name)."""
        if turn.owned is None or turn.owned[1] not in self.lexicon.pets:
            return None
        if (m := EN_KIND_CALLED.match(clause)) and (kind := self._pet_kind(collapse(m["kind"]).casefold())):
            return [Found(turn.owned[0], "has", kind), Found(turn.owned[0], "pet_name", m["name"])]
        if not (m := EN_ITS_NAME.match(clause)):
            return None
        return Found(turn.owned[0], "pet_name", m["name"])

    def _pet_kind(self, said: str) -> str | None:
        """The animal of "beagle" or "rescue greyhound" (a word before the kind says which one)."""
        return said if said in self.lexicon.pets else said.split()[-1] if said.split()[-1] in self.lexicon.pets else None
