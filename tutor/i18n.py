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
import subprocess
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from tutor.cards import Card, Rank, Suit
from tutor.decision import Action
from tutor.game import Event, EventKind, Money, Outcome
from tutor.rules import TableRules
from tutor.sources import citation
from tutor.strategy.advice import CLOSE

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
#: The languages the interface speaks, the default first.
LANGUAGES: tuple[str, ...] = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


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
    "no-surrender-ace": N_("This table does not offer surrender against a dealer Ace."),
    "even-money-natural": N_("Even money is only offered on a natural."),
    "no-even-money": N_("This table does not offer even money."),
    "no-insurance": N_("This table does not offer insurance."),
    "funds": N_("You need {needed} more chips for this, and have {stack}."),
    "insurance-amount": N_("Insurance is more than 0 and at most {most} chips."),
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

#: Sentences for the strategy's reason keys (``tutor.strategy.advice``); an unknown key falls
#: back to the EVs alone. Each is followed by the comparison of ``COMPARE_MESSAGES``, so the
#: figures that decide the play are always on screen beside the words.
REASON_MESSAGES: dict[str, str] = {
    "dealer-busts-often": N_(
        "The dealer shows {up} and busts {bust} of the time, while one more card would bust"
        " your {total} {player_bust} of the time: stand and let the dealer take the risk."
    ),
    "total-strong-enough": N_(
        "Against {up}, {hand} is strong enough: another card risks more than it can win."
    ),
    "cannot-bust": N_("No card can bust {hand}: take one."),
    "dealer-strong": N_(
        "The dealer shows {up} and busts only {bust} of the time: standing on {total} loses too"
        " often, even though one more card busts you {player_bust} of the time."
    ),
    "double-edge": N_(
        "Against {up}, {hand} needs only one more card, and that card is worth a bigger bet."
    ),
    "split-pair": N_(
        "Split {hand}: two hands that each start from one of its cards are worth more than the"
        " pair played as one hand."
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
        "On average over the hands of this chart cell ({bare} against {up}), {play} is worth"
        " {play_ev} of a bet, {other} {other_ev}."
    ),
    "chart-insurance": N_(
        "Averaged over the shoe, as the chart counts, {play} is worth {play_ev} of a bet, {other}"
        " {other_ev}."
    ),
}

#: The presets' names on screen; the keys stay the ids that addresses, files and tests use.
PRESET_NAMES: dict[str, str] = {
    "family": N_("Family table (rules booklet)"),
    "french-casino": N_("French casino"),
    "france-before-2007": N_("French casino before 2007"),
    "online-six-deck": N_("Online game, six decks"),
    "american-s17": N_("American shoe, dealer stands on soft 17"),
    "american-h17": N_("American shoe, dealer hits soft 17"),
}

