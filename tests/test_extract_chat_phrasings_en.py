"""Everyday English chat phrasings: contractions typed without their apostrophe ("im a
nurse"), a group joined by name and left, work said by what one does at an organisation
("she's teaching at Greenfield High"), a change of what one teaches, a pet described before
its noun and named after it, a hobby said as an obsession, a pet that died. Sentences of our
own, and for each rule the near misses that must stay silent (a wrong claim is worse than none).
"""

from __future__ import annotations

import pytest

from bcg_rag.extract.text import restore_apostrophes
from claims import USER, triples

NO = -0.8  # the stance of a claim that no longer holds


# ---- 1. contractions without their apostrophe

@pytest.mark.parametrize("typed, written", [
    ("im a junior data analyst at Brightwell Bank", "I'm a junior data analyst at Brightwell Bank"),
    ("Im a nurse", "I'm a nurse"),
    ("ive been vegetarian for years", "I've been vegetarian for years"),
    ("my sister Ana lives in Rome, shes a nurse", "my sister Ana lives in Rome, she's a nurse"),
    ("my brother Tom lives in Leeds, hes a plumber", "my brother Tom lives in Leeds, he's a plumber"),
    ("i dont drink coffee anymore", "I don't drink coffee anymore"),
    ("ive got a cat named Miso", "I've got a cat named Miso"),
])
def test_a_contraction_typed_without_apostrophe_reads_as_written(extractor, typed, written):
    assert triples(extractor, typed) == triples(extractor, written) != []


def test_the_job_of_im_a(extractor):
    assert triples(extractor, "im a junior data analyst at Brightwell Bank") == [
        (USER, "job_title", "junior data analyst", 1.0), (USER, "works_at", "Brightwell Bank", 1.0)]


def test_theyre_reads_as_theyre(extractor):
    typed, written = "my parents live in Leeds, theyre retired", "my parents live in Leeds, they're retired"
    assert triples(extractor, typed) == triples(extractor, written)


@pytest.mark.parametrize("text, restored", [
    ("im a nurse, shes a vet, theyre vegan", "I'm a nurse, she's a vet, they're vegan"),
    ("ok. Ive been busy", "ok. I've been busy"),
    ("Jony Ive designed it", "Jony Ive designed it"),  # a capitalised word after a name is the name's
    ("its fine, we were well, ill and id", "its fine, we were well, ill and id"),  # words of their own
    ("whim and chess", "whim and chess"),  # inside a word
    ("IM me later", "IM me later"),
])
def test_restore_apostrophes(text, restored):
    assert restore_apostrophes(text) == restored


@pytest.mark.parametrize("text", [
    "whats your favorite color",  # a question once its apostrophe is back
    "Im so tired lol",
    "Jony Ive designed the iPhone",
])
def test_contraction_near_misses(extractor, text):
    assert triples(extractor, text) == []


# ---- 2. a group joined and named; a group left

@pytest.mark.parametrize("text, expected", [
    ("joined a jazz trio called Lantern Fields", [(USER, "member_of", "Lantern Fields", 1.0)]),
    ("I'm in a band called The Paper Kites now", [(USER, "member_of", "The Paper Kites", 1.0)]),
    ("im in a band called The Paper Kites now", [(USER, "member_of", "The Paper Kites", 1.0)]),
    ("joined a running club named Dawn Patrol", [(USER, "member_of", "Dawn Patrol", 1.0)]),
    ("my friend Sam joined a choir called The Night Owls", [("Sam", "member_of", "The Night Owls", 1.0)]),
    ("my brother started a band called Wet Leg", [(f"{USER}'s brother", "member_of", "Wet Leg", 1.0)]),
    ("I'm not in a band called The Paper Kites anymore", [(USER, "member_of", "The Paper Kites", NO)]),
    ("I want to join a book club called Tuesday Readers", [(USER, "plan:member_of", "Tuesday Readers", 0.5)]),
])
def test_a_group_joined_by_its_name(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("quit my book club", [(USER, "member_of", "book club", NO)]),
    ("I left the band", [(USER, "member_of", "band", NO)]),
    ("quit the jazz trio last month", [(USER, "member_of", "jazz trio", NO)]),
    ("left the orchestra after ten years", [(USER, "member_of", "orchestra", NO)]),
    # a name the message gave a group before, and the group's noun, are that group
    ("my brother is in a band called The Paper Kites, I left the paper kites last year",
     [(f"{USER}'s brother", "member_of", "The Paper Kites", 1.0), (USER, "member_of", "The Paper Kites", NO)]),
    ("my friend Sam joined a band called Wet Leg, I quit the band last year",
     [("Sam", "member_of", "Wet Leg", 1.0), (USER, "member_of", "Wet Leg", NO)]),
])
def test_a_group_left(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "left the house",
    "left work early",
    "left the club at 2am",  # a night out
    "left the club last night",
    "I left the party early",
    "I left the group chat",
    "left the paper kites",  # not said to be a group in this message: a name, nothing more
    "I didn't leave the band",
    "I'm in a mood called Monday",
    "I'm in a group chat called Besties",
])
def test_group_near_misses(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "member_of"] == []


