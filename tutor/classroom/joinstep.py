"""The optional second step to join a class: a short pattern of symbols shown only on the
projector, which each phone taps after the code.

Why: the join code is on the board, so a script given the code by anyone in the room can fill
the class with names. The pattern is drawn for each class with ``secrets`` and never leaves the
teacher's screen (``Classroom.join_pattern`` needs the teacher's handle), so a script that has
only the code cannot join: it would have to guess.

How long: ``PATTERN_LENGTH`` symbols among ``SYMBOLS`` make 6**8 = 1,679,616 patterns, and a
wrong pattern is a failure counted per class and per network address
(``WRONG_PATTERNS_PER_MINUTE``, 5 a minute, in ``tutor.classroom.tries``). Twenty addresses
guessing together try at most 100 patterns a minute, each a distinct one at best: the chance
that one is right within a minute is at most 100 / 1,679,616, about 6 in 100,000
(``pattern_odds``), below the 1 in 10,000 a class may risk. Seven symbols would give
100 / 279,936, 3.6 in 10,000: too many. A person in the room reads eight symbols in a few seconds.

>>> is_pattern(("♠", "★", "♠", "●", "♥", "♦", "♣", "♠")), is_pattern(("♠", "X", "♥"))
(True, False)
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
PATTERN_LENGTH = 8
#: Wrong patterns a minute into one class from one network client (``tutor.classroom.tries``):
#: the mis-taps of one class behind one address, and few enough that twenty addresses guessing
#: together stay below one chance in 10,000 a minute (``pattern_odds``).
WRONG_PATTERNS_PER_MINUTE = 5


def pattern_odds(
    addresses: int, minutes: float = 1.0, per_minute: int = WRONG_PATTERNS_PER_MINUTE
) -> float:
    """The chance that ``addresses`` guessers, each failing ``per_minute`` patterns a minute, tap
    the class's pattern within ``minutes``: at most the guesses over the patterns (a union
    bound; each guess is at best a pattern not tried yet).

    >>> f"{pattern_odds(addresses=20):.2e}", pattern_odds(addresses=20) <= 1e-4
    ('5.95e-05', True)
    """
    guesses = addresses * per_minute * minutes
    patterns: int = len(SYMBOLS) ** PATTERN_LENGTH
    return min(1.0, guesses / patterns)


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
