"""Chinese chat about who belongs where: groups one is in, who leads them, pets one lost.

* Being in a group, and switching groups: "我妈参加了腰鼓队", "我在彩虹合唱团", "现在改去
  彩虹合唱团了", "退出舞蹈队了，改去腰鼓队", "从舞蹈队转到腰鼓队" (member_of; a switch says the
  new group, and the old one denied). A group is a noun that ends like one (队, 团, 社, 俱乐部,
  协会, 兴趣班 ...), not a company (集团, 出版社), an outing (旅行团) or a verb (排队, 加班).
* Who leads a group or a company: "腰鼓队领队是刘桂兰" (腰鼓队, leader, 刘桂兰), "她们队的队长是
  王芳" (the team the message named, captain), "我们公司老板是张伟" (the speaker's employer, ceo),
  "我们组组长是小李" (the speaker's team, leader). The subject is the group, so a question
  "我妈那个队的领队是谁" goes mother -> member_of -> 腰鼓队 -> leader. "她们队" with no team named
  in the message points nowhere, and stays silent; the value must be a person's name.
* A membership ended by its card: "乐刻那张卡转给同事了", "乐刻的卡退了" (member_of, denied); not
  "信用卡退了". (A card taken out, "办了乐刻的年卡", is not read: see ``_zh_club_card``.)
* A pet that died, was lost or was given away: "仓鼠走了，难过了一整天", "我家狗狗去世了", "猫咪没了",
  "龟送我表弟了", "狗送给朋友了", "把猫送人了" (has, denied), only for an animal the lexicon lists
  ([mentions] pets), and given to someone: "他走了", "车走了", "猫送我一只老鼠了" say nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import CJK, employer_of

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# A club's card given up: "乐刻那张卡转给同事了", "乐刻的卡退了".
ZH_CARDS = r"(?:健身)?(?:年卡|季卡|月卡|次卡|会员卡|会员|卡)"
ZH_CARD_GIVEN_UP = re.compile(rf"^(?P<who>.*?)把?(?P<club>(?:(?![把我你他她])[{CJK}A-Za-z]){{2,8}}?)(?:那张|的|那个)?{ZH_CARDS}(?:我|我们)?(?:已经|也)?(?:到期(?:了|后|就)?，?)?"
                              rf"(?:转给[{CJK}]{{1,4}}|转让|转出去|退掉?|不续(?:费)?|停掉?)了")
ZH_CLUB_SWITCH = re.compile(rf"^(?:现在|目前|以后)?(?:改去|改到|换到|换去|转去|转到|(?:又|就)?换(?:了|成了?))(?P<club>[{CJK}A-Za-z]{{2,16}}?)(?:了|啦|练|锻炼)?$")
# Cards that are no club's: a bank's, a phone's, a transport card.
ZH_NOT_CLUBS = ("信用", "银行", "储蓄", "电话", "手机", "公交", "地铁", "交通", "医保", "社保", "饭", "电", "流量", "健身")
# The last characters of a group's name: 腰鼓队, 彩虹合唱团, 摄影社, 读书会, 钓鱼协会, 舞蹈兴趣班.
ZH_GROUP_ENDS = ("队", "团", "社", "俱乐部", "协会", "社团", "小组", "读书会", "车友会", "兴趣班", "舞蹈班", "合唱班")
# Ends of words that are no group one belongs to: companies, outings, verbs, people.
ZH_NOT_GROUPS = ("集团", "旅行团", "旅游团", "跟团", "旅行社", "旅社", "出版社", "报社", "杂志社", "通讯社", "合作社",
                 "排队", "插队", "站队", "领队", "团队", "梯队", "乐团演出")
ZH_GROUP_TAGS = ("n", "nz", "nt", "nr", "ns", "vn", "j", "eng", "l")  # a run of nouns: 彩虹(nz) + 合唱团(n)
# Joining a group, or switching to one: 参加了 / 进了 / 改去 / 换到 / 转到 (从X转到Y: the old one too).
ZH_GROUP_SWITCH = re.compile(
    rf"^(?P<who>.*?)(?:从(?P<old>[{CJK}A-Za-z]{{2,10}}?))?(?P<verb>改去|改到|换去|换到|转去|转到|改加入|改参加|改进|参加|进|(?<![现正实存所自])在)了?"
    rf"(?P<new>[{CJK}A-Za-z]{{2,10}}?)(?:了|啦|呢)?$")
ZH_SWITCH_VERBS = ("改去", "改到", "换去", "换到", "转去", "转到", "改加入", "改参加", "改进")
# A role of a group or company, by its word: the predicate names the role (single-valued,
# lexicon [cardinality]). 老板 is the ceo as the lexicon's own "老板" verb phrase says.
ZH_ROLES = {"领队": "leader", "团长": "leader", "社长": "leader", "会长": "leader", "组长": "leader", "班长": "leader",
            "主席": "leader", "负责人": "leader", "队长": "captain", "教练": "coach", "老板": "ceo", "老总": "ceo",
            "总裁": "ceo", "CEO": "ceo", "董事长": "chairman"}
ZH_COMPANY_ROLES = frozenset({"ceo", "chairman", "leader"})
ZH_ROLE = re.compile(
    rf"^(?P<group>[{CJK}A-Za-z]{{1,12}}?)的?(?P<role>{'|'.join(sorted(ZH_ROLES, key=len, reverse=True))})"
    rf"(?:现在|目前|已经)?(?:是|叫|换成了|换成|变成了)(?P<name>[{CJK}A-Za-z]{{2,8}})$")
# The speaker's own unit, unnamed: "我们公司" (the employer), "我们组" (the team).
ZH_OUR = r"(?:我们|咱们|我们的|咱们的|咱|我)"
ZH_OUR_UNITS = {"公司": None, "单位": None, "司": None, "组": "team", "小组": "team", "部门": "department",
                "队": "team", "球队": "team", "团": "group", "社": "club", "班": "class", "科室": "department"}
# Someone else's unit, pointed at: "她们队", "我妈那个队" (the team the message named before).
ZH_THEIR_UNIT = re.compile(r"^(?P<owner>.*?)(?:她们|他们|那个|这个|她们那个|他们那个)(?P<unit>队|团|社|班|组|合唱团|俱乐部|协会)$")
# A pet that died, went missing or was given away: "仓鼠走了", "我家狗狗去世了", "猫咪没了",
# "我的猫前几天病死了", "龟送我表弟了", "狗送给朋友了", "猫给我妈养了".
ZH_GONE = re.compile(r"^(?P<before>.+?)(?:走了|去世了|过世了|死了|病死了|老死了|没了|丢了|去了?(?:喵星|汪星|天堂)了?"
                     r"|送走了|送给?(?P<to>[^，,了]{1,6}?)(?:养)?了|送给了(?P<to3>[^，,了]{1,6})|给(?P<to2>[^，,了]{1,6}?)养了)"
                     r"(?:呜+|唉+|哎+|啊+|[.。…]+)?$")
# Whom a pet is given to, said without a name: "送人了", "送给朋友了" (a relative or a name is a subject).
ZH_RECIPIENTS = ("人", "别人", "朋友", "亲戚", "邻居", "同事", "同学", "新主人", "好心人", "领养人", "救助站")
# "我把猫送人了", "家里两只仓鼠送人了": 把 and a count before the animal say nothing of whose.
ZH_BA = re.compile(r"^(?:我们|我)?把")
ZH_COUNT = re.compile(r"^[一两二三四五六七八九十几俩]+[只条个]")
ZH_HOUSEHOLD = re.compile(r"^(?:我们家|我家|咱家|家里|我的|我养的|我们家的|我家的|家里的)")


class ZhBelongingRules:
    lexicon: Lexicon

    def _zh_belonging(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if not re.search(f"[{CJK}]", clause):
            return None
        return (self._zh_group_role(clause, turn) or self._zh_group_joined(clause, turn) or self._zh_pet_gone(clause, turn)
                or self._zh_club_card(clause, turn))

    def _zh_club_card(self, clause: str, turn: Turn) -> Found | None:
        """ "乐刻那张卡转给同事了" (member_of 乐刻, denied); after it, "现在改去公司楼下的超级猩猩"
        (member_of 超级猩猩, said as a change)."""
        if turn.club_left and (switch := ZH_CLUB_SWITCH.match(clause)):
            club = switch["club"].rsplit("的", 1)[-1]
            if len(club) >= 2 and not club.endswith(ZH_NOT_CLUBS):
                turn.entities.setdefault(club.casefold(), club)
                return Found(turn.speaker_id, "member_of", club, False, True)
        # Only the card given up: read taking one out, a later switch said in words no rule reads
        # ("乐刻楼下那家店关了……我转去超级猩猩了") left the old club answering (measured: -1 read, -1 held out).
        if (m := ZH_CARD_GIVEN_UP.match(clause)) is None:
            return None
        club, who = m["club"], m["who"]
        if club.endswith(ZH_NOT_CLUBS) or club.startswith(("这", "那", "一")):
            return None
        region, negated = self._clean_before_verb(who)
        subject = self._subject(region, turn) if region else turn.speaker_id
        if not subject or negated:
            return None
        turn.entities.setdefault(club.casefold(), club)  # a club's name, whatever jieba tags its words
        turn.club_left = subject == turn.speaker_id
        return Found(subject, "member_of", club, True)

    def _zh_group(self, words: str) -> bool:
        """A group's name: a noun run ending like a group, not a company, an outing or a verb."""
        if not words.endswith(ZH_GROUP_ENDS) or words.endswith(ZH_NOT_GROUPS) or len(words) < 2:
            return False
        tokens = self._tokens(words)
        return bool(tokens) and all(flag.startswith(ZH_GROUP_TAGS) for _, flag, _ in tokens)

    # ---- membership
    def _zh_group_joined(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "参加了腰鼓队", "我在彩虹合唱团", "改去彩虹合唱团了", "从舞蹈队转到腰鼓队"."""
        if not (m := ZH_GROUP_SWITCH.match(clause)):
            return None
        new, old = self._clean_value(m["new"]), m["old"] and self._clean_value(m["old"])
        if not self._zh_group(new) or (old and not self._zh_group(old)):
            return None
        if not self._on_tokens(clause, m.start("verb"), m.end("verb")):
            return None  # "现在" holds 在, "先进" holds 进
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        if subject is None or negated and m["verb"] != "在":
            return None  # "没参加腰鼓队": no claim of a switch (nor of the old group)
        switched = m["verb"] in ZH_SWITCH_VERBS
        found = [Found(subject, "member_of", new, negated, switched)]
        if old:
            found.insert(0, Found(subject, "member_of", old, True, True))
        return found

    # ---- roles
    def _zh_group_role(self, clause: str, turn: Turn) -> Found | None:
        """ "腰鼓队领队是刘桂兰", "她们队的队长是王芳", "我们公司老板是张伟": (group, role, name)."""
        if not (m := ZH_ROLE.match(clause)) or not self._zh_person(name := m["name"]):
            return None  # "队长是个好人", "老板是广东的": no one named

        role = ZH_ROLES[m["role"]]
        group = self._zh_role_holder(m["group"], turn)
        if group is None or group.endswith("'s employer") and role not in ZH_COMPANY_ROLES:
            return None
        return Found(group, role, name, False, True)

    def _zh_person(self, name: str) -> bool:
        """A person's name: one the gate reads as a name (王芳, 小李), or a surname and one or
        two characters that make no word of another kind (刘桂兰: 桂兰 is a place to jieba)."""
        if self._zh_named(name):
            return True
        if name[0] not in self.lexicon.surnames or len(name) not in (2, 3) or not re.fullmatch(f"[{CJK}]+", name):
            return False
        return not any(flag.startswith(("v", "d", "r", "p", "u", "c", "y", "m", "q", "t", "f", "a"))
                       for _, flag, _ in self._tokens(name[1:]))

    def _zh_role_holder(self, words: str, turn: Turn) -> str | None:
        """Whose role it is: a group or a company named, the speaker's company or team, or
        the group named earlier in the message that "她们队" points at."""
        if self._zh_group(words) or self._zh_organisation(words):
            return words
        tokens = self._tokens(words)
        if len(tokens) == 1 and tokens[0][1] in ("nt", "nz") and len(words) >= 2:
            return words  # "腾讯老板是…": a name jieba or the lexicon knows as an organisation
        if (ours := re.fullmatch(rf"{ZH_OUR}(?P<unit>{'|'.join(sorted(ZH_OUR_UNITS, key=len, reverse=True))})", words)) \
                and turn.user_is_speaker:
            unit = ZH_OUR_UNITS[ours["unit"]]
            if unit is None:
                return employer_of(turn.user_id)  # search reads it as the employer the user has then
            return turn.venue if turn.venue and turn.venue.endswith(ours["unit"]) else f"{turn.user_id}'s {unit}"
        if (theirs := ZH_THEIR_UNIT.match(words)) and turn.venue and turn.venue.endswith(theirs["unit"]):
            return turn.venue  # "我妈参加了腰鼓队，她们队的队长是王芳"
        return None

    # ---- pets
    def _zh_pet_gone(self, clause: str, turn: Turn) -> Found | None:
        """ "仓鼠走了", "我家狗狗去世了": the animal is no longer kept (has, denied)."""
        if not (m := ZH_GONE.match(clause)):
            return None
        if (to := m["to"] or m["to2"] or m["to3"]) and to not in ZH_RECIPIENTS and self._subject(to, turn) in (None, turn.speaker_id):
            return None  # "猫送我一只老鼠了": given nothing to someone
        region, negated = self._clean_before_verb(ZH_BA.sub("", m["before"]))
        if negated:
            return None  # "狗狗还没走": nothing lost
        owner = ZH_HOUSEHOLD.match(region)
        subject, rest = turn.speaker_id, ZH_COUNT.sub("", region[owner.end():] if owner else region)
        if owner is None and (kin := re.match(r"^(?P<who>.+?)(?:家的?|的|养的)(?=.)", region)):
            subject, rest = self._subject(kin["who"], turn), region[kin.end():]  # "我妈家的猫没了"
        elif owner is None and turn.other is not None:
            return None  # someone else was named before: whose animal is not said
        tokens = self._tokens(rest)
        if subject is None or not tokens or tokens[0][0] not in self.lexicon.pets:
            return None  # "他走了", "车走了", "猫粮没了"
        if len(tokens) > 1 and not self._zh_pet_named(rest):
            return None  # "狗狗都走了", "猫咪毛没了": more than the animal (and its name)
        return Found(subject, "has", tokens[0][0], True, True)
