"""A business someone opened or runs: "my cousin just opened a bakery in Leeds", "she quit to
open a flower shop", "I run a small bike repair shop", "表姐在丽江开了家客栈", "现在自己开了个
奶茶店" (owns). Opening a shop is how chat says someone owns one; the value is the kind of
business, since its name is rarely said, with the town an English sentence puts after it
("bakery in Leeds").

Only a noun that names a business is read ("opened a bank account", "开了个会", "开了个玩笑"
open no business), and in Chinese only a noun phrase with no verb in it ("开车去花店" is a drive).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import EN_BUSINESS_HEADS, collapse, is_business

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# Size and novelty say nothing of the kind: "a tiny new bakery" is a bakery.
EN_SIZE = r"(?:(?:small|little|tiny|big|new|own|cute|local)\s+)*"
EN_OPENED = re.compile(
    r"^(?P<who>.*?)\s*\b(?:(?:quit|left)\b(?:\s+[a-z]+){0,3}?\s+to\s+)?"
    r"(?P<verb>opened|opens|opening|open|started|starts|starting|runs|run|running)\s+"
    rf"(?:a|an|her|his|their|my|our)\s+{EN_SIZE}"
    rf"(?P<thing>(?:[a-z&'-]+\s+){{0,2}}?(?:{'|'.join(re.escape(h) for h in EN_BUSINESS_HEADS)}))"
    # "a bakery in Oakland": the town is part of what was opened (asked "where is her bakery?")
    r"(?:\s+in\s+(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))(?![\w'-]))?"
    r"(?=\s+(?:in|on|at|near|downtown|called|named|with|of|for|last|this|next|one|someday|soon|together|and|back|"
    r"after|when|since|a|two|three|four|five|six|years|months|yesterday|today|recently|there|here)\b|\s*[,.!?;:]|\s*$)",
    re.IGNORECASE,
)
# The business's name, said with it ("runs a bakery called Crumbs") or in the clause after it
# ("I run a candle business on Etsy, it's called Wick & Wander"): a name of up to four words.
EN_BUSINESS_NAME = r"(?P<name>(?-i:[A-Z][\w'.-]*(?:\s+(?:&|and|of|the|[A-Z][\w'.-]*)){0,3}))(?![\w'-])"
EN_CALLED_AFTER = re.compile(rf"^[^,.!?;:]*?\b(?:called|named)\s+{EN_BUSINESS_NAME}")
EN_ITS_CALLED = re.compile(rf"^(?:it|the\s+(?:shop|business|company|brand|store))(?:'s|\s+is)\s+(?:called|named)\s+{EN_BUSINESS_NAME}\s*[.!]*$",
                           re.IGNORECASE)


# "opened a store account": a business word before what was opened
EN_NOT_OWNED = frozenset({"account", "tab", "file", "ticket"})
ZH_OPENED = re.compile(r"^(?P<who>.*?)(?:(?<!现)在(?P<place>[^在开]{1,8}?))?开了?(?:一)?(?:家|个|间)?(?P<thing>[^，。！？、]{1,8}?)(?:了|啦|呢|哈+)?$")
# The last characters of a Chinese business noun: 奶茶店, 面馆, 民宿, 工作室, 诊所.
ZH_BUSINESS_ENDS = ("店", "馆", "民宿", "客栈", "公司", "工作室", "餐厅", "酒吧", "诊所", "超市", "工厂", "厂",
                    "铺", "健身房", "培训班", "补习班", "幼儿园", "农家乐")
ZH_NOT_BUSINESSES = ("图书馆", "博物馆", "体育馆", "美术馆", "大使馆", "领事馆", "殡仪馆")
ZH_SELF = ("自己", "我自己")


class VentureRules:
    lexicon: Lexicon

    def _venture(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if turn.owned and is_business(turn.owned[1]) and (named := EN_ITS_CALLED.match(clause)):
            return Found(turn.owned[0], "owns", named["name"])  # the business the clause before spoke of
        if m := EN_OPENED.match(clause):
            thing = re.sub(rf"^{EN_SIZE}", "", collapse(m["thing"]).casefold())
            who = m["who"]
            if re.search(r"\b(?:the|a|an)$", who.strip(), re.IGNORECASE) or thing.split()[0] in EN_NOT_OWNED:
                return None  # "the newly opened …": a thing, not someone who opened it
            subject = self._subject(self._clean_before_verb(who)[0], turn) if who.strip() else turn.speaker_id
            negated = self._clean_before_verb(who)[1] if who.strip() else False
            if m["place"]:
                thing = f"{thing} in {m['place']}"
            if subject is None:
                return None
            named = None if negated else EN_CALLED_AFTER.match(clause[m.end("thing"):])
            return [Found(subject, "owns", thing, negated)] + ([Found(subject, "owns", named["name"])] if named else [])
        if (m := ZH_OPENED.match(clause)) is None:
            return None
        thing = m["thing"]
        if len(sized := re.sub(r"^(?:小小的|小|大|新)", "", thing)) >= 2:
            thing = sized  # "开了个小超市": a supermarket, its size aside (as "a small bakery" is a bakery)
        if not thing.endswith(ZH_BUSINESS_ENDS) or thing.endswith(ZH_NOT_BUSINESSES):
            return None
        tokens = self._tokens(thing)
        if not tokens or any(flag.startswith(("v", "p", "d", "r", "u")) and not flag.startswith("vn") and word not in ZH_BUSINESS_ENDS
                             for word, flag, _ in tokens):  # (jieba tags 超市 a verb)
            return None  # "开车去花店": a drive, not a shop
        region, negated = self._clean_before_verb(m["who"])
        subject = turn.speaker_id if region in ZH_SELF else self._subject(region, turn)
        return Found(subject, "owns", thing, negated) if subject else None
