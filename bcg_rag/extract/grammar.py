"""The grammar both languages share: what a clause is (``splitting.py`` cuts them).

What a clause *is* decides what may come out of it:

* a question, a request to the assistant, or small talk: nothing;
* a hedge ("maybe", "I think", "可能"): the stance is multiplied by the hedge factor;
* a plan or intention ("I'm going to", "thinking of", "打算", "下个月"): not a current
  fact, so its claims go to ``plan:<predicate>`` with a hedged stance;
* a past state ("used to", "以前"): the value is negated (it no longer holds);
* a change marker ("moved to", "now", "no longer", "换成", "不再"): the text itself says
  that a value replaced another (``says_change``, read by the restatement rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .lexicon import Lexicon
from .splitting import PURPOSE_START, Sentence
from .text import CJK, collapse, has_cjk

MAX_VALUE_WORDS = 6  # longer "values" are clauses the rules misread, not things
MAX_VALUE_CJK_CHARS = 12

# A Chinese clause that asks: a wh-word anywhere, or a final question particle.
# "会不会", "是不是", "有没有": the A-not-A form asks too. "不怎么" (not much) and "没什么" (nothing
# much) ask nothing, nor "啥/什么…都没" (none at all: "啥宠物都没了", "什么都不想吃").
ZH_QUESTION = re.compile(r"(?<![没不])什么(?![\u4e00-\u9fff]{0,4}[都也][没不])|(?<!不)咋|多久|多长时间|多远|哪里|哪儿|哪个|哪些|(?<!不)怎么"
                         r"|为什么|多少|几点|谁|啥(?![\u4e00-\u9fff]{0,4}[都也][没不])|吗$|么$|([\u4e00-\u9fff])[不没]\1|有没有|是否")
PURPOSE = re.compile(rf"^(?:{PURPOSE_START})\s*", re.IGNORECASE)

# Time phrases the word list cannot enumerate: "in 2019", "2019年", "3 weeks ago", "in March".
MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
SEASONS = "spring|summer|autumn|fall|winter"
YEAR_TAIL = re.compile(
    rf"\s*(?:\b(?:in|since|from|back in|around)\s+(?:\d{{4}}|(?:early\s+|late\s+)?(?:{MONTHS})(?:\s+\d{{4}})?)"
    rf"|\b(?:last|this|next|in the)\s+(?:{SEASONS}|{MONTHS})|\d{{4}}\s*年)\s*$",
    re.IGNORECASE,
)
AGO_TAIL = re.compile(r"\s*\b(?:\d+|a|an|one|two|three|few|couple of|several)\s+\w+?s?\s+ago\s*$", re.IGNORECASE)
# Durations ending a value are time, not value: "Paris for 3 years", "Acme for a few months".
DURATION_TAIL = re.compile(
    r"(?<=\S)\s+(?:for|since)\s+(?:(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|many)\s+)?"
    r"(?:more\s+)?(?:second|minute|hour|day|week|month|year|decade)s?\s*$",
    re.IGNORECASE,
)
# "北京三年了" -> "北京": a counted span of time ends the value. Months need 个 ("三个月"),
# since "五月" is May; a whole value is never stripped ("三年" alone stays).
# 俩 and 仨 are two and three with the measure word in them: "俩月" needs no 个.
ZH_DURATION = (r"(?:第|快|近|将近|差不多)?(?:[\d一二三四五六七八九十百两几半多好俩仨]+(?:个)?多?(?:秒钟?|分钟|小时|天|周|星期|个月|年)"
               r"|[俩仨]月)多?(?:了|啦)?")
# "刚入职字节没俩月" -> "字节": how short a time ("没俩月", "不到一年", "才三天") ends the value too.
ZH_DURATION_TAIL = re.compile(rf"(?<=[^\d一二三四五六七八九十百两几半多好俩仨])(?:没|没有|不到|才)?{ZH_DURATION}$")
# "学了十年舞蹈" -> "舞蹈": a span of time before the object is how long, not what. Not an
# ordinal ("第三年"), nor a word the span begins ("三年级", "十年前").
ZH_DURATION_LEAD = re.compile(rf"^(?!第){ZH_DURATION}的?(?=[{CJK}]{{2}})(?![级前后内里来间以])")
# "一家叫星辰科技的小公司", "一个名叫青禾的工作室": a place of work or study by its name.
ZH_PLACE_CALLED = re.compile(
    rf"^(?:一[家个所间])?(?:叫|叫做|名叫)(?P<name>[{CJK}A-Za-z0-9]{{2,12}}?)的[{CJK}]{{0,3}}?"
    r"(?:公司|企业|单位|工作室|机构|店|餐厅|医院|学校|大学|银行)$"
)
# "last weekend", "this month", "on Mondays", "every Saturday morning": when, not what.
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend"
WHEN_TAIL = re.compile(
    rf"\s*\b(?:(?:last|this|next|every|each|on|most)\s+(?:(?:{WEEKDAYS})s?|week|month|year|nights?|mornings?"
    rf"|evenings?|afternoons?|summer|winter|spring|fall|autumn|semester|term)(?:\s+(?:morning|night|evening|afternoon)s?)?"
    rf"|on\s+(?:{WEEKDAYS})s?)\s*$",
    re.IGNORECASE,
)
ZH_ABOUT_DURATION = re.compile(rf"^(?=快|近|将近|差不多){ZH_DURATION}$")  # "快一个月了": all time
TIME_TAILS = (YEAR_TAIL, AGO_TAIL, DURATION_TAIL, ZH_ABOUT_DURATION, ZH_DURATION_TAIL, ZH_DURATION_LEAD, WHEN_TAIL)

# Future times the word list cannot enumerate: "next Monday", "in two weeks", "from April".
FUTURE_WHEN = re.compile(
    rf"\b(?:next|this coming|coming)\s+(?:{WEEKDAYS}|{MONTHS}|{SEASONS})\b"
    r"|\bin\s+(?:a|an|one|two|three|four|five|six|a few|a couple of|\d+)\s+(?:days?|weeks?|months?|years?)\b"
    rf"|\b(?:starting|from)\s+(?:next\s+\w+|{MONTHS})\b",
    re.IGNORECASE,
)
# The present progressive of a change is an arrangement, not yet a fact: "I'm moving to Berlin",
# "we're relocating", "I'm starting at Stripe", "she's leaving Google".
# "haven't touched coffee in two months": after a negated perfect, "in <duration>" is how long, not when.
NEGATED_PERFECT = re.compile(r"\b(?:haven't|hasn't|hadn't|have\s+not|has\s+not|had\s+not)\b", re.IGNORECASE)
ARRANGED = re.compile(
    r"(?:'m|'re|'s|\b(?:am|are|is))\s+(?:\w+ly\s+)?(?:moving|relocating|joining|switching|transferring|leaving"
    r"|quitting|heading|starting(?!\s+to\b)|turning(?=\s+\d))\b",
    re.IGNORECASE,
)
# 要 right before a change is "going to": "她要搬去成都", "我快要换工作了" (not "每天都要喝咖啡")
ZH_ABOUT_TO = re.compile(r"要(?=搬|换|转行|跳槽|辞职|离职|入职|结婚|退休|出国|回国)")
GOING_PLACES = re.compile(r"\s+(?:the|a|an|my|our|his|her|their|this|that|work|school|bed|church|college|class|[A-Z])\b")
EN_VE_GOT = re.compile(r"(?<=[A-Za-z])'ve\s+got\b", re.IGNORECASE)
# "landlord's a chap called Derek Mensah", "my boss is a guy named Tom": who one's landlord or boss
# is, by name ("my landlord is Derek Mensah"); the person word says only that it is a person.
EN_ONE_CALLED = re.compile(
    r"^(?:(?:my|our)\s+)?(?!(?:he|she|it|that|this|there|who|what|which)\b)(?P<role>[a-z]+)(?:'s|\s+is)\s+(?:a|an|some|this)\s+"
    r"(?:guy|chap|bloke|man|woman|lady|girl|fella|fellow|dude|gent|gentleman|person)\s+(?:called|named)\s+(?=(?-i:[A-Z]))",
    re.IGNORECASE)
# Where someone is known from, right after them, says which one, not who, and its "from" is
# no "is from": "Tomás from my team is moving to Madrid", "my friend from college works at Pixar".
EN_KNOWN_FROM = re.compile(
    r"^(?P<who>(?:(?:my|our)\s+[a-z-]+(?:\s+[A-Z][\w'-]*)?|[A-Z][\w'-]*))\s+from\s+(?:my\s+|our\s+|the\s+)?"
    r"(?:work|team|office|job|college|school|high\s+school|grad\s+school|uni|university|class|church|gym|book\s+club"
    r"|choir|yoga|band|lab|department)\s+(?=\w)", re.IGNORECASE)
# "switched my coffee to oat lattes", "switching our bank to Monzo": the thing switched names the
# slot the new value fills (read by the value), so the clause says "switched to".
# (Not a person: "switched our son to Oak Hill Academy" moves the son.)
EN_SWITCHED_MY = re.compile(r"\b(?P<verb>switch(?:ed|ing)?)\s+(?:my|our)\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?=to\s)", re.IGNORECASE)
# An adverb between a verb and its preposition: "grew up mostly in Toronto" is "grew up in".
EN_ADVERB_BEFORE_PREPOSITION = re.compile(r"\b(?:mostly|mainly|largely|primarily|partly)\s+(?=(?:in|at|for|from|on|with)\b)",
                                          re.IGNORECASE)
ZH_FROM_NOW_ON = ("以后", "今后", "往后")
# "salmon recipe that isn't boring pls": a request that ends with its "please"
ZH_FIRST_PERSON = re.compile(r"我|咱")
# "something nerdy" after "what's a good pub quiz team name": an English clause that names no
# one (no I / my / we, no capitalised name) after a question or a request says what it is for.
# (or leaves the speaker out, as chat does: "been vegetarian since uni")
EN_NAMES_SOMEONE = re.compile(r"(?<![\w'])(?:i|i'm|i've|i'd|i'll|im|me|my|we|we're|our|us)(?![\w'])|(?<!^)\b(?-i:[A-Z][a-z])"
                              r"|^been\s+(?!to\b)[a-z]", re.IGNORECASE)
# "anyway, can you ...", "ok so what's ...": words that open a turn before its question or request
EN_TURN_OPENER = re.compile(r"^(?:(?:anyway|anyways|ok|okay|so|btw|also|oh|hey|hmm|well|um|quick\s+question|random\s+question)[\s,:]+)+",
                            re.IGNORECASE)
# "帮我记一下：身高172，O型血": a request to keep what follows; its clauses are the facts.
NOTE_THIS = re.compile(r"记(?:一下|下来|下|住)|备忘|备注|\b(?:remember|note|jot|write\s+down)\b", re.IGNORECASE)
# "asking for a friend", "asking for my roommate": why a question was asked, no statement
EN_ASKING_FOR = re.compile(r"^(?:just\s+|only\s+)?asking\s+for\s+(?:a|my|the|our)\b", re.IGNORECASE)
EN_PLEASE_END = re.compile(r"\b(?:please|pls|plz)[\s!.~]*$", re.IGNORECASE)
# A Chinese clause with no one named that opens with its verb and ends in 吧 / 呗 asks or
# suggests ("讲个笑话吧", "来首歌吧", "去吃火锅吧"); it states nothing about anyone.
ZH_SUGGESTION_END = re.compile(r"(?:吧|呗)[\s!！~～。.…]*$")
# 了吧 supposes or exclaims, it suggests nothing: "涨价也太狠了吧", "他早就走了吧".
ZH_SUPPOSED_END = re.compile(r"(?:太|已经|早就|应该)[^，,。！？!?]{0,8}了吧[\s!！~～。.…]*$")
# "我是在律所做行政的", "他是从北京搬来的": the 是…的 of emphasis around where or whence something
# is done says what the clause without them says.
ZH_SHI_DE = re.compile(r"^(?P<who>[^是，,]{1,8}?)是(?P<what>(?:在|从)[^是]+?)的[了呀啊哦啦]*$")
# 原来 before whom it is about is discovery ("原来我是O型血", "原来她是北京人"); after it, the past ("我原来住在杭州")
ZH_TURNS_OUT = re.compile(r"^(?:哦|噢|啊|诶|哈)?原来(?=我|你|他|她|它|这|那|咱)")
ZH_STOPPED = re.compile(r"(?:不再|再也不能?|不能再|没法再|不)[\u4e00-\u9fff]{1,4}了[吧啊呀哦]?$")
SPACE_BETWEEN_CJK = re.compile(rf"(?<=[{CJK}])\s+(?=[{CJK}])")


def join_cjk(text: str) -> str:
    """Chinese has no spaces: don't leave one where a word was removed ("我 喜欢" -> "我喜欢")."""
    return SPACE_BETWEEN_CJK.sub("", collapse(text))


