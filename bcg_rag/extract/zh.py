"""Chinese shapes on jieba's segmentation: words, names, 的-attributes, changes, jobs, 是.

jieba (dictionary in the wheel, offline) cuts a clause into words with parts of speech;
the lexicon's words are added to a private tokenizer, so the process-wide jieba is
untouched. A verb is read only where it is a whole word ("小说" holds 说, "现在" holds 在).
Segmentation runs without jieba's HMM new-word guessing: it is deterministic over the
dictionary, and an unknown name comes out as single characters, which the name rule reads.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from ..models import Claim
from .shared import Found
from .whereabouts import TOWN_PREDICATES, ZH_ITS_HQ
from .text import CJK, CJK_NON_NAME_START, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# "<owner>的<X>是<Y>": "我的名字是…", "小张的生日是…"; the owner may carry a verb phrase
# that makes the attribute: "老王最喜欢的颜色是…" -> owner 老王, attribute 最喜欢的颜色.
ZH_ATTRIBUTE = re.compile(r"^(?P<head>.+?)的(?P<attr>.+?)(?P<copula>不是|是|变成了?|换成了?|改成了?)(?P<value>.+?)了?$")
# 从北京搬到了上海 / 从咖啡换成了茶 / 把美式换成拿铁 / 由X改为Y / 从蓝鲸出来去了星河游戏 (a job left for another)
ZH_FROM_TO = re.compile(r"^(?P<before>.*?)(?:从|由)(?P<old>.+?)(?P<verb>搬到|搬去|搬回|搬家到|换成|换到|改成|改为|转到|跳槽到|跳槽去|跳到|跳去|调到|变成"
                        r"|出来去了|出来去|出来到|离职去了|离职去|辞职去了|辞职去)了?(?P<new>.+)$")
ZH_BA_CHANGE = re.compile(r"^(?P<before>.*?)把(?P<old>.+?)(?P<verb>换成|改成|改为|变成|戒)了?(?P<new>.*)$")
# 可乐换成气泡水了: the old thing is the topic, the speaker is left out
ZH_TOPIC_CHANGE = re.compile(r"^(?P<before>)(?P<old>[^，,、]{1,8}?)(?P<verb>换成|改成|改为)了?(?P<new>.+)$")
ZH_MOVE_VERBS = ("搬到", "搬去", "搬回", "搬家到")
ZH_JOB_VERBS = ("跳槽到", "跳槽去", "跳到", "跳去", "调到", "转到", "出来去了", "出来去", "出来到", "离职去了", "离职去", "辞职去了", "辞职去")
# 在腾讯当产品经理 / 在医院做护士 / 进了腾讯做HRBP (joined); "现在在杭州做室内设计": not the 在 of 现在
ZH_JOB_AT = re.compile(r"^(?P<before>.*?)(?:(?<!现)在(?!学(?:做|当|着))|进了)(?P<org>.+?)(?:当|做|担任|干)(?P<title>.+)$")
ZH_LEFT_JOB = re.compile(r"^(?P<before>.*?)(?:从(?P<org>.+?)(?:离职|辞职|辞职了|离开|退休)|离开了?(?P<org2>.+?)(?:公司)?$)")
ZH_SCHOOL_END = "学校|小学|中学|大学|幼儿园|学院|高中|初中"  # the words a school's name ends with
# 儿子转到育才小学了 / 转学到…: a transfer to a school (without 从, which ZH_FROM_TO reads)
ZH_TO_SCHOOL = re.compile(rf"^(?P<before>.*?)(?:转学到|转学去|转到|转去|转进)了?(?P<school>.+?(?:{ZH_SCHOOL_END}|一中|二中|附中|附小))了?$")
# 育才小学在朝阳区 / 星河公司在杭州: an institution's place (a person "在" a place is somewhere else)
ZH_INSTITUTION_IN = re.compile(rf"^(?P<what>.{{2,10}}?(?:{ZH_SCHOOL_END}|医院|公司|总部|分公司|店|餐厅|健身房))"
                               r"(?:就|也)?(?:在|位于)(?P<place>.{2,10})$")
# 公司把我调到长沙分公司了 / 我被外派去深圳了 / 把我调济南了: posted to a city (with 从, ZH_FROM_TO reads it)
ZH_POSTED = re.compile(r"^(?P<before>.*?)(?:(?P<ba>把我|被(?:公司|单位|领导|老板)?)(?:调|派|外派|借调|调派)(?:到|去|回)?|(?:调|外派|借调|派驻)(?:到|去|回))了?"
                       r"(?P<place>.+?)(?:分公司|分部|分行|分店|办事处|总部|办公室)?(?:工作|上班)?(?:去|来)?了?$")  # "被公司调到深圳去了"
ZH_THERE = ("那", "那边", "那儿", "那里", "这边", "这儿", "这里")
ZH_PLACE_END = ("省", "市", "区", "县", "镇")  # administrative places jieba may not tag as places (岳麓区: "nr")
ZH_COPULA = re.compile(r"^(?P<before>.*?)(?P<neg>不是|是)(?P<value>.+)$")
# Before 是: a report ("都说是", "听说是") or a surprise ("居然是", "竟然是"), not what someone is.
ZH_NOT_WHAT_ONE_IS = re.compile(r"(?:说|居然|竟然|原来)$")
ZH_COUNTS_AS = re.compile(r"^(?P<before>.*?)(?P<neg>不算|算)(?P<value>.+)$")  # "老家算四川的": counts as
# Cities jieba's dictionary tags as other words (大连 an adverb, 合肥 a noun, 桂林 a name): tagged
# places, so "在大连开了家烧烤店" keeps its town and "我在合肥上班" says where, not for whom.
NOUN_TAGS = ("n", "nr", "ns", "nt", "nz", "nrt", "nrfg", "eng", "vn", "an")
NAME_START_NOT = ("v", "p", "d", "c", "u")  # a one-character word no name starts with: a verb, preposition, adverb...
NOT_NAME_TAGS = ("v", "d", "p", "c", "u", "t", "r", "m", "q", "f", "y", "e", "ad", "ul", "uj", "uz")

_LOCK = threading.Lock()


@functools.lru_cache(maxsize=8)
def segmenter(lexicon: Lexicon) -> Segmenter:
    """One jieba tokenizer per lexicon, with the lexicon's Chinese words added."""
    return Segmenter(lexicon)


