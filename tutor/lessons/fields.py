"""The values a lesson's fields hold, each parsed into the engine's own type: texts (plain or
translated), cards, exact numbers, action names, outcomes, up-cards, a lesson's id and its table
rules; and ``_Strict``, the base of every lesson model (unknown keys fail, frozen once loaded).

A module of its own because these are the schema's words, used by every model of a step
(``tutor.lessons.models``) and of the lesson (``tutor.lessons.lesson``), and by the checks that
read a text in each language.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    Tag,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tutor.cards import Card, InvalidCardError, Rank
from tutor.decision import Action
from tutor.exact import NumberError, parse_exact
from tutor.game import Outcome
from tutor.lessons.problem_codes import PROBLEM_CODES
from tutor.lessons.source import card_tokens
from tutor.refusal import Refusal, RefusedError
from tutor.rules import PRESETS, InvalidRulesError, TableRules

#: The languages of the app; a translated text gives each of them.
LOCALES: tuple[str, ...] = ("fr", "en")
DEFAULT_LOCALE = "fr"

ANSWER_KINDS: tuple[str, ...] = ("total", "number", "chips", "loss", "action", "choice")

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class LessonValueError(RefusedError, ValueError):
    """A value the schema refuses, with its reason as data (``Refusal(code, params)``), so that
    the teacher reads it in their language; ``str()`` is the English sentence. Its codes are
    every lesson problem's (``PROBLEM_CODES``), which the other checks give as findings."""

    codes = PROBLEM_CODES

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(Refusal(code, params), message)


def refused(kind: str, template: str, code: str, **params: object) -> PydanticCustomError:
    """A schema error of ``kind`` (English ``template``, filled from ``params``) that carries its
    reason, ``code`` and ``params``, for the teacher's language."""
    return PydanticCustomError(kind, template, {**params, "refusal": Refusal(code, params)})


class _Strict(BaseModel):
    """Unknown keys fail; objects are immutable once loaded, so a lesson can be shared safely."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


# -- text -------------------------------------------------------------------------------------


class PlainText(str):
    """A text given as a plain string: the same words in every language.

    A subclass of ``str`` so the app can print it as is, while the translation check can still
    tell it from a translated text.
    """

    __slots__ = ()


class Translations(_Strict):
    """A text given per language: ``{fr: "…", en: "…"}``."""

    fr: Annotated[str, Field(min_length=1)] | None = None
    en: Annotated[str, Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _some_language(self) -> Translations:
        if self.fr is None and self.en is None:
            raise LessonValueError(
                "lesson-text-no-language", "a translated text needs at least one of fr and en"
            )
        return self

    def get(self, locale: str) -> str:
        """The text in ``locale``, falling back to the other language rather than to nothing."""
        wanted = getattr(self, locale, None) if locale in LOCALES else None
        if wanted is not None:
            return str(wanted)
        return next(str(getattr(self, code)) for code in LOCALES if getattr(self, code) is not None)

    def missing(self) -> tuple[str, ...]:
        return tuple(code for code in LOCALES if getattr(self, code) is None)


def _text_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "plain"
    if isinstance(value, dict | Translations):
        return "translated"
    return None


def _plain(value: str) -> PlainText:
    if not value.strip():
        raise LessonValueError("lesson-text-empty", "the text is empty")
    return PlainText(value)


#: A text: a plain string or ``{fr: …, en: …}``.
Text = Annotated[
    Annotated[str, AfterValidator(_plain), Tag("plain")]
    | Annotated[Translations, Tag("translated")],
    Discriminator(
        _text_kind,
        custom_error_type="text",
        custom_error_message="expected a text: a string, or a mapping {fr: …, en: …}",
    ),
]


def localize(text: str | Translations, locale: str = DEFAULT_LOCALE) -> str:
    """A text in the learner's language (a plain string is the same in every language)."""
    return text.get(locale) if isinstance(text, Translations) else str(text)


# -- cards, numbers, actions --------------------------------------------------------------------


def _cards(value: Any) -> tuple[Card, ...]:
    if isinstance(value, tuple) and all(isinstance(card, Card) for card in value):
        return value
    if not isinstance(value, str | list) or (
        isinstance(value, list) and not all(isinstance(token, str) for token in value)
    ):
        raise refused(
            "cards", 'expected cards as a string such as "A♠ 10♥" or "AS TH"', "lesson-want-cards"
        )
    cards: list[Card] = []
    for index, token in enumerate(card_tokens(value)):
        try:
            cards.append(Card.parse(token))
        except InvalidCardError as error:
            raise PydanticCustomError(
                "card_token",
                "{message} (cards are written A♠ 10♥ K♦ or AS TH KD)",
                {"message": str(error), "index": index, "token": token, "refusal": error.refusal},
            ) from None
    if not cards:
        raise refused("cards", 'expected at least one card, such as "A♠ 10♥"', "lesson-no-cards")
    return tuple(cards)