# A state in the simple past over a span: "I lived in Paris for three years", "worked at Acme for
# a decade" (not "I've lived in Melbourne for a decade", which still holds).
EN_PAST_SPAN = re.compile(r"^(?!.*\b(?:have|has|'ve|'s|had)\s+(?:\w+\s+)?(?:lived|worked|studied)\b).*\b(?:lived|worked|studied)\s+(?:in|at|for)\b"
                          r".*\bfor\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a\s+few)\s+(?:years?|months?|decades?)\b",
                          re.IGNORECASE)


@dataclass(frozen=True)
class Mood:
    """What the grammar of a clause says about its claims, and the clause without the markers."""

    clause: str
    hedged: bool = False
    plan: bool = False
    past: bool = False  # "used to", "以前": the value no longer holds
    due_in_days: int = 0  # a settled plan with a date ("starting at Stripe next week"): when it falls due


# "so pescatarian now I guess", "I'm a morning person now, I suppose": a closing "I guess" after
# a change in one's own life is resignation, not doubt (no one else is spoken of).
EN_RESIGNED = re.compile(r"^(?!.*\b(?:he|she|they|his|her|their|my\s+\w+)\b).*\bnow,?\s+i\s+(?:guess|suppose)\W*$", re.IGNORECASE)
# A question by its word order: "is Dima a fencer??", "did she really move??"
EN_YES_NO = re.compile(r"^(?:(?:wait|so|omg|lol|ok)\s+)*(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should)\s+(?!not\b)\w+",
                       re.IGNORECASE)
