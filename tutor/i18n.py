"""The interface's words in French (the default) and English: gettext catalogues read with Babel.

Why gettext rather than a dictionary: translators work on ``.po`` files with the usual tools,
``pybabel extract`` finds every string marked ``_("…")`` in the code, and plural forms follow each
language's own rule. The catalogues live in ``tutor/locale/<lang>/LC_MESSAGES/messages.po`` and
are compiled to ``messages.mo`` beside them (committed, so a fresh clone serves at once; a test
checks that each ``.mo`` matches its ``.po``). Refresh them after changing interface strings with::

    python -m tutor.i18n           # extract, update the .po files, compile the .mo files

Numbers are formatted by Babel for the learner's locale (``0,40 %`` in French, ``0.40%`` in
English), and the engine's events, refusal codes and the strategy's reason keys become sentences
here, so the engine and the strategy never hold text a learner reads.

>>> fr, en = translator("fr"), translator("en")
>>> fr.percent(0.004), en.percent(0.004)
('0,40\\xa0%', '0.40%')
>>> fr.action_name(Action.HIT), en.action_name(Action.DOUBLE)
('Tirer', 'Double')
"""

from __future__ import annotations

import gettext
import io
import math
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
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

from tutor.cards import Card, HandValue, Rank, Suit, hand_value
from tutor.cell import Cell, Kind, parse_hand
from tutor.decision import Action
from tutor.game import (
    Busted,
    CardDealt,
    DealerBusted,
    DealerChecked,
    DealerHit,
    DealerStood,
    Doubled,
    EvenMoneyTaken,
    Event,
    HandSettled,
    Hit,
    HoleCardRevealed,
    InsuranceDeclined,
    InsuranceOffered,
    InsuranceSettled,
    InsuranceTaken,
    Money,
    Outcome,
    RoundStarted,
    SeatResult,
    Split,
    Stood,
    Surrendered,
)
from tutor.rules import TableRules, edited_preset
from tutor.sources import citation
from tutor.strategy.advice import CLOSE

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
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


#: How each refusal code of the engine reads (``tutor.game.REFUSALS`` keeps the English for logs).
REFUSAL_MESSAGES: dict[str, str] = {
    "round-over": N_("The round is over: nobody is to act."),
    "no-insurance-now": N_("Insurance is only offered on a dealer Ace, before anyone plays."),
    "insurance-first": N_("Every player answers the insurance offer before play starts."),
    "split-aces-one-card": N_("Split Aces receive one card each and no more."),
    "double-two-cards": N_("You can only double on your first two cards."),
    "no-double-after-split": N_("You cannot double after a split at this table."),
    "double-total": N_("At this table you may only double on {allowed}; this hand makes {total}."),
    "insured-no-double": N_("After taking insurance you may no longer double."),
    "insured-no-split": N_("After taking insurance you may no longer split."),
    "split-pair": N_("You can only split two cards of the same rank."),
    "no-split": N_("This table does not allow splitting."),
    "max-hands": N_("This table allows at most {max_hands} hands per seat."),
    "no-resplit-aces": N_("Split Aces cannot be split again."),
    "no-surrender": N_("This table does not offer surrender."),
    "surrender-first": N_(
        "You can only surrender your first two cards, before any other decision."
    ),
    "no-surrender-ace": N_(
        "This table's house rule refuses surrender against a dealer Ace (a casino's rule: none"
        " of the course's texts states it)."
    ),
    "even-money-natural": N_("Even money is only offered on a natural."),
    "no-even-money": N_("This table does not offer even money."),
    "no-insurance": N_("This table does not offer insurance."),
    "funds": N_("You need {needed} more for this, and have {stack}."),
    "insurance-amount": N_("Insurance is more than 0 and at most {most}."),
}

_ACTION_NAMES: dict[Action, str] = {
    Action.HIT: N_("Hit"),
    Action.STAND: N_("Stand"),
    Action.DOUBLE: N_("Double"),
    Action.SPLIT: N_("Split"),
    Action.SURRENDER: N_("Surrender"),
    Action.INSURE: N_("Insure"),
    Action.DECLINE_INSURANCE: N_("No insurance"),
    Action.EVEN_MONEY: N_("Even money"),
}

_OUTCOME_NAMES: dict[Outcome, str] = {
    Outcome.WIN: N_("won"),
    Outcome.LOSE: N_("lost"),
    Outcome.PUSH: N_("push"),
    Outcome.NATURAL: N_("blackjack"),
    Outcome.BONUS: N_("bonus"),
    Outcome.BUST: N_("bust"),
    Outcome.SURRENDER: N_("surrendered"),
    Outcome.EVEN_MONEY: N_("even money"),
}

