"""The lesson schema: what a lesson file may contain, as strict pydantic models.

This is the first of the three stages a lesson goes through (schema, then meaning in
``tutor.lessons.checks``, then the course as a whole in ``tutor.lessons.course``). Every model
forbids unknown keys, because a teacher's typo (``explaination:``) silently ignored would be a
lesson that quietly lacks its explanation. Values are converted here into the engine's own types
(``Card``, ``Action``, ``Outcome``, ``TableRules``, exact ``Fraction`` chips), so the later stages
and the app never parse strings again.

Every field name is also the YAML key, and step wrappers are named after their kind
(``DealStep.deal``), so a model's attribute path is the data path that ``SourceDocument`` knows the
position of: that is what lets a semantic check say ``file:line:col``.

>>> lesson = Lesson.model_validate({
...     "id": "demo", "title": "Demo", "level": 1, "goals": ["count"],
...     "steps": [{"ask": {"question": "Total?", "cards": "A♠ 6♥",
...                        "answer": {"number": 17}, "explanation": "soft 17"}}],
... })
>>> lesson.steps[0].kind, lesson.steps[0].ask.cards
('ask', (Card.parse('A♠'), Card.parse('6♥')))
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from tutor.cards import Card, InvalidCardError, Rank
from tutor.decision import Action
from tutor.exact import LIMIT, NumberError, parse_exact
from tutor.game import Outcome
from tutor.lessons.source import card_tokens
from tutor.quiz import Category, Hands
from tutor.rules import PRESETS, InvalidRulesError, TableRules

#: The languages of the app; a translated text gives each of them.
LOCALES: tuple[str, ...] = ("fr", "en")
DEFAULT_LOCALE = "fr"

ANSWER_KINDS: tuple[str, ...] = ("total", "number", "chips", "loss", "action", "choice")

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


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
            raise ValueError("a translated text needs at least one of fr and en")
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
        raise ValueError("the text is empty")
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
        raise PydanticCustomError("cards", 'expected cards as a string such as "A♠ 10♥" or "AS TH"')
    cards: list[Card] = []
    for index, token in enumerate(card_tokens(value)):
        try:
            cards.append(Card.parse(token))
        except InvalidCardError as error:
            raise PydanticCustomError(
                "card_token",
                "{message} (cards are written A♠ 10♥ K♦ or AS TH KD)",
                {"message": str(error), "index": index, "token": token},
            ) from None
    if not cards:
        raise PydanticCustomError("cards", 'expected at least one card, such as "A♠ 10♥"')
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
        raise PydanticCustomError("number", "{reason}", {"reason": str(error)}) from None


#: An exact number of chips or an exact answer (never a float): ``3``, ``1.5`` or ``"3/2"``.
Exact = Annotated[Fraction, PlainValidator(_exact)]


def _action(value: Any) -> Action:
    if isinstance(value, Action):
        return value
    if not isinstance(value, str):
        raise PydanticCustomError("action", "expected an action such as hit or stand")
    try:
        return Action.parse(value)
    except ValueError as error:
        raise PydanticCustomError("action", "{message}", {"message": str(error)}) from None


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
            raise PydanticCustomError(
                "outcome",
                "{found} is not an outcome; outcomes are: {names}",
                {"found": repr(item), "names": names},
            ) from None
    if not outcomes:
        raise PydanticCustomError("outcome", "expected an outcome, such as win")
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
            raise PydanticCustomError(
                "up_card",
                "{found} is not an up-card value; use 2 to 10, or A (or 1) for an Ace",
                {"found": repr(item)},
            ) from None
    return tuple(sorted(set(points)))


def _lesson_id(value: str) -> str:
    if not _ID.match(value):
        raise ValueError(
            f"{value!r} is not a lesson id: write lowercase words joined by hyphens, "
            "such as soft-totals"
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
        raise PydanticCustomError(
            "rules",
            "expected a preset name ({presets}) or a mapping {{preset: …, option: …}}",
            {"presets": ", ".join(PRESETS)},
        )
    try:
        return TableRules.from_mapping(mapping, source=False)
    except InvalidRulesError as error:
        if not error.problems:  # rules that do not hold together: the whole table is at fault
            raise PydanticCustomError("rules", "{message}", {"message": str(error)}) from None
        first = error.problems[0]
        context = {
            "message": first.message,
            "key": "self" if isinstance(value, str) else str(first.key),
            "at": "key" if first.at_key else "value",
        }
        raise PydanticCustomError("rules", "{message}", context) from None
    except TypeError as error:
        raise PydanticCustomError("rules", "{message}", {"message": str(error)}) from None


#: ``rules: family`` or ``rules: {preset: family, dealer_hits_soft_17: true}``.
Rules = Annotated[TableRules, PlainValidator(_rules)]


# -- claims -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class HandClass:
    """The hands a claim is about, as a chart names its rows: a pair (``8,8``), a hard total
    (``hard 16``) or a soft total (``soft 17``).

    ``cards`` is one hand of that row, the one the checker asks the strategy about: the chart's
    play is the row's, so any hand of the row gives the same answer.

    >>> HandClass.parse("8,8").cards, HandClass.parse("soft 17").cards
    ('8♠ 8♥', 'A♠ 6♥')
    """

    kind: Literal["pair", "hard", "soft"]
    value: int

    @classmethod
    def parse(cls, text: str) -> HandClass:
        words = text.strip().lower().replace("-", ",").replace(" ", ",").split(",")
        words = [word for word in words if word]
        if len(words) == 2 and words[0] in ("hard", "soft") and words[1].isdigit():
            total = int(words[1])
            kind: Literal["hard", "soft"] = "hard" if words[0] == "hard" else "soft"
            low, high = (5, 20) if kind == "hard" else (13, 20)
            if not low <= total <= high:
                raise ValueError(
                    f"{text!r}: a {kind} total in a claim is {low} to {high} (a 21 stands by "
                    "itself: there is no play to claim)"
                )
            return cls(kind, total)
        if len(words) == 2 and words[0] == words[1]:
            try:
                rank = Rank.parse(words[0])
            except InvalidCardError:
                pass
            else:
                return cls("pair", rank.points)
        raise ValueError(
            f"{text!r} is not a hand of a claim: write a pair as 8,8 or A,A (10,10 for two "
            "ten-valued cards), a total as hard 16 or soft 17"
        )

    @property
    def cards(self) -> str:
        if self.kind == "pair":
            rank = "A" if self.value == 1 else str(self.value)
            return f"{rank}♠ {rank}♥"
        if self.kind == "soft":
            return f"A♠ {self.value - 11}♥"
        if self.value <= 19:  # two different cards, so the hand is no pair
            low = max(2, self.value - 10)
            high = self.value - low
            if low == high:
                low, high = low - 1, high + 1
            return f"{high}♠ {low}♥"
        return "10♠ 6♥ 4♦"  # hard 20 without a pair of tens

    def __str__(self) -> str:
        if self.kind == "pair":
            rank = "A" if self.value == 1 else str(self.value)
            return f"{rank},{rank}"
        return f"{self.kind} {self.value}"


def _hand_classes(value: Any) -> tuple[HandClass, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    if not items:
        raise PydanticCustomError("hands", "expected at least one hand, such as 8,8 or hard 16")
    hands: list[HandClass] = []
    for item in items:
        if isinstance(item, HandClass):
            hands.append(item)
            continue
        if not isinstance(item, str | int) or isinstance(item, bool):
            raise PydanticCustomError("hands", "expected a hand such as 8,8 or hard 16")
        try:
            hands.append(HandClass.parse(str(item)))
        except ValueError as error:
            raise PydanticCustomError("hands", "{message}", {"message": str(error)}) from None
    return tuple(dict.fromkeys(hands))  # each row once, however often it is written


def _claim_ups(value: Any) -> tuple[int, ...]:
    if value == "all" or value == ["all"]:
        return ALL_UPS
    return _up_cards(value)


def _actions(value: Any) -> tuple[Action, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    if not items:
        raise PydanticCustomError("action", "expected an action such as split")
    return tuple(_action(item) for item in items)


#: The most claims one step, or the lesson itself, may state.
MAX_CLAIMS = 50

#: Every dealer up-card, as card values (1 for an Ace).
ALL_UPS: tuple[int, ...] = tuple(range(1, 11))


class Claim(_Strict):
    """A general statement about the right play, as data: the checker asks the strategy of every
    table the lesson plays at or names whether it holds, so a lesson cannot say « on sépare
    toujours les 8 » at a table that surrenders them against a 10.

    ``play``: the chart's play is one of these actions, for every hand and up-card named;
    ``avoid``: it is none of them (« ne jamais séparer les 10 »). ``tables``: the only tables it
    is claimed for (the text then names them); every table of the lesson when absent.
    """

    hands: Annotated[tuple[HandClass, ...], PlainValidator(_hand_classes)]
    against: Annotated[tuple[int, ...], PlainValidator(_claim_ups)] = ALL_UPS
    play: Annotated[tuple[Action, ...], PlainValidator(_actions)] | None = None
    avoid: Annotated[tuple[Action, ...], PlainValidator(_actions)] | None = None
    #: Six at most: each table's chart is solved to check the claim.
    tables: Annotated[tuple[Rules, ...], Field(max_length=6)] | None = None

    @model_validator(mode="after")
    def _play_or_avoid(self) -> Claim:
        if (self.play is None) == (self.avoid is None):
            raise ValueError(
                "a claim gives either 'play' (the right play is this one) or 'avoid' (the right "
                "play is never this one), not both or neither"
            )
        if self.tables is not None and not self.tables:
            raise ValueError("'tables' lists at least one table, or is left out (every table)")
        return self

    @property
    def actions(self) -> frozenset[Action]:
        """The moves the claim is about (what a sentence it backs talks about)."""
        return frozenset(self.play or ()) | frozenset(self.avoid or ())

    def holds_for(self, best: Action) -> bool:
        """Whether a hand whose right play is ``best`` agrees with the claim."""
        if self.play is not None:
            return best in self.play
        assert self.avoid is not None
        return best not in self.avoid


#: A step's or a lesson's general statements about the right play; a lesson's course states
#: eighteen at most in one place, and the bound keeps a hostile file's check short.
Claims = Annotated[tuple[Claim, ...], Field(max_length=MAX_CLAIMS)]


# -- steps --------------------------------------------------------------------------------------


class Show(_Strict):
    """Cards laid on the table with a caption: nothing to answer."""

    cards: Cards
    dealer: Cards | None = None
    caption: Text | None = None


class EngineFigure(_Strict):
    """The engine's figure a number answer gives: the house edge at the ``edge`` table, less the
    house edge at the ``minus`` table when given, times ``times`` (chips bet in all). The key must
    be that figure to the tenth, so a lesson cannot round 13.6 chips to 14."""

    edge: Rules
    minus: Rules | None = None
    times: Exact = Fraction(1)


class NumberAnswer(_Strict):
    """A number to type that the cards shown do not give (a count of a deck's cards, a sum of
    chips); ``engine`` names the engine's figure it is, when it is one."""

    number: Exact
    engine: EngineFigure | None = None