# An elliptical question closing a statement: "oxbow's HQ is in Bristol, any cheap areas to stay?"
EN_JOINED = re.compile(r"^(?:but|and|though|tho|yet)[\s,]+", re.IGNORECASE)
EN_ANY_ASKED = re.compile(r"(?:so\s+|and\s+)?any\s+[a-z]+(?:\s+[a-z'-]+){0,5}", re.IGNORECASE)


# "Maria asked me: in which country …?", "我妈问我，…？": a question reported, asked from its first clause
REPORTED_ASKING = re.compile(r"\b(?:asked|asks|asking|wondered|wonders|wondering|wants?\s+to\s+know|wanted\s+to\s+know)"
                             r"(?:\s+(?:me|us|him|her|them))?$|问(?:了)?(?:我|我们)?$", re.IGNORECASE)


class Grammar:
    """The clause-level markers of one lexicon, compiled once."""

    def __init__(self, lexicon: Lexicon):
        self.lex = lexicon

    def list_items(self, parts: list[str]) -> list[bool]:
        """Per clause of a sentence, whether it stands in a list of names: after the first
        clause, next to a clause that is a bare name, in a sentence with at least two of them
        ("A: Dallas Cowboys, New York Knicks, Los angeles Lakers, Golden State Warriors")."""
        bare = [bool(self.lex.name_run.fullmatch(p)) for p in parts]
        if sum(bare) < 2:
            return [False] * len(parts)
        return [k > 0 and (bare[k - 1] or (k + 1 < len(parts) and bare[k + 1])) for k in range(len(parts))]

    def asks(self, clause: str) -> bool:
        """The clause itself is put as a question: a question word first, or a Chinese question form."""
        return bool(self.lex.questions.lead.match(clause) or ZH_QUESTION.search(clause))

    def silent(self, sentence: Sentence, parts: list[str]) -> list[bool]:
        """Per clause of a sentence, whether it says nothing. A question mark makes the whole
        sentence a question, except that clauses before a last clause that asks by its own
        words are statements: "I live in Leeds, where should I go running?". After a request
        or a question, a Chinese clause that names no one of the user's (no 我, no relative),
        nor follows one that does, says what the request is for ("帮我想几个slogan吧，客户要的急"),
        unless the request is to keep what follows ("帮我记一下：…，O型血")."""
        if sentence.surprised and not any(p and (self.asks(p) or EN_YES_NO.match(p)) for p in parts):
            sentence = replace(sentence, question=False)  # "Dima is apparently a competitive fencer??": news, not asked
        # "I'm a paralegal at Whitmore & Cole, can you explain discovery?": a request ends it as a question would
        # "grew up in Swansea so this rain is nothing, but what's the best waterproof?": a joining word goes first
        last = EN_JOINED.sub("", EN_TURN_OPENER.sub("", parts[-1]) if parts else "") or (parts[-1] if parts else "")
        asked_last = sentence.question and len(parts) > 1 and (
            self.asks(parts[-1]) or self.asks(last) or bool(self.lex.requests.lead.match(last))
            or bool(EN_ANY_ASKED.fullmatch(parts[-1])) or not self._asks_first(parts[0]))
        silent = [self.says_nothing(sentence, clause, stated=asked_last and i < len(parts) - 1)
                  for i, clause in enumerate(parts)]
        if parts and parts[0] and silent[0] and not self.lex.small_talk_full(parts[0]) and not NOTE_THIS.search(parts[0]):
            # Once a clause after the request names the user ("给我配个食谱吧：我芒果过敏，…，最近在搞
            # 轻断食"), the clauses after it go on about them.
            named = [i > 0 and (bool(ZH_FIRST_PERSON.search(c)) or bool(self.lex.relative_regex.search(c))
                                or not has_cjk(c) and bool(EN_NAMES_SOMEONE.search(c)))
                     for i, c in enumerate(parts)]
            silent = [s or (i > 0 and not any(named[: i + 1])) for i, (c, s) in enumerate(zip(parts, silent))]
        return silent

    def _asks_first(self, clause: str) -> bool:
        """The first clause of a question asks by its own words ("do you think, since I'm vegan, …"):
        the whole sentence is the question. Otherwise the question is its last clause ("Gerald's
        eating again, …, dandelions are fine for him right?", "下周六我生日，厦门还是青岛好？")."""
        opened = EN_TURN_OPENER.sub("", clause + " ").strip()
        return not opened or self.asks(opened) or bool(EN_YES_NO.match(opened) or self.lex.requests.lead.match(opened)
                                                       or REPORTED_ASKING.search(opened))

    def says_nothing(self, sentence: Sentence, clause: str, stated: bool = False) -> bool:
        """A question, a request to the assistant, or small talk. ``stated``: the clause is a
        statement leading up to the sentence's question."""
        lex = self.lex
        clause = EN_TURN_OPENER.sub("", clause + " ").strip()  # "anyway can you give me ...": a request
        if not clause:
            return True  # "anyway", "ok so": a turn opened, nothing said
        if sentence.question and not stated or self.asks(clause):
            return True
        if (lex.requests.lead.match(clause) or lex.small_talk_full(clause) or EN_PLEASE_END.search(clause)
                or EN_ASKING_FOR.match(clause)):
            return True
        return self._zh_suggestion(clause)

    def _zh_suggestion(self, clause: str) -> bool:
        from .zh import segmenter

        if not ZH_SUGGESTION_END.search(clause) or ZH_SUPPOSED_END.search(clause):
            return False
        # "还是好好吃饭吧", "干脆换个工作吧": adverbs and a conjunction may come before the verb
        tokens = [t for t in segmenter(self.lex).cut(clause.strip()) if t[1] not in ("d", "ad", "c")]
        return bool(tokens) and tokens[0][1].startswith("v")

    def mood(self, clause: str) -> Mood:
        lex = self.lex
        hedged = plan = past = False
        settled = True  # no wish, hope or purpose said: with a date, the plan falls due
        clause = EN_VE_GOT.sub(" have got", clause)  # "we've got two kids": the verb is "have got"
        clause = EN_KNOWN_FROM.sub(r"\g<who> ", clause)
        clause = EN_ONE_CALLED.sub(lambda m: f"my {m['role'].casefold()} is ", clause)
        clause = EN_ADVERB_BEFORE_PREPOSITION.sub("", clause)
        if (switched := EN_SWITCHED_MY.search(clause)) and not lex.relative_regex.search(switched["thing"]):
            clause = clause[: switched.start()] + switched["verb"] + " " + clause[switched.end():]
        clause = ZH_SHI_DE.sub(r"\g<who>\g<what>", clause)
        if m := self._marker(lex.hedges.anywhere, clause):
            hedged = not EN_RESIGNED.search(clause)
            while m:
                clause = join_cjk(clause[: m.start()] + " " + clause[m.end():])
                m = self._marker(lex.hedges.anywhere, clause)
        if m := PURPOSE.match(clause):  # "so I can teach English in Japan": what it is for, not yet so
            plan, settled = True, False
            clause = clause[m.end():]
        clause = ZH_TURNS_OUT.sub("", clause)  # "原来我是O型血": it turns out so, not "used to be"
        if m := self._marker(lex.past_markers.anywhere, clause):
            past = True
            clause = join_cjk(clause[: m.start()] + " " + clause[m.end():])
        past = past or bool(EN_PAST_SPAN.search(clause))  # "I lived in Paris for three years": no longer so
        if (m := self._marker(lex.plan_markers.anywhere, clause)) and GOING_PLACES.match(clause, m.end()) and re.fullmatch(
                r"going\s+to", m.group(), re.IGNORECASE):
            m = None  # "stopped going to the gym": a place gone to, not a plan
        if m and re.match(f"[{CJK}]", m.group()) and re.fullmatch(r"[了啦呢吧呀哦\s]*", clause[m.end():]):
            m = None  # "最喜欢的是白噪音计划了": a word ending the clause is a name's, nothing is planned after it
        if m:
            # "以后不喝奶茶了": "from now on not" with the 了 of a changed state stops a habit now
            plan = plan or not (m.group() in ZH_FROM_NOW_ON and ZH_STOPPED.search(clause))
            settled = settled and collapse(m.group()).casefold() in lex.settled_plans
            clause = join_cjk(clause[: m.start()] + " " + clause[m.end():])
        elif (lex.future_time.anywhere.search(clause) or FUTURE_WHEN.search(clause) and not NEGATED_PERFECT.search(clause)
              or ARRANGED.search(clause)
              or ZH_ABOUT_TO.search(clause)):
            plan = True  # "I'm moving to Tokyo next year", "下个月搬到上海", "I'm starting at Stripe": not yet so
        due = 0
        if plan and settled and not (hedged or past) and (when := lex.dated_future.anywhere.search(clause)):
            due = lex.due_in_days[collapse(when.group()).casefold()]
        return Mood(clause.strip(), hedged, plan, past, due)

    def marker(self, pattern: re.Pattern[str], clause: str) -> re.Match[str] | None:
        return self._marker(pattern, clause)

    def _marker(self, pattern: re.Pattern[str], clause: str) -> re.Match[str] | None:
        """The first match of a marker that is a whole word: in Chinese, on jieba's word
        boundaries ("理想" holds 想, "应该" is a hedge but "相应" is not)."""
        for m in pattern.finditer(clause):
            if not re.match(f"[{CJK}]", m.group()) or self._on_words(clause, m.start(), m.end()):
                return m
        return None

    def _on_words(self, clause: str, start: int, end: int) -> bool:
        from .zh import segmenter

        bounds = {0}
        for word, _, at in segmenter(self.lex).cut(clause):
            bounds.add(at + len(word))
        return start in bounds and (end in bounds or end < len(clause) and self._splits(clause, end))

    def _splits(self, clause: str, end: int) -> bool:
        """A marker may end inside a word jieba made of it and the next verb ("想学", "要搬")."""
        from .zh import segmenter

        return any(at < end < at + len(word) and flag.startswith("v") for word, flag, at in segmenter(self.lex).cut(clause))

    def says_additive(self, clause: str) -> bool:
        """The clause adds a value beside the one held ("I also work at Globex", "我也养了只狗",
        "I have a dog too"), and does not itself say a change ("又搬到了上海" is a move)."""
        text = collapse(clause)
        added = self._marker(self.lex.additive_claim_markers.anywhere, text) or re.search(
            r"\b(?:too|as well)\s*[.!~]*$", text, re.IGNORECASE
        )
        return bool(added) and self._marker(self.lex.change_markers.anywhere, text) is None

    def says_change(self, text: str) -> bool:
        """The text itself says a value replaced another ("moved to", "now", "不再", "换成")."""
        return self.lex.change_markers.anywhere.search(collapse(text)) is not None