# ---- 3. work said by what one does at an organisation

@pytest.mark.parametrize("text, expected", [
    ("caught up with Kofi, he's lecturing economics at Harwick University now",
     [("Kofi", "works_at", "Harwick University", 1.0), ("Kofi", "teaches", "economics", 1.0), ("Kofi", "job_title", "lecturer", 1.0)]),
    ("my friend Kofi is lecturing economics at Harwick University now",
     [("Kofi", "works_at", "Harwick University", 1.0), ("Kofi", "teaches", "economics", 1.0), ("Kofi", "job_title", "lecturer", 1.0)]),
    ("my sister Ana just graduated, she's teaching at Greenfield High",  # her studies over, her work begun
     [("Ana", "does", "school", -0.8), ("Ana", "works_at", "Greenfield High", 1.0), ("Ana", "job_title", "teacher", 1.0)]),
    ("I'm interning at Lumen Labs this summer", [(USER, "works_at", "Lumen Labs", 1.0), (USER, "job_title", "intern", 1.0)]),
    ("my brother is nursing at St Mary's", [(f"{USER}'s brother", "works_at", "St Mary's", 1.0), (f"{USER}'s brother", "job_title", "nurse", 1.0)]),
    ("my wife teaches at Greenfield High", [(f"{USER}'s wife", "works_at", "Greenfield High", 1.0), (f"{USER}'s wife", "job_title", "teacher", 1.0)]),
    ("I'm teaching 7th grade math at Greenfield Middle School",
     [(USER, "works_at", "Greenfield Middle School", 1.0), (USER, "teaches", "7th grade math", 1.0), (USER, "job_title", "teacher", 1.0)]),
    ("bartending at Joe's on weekends", [(USER, "works_at", "Joe's", 1.0), (USER, "job_title", "bartender", 1.0)]),
    ("I used to teach at Greenfield High", [(USER, "works_at", "Greenfield High", NO), (USER, "job_title", "teacher", NO)]),
    # by a task verb at a company (a capitalised name, or a company's last word in lower case)
    ("i process claims at thistledown insurance and today someone claimed a raccoon stole their car keys",
     [(USER, "works_at", "Thistledown Insurance", 1.0)]),
    ("i do payroll at acme corp", [(USER, "works_at", "Acme Corp", 1.0)]),
    ("my sister writes code at Stripe", [(f"{USER}'s sister", "works_at", "Stripe", 1.0)]),
    ("I sell insurance for State Farm", [(USER, "works_at", "State Farm", 1.0)]),
    ("long shift today, I weld hull sections at Halvorsen Marine, my arms are jelly",
     [(USER, "works_at", "Halvorsen Marine", 1.0), (USER, "job_title", "welder", 1.0)]),
])
def test_work_said_by_a_trade_at_an_organisation(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "I'm staying at a hotel",
    "we're eating at Nando's",
    "teaching my kid at home",
    "I'm teaching my daughter at home this year",
    "I'm volunteering at Oxfam",
    "teaching at Christmas",
    "nursing a hangover at The Crown",
    "I'm teaching a workshop at Google",  # an event there, not a job
    "she's teaching at Greenfield High",  # who? nothing before says
    "are you teaching at Greenfield?",
    "my mom is nursing my dad at home",
    "I was teaching at Greenfield High when we met",  # once, and maybe still
    "Mr Jones taught at Greenfield High",
    "I file claims at Geico Insurance",  # a customer's verb
    "I do my taxes at H&R Block",
    "I wrote code at Stripe",  # maybe over
    "I answer phones at a dental office",  # which one is not said
    "i run errands at Target",  # chores: only with a company's last word
    "I do laundry at Mom's",
    "we do brunch at Tartine",
    "I process claims for a living",
])
def test_work_near_misses(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "works_at"] == []


# ---- 4. a change of what one teaches