class TotalAnswer(NumberAnswer):
    """The total of the question's cards, typed as a number (``total: 17``): the checker counts
    the cards with the engine. A number answer to the learner, so the page asks for it as it
    asks for any number."""

    @model_validator(mode="before")
    @classmethod
    def _total_is_the_number(cls, data: Any) -> Any:
        if isinstance(data, dict) and "total" in data:
            if "number" in data:
                raise ValueError("an answer is a total or a number, not both")
            if "engine" in data:
                raise ValueError("a total is counted from the cards: it has no 'engine' figure")
            data = {("number" if key == "total" else key): value for key, value in data.items()}
        return data

    @property
    def total(self) -> Fraction:
        return self.number


class ChipsAnswer(_Strict):
    """An amount of chips, exact (``1.5`` or ``3/2`` for a natural paid on one chip)."""

    chips: Exact
    engine: EngineFigure | None = None


def _not_negative(amount: Fraction) -> Fraction:
    if amount < 0:
        raise ValueError(
            f"a loss is written as the amount lost, without a sign: loss: {-amount}, not {amount}"
        )
    return amount


class LossAnswer(_Strict):
    """An amount of chips lost, for a question that asks "how much do you lose?".

    Such a question states the sign itself, so a learner who types the amount (``2``) and one who
    types the signed net (``-2``) both answered it right; a gain (``+2``) is wrong.
    """

    loss: Annotated[Exact, AfterValidator(_not_negative)]


