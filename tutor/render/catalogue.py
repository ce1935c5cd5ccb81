"""The catalogues and the typography: gettext read with Babel, numbers in the learner's format,
and French spacing applied in one place; the base of every ``Translator``.

Why gettext rather than a dictionary: translators work on ``.po`` files with the usual tools,
``pybabel extract`` finds every string marked ``_("…")`` in the code, and plural forms follow each
language's own rule. The catalogues live in ``tutor/locale/<lang>/LC_MESSAGES/messages.po`` and
are compiled to ``messages.mo`` beside them (committed, so a fresh clone serves at once; a test
checks that each ``.mo`` matches its ``.po``). Refresh them after changing interface strings with::

    python -m tutor.render.catalogue    # extract, update the .po files, compile the .mo files

Numbers are formatted by Babel for the learner's locale (``0,40 %`` in French, ``0.40%`` in
English): :class:`Words` holds the formats, the names of things are in ``naming``, the reasons
and refusals in ``reasons``, a round told in sentences in ``narration``.

>>> from tutor.render.translator import translator
>>> fr, en = translator("fr"), translator("en")
>>> fr.percent(0.004), en.percent(0.004)
('0,40\\xa0%', '0.40%')
>>> fr.chips_text(2), en.signed_chips(-1.5)
('2\\xa0jetons', '−1.5')
"""
from __future__ import annotations

import gettext
import io
import math
import re
import subprocess
import sys
from datetime import date as date_type
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from tutor.game import Money

#: The catalogues stay beside the package's sources, where ``pybabel`` and the wheel find them.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
#: The languages the interface speaks, the default first.
LANGUAGES: tuple[str, ...] = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


