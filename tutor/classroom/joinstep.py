"""The optional second step to join a class: a short pattern of symbols shown only on the
projector, which each phone taps after the code.

Why: the join code is on the board, so a script given the code by anyone in the room can fill
the class with names. The pattern is drawn for each class with ``secrets`` and never leaves the
teacher's screen (``Classroom.join_pattern`` needs the teacher's handle), so a script that has
only the code cannot join: it would have to guess. ``PATTERN_LENGTH`` symbols among
``SYMBOLS`` make 6**3 = 216 patterns, and every attempt, right or wrong, is a join attempt in the
per-browser and per-client limits (``tutor.classroom.access``): one browser tries 10 patterns a
minute, one network address 60. A person in the room reads it in two seconds; a determined
guesser on one address needs minutes, which is what the teacher's lock is for.

>>> is_pattern(("♠", "★", "♠")), is_pattern(("♠", "X", "♥")), is_pattern(("♠",))
(True, False, False)
>>> len(new_pattern()) == PATTERN_LENGTH
True
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence

#: The symbols a phone offers: the four card suits and two shapes, each easy to tell apart from
#: the back of a room and to name aloud.
SYMBOLS: tuple[str, ...] = ("♠", "♥", "♦", "♣", "★", "●")
PATTERN_LENGTH = 3


def new_pattern() -> tuple[str, ...]:
    """``PATTERN_LENGTH`` symbols of ``SYMBOLS`` drawn with ``secrets`` (a symbol may repeat)."""
    return tuple(secrets.choice(SYMBOLS) for _ in range(PATTERN_LENGTH))


def is_pattern(symbols: Sequence[str]) -> bool:
    """Whether ``symbols`` is a pattern at all: ``PATTERN_LENGTH`` symbols of ``SYMBOLS``."""
    return len(symbols) == PATTERN_LENGTH and all(symbol in SYMBOLS for symbol in symbols)


def stored_pattern(pattern: Sequence[str]) -> str:
    """A pattern as kept in ``class_sessions.join_pattern``: its symbols' indexes (``"405"``)."""
    return "".join(str(SYMBOLS.index(symbol)) for symbol in pattern)


def read_pattern(kept: str) -> tuple[str, ...]:
    """The pattern of its stored form."""
    return tuple(SYMBOLS[int(digit)] for digit in kept)


def pattern_matches(tapped: Sequence[str] | None, kept: str) -> bool:
    """Whether the symbols tapped are the stored pattern (compared in constant time)."""
    if tapped is None or not is_pattern(tapped):
        return False
    return hmac.compare_digest(stored_pattern(tapped), kept)