#: Outcomes as nouns, for labels of what a question asked (``Payout of a win``).
_OUTCOME_NOUNS: dict[Outcome, str] = {
    Outcome.WIN: N_("a win"),
    Outcome.LOSE: N_("a loss"),
    Outcome.PUSH: N_("a push"),
    Outcome.NATURAL: N_("a blackjack"),
    Outcome.BONUS: N_("a bonus"),
    Outcome.BUST: N_("a bust"),
    Outcome.SURRENDER: N_("a surrender"),
    Outcome.EVEN_MONEY: N_("an even-money payout"),
}

_RANK_NAMES: dict[Rank, str] = {
    Rank.ACE: N_("Ace"),
    Rank.JACK: N_("Jack"),
    Rank.QUEEN: N_("Queen"),
    Rank.KING: N_("King"),
}

_SUIT_NAMES: dict[Suit, str] = {
    Suit.SPADES: N_("spades"),
    Suit.HEARTS: N_("hearts"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.CLUBS: N_("clubs"),
}

#: The letter printed in a card's corner: French packs print V, D, R for the Valet, the Dame and
#: the Roi; every other rank prints its own symbol in both languages.
_RANK_INDEX: dict[Rank, str] = {
    Rank.JACK: N_("J"),
    Rank.QUEEN: N_("Q"),
    Rank.KING: N_("K"),
}

#: A card named inside a sentence, with its article: whole phrases per rank, so each language
#: chooses its own article, gender and elision (``l'as``, ``la dame``, ``an 8``).
_CARD_DEFINITE: dict[Rank | None, str] = {
    Rank.ACE: N_("the Ace of {suit}"),
    Rank.JACK: N_("the Jack of {suit}"),
    Rank.QUEEN: N_("the Queen of {suit}"),
    Rank.KING: N_("the King of {suit}"),
    None: N_("the {rank} of {suit}"),
}
_CARD_INDEFINITE: dict[Rank | None, str] = {
    Rank.ACE: N_("an Ace of {suit}"),
    Rank.JACK: N_("a Jack of {suit}"),
    Rank.QUEEN: N_("a Queen of {suit}"),
    Rank.KING: N_("a King of {suit}"),
    Rank.EIGHT: N_("an 8 of {suit}"),
    None: N_("a {rank} of {suit}"),
}

#: A pair named as a learner reads it, with its total(s).
_PAIR_NAMES: dict[Rank | None, str] = {
    Rank.ACE: N_("pair of Aces (2 or 12)"),
    Rank.JACK: N_("pair of Jacks ({total})"),
    Rank.QUEEN: N_("pair of Queens ({total})"),
    Rank.KING: N_("pair of Kings ({total})"),
    None: N_("pair of {rank}s ({total})"),
}

#: Each settled hand as a whole sentence, so the verb agrees with whoever played it.
_SETTLED: dict[Outcome, str] = {
    Outcome.WIN: N_("{who}{hand} wins: {net}."),
    Outcome.LOSE: N_("{who}{hand} loses: {net}."),
    Outcome.PUSH: N_("{who}{hand} pushes: the bet comes back."),
    Outcome.NATURAL: N_("{who}{hand} wins with a blackjack: {net}."),
    Outcome.BONUS: N_("{who}{hand} wins a bonus: {net}."),
    Outcome.BUST: N_("{who}{hand} has bust: {net}."),
    Outcome.SURRENDER: N_("{who}{hand} has surrendered: {net}."),
    Outcome.EVEN_MONEY: N_("{who}{hand} takes even money: {net}."),
}

#: Sentences for the strategy's reason keys (``tutor.strategy.advice``); an unknown key falls
#: back to the EVs alone. Each is followed by the comparison of ``COMPARE_MESSAGES``, so the
#: figures that decide the play are always on screen beside the words.
REASON_MESSAGES: dict[str, str] = {
    "dealer-busts-often": N_(
        "The dealer shows {up} and busts {bust} of the time, while one more card would bust"
        " your {total} {player_bust} of the time: stand and let the dealer take the risk."
    ),
    "stiff-stand": N_(
        "Standing on {total} wins whenever the dealer busts, {bust} of the time against {up};"
        " one more card would bust you {player_bust} of the time: here standing loses less."
    ),
    "total-strong-enough": N_(
        "Against {up}, {hand} is strong enough: another card risks more than it can win."
    ),
    "stand-not-double": N_(
        "Doubling {hand} means exactly one more card for twice the bet: against {up} that card"
        " risks more than it can win."
    ),
    "stand-not-split": N_(
        "Played as one hand, {hand} makes {total}, worth more against {up} than two hands that"
        " each start from one of its cards."
    ),
    "cannot-bust": N_("No card can bust {hand}: take one."),
    "dealer-strong": N_(
        "The dealer shows {up} and busts only {bust} of the time: standing on {total} loses too"
        " often, even though one more card busts you {player_bust} of the time."
    ),
    "stiff-hit": N_(
        "Standing on {total} wins only when the dealer busts, {bust} of the time against {up};"
        " one more card busts you {player_bust} of the time and otherwise improves your hand:"
        " take it."
    ),
    "hit-not-double": N_(
        "Doubling {hand} against {up} stops the hand after one card for twice the bet; drawing"
        " as many cards as it needs, on the first bet, is worth more."
    ),
    "hit-not-split": N_(
        "Split, {hand} becomes two hands with a bet each; against {up} those two hands are worth"
        " less than the pair played as one hand."
    ),
    "double-edge": N_(
        "Against {up}, {hand} needs only one more card, and that card is worth a bigger bet."
    ),
    "double-not-split": N_(
        "Played as one hand, {hand} makes {total}, a start worth doubling against {up}; split,"
        " each of its cards would start a weaker hand."
    ),
    "split-pair": N_(
        "Split {hand}: two hands that each start from one of its cards are worth more than the"
        " pair played as one hand."
    ),
    "split-not-surrender": N_(
        "Against {up}, splitting {hand} is worth more on average than surrendering."
    ),
    "keep-playing": N_(
        "Against {up}, keep playing {hand}: {play} is worth more on average than surrendering."
    ),
    "composition": N_(
        "The chart's row for {bare} against {up} says {row_play}, but the cards you hold are"
        " out of the shoe and change what is left to draw: here {play} loses less."
    ),
    "surrender-saves": N_(
        "Against {up}, every way of playing on loses more than surrendering does."
    ),
    "insurance-odds": N_(
        "Insurance pays 2:1 and wins only when the hidden card is worth ten: {tens} of the time"
        " here, less than the {break_even} it needs to break even."
    ),
    "insurance-pays": N_(
        "Insurance pays 2:1 and wins when the hidden card is worth ten: {tens} of the time here,"
        " more than the {break_even} it needs to break even."
    ),
    "even-money-declined": N_(
        "Declining even money, your natural is paid {pays} unless the hidden card is worth ten,"
        " which happens {tens} of the time here: less than the {break_even} that would make the"
        " sure win of one bet better."
    ),
    "even-money-sure": N_(
        "Even money is a sure win of one bet; declining, your natural is paid {pays} unless the"
        " hidden card is worth ten, which happens {tens} of the time here, more than the"
        " {break_even} that makes declining pay."
    ),
}

#: The figures behind every reason: the play argued for against the runner-up, for these cards
#: or averaged over the chart's cell.
COMPARE_MESSAGES: dict[str, str] = {
    "cards": N_(
        "With these cards, {play} is worth {play_ev} of a bet on average, {other} {other_ev}."
    ),
    "chart": N_(
        "On average over the hands of this chart cell ({bare} against {column}), {play} is worth"
        " {play_ev} of a bet, {other} {other_ev}."
    ),
    "chart-insurance": N_(
        "Averaged over the shoe, as the chart counts, {play} is worth {play_ev} of a bet, {other}"
        " {other_ev}."
    ),
    # The same figures when the move set against the play is the learner's own.
    "cards-chosen": N_(
        "With these cards, {play} is worth {play_ev} of a bet on average; {other}, your choice,"
        " {other_ev}."
    ),
    "chart-chosen": N_(
        "On average over the hands of this chart cell ({bare} against {column}), {play} is worth"
        " {play_ev} of a bet; {other}, your choice, {other_ev}."
    ),
    "chart-insurance-chosen": N_(
        "Averaged over the shoe, as the chart counts, {play} is worth {play_ev} of a bet;"
        " {other}, your choice, {other_ev}."
    ),
}

#: An up-card named inside a sentence, with its article, as the card that shows: whole phrases
#: per rank so each language chooses its article and gender (``une Dame``, ``an Ace``). A chart's
#: column has no rank: its ten is ``a 10``.
_UP_CARDS: dict[Rank | None, str] = {
    Rank.ACE: N_("an Ace"),
    Rank.JACK: N_("a Jack"),
    Rank.QUEEN: N_("a Queen"),
    Rank.KING: N_("a King"),
    Rank.EIGHT: N_("an 8"),
    None: N_("a {rank}"),
}

#: The presets' names on screen; the keys stay the ids that addresses, files and tests use.
PRESET_NAMES: dict[str, str] = {
    "family": N_("Family table (rules booklet)"),
    "french-casino": N_("French casino"),
    "france-before-2007": N_("French casino before 2007"),
    "home-game": N_("Home game (Vingt-et-Un, two decks, the bank passed round)"),
    "online-six-deck": N_("Online game, six decks"),
    "american-s17": N_("American shoe, dealer stands on soft 17"),
    "american-h17": N_("American shoe, dealer hits soft 17"),
}

_PERCENT_PARAMS = frozenset({"bust", "player_bust", "tens", "break_even"})
_CARD_PARAMS = frozenset({"up", "pair"})
#: Figures a sentence sets against each other: shown with as many decimals as it takes for them
#: to differ on screen (32,7 % against 33,3 %, never 33 % against 33 %).
_COMPARED: tuple[tuple[str, str], ...] = (("play_ev", "other_ev"), ("tens", "break_even"))


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


class Translator:
    """The interface's words and number formats in one language.

    One per language per process (``translator()`` caches them): the catalogues never change
    while the app runs, so sharing them between users is safe.
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

    # -- tables --
    def preset_name(self, name: str) -> str:
        """A table's name on screen: a preset's translated name, ``…(edited)`` for a preset the
        learner changed in Settings (``family*``), any other name as it is.

        >>> translator("en").preset_name("family*")
        'Family table (rules booklet) (edited)'
        >>> translator("en").preset_name("my-house-rules")
        'my-house-rules'
        """
        base = edited_preset(name) or name
        edited = base != name
        shown = PRESET_NAMES.get(base)
        if shown is None:
            return name
        text = self.gettext(shown)
        return self.format(N_("{name} (edited)"), name=text) if edited else text

    def table_name(self, rules: TableRules) -> str:
        """The name on screen of the table these rules describe."""
        return self.preset_name(rules.name)

    def source_citation(self, rules: TableRules) -> str | None:
        """``Source : un livret de règles pour une table familiale…``: what the rules' source
        text is, in words (``tutor.sources``), or None when the rules cite none."""
        if not rules.source:
            return None
        cited = citation(rules.source, self.language) or rules.source
        return self.format(N_("Source: {source}"), source=cited)

    # -- engine vocabulary --
    def action_name(self, action: Action) -> str:
        return self.gettext(_ACTION_NAMES[action])

    def outcome_name(self, outcome: Outcome) -> str:
        return self.gettext(_OUTCOME_NAMES[outcome])

    def rank_name(self, rank: Rank) -> str:
        name = _RANK_NAMES.get(rank)
        return self.gettext(name) if name is not None else rank.symbol

    def suit_name(self, suit: Suit) -> str:
        return self.gettext(_SUIT_NAMES[suit])

    def colour_name(self, suit: Suit) -> str:
        return self.gettext(N_("red")) if suit.is_red else self.gettext(N_("black"))

    def card_name(self, card: Card) -> str:
        """``Roi de cœur`` / ``King of hearts``: what a screen reader says for a card."""
        return self.format(
            N_("{rank} of {suit}"), rank=self.rank_name(card.rank), suit=self.suit_name(card.suit)
        )

    def rank_index(self, rank: Rank) -> str:
        """The letter in a card's corner: ``R`` for a French Roi, ``K`` for an English King."""
        name = _RANK_INDEX.get(rank)
        return self.gettext(name) if name is not None else rank.symbol

    def card_phrase(self, card: Card, *, definite: bool = True) -> str:
        """A card named inside a sentence, with its article: ``le roi de pique``, ``l'as de
        cœur``, ``un 10 de trèfle`` / ``the King of spades``, ``an 8 of hearts``.

        >>> fr = translator("fr")
        >>> fr.card_phrase(Card.parse("K♠")), fr.card_phrase(Card.parse("10♣"), definite=False)
        ('le roi de pique', 'un 10 de trèfle')
        """
        table = _CARD_DEFINITE if definite else _CARD_INDEFINITE
        message = table.get(card.rank, table[None])
        return self.format(message, rank=card.rank.symbol, suit=self.suit_name(card.suit))

    def hand_text_total(self, value: HandValue) -> str:
        """A total told in a sentence: ``15 dur``, ``13 souple``, ``24, sauté``."""
        if value.total > 21:
            return self.format(N_("{total}, bust"), total=value.total)
        return self.value_text(value)

    def value_text(self, value: HandValue) -> str:
        """A total as a learner reads it: ``15 dur``, ``13 souple``; a bust total alone."""
        if value.total > 21:
            return str(value.total)
        return self.format(N_("soft {total}") if value.soft else N_("hard {total}"),
                           total=value.total)

    def hand_text(self, cards: Sequence[Card], *, natural: bool | None = None) -> str:
        """What a hand is worth, named as a learner reads it: a pair as a pair (``paire d'as (2
        ou 12)``, ``paire de 10 (20)``), a natural as a blackjack, else ``15 dur``/``13 souple``.

        >>> en = translator("en")
        >>> aces, tens = ("A♠", "A♥"), ("10♠", "10♥")
        >>> en.hand_text([Card.parse(c) for c in aces]), en.hand_text([Card.parse(c) for c in tens])
        ('pair of Aces (2 or 12)', 'pair of 10s (20)')
        """
        value = hand_value(cards)
        if len(cards) == 2 and cards[0].rank is cards[1].rank:
            message = _PAIR_NAMES.get(cards[0].rank, _PAIR_NAMES[None])
            return self.format(message, rank=cards[0].rank.symbol, total=value.total)
        if natural is None:  # a two-card 21 after a split is no natural: the caller says so
            natural = len(cards) == 2 and value.total == 21
        if natural:
            return self.gettext(N_("blackjack"))
        if value.total > 21:
            return self.format(N_("{total}, bust"), total=value.total)
        return self.value_text(value)

    def item_name(self, item: str) -> str:
        """A quiz item (``tutor.quiz.item_key``) as a learner reads it: ``hard:14:9`` is ``14 dur
        contre un 9``, ``soft:s13:A`` is ``As-2 (13 souple) contre un As``; never the key itself.

        >>> en = translator("en")
        >>> en.item_name("soft:s13:4"), en.item_name("pairs:10-10:A")
        ('Ace-2 (soft 13) against a 4', 'pair of 10s against an Ace')
        """
        try:
            return self.cell_name(Cell.parse_item(item)[1])
        except ValueError:
            pass
        parts = item.split(":")
        if parts[0] == "insurance":
            if parts[-1] == "natural":
                return self.gettext(N_("Insurance, holding a blackjack"))
            return self.gettext(N_("Insurance"))
        if parts[0] == "totals":
            cards = parts[-1].removesuffix("cards")
            if cards.isdigit():
                return self.plural(
                    "Total of a hand of {n} card", "Total of a hand of {n} cards", int(cards)
                )
            return self.gettext(N_("Hand totals"))
        if parts[0] == "payouts" and len(parts) >= 2:
            try:
                outcome = self.outcome_noun(Outcome(parts[1]))
            except ValueError:
                return self.gettext(N_("Payouts"))
            if len(parts) > 2 and parts[2] == "double":
                return self.format(N_("Payout of {outcome}, bet doubled"), outcome=outcome)
            return self.format(N_("Payout of {outcome}"), outcome=outcome)
        return self.gettext(N_("Another question"))

    def cell_name(self, cell: Cell) -> str:
        """A cell as a learner reads it: ``16 dur contre un 10``, ``paire d'as contre un 6``.

        >>> translator("en").cell_name(Cell.parse("hard:16:10"))
        'hard 16 against a 10'
        """
        return self.format(N_("{hand} against {up}"), hand=self.row_name(cell.kind, cell.row),
                           up=self.up_card_phrase(cell.up))

    def hand_label(self, code: str) -> str:
        """A hand of an item key: ``14`` -> ``14 dur``, ``s13`` -> ``As-2 (13 souple)``,
        ``8-8`` -> ``paire de 8``, ``A-A`` -> ``paire d'as``; other text as it is."""
        try:
            kind, row = parse_hand(code)
        except ValueError:
            return code
        return self.row_name(kind, row)

    def row_name(self, kind: Kind, row: int) -> str:
        """A chart row (:class:`tutor.cell.Cell`'s kind and row) in words."""
        if kind is Kind.PAIRS:
            if row == 1:
                return self.gettext(N_("pair of Aces"))
            return self.format(N_("pair of {pair}s"), pair=str(row))
        if kind is Kind.SOFT:
            other = Rank.of_value(row - 11).symbol
            return self.format(N_("Ace-{other} (soft {total})"), other=other, total=row)
        return self.format(N_("hard {total}"), total=row)

    def seat_result(self, result: SeatResult) -> str:
        """A settled seat in one line whose amount is the engine's net, insurance included: the
        one account of a hand (``Résultat : +1 jeton — main : gagnée (+2 jetons) ; assurance :
        perdue (−1 jeton).``), never a line for the hand and another for the seat that disagree.

        >>> from tutor.game import HandResult, Outcome, SeatResult
        >>> en = translator("en")
        >>> en.seat_result(SeatResult(0, (HandResult(Outcome.WIN, 2, 2),), 1, -1))
        'Result: +1 chip — hand: won (+2 chips); insurance: lost (−1 chip).'
        >>> en.seat_result(SeatResult(0, (HandResult(Outcome.LOSE, 2, -2),), 0, 0))
        'Result: −2 chips (lost).'
        """
        net = self.chips_text(result.net, signed=True)
        if len(result.hands) == 1 and not result.insurance:  # its own net is the seat's
            return self.format(N_("Result: {net} ({outcome})."), net=net,
                               outcome=self.outcome_name(result.hands[0].outcome))
        several = len(result.hands) > 1
        accounts = [
            (self.format(N_("hand {n}"), n=index + 1) if several else self.gettext(N_("hand")),
             self.outcome_name(hand.outcome), hand.net)
            for index, hand in enumerate(result.hands)
        ]
        if result.insurance:
            won = Outcome.WIN if result.insurance_net > 0 else Outcome.LOSE
            accounts.append((self.gettext(N_("insurance")), self.outcome_name(won),
                             result.insurance_net))
        parts = self.gettext(N_("; ")).join(
            self.format(N_("{what}: {outcome} ({net})"), what=what, outcome=outcome,
                        net=self.chips_text(amount, signed=True))
            for what, outcome, amount in accounts
        )
        return self.format(N_("Result: {net} — {parts}."), net=net, parts=parts)

    def outcome_noun(self, outcome: Outcome) -> str:
        """An outcome as a noun, for a label (``a win`` / ``un gain``)."""
        return self.gettext(_OUTCOME_NOUNS[outcome])

    # -- dates and charts --
    def date(self, when: date_type) -> str:
        """A day as the locale writes it: ``1 déc. 2026`` / ``Dec 1, 2026``."""
        return format_date(when, format="medium", locale=self.locale)

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

    def card_alt(self, card: Card) -> str:
        """A card's alternative text: its name and its colour, for colour-blind learners too."""
        return f"{self.card_name(card)} ({self.colour_name(card.suit)})"

    def up_card_name(self, points: int) -> str:
        """An up-card given by its value (1 = Ace), as the chart's columns show it."""
        return self.gettext(N_("Ace")) if points == 1 else str(points)

    def up_card_phrase(self, points: int, rank: str | Rank | None = None) -> str:
        """An up-card inside a sentence, with its article: the card that shows when its
        ``rank`` is known (``une Dame``), else the chart column's value (``un 10``, ``un As``).

        >>> fr, en = translator("fr"), translator("en")
        >>> fr.up_card_phrase(10, "Q"), fr.up_card_phrase(10), fr.up_card_phrase(1)
        ('une Dame', 'un 10', 'un As')
        >>> en.up_card_phrase(8), en.up_card_phrase(1, "A"), en.up_card_phrase(10, "K")
        ('an 8', 'an Ace', 'a King')
        """
        if isinstance(rank, str):
            try:
                rank = Rank.parse(rank)
            except ValueError:
                rank = None
        if rank is None or rank.points != points:
            rank = Rank.of_value(points)
        return self.format(_UP_CARDS.get(rank, _UP_CARDS[None]), rank=rank.symbol)

    def refusal(self, code: str, params: Mapping[str, Any]) -> str:
        """Why a button is disabled: the engine's refusal code as a sentence."""
        message = REFUSAL_MESSAGES.get(code)
        if message is None:
            return code
        values = dict(params)
        if code == "double-total":
            values["allowed"] = {
                "9-11": self.gettext(N_("9, 10 or 11")),
                "10-11": self.gettext(N_("10 or 11")),
            }.get(str(values.get("allowed")), str(values.get("allowed")))
        if code == "split-pair" and values.get("by") == "value":
            message = N_("You can only split two cards of the same value.")
        for key in ("needed", "stack", "most"):
            amount = values.get(key)
            if isinstance(amount, int | float | Fraction):
                values[key] = self.chips_text(amount)
        return self.format(message, **values)

    def reason(
        self, key: str, params: Mapping[str, Any], *, figures: bool = True
    ) -> str | None:
        """The strategy's reason as sentences, or None for a key this version does not know: why
        the play, then the figures that decide it (``COMPARE_MESSAGES``), then a word when the
        call is close. Without ``figures`` (a lesson before expected values are taught) the two
        moves are still named and set against each other, in words only."""
        message = REASON_MESSAGES.get(key)
        if message is None:
            return None
        values: dict[str, Any] = dict(params)
        for name, value in params.items():
            if name == "up" and isinstance(value, int):
                rank = params.get("up_rank")
                values[name] = self.up_card_phrase(value, rank if isinstance(rank, str) else None)
                values["column"] = self.up_card_phrase(value)  # the chart's column: « un 10 »
            elif name in _CARD_PARAMS and isinstance(value, int):
                values[name] = self.up_card_name(value)
            elif name in ("play", "other", "row_play") and isinstance(value, str):
                values[name] = self.action_name(Action(value)).lower()
        for name in _PERCENT_PARAMS:
            if isinstance(params.get(name), float):
                values[name] = self.percent(params[name], digits=0)
        for first, second in _COMPARED:
            a, b = params.get(first), params.get(second)
            if isinstance(a, float) and isinstance(b, float):
                values[first], values[second] = self._distinct(first, a, b)
        values["hand"] = self.hand_name(params, article=True)
        values["bare"] = self.hand_name(params)
        if key == "composition":  # the chart's row of the total, not the pair's own row
            values["bare"] = self.hand_name({**params, "pair": None})
        try:
            sentence = self.format(message, **values)
            scope = str(params.get("scope", "cards"))
            if scope == "chart" and key.startswith(("insurance", "even-money")):
                scope = "chart-insurance"
            if params.get("chosen"):
                scope += "-chosen"
            if params.get("natural_takes_bet"):
                sentence += " " + self.gettext(
                    N_("At this table the dealer has no hole card: if the second card makes a"
                       " blackjack, it takes the bet you added too.")
                )
            if "other" in params and not figures:
                sentence += " " + self.format(
                    N_("Here the better play is {play}: on average {other}, your choice, is"
                       " worth less.")
                    if params.get("chosen")
                    else N_("Here the better play is {play}: on average {other} is worth less."),
                    **values,
                )
            elif "other" in params and scope in COMPARE_MESSAGES:
                sentence += " " + self.format(COMPARE_MESSAGES[scope], **values)
        except (KeyError, IndexError, ValueError):
            return None
        if params.get("close") and figures:
            close = (
                N_("A close call: the two plays are less than {close} of a bet apart.")
                if params.get("chosen")
                else N_("A close call: the two best plays are less than {close} of a bet apart.")
            )
            sentence += " " + self.format(close, close=self.number(CLOSE, digits=3))
        return sentence

    def _distinct(self, name: str, a: float, b: float) -> tuple[str, str]:
        """Two figures a sentence compares, with the fewest decimals that tell them apart."""
        percent = name in _PERCENT_PARAMS
        start, stop = (0, 4) if percent else (3, 7)
        for digits in range(start, stop):
            if percent:
                shown = self.percent(a, digits=digits), self.percent(b, digits=digits)
            else:
                shown = self.ev(a, digits=digits), self.ev(b, digits=digits)
            if shown[0] != shown[1] or a == b:
                break
        return shown

    def hand_name(self, params: Mapping[str, Any], *, article: bool = False) -> str:
        """``hard 13``, ``soft 18``, ``pair of 8s`` from a reason's parameters; with
        ``article``, as a sentence names it (``a hard 13``)."""
        pair, total = params.get("pair"), params.get("total")
        if isinstance(pair, int):
            if pair == 1:
                return self.gettext(N_("a pair of Aces") if article else N_("pair of Aces"))
            message = N_("a pair of {pair}s") if article else N_("pair of {pair}s")
            return self.format(message, pair=pair)
        if total is None:
            return ""
        if params.get("soft"):
            return self.format(N_("a soft {total}") if article else N_("soft {total}"), total=total)
        return self.format(N_("a hard {total}") if article else N_("hard {total}"), total=total)

    # -- narration --
    def narrate_events(
        self, events: Sequence[Event], seat_name: Callable[[int], str]
    ) -> list[str]:
        """A round told in sentences, in order: each hit told once (the card dealt by a hit is
        the hit's own sentence), every total said soft or hard, and once a seat has split, each
        of its hands named ``main 1``, ``main 2``, … in every sentence."""
        story = _Story()
        lines: list[str] = []
        for index, event in enumerate(events):
            following = events[index + 1] if index + 1 < len(events) else None
            if (
                isinstance(event, CardDealt)
                and isinstance(following, Hit)
                and (following.seat, following.hand) == (event.seat, event.hand or 0)
            ):
                story.follow(event)  # told by the hit itself
                continue
            line = self.narrate(event, seat_name, story=story)
            if line:
                lines.append(line)
        return lines

    def narrate(
        self, event: Event, seat_name: Callable[[int], str], *, story: _Story | None = None
    ) -> str | None:
        """One event of the round as a sentence, or None for events told by the table itself.
        With the ``story`` so far (``narrate_events``), hands are named after a split and a hit
        says whether the total is soft or hard."""
        story = story if story is not None else _Story()
        story.follow(event)
        seat = event.seat
        who = seat_name(seat) if seat is not None else ""
        hand = ""
        if seat is not None and (story.has_split(seat) or event.hand not in (None, 0)):
            hand = self.format(N_(" (hand {n})"), n=(event.hand or 0) + 1)
        match event:
            case RoundStarted():
                return self.gettext(N_("New round: bets are placed."))
            case CardDealt(card=card, face_down=face_down):
                if seat is None:
                    if face_down:
                        return self.gettext(N_("The dealer takes a card face down."))
                    return self.format(N_("The dealer shows {card}."), card=self._defined(card))
                if face_down:
                    return self.format(
                        N_("{who}{hand} gets a card face down."), who=who, hand=hand
                    )
                return self.format(
                    N_("{who}{hand} gets {card}."), who=who, hand=hand, card=self._defined(card)
                )
            case Hit(card=card, total=told):
                after = story.value(seat, event.hand)
                before = story.value(seat, event.hand, without_last=True)
                total = self.value_text(after) if after is not None else str(told)
                message = N_("{who}{hand} hits {card}: {total}.")
                if before is not None and after is not None and before.soft and not after.soft:
                    message = N_("{who}{hand} hits {card}: {total} (the Ace now counts 1).")
                return self.format(
                    message, who=who, hand=hand, card=self.card_phrase(card), total=total
                )
            case DealerHit(card=card, total=told):
                after = story.value(None, None)
                total = self.value_text(after) if after is not None else str(told)
                return self.format(
                    N_("The dealer draws {card}: {total}."),
                    card=self.card_phrase(card),
                    total=total,
                )
            case HoleCardRevealed(card=card):
                shown = self.card_phrase(card, definite=False)
                after = story.value(seat, event.hand)
                if after is None:
                    return self.format(N_("The hidden card is {card}."), card=shown)
                total = self.hand_text_total(after)
                if seat is None:
                    return self.format(N_("The hidden card is {card}: {total}."), card=shown,
                                       total=total)
                return self.format(
                    N_("{who}{hand}: the card doubled face down is {card}: {total}."),
                    who=who, hand=hand, card=shown, total=total,
                )
            case InsuranceOffered():
                return self.gettext(N_("The dealer shows an Ace: insurance is offered."))
            case InsuranceDeclined():
                return self.format(N_("{who} declines insurance."), who=who)
            case Busted(total=total_value):
                return self.format(
                    N_("{who}{hand} busts with {total}."), who=who, hand=hand, total=total_value
                )
            case Split():
                return self.format(N_("{who} splits the pair."), who=who)
            case DealerBusted(total=total_value):
                return self.format(N_("The dealer busts with {total}."), total=total_value)
            case InsuranceTaken(amount=amount):
                return self.format(
                    N_("{who} takes insurance for {amount}."),
                    who=who,
                    amount=self.chips_text(amount),
                )
            case EvenMoneyTaken():
                return self.format(N_("{who} takes even money."), who=who)
            case DealerChecked(natural=natural):
                if natural:
                    return self.gettext(N_("The dealer checks the hidden card: blackjack!"))
                return self.gettext(N_("The dealer checks the hidden card: no blackjack."))
            case Stood(total=total_value, soft=soft, automatic=automatic):
                if automatic:
                    return self.format(N_("{who}{hand} has 21 and stands."), who=who, hand=hand)
                return self.format(
                    N_("{who}{hand} stands on {total}."),
                    who=who,
                    hand=hand,
                    total=self.value_text(HandValue(total_value, soft)),
                )
            case Doubled(bet=bet):
                return self.format(
                    N_("{who}{hand} doubles: the bet is now {bet}."),
                    who=who,
                    hand=hand,
                    bet=self.chips_text(bet),
                )
            case Surrendered(returned=returned):
                return self.format(
                    N_("{who} surrenders and gets {returned} back."),
                    who=who,
                    returned=self.chips_text(returned),
                )
            case DealerStood(total=total_value, soft=soft):
                total = self.value_text(HandValue(total_value, soft))
                return self.format(N_("The dealer stands on {total}."), total=total)
            case InsuranceSettled(amount=amount, won=won, net=net):
                if won:
                    return self.format(N_("{who}: insurance wins {net}."), who=who,
                                       net=self.chips_text(net))
                return self.format(N_("{who}: insurance loses {amount}."), who=who,
                                   amount=self.chips_text(amount))
            case HandSettled(outcome=outcome, net=net):
                return self.format(
                    _SETTLED.get(outcome, N_("{who}{hand} wins: {net}.")),
                    who=who,
                    hand=hand,
                    net=self.chips_text(net, signed=True),
                )
        return None

    def _defined(self, card: Card | None) -> str:
        """A dealt card as a sentence names it (nothing for a card the table does not see)."""
        return self.card_phrase(card) if card is not None else ""


class _Story:
    """What a narration knows of the round so far: each hand's cards (to say soft or hard) and
    which seats have split (to name their hands)."""

    def __init__(self) -> None:
        self.hands: dict[tuple[int | None, int], list[Card]] = {}
        self.split: set[int] = set()

    def has_split(self, seat: int) -> bool:
        return seat in self.split

    def value(
        self, seat: int | None, hand: int | None, *, without_last: bool = False
    ) -> HandValue | None:
        """The hand's value as told so far (before its last card, with ``without_last``)."""
        cards = self.hands.get((seat, hand or 0), [])
        if without_last:
            cards = cards[:-1]
        return hand_value(cards) if cards else None

    def follow(self, event: Event) -> None:
        match event:
            case CardDealt(card=Card() as card) | DealerHit(card=card):
                self.hands.setdefault((event.seat, event.hand or 0), []).append(card)
            case HoleCardRevealed(card=card):
                # The dealer's hole card, or a double dealt face down (its deal told no card).
                self.hands.setdefault((event.seat, event.hand or 0), []).append(card)
            case Split(seat=seat, hand=index):
                self.split.add(seat)
                cards = self.hands.get((seat, index), [])
                later = sorted(
                    (key for key in self.hands if key[0] == seat and key[1] > index),
                    key=lambda key: -key[1],
                )
                for key in later:  # the hands after this one move up by one, as in the engine
                    self.hands[(seat, key[1] + 1)] = self.hands.pop(key)
                if len(cards) >= 2:
                    self.hands[(seat, index + 1)] = [cards.pop()]


def _load(language: str) -> gettext.NullTranslations:
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


@lru_cache(maxsize=len(LANGUAGES))
def translator(language: str = DEFAULT_LANGUAGE) -> Translator:
    """The cached translator of a language (an unknown one falls back to the default)."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    return Translator(language, _load(language))


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
            # The interface's sources only: other modules' English is for logs and teachers.
            "tutor/ui",
            "tutor/i18n.py",
            "tutor/quiz.py",
            "app.py",
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