def language_from_browser(accept_language: str | None) -> str:
    """The interface language for a first visit, from the browser's ``Accept-Language`` header:
    the first of its languages (by the header's ``q`` weights, then order) that the tutor speaks,
    French when the header names none of them or is missing. Bounded: a header is read up to
    its first 1000 characters and 20 entries, so a forged one costs nothing.

    >>> language_from_browser("en-GB,en;q=0.9,fr;q=0.8")
    'en'
    >>> language_from_browser("de-DE, fr;q=0.5, en;q=0.7")
    'en'
    >>> language_from_browser(None), language_from_browser("de, es;q=0.5")
    ('fr', 'fr')
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for order, entry in enumerate(accept_language[:1000].split(",")[:20]):
        tag, _, params = entry.strip().partition(";")
        weight = 1.0
        key, _, value = params.strip().partition("=")
        if key.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                weight = 0.0
        language = tag.strip().split("-")[0].lower()
        if language in LANGUAGES and 0 < weight <= 1:
            ranked.append((-weight, order, language))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    """Mark a string for extraction without translating it (tables of messages)."""
    return message


NBSP = "\u00a0"
#: Spans that typography never touches: Streamlit icons and emoji codes (``:material/star:``),
#: HTML tags, code spans, addresses and ``{placeholders}`` still to be filled.
_PROTECTED = re.compile(r"(:[a-z0-9_+\-]+(?:/[a-z0-9_]+)?:|<[^>]*>|`[^`]*`|https?://\S+|\{[^{}]*\})")
_SPACED = re.compile(r"[ \u202f]([:;!?])(?![\w/])")
_UNSPACED = re.compile(r"(?<=[^\s(\[«\u00a0\u202f:;!?/'’-])([;!?])(?=\s|$|[*_)\]»\"\ue000])")
_UNSPACED_COLON = re.compile(r"(?<=[^\s\d(\[«\u00a0\u202f:;!?/'’-])(:)(?=\s|$)")
_GUILLEMET_OPEN = re.compile(r"«[ \u202f\u00a0]?")
_GUILLEMET_CLOSE = re.compile(r"[ \u202f\u00a0]?»")


@lru_cache(maxsize=8192)
def french_typography(text: str) -> str:
    """French punctuation spacing, applied in one place to every French string the interface
    shows: a non-breaking space before ``: ; ! ?`` and inside ``« »``, so that a colon never
    wraps alone onto the next line of a phone. Numbers already come from Babel with its narrow
    non-breaking spaces (``1 000 000``); ratios (``3:2``), icons, tags and code are left alone.

    >>> french_typography("Le joueur : gagne ! Vraiment? « oui » — paie 3:2")
    'Le joueur\xa0: gagne\xa0! Vraiment\xa0? «\xa0oui\xa0» — paie 3:2'
    >>> french_typography(":material/star: Source: voir https://exemple.fr/?a=1")
    ':material/star: Source\xa0: voir https://exemple.fr/?a=1'
    """
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return f"\ue000{len(kept) - 1}\ue001"

    out = _PROTECTED.sub(keep, text)
    out = _SPACED.sub(NBSP + r"\1", out)
    out = _UNSPACED.sub(NBSP + r"\1", out)
    out = _UNSPACED_COLON.sub(NBSP + r"\1", out)
    out = _GUILLEMET_OPEN.sub("«" + NBSP, out)
    out = _GUILLEMET_CLOSE.sub(NBSP + "»", out)
    return re.sub("\ue000(\\d+)\ue001", lambda m: kept[int(m.group(1))], out)


class Words:
    """A language's catalogue, typography and number formats: what every sentence is made with.

    The translator a page holds (``tutor.render.translator.Translator``) adds the names of
    things, the reasons and the narration to these; one per language per process
    (``translator()`` caches them): the catalogues never change while the app runs, so sharing
    them between users is safe.
    """

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self.locale = Locale.parse(language)
        self._translations = translations
        pattern = self.locale.percent_formats[None].pattern
        self._percent_pattern = pattern.replace("0", "0.00", 1) if "." not in pattern else pattern

    # -- words --
    def typeset(self, text: str) -> str:
        """The language's typography applied to any text shown (``french_typography`` in
        French); every string the translator returns has been through it, and the lessons' own
        YAML text is passed through it by the pages that show it."""
        return french_typography(text) if self.language == "fr" else text

    def gettext(self, message: str) -> str:
        return self.typeset(self._translations.gettext(message))

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of ``singular``/``plural`` the language uses for ``count`` (French uses the
        singular for 0 and 1: ``0 jeton``, ``1 jeton``, ``2 jetons``)."""
        return self.typeset(self._translations.ngettext(singular, plural, count))

    def format(self, message: str, **params: Any) -> str:
        """Translate ``message`` then fill its ``{placeholders}``."""
        return self.gettext(message).format(**params)

    def plural(
        self, singular: str, plural: str, value: float | int | Fraction, **params: Any
    ) -> str:
        """A count and its noun, the plural chosen by the language's rule for ``value`` (CLDR,
        so that 1.5 is ``1,5 jeton`` in French and ``1.5 chips`` in English) and ``{n}`` filled
        with ``value`` as the locale writes it.

        >>> from tutor.render.translator import translator

        >>> [translator("fr").plural("{n} chip", "{n} chips", n) for n in (0, 1, 1.5, 2)]
        ['0\xa0jeton', '1\xa0jeton', '1,5\xa0jeton', '2\xa0jetons']
        >>> [translator("en").plural("{n} chip", "{n} chips", n) for n in (0, 1, 1.5, 2)]
        ['0 chips', '1 chip', '1.5 chips', '2 chips']
        """
        exact = abs(Fraction(value))
        number: float | int = int(exact) if exact.denominator == 1 else float(exact)
        form = 1 if self.locale.plural_form(number) == "one" else 2
        shown = params.pop("shown", None)
        text = self.ngettext(singular, plural, form)
        return text.format(n=shown if shown is not None else self.number(value), **params)

    def chips_text(self, amount: Money | float, *, signed: bool = False) -> str:
        """``2 jetons``, ``1 jeton``, ``+3 jetons``, ``−1,5 jeton``: an amount of chips with its
        noun agreeing (the number joined to its noun by a non-breaking space in French)."""
        shown = self.signed_chips(amount) if signed else self.chips(amount)
        return self.plural("{n} chip", "{n} chips", amount, shown=shown)

    # -- numbers --
    def percent(self, value: float, *, digits: int = 2) -> str:
        """``0,40 %`` / ``0.40%``: the locale's percent pattern with ``digits`` decimals; a
        negative one with the minus sign the EVs use (``−0,02 %``), not a hyphen.

        >>> from tutor.render.translator import translator

        >>> translator("fr").percent(-0.000248)
        '−0,02\xa0%'
        """
        pattern = self._percent_pattern.replace(".00", "." + "0" * digits if digits else "")
        text = format_percent(value, format=pattern, locale=self.locale)
        return "−" + text[1:] if text.startswith("-") else text

    def signed_percent(self, value: float, *, digits: int = 1) -> str:
        text = self.percent(abs(value), digits=digits)
        if round(value * 100, digits) == 0:
            return text
        return ("+" if value > 0 else "−") + text

    def number(self, value: float | int | Fraction, *, digits: int = 3) -> str:
        if isinstance(value, Fraction):
            value = float(value)
        pattern = "#,##0" + ("." + "#" * digits if digits else "")
        return format_decimal(value, format=pattern, locale=self.locale)

    def small(self, value: float) -> str:
        """A small positive amount (a loss in bets, a cost in chips) with two significant digits,
        so that 0.0082 never reads as 0: ``0,0082``, ``0,041``, ``1,5``."""
        if value <= 0:
            return format_decimal(0, locale=self.locale)
        digits = min(max(2, 1 - math.floor(math.log10(value))), 6)
        return format_decimal(round(value, digits), format="#,##0." + "#" * digits,
                              locale=self.locale)

    def ev(self, value: float, *, digits: int = 3) -> str:
        """An expected value per unit bet, signed, three decimals by default: ``+0,123`` /
        ``−0.475``."""
        text = format_decimal(abs(value), format="0." + "0" * digits, locale=self.locale)
        if round(value, digits) == 0:
            return text
        return ("+" if value > 0 else "−") + text

    def chips(self, amount: Money | float) -> str:
        """Chips, exact: ``3``, ``7,5``."""
        value = float(amount) if isinstance(amount, Fraction) else amount
        return format_decimal(value, format="#,##0.##", locale=self.locale)

    def signed_chips(self, amount: Money | float) -> str:
        magnitude: Money | float = -amount if amount < 0 else amount
        text = self.chips(magnitude)
        if amount == 0:
            return text
        return ("+" if amount > 0 else "−") + text

    # -- dates and charts --
    def date(self, when: date_type) -> str:
        """A day written in words as the locale writes it: ``31 décembre 2026`` / ``December 31,
        2026`` (never ``2026-12-31``, which a French reader does not say).

        >>> from tutor.render.translator import translator
        >>> last, first = date_type(2026, 12, 31), date_type(2026, 12, 1)
        >>> translator("fr").date(last), translator("en").date(first)
        ('31 décembre 2026', 'December 1, 2026')
        """
        return format_date(when, format="long", locale=self.locale)

    def ratio(self, pays: Fraction) -> str:
        """A payout as the language says it: ``3 pour 2`` in French (as the lessons say it),
        ``3:2`` in English.

        >>> from tutor.render.translator import translator
        >>> translator("fr").ratio(Fraction(3, 2)), translator("en").ratio(Fraction(6, 5))
        ('3 pour 2', '6:5')
        """
        return self.format(N_("{a}:{b}"), a=pays.numerator, b=pays.denominator)

    def chart_locale(self) -> dict[str, Any]:
        """Vega's number and time locales for this language, built from Babel's data (month and
        day names, separators), for a chart's ``config.locale`` (Altair's
        ``chart.configure(locale=...)``): axes then read ``déc.`` and ``50 %`` in French."""
        symbols = self.locale.number_symbols.get("latn", self.locale.number_symbols)
        months = self.locale.months["format"]
        days = self.locale.days["format"]
        sunday_first = [6, 0, 1, 2, 3, 4, 5]
        percent = format_percent(0.5, locale=self.locale).replace("50", "")
        return {
            "number": {
                "decimal": symbols["decimal"],
                "thousands": symbols["group"],
                "grouping": [3],
                "currency": ["", ""],
                "percent": percent,
                "minus": "−",
            },
            "time": {
                "dateTime": "%x %X",
                "date": "%d/%m/%Y" if self.language == "fr" else "%m/%d/%Y",
                "time": "%H:%M:%S",
                "periods": ["AM", "PM"],
                "days": [days["wide"][i] for i in sunday_first],
                "shortDays": [days["abbreviated"][i] for i in sunday_first],
                "months": [months["wide"][i] for i in range(1, 13)],
                "shortMonths": [months["abbreviated"][i] for i in range(1, 13)],
            },
        }


