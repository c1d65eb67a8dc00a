"""Messages cut into sentences and clauses, as the rules read them.

Linear in the text: one regex pass each for sentences and clauses, and a clause longer than
``MAX_CLAUSE_CHARS`` is not read at all (a chat fact is a short clause; a pasted document is
evidence, not a claim). What a clause *is* is ``grammar.py``'s business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import CJK, NAME_JOINS

MAX_CLAUSE_CHARS = 240  # longer clauses are not chat facts; skipping them keeps cost linear

# A company's legal form after its name: "Hasbro, Inc." is one name, not a clause and a sentence.
LEGAL_FORM = r"(?:Inc|Ltd|LLC|Corp|Co|PLC|GmbH|AG|S\.A)\b"
# Sentence ends; a period after a lone capital is an initial ("George W. Bush"), and one
# after a legal form ends the sentence only before a capital ("Acme Inc. It's great").
SENTENCE_END = re.compile(
    r"(?<!\b[A-Z])(?<!\bSt|\bDr|\bMr|\bMs|\bMt|\bJr|\bSr|\bCo|\bAG)(?<!\bMrs|\bInc|\bLtd|\bLLC|\bPLC)(?<!\bCorp)"
    r"[.!?;]+(?=\s|$)|(?:(?<=\bInc|\bLtd|\bLLC|\bPLC)|(?<=\bCo|\bAG)|(?<=\bCorp))[.!?;]+(?=\s+[^a-z]|\s*$)"
    r"|[。！？；\n?？!！]+"
    # Chat writes emoji where it would put a full stop: "搬完家了😮‍💨 从闵行搬到了浦东".
    r"|[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF][\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]*"
)
# Clause boundaries inside a sentence: commas, colons (not in "25:10"), and "but"-style joins.
# "..., so I can teach English in Japan", "in order to work at Google": a purpose, which is no
# fact yet; cut before it, the marker kept for ``Grammar.mood`` (PURPOSE).
PURPOSE_START = (r"so\s+that\s|so\s+(?=(?:i|we|he|she|they|you)\s+(?:can|could|will|would|may|might)\s)"
                 r"|in\s+order\s+to\s")
# "since" giving a reason, not a time ("since we're going to Osaka next spring"; not "since I
# was a kid", "since June"): the reason's mood is its own.
CAUSAL_SINCE = r"(?:i|we|he|she|they|you|it)(?:'re|'m|'s|'ll|\s+(?:are|am|is|will|have|has|need|needs|want|wants|got|can)\b)"
CLAUSE_BREAK = re.compile(
    rf"\s+(?={PURPOSE_START})|,\s+(?!{LEGAL_FORM})|[，、：]+|\s*[()]\s*|(?<!\d):+|:+(?!\d)|\s+(?:but|though|although|because|so|whereas|while)\s+|\s+and\s+then\s+(?=(?:i|i'm|i've|we|we're|you|my|our|he|she|they|he's|she's|they're)\s)|\s+(?=and\s+then\s)|\s*[-–—]{{1,2}}\s+"
    rf"|\s+since\s+(?={CAUSAL_SINCE})|\s+(?=before\s+(?:going|moving|switching|getting)\s+into\s)"
    r"|但是|不过|可是|而且|因为|所以|然后|但"
    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])"  # a space between Chinese words is a pause, like a comma
    # and after a Chinese word's letters or digits ("换了台问界M7 空间大")
    r"|(?:(?<=[\u4e00-\u9fff][A-Za-z0-9])|(?<=[\u4e00-\u9fff][A-Za-z0-9]{2})|(?<=[\u4e00-\u9fff][A-Za-z0-9]{3}))\s+(?=[\u4e00-\u9fff])"
    r"|(?<=[\u4e00-\u9fff])(?:…+|\.{2,}|[～~]+)(?=[\u4e00-\u9fff])"  # so is an ellipsis ("放弃了……五十音都快忘光了"), a tilde
    # and a laugh in chat ("the vegetarian era is over lol had a burger yesterday")
    r"|\s+(?:lol|lmao|lmfao|rofl|ha(?:ha)+|he(?:he)+)\s+(?=\w)",
    re.IGNORECASE,
)
# "..., and I live in Paris": "and" starts a new clause only before a subject, or before a verb
# of change; there the "and" stays, so that the clause takes the subject said before it ("she
# quit and joined Brightmoor": hers, ``coordination.share_subjects``), not the speaker's.
AND_SUBJECT = re.compile(
    r"\s+and\s+(?:(?:somehow|still|also|now|honestly|apparently|yet|just|then)\s+)?(?=(?:i|i'm|i've|we|we're|my|our|he|she|they|he's|she's|they're)\s)"
    r"|\s+(?=and\s+(?:(?:somehow|still|also|now|honestly|apparently|yet|just|then)\s+)?"
    r"(?:bought|sold|moved|started|joined|left|quit|switched|adopted|got|works|lives)\s)",
    re.IGNORECASE,
)
BARE_SUBJECT = re.compile(r"(?i:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?|[A-Z][a-z]+|(?i:me)")
ZH_AND_SUBJECT = re.compile(r"(?<=[\u4e00-\u9fff])(?:，|,)?(?:还有|并且|而且)"
                            # "辞职搬去深圳了", "毕业回了老家": a life event, then where the same one went
                            r"|(?<=辞职|离职|裸辞|毕业|退休)了?(?=搬|去了|回了|跑去|跑到|进了)"
                            # "把iPhone卖了换了小米13": one thing let go, then what came instead
                            r"|(?:(?<=卖了|退了|扔了)|(?<=卖掉了|送人了))(?=换了|换成|买了|入了|又买了)")


@dataclass(frozen=True)
class Sentence:
    text: str
    question: bool
    surprised: bool = False  # "??", "?!": chat's surprise, a question only if its words ask


SURPRISE_END = re.compile(r"[?？]{2,}|[?？][!！]|[!！][?？]")


def sentences(text: str) -> list[Sentence]:
    """The sentences of a message, each marked as a question or not (one regex pass)."""
    out, start = [], 0
    for m in SENTENCE_END.finditer(text):
        body = text[start:m.start()].strip()
        if body:
            out.append(Sentence(body, "?" in m.group() or "？" in m.group(), bool(SURPRISE_END.search(m.group()))))
        start = m.end()
    rest = text[start:].strip()
    if rest:
        out.append(Sentence(rest, False))
    return out


# A title after a name, after a comma, that ends the sentence: "Louis Henri, Duke of
# Bourbon", "Louis Joseph, Prince of Condé". Capitalised words joined by a small word of
# titles, to the end, after a capitalised word that is not the sentence's first. (A place
# after a place, "Coimbra, Portugal", is two claims: the place and where it is.)
_CAP = r"[A-Z][\w'’.-]*"
NAME_APPOSITIVE = re.compile(
    rf"(?<=\w),(?=\s+{_CAP}(?:\s+{_CAP})*\s+(?:{'|'.join(sorted(NAME_JOINS))})\s+{_CAP}(?:\s+{_CAP})*\s*[.!?]*\s*$)"
)
# A new phone, then which it is: "got a new phone, a Pixel 7" (devices.py reads the two as one).
# Not every new thing: "got a new puppy, a Beagle named Max" reads best as two clauses.
NEW_THING_APPOSITIVE = re.compile(r"\b(?:a|my|the|our)\s+(?:brand[\s-])?new\s+phone(?P<comma>,)(?=\s+(?:a|an|the)\s+(?-i:[A-Z]))",
                                  re.IGNORECASE)
_KEPT_COMMA = "\u2063"  # stands for a comma that cuts no clause, while the clauses are cut


def clauses(sentence: str) -> list[str]:
    """The clauses of one sentence; over-long ones are dropped (see MAX_CLAUSE_CHARS)."""
    parts = []
    sentence = _keep_appositive(sentence)
    for part in CLAUSE_BREAK.split(sentence):
        pieces = AND_SUBJECT.split(part)
        if len(pieces) > 1 and BARE_SUBJECT.fullmatch(pieces[0].strip()):
            pieces = [part]  # "my wife and I live in Chicago": one subject, two people
        for piece in pieces:
            parts.extend(ZH_AND_SUBJECT.split(piece))
    return [p.strip().replace(_KEPT_COMMA, ",") for p in parts if p and p.strip() and len(p) <= MAX_CLAUSE_CHARS]


# A Chinese sentence's closing particle of tone says nothing ("我花生过敏哈", "我在杭州呀"): cut
# before the rules read the clause, each of which would otherwise list them all. 了, 吧, 呢, 吗,
# 呗 and 嘛 stay: they say a change, a guess, a question or a request ("讲个故事呗").
ZH_TONE_PARTICLES = re.compile(rf"(?<=[{CJK}])(?:哈+|[呀哟咯噢喔啊哦])+[～~]*$")


def clause_texts(sentence: str, edges: str) -> list[str]:
    """The clauses of one sentence as the rules read them: without the punctuation (and
    emoji) in ``edges`` at either end, or a closing particle of tone after two characters."""
    out = []
    for clause in clauses(sentence):
        clause = clause.strip(edges)
        if (tone := ZH_TONE_PARTICLES.search(clause)) and tone.start() >= 2 and not clause[: tone.start()].endswith("哈"):
            clause = clause[: tone.start()].strip(edges)
        out.append(clause)
    return out


def _keep_appositive(sentence: str) -> str:
    """The sentence with the comma before an appositive (a closing name, a new phone's model) kept from cutting."""
    if "," not in sentence:
        return sentence
    for thing in reversed(list(NEW_THING_APPOSITIVE.finditer(sentence))):
        sentence = sentence[: thing.start("comma")] + _KEPT_COMMA + sentence[thing.end("comma"):]
    m = NAME_APPOSITIVE.search(sentence)
    if m is None:
        return sentence
    word = re.search(r"(\S+)\s*$", sentence[: m.start()])
    if word is None or word.start() == 0 or not word.group(1)[0].isupper():
        return sentence
    return sentence[: m.start()] + _KEPT_COMMA + sentence[m.end():]


# "下周五就是我生日了，11月3号": whose day, then the date as a clause of its own
ZH_WHOSE_DAY = re.compile(r"^(?P<lead>.*?)(?:就|正好|刚好)?是(?P<whose>我们|我|我的?[^的是，]{1,3}?)的?(?P<day>生日|结婚纪念日|纪念日)(?:了|啦|哦|呢)?$")
ZH_DATE_ALONE = re.compile(r"^(?:就是|是|也就是)?(?P<date>\d{1,2}月\d{1,2}[号日]?)(?:那天|哦|呢|啦)?$")  # "5月27" too


def dates_joined(parts: list[str]) -> list[str]:
    """A date said in the clause after "是我生日" joined to it ("11月3号是我生日"), which then
    reads as one clause; other clauses as they are."""
    out: list[str] = []
    for part in parts:
        if out and (date := ZH_DATE_ALONE.match(part)) and (whose := ZH_WHOSE_DAY.match(out[-1])):
            day = date["date"] if date["date"].endswith(("号", "日")) else date["date"] + "号"  # "5月27": the 27th
            out[-1] = f"{day}是{whose['whose']}{whose['day']}"
            continue
        out.append(part)
    return out