class Segmenter:
    def __init__(self, lexicon: Lexicon):
        import jieba
        import jieba.posseg

        jieba.setLogLevel(logging.WARNING)
        with _LOCK:
            self.tokenizer = jieba.Tokenizer()
            self.tokenizer.initialize()
            self.pos = jieba.posseg.POSTokenizer(self.tokenizer)
            for word, tag in sorted(self._words(lexicon)):
                self.tokenizer.add_word(word, tag=tag)
            for word in lexicon.words("subjects", "first_person"):
                if len(word) > 2 and re.fullmatch(f"[{CJK}]+", word):  # "我们家" before "家养"
                    self.tokenizer.suggest_freq(word, tune=True)
            # "我们家养了一条狗": jieba's 家养 (domestic) swallows the 家 of 我家 / 我们家 and hides
            # the verb; chat says "我家养", not "家养" the adjective
            self.tokenizer.del_word("家养")
        self.cut = functools.lru_cache(maxsize=4096)(self._cut)

    @staticmethod
    def _words(lexicon: Lexicon) -> set[tuple[str, str]]:
        t, words = lexicon.tables, set()

        def add(phrases, tag):
            for p in phrases:
                if "{}" not in p and len(p) > 1 and re.fullmatch(f"[{CJK}]+", p):
                    words.add((p, tag))

        for phrases in t.get("predicates", {}).values():
            add(phrases, "v")
        for canonical, surfaces in t.get("values", {}).items():
            add([canonical, *surfaces], "n")
        for phrases in t.get("relatives", {}).values():
            add(phrases, "n")
        add(lexicon.words("habits", "activities"), "v")  # "撸铁" is one word, not 撸 + 铁
        add(lexicon.words("habits", "instruments"), "n")  # "尤克里里" is one word
        add(lexicon.words("organisations", "names"), "nt")  # "快手" is one name, not 快 + 手
        add(lexicon.words("mentions", "pets"), "n")  # "边牧" is one animal, not 边 + 牧
        add(lexicon.words("places", "zh_towns"), "ns")  # 烟台 is a town, not n
        add(lexicon.words("time_phrases", "phrases"), "t")
        add(lexicon.words("negation", "phrases"), "d")
        add(lexicon.words("cessation", "phrases"), "v")
        # "我们家养了一条狗": without these jieba cuts 我们 + 家养 (domestic), hiding the verb
        add(lexicon.words("subjects", "first_person"), "r")
        return words

    def _cut(self, text: str) -> tuple[tuple[str, str, int], ...]:
        out, at = [], 0
        for pair in self.pos.cut(text, HMM=False):
            out.append((pair.word, pair.flag, at))
            at += len(pair.word)
        return tuple(out)