#: Cards in either notation, as a string (``"A♠ 10♥"``, ``"AS, TH"``) or a YAML list.
Cards = Annotated[tuple[Card, ...], PlainValidator(_cards)]


def _exact(value: Any) -> Fraction:
    """A lesson's number, through the same bounded parser as a learner's answer.

    So ``'17/0'`` is a schema problem rather than a ``ZeroDivisionError`` that took the page
    down, ``"1e9999999"`` is refused without being computed, and no lesson can expect an answer
    that a learner's typed answer could never match (beyond a million, or longer than 24
    characters).
    """
    try:
        return parse_exact(value)
    except NumberError as error:
        raise PydanticCustomError(
            "number", "{reason}", {"reason": str(error), "refusal": error.refusal}
        ) from None


#: An exact number of chips or an exact answer (never a float): ``3``, ``1.5`` or ``"3/2"``.
Exact = Annotated[Fraction, PlainValidator(_exact)]


def _action(value: Any) -> Action:
    if isinstance(value, Action):
        return value
    if not isinstance(value, str):
        raise refused("action", "expected an action such as hit or stand", "lesson-want-action")
    try:
        return Action.parse(value)
    except ValueError as error:
        names = ", ".join(action.value for action in Action)
        raise refused(
            "action", "{message}", "lesson-not-an-action", message=str(error), found=value,
            names=names,
        ) from None


ActionName = Annotated[Action, PlainValidator(_action)]


def _outcomes(value: Any) -> tuple[Outcome, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    names = ", ".join(outcome.value for outcome in Outcome)
    outcomes: list[Outcome] = []
    for item in items:
        if isinstance(item, Outcome):
            outcomes.append(item)
            continue
        try:
            outcomes.append(Outcome(str(item).strip().lower()))
        except ValueError:
            raise refused(
                "outcome",
                "{found} is not an outcome; outcomes are: {names}",
                "lesson-not-an-outcome",
                found=repr(item),
                names=names,
            ) from None
    if not outcomes:
        raise refused("outcome", "expected an outcome, such as win", "lesson-want-outcome")
    return tuple(outcomes)


#: One outcome, or a list of outcomes (one per hand after a split).
Outcomes = Annotated[tuple[Outcome, ...], PlainValidator(_outcomes)]


def _up_cards(value: Any) -> tuple[int, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    points: list[int] = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool) and 1 <= item <= 11:
            points.append(1 if item == 11 else item)
            continue
        try:
            points.append(Rank.parse(str(item)).points)
        except InvalidCardError:
            raise refused(
                "up_card",
                "{found} is not an up-card value; use 2 to 10, or A (or 1) for an Ace",
                "lesson-not-an-up-card",
                found=repr(item),
            ) from None
    return tuple(sorted(set(points)))


def _lesson_id(value: str) -> str:
    if not _ID.match(value):
        raise LessonValueError(
            "lesson-not-an-id",
            f"{value!r} is not a lesson id: write lowercase words joined by hyphens, "
            "such as soft-totals",
            found=repr(value),
        )
    return value


LessonId = Annotated[str, AfterValidator(_lesson_id)]


# -- table rules ------------------------------------------------------------------------------

def _rules(value: Any) -> TableRules:
    """A preset name, or a mapping of a preset plus overrides, read by the rules' own parser
    (``tutor.rules.parse_rules_mapping``, as a rules file is), without ``source``: a lesson
    traces its table itself. The first mistake is reported at its key in the file: the key
    itself when it is not a rule, else its value (the rules value itself for a preset name)."""
    if isinstance(value, TableRules):
        return value
    if isinstance(value, str):
        mapping: dict[Any, Any] = {"preset": value}
    elif isinstance(value, dict):
        mapping = value
    else:
        raise refused(
            "rules",
            "expected a preset name ({presets}) or a mapping {{preset: …, option: …}}",
            "lesson-want-rules",
            presets=", ".join(PRESETS),
        )
    try:
        return TableRules.from_mapping(mapping, source=False)
    except InvalidRulesError as error:
        if not error.problems:  # rules that do not hold together: the whole table is at fault
            every = Refusal("lesson-rules", {"refusals": error.refusals})
            context: dict[str, Any] = {"message": str(error), "refusal": every}
            raise PydanticCustomError("rules", "{message}", context) from None
        first = error.problems[0]
        context = {
            "message": first.message,
            "key": "self" if isinstance(value, str) else str(first.key),
            "at": "key" if first.at_key else "value",
            "refusal": first.refusal,
        }
        raise PydanticCustomError("rules", "{message}", context) from None
    except TypeError as error:
        detail = str(error)
        error_ = refused("rules", "{message}", "lesson-schema", message=detail, detail=detail)
        raise error_ from None


#: ``rules: family`` or ``rules: {preset: family, dealer_hits_soft_17: true}``.
Rules = Annotated[TableRules, PlainValidator(_rules)]