# Shapes of the value after a verb (``shared.py``'s verb rule).
# A team of an organisation: "the fraud team at Brambleton Cooperative Bank" (one works there).
EN_TEAM_AT = re.compile(r"^(?P<team>.*?\b(?:team|department|dept|division|squad|desk))\s+(?:at|of)\s+"
                        r"(?P<org>(?-i:[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,4}))(?:\s+(?-i:[a-z]).*)?$", re.IGNORECASE)

# "I smoke half a pack a day", "I drink like 3 a week": how much, not what
EN_AMOUNT_PER = re.compile(
    r"^\s*(?:about|around|like|maybe|roughly|almost|nearly|over|at\s+least|up\s+to)?\s*(?:half\s+)?"
    r"(?:a|an|one|two|three|four|five|six|ten|\d+(?:-\d+)?)\s+(?:[a-z]+\s+)?(?:a|per|each|every)\s+(?:day|week|night|month)\b",
    re.IGNORECASE)

# "live in a tiny flat in Lisbon", "住在…": the home is not the place; the place after it is
EN_DWELLING_IN = re.compile(
    r"^(?:a|an|the|my|our)\s+(?:[\w'-]+\s+){0,3}?(?:flat|apartment|house|houseboat|condo|studio|dorm|bungalow|cabin"
    r"|loft|townhouse|place|room|basement|farmhouse|farm|cottage|shared house|caravan|trailer|home)\s+(?:in|outside|near)\s+"
    r"(?P<place>.+)$", re.IGNORECASE)
# A year or a kind of student: "a junior at Westbrook State", "a PhD student at Leeds" study there.
EN_STUDENT = re.compile(r"(?:freshman|sophomore|junior|senior|first-year|second-year|third-year|final-year|fresher|undergrad"
                        r"|(?:grad|graduate|phd|masters?|exchange|transfer|international|mature)?\s*student)", re.IGNORECASE)
# Verbs of saying and thinking: what follows is what someone said or thinks ("Kofi says the
# office is in Utrecht"), read by the reported-speech rule, not a relation "says".
SAYING_VERBS = frozenset("""says said thinks thought tells told reckons believes believed feels felt hopes hoped asks
    asked wonders wondered knows guesses guessed claims claimed mentions mentioned texts texted swears swore admits
    admitted insists insisted complains complained jokes joked seems seemed sounds sounded""".split())