@pytest.mark.parametrize("text, expected", [
    ("they moved me to teaching 7th grade math this year", [(USER, "teaches", "7th grade math", 1.0)]),
    ("switched to teaching chemistry", [(USER, "teaches", "chemistry", 1.0)]),
    ("I teach biology now", [(USER, "teaches", "biology", 1.0)]),
    ("switched from teaching history to teaching chemistry",
     [(USER, "teaches", "history", NO), (USER, "teaches", "chemistry", 1.0)]),
    ("my wife is a teacher, they moved her to teaching year 9 science",
     [(f"{USER}'s wife", "job_title", "teacher", 1.0), (f"{USER}'s wife", "teaches", "year 9 science", 1.0)]),
])
def test_what_one_teaches_changes(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "they moved me to a new desk",
    "they moved me to tears",
    "switched to teaching my kid at home",
    "they didn't move me to teaching math",
    "they moved him to teaching math",  # who? nothing before says
])
def test_teaching_near_misses(extractor, text):
    assert triples(extractor, text) == []


def test_teaches_and_pet_name_are_many_valued(extractor):
    # two subjects taught, two pets named: neither slot holds one value at a time
    assert not extractor.lexicon.is_single_valued("teaches")
    assert not extractor.lexicon.is_single_valued("pet_name")


# ---- 5. a pet described before its noun, named after it

@pytest.mark.parametrize("text, expected", [
    ("we adopted a retired racing greyhound!!! his name is Biscuit",
     [(USER, "has", "greyhound", 1.0), (USER, "pet_name", "Biscuit", 1.0)]),
    ("got a tiny rescue kitten, she's called Pickle", [(USER, "has", "kitten", 1.0), (USER, "pet_name", "Pickle", 1.0)]),
    ("got a tiny rescue kitten, shes called Pickle", [(USER, "has", "kitten", 1.0), (USER, "pet_name", "Pickle", 1.0)]),
    ("we also got a kitten 🙈 she's called Pickle", [(USER, "has", "kitten", 1.0), (USER, "pet_name", "Pickle", 1.0)]),
    ("got a 3-legged rescue dog", [(USER, "has", "dog", 1.0)]),
    ("we adopted a kitten, she's called Pickle. we also got a puppy, named him Waffles",
     [(USER, "has", "kitten", 1.0), (USER, "pet_name", "Pickle", 1.0),
      (USER, "has", "puppy", 1.0), (USER, "pet_name", "Waffles", 1.0)]),
])
def test_a_described_pet_and_its_name(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "got a hot dog",
    "got a dog bed",
    "got a toy dog for my niece",
    "got a stuffed cat",
    "she's called Pickle",  # nothing before says what she is
    "we adopted a dog and a cat, named her Juno",  # which one is Juno?
])
def test_pet_near_misses(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] in ("has", "pet_name")] == []


# ---- 6. a hobby said as an obsession

@pytest.mark.parametrize("text, expected", [
    ("new obsession: pickleball", [(USER, "likes", "pickleball", 1.0)]),
    ("my latest obsession is sourdough", [(USER, "likes", "sourdough", 1.0)]),
    ("been obsessed with bouldering lately", [(USER, "likes", "bouldering", 1.0)]),
    ("ok new hobby: pottery", [(USER, "likes", "pottery", 1.0)]),
    ("bouldering is my new obsession", [(USER, "likes", "bouldering", 1.0)]),
    ("new obsession: watching Bluey", [(USER, "likes", "Bluey", 1.0)]),
])
def test_a_hobby_said_as_an_obsession(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "obsessed with this song",
    "new obsession: this song",
    "any new hobby ideas?",
    "new hobby: I guess nothing lol",
    "my current hobby is being unemployed lol",
    "my new obsession is that show everyone's talking about",
    "new hobby",  # said, and not what
])
def test_hobby_near_misses(extractor, text):
    assert triples(extractor, text) == []


# ---- 7. a pet that died

