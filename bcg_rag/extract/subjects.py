"""Who a clause is about: the speaker, the user, a relative ("my mom", "我妈"), a pronoun for
the last person named, or a name; who owns an attribute; and whom a clause that read nothing
was about, for the next one to go on with ("我室友张磊，现在在深圳…", "Bobby sent me a pic, he
says…")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .gate_subjects import ZH_WORD_TAGS
from .mentions import pet_named_pattern
from .shared import EN_NAME_AFTER, Found
from .text import CJK_CHAR, EDGE_PUNCTUATION, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn


# Before a kin word, these say which one, not who: "my old manager Priya" is Priya.
EN_AND_I = re.compile(r"(?:(?:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?|[a-z]+)\s+and\s+i(?:\s+both)?|me\s+and\s+(?:my\s+)?[a-z-]+(?:\s+both)?")
# "我们组的周一鸣", "我们班的小李": someone of the speaker's team or class, by name
ZH_OF_OUR_GROUP = re.compile(r"^(?:组里?|部门|公司|团队|办公室|科室|项目组|班上?|班里)的?(?=[\u4e00-\u9fff])")
# "我大学室友", "我高中的同学": the school where they met, before a kin word.
ZH_KIN_SCHOOL = re.compile(r"^(?:大学|高中|初中|小学|研究生|读研|大学时的?|高中时的?|大学的|高中的|初中的)")
EN_KIN_MODIFIER = re.compile(r"^(?:old|former|new|current|previous)\s+(?=[a-z])", re.IGNORECASE)
# Reported speech: a modal or advice says what was said is no fact; a pronoun after the verb is the reporter.
REPORT_MODAL = re.compile(r"\b(?:would|wouldn't|could|might|may|should)\b|不会|不能|不敢", re.IGNORECASE)
SAID_PRONOUN = re.compile(r"(?:he|she)\b|[他她](?![们])", re.IGNORECASE)
# A person leading a clause, after a discourse word ("so my sister finally did it, she moved to
# Lisbon"), before a verb: an auxiliary, or a past one ("Bobby sent me a pic, he says…").
EN_LEAD_VERB = (r"(?:is|was|'s|has|had|got|just|now|still|finally|recently|also|(?=[a-z]+ed\b|sent\b|told\b|said\b"
                r"|came\b|went\b|took\b|gave\b|began\b|found\b|left\b|bought\b|brought\b|flew\b|quit\b))\b")
# (after "my <relative>" any verb in -s leads too, "my mom keeps asking"; not after a bare name: "Pickles sheds")
EN_LEAD = re.compile(
    r"^(?:(?:so|ok|okay|well|and|but|yeah|oh|omg|anyway|btw)\b[,!]?\s+)?(?:(?:[Mm]y|[Oo]ur)\s+(?:[a-z]+\s+){0,2}?(?P<rel>[a-z-]+)(?:\s+(?P<name>[A-Z][a-z]+))?"
    rf"\s+(?:{EN_LEAD_VERB}|(?:always|never|(?=[a-z]{{2,}}s\b))\b)|(?P<lone>[A-Z][a-z]+)(?:\s+|(?='s\s)){EN_LEAD_VERB})"
)
EN_LEAD_WORD = re.compile(r"^(?:(?:so|ok|okay|well|and|but|yeah|oh|omg|anyway|btw)\b[,!]?\s+)?(?P<word>[a-z][a-z'-]+)"
                          r"\s+(?:is|was|'s|has|had|got|just|now|still|finally|recently|also|(?=[a-z]+ed\b|sent\b|told\b|said\b))\b")
# "my sis", "(big) news from my sister", "update on my brother": a relative alone, the topic of what follows
EN_KIN_ALONE = re.compile(r"(?:(?:(?:big|some|quick|good|bad|great|sad|huge|small)\s+)?(?:news|update|updates|gossip)"
                          r"\s+(?:from|on|about)\s+)?(?:my|our)\s+(?P<rel>[a-z-]+(?:\s+[a-z-]+)?)", re.IGNORECASE)
# What happens to a person, after their name ("小雨跳槽了，去了米境": the next clause is hers).
ZH_LIFE_EVENT = re.compile(r"(?:跳槽|辞职|离职|退休|换(?:了(?:份|个)?)?工作|搬家|毕业|结婚|离婚|升职|转学|升学|入学)")
# Whose, at the head of a Chinese subject: "我的", "我们", and the household's ("我家儿子" is my son).
ZH_OWNER = r"我们家的?|我家的?|咱们家的?|咱家的?|我们的|我的|我们|咱们|我|咱"
# Kin words that are the speaker's without 我 at the head of a chat clause ("老公跳槽了！"):
# spouses, partners, parents and a best friend; not 哥 / 姐, which also address a listener. A
# child leads only after what happened to it ("儿子转学了，转去…", ``ZH_LIFE_EVENT``): measured, a
# child leading whatever followed it gave a later clause of the user's to the child.
ZH_OWN_KIN = frozenset({"老公", "老婆", "媳妇", "男朋友", "女朋友", "男票", "女票", "爸爸", "妈妈", "老爸", "老妈", "爸妈", "闺蜜", "男友", "女友", "对象",
                        # a cousin, a sibling or a grandparent said at a clause's start is the speaker's ("表姐跳槽了")
                        "表姐", "表哥", "表妹", "表弟", "堂姐", "堂哥", "堂妹", "堂弟", "哥哥", "姐姐", "弟弟", "妹妹",
                        "奶奶", "爷爷", "外婆", "外公", "姥姥", "姥爷",
                        # in-laws ("公公还没退，在无锡一家厂里上班"): one's own, whoever's parents they are
                        "公公", "婆婆", "岳父", "岳母", "丈母娘", "老丈人", "嫂子", "姐夫", "妹夫", "弟媳", "小姑子", "小叔子"})
ZH_OWN_CHILD = frozenset({"儿子", "女儿", "闺女"})
SAID_ADVICE = re.compile(r"\b(?:should|shouldn't|ought to|need to|needs to|have to|has to)\b|应该|得|要不", re.IGNORECASE)


# A name typed in lower case ("oxbow"), and the kinds of organisation that are no name.
EN_LOWER_WORD = re.compile(r"[a-z][a-z-]{2,20}")
EN_GENERIC_ORGS = frozenset(["company", "firm", "employer", "startup", "office", "work", "school", "team", "client",
                             "bank", "store", "shop", "agency", "university", "college", "hospital", "group", "org"])


# 人 and an adverb open a clause about the one the sentence is about: "(我妈把房子卖了，)人也搬到成都了"
ZH_PERSON_ADVERBS = "(?:也|都|就|已经|还|却|倒是)"
ZH_THE_PERSON = re.compile(rf"人{ZH_PERSON_ADVERBS}+")

class SubjectRules:
    lexicon: Lexicon

    def _reported(self, clause: str, turn: Turn) -> Found | None:
        """The clause after a reporting verb ("says", "told me", "说"), when the reporter is short."""
        for m in self.lexicon.reporting.finditer(clause):
            if has_cjk(clause) and not self._on_tokens(clause, m.start(), m.end()):
                continue  # "小说" holds 说
            reporter, said = clause[: m.start()].strip(), clause[m.end():].strip(EDGE_PUNCTUATION)
            said = re.sub(r"^that\s+", "", said, flags=re.IGNORECASE)
            if len(reporter.split()) > 4 or len(CJK_CHAR.findall(reporter)) > 6 or not said:
                continue
            if self.lexicon.negation.anywhere.search(reporter) or REPORT_MODAL.search(reporter):
                return None  # "I wouldn't say I love running", "我没说…": not what was said
            if REPORT_MODAL.search(said) or SAID_ADVICE.search(said):
                return None  # "my mom says I should move to Denver": advice, not a fact
            if said.startswith("是"):
                return None  # "都说是网红运动": it (the thing talked of) is said to be; no one's claim
            if SAID_PRONOUN.match(said) and (who := self._subject(self._clean_before_verb(reporter)[0], turn)):
                turn.other = who  # "my friend said she's moving to Lyon": "she" is the friend
            if found := self._parse_clause(said, turn, reported=False):
                return found[0]
        return None

    def _subject(self, region: str, turn: Turn) -> str | None:
        """Whom the words before the verb name: the speaker, the user, a relative, a named entity."""
        key = collapse(region).casefold()
        lex = self.lexicon
        if ZH_THE_PERSON.fullmatch(key):  # "(我妈把房子卖了，)人也搬到成都了": 人 is the one the topic is
            return turn.other if turn.other and turn.topic else None
        if not key and has_cjk(region + "字") and turn.other and turn.topic:
            return turn.other  # Chinese continues the topic: "我妈是医生，住在成都"
        if not key and has_cjk(region + "字") and turn.unnamed_topic:
            return None  # "他跳槽了！去了北辰": his, and who he is is not said here
        if not key or key in lex.first_person:
            return turn.speaker_id  # Chinese drops "我"; English "no more Americano for me"
        if key in lex.second_person and not turn.user_is_speaker:
            return turn.user_id  # the assistant saying "you love tea"
        if key in lex.user_references:
            return turn.user_id  # "The user lives in Lyon", "用户住在…"
        if EN_AND_I.fullmatch(key):
            return turn.speaker_id  # "my wife and I": the speaker (the companion is everyday.py's)
        if has_cjk(region) and (said := lex.reporting.match(region)) and said.end() < len(region):
            return self._subject(region[said.end():], turn)  # "听说小张住在北京": 小张, not 听说小张
        return self._third_person(region, turn)

    def _third_person(self, region: str, turn: Turn) -> str | None:
        """A relative ("my mom", "我妈", "my sister Anna"), a pronoun for the last one, or a name."""
        key = collapse(region).casefold()
        if key in self.lexicon.user_references:
            return turn.user_id
        if key in ("he", "she", "他", "她", "he's", "she's") and turn.other:
            return turn.other
        if key in turn.entities:  # a name the memory knows, kin title and all ("Nana Bea": not Bea)
            return turn.entities[key]
        if relative := self._relative(region, turn):
            return relative
        if (pet := pet_named_pattern(self.lexicon).match(region.strip())) and pet.end() == len(region.strip()):
            return pet["name"]  # "my dog Rex (is 3)": Rex
        return self._name(region, turn)

    def _doubled_name(self, text: str) -> bool:
        """A doubled character that is no adverb, time word or kin word: 朵朵, 豆豆 (not 天天, 慢慢, 姐姐)."""
        if len(text) != 2 or text[0] != text[1] or not has_cjk(text) or self.lexicon.relative_regex.fullmatch(text):
            return False
        return not any(flag[:1] in ("d", "t", "p", "c", "u", "r", "m") for _, flag, _ in self._tokens(text))

    def _relative(self, region: str, turn: Turn) -> str | None:
        """ "my sister Anna" -> Anna; "my mom" / "我妈" -> "<user>'s mother" (English relation word)."""
        lex = self.lexicon
        text = collapse(region)
        owner = re.match(rf"^(my|our|your|his|her|their)\s+|^({ZH_OWNER})", text, re.IGNORECASE)
        if owner is None:  # a bare kin word: "Mom is a nurse", "老公是山东人", "室友小陈"
            owner = re.match(r"", text)
        who = owner.group().strip().casefold()
        if who == "your" and turn.user_is_speaker:
            return None
        rest = text[owner.end():]
        if former := (EN_KIN_MODIFIER.match(rest) if owner.group() else None):
            rest = rest[former.end():]  # "my old manager Priya", "my former boss": the same kin word
        if (school := ZH_KIN_SCHOOL.match(rest)) and owner.group() and lex.relative_regex.match(rest[school.end():]):
            rest = rest[school.end():]  # "我大学室友", "我高中同学": where they met says which one, not who
        if owner.group() and (group := ZH_OF_OUR_GROUP.match(rest)) and (self._zh_named(member := rest[group.end():]) or (
                2 <= len(member) <= 3 and member[0] in lex.surnames and has_cjk(member))):
            # "我们组的周一鸣": a colleague, by a name (after "our team's" a surname-led word is one, 周一 or not)
            named = self._name(member, turn) or member
            turn.entities.setdefault(named.casefold(), named)  # a name for the rest of the message, whatever jieba cuts
            return named
        m = lex.relative_regex.match(rest)
        if m is None:
            return None
        name = rest[m.end():].strip()
        if former and not name:
            return None  # "my former boss" is not "my boss": without a name, no one to file it under
        relation = lex.relatives[collapse(m.group()).casefold()]
        if not name and who in ("his", "her", "their"):
            return None  # "his sister": someone's, and whose is not said here; "his sister Jane" is Jane
        if not name:
            return f"{turn.user_id}'s {relation}"
        if has_cjk(name):
            # a child's doubled pet name after the kin word ("我闺女朵朵", "儿子豆豆") is a name too
            doubled = self._doubled_name(name)
            if not (doubled or self._zh_named(name)):
                return None  # kin word + a name: only a name read as one ("室友小陈"), not "同事说用户", "我弟吉他班"
            named_as = self._name(name, turn) or (name if doubled else None)
            if doubled:
                turn.entities.setdefault(name.casefold(), name)  # for the rest of the message
        else:
            named_as = (found := EN_NAME_AFTER.match(name)) and found.group(1)
        if named_as and turn.user_is_speaker and owner.group() and who in ("my", "our", "我们的", "我的", "我们", "咱们", "我", "咱") and not former:
            turn.kin.add((relation, named_as))  # "my sister Ana": who "my sister" is (not "my old boss Priya")
        return named_as or None

    def _org_by_its_office(self, owner: str, attr: str) -> str | None:
        """Only an organisation has headquarters, so the word before "'s HQ" names one however
        it is typed: "oxbow's HQ is in Bristol" (Oxbow), not "the company's HQ"."""
        word = owner.strip()
        if (self.lexicon.attributes.get(collapse(attr).casefold()) != "headquarters" or not EN_LOWER_WORD.fullmatch(word)
                or word in self.lexicon.not_names or word in EN_GENERIC_ORGS or self.lexicon.relative_regex.fullmatch(word)):
            return None
        return word.title()

    def _owner(self, region: str, turn: Turn) -> tuple[str | None, bool]:
        """Who has an attribute, and whether that is a person the pronouns name (the speaker or user)."""
        key = collapse(region).casefold()
        if not key:
            return None, False
        if key in self.lexicon.first_person or key in ("we", "us", "我们", "咱们"):
            return turn.speaker_id, True
        if key in self.lexicon.second_person:
            return (turn.user_id, True) if not turn.user_is_speaker else (None, False)
        if key in self.lexicon.user_references:
            return turn.user_id, True
        if key in ("his", "her", "he", "she", "他", "她") and turn.other:
            return turn.other, False
        if relative := self._relative(region, turn):
            return relative, False
        return self._name(region, turn), False

    def _lead_subject(self, clause: str, turn: Turn) -> str | None:
        """Whom a Chinese clause is about when no claim was read from it: "我妈退休了" (then
        "不当医生了" is about her), "Anna是我大学室友" (then "现在在德国读博" is Anna's)."""
        if not has_cjk(clause):
            return self._en_lead_subject(clause, turn)
        if latin := re.match(r"^([A-Z][a-z]+)(?=[\u4e00-\u9fff])", clause):
            return latin.group(1)
        owner = re.match(rf"^(?:{ZH_OWNER})?", clause)
        rest = clause[owner.end():]
        if owner.group() and (school := ZH_KIN_SCHOOL.match(rest)) and self.lexicon.relative_regex.match(rest[school.end():]):
            rest = rest[school.end():]  # "我大学室友张磊": where they met says which one
        if (kin := self.lexicon.relative_regex.match(rest)) and (
                owner.group() or kin.group() in ZH_OWN_KIN or kin.group() in ZH_OWN_CHILD and ZH_LIFE_EVENT.match(rest[kin.end():])):
            relation = self.lexicon.relatives[collapse(kin.group()).casefold()]
            tail = rest[kin.end():]
            if self._zh_named(tail) and self._tokens(tail)[-1][1] not in ZH_WORD_TAGS:
                return tail  # "我室友张磊", "我同事张伟豪": the clause ends on the name (not "张磊好")
            for size in (3, 2):  # "我同事小王…": the name after the kin word
                if len(tail) > size and self._zh_named(tail[:size]):
                    return tail[:size]
            return f"{turn.user_id}'s {relation}"
        if known := next((turn.entities[k] for k in sorted(turn.entities, key=len, reverse=True)
                          if has_cjk(k) and clause.startswith(k) and len(clause) > len(k)), None):
            return known  # a name or alias the user's memory knows ("豪哥住昆山")
        for size in (3, 2):
            if len(clause) > size and self._zh_named(clause[:size]) and not self._zh_named(clause[: size + 1]):
                rest = clause[size:]  # "老王上个月从中石化退休了": a name, then what it did
                if rest[0] in "是在叫从也都已刚去回调" or self.lexicon.time.lead.match(rest) or self.lexicon.verb_regex.match(rest) \
                        or ZH_LIFE_EVENT.match(rest):
                    return clause[:size]
        return None

    def _en_lead_subject(self, clause: str, turn: Turn) -> str | None:
        """ "My college roommate Marcus is in Phoenix" (then ", working at Intel" is his); a
        relative alone, as in an aside ("update on mia (my sis): … she moved up to Porto")."""
        aside = EN_KIN_ALONE.fullmatch(clause.strip())
        if aside and (kin := self.lexicon.relative_regex.fullmatch(aside["rel"])):
            return f"{turn.user_id}'s {self.lexicon.relatives[collapse(kin.group()).casefold()]}"
        m = EN_LEAD.match(clause)
        if m is None:
            # "kofi finally escaped banking": a name the memory knows, typed in lower case
            known = EN_LEAD_WORD.match(clause)
            return turn.entities.get(known["word"]) if known else None
        if (m["name"] or m["lone"]) and (name := self._name(m["name"] or m["lone"], turn)):
            return name
        if m["rel"] and (kin := self.lexicon.relative_regex.fullmatch(m["rel"])):
            return f"{turn.user_id}'s {self.lexicon.relatives[collapse(kin.group()).casefold()]}"
        return None
