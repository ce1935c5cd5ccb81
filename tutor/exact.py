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

from tutor.refusal import Refusal, RefusedError

#: The most characters a number may have; "-1000000.000000000000001" has 24.
MAX_LENGTH = 24
#: The largest magnitude accepted: no chip count, total or payout in a lesson comes near it.
LIMIT = 10**6

_NUMBER = re.compile(
    r"(?P<sign>[-+]?)(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]*))?|\.(?P<only>[0-9]+)"
    r"|(?P<num>[0-9]+)/(?P<den>[0-9]+))"
)


class NumberError(RefusedError, ValueError):
    """A text or value that is not an exact number within the bounds; the message says why, the
    refusal's code which bound (``not-a-number`` with the text as shown, ``number-too-long``,
    ``number-divides-by-zero``, ``number-beyond``)."""

    codes = ("not-a-number", "number-too-long", "number-divides-by-zero", "number-beyond")

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(Refusal(code, params), message)


def parse_exact(raw: object) -> Fraction:
    """``raw`` as an exact number, or ``NumberError`` saying why it is refused.

    Accepts an ``int`` (never a ``bool``), a ``Fraction``, a finite ``float`` (through its
    shortest text, so ``0.1`` is one tenth) or a text; every kind is held to the same bounds.
    """
    if isinstance(raw, bool):
        shown = repr(raw)
        raise NumberError("not-a-number", f"{shown} is a yes/no value, not a number", text=shown)
    if isinstance(raw, int | Fraction):
        # Cheap: no text to expand; a huge int is never printed (its text is what costs).
        return _bounded(Fraction(raw), None)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            shown = repr(raw)
            message = f"{shown} is not a number within ±{LIMIT:,}"
            raise NumberError("not-a-number", message, text=shown)
        raw = repr(raw)
    if not isinstance(raw, str):
        kind = type(raw).__name__
        message = f"expected a number such as 3, -2, 1.5 or 3/2, not {kind}"
        raise NumberError("not-a-number", message, text=kind)
    text = raw.strip()
    if len(text) > MAX_LENGTH:
        raise NumberError(
            "number-too-long",
            f"{text[:MAX_LENGTH]!r}… is too long for a number (at most {MAX_LENGTH} characters)",
            most=MAX_LENGTH,
        )
    match = _NUMBER.fullmatch(text)
    if match is None:
        hint = " (no exponent)" if "e" in text.lower() else ""
        message = f"{text!r} is not a number written as 3, -2, 1.5 or 3/2{hint}"
        raise NumberError("not-a-number", message, text=repr(text))
    sign = -1 if match["sign"] == "-" else 1
    if match["den"] is not None:
        denominator = int(match["den"])
        if denominator == 0:
            raise NumberError("number-divides-by-zero", f"{text!r} divides by 0", text=repr(text))
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
        raise NumberError("number-beyond", f"{shown} is beyond ±{LIMIT:,}", limit=LIMIT)
    return value
