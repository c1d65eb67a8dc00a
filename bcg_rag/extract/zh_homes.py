"""Chinese chat about one's home, said indirectly: the animals in it, a move there, a home given up.

* Pets at home, counted: "家里两只巴西龟最近都不咋吃东西", "我家三只猫咪天天打架" (has 巴西龟 / 猫咪):
  the household, a count and an animal the lexicon lists ([mentions] pets), whatever the clause
  says of them next; a relative's household is theirs ("婆婆家两只猫"). A wish ("想养两只猫") or
  an animal given away ("两只猫都送人了", ``zh_belonging``) keeps none.
* No pet any more: "现在家里啥宠物都没了", "一只宠物都没有了" (has 宠物, denied: the memory ends every
  animal kept before it by that kind, ``endings.GENERIC_PETS``).
* A move back: "我又搬回成都了" (whoever moved), "兜兜转转又回青岛了" (the speaker). 回 alone is a
  move only to a place name jieba knows, said done (了) and again or after all (又, 还是, 兜兜转转),
  and no trip: "回北京了" (back from a trip), "回老家过年", "回家了", "周末又回青岛了" say nothing.
* A move said by its direction after a clause that put the speaker in a town: "公司把我调济南了，
  上周刚搬过来" (lives_in 济南: 搬过来 is a move to the town just named).
* Years lived in the place a clause before put first: "青岛这海风…住三年了还是不习惯" (lives_in 青岛).
* A home given up: "济南那套房子已经退了", "成都的房子退租了" (lives_in, denied). A home is no
  membership: "房子退了" is no member_of 房子 (the gate refuses ``ZH_HOME_WORDS``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import CJK

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

ZH_NUM = r"[0-9一两二三四五六七八九十几俩]+"
# "家里两只巴西龟…", "我家三只猫…", "家里养着两只兔子", "婆婆家两只猫"
ZH_PETS_AT_HOME = re.compile(rf"^(?P<who>.*?)(?:我们家|我家|咱家|家里|家中|(?P<kin>[{CJK}]{{1,4}}?)家里?)(?:现在|目前)?"
                             rf"(?:养了|养着|养的|有)?(?P<count>{ZH_NUM})[只条头](?P<rest>[{CJK}].*)$")
ZH_LITTLE = re.compile(r"^小(?=.)")  # "两只小橘猫": a 橘猫
# What keeps no animal: a wish or a condition before it, one given away or gone after it.
ZH_WISHED = re.compile(r"想|打算|准备|要是|如果|希望")
ZH_NOT_KEPT = re.compile(r"^(?:都|也|已经|早就)*(?:送|卖|没了|死了|走了|丢了|去世|病死|老死)")
# "现在家里啥宠物都没了", "一只宠物都没有了", "宠物也不养了"
ZH_NO_PETS = re.compile(r"^(?P<who>.*?)(?:我们家|我家|家里|家中)?(?:啥|什么|任何|一个|一只)?(?:宠物|毛孩子)(?:都|也|就|早就)?"
                        r"(?:没了|没有了|不养了|送走了|送人了)$")
# "兜兜转转又回青岛了", "绕了一圈还是回成都了": after all, before the move, says no one
ZH_AFTER_ALL_WORDS = r"兜兜转转|转了一圈|绕了一圈|折腾了一圈|折腾来折腾去|到头来|最后|最终|结果"
ZH_AFTER_ALL = re.compile(rf"^(?:{ZH_AFTER_ALL_WORDS})+")
# 回 alone is a move back only said again or after all: "又回青岛了"; "回北京了" is being back from a trip
ZH_BACK_AGAIN = re.compile(rf"又|还是|重新|{ZH_AFTER_ALL_WORDS}")
ZH_MOVED_BACK = re.compile(rf"^(?P<who>.*?)(?P<verb>搬回到?了?|回到了|回到|回)(?P<place>[{CJK}]{{2,6}}?)(?P<done>了|啦|来了)?$")
# A trip, not a move: what 回 is for, or a day or a holiday it falls on.
ZH_TRIP = re.compile(r"出差|玩|过年|过节|几天|一趟|趟|旅游|度假|探亲|开会|周末|假期|放假|春节|国庆|五一|中秋|端午|暑假|寒假"
                     r"|今天|昨天|前天|明天|今晚|昨晚|刚才|刚刚")
# "上周刚搬过来": a move toward the town the clause before named (the mood reads the 过去 of
# "上个月刚搬过去" as "in the past" and leaves "上个月刚搬")
# "公司把我外派到昆明了，今天刚到": arriving where one was posted or moved to is the move too.
ZH_MOVED_HERE = re.compile(r"^(?P<who>.*?)(?:搬(?:过来|过去|来|去)?(?:了|啦)?(?:住)?|(?:今天|昨天|前天|上周|这周)?(?:刚|才)到)(?:了|啦)?$")
# "青岛这海风", "成都那边的冬天": a place put first, as the topic
ZH_PLACE_TOPIC = re.compile(rf"^(?P<place>[{CJK}]{{2,5}}?)(?:这|那)(?:边|里|儿)?的?[{CJK}]")
# "住三年了还是不习惯", "都住了快五年了"
ZH_LIVED_YEARS = re.compile(rf"^(?:我|我们)?(?:都|已经|也)*住了?(?:快|差不多|将近|有)?{ZH_NUM}年多?了")
ZH_HOME_WORDS = ("房子", "公寓", "出租屋", "房")
# "来重庆住了快两个月了", "搬到杭州生活半年了": come to a town and lived there for a while (在X住了… is the verb rule's)
ZH_CAME_TO_LIVE = re.compile(rf"^(?P<who>.*?)(?:搬)?(?:来|到|来到)(?P<place>[{CJK}]{{2,5}}?)(?:住|生活|定居)了?(?:快|差不多|将近|有)?"
                             rf"(?:{ZH_NUM}(?:个)?多?(?:个月|年)|半年)多?了?$")  # months or years: a week is a visit
# "阿杰跑去大理开民宿了", "我姐去深圳工作了", "他辞职去成都发展了": gone to a town to work or live there
# (done: 了 ends it; "想去深圳工作", "去深圳出差" are no move)
# (and to study there: "我弟去年去了慕尼黑读博", one lives where one studies)
ZH_WENT_TO_WORK = re.compile(rf"^(?P<who>.*?)(?:辞职|辞了职|裸辞)?(?:跑|搬|调|就|也)?去(?P<went>了)?(?P<place>[{CJK}]{{2,5}}?)"
                             rf"(?P<what>工作|上班|打工|发展|定居|生活|开(?:店|民宿|餐馆|饭店|咖啡馆|公司|工作室)|创业"
                             rf"|读博|读研|读书|念书|读大学|上大学|留学)(?(went)了?|了)$")
ZH_HOME_GIVEN_UP = re.compile(rf"^(?:我|我们)?(?P<place>[{CJK}]{{2,5}}?)(?:那套|那间|这套|的)?(?:{'|'.join(ZH_HOME_WORDS)})"
                              r"(?:已经|也|早就|上个月|上周|终于)*(?:退了|退租了|不租了)$")


class ZhHomeRules:
    lexicon: Lexicon

    def _zh_homes(self, clause: str, turn: Turn) -> Found | None:
        if not re.search(f"[{CJK}]", clause):
            return None
        topic, turn.place_topic = turn.place_topic, None  # a place topic holds for the next clause only
        found = (self._zh_pets_at_home(clause, turn) or self._zh_no_pets(clause, turn) or self._zh_moved_back(clause, turn)
                 or self._zh_moved_here(clause, turn) or self._zh_lived_years(clause, topic, turn) or self._zh_came_to_live(clause, turn)
                 or self._zh_went_to_work(clause, turn)
                 or self._zh_home_given_up(clause, turn))
        if found is None and (place := ZH_PLACE_TOPIC.match(clause)) and self._zh_place(place["place"]):
            turn.place_topic = place["place"]  # "青岛这海风…": the next clause may say one lives there
        return found

    # ---- pets
    def _zh_pets_at_home(self, clause: str, turn: Turn) -> Found | None:
        """ "家里两只巴西龟最近都不咋吃东西": the animal counted in the household is kept."""
        if not (m := ZH_PETS_AT_HOME.match(clause)) or ZH_WISHED.search(m["who"]):
            return None
        if m["kin"]:  # "婆婆家两只猫": hers, said with nothing before it
            subject = None if self._clean_before_verb(m["who"])[0] else self._subject(m["kin"], turn)
        else:
            subject, negated = self._zh_who(m["who"], turn, speaker_only=True)
            subject = None if negated else subject
        pet = self._zh_counted_pet(m["rest"])
        if not (subject and pet) or ZH_NOT_KEPT.match(m["rest"][m["rest"].find(pet) + len(pet):]):
            return None  # "两只猫都送人了": gone (zh_belonging reads it)
        return Found(subject, "has", pet)

    def _zh_counted_pet(self, rest: str) -> str | None:
        """The animal a count is of: the longest run of up to three of jieba's words at the start
        that ends with a pet word ("巴西龟最近…" -> 巴西龟, "小橘猫天天…" (小 + 橘 + 猫) -> 橘猫)."""
        tokens = self._tokens(rest)
        for size in (3, 2, 1):
            if len(tokens) >= size and all(flag.startswith(("n", "a", "v")) or flag == "q" for _, flag, _ in tokens[:size]):
                words = ZH_LITTLE.sub("", "".join(w for w, _, _ in tokens[:size]))
                if self._zh_pet_word(words) and len(words) <= 5:
                    return words
        return None

    def _zh_no_pets(self, clause: str, turn: Turn) -> Found | None:
        """ "现在家里啥宠物都没了": no pet is kept any more (the kind, denied)."""
        if not (m := ZH_NO_PETS.match(clause)):
            return None
        subject, negated = self._zh_who(m["who"], turn, speaker_only=True)
        return Found(subject, "has", "宠物", True, True) if subject and not negated else None

    # ---- moves
    def _zh_moved_back(self, clause: str, turn: Turn) -> Found | None:
        """ "我又搬回成都了", "兜兜转转又回青岛了": the home is that place again."""
        if not (m := ZH_MOVED_BACK.match(clause)) or "从" in m["who"] or not self._zh_place(m["place"]):
            return None  # "从北京搬回成都" is ZH_FROM_TO's; "回老家", "回公司": no place named
        moved = m["verb"].startswith("搬")
        if not moved and (not (m["done"] or m["verb"] == "回到了") or ZH_TRIP.search(clause) or not ZH_BACK_AGAIN.search(m["who"])):
            return None  # "回北京了", "昨天又回青岛了": back from a trip; "回青岛过年": a trip
        subject, negated = self._zh_who(ZH_AFTER_ALL.sub("", m["who"]), turn, speaker_only=not moved)
        return Found(subject, "lives_in", m["place"], False, True) if subject and not negated else None

    def _zh_moved_here(self, clause: str, turn: Turn) -> Found | None:
        """ "公司把我调济南了，上周刚搬过来": a move toward the town the clause before named."""
        if turn.town is None or not (m := ZH_MOVED_HERE.match(clause)):
            return None
        subject, negated = self._zh_who(m["who"], turn)
        # the speaker or their kin: "她" may point at the company the clause before placed ("米境总部在上海")
        kin = subject is not None and (subject == turn.speaker_id or subject.startswith(f"{turn.user_id}'s "))
        return Found(subject, "lives_in", turn.town, False, True) if kin and not negated else None

    def _zh_came_to_live(self, clause: str, turn: Turn) -> Found | None:
        """ "来重庆住了快两个月了": lives in 重庆 (a town jieba knows), said as a move."""
        if not (m := ZH_CAME_TO_LIVE.match(clause)) or not self._zh_place(m["place"]):
            return None
        subject, negated = self._zh_who(m["who"], turn)
        return Found(subject, "lives_in", m["place"], False, True) if subject and not negated else None

    def _zh_went_to_work(self, clause: str, turn: Turn) -> Found | None:
        """ "阿杰跑去大理开民宿了": works (or lives, 定居 / 生活) in 大理 now, said as a move."""
        if not (m := ZH_WENT_TO_WORK.match(clause)) or not self._zh_place(m["place"]) or ZH_WISHED.search(m["who"]):
            return None
        subject, negated = self._zh_who(m["who"], turn)
        predicate = "works_in" if m["what"] in ("工作", "上班", "打工", "发展", "创业") or m["what"][0] == "开" else "lives_in"
        return Found(subject, predicate, m["place"], False, True) if subject and not negated else None

    @staticmethod
    def _zh_lived_years(clause: str, topic: str | None, turn: Turn) -> Found | None:
        """ "住三年了" right after a clause that put a place first ("青岛这海风…"): years lived there."""
        return Found(turn.speaker_id, "lives_in", topic) if topic and ZH_LIVED_YEARS.match(clause) else None

    def _zh_home_given_up(self, clause: str, turn: Turn) -> Found | None:
        """ "济南那套房子已经退了": the home in that place is given up."""
        if not (m := ZH_HOME_GIVEN_UP.match(clause)) or not self._zh_place(m["place"]) or turn.topic:
            return None  # "我妈在济南，那边房子退了": hers
        return Found(turn.speaker_id, "lives_in", m["place"], True, True)
