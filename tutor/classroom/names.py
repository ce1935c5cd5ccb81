"""Names given by the app: two friendly words instead of a typed nickname, for a class whose
teacher turns them on (``Classroom.create(..., given_names=language)``).

Why: a typed nickname is the one text a stranger puts on the projector; with names given, no
student types anything a class reads, and a flood of joins shows as friendly names the teacher
removes at once. The words are ours, in French and English; the French adjectives are the same
for both genders (``agile``, ``calme``), so that every pairing agrees. 30 animals and 30
adjectives make 900 names a language, three times ``MAX_SEATS``: a draw with ``secrets`` that
meets a name already seated draws again (``Classroom.join``).

>>> all(len(name) <= 24 for name in every_name("fr") + every_name("en"))
True
>>> len(set(every_name("fr"))), len(set(every_name("en")))
(900, 900)
"""

from __future__ import annotations

import secrets

#: Animals and adjectives; French names are "animal adjective" (``Loutre agile``), English ones
#: "Adjective Animal" (``Brave Otter``).
WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "fr": (
        (
            "Renard", "Loutre", "Hibou", "Panda", "Koala", "Castor", "Dauphin", "Lynx",
            "Faucon", "Zèbre", "Tigre", "Lama", "Manchot", "Phoque", "Hérisson", "Écureuil",
            "Colibri", "Pingouin", "Blaireau", "Chamois", "Bison", "Lièvre", "Héron",
            "Corbeau", "Moineau", "Mouette", "Baleine", "Tortue", "Girafe", "Gazelle",
        ),
        (
            "agile", "calme", "rapide", "sage", "brave", "drôle", "libre", "habile",
            "tranquille", "aimable", "fidèle", "solide", "magique", "pratique", "poétique",
            "modeste", "honnête", "fantastique", "sympathique", "unique", "lucide", "placide",
            "souple", "alerte", "lyrique", "insolite", "utile", "paisible", "sensible",
            "agréable",
        ),
    ),
    "en": (
        (
            "Otter", "Fox", "Owl", "Panda", "Koala", "Beaver", "Dolphin", "Lynx", "Falcon",
            "Zebra", "Tiger", "Llama", "Penguin", "Seal", "Hedgehog", "Squirrel",
            "Hummingbird", "Badger", "Bison", "Hare", "Heron", "Raven", "Sparrow", "Gull",
            "Whale", "Turtle", "Giraffe", "Gazelle", "Puffin", "Robin",
        ),
        (
            "Brave", "Calm", "Clever", "Cheerful", "Curious", "Gentle", "Happy", "Jolly",
            "Kind", "Lively", "Lucky", "Merry", "Nimble", "Patient", "Polite", "Quick",
            "Quiet", "Bright", "Bold", "Sunny", "Swift", "Tidy", "Witty", "Wise", "Eager",
            "Friendly", "Keen", "Proud", "Steady", "Daring",
        ),
    ),
}
LANGUAGES = frozenset(WORDS)


def _pair(language: str, animal: str, adjective: str) -> str:
    return f"{animal} {adjective}" if language == "fr" else f"{adjective} {animal}"


def given_name(language: str) -> str:
    """A name of two friendly words in ``language`` (``fr`` or ``en``), drawn with ``secrets``."""
    animals, adjectives = WORDS[language]
    return _pair(language, secrets.choice(animals), secrets.choice(adjectives))


def every_name(language: str) -> list[str]:
    """Every name ``given_name`` can draw in ``language`` (for the tests and the docs)."""
    animals, adjectives = WORDS[language]
    return [_pair(language, animal, adjective) for animal in animals for adjective in adjectives]