class ActionAnswer(_Strict):
    """A decision: hit, stand, double, split, surrender, insure, decline-insurance, even-money."""

    action: ActionName


class ChoiceAnswer(_Strict):
    """One option among several; ``choice`` is the index of the right one, counted from 0."""

    options: Annotated[tuple[Text, ...], Field(min_length=2)]
    choice: Annotated[int, Field(strict=True, ge=0)]

    @field_validator("choice")
    @classmethod
    def _choice_is_an_option(cls, choice: int, info: ValidationInfo) -> int:
        options = info.data.get("options")
        if options is not None and choice >= len(options):
            raise ValueError(
                f"choice {choice} is not an option: the {len(options)} options are numbered "
                f"from 0 to {len(options) - 1}"
            )
        return choice


def _answer_kind(value: Any) -> str | None:
    for kind, model in _ANSWER_MODELS.items():
        if isinstance(value, model):
            return kind
    if isinstance(value, dict):
        return next((key for key in ANSWER_KINDS if key in value), None)
    return None


_ANSWER_MODELS: dict[str, type[BaseModel]] = {
    "total": TotalAnswer,  # before "number": a total is a number answer too
    "number": NumberAnswer,
    "chips": ChipsAnswer,
    "loss": LossAnswer,
    "action": ActionAnswer,
    "choice": ChoiceAnswer,
}

