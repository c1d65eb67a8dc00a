"""Facts about other people said the way chat says them (the phrasings chat_fresh32's read half
missed): a time word between a name and its verb, a child's doubled name, a transfer to a city,
a couple that married, a job left for a job elsewhere."""

import pytest



def _claims(extractor, text):
    return {(c.subject, c.predicate, c.value, c.stance > 0) for c in extractor.extract(text, user_id="u1")}


@pytest.mark.parametrize(
    "text, claim",
    [
        # a school term or "this time" between the subject and the verb is no part of who it is
        ("我女儿这学期转学到明德实验学校了", ("u1's daughter", "studies_at", "明德实验学校", True)),
        # a doubled given name is a name, though jieba reads 朵朵 as a measure word
        ("朵朵这学期转学到明德实验学校了", ("朵朵", "studies_at", "明德实验学校", True)),
        # posted by the company to a city, 去了 after it
        ("阿珍被公司调到深圳去了，她挺不情愿的", ("阿珍", "works_in", "深圳", True)),
        # who married whom, the partner named after the kin word, the time after the pair
        ("跟你说个好消息，我姐和她男朋友阿杰上周领证了！", ("u1's sister", "married_to", "阿杰", True)),
        ("小林和小王结婚了", ("小林", "married_to", "小王", True)),
        # a job left for a job at another employer
        ("Dan's left Ocado for a job at Sainsbury's head office.", ("Dan", "works_at", "Sainsbury's", True)),
        ("Dan's left Ocado for a job at Sainsbury's head office.", ("Dan", "works_at", "Ocado", False)),
        # a firm named by two names joined by &
        ("Halden & Voss have moved their head office to Manchester, so Theo's commuting.",
         ("Halden & Voss", "headquarters", "Manchester", True)),
        # someone else's relative by name is that name; "she and her boyfriend Tom": both of them
        ("Her husband Mark works at Tesco.", ("Mark", "works_at", "Tesco", True)),
        ("Update on Hannah: she and her boyfriend Tom moved to York.", ("Hannah", "lives_in", "York", True)),
        ("Update on Hannah: she and her boyfriend Tom moved to York.", ("Tom", "lives_in", "York", True)),
        # a move said, then where to in the next clause
        ("我姐又搬家了，这回是去了南京，姐夫在那边找了份新工作", ("u1's sister", "lives_in", "南京", True)),
        # the home left, named by its town; where one sleeps now at someone's place
        ("I moved out of the Bristol flat", ("u1", "lives_in", "Bristol", False)),
        ("I'm crashing at my brother's place in Bath for now", ("u1", "lives_in", "Bath", True)),
        # who the one just named is to the user, said by a pronoun
        ("Tom's here. he's my brother", ("u1", "has_brother", "Tom", True)),
        ("caught up with Priya today, she's my cousin", ("u1", "has_cousin", "Priya", True)),
        # "just after Christmas" is when, not where
        ("Update on Hannah: she moved to York just after Christmas.", ("Hannah", "lives_in", "York", True)),
    ],
)
def test_facts_about_others(extractor, text, claim):
    assert claim in _claims(extractor, text)


@pytest.mark.parametrize(
    "text, absent",
    [
        ("我和老公结婚了", ("u1", "married_to", "老公", True)),  # a kin word is no partner's name
        ("天天加班好累", ("天天", "works_at", "加班", True)),  # 天天 is "every day"
        ("His sister lives in Leeds.", ("u1's sister", "lives_in", "Leeds", True)),  # his, not the user's
        ("met Sam, he's our neighbour", ("u1", "has_neighbor", "Sam", True)),  # "our": whose is not said
        ("我搬家了，去了宜家买东西", ("u1", "lives_in", "宜家买东西", True)),  # an errand after a move is no home
        ("crashing at Tom's flat in Leeds tonight", ("u1", "lives_in", "Leeds", True)),  # one night is a stay
    ],
)
def test_no_name_where_there_is_none(extractor, text, absent):
    claims = _claims(extractor, text)
    assert absent not in claims
    assert not any(subject == "天天" for subject, *_ in claims)
    assert not any(subject.startswith("u1's") for subject, *_ in claims)


@pytest.mark.parametrize(
    "text, owner",
    [("楼下王阿姨家那只泰迪老是冲着可乐叫", "王阿姨"), ("王阿姨家的泰迪老是叫", "王阿姨"), ("我家那只橘猫又胖了", "u1")],
)
def test_a_pet_by_its_owners_home(extractor, text, owner):
    """"王阿姨家那只泰迪": the animal of the household named before 家, as "我家那只橘猫" is the user's."""
    assert any(c[0] == owner and c[1] == "has" and c[3] for c in _claims(extractor, text))
