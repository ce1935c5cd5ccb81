"""Exact numbers written by people, parsed with bounds before any arithmetic.

``Fraction("1e9999999")`` builds a ten-million-digit integer: nine typed characters froze the
whole server for seconds. Every number that comes from outside (a learner's typed answer, a
lesson file, a rules file) goes through ``parse_exact`` instead, which looks at the text first
and only ever builds a ``Fraction`` from a few digits:

- at most ``MAX_LENGTH`` characters, checked before anything else;
- only plain digits, an optional sign, an optional decimal point or one ``/`` (``3``, ``-2``,
  ``1.5``, ``3/2``): no exponent, no underscores, no other scripts' digits, no ``inf``/``nan``;
- a value within ``LIMIT`` either way, and a ratio whose denominator is not 0.

The bounds are far beyond anything a blackjack lesson asks (a bet of a few chips, a total of
21, a payout of 3/2) and far below anything that costs time.

>>> parse_exact("3/2"), parse_exact("-2"), parse_exact("1.5")
(Fraction(3, 2), Fraction(-2, 1), Fraction(3, 2))
>>> parse_exact("1e9999999")
Traceback (most recent call last):
...
tutor.exact.NumberError: '1e9999999' is not a number written as 3, -2, 1.5 or 3/2 (no exponent)
>>> read_exact("17/0") is None
True
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

#: The most characters a number may have; "-1000000.000000000000001" has 24.
MAX_LENGTH = 24
#: The largest magnitude accepted: no chip count, total or payout in a lesson comes near it.
LIMIT = 10**6

_NUMBER = re.compile(
    r"(?P<sign>[-+]?)(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]*))?|\.(?P<only>[0-9]+)"
    r"|(?P<num>[0-9]+)/(?P<den>[0-9]+))"
)


class NumberError(ValueError):
    """A text or value that is not an exact number within the bounds; the message says why."""


def parse_exact(raw: object) -> Fraction:
    """``raw`` as an exact number, or ``NumberError`` saying why it is refused.

    Accepts an ``int`` (never a ``bool``), a ``Fraction``, a finite ``float`` (through its
    shortest text, so ``0.1`` is one tenth) or a text; every kind is held to the same bounds.
    """
    if isinstance(raw, bool):
        raise NumberError(f"{raw!r} is a yes/no value, not a number")
    if isinstance(raw, int | Fraction):
        # Cheap: no text to expand; a huge int is never printed (its text is what costs).
        return _bounded(Fraction(raw), None)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise NumberError(f"{raw!r} is not a number within ±{LIMIT:,}")
        raw = repr(raw)
    if not isinstance(raw, str):
        raise NumberError(f"expected a number such as 3, -2, 1.5 or 3/2, not {type(raw).__name__}")
    text = raw.strip()
    if len(text) > MAX_LENGTH:
        raise NumberError(
            f"{text[:MAX_LENGTH]!r}… is too long for a number (at most {MAX_LENGTH} characters)"
        )
    match = _NUMBER.fullmatch(text)
    if match is None:
        hint = " (no exponent)" if "e" in text.lower() else ""
        raise NumberError(f"{text!r} is not a number written as 3, -2, 1.5 or 3/2{hint}")
    sign = -1 if match["sign"] == "-" else 1
    if match["den"] is not None:
        denominator = int(match["den"])
        if denominator == 0:
            raise NumberError(f"{text!r} divides by 0")
        value = Fraction(sign * int(match["num"]), denominator)
    else:
        whole = match["int"] or "0"
        decimals = match["frac"] or match["only"] or ""
        value = Fraction(sign * int(whole + decimals), 10 ** len(decimals))
    return _bounded(value, text)


def read_exact(raw: object) -> Fraction | None:
    """``parse_exact`` for input that is simply wrong when it is not a number: None then."""
    try:
        return parse_exact(raw)
    except NumberError:
        return None


def _bounded(value: Fraction, text: str | None) -> Fraction:
    if abs(value) > LIMIT:
        shown = "this number" if text is None else repr(text)
        raise NumberError(f"{shown} is beyond ±{LIMIT:,}")
    return value