# "上班的时候", "练完腿的时候": when, each time; not a stage of life gone by ("小的时候", "上大学的时候")
ZH_WHEN_LEAD = re.compile(rf"^(?!小|上学|读书|上大学|读大学|大学|高中|初中|小学|年轻|以前|当年|那时|刚)[{CJK}]{{1,8}}?的时候")


class ChineseRules:
    lexicon: Lexicon

    def _tokens(self, text: str) -> tuple[tuple[str, str, int], ...]:
        return segmenter(self.lexicon).cut(text)

    def _on_tokens(self, clause: str, start: int, end: int, frame: bool = False) -> bool:
        """Whether clause[start:end] starts a word of the segmentation. A word made of a
        negation or adverb and the verb ("不吃") counts; one that only ends with it ("小说"
        holds 说, "现在" holds 在) does not. The end may fall inside a word: "喝茶" is a
        word, and 喝 is still the verb; not a frame's: "在{}工作" is not "在…工作室上班"."""
        tokens = self._tokens(clause)
        if frame and any(at < end < at + len(word) for word, _, at in tokens):
            return False
        for word, flag, at in tokens:
            if at == start:
                # A noun that starts with the verb is a noun: "学校" holds 学, "住房" 住, "爱人" 爱; and
                # an organisation's name: "爱奇艺" holds 爱 (jieba tags "喝咖啡" a person's name, nr).
                if end < at + len(word) and flag == "nt" and len(word) > 2:
                    return False
                if end >= at + len(word) or frame or not (flag == "n" and len(word) == 2):
                    return True
                return self.lexicon.verbs.get(clause[start:end], ("",))[0] == "stop"  # 戒烟 is 戒 + 烟
            if at < start < at + len(word):
                prefix = word[: start - at]
                if word in self.lexicon.negation_words:
                    return word == "没有" and clause[start:end] == "有"  # 没有 denies 有; 不是, 不再 are no verbs
                return (prefix in self.lexicon.negation_words or prefix in self.lexicon.adverbs
                        or self._is_pronoun(prefix))  # "我会" is a dictionary word, yet 我 + 会说
        return False

    def _zh_without_adverbs(self, region: str) -> str:
        """The region without the adverbs of two or more characters jieba tags at its end
        (正式, 终于, 总算) and the time words it tags at either edge ("我年底就搬了", "去年年底
        我搬到了杭州"; the lexicon lists only the common ones); negations stay for the peel to
        report. A region of time words only is left to the lexicon's peel: measured, a clause
        with such a lead and no subject was more often not the user's. A lead that says when
        ("上班的时候我只喝绿茶") goes too: the context, not whose."""
        if (when := ZH_WHEN_LEAD.match(region)) and region[when.end():]:
            region = region[when.end():]
        tokens = self._tokens(region)
        start, keep = 0, len(tokens)
        while start < keep and tokens[start][1] == "t" and len(tokens[start][0]) > 1:
            start += 1
        while keep > start and len(tokens[keep - 1][0]) > 1 and (
                tokens[keep - 1][1] == "t" or tokens[keep - 1][1] in ("d", "ad")
                and tokens[keep - 1][0] not in self.lexicon.negation_words
                and not self._zh_named(tokens[keep - 1][0])):  # 老许, 小许: adverbs to jieba, names to us
            keep -= 1
        if keep <= start and start:  # all time words: the lexicon's peel decides, as before
            return region
        return region[tokens[start][2]: tokens[keep - 1][2] + len(tokens[keep - 1][0])] if keep > start else ""

    def _zh_splits_word(self, text: str, at: int) -> bool:
        """Cutting ``text`` at ``at`` splits one of jieba's words (智能 in 云杉智能); a pronoun
        jieba glued to the next word does not count ("我会" is 我 + 会)."""
        return any(start < at < start + len(word) and not self._is_pronoun(word[: at - start])
                   for word, _, start in self._tokens(text))

    def _first_word(self, text: str) -> str:
        tokens = [w for w, flag, _ in self._tokens(text.strip()) if flag not in ("m", "q")]
        return tokens[0] if tokens else ""

    def _zh_name(self, text: str) -> str | None:
        """A Chinese name: 2-4 characters, no pronoun first, no 的, no function word inside."""
        if not re.fullmatch(f"[{CJK}]{{2,4}}", text) or text[0] in CJK_NON_NAME_START or "的" in text:
            return None
        tokens = self._tokens(text)
        if len(tokens) > 1 and len(tokens[0][0]) == 1 and tokens[0][1].startswith(NAME_START_NOT):
            return None  # "我老公说新老板…": 说 (a verb) + 新 is not his name; 小 (a) in 小陈 is
        for word, flag, _ in tokens:
            if len(word) > 1 and flag.startswith(NOT_NAME_TAGS) and not flag.startswith(("nr", "vn")) and not self._zh_named(word):
                return None  # "今天" (t), "这个" (r), "已经" (d): not a name
        return text

    def _zh_attribute(self, clause: str, turn: Turn) -> Found | None:
        if (m := ZH_ATTRIBUTE.match(clause)) and not self.lexicon.relative_regex.match(m["attr"]):
            (owner, personal), attr = self._zh_owner(m["head"], m["attr"], turn)
            if owner is None:
                return None
            return self._attribute_claim(owner, personal, attr, m["value"], m["copula"] == "不是")
        return self._zh_located(clause, turn) or self._zh_institution(clause)

    def _zh_institution(self, clause: str) -> Found | None:
        """育才小学在朝阳区 -> (育才小学, located_in, 朝阳区): the place a jieba place name
        or one ending in 区 / 市 / 县 / 省."""
        if not (m := ZH_INSTITUTION_IN.match(clause)) or ZH_ITS_HQ.match(clause):
            return None  # "公司总部在合肥", "他们总部在合肥": the employer's named before (whereabouts._venue_in)
        place = self._clean_value(m["place"])
        tokens = self._tokens(place)
        if not tokens or not (all(flag == "ns" for _, flag, _ in tokens) or re.fullmatch(f"[{CJK}]{{1,6}}[区市县省]", place)):
            return None
        return Found(m["what"], "located_in", place)

    def _zh_owner(self, head: str, attr: str, turn: Turn) -> tuple[tuple[str | None, bool], str]:
        """Who has the attribute in "<head>的<attr>", and the attribute's full phrase.

        A verb in the head starts a relative clause that belongs to the attribute:
        "老王最喜欢" + "颜色" -> owner 老王, attribute "最喜欢的颜色" (personal: a taste).
        """
        lex = self.lexicon
        # "最喜欢的乐队是五月天", "最近最喜欢的…": the speaker's taste, said without 我
        bare = head[when.end():] if (when := lex.time.lead.match(head)) else head
        if (taste := lex.preference.match(bare + "的")) and taste.end() == len(bare) + 1:
            return (turn.speaker_id, True), bare + "的" + attr
        verb = lex.verb_regex.search(head)
        if verb and verb.start() > 0:
            region, _ = self._clean_before_verb(head[: verb.start()])
            at = head.find(region) if region else -1
            owner = self._owner(region, turn)[0] if at >= 0 else None
            if owner is not None:
                return (owner, True), head[at + len(region):] + "的" + attr
        return self._owner(head, turn), attr

    def _zh_located(self, clause: str, turn: Turn) -> Found | None:
        """ "X的总部在Y" / "X的总部位于Y": the attribute's value is a place."""
        lex = self.lexicon
        head, of, tail = clause.partition("的")
        if not (of and head) or any(pattern.search(clause) for pattern, _ in lex.frames):
            return None  # "小张的妈妈在医院工作" is a verb frame, not a place
        place = self._search_outside(lex.locatives.anywhere, tail, self._time_spans(tail))
        if place is None or place.start() == 0 or lex.verb_regex.search(tail, place.end()):
            return None
        (owner, personal), attr = self._zh_owner(head, tail[: place.start()], turn)
        if owner is None:
            return None
        return self._attribute_claim(owner, personal, attr, tail[place.end():], False)

    def _zh_change(self, clause: str, turn: Turn) -> list[Found] | None:
        """从北京搬到上海 (lives_in 北京 denied, 上海 asserted); 把美式换成拿铁; 从咖啡改成茶."""
        m = ZH_FROM_TO.match(clause) or ZH_BA_CHANGE.match(clause)
        if m is None and (topic := ZH_TOPIC_CHANGE.match(clause)) and self._zh_thing(topic["old"]):
            m = topic
        if m is None:
            return None
        before, negated = self._clean_before_verb(m["before"])
        subject = self._subject(before, turn)
        old, new = self._clean_value(m["old"]), self._clean_value(m["new"])
        if subject is None or negated or not self._usable(old):
            return None
        verb = m["verb"]
        if verb == "戒":  # 把咖啡戒了: a cessation, the verb rule reads it
            return None
        if verb in ZH_MOVE_VERBS:
            predicate = "lives_in"
        elif verb in ZH_JOB_VERBS:  # 从腾讯跳到字节; but 从化学转到经济 is a subject of study
            predicate = self._value_predicate(new, old)
            predicate = "works_at" if predicate == "prefers" else predicate
        else:
            inner = self.lexicon.verb_regex.match(new)  # 换成喝茶: the verb names the slot
            predicate = self.lexicon.verbs[collapse(inner.group()).casefold()][1] if inner else None
            if inner:
                new = self._clean_value(new[inner.end():])
            predicate = predicate or self._value_predicate(new, old)
        if predicate == "lives_in" and self._zh_place(old) and re.fullmatch(f"[{CJK}]{{2,4}}", new):
            turn.entities.setdefault(new, new)  # "从滨江搬到拱墅": moved from a place, so to one (拱墅 is no word to jieba)
        found = [Found(subject, predicate, old, True, True)]
        if self._usable(new):
            found.append(Found(subject, predicate, new, False, True))
        return found

    def _zh_thing(self, words: str) -> bool:
        """A thing put first as the topic ("可乐", which jieba tags an adjective), not a subject
        ("我", "我妈"), an attribute ("名字") or a clause."""
        tokens = self._tokens(words)
        return bool(tokens) and all(
            flag not in NOT_NAME_TAGS and not flag.startswith("v") and not self._is_pronoun(word) for word, flag, _ in tokens
        ) and not self.lexicon.relative_regex.search(words) and words not in self.lexicon.attributes

    def _zh_place(self, words: str) -> bool:
        """A Chinese place name: tagged one throughout, or an administrative division."""
        tokens = self._tokens(words) if has_cjk(words) else ()
        return bool(tokens) and (all(flag == "ns" for _, flag, _ in tokens)
                                 or 2 < len(words) <= 5 and words.endswith(ZH_PLACE_END) and len(tokens) == 1)

    def _zh_district_in_city(self, claim: Claim, text: str) -> Claim:
        """ "长沙租房哪个区方便？我在岳麓区上班": a district in the one city the message names is
        that city's district (长沙岳麓区), so "which city" finds it."""
        district = claim.value
        if not (has_cjk(district) and district.endswith(("区", "县")) and len(self._tokens(district)) == 1):
            return claim
        cities = {w for w, flag, _ in self._tokens(text) if flag == "ns" and w != district and not w.endswith(("区", "县"))}
        if len(cities) != 1 or any(city in district for city in cities):
            return claim
        return replace(claim, value=cities.pop() + district)

    def _zh_places(self, claim: Claim, text: str) -> list[Claim]:
        """A claim with a Chinese place read in the whole message: a district in its city, a
        city before an employer."""
        if claim.predicate in TOWN_PREDICATES:
            return [self._zh_district_in_city(claim, text)]
        return self._zh_city_and_employer(claim) if claim.predicate == "works_at" else [claim]

    def _zh_city_and_employer(self, claim: Claim) -> list[Claim]:
        """ "我老公在深圳华为上班": a city, then an organisation jieba knows (深圳 + 华为) is
        where and for whom: works_in 深圳, works_at 华为."""
        tokens = self._tokens(claim.value) if has_cjk(claim.value) else ()
        if len(tokens) != 2 or tokens[0][1] != "ns" or tokens[1][1] != "nt":
            return [claim]
        return [replace(claim, value=tokens[1][0]), replace(claim, predicate="works_in", value=tokens[0][0])]

    def _zh_job(self, clause: str, turn: Turn) -> list[Found] | None:
        """在腾讯当产品经理 (works_at, job_title); 从阿里离职了 (works_at denied); 把我调到长沙
        (works_in, a change)."""
        if m := ZH_POSTED.match(clause):
            subject = turn.speaker_id if m["ba"] == "把我" else self._subject(self._clean_before_verb(m["before"])[0], turn)
            place = self._clean_value(m["place"])
            if subject and self._zh_place(place):
                return [Found(subject, "works_in", place, False, True)]
        if m := ZH_JOB_AT.match(clause):
            before, negated = self._clean_before_verb(m["before"])
            subject = self._subject(before, turn)
            org, title = self._clean_value(m["org"]), self._clean_value(m["title"])
            if subject is None or not self._usable(title):
                return None
            if not self._usable(org):  # "我哥去了深圳，在那做销售": there is no name; the job still is
                return [Found(subject, "job_title", title, negated)] if org in ZH_THERE else None
            # 在深圳做设计师: a city is where the work is, not whom it is for (an organisation
            # the lexicon names, 京东, is tagged one, "nt", not a place)
            where = "works_in" if self._zh_place(org) else "works_at"
            return [Found(subject, where, org, negated), Found(subject, "job_title", title, negated)]
        if m := ZH_TO_SCHOOL.match(clause):
            before, negated = self._clean_before_verb(m["before"])
            subject = self._subject(before, turn)
            school = self._clean_value(m["school"])
            if subject is None or negated or not self._usable(school):
                return None
            return [Found(subject, "studies_at", school, False, True)]
        if m := ZH_LEFT_JOB.match(clause):
            before, negated = self._clean_before_verb(m["before"])
            subject = self._subject(before, turn)
            org = self._clean_value(m["org"] or m["org2"] or "")
            if subject is None or negated or not self._usable(org):
                return None
            return [Found(subject, "works_at", org, True, True)]
        return None

    def _zh_copula(self, clause: str, turn: Turn) -> Found | None:
        """我是老师 / 我妈妈是医生: a noun after 是 (the first-person case needs a noun, so
        "我是说…" says nothing)."""
        m = ZH_COPULA.match(clause) or ZH_COUNTS_AS.match(clause)
        if m is None:
            return None
        if ZH_NOT_WHAT_ONE_IS.search(m["before"]):
            return None  # "都说是网红运动": what others say of something; "我居然是凶手": how a game went
        region, negated = self._clean_before_verb(m["before"])
        value = self._clean_value(m["value"])
        attr = self.lexicon.attributes.get(re.sub(r"^(?:我的|我)", "", region))  # (我)老家是江西的: the speaker's
        if m["neg"].endswith("算") and not attr:
            return None  # 算 counts as only after an attribute ("老家算四川的"); "我算了一下" is arithmetic
        if attr:
            negated = negated or m["neg"].startswith("不")
            # "我老婆是护士，老家是湖南的": without 我 the clause goes on about the topic
            owner = turn.other if turn.other and turn.topic and not region.startswith("我") else turn.speaker_id
            return Found(owner, "attr:" + attr, value, negated) if self._usable(value) else None
        value = re.sub(r"^(?:一名|一位|一个|个|名)", "", value)
        # A title the lexicon lists is a noun whatever jieba tags it (组长 as a verb)
        occupation = self.lexicon.is_occupation(value)
        subject = self._subject(region, turn)
        if subject is None and not region and occupation and turn.user_is_speaker and turn.other is None:
            subject = turn.speaker_id  # "升职啦！现在是前端组长了": the speaker, left out
        if subject is None:
            return None
        tokens = self._tokens(value)
        if not value or not self._usable(value) or not tokens or not (occupation or tokens[-1][1].startswith(NOUN_TAGS)):
            return None
        if not occupation and any(flag.startswith(("v", "d", "p", "r")) and not flag.startswith("vn") for _, flag, _ in tokens):
            return None
        if self.lexicon.relative_regex.fullmatch(value):
            return None  # "是个女儿": a relation between people, not what someone is
        negated = negated or m["neg"] == "不是"
        if value.endswith("人") and len(value) > 2 and self._tokens(value[:-1])[0][1].startswith("ns"):
            return Found(subject, "hometown", value[:-1], negated)  # 山东人 -> hometown 山东
        return Found(subject, "job_title" if self.lexicon.is_occupation(value) else "is", value, negated)
