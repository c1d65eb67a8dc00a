"""Text helpers every extraction module shares: CJK detection, spacing, names, phrase regexes."""

from __future__ import annotations

import re
from typing import Sequence

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR = re.compile(f"[{CJK}]")
COPULAS = ("is", "are", "was", "were")
# English negated copulas name the verb they negate; the lexicon lists them as negations.
CONTRACTED_COPULAS = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were"}
# Characters that end a value or a clause without being part of it.
EDGE_PUNCTUATION = " \t.,!?;:。，！？；：、…~\"“”‘’()（）[]【】"
# A Chinese subject other than a name: pronouns and demonstratives start with these.
CJK_NON_NAME_START = "我你您他她它这那谁哪"
# A product by its model, said in lower case: "got a pixel 8", "bought an iphone 15 pro", "got a ps5".
EN_MODEL = re.compile(r"[a-z]{3,}(?:\s+[a-z]+)?\s+[a-z]?\d{1,4}(?:\s+(?:pro|max|plus|ultra|mini|lite|se))?|[a-z]{2,}\d{1,4}",
                      re.IGNORECASE)


# --------------------------------------------------------------------------- text helpers


def has_cjk(text: str) -> bool:
    return CJK_CHAR.search(text) is not None


def collapse(text: str) -> str:
    """Single spaces, no edge whitespace; curly apostrophes made straight so "don’t" == "don't"."""
    return " ".join(text.replace("’", "'").split())


def name_key(name: str) -> str:
    """What two spellings of one name share: "Lives In", "lives_in", "lives-in" -> "livesin"."""
    return re.sub(r"[\W_]+", "", name.casefold())


def snake_name(text: str) -> str:
    """A readable predicate from a phrase: "Plays the  position of" -> "plays_the_position_of"."""
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)*", text.lower())
    return "_".join(words)


# The irregular verbs of everyday chat; the lexicon writes base forms only.
IRREGULAR = {
    "have": ("have", "has", "having", "had"),
    "get": ("get", "gets", "getting", "got", "gotten"),
    "speak": ("speak", "speaks", "speaking", "spoke", "spoken"),
    "grow": ("grow", "grows", "growing", "grew", "grown"),
    "come": ("come", "comes", "coming", "came"),
    "leave": ("leave", "leaves", "leaving", "left"),
    "teach": ("teach", "teaches", "teaching", "taught"),
    "drive": ("drive", "drives", "driving", "drove"),
    "run": ("run", "runs", "running", "ran"),
    "swim": ("swim", "swims", "swimming", "swam"),
    "eat": ("eat", "eats", "eating", "ate", "eaten"),
    "drink": ("drink", "drinks", "drinking", "drank"),
    "win": ("win", "wins", "winning", "won"),
    "stop": ("stop", "stops", "stopping", "stopped"),
    "quit": ("quit", "quits", "quitting"),
    "die": ("die", "dies", "dying", "died"),
    "study": ("study", "studies", "studying", "studied"),
    "plan": ("plan", "plans", "planning", "planned"),
}


def english_forms(phrase: str) -> list[str]:
    """The regular inflections of a phrase's first English word: "live in" -> lives/living/lived in.

    Only regular rules: irregular forms ("drank") are listed in the lexicon instead.
    """
    first, _, rest = phrase.partition(" ")
    if first == "be" and rest:  # "be married to": the copula is peeled off the subject ("I'm", "Anna is")
        return english_forms(rest) if rest.split()[0] not in ("a", "an", "the") else [rest]
    if not (first.isascii() and first.isalpha() and len(first) > 1):
        return [phrase]
    if first in IRREGULAR:
        return [f"{form} {rest}".strip() for form in IRREGULAR[first]]
    if first.endswith("e"):
        forms = [first, first + "s", first[:-1] + "ing", first + "d"]
    elif first.endswith("y") and first[-2] not in "aeiou":
        forms = [first, first[:-1] + "ies", first + "ing", first[:-1] + "ied"]
    elif first.endswith(("s", "sh", "ch", "x", "o")):
        forms = [first, first + "es", first + "ing", first + "ed"]
    elif SHORT_CVC.fullmatch(first):  # one syllable ending consonant-vowel-consonant: knit -> knitting, plan -> planned
        forms = [first, first + "s", first + first[-1] + "ing", first + first[-1] + "ed"]
    else:
        forms = [first, first + "s", first + "ing", first + "ed"]
    return [f"{form} {rest}".strip() for form in forms]