def load_translations(language: str) -> gettext.NullTranslations:
    """A language's compiled catalogue (its ``.po`` compiled now when no ``.mo`` is there; no
    translation at all for a language without a catalogue)."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    mo = folder / f"{DOMAIN}.mo"
    if mo.exists():
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    po = folder / f"{DOMAIN}.po"
    if po.exists():
        # A checkout without compiled catalogues still speaks the language.
        return gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    return gettext.NullTranslations()


def compile_po(po: Path) -> bytes:
    """A ``.po`` file compiled to ``.mo`` bytes, as ``pybabel compile`` writes them."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


#: Where ``pybabel extract`` looks for strings: what a person reads is written here, in the
#: Streamlit interface, in the quiz's questions and in the entry point; other modules' English is
#: for logs and teachers.
EXTRACTED: tuple[str, ...] = ("tutor/render", "tutor/ui", "tutor/quiz.py", "app.py")


def refresh_catalogues() -> None:
    """Extract the strings, update each language's ``.po``, compile the ``.mo`` files."""
    root = LOCALE_DIR.parent.parent
    pot = LOCALE_DIR / f"{DOMAIN}.pot"
    pybabel = [sys.executable, "-m", "babel.messages.frontend"]
    subprocess.run(
        [
            *pybabel,
            "extract",
            "-F",
            str(LOCALE_DIR / "babel.cfg"),
            "-k",
            "N_",
            "-k",
            "format",
            "-k",
            "plural:1,2",
            "--no-location",
            "--sort-output",
            "-o",
            str(pot),
            *EXTRACTED,
        ],
        check=True,
        cwd=root,
    )
    for language in LANGUAGES:
        po = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        command = "update" if po.exists() else "init"
        subprocess.run(
            [
                *pybabel,
                command,
                "-i",
                str(pot),
                "-d",
                str(LOCALE_DIR),
                "-l",
                language,
                *(["--no-fuzzy-matching"] if command == "update" else []),
            ],
            check=True,
        )
        (po.with_suffix(".mo")).write_bytes(compile_po(po))


if __name__ == "__main__":
    refresh_catalogues()