Answer = Annotated[
    Annotated[TotalAnswer, Tag("total")]
    | Annotated[NumberAnswer, Tag("number")]
    | Annotated[ChipsAnswer, Tag("chips")]
    | Annotated[LossAnswer, Tag("loss")]
    | Annotated[ActionAnswer, Tag("action")]
    | Annotated[ChoiceAnswer, Tag("choice")],
    Discriminator(
        _answer_kind,
        custom_error_type="answer_kind",
        custom_error_message=(
            "expected an answer: {total: …}, {number: …}, {chips: …}, {loss: …}, {action: …} or "
            "{choice: …, options: […]}"
        ),
    ),
]


def _two_cards(player: tuple[Card, ...]) -> tuple[Card, ...]:
    if len(player) != 2:
        raise ValueError(f"the learner is dealt exactly two cards, not {len(player)}")
    return player


def _up_and_hole(dealer: tuple[Card, ...]) -> tuple[Card, ...]:
    if len(dealer) > 2:
        raise ValueError(
            f"the dealer is dealt the up-card and at most a hole card, not {len(dealer)} "
            "cards; the dealer's later cards go in 'then'"
        )
    return dealer


class Settle(_Strict):
    """The round a money question is about, written as a deal is: the checker plays it and the
    answer must be the engine's settlement, so a question's number cannot drift from the rules."""

    bet: Annotated[int, Field(strict=True, ge=1, le=LIMIT)] = 2
    player: Annotated[Cards, AfterValidator(_two_cards)]
    dealer: Annotated[Cards, AfterValidator(_up_and_hole)]
    then: Cards = ()
    decisions: tuple[ActionName, ...] = ()
    #: Another table than the lesson's (a question about a variant); the lesson's when absent.
    rules: Rules | None = None


