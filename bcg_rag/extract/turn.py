"""What one message's clauses tell the next ones: whom the pronouns point to, the names
the caller already uses, and what an earlier clause set up ("switched GPs", "left Lumora",
"我养了一只仓鼠") for a later one to finish. One per message (``OfflineExtractor.read``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Turn:
    """Who the pronouns in one message point to, and the names the caller already uses."""

    user_id: str
    speaker_id: str  # what "I" means: the user's id when the user speaks
    user_is_speaker: bool
    entities: dict[str, str]  # casefolded known entity -> the caller's spelling
    other: str | None = None  # the last third-person subject: what "she" / "他" points to
    topic: bool = False  # the previous clause of this sentence was about ``other``
    parsed: list[str] = field(default_factory=list)  # clauses read with confidence (for the cascade)
    owned: tuple[str, str] | None = None  # what the last clause said someone keeps: "我养了一只仓鼠"
    placed: str | None = None  # the slot an earlier clause placed someone in: "在百度上班" (works_at)
    town: str | None = None  # the place the last clause put someone or something in: "moved to Porto"
    place_topic: str | None = None  # a place the last clause put first, said nothing of yet: "青岛这海风…"
    venue: str | None = None  # the school, employer or club the last clause named: "switched Leo to Riverside"
    employer: str | None = None  # the employer this message named last: whose "HQ is in Rotterdam" a later sentence says
    courting: bool = False  # an earlier clause said the speaker dates someone unnamed: "seeing someone new"
    kin: set[tuple[str, str]] = field(default_factory=set)  # (relation, name) the user named: "my sister Ana"
    listed: bool = False  # the clause is an item of a list of names: "..., New York Knicks, Los angeles Lakers, ..."
    named: int | None = None  # the claim whose value, a name, ended the last clause: "is Oban" (", New Zealand")
    job_moved: bool = False  # the last clause said a job change without saying where to: "老公跳槽了！"
    home_moved: bool = False  # the last clause said a move without saying where to: "我姐又搬家了，这回是去了南京"
    club_left: bool = False  # a clause gave up a membership ("乐动那张卡我退了", "cancelled my Brickhouse membership"):
    # "现在改去超级猩猩", "went with Pulse Lab instead" names the new one
    job_left: bool = False  # a clause left an employer or a job ("left Lumora"): "I'm at Halvard now" is the next one
    switched_kind: str | None = None  # "switched GPs": "now seeing Dr. Lindqvist" says who the GP is now
    new_kin: str | None = None  # "we've got a new manager now": the name said next is who
    suitor: str | None = None  # "小宇跟我表白了": "我们在一起啦" after it says whom the speaker dates
    home_left: bool = False  # "we're officially out of Denver!": "the Boulder place" is the new home
    introduced: bool = False  # the speaker introduced themself ("简单介绍下：", "我叫小林"): a bare "28岁" is theirs
    unnamed_topic: bool = False  # the last clause was about a 他/她 this message does not name ("他跳槽了！")
    groups: dict[str, str] = field(default_factory=dict)  # groups named so far, by name and kind: "a band called The Paper Kites"
    label: str | None = None  # whose "new obsession" ended the last clause: the next one says what it is
    lower_case: bool = False  # the message capitalises no word but "I": its writer names places in lower case too
    signed: tuple[str, str] | None = None  # "signed with Zalando": (who, with whom), a job if "starting 1st of March" follows
    record: list[tuple[str, str]] = field(default_factory=list)  # a record's fields read, until a second one confirms it