SHORT_CVC = re.compile(r"[^aeiou]*[aeiou][^aeiouwxy]")


def third_person(verb: str) -> str:
    """ "play" -> "plays", so "Alex doesn't play for X" names the slot "Alex plays for X" names."""
    return english_forms(verb)[1] if verb.isascii() and verb.isalpha() else verb


# What an English phrase may not touch to count as a whole word: Latin letters, accented
# ones included ("a" is no word inside "Janša"), digits and the apostrophe; but not CJK,
# which runs into English names unspaced ("我在Google上班").
LATIN_WORD = "A-Za-z0-9'\u00C0-\u024F"


def phrase_pattern(phrases: Sequence[str]) -> str:
    """A regex alternation matching any phrase; English ones only as whole words.

    Longest first, so at one position "喜欢喝" wins over "喜欢" and "no longer" over "no".
    A lookahead on the possible first characters lets a search skip most positions at once.
    """
    parts, firsts = [], set()
    for phrase in sorted(set(phrases), key=lambda p: (-len(p), p)):
        body = r"\s+".join(re.escape(word) for word in phrase.split())
        if re.match(r"[A-Za-z0-9']", phrase):
            body = rf"(?<![{LATIN_WORD}])" + body
        if re.search(r"[A-Za-z0-9']$", phrase):
            body += rf"(?![{LATIN_WORD}])"
        parts.append(body)
        firsts.update({phrase[0].lower(), phrase[0].upper()})
    if not parts:
        return r"(?!)"  # never matches: an empty list finds nothing
    return "(?=[" + "".join(re.escape(c) for c in sorted(firsts)) + "])(?:" + "|".join(parts) + ")"


class EdgePattern:
    """A pattern anchored at one end of the text, searched only where a match can start.

    ``search`` is what ``re.Pattern.search`` would find on collapsed text (single spaces),
    without trying every position of a long text.
    """

    def __init__(self, pattern: re.Pattern[str], reach: int | None):
        self.pattern = pattern
        self.reach = reach  # None: anchored at the start; else the longest match at the end

    def search(self, text: str) -> re.Match[str] | None:
        if self.reach is None:
            return self.pattern.match(text)
        return self.pattern.search(text, max(0, len(text) - self.reach))

    match = search


class PhraseSet:
    """One word list, compiled for "anywhere", "at the start" and "at the end" searches."""

    def __init__(self, phrases: Sequence[str]):
        body = phrase_pattern(phrases)
        self.anywhere = re.compile(body, re.IGNORECASE)
        self.lead = EdgePattern(re.compile(rf"^\s*(?:{body})\s*", re.IGNORECASE), None)
        # A trailing phrase starts within its own length (plus a few spaces) of the end.
        reach = max((len(collapse(p)) for p in phrases), default=0) + 4
        self.trail = EdgePattern(re.compile(rf"\s*(?:{body})\s*$", re.IGNORECASE), reach)


