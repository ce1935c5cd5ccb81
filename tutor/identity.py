"""A learner's private identity without accounts: one random secret, and names that only display.

Why no accounts: the tutor asks for no e-mail and no password, so the only thing that can tell two
learners apart is a secret the browser keeps. That secret is a *token* of 130 random bits from
:mod:`secrets` (more than the 128 bits that make guessing one infeasible), written in Crockford's
base32 so that the same 26 characters are also the *recovery code* a learner reads on one device
and types on another: no look-alike letters (I, L, O are read as 1, 1, 0; U is left out), any
case, any spacing or hyphens. Nothing in a token comes from the learner's nickname.

The server stores only ``token_hash(token)``, a SHA-256: the token is random enough that a fast
hash keeps it out of the database (a stolen database does not let anyone act as a learner), and a
lookup by hash stays one index probe.

A nickname is only a display name. Two learners may pick the same one; where a clash matters (two
students in one class), names are compared by :func:`fold_nickname`, so that "Camille Dupont" and
"camille dupönt" are the same name on the teacher's screen.

>>> token = new_token()
>>> len(token), parse_code(format_code(token).lower()) == token
(26, True)
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from tutor.refusal import Refusal, RefusedError

#: Crockford's base32: the digits and the letters without I, L, O (look-alikes of 1 and 0) and U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: 26 characters of 5 bits: 130 random bits, at least the 128 that make a guess infeasible.
TOKEN_LENGTH = 26
TOKEN_BITS = 5 * TOKEN_LENGTH
#: What a learner may type for a character: Crockford's decoding of the look-alikes.
_READ_AS = {"O": "0", "I": "1", "L": "1"}
#: Characters a person puts between groups when copying a code; they carry nothing.
_SEPARATORS = frozenset(" -_.\t\n\r\u00a0")


class InvalidRecoveryCodeError(RefusedError, ValueError):
    """A recovery code that cannot be one: characters outside the alphabet
    (``recovery-code-characters``, with them) or the wrong length (``recovery-code-length``)."""

    codes = ("recovery-code-characters", "recovery-code-length")

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(Refusal(code, params), message)


def random_code(characters: int) -> str:
    """``characters`` random Crockford base32 characters from ``secrets`` (5 bits each): a
    learner's token, a class's teacher key.

    >>> code = random_code(15)
    >>> len(code), set(code) <= set(ALPHABET)
    (15, True)
    """
    value = secrets.randbits(5 * characters)
    digits = []
    for _ in range(characters):
        value, digit = divmod(value, 32)
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def new_token() -> str:
    """A new learner secret: 130 bits from ``secrets`` as 26 Crockford base32 characters.

    >>> token = new_token()
    >>> len(token), set(token) <= set(ALPHABET)
    (26, True)
    """
    return random_code(TOKEN_LENGTH)


def group_code(code: str) -> str:
    """A code as a person reads it aloud or copies it: groups of 4 or 5 joined by hyphens.

    Short groups are easier to copy without losing one's place; the hyphens are ignored by
    :func:`read_code`, so the displayed form is also a valid input.

    >>> group_code("0123456789ABCDEFGHJKMNPQRS")
    '01234-56789-ABCD-EFGH-JKMN-PQRS'
    >>> group_code("0123456789ABCDE")
    '01234-56789-ABCDE'
    """
    groups = -(-len(code) // 5)  # as few groups as groups of at most 5 allow
    fives = len(code) - 4 * groups  # the rest are fours
    parts = []
    start = 0
    for group in range(groups):
        size = 5 if group < fives else 4
        parts.append(code[start : start + size])
        start += size
    return "-".join(parts)


def format_code(token: str) -> str:
    """The token as a learner reads it aloud or copies it (:func:`group_code`).

    >>> format_code("0123456789ABCDEFGHJKMNPQRS")
    '01234-56789-ABCD-EFGH-JKMN-PQRS'
    """
    return group_code(parse_code(token))


def read_code(text: str) -> str:
    """What a person meant by a code they copied: case, spaces and hyphens ignored, O read as 0
    and I or L as 1 (Crockford's rules, because those are the mistakes people make copying).
    ``InvalidRecoveryCodeError`` names the characters outside the alphabet; the length is the
    caller's to check.

    >>> read_code(" ol234-abcd ")
    '01234ABCD'
    """
    cleaned = "".join(char for char in text if char not in _SEPARATORS).upper()
    code = "".join(_READ_AS.get(char, char) for char in cleaned)
    wrong = sorted({char for char in code if char not in ALPHABET})
    if wrong:
        shown = " ".join(repr(char) for char in wrong)
        raise InvalidRecoveryCodeError(
            "recovery-code-characters",
            f"a recovery code uses the digits and the letters A-Z except I, L, O and U; "
            f"this one has {shown}",
            characters=" ".join(wrong[:10]),
        )
    return code


def parse_code(text: str) -> str:
    """The token a learner meant by ``text`` (:func:`read_code`), 26 characters long.

    >>> parse_code(" 01234-56789-abcd-efgh-jkmn-pqrs ")
    '0123456789ABCDEFGHJKMNPQRS'
    >>> parse_code("OI234-56789-ABCD-EFGH-JKMN-PQRS")  # O and I typed for 0 and 1
    '0123456789ABCDEFGHJKMNPQRS'
    >>> parse_code("0123")
    Traceback (most recent call last):
    ...
    tutor.identity.InvalidRecoveryCodeError: a recovery code has 26 characters (letters and \
digits), this one has 4
    """
    code = read_code(text)
    if len(code) != TOKEN_LENGTH:
        raise InvalidRecoveryCodeError(
            "recovery-code-length",
            f"a recovery code has {TOKEN_LENGTH} characters (letters and digits), "
            f"this one has {len(code)}",
            expected=TOKEN_LENGTH,
            length=len(code),
        )
    return code


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 in hex (64 characters).

    Give the canonical token (from :func:`new_token` or :func:`parse_code`): the hash of a code
    typed in lower case with hyphens is a different hash.

    >>> len(token_hash(new_token()))
    64
    """
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def fold_nickname(name: str) -> str:
    """The key two nicknames are compared by for display clashes: accents dropped (NFKD, then
    combining marks removed), case folded, inner whitespace collapsed.

    Why: two people in a class called "Camille Dupont" and "camille  DUPÖNT" look like the same
    person on the teacher's screen, so the second must pick another name. The fold is a key only;
    the nickname is displayed as typed.

    >>> fold_nickname("Camille Dupont") == fold_nickname("camille  DUPONT") == fold_nickname(
    ...     "Camille Dupönt")
    True
    >>> fold_nickname(" Zoé  Straße ")
    'zoe strasse'
    """
    folded = _without_marks(name).casefold()
    # Case folding can itself produce decomposable letters (İ folds to i with a dot above).
    return " ".join(_without_marks(folded).split())


def _without_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))