class Ask(_Strict):
    """A question with one right answer, and the explanation shown once the learner answered."""

    question: Text
    cards: Cards | None = None
    dealer: Cards | None = None
    #: The round whose settlement a chips or loss answer gives (checked by the engine).
    settle: Settle | None = None
    answer: Answer
    explanation: Text
    #: For an action answer on a hand and an up-card: the answer must be the strategy's best play,
    #: unless this is false (a question about a common mistake, say).
    follows_strategy: Annotated[bool, Field(strict=True)] = True


class Expect(_Strict):
    """What the lesson says will happen in a scripted deal; the engine must agree."""

    decisions: tuple[ActionName, ...] = ()
    outcome: Outcomes
    #: Chips won (positive) or lost (negative) by the seat, insurance included.
    net: Exact


class Deal(_Strict):
    """A scripted round the learner plays, with what the lesson expects to happen."""

    intro: Text | None = None
    bet: Annotated[int, Field(strict=True, ge=1, le=LIMIT)] = 2
    player: Cards
    dealer: Cards
    then: Cards = ()
    expect: Expect
    follows_strategy: Annotated[bool, Field(strict=True)] = True
    explanation: Text | None = None
    #: Another table than the lesson's (a deal about a variant); the lesson's when absent.
    rules: Rules | None = None

    @field_validator("player")
    @classmethod
    def _two_cards(cls, player: tuple[Card, ...]) -> tuple[Card, ...]:
        return _two_cards(player)

    @field_validator("dealer")
    @classmethod
    def _one_or_two_cards(cls, dealer: tuple[Card, ...]) -> tuple[Card, ...]:
        return _up_and_hole(dealer)


#: A drill asks what the quiz asks: the lesson format takes the quiz's categories by name.
DrillCategory = Category
#: The kinds of hands a drill may be restricted to, by the quiz's names as well.
DrillHands = Hands


class Drill(_Strict):
    """``count`` random decision points of a category, generated by the quiz."""

    category: DrillCategory
    count: Annotated[int, Field(strict=True, ge=1, le=50)] = 5
    #: Only these dealer up-cards (card values, 1 for an Ace); all of them when absent.
    dealer: Annotated[tuple[int, ...], PlainValidator(_up_cards)] | None = None
    #: Only hands of the lesson's topic (``aces``: hands holding an Ace…); any hand when absent.
    #: Without it a drill asks what the category asks, and the Ace lesson's totals drill would
    #: hold an Ace in one question out of five.
    hands: DrillHands | None = None


class ExplainStep(_Strict):
    explain: Text
    claims: Claims = ()

    kind: ClassVar[Literal["explain"]] = "explain"
    practises: ClassVar[bool] = False


class ShowStep(_Strict):
    show: Show
    claims: Claims = ()

    kind: ClassVar[Literal["show"]] = "show"
    practises: ClassVar[bool] = False


class AskStep(_Strict):
    ask: Ask
    claims: Claims = ()

    kind: ClassVar[Literal["ask"]] = "ask"
    practises: ClassVar[bool] = True


class DealStep(_Strict):
    deal: Deal
    claims: Claims = ()

    kind: ClassVar[Literal["deal"]] = "deal"
    practises: ClassVar[bool] = True


class DrillStep(_Strict):
    drill: Drill
    claims: Claims = ()

    kind: ClassVar[Literal["drill"]] = "drill"
    practises: ClassVar[bool] = True


#: Any one step of a lesson.
AnyStep = ExplainStep | ShowStep | AskStep | DealStep | DrillStep

#: Every kind of step, by its name (the step's YAML key), in the order the format lists them:
#: the one list of step kinds, which the schema, its messages and ``StepCases`` read.
STEP_MODELS: dict[str, type[AnyStep]] = {
    model.kind: model for model in (ExplainStep, ShowStep, AskStep, DealStep, DrillStep)
}
STEP_KINDS: tuple[str, ...] = tuple(STEP_MODELS)
_STEP_TYPES = tuple(STEP_MODELS.values())

