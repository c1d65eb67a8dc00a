"""Who a clause is about: the speaker, the user, a relative ("my mom", "我妈"), a pronoun for
the last person named, or a name; and who owns an attribute."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .mentions import pet_named_pattern
from .shared import EN_NAME_AFTER, Found
from .text import CJK_CHAR, EDGE_PUNCTUATION, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .offline import Turn


# Before a kin word, these say which one, not who: "my old manager Priya" is Priya.
EN_AND_I = re.compile(r"(?:(?:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?|[a-z]+)\s+and\s+i(?:\s+both)?|me\s+and\s+(?:my\s+)?[a-z-]+(?:\s+both)?")
# "我大学室友", "我高中的同学": the school where they met, before a kin word.
ZH_KIN_SCHOOL = re.compile(r"^(?:大学|高中|初中|小学|研究生|读研|大学时的?|高中时的?|大学的|高中的|初中的)")
EN_KIN_MODIFIER = re.compile(r"^(?:old|former|new|current|previous)\s+(?=[a-z])", re.IGNORECASE)
# Reported speech: a modal or advice says what was said is no fact; a pronoun after the verb is the reporter.
REPORT_MODAL = re.compile(r"\b(?:would|wouldn't|could|might|may|should)\b|不会|不能|不敢", re.IGNORECASE)
SAID_PRONOUN = re.compile(r"(?:he|she)\b|[他她](?![们])", re.IGNORECASE)
SAID_ADVICE = re.compile(r"\b(?:should|shouldn't|ought to|need to|needs to|have to|has to)\b|应该|得|要不", re.IGNORECASE)


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
            if SAID_PRONOUN.match(said) and (who := self._subject(self._clean_before_verb(reporter)[0], turn)):
                turn.other = who  # "my friend said she's moving to Lyon": "she" is the friend
            if found := self._parse_clause(said, turn, reported=False):
                return found[0]
        return None

    def _subject(self, region: str, turn: Turn) -> str | None:
        """Whom the words before the verb name: the speaker, the user, a relative, a named entity."""
        key = collapse(region).casefold()
        lex = self.lexicon
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
        if relative := self._relative(region, turn):
            return relative
        if (pet := pet_named_pattern(self.lexicon).match(region.strip())) and pet.end() == len(region.strip()):
            return pet["name"]  # "my dog Rex (is 3)": Rex
        return self._name(region, turn)

    def _relative(self, region: str, turn: Turn) -> str | None:
        """ "my sister Anna" -> Anna; "my mom" / "我妈" -> "<user>'s mother" (English relation word)."""
        lex = self.lexicon
        text = collapse(region)
        owner = re.match(r"^(my|our|your)\s+|^(我们的|我的|我们|咱们|我|咱)", text, re.IGNORECASE)
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
        m = lex.relative_regex.match(rest)
        if m is None:
            return None
        name = rest[m.end():].strip()
        if former and not name:
            return None  # "my former boss" is not "my boss": without a name, no one to file it under
        relation = lex.relatives[collapse(m.group()).casefold()]
        if not name:
            return f"{turn.user_id}'s {relation}"
        if has_cjk(name):
            if not self._zh_named(name):
                return None  # kin word + a name: only a name read as one ("室友小陈"), not "同事说用户", "我弟吉他班"
            named_as = self._name(name, turn)
        else:
            named_as = (found := EN_NAME_AFTER.match(name)) and found.group(1)
        if named_as and turn.user_is_speaker and owner.group() and who in ("my", "our", "我们的", "我的", "我们", "咱们", "我", "咱") and not former:
            turn.kin.add((relation, named_as))  # "my sister Ana": who "my sister" is (not "my old boss Priya")
        return named_as or None

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
