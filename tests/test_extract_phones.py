"""The phone someone uses, and its carrier, are one at a time (``uses_phone``, ``mobile_carrier``, devices.py): had by a possessive,
bought, switched to or "on"; handed on or sold; a relative's is theirs. Near misses stay silent:
a question or a wish names no phone one has, "my mate 40 minutes away" is no Mate 40, a make
that is also a company ("华为") names a phone only with its model."""

from __future__ import annotations

import pytest

from bcg_rag.extract.lexicon import default_lexicon
from claims import USER, triples


@pytest.mark.parametrize("text, expected", [
    ("my Pixel 7 battery is dead by 3pm every day, is that normal or is it dying", [(USER, "uses_phone", "Pixel 7", 1.0)]),
    ("caved and got an iPhone 16. the green bubble jokes have finally stopped", [(USER, "uses_phone", "iPhone 16", 1.0)]),
    ("replaced it with a Galaxy S24, camera's honestly better", [(USER, "uses_phone", "Galaxy S24", 1.0)]),
    ("switched to an iPhone 13 mini. tiny but i love it", [(USER, "uses_phone", "iPhone 13 mini", 1.0)]),
    ("the battery was hopeless, I'm on a Fairphone 5 now", [(USER, "uses_phone", "Fairphone 5", 1.0)]),
    ("my phone is an iPhone 15", [(USER, "uses_phone", "iPhone 15", 1.0)]),
    ("bought a brand new iPhone 15", [(USER, "uses_phone", "iPhone 15", 1.0)]),
    ("I have a Samsung Galaxy S23 Ultra", [(USER, "uses_phone", "Samsung Galaxy S23 Ultra", 1.0)]),
    ("my sister got an iPhone 15 for her birthday", [(f"{USER}'s sister", "uses_phone", "iPhone 15", 1.0)]),
    ("I gave my old iPhone 11 to my mom", [(USER, "uses_phone", "iPhone 11", -0.8), (f"{USER}'s mother", "uses_phone", "iPhone 11", 1.0)]),
    ("sold my Pixel 6 on ebay", [(USER, "uses_phone", "Pixel 6", -0.8)]),
    ("我现在用的就是小米14", [(USER, "uses_phone", "小米14", 1.0)]),
    ("我用的是华为Mate 60 Pro", [(USER, "uses_phone", "华为Mate 60 Pro", 1.0)]),
    ("换了台iPhone 15，还挺好用", [(USER, "uses_phone", "iPhone 15", 1.0)]),
    ("我的手机是小米13", [(USER, "uses_phone", "小米13", 1.0)]),
    ("旧的Mate60给我爸用了", [(USER, "uses_phone", "Mate60", -0.8), (f"{USER}'s father", "uses_phone", "Mate60", 1.0)]),
    ("我妈换了个华为P60", [(f"{USER}'s mother", "uses_phone", "华为P60", 1.0)]),
    ("ok I'm back on Android. the iPhone just never felt right", [(USER, "uses_phone", "android", 1.0)]),
    ("went back to an iPhone 12", [(USER, "uses_phone", "iPhone 12", 1.0)]),
    # near misses
    ("my mate 40 minutes away has a dog", []),
    ("thinking about getting a Pixel 9", []),
    ("should I get the iPhone 16 or the Galaxy S24?", []),
    ("my old iPhone 8 is in a drawer", [(USER, "uses_phone", "iPhone 8", -0.8)]),  # the one before (no longer used)
    ("the pixel 8 pro camera is insane", []),
    ("我在华为上班", [(USER, "works_at", "华为", 1.0)]),
    ("小米14拍照跟iPhone比差多少？", []),
    ("I'm on the fence", []),
    ("updated to Android 14", []),
])
def test_phone_used(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] in ("uses_phone", "works_at")] == expected


def test_a_new_phone_replaces_the_last():
    assert default_lexicon().is_single_valued("uses_phone") and default_lexicon().is_single_valued("mobile_carrier")


@pytest.mark.parametrize("text, expected", [
    ("also my carrier Tellvane keeps dropping calls on the train, is that normal??", [(USER, "mobile_carrier", "Tellvane", 1.0)]),
    ("I ported my number to Brightlink Mobile, half the price of Tellvane", [(USER, "mobile_carrier", "Brightlink Mobile", 1.0)]),
    ("携号转网到了电信，便宜一半", [(USER, "mobile_carrier", "电信", 1.0)]),
    ("my network is awful today", []),
    ("switched to Brightlink Mobile", []),  # which kind of thing was switched is not said
])
def test_mobile_carrier(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] == "mobile_carrier"] == expected


def test_a_text_names_a_phone_by_its_model():
    """A newer raw text is a phone's update only when it names one (unstructured.NAMED_BY_A_MOVE)."""
    from types import SimpleNamespace

    from bcg_rag.naming import names_something

    memory = SimpleNamespace(extractor=None)
    assert names_something(memory, "caved and switched to a pixel 8, the camera is insane", "uses_phone")
    assert names_something(memory, "新入手的iPhone 16 Pro", "uses_phone")
    assert not names_something(memory, "I'll just replace the battery for now I think", "uses_phone")
    assert not names_something(memory, "Anyway Tom says hi from Leeds", "uses_phone")


@pytest.mark.parametrize("text, expected", [
    ("新入手的iPhone 16 Pro 微信聊天记录怎么从华为迁过来 折腾一晚上了", [(USER, "uses_phone", "iPhone 16 Pro", 1.0)]),
    ("how do I move my photos to my new Pixel 8?", [(USER, "uses_phone", "Pixel 8", 1.0)]),
    ("他新买的iPhone 15怎么样？", []),  # his, not the speaker's
    ("小米14拍照跟iPhone比差多少？", []),  # asked about, not had
    ("should I get a new Pixel 9?", []),
])
def test_a_new_phone_a_question_takes_for_granted(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] == "uses_phone"] == expected