T = TypeVar("T")


@dataclasses.dataclass(frozen=True, kw_only=True)
class StepCases(Generic[T]):
    """What to do with each kind of step: the one place a step's kind is switched on.

    ``cases(step)`` calls the handler named after the step's kind, or ``otherwise`` for a kind
    given none. A ``StepCases`` without ``otherwise`` must name every kind: adding a kind to the
    format then fails at once, in every place that has not said what to do with it, rather than
    being skipped in silence by an ``if``/``elif`` chain.

    >>> worth = StepCases[int](ask=lambda step: 1, deal=lambda step: 2, otherwise=lambda step: 0)
    >>> [worth(step) for step in Lesson.model_validate({"id": "d", "title": "D", "level": 1,
    ...     "goals": ["g"], "steps": [{"explain": "hi"}, {"ask": {"question": "Total?",
    ...     "answer": {"number": 3}, "explanation": "3"}}]}).steps]
    [0, 1]
    >>> StepCases[int](ask=lambda step: 1)
    Traceback (most recent call last):
    ...
    TypeError: no case for the step kind(s) explain, show, deal, drill, and no 'otherwise'
    """

    explain: Callable[[ExplainStep], T] | None = None
    show: Callable[[ShowStep], T] | None = None
    ask: Callable[[AskStep], T] | None = None
    deal: Callable[[DealStep], T] | None = None
    drill: Callable[[DrillStep], T] | None = None
    #: For every kind without a case of its own.
    otherwise: Callable[[AnyStep], T] | None = None

    def __post_init__(self) -> None:
        missing = [kind for kind in STEP_KINDS if getattr(self, kind) is None]
        if missing and self.otherwise is None:
            raise TypeError(
                f"no case for the step kind(s) {', '.join(missing)}, and no 'otherwise'"
            )

    def __call__(self, step: AnyStep) -> T:
        case: Callable[[Any], T] | None = getattr(self, step.kind)
        if case is None:
            assert self.otherwise is not None  # checked when built
            return self.otherwise(step)
        return case(step)


def nothing(step: AnyStep) -> None:
    """The case of the kinds a ``StepCases`` has nothing to do with."""
    return None


#: The question a step asks, if it is an ask step.
ask_of: StepCases[Ask | None] = StepCases(ask=lambda step: step.ask, otherwise=nothing)
#: The cards a step shows, if it is a show step.
show_of: StepCases[Show | None] = StepCases(show=lambda step: step.show, otherwise=nothing)
#: The table a step names for itself (a deal's or a settled question's ``rules``), if any.
own_table_of: StepCases[TableRules | None] = StepCases(
    deal=lambda step: step.deal.rules,
    ask=lambda step: step.ask.settle.rules if step.ask.settle is not None else None,
    otherwise=nothing,
)


def _step_kind(value: Any) -> str | None:
    if isinstance(value, _STEP_TYPES):
        return value.kind
    if isinstance(value, dict):
        return next((key for key in value if key in STEP_KINDS), None)
    return None


#: A step is a mapping with one key, its kind: ``- explain: …``, ``- deal: {…}``.
Step = Annotated[
    Annotated[ExplainStep, Tag("explain")]
    | Annotated[ShowStep, Tag("show")]
    | Annotated[AskStep, Tag("ask")]
    | Annotated[DealStep, Tag("deal")]
    | Annotated[DrillStep, Tag("drill")],
    Discriminator(
        _step_kind,
        custom_error_type="step_kind",
        custom_error_message=f"a step is one of {', '.join(STEP_KINDS)}",
    ),
]