_PERCENT_PARAMS = frozenset({"bust", "player_bust", "tens", "break_even"})
_CARD_PARAMS = frozenset({"up", "pair"})
#: Figures a sentence sets against each other: shown with as many decimals as it takes for them
#: to differ on screen (32,7 % against 33,3 %, never 33 % against 33 %).
_COMPARED: tuple[tuple[str, str], ...] = (("play_ev", "other_ev"), ("tens", "break_even"))


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
    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._translations.ngettext(singular, plural, count)

    def format(self, message: str, **params: Any) -> str:
        """Translate ``message`` then fill its ``{placeholders}``."""
        return self.gettext(message).format(**params)

    # -- numbers --
    def percent(self, value: float, *, digits: int = 2) -> str:
        """``0,40 %`` / ``0.40%``: the locale's percent pattern with ``digits`` decimals."""
        pattern = self._percent_pattern.replace(".00", "." + "0" * digits if digits else "")
        return format_percent(value, format=pattern, locale=self.locale)

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
        edited = name.endswith("*")
        base = name.rstrip("*")
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

    def card_alt(self, card: Card) -> str:
        """A card's alternative text: its name and its colour, for colour-blind learners too."""
        return f"{self.card_name(card)} ({self.colour_name(card.suit)})"

    def up_card_name(self, points: int) -> str:
        """An up-card given by its value (1 = Ace), as the chart's columns show it."""
        return self.gettext(N_("Ace")) if points == 1 else str(points)

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
                values[key] = self.chips(amount)
        return self.format(message, **values)

    def reason(self, key: str, params: Mapping[str, Any]) -> str | None:
        """The strategy's reason as sentences, or None for a key this version does not know: why
        the play, then the figures that decide it (``COMPARE_MESSAGES``), then a word when the
        call is close."""
        message = REASON_MESSAGES.get(key)
        if message is None:
            return None
        values: dict[str, Any] = dict(params)
        for name, value in params.items():
            if name in _CARD_PARAMS and isinstance(value, int):
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
            if "other" in params and scope in COMPARE_MESSAGES:
                sentence += " " + self.format(COMPARE_MESSAGES[scope], **values)
        except (KeyError, IndexError, ValueError):
            return None
        if params.get("close"):
            sentence += " " + self.format(
                N_("A close call: the two best plays are less than {close} of a bet apart."),
                close=self.number(CLOSE, digits=3),
            )
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
    def narrate(self, event: Event, seat_name: Callable[[int], str]) -> str | None:
        """One event of the round as a sentence, or None for events told by the table itself."""
        kind, data = event.kind, event.data
        who = seat_name(event.seat) if event.seat is not None else ""
        hand = "" if event.hand in (None, 0) else self.format(N_(" (hand {n})"), n=event.hand + 1)
        card = data.get("card")
        card_text = self.card_name(card) if isinstance(card, Card) else ""
        if kind is EventKind.ROUND_STARTED:
            return self.gettext(N_("New round: bets are placed."))
        if kind is EventKind.CARD_DEALT:
            if event.seat is None:
                if data.get("face_down"):
                    return self.gettext(N_("The dealer takes a card face down."))
                return self.format(N_("The dealer shows {card}."), card=card_text)
            if data.get("face_down"):
                return self.format(N_("{who}{hand} gets a card face down."), who=who, hand=hand)
            return self.format(N_("{who}{hand} gets {card}."), who=who, hand=hand, card=card_text)
        simple: dict[EventKind, str] = {
            EventKind.INSURANCE_OFFERED: N_("The dealer shows an Ace: insurance is offered."),
            EventKind.INSURANCE_DECLINED: N_("{who} declines insurance."),
            EventKind.HIT: N_("{who}{hand} hits: {card}, total {total}."),
            EventKind.BUSTED: N_("{who}{hand} busts with {total}."),
            EventKind.SPLIT: N_("{who} splits the pair."),
            EventKind.DEALER_BUSTED: N_("The dealer busts with {total}."),
            EventKind.DEALER_HIT: N_("The dealer draws {card}: total {total}."),
            EventKind.HOLE_CARD_REVEALED: N_("The hidden card is {card}."),
        }
        if kind in simple:
            values = {"who": who, "hand": hand, "card": card_text, **dict(data)}
            values["card"] = card_text
            return self.format(simple[kind], **values)
        if kind is EventKind.INSURANCE_TAKEN:
            return self.format(
                N_("{who} takes insurance for {amount} chips."),
                who=who,
                amount=self.chips(data["amount"]),
            )
        if kind is EventKind.EVEN_MONEY_TAKEN:
            return self.format(N_("{who} takes even money."), who=who)
        if kind is EventKind.DEALER_CHECKED:
            if data.get("natural"):
                return self.gettext(N_("The dealer checks the hidden card: blackjack!"))
            return self.gettext(N_("The dealer checks the hidden card: no blackjack."))
        if kind is EventKind.STOOD:
            message = N_("{who}{hand} stands on {total}.")
            if data.get("automatic"):
                message = N_("{who}{hand} has 21 and stands.")
            return self.format(message, who=who, hand=hand, total=data.get("total"))
        if kind is EventKind.DOUBLED:
            return self.format(
                N_("{who}{hand} doubles: the bet is now {bet} chips."),
                who=who,
                hand=hand,
                bet=self.chips(data["bet"]),
            )
        if kind is EventKind.SURRENDERED:
            return self.format(
                N_("{who} surrenders and gets {returned} chips back."),
                who=who,
                returned=self.chips(data["returned"]),
            )
        if kind is EventKind.DEALER_STOOD:
            return self.format(N_("The dealer stands on {total}."), total=data["total"])
        if kind is EventKind.INSURANCE_SETTLED:
            message = (
                N_("{who}: insurance wins {net}.")
                if data.get("won")
                else N_("{who}: insurance loses {amount}.")
            )
            return self.format(
                message, who=who, net=self.chips(data["net"]), amount=self.chips(data["amount"])
            )
        if kind is EventKind.HAND_SETTLED:
            return self.format(
                N_("{who}{hand}: {outcome}, {net} chips."),
                who=who,
                hand=hand,
                outcome=self.outcome_name(data["outcome"]),
                net=self.signed_chips(data["net"]),
            )
        return None


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
