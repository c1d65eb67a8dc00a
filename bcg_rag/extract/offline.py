"""``OfflineExtractor``: rule-based claims from Chinese and English chat; no model, deterministic.

The code knows sentence shapes; the lexicon (``lexicon.toml``) knows the words. A message
has the apostrophes chat leaves out restored ("im" -> "I'm") and stretched words unstretched
("sooo"; ``text.chat_text``), then is cut into sentences and clauses (``grammar.py``);
questions, requests and small talk are skipped; each remaining clause is read by the rules below (shared), ``shapes.py``
and ``idioms.py`` (everyday shapes of both languages), ``measures.py`` (heights, weights,
blood types), ``routines.py`` (habits, abilities), ``whereabouts.py`` (being somewhere),
``changes.py`` (a new employer, title, diet or partner; a switch, an ending),
``ventures.py`` (a business opened), ``portions.py`` (a drink by the cup), ``tongues.py``
(how well a language is spoken), ``devices.py`` (the phone one uses), ``origins.py`` (a nationality), ``owners.py`` (a company sold),
``groups_work.py`` (a group joined by name or left, work said by a trade at an organisation,
what one teaches), ``pets_hobbies.py`` (a pet that died, a hobby said as an obsession),
``en.py`` (English shapes) and ``zh.py`` (Chinese shapes, on jieba's segmentation), from
the most specific shape to the loosest, and what they read passes the confidence gate
(``gate.py``) or is dropped: a message with no claim is still evidence. ``subjects.py``
says whom a clause is about; ``mentions.py`` reads what a possessive says by itself ("our
cat Luna"). The clause's mood (hedge, plan, past) sets the stance and, for plans,
the predicate (``plan:<predicate>``): a plan is not a current fact. A clause said as an
addition ("also", "too", "也", "还") marks its claims in ``Reading.additive``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Sequence

from ..errors import InvalidInputError
from ..models import Claim
from .changes import ChangeRules, offers_taken
from .coordination import share_subjects
from .corrections import corrections_applied
from .devices import DeviceRules
from .diets import DietRules
from .endings import ENDED, JOB, EndingRules, ended_by_kind
from .everyday import EverydayRules
from .en import EnglishRules
from .gate import EPISODIC_PREDICATES, NAME_PREDICATES, GateRules
from .grammar import Grammar
from .groups_work import GroupWorkRules
from .lexicon import Lexicon, default_lexicon, stable_name
from .shapes import ShapeRules
from .idioms import IdiomRules
from .in_passing import PARTNER_PREDICATES, InPassingRules
from .measures import MeasureRules
from .medications import MedicationRules
from .mentions import MentionRules
from .origins import OriginRules
from .owners import OwnerRules
from .pets_hobbies import PetHobbyRules
from .portions import PortionRules
from .races import RaceRules
from .reading import Reading
from .routines import RoutineRules
from .shared import Found, SharedRules
from .splitting import clause_texts, dates_joined, sentences
from .subjects import SubjectRules
from .subscriptions import SubscriptionRules
from .whereabouts import PLACING_PREDICATES, TOWN_PREDICATES, VENUE_PREDICATES, ZH_HOME_MOVED, ZH_JOB_CHANGED, WhereaboutsRules
from .text import EDGE_PUNCTUATION, chat_text, collapse, has_cjk, writes_in_lower_case
from .tongues import TongueRules
from .turn import Turn
from .values import ValueRules
from .ventures import VentureRules
from .zh import ChineseRules
from .zh_belonging import ZhBelongingRules
from .zh_daily import ZhDailyRules, fronted_activity, instead_restated
from .zh_homes import ZhHomeRules
from .zh_work import ZH_QUIT_WORDS, ZhWorkRules

# A clause that names who someone is to the user ("Anna是我室友", "我男朋友叫陈屿", "我的狗叫豆豆")
# leaves that one as the topic: the next clause without a subject is about them.
NAMING_PREDICATES = frozenset({"pet_name", *PARTNER_PREDICATES.values()})


EN_BEEN_LEFT_OUT = re.compile(r"^been\s+(?!to\b)[a-z]", re.IGNORECASE)
ZH_PRONOUN_LEAD = re.compile(r"^(?:他|她)(?:们)?(?!们)")
# One person met, spoken with or given news of, by a name alone: whom a following "she" or "he" means.
EN_MET = re.compile(r"\b(?:with|met|saw|visited|called|texted|messaged|ran\s+into|bumped\s+into|heard\s+from|update\s+on(?:\s+the)?"
                    r"|news\s+(?:on|about|from)(?:\s+the)?)\s+(?P<name>(?-i:[A-Z][a-z]+))(?![\w'-]|\s+(?-i:[A-Z])|\s+and\s)", re.IGNORECASE)
# Or a relative: "catching up w my mom on the phone: she's a nurse" (hers, not the speaker's)
EN_MET_KIN = re.compile(r"\b(?:with|w/?|met|saw|visited|called|phoned|texted|messaged|talked\s+to|spoke\s+(?:to|with))\s+"
                        r"(?P<kin>my\s+[a-z]+)(?![\w'-]|\s+and\s)", re.IGNORECASE)


# Slots whose value is a day of the year: "my birthday is next Monday" names it, plans nothing.
CALENDAR_DAYS = frozenset({"birthday", "anniversary"})


class OfflineExtractor(
    ShapeRules, EnglishRules, ChineseRules, GateRules, SharedRules, SubjectRules, MentionRules, WhereaboutsRules,
    MeasureRules, RoutineRules, IdiomRules, ChangeRules, DietRules, EverydayRules, EndingRules, ValueRules, VentureRules,
    PortionRules, TongueRules, OriginRules, OwnerRules, GroupWorkRules, PetHobbyRules, ZhWorkRules, ZhBelongingRules, ZhDailyRules, ZhHomeRules,
    InPassingRules, MedicationRules, SubscriptionRules, DeviceRules, RaceRules,
):
    """Rule-based claims from Chinese and English chat messages; no model, deterministic."""

    uses_known_entities = False  # the rules read names from the text (and the aliases it uses): no embedding lookup

    def __init__(self, lexicon: Lexicon | None = None):
        self.lexicon = lexicon or default_lexicon()
        self.grammar = Grammar(self.lexicon)

    def states_something(self, text: str) -> bool:
        """Whether a message states anything (some clause is neither a question, a request
        to the assistant, nor small talk): raw evidence worth showing when no claim covers it."""
        for sentence in sentences(collapse(chat_text(text))):
            parts = share_subjects(self.lexicon, clause_texts(sentence.text, EDGE_PUNCTUATION))
            if any(c and not silent for c, silent in zip(parts, self.grammar.silent(sentence, parts))):
                return True
        return False

    def extract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]:
        return self.read(
            text, user_id=user_id, speaker=speaker, context=context,
            known_predicates=known_predicates, known_entities=known_entities,
        )[0]

    def read(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> tuple[list[Claim], Reading]:
        """The claims, and how the message was read (what the cascade needs to decide)."""
        if not isinstance(text, str):
            raise InvalidInputError(f"text must be a string, got {type(text).__name__}")
        if not isinstance(user_id, str) or not user_id.strip():
            raise InvalidInputError(f"user_id must be a non-empty string, got {user_id!r}")
        user_is_speaker = speaker == "user"
        turn = Turn(
            user_id=user_id,
            speaker_id=user_id if user_is_speaker or not speaker else speaker,
            user_is_speaker=user_is_speaker,
            entities={collapse(e).casefold(): e for e in known_entities if isinstance(e, str) and e.strip()},
            lower_case=writes_in_lower_case(text),
        )
        claims: list[Claim] = []
        seen: set[tuple[str, str, str]] = set()
        reading = Reading()
        parsed: dict[tuple, tuple[list[Found], str | None]] = {}
        said = ""  # the sentences before this one
        for sentence in sentences(collapse(chat_text(text))):
            turn.other = None if sentence.question else turn.other
            turn.introduced = turn.introduced and not sentence.question  # "我叫小林。你见过我儿子吗？5岁了": not hers
            # Chinese keeps its topic across a sentence end ("老公跳槽了！现在在安泰保险"), not past a question
            turn.topic = turn.topic and has_cjk(sentence.text) and not sentence.question
            turn.town = turn.venue = turn.place_topic = None
            parts = corrections_applied(dates_joined(share_subjects(self.lexicon, clause_texts(sentence.text, EDGE_PUNCTUATION))),
                                        self._tokens)  # "住望京——哦不对，严格说是酒仙桥": the name meant
            # "his new school, Maple Grove Elementary": read on the sentence, the comma cuts clauses
            silent_parts = self.grammar.silent(sentence, parts)
            # read unless every clause asks: "Biscuit (our spaniel) ate a sock again, should I be worried??"
            venues = [] if all(silent_parts) else (self._venues(sentence.text, turn) + self._pets_named_first(sentence.text, turn)
                                                   + self._favorite_named_before(sentence.text, said, turn)
                                                   + self._services_paid(sentence.text, turn))
            said += f" {sentence.text}"
            listed = self.grammar.list_items(parts)
            for clause, silent, turn.listed in zip(parts, silent_parts, listed):
                if not clause:
                    continue
                if silent:
                    reading.silent += 1
                    continue
                reading.statements += 1
                mood = self.grammar.mood(clause)
                additive = self.grammar.says_additive(clause)
                key = (mood.clause, turn.other, turn.topic, turn.listed)
                if key not in parsed:  # a clause repeated in one message is read once
                    read = self._parse_clause(mood.clause, turn)
                    parsed[key] = (read, turn.other)
                found, turn.other = parsed[key]
                found = found + ended_by_kind(found)  # "quit the gym": the gym named before ends too
                if not found and turn.town and (region := self._region_of(mood.clause, turn.town, turn)):
                    found = [region]  # "moved to Porto, Portugal": the town is in the region named after it
                if not found and (there := self._moved_there(clause, said[: max(said.rfind(clause), 0)] or said, turn)):
                    found = [there]  # "What time is it in Auckland? my sister just moved there"
                employer = turn.employer or self._our_employer(mood.clause, turn)  # "our HQ is in Austin": the user's employer's
                if (turn.venue or employer) and (where := self._venue_in(mood.clause, turn.venue, employer, bool(found))):
                    found = [where]  # "switched Leo to Riverside Academy, it's over in Cranford"; "…for Orla Foods. HQ is in Rotterdam"
                if not found and turn.named is not None and (value := self._refined_name(claims[turn.named].value, mood.clause)):
                    claims[turn.named] = replace(claims[turn.named], value=value)  # "Oban, New Zealand"; "东北的，黑龙江鹤岗"
                    turn.named = None
                    reading.parsed += 1
                    continue
                turn.named = None
                # An employer just named is a name for the rest of the message, whatever jieba
                # tags it: "跳槽到九章云了！九章云总部在杭州" (九章 is a numeral to jieba).
                turn.entities.update({f.value.casefold(): f.value for f in found if f.predicate == "works_at" and not f.negated})
                turn.employer = next((f.value for f in found if f.predicate == "works_at" and not f.negated), turn.employer)
                # "我叫陈晓，二十九": naming oneself introduces oneself (a bare age after it is one's own)
                turn.introduced = turn.introduced or any(f.predicate == "name" and f.subject == turn.speaker_id for f in found)
                turn.town = next((f.value for f in found if f.predicate in TOWN_PREDICATES and not f.negated), None)
                turn.venue = next((f.value for f in found if f.predicate in VENUE_PREDICATES and not f.negated), None)
                if mood.plan:  # "我想喝奶茶", "I want to play tennis": a passing wish, not a plan
                    found = [f for f in found if f.changed or f.predicate not in EPISODIC_PREDICATES]
                    # "I'm going to move from Paris to Berlin": where one is going is the plan; the
                    # old value still holds until then
                    found = [f for f in found if not (f.changed and f.negated)] if any(
                        f.changed and not f.negated for f in found) else found
                # "we adopted a puppy! golden retriever, named him Waffles": a clause that reads
                # nothing does not forget what the one before said someone keeps
                # nor does a clause naming one of them ("一只叫汤圆，一只叫年糕")
                named_one = found and all(f.predicate == "pet_name" for f in found)
                turn.owned = next(((f.subject, f.value) for f in found if f.predicate in ("has", "owns") and not f.negated),
                                  turn.owned if named_one else None if found else self._employer_unnamed(mood.clause, turn) or turn.owned)
                turn.job_moved = not found and bool(ZH_JOB_CHANGED.search(mood.clause))
                turn.home_moved = not found and bool(ZH_HOME_MOVED.search(mood.clause))
                turn.club_left = turn.club_left or any(f.negated and f.predicate == "member_of" and f.subject == turn.speaker_id
                                                       for f in found)
                turn.job_left = turn.job_left or any(f.negated and (f.predicate == "works_at" or f.predicate == ENDED and (
                    f.value == JOB or f.value[:1].isupper())) for f in found) or bool(ZH_QUIT_WORDS.search(mood.clause))
                turn.placed = next((f.predicate for f in found if f.predicate in PLACING_PREDICATES),
                                   "works_at" if turn.job_moved else "lives_in" if turn.home_moved else turn.placed)
                # The clause was about someone else (for Chinese topic continuation): every claim
                # is theirs, or names them ("Anna是我室友": the user has a roommate, Anna; "我的狗叫
                # 豆豆，五岁了": the next clause is about 豆豆).
                if about := next((f.value for f in found if f.rule == "shape" and (
                        f.predicate.startswith("has_") or f.predicate in NAMING_PREDICATES)), None):
                    turn.other = about
                topic = turn.topic
                turn.topic = bool(found) and (about is not None or all(f.subject == turn.other or f.value == turn.other for f in found))
                # "他跳槽了！去了北辰": the clause after speaks of him too, whoever he is, not of the speaker
                turn.unnamed_topic = not found and turn.other is None and bool(ZH_PRONOUN_LEAD.match(mood.clause))
                if not found and (lead := self._lead_subject(mood.clause, turn)):
                    turn.other, turn.topic = lead, True  # "我妈退休了，不当医生了": still about her
                elif not found and turn.other is None and (met := EN_MET.search(mood.clause)) \
                        and met["name"].casefold() not in self.lexicon.not_names:
                    turn.other = met["name"]  # "caught up with Priya today, she's a designer at Loomwell now"
                elif not found and turn.other is None and (kin := EN_MET_KIN.search(mood.clause)) \
                        and "'s " in (relative := self._subject(kin["kin"], turn) or ""):
                    turn.other = relative
                elif not found and topic and not self._names_speaker(clause):
                    turn.topic = True  # "我女儿读高二，在杭州二中，喜欢打羽毛球": a clause in between keeps her
                if found:
                    reading.parsed += 1
                else:
                    reading.unread.append(clause)
                for f in found:
                    claim = self._claim(f, mood, turn, known_predicates, context)
                    key = (claim.subject, claim.predicate, claim.value)
                    if key in seen:  # "I love tea, I love tea" is one claim
                        continue
                    seen.add(key)
                    claims.append(claim)
                    reading.rules.append(f.rule)
                    shared = self._shared_relative(claim.subject, turn) and not self.grammar.says_change(clause)
                    reading.additive.append((additive or shared) and not f.changed)
                    if self._ends_on_name(f, clause, turn):
                        turn.named = len(claims) - 1
                    if due := self._falls_due(claim, mood):
                        claims.append(due)
                        reading.rules.append(f"scheduled/{f.rule}")
                        reading.additive.append(False)
                presupposed = self._mentions(clause, turn) + self._kept(clause, turn) + venues + self._in_passing(clause, turn)
                venues = []
                if not any(f.predicate == "has" for f in found) and (kept := next(
                        (f for f in presupposed if f.predicate == "has" and not f.negated), None)):
                    turn.owned = (kept.subject, kept.value)  # "带我家布偶去打疫苗，它叫奶盖": named in the next clause
                self._presupposed(presupposed, turn, seen, claims, reading, known_predicates, context)
            asked = self._phone_asked_about(sentence.text, turn) if all(silent_parts) else []  # "新入手的iPhone 16 Pro 怎么迁数据"
            self._presupposed(asked, turn, seen, claims, reading, known_predicates, context)  # what a question takes for granted
        self._with_race_bests(text, turn, claims, reading, context)  # "新的半马PB！1小时52分": the sentences together
        for due in offers_taken(claims, self.lexicon.asserted):  # "accepted Adyen's offer, leaving Zalando"
            claims.append(due)
            reading.rules.append("scheduled/offer")
            reading.additive.append(False)
        reading.kin = sorted(turn.kin)
        # "辞职了，不在那家银行干了": the job that ended is named; the unnamed ending says no more
        named_jobs = {c.subject for c in claims if c.predicate == "works_at" and c.stance < 0}
        out, rules, additive = [], [], []  # per claim, as read: a Chinese place may make two
        for claim, rule, added in zip(claims, reading.rules, reading.additive):
            if claim.subject in named_jobs and (claim.predicate, claim.value) == (ENDED, JOB):
                continue
            for placed in self._zh_places(claim, text):
                out.append(placed)
                rules.append(rule)
                additive.append(added)
        reading.rules, reading.additive = rules, additive
        return out, reading

    def _presupposed(self, found: list[Found], turn: Turn, seen: set, claims: list[Claim], reading: Reading,
                     known_predicates: Sequence[str], context: str | None) -> None:  # no mood applies
        for f in found:
            value = turn.entities.get(f.value.casefold()) or self._canonical(f.predicate, f.value)
            key = (f.subject, f.predicate, value)
            if key not in seen:
                seen.add(key)
                claims.append(Claim(f.subject, stable_name(f.predicate, known_predicates, self.lexicon),
                                    value, self.lexicon.asserted, context=context))
                reading.rules.append("mention")
                reading.additive.append(False)

    def _canonical(self, predicate: str, value: str) -> str:
        """The lexicon's form of a value ("美式" -> americano), or of its head word after a
        modifier ("oat lattes" -> oat latte); a name stays as said (a corgi called 可乐 is not
        called "cola")."""
        if predicate.removeprefix("attr:") in NAME_PREDICATES:
            return value
        if (canonical := self.lexicon.value_of(value)) != value or " " not in value or has_cjk(value):
            return canonical
        rest, head = value.rsplit(" ", 1)
        return f"{rest} {self.lexicon.value_of(head)}"

    def _claim(self, found: Found, mood: Any, turn: Turn, known_predicates: Sequence[str], context: str | None) -> Claim:
        lex = self.lexicon
        said = self._place_head(found.predicate, found.value)
        value = turn.entities.get(said.casefold()) or self._canonical(found.predicate, said)
        predicate = found.predicate
        # a value's head names its kind too: "oat latte" is a latte
        moved = lex.value_predicates.get(value.casefold()) or lex.value_predicates.get(value.rsplit(" ", 1)[-1].casefold())
        if moved and predicate in moved[1]:  # "likes americano" -> "prefers_coffee_type"
            predicate = moved[0]
        predicate = stable_name(predicate, known_predicates, lex)
        negated = found.negated
        if mood.past and not mood.plan and not found.changed:
            negated = True  # "I used to live in Paris": Paris no longer holds
        stance = lex.negated if negated else lex.asserted
        # A day's date is no plan when said ahead of it: "下周一8月19号是我生日" names the birthday.
        plan = mood.plan and not (mood.due_in_days and predicate.removeprefix("attr:") in CALENDAR_DAYS)
        if plan and not predicate.startswith("plan:"):
            predicate = "plan:" + predicate  # a plan is not a current fact; it never competes with one
            stance *= lex.hedge_factor
        elif predicate.startswith("plan:"):  # read as a plan by its rule ("got a job offer from X")
            stance *= lex.hedge_factor
        elif mood.hedged:
            stance *= lex.hedge_factor
        return Claim(found.subject, predicate, value, stance, context=context)

    def _falls_due(self, claim: Claim, mood: Any) -> Claim | None:
        """A settled, dated plan in a single-valued slot ("starting at Oak Valley High next
        week"): the slot's value from its due date on, said without doubt (a wish or a hedge
        is no schedule, ``Grammar.mood``). The plan claim stays beside it, so until then the
        memory holds a plan, not a fact."""
        slot = claim.predicate.removeprefix("plan:")
        if not (mood.due_in_days and claim.predicate.startswith("plan:") and claim.stance > 0
                and self.lexicon.is_single_valued(slot)):
            return None
        return replace(claim, predicate=slot, stance=self.lexicon.asserted, starts_in_days=mood.due_in_days)

    def _shared_relative(self, subject: str, turn: Turn) -> bool:
        """The subject is the speaker's relative of a kind one often has several of."""
        owner, joined, relation = subject.rpartition("'s ")
        return bool(joined) and owner in (turn.user_id, turn.speaker_id) and relation in self.lexicon.shared_relations

    def _names_speaker(self, clause: str) -> bool:
        first = re.match(r"[\u4e00-\u9fff]|[A-Za-z']+", clause)
        return bool(first) and first.group().casefold() in self.lexicon.first_person

    def extract_batch(self, texts: Sequence[str], **kwargs: Any) -> list[list[Claim]]:
        """One claim list per text (same keywords as ``extract``); mirrors ``LLMExtractor``."""
        return [self.extract(text, **kwargs) for text in texts]

    # Each rule reads one clause and returns what it says (a Found or a list), or None
    # to let the next try. The order goes from the most specific shape to the loosest.
    def _parse_clause(self, clause: str, turn: Turn, reported: bool = True) -> list[Found]:
        rules = (
            self._pets_and_hobbies, self._groups_and_work,  # first: "new obsession:" reads the clause after it
            self._zh_work, self._medication, self._subscription, self._phone, self._everyday, self._said_in_passing, self._venture, self._portion, self._tongue, self._origin, self._company_owner,
            self._shape, self._idiom, self._measure, self._zh_belonging, self._zh_homes, self._change, self._change_from_to, self._job,
            self._attribute, self._verb, self._routine, self._copula, self._relation, self._english_relation, self._whereabouts, self._ending,
            self._zh_daily,
        )
        for rule in rules:
            found = rule(clause, turn)
            if found:
                found = found if isinstance(found, list) else [found]
                found = [f if f.rule else replace(f, rule=rule.__name__.lstrip("_")) for f in found]
                # A reading the gate refuses lets the next rule try: "我血型是A型" misread as an
                # attribute "型" must not hide the measure rule's "A型".
                found = [g for f in found if (g := self._gate(f, clause, turn))]
                if not found:
                    continue
                found = self._together(clause, found, turn)
                for f in found:
                    if f.subject not in (turn.user_id, turn.speaker_id):
                        turn.other = f.subject
                return found
        # "A colleague says the user works at X": read what was said
        if reported and (found := self._reported(clause, turn)):
            return [replace(found, rule="reported/" + found.rule)]
        if pair := self._pair(clause, turn):  # "my mom and dad live in Tampa"
            return pair
        # "been pescatarian since uni", "been vegan for 3 years": chat leaves "I've" out
        if EN_BEEN_LEFT_OUT.match(clause):
            return self._parse_clause("I've " + clause, turn, reported)
        if has_cjk(clause) and (restated := fronted_activity(self.lexicon, clause) or instead_restated(clause)):
            return self._parse_clause(restated, turn, reported)  # "瑜伽倒是一直在练": "我一直在练瑜伽"
        return []
