"""What a nickname may be: the rules ``clean_nickname`` applies before one is stored.

A module of its own because the rules are about Unicode, not databases: which characters draw as
nothing, which alphabets look alike. Class mode's roster (``tutor.classroom``) and the learners'
statements both apply them.
"""

from __future__ import annotations

import re
import unicodedata

from tutor.store.base import NICKNAME_MAX
from tutor.store.errors import InvalidNicknameError

_NICKNAME = re.compile(r"^[\w .'-]+$")
#: Combining marks in a row after a letter: Devanagari, Tamil or Thai write a vowel sign or a
#: virama on a letter (``प्रिया``, ``தமிழ்``, ``ที่``: one or two), while a pile of them is
#: a name drawn over its neighbours' lines on the roster.
MARKS_IN_A_ROW = 3
#: Letters that draw as nothing yet count as letters (``\w``): Hangul fillers, the Khmer
#: inherent vowels, the combining grapheme joiner and variation selectors. Format characters
#: (zero-width spaces, joiners, direction marks: category Cf) are caught by their category.
_INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
    "\u2800\ufe00\ufe01\ufe02\ufe03\ufe04\ufe05\ufe06\ufe07\ufe08\ufe09\ufe0a"
    "\ufe0b\ufe0c\ufe0d\ufe0e\ufe0f"
)
#: Alphabets whose letters look alike (Latin a, Cyrillic а, Greek α): one name mixing them is a
#: look-alike of another name, so a nickname uses one of them only.
_CONFUSABLE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"})


def _script(char: str) -> str | None:
    """The alphabet of a letter among the look-alike ones (``_CONFUSABLE_SCRIPTS``), else None."""
    if not char.isalpha():
        return None
    first = unicodedata.name(char, "").split(" ", 1)[0]
    return first if first in _CONFUSABLE_SCRIPTS else None


def _without_marks_on_letters(nickname: str) -> str:
    """``nickname`` with the combining marks that sit on a letter taken out (at most
    ``MARKS_IN_A_ROW`` of them after each): what the allowed characters are read on. A mark at
    the start, after a space or punctuation, or past the count stays, and is refused.

    >>> _without_marks_on_letters("प्रिया"), _without_marks_on_letters("́a")
    ('परय', '́a')
    """
    kept: list[str] = []
    run = 0
    for char in nickname:
        is_mark = unicodedata.category(char) in ("Mn", "Mc")
        if is_mark and kept and (kept[-1].isalpha() or run) and run < MARKS_IN_A_ROW:
            run += 1
            continue
        run = 0
        kept.append(char)
    return "".join(kept)


def clean_nickname(raw: str) -> str:
    """A nickname as stored: trimmed, NFC-normalised, 1 to 24 letters (with the vowel signs and
    marks a script writes on them), digits, spaces, . ' -

    Refused (``InvalidNicknameError`` with its ``code``): invisible characters, full-width or
    styled letters, and a mix of look-alike alphabets, because on a projected roster each would
    let one student pass for another (``Ana`` with a Cyrillic ``А``) or be nobody at all.

    >>> clean_nickname(" Zoé ")
    'Zoé'
    >>> try:
    ...     clean_nickname("\u0410na")  # a Cyrillic A before Latin letters
    ... except InvalidNicknameError as error:
    ...     error.code
    'mixed-scripts'
    """
    nickname = unicodedata.normalize("NFC", raw).strip()
    if not nickname:
        raise InvalidNicknameError("a nickname cannot be empty", "empty")
    if len(nickname) > NICKNAME_MAX:
        raise InvalidNicknameError(
            f"a nickname has at most {NICKNAME_MAX} characters", "too-long", most=NICKNAME_MAX
        )
    if any(char in _INVISIBLE or unicodedata.category(char) == "Cf" for char in nickname):
        raise InvalidNicknameError("a nickname cannot hold invisible characters", "invisible")
    if unicodedata.normalize("NFKC", nickname) != nickname:
        raise InvalidNicknameError(
            "a nickname uses ordinary letters, not full-width or styled ones", "compatibility"
        )
    if not _NICKNAME.match(_without_marks_on_letters(nickname)):
        raise InvalidNicknameError(
            "a nickname uses letters, digits, spaces, dots, hyphens and apostrophes only"
        )
    scripts = {script for script in map(_script, nickname) if script is not None}
    if len(scripts) > 1:
        raise InvalidNicknameError(
            f"a nickname uses one alphabet, not a mix of {' and '.join(sorted(scripts))}",
            "mixed-scripts",
            scripts=tuple(sorted(scripts)),
        )
    return nickname