# Capitalised days and months end a name: "Google on Mondays" is Google.
_CALENDAR = re.compile(r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\b|(?:January|February|March|April|May|June|July|August|"
                       r"September|October|November|December)\b")


_TITLE_JOINS = frozenset({"on", "with", "with the", "upon"})
# The small words inside a proper name or title: "Duke of Bourbon", "Ludwig van Beethoven".
NAME_JOINS = frozenset("of de del la le du von van upon on the".split())


def inside_title(value: str, stop: re.Match[str]) -> bool:
    """A lowercase "on" or "with" between two capitalised words joins a title: "Attack on
    Titan". (Not "in" or "over": "Acme in Berlin", "Coke over Pepsi" are two names.) So
    does "of" in a name's appositive after a comma: "Louis Henri, Duke of Bourbon" (not in
    "the CEO of Bosch", which is a role and a company)."""
    before, after = value[: stop.start()].split(), value[stop.end():].split()
    join = " ".join(stop.group().split())
    appositive = join == "of" and "," in value[: stop.start()]
    return ((join in _TITLE_JOINS or appositive) and bool(before) and bool(after) and before[-1][:1].isupper()
            and after[0][:1].isupper() and not _CALENDAR.match(after[0])
            and not (join == "on" and _STREET.fullmatch(after[min(len(after), 3) - 1].strip(".,"))))


# "Ironclad Fitness on Dover St": where the place is, not a title's "on"
_STREET = re.compile(r"(?i:st|street|ave|avenue|rd|road|blvd|boulevard|lane|ln|square|sq|drive|dr|way)")


def title_article(value: str, m: re.Match[str]) -> bool:
    """A capital "The" leading a capitalised name inside a sentence is the name's own:
    "famous for The Simpsons" (while "the gym", "the Beatles" lose their article)."""
    return m.start() == 0 and m.group().strip() == "The" and value[m.end():m.end() + 1].isupper()


def employer_of(user_id: str) -> str:
    """The subject of a statement about the speaker's unnamed employer ("公司总部搬到南京了",
    "our company moved its HQ"): search reads it as the employer the user has at the time."""
    return f"{user_id}'s employer"


# Contractions typed without their apostrophe in chat ("im a junior analyst", "shes called
# Pickle", "theyre vegan"): restored before anything reads the text, so every rule sees the
# form it knows. Only words that are no other English word: "its", "were", "well", "ill",
# "id", "shed", "hed", "lets" and "wed" are words of their own, and stay as typed.
CHAT_CONTRACTIONS = {
    "im": "I'm", "ive": "I've", "shes": "she's", "hes": "he's", "theyre": "they're", "theyve": "they've",
    "youre": "you're", "youve": "you've", "weve": "we've", "thats": "that's", "whats": "what's",
    "wheres": "where's", "whos": "who's", "hows": "how's", "theres": "there's",
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "isnt": "isn't", "arent": "aren't",
    "wasnt": "wasn't", "werent": "weren't", "havent": "haven't", "hasnt": "hasn't", "cant": "can't",
    "wont": "won't", "couldnt": "couldn't", "wouldnt": "wouldn't", "shouldnt": "shouldn't",
}
# The word in lower case anywhere ("so im a nurse"), or capitalised where a sentence starts
# ("Im a nurse"); a capitalised one after a capitalised word is a name's ("Jony Ive").
_CHAT_CONTRACTION = re.compile(
    r"(?<![\w'’-])(?:(?P<lower>" + "|".join(CHAT_CONTRACTIONS) + r")"
    r"|(?:(?<=^)|(?<=[.!?…]\s)|(?<=[.!?…])|(?<=\n))(?P<title>" + "|".join(w.title() for w in CHAT_CONTRACTIONS) + r"))"
    r"(?![\w'’-])"
)


def restore_apostrophes(text: str) -> str:
    """ "im a nurse" -> "I'm a nurse", "Shes called Pickle" -> "She's called Pickle"."""
    def restored(m: re.Match[str]) -> str:
        if m["lower"]:
            return CHAT_CONTRACTIONS[m["lower"]]
        said = CHAT_CONTRACTIONS[m["title"].casefold()]
        return said[:1].upper() + said[1:]
    return _CHAT_CONTRACTION.sub(restored, text)


# Chat stretches words ("sooo my sister moved", "yesss", "nooo"): no English word holds a
# letter three times in a row, so a run of three or more lower-case letters is one letter.
_STRETCHED = re.compile(r"([a-z])\1{2,}")


# The space mixed Chinese puts around an English word ("title 变成 EM 了", "下周要去 onsite"): Chinese
# has no spaces, and the rules read "title变成EM了" as they read "职位变成经理了". Unless the writer
# uses spaces to end clauses ("海豚给老婆开了 我换了台问界M7 空间大"): then one after a word may be a break.
_CJK_BEFORE_LATIN = re.compile(rf"(?<=[{CJK}])[ \t]+(?=[A-Za-z0-9])")
_CJK_LATIN_GAP = re.compile(rf"{_CJK_BEFORE_LATIN.pattern}|(?<=[A-Za-z0-9])[ \t]+(?=[{CJK}])")
_CJK_GAP = re.compile(rf"[{CJK}][ \t]+[{CJK}]")


def chat_text(text: str) -> str:
    """A chat message as the rules read it: stretched words unstretched, apostrophes restored,
    and a Chinese message's English words written without the spaces around them (an English
    message quoting a Chinese word keeps its spaces)."""
    text = restore_apostrophes(_STRETCHED.sub(r"\1", text))
    if len(CJK_CHAR.findall(text)) > len(re.findall(r"[A-Za-z]+", text)):
        text = (_CJK_BEFORE_LATIN if _CJK_GAP.search(text) else _CJK_LATIN_GAP).sub("", text)
    return text


# A Capitalised word ("Bristol", "Moved"): not "I" or "I'm", not a word in capitals ("FINALLY", "AC").
_TITLE_WORD = re.compile(r"(?<![\w'])(?!I(?:'[a-z]+)?(?![\w']))[A-Z][a-z]")


def writes_in_lower_case(text: str) -> bool:
    """English chat typed without capitals ("moved to bristol last weekend!"): no Capitalised
    word but "I". Its writer names towns in lower case too; one who capitalises does not."""
    return bool(re.search(r"[a-z]{3}", text)) and not _TITLE_WORD.search(text)


# Where or when a statement holds, said before its subject: "At the office I basically live on
# espressos", "at work we use Slack", "On weekends I ...": no part of who says it.
EN_SETTING_LEAD = re.compile(r"^(?:at|in|on)\s+(?:(?:the\s+|my\s+|our\s+)?(?:office|work|home|school|uni|weekends?|the\s+weekend|"
                             r"weekdays|mornings?|nights?|lunch|night)|(?-i:[A-Z][\w'-]+))\s*,?\s+(?=(?:i|we|i'm|i've|we're|my|our)\b)",
                             re.IGNORECASE)


# Places of everyday life that name no organisation or town: "回公司上班", "在家".
ZH_GENERIC_PLACES = frozenset(
    "公司 单位 学校 家 家里 老家 办公室 岗位 工位 厂 厂里 店里 医院 工地 部门 宿舍 国 国内 大陆 内地 原单位 老东家 工作 上班".split()
)

# Adverbs that finish a phrasal verb ("eat out", "hang out", "take up"): never a value's first word.
VERB_PARTICLES = frozenset({"out", "up", "off", "away", "around", "back", "down"})


# The last word of an English business noun phrase: "a bakery", "a florist shop", "a dog grooming business".
EN_BUSINESS_HEADS = (
    "bakery", "cafe", "café", "coffee shop", "shop", "store", "boutique", "restaurant", "bistro", "diner", "bar",
    "pub", "brewery", "salon", "barbershop", "studio", "gym", "clinic", "practice", "bookshop", "bookstore",
    "florist", "food truck", "business", "company", "startup", "firm", "agency", "hostel", "guesthouse",
    "b&b", "daycare", "nursery", "pizzeria", "deli", "winery", "farm", "hotel", "takeaway",
)

_BUSINESS_END = re.compile(rf"(?<![\w-])(?:{'|'.join(re.escape(h) for h in EN_BUSINESS_HEADS)})$")


def is_business(thing: str) -> bool:
    """ "a cafe", "candle business": a noun phrase ending in a business noun."""
    return bool(_BUSINESS_END.search(collapse(thing).casefold().rstrip(" .,!")))
