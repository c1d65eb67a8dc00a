"""Synthetic, deterministic streams for the scale benchmarks (no data files, no network).

``structured(n, users, seed)`` yields ``observe`` items (one claim each); ``messages(n,
users, seed)`` yields ``add_message`` dicts in English that the offline extractor reads.
Both keep the memory growing the way a long-lived one does: new people keep appearing
(about one new named person per four events, so a 100k memory knows ~25k entities), and
known people change jobs and homes, so slots get rival values and functional
refutations. The texts are distinct (a counter in each), so no embedding is ever reused.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Iterator

FIRST = """Ada Alan Alma Amir Anna Arlo Aya Bea Ben Bruno Cara Chen Cleo Dara Dev Dina Eli Emil Emma Ezra Farah Finn
Gia Gus Hana Hugo Ida Ines Ivan Jade Joel Jon Juno Kai Kira Lars Lea Leo Lina Luca Mae Mara Max Mila Nia Nico Nora
Omar Otto Pia Quinn Rafa Ravi Rosa Ruth Sami Sara Seth Sofia Tara Teo Tom Uma Vera Wes Yara Yuki Zane Zoe""".split()
LAST = """Abbott Adler Bauer Berg Blake Brandt Carver Castro Dalton Diaz Ellis Engel Falk Ferreira Fischer Garcia Grant
Haas Hale Hart Ibsen Jansen Kahn Keller Klein Lange Lund Maier Marsh Moreno Nagy Novak Olsen Ortiz Park Petrov Quint
Ramos Reyes Roth Sato Schulz Silva Stone Tanaka Torres Ueda Vance Vogel Wagner Walsh Weber Wolf Young Zeller""".split()
ORGS = """Acme Globex Initech Umbrella Hooli Vandelay Stark Wayne Tyrell Cyberdyne Soylent Oscorp Monarch Gringotts
Aperture Wonka Duff Nakatomi Virtucon Zorg Kraken Weyland Contoso Fabrikam Northwind""".split()
CITIES = """Berlin Paris Lisbon Toronto Dallas Chengdu Osaka Lyon Porto Madrid Oslo Prague Vienna Dublin Austin Boston
Denver Seattle Quebec Munich Hamburg Milan Turin Seville Bergen Krakow Leeds Cork Perth Hobart""".split()
COUNTRIES = """Canada France Spain Italy Japan Norway Brazil Kenya Chile Peru Ghana India Poland Greece Austria""".split()
POSITIONS = "defender goalkeeper midfielder striker winger".split()
THINGS = "jazz tennis sushi hiking chess opera pottery climbing baking cycling salsa sailing".split()

# Subject templates: the offline extractor reads each into one claim (subject, predicate, value).
PERSON = [
    ("{p} works at {org}. ({i})", "org"),
    ("{p} lives in {city}. ({i})", "city"),
    ("{p} is a citizen of {country}. ({i})", "country"),
    ("{p} plays the position of {pos}. ({i})", "pos"),
    ("{p} was born in {city}. ({i})", "city"),
]
USER = [
    ("I live in {city} now. ({i})", "city"),
    ("I love {thing}. ({i})", "thing"),
    ("I work at {org} these days. ({i})", "org"),
]
STRUCTURED_PREDICATES = ["works_at", "lives_in", "citizen_of", "plays_position", "born_in"]

START = datetime(2023, 1, 1)


def _value(rng: random.Random, kind: str) -> str:
    return rng.choice({"org": ORGS, "city": CITIES, "country": COUNTRIES, "pos": POSITIONS, "thing": THINGS}[kind])


def _person(k: int) -> str:
    """The k-th distinct full name (a third word after the first 4,000: names never run out)."""
    first, last = FIRST[k % len(FIRST)], LAST[(k // len(FIRST)) % len(LAST)]
    extra = k // (len(FIRST) * len(LAST))
    return f"{first} {last}" + (f" {LAST[extra % len(LAST)]}-{extra}" if extra else "")


def _timestamp(i: int, n: int) -> str:
    """Evidence spread over 2023-2024 in arrival order (minutes apart, never in the future)."""
    # Calendar arithmetic, not a month of 28 days: days 29-31 of each month used to come out
    # dated before day 28, so one event in ten arrived older than the ones before it.
    return (START + timedelta(minutes=int(i * (2 * 365 * 24 * 60) / max(n, 1)))).isoformat()


def _people_seen(i: int) -> int:
    return 1 + i // 4


def messages(n: int, users: int = 1, seed: int = 13) -> Iterator[dict]:
    rng = random.Random(seed)
    for i in range(n):
        user = f"user{i % users:04d}"
        per_user_i = i // users
        if rng.random() < 0.15:
            template, kind = rng.choice(USER)
            text = template.format(i=i, **{kind: _value(rng, kind)})
        else:
            seen = _people_seen(per_user_i)
            # Mostly someone new or recent, sometimes an old acquaintance (a rival value).
            k = seen - 1 if rng.random() < 0.5 else rng.randrange(seen)
            template, kind = rng.choice(PERSON)
            text = template.format(p=_person(k), i=i, **{kind: _value(rng, kind)})
        yield dict(text=text, user_id=user, timestamp=_timestamp(i, n), source=f"chat:{i}")


def structured(n: int, users: int = 1, seed: int = 13) -> Iterator[dict]:
    rng = random.Random(seed)
    kinds = ["org", "city", "country", "pos", "city"]
    for i in range(n):
        user = f"user{i % users:04d}"
        seen = _people_seen(i // users)
        k = seen - 1 if rng.random() < 0.5 else rng.randrange(seen)
        j = rng.randrange(len(STRUCTURED_PREDICATES))
        value = _value(rng, kinds[j])
        person = _person(k)
        text = f"{person} {STRUCTURED_PREDICATES[j].replace('_', ' ')} {value} (note {i})"
        yield dict(text=text, user_id=user, timestamp=_timestamp(i, n), source=f"api:{i}",
                   claim=dict(subject=person, predicate=STRUCTURED_PREDICATES[j], value=value,
                              stance=1.0 if rng.random() < 0.9 else -0.6))


def queries(n: int, users: int = 1, seed: int = 29) -> list[tuple[str, str]]:
    """(question, user) pairs about people the streams talk about."""
    rng = random.Random(seed)
    asks = ["Where does {p} work?", "Where does {p} live?", "Which country is {p} a citizen of?",
            "What position does {p} play?", "Where was {p} born?", "Where do I live?", "What do I love?"]
    out = []
    for i in range(n):
        user = f"user{rng.randrange(users):04d}"
        out.append((rng.choice(asks).format(p=_person(rng.randrange(max(1, 40 + i)))), user))
    return out