class Lesson(_Strict):
    """One lesson file, validated; see LESSON_FORMAT.md for the format as teachers read it."""

    id: LessonId
    title: Text
    level: Annotated[int, Field(strict=True, ge=1, le=3)]
    #: The table the lesson assumes; the family table when absent.
    rules: Rules = PRESETS["family"]
    goals: Annotated[tuple[Text, ...], Field(min_length=1)]
    requires: tuple[LessonId, ...] = ()
    #: The only actions the lesson offers (its deals' buttons), so nothing is offered before it
    #: is taught; every action when absent.
    actions: tuple[ActionName, ...] | None = None
    #: General statements about the right play made in the goals or anywhere in the lesson.
    claims: Claims = ()
    #: Whether verdicts in this lesson show the expected value of every move (the table under a
    #: verdict): only in the lesson that teaches them and the lessons after it, so a beginner is
    #: never shown figures no lesson has explained. Off when absent.
    expected_values: Annotated[bool, Field(strict=True)] = False
    steps: Annotated[tuple[Step, ...], Field(min_length=1)]

    @property
    def offered(self) -> frozenset[Action]:
        """The actions this lesson's deals offer: its ``actions``, or every action."""
        return frozenset(Action) if self.actions is None else frozenset(self.actions)

    @field_validator("requires", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


# -- the schema pass --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Validated:
    """A lesson file's data through the schema: the lesson when every part passed, otherwise
    pydantic's errors (located as in the file: ``("steps", 3, "deal", …)``) and the parts that
    passed, so that the checks that can still run on a broken lesson run on those."""

    lesson: Lesson | None
    errors: list[ErrorDetails]
    #: The lesson's table, when it passed (the family table when the file names none).
    rules: TableRules | None
    #: The steps that passed, by their index in the file.
    steps: dict[int, AnyStep]


_RULES_ADAPTER: TypeAdapter[TableRules] = TypeAdapter(Rules)
_STEP_ADAPTER: TypeAdapter[AnyStep] = TypeAdapter(Step)
#: Stands in the lesson for a step that failed on its own, whose errors are already known.
_PASSED_OVER = ExplainStep(explain=PlainText("-"))


def validate_lesson(data: dict[str, Any]) -> Validated:
    """The schema of one lesson file, each part validated once: the table, then every step on
    its own (so the steps that pass are known even when another fails), then the lesson around
    them, given the parts already validated, which pydantic keeps as they are.

    >>> broken = validate_lesson({"id": "d", "title": "D", "level": 1, "goals": ["g"],
    ...     "steps": [{"explain": "hi"}, {"explian": "typo"}]})
    >>> broken.lesson, sorted(broken.steps), [error["loc"][:2] for error in broken.errors]
    (None, [0], [('steps', 1)])
    """
    errors: list[ErrorDetails] = []
    merged = dict(data)
    rules: TableRules | None = PRESETS["family"]
    if "rules" in data:
        rules, found = _validated(_RULES_ADAPTER, data["rules"], ("rules",))
        errors += found
        merged["rules"] = rules if rules is not None else PRESETS["family"]
    steps: dict[int, AnyStep] = {}
    raw_steps = data.get("steps")
    if isinstance(raw_steps, list):
        parts: list[Any] = []
        for index, raw in enumerate(raw_steps):
            step, found = _validated(_STEP_ADAPTER, raw, ("steps", index))
            errors += found
            if step is not None:
                steps[index] = step
            parts.append(step if step is not None else _PASSED_OVER)
        merged["steps"] = parts
    try:
        lesson: Lesson | None = Lesson.model_validate(merged)
    except ValidationError as error:
        lesson = None
        errors = error.errors() + errors
    return Validated(None if errors else lesson, errors, rules, steps)


def _validated(
    adapter: TypeAdapter[Any], raw: Any, where: tuple[str | int, ...]
) -> tuple[Any, list[ErrorDetails]]:
    """``raw`` validated, or None with its errors located at ``where`` in the lesson."""
    try:
        return adapter.validate_python(raw), []
    except ValidationError as error:
        found = [
            ErrorDetails(**{**details, "loc": (*where, *details["loc"])})
            for details in error.errors()
        ]
        return None, found