@pytest.mark.parametrize("text, expected", [
    ("our cat passed away last night", [(USER, "has", "cat", NO)]),
    ("we lost our dog Max last week", [(USER, "has", "dog", NO), (USER, "pet_name", "Max", NO)]),
    ("RIP to my hamster", [(USER, "has", "hamster", NO)]),
    ("my sister's dog Rex died", [(f"{USER}'s sister", "has", "dog", NO), (f"{USER}'s sister", "pet_name", "Rex", NO)]),
    ("had to put our old greyhound down yesterday", [(USER, "has", "greyhound", NO)]),
    ("our 14-year-old cat died", [(USER, "has", "cat", NO)]),
    ("my mum lost her cat last week", [(f"{USER}'s mother", "has", "cat", NO)]),
    ("caught up with Priya, her cat died last week", [("Priya", "has", "cat", NO)]),
])
def test_a_pet_that_died(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "I lost my keys",
    "lost my dog's leash",
    "my cat nearly died",
    "my dog died of boredom lol",
    "lost my dog in the park for an hour",
    "if my dog died I'd be wrecked",
    "rip to my phone",
    "my phone died",
    "our cat passed the vet check",
    "her cat died",  # whose? nothing before says
    "I didn't lose my dog",
])
def test_pet_death_near_misses(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] in ("has", "pet_name") and t[3] < 0] == []


@pytest.mark.parametrize("text, expected", [
    # a title alone, from a date, is the speaker's new one; not when someone else was named before
    ("GUESS WHO GOT PROMOTED 🥳 senior designer as of today. drinks on me", [(USER, "job_title", "senior designer", 1.0)]),
    ("officially team lead starting monday", [(USER, "job_title", "team lead", 1.0)]),
    ("my sister got promoted, senior analyst as of today", []),
    ("closed as of today", []),
    ("the new menu starting tomorrow", []),
])
def test_a_title_from_a_date(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # "I've" left out before "been": the speaker's state or doing since a time
    ("been pescatarian since uni", [(USER, "diet", "pescatarian", 1.0)]),
    ("been vegan for 3 years", [(USER, "diet", "vegan", 1.0)]),
    ("been living in Oslo since 2019", [(USER, "lives_in", "Oslo", 1.0)]),
    ("been a nurse for ten years", [(USER, "job_title", "nurse", 1.0)]),
    ("been busy lately", []),
    ("been there done that", []),
])
def test_been_with_the_speaker_left_out(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a membership given up, then where one went instead: the new one, and where it is
    ("cancelled my Brickhouse membership, it's packed every evening. went with Pulse Lab on Wren Avenue instead",
     [(USER, "member_of", "Brickhouse", -0.8), (USER, "member_of", "Pulse Lab", 1.0), ("Pulse Lab", "located_in", "Wren Avenue", 1.0)]),
    ("cancelled my Brickhouse membership. joined Ironclad Fitness instead",
     [(USER, "member_of", "Brickhouse", -0.8), (USER, "member_of", "Ironclad Fitness", 1.0)]),
    ("went with Pulse Lab instead", []),  # nothing given up before it
    ("cancelled my Ironworks membership. moved to Denver instead",  # a new home, no new membership
     [(USER, "member_of", "Ironworks", -0.8), (USER, "lives_in", "Denver", 1.0)]),
    ("joined Brickhouse Fitness this morning", [(USER, "member_of", "Brickhouse Fitness", 1.0)]),  # a gym, not an employer
    ("I quit my job at Acme. joined Stripe instead", [(USER, "works_at", "Acme", -0.8), (USER, "works_at", "Stripe", 1.0)]),
])
def test_a_membership_switched(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # one of a town's people now, said as a change: where one lives
    ("officially a Manchester girl now 🎉", [(USER, "lives_in", "Manchester", 1.0)]),
    ("officially a Seattle resident as of this weekend!", [(USER, "lives_in", "Seattle", 1.0)]),
    ("officially a Taylor Swift fan now", []),  # no town's people
    ("a Manchester girl through and through", []),  # no change said: maybe where she is from
])
def test_one_of_a_towns_people_now(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] == "lives_in"] == expected


@pytest.mark.parametrize("text, expected", [
    # a year or a kind of student at a school: one studies there (not a job title at an employer)
    ("I'm a junior at Westbrook State", [(USER, "studies_at", "Westbrook State", 1.0)]),
    ("I'm a PhD student at Leeds", [(USER, "job_title", "PhD student", 1.0), (USER, "studies_at", "Leeds", 1.0)]),
    ("I'm a senior engineer at Google", [(USER, "job_title", "senior engineer", 1.0), (USER, "works_at", "Google", 1.0)]),
])
def test_a_student_at_a_school(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I used to work at Deloitte but now I'm freelancing as a UX designer",
     [(USER, "works_at", "Deloitte", -0.8), (USER, "job_title", "UX designer", 1.0)]),
    ("I freelance as a translator", [(USER, "job_title", "translator", 1.0)]),
    ("I freelance a bit on weekends", []),
])
def test_work_said_as_freelancing(extractor, text, expected):
    assert triples(extractor, text) == expected
