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

The rooms of the schema: the values of the fields (texts, cards, numbers, rules) in
``tutor.lessons.fields``; here, what a step contains (claims, a shown hand, the answers, a
question, a scripted deal, a drill); the step wrappers and the lesson itself in
``tutor.lessons.lesson``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Discriminator,
    Field,
    PlainValidator,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tutor.cards import Card, InvalidCardError, Rank
from tutor.decision import Action
from tutor.exact import LIMIT
from tutor.lessons.fields import (
    ANSWER_KINDS,
    ActionName,
    Cards,
    Exact,
    LessonValueError,
    Outcomes,
    Rules,
    Text,
    _action,
    _Strict,
    _up_cards,
    refused,
)
from tutor.quiz_questions import Category, Hands

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
                raise LessonValueError(
                    f"lesson-claim-{kind}-total",
                    f"{text!r}: a {kind} total in a claim is {low} to {high} (a 21 stands by "
                    "itself: there is no play to claim)",
                    found=repr(text), low=low, high=high,
                )
            return cls(kind, total)
        if len(words) == 2 and words[0] == words[1]:
            try:
                rank = Rank.parse(words[0])
            except InvalidCardError:
                pass
            else:
                return cls("pair", rank.points)
        raise LessonValueError(
            "lesson-claim-not-a-hand",
            f"{text!r} is not a hand of a claim: write a pair as 8,8 or A,A (10,10 for two "
            "ten-valued cards), a total as hard 16 or soft 17",
            found=repr(text),
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
        raise refused(
            "hands", "expected at least one hand, such as 8,8 or hard 16", "lesson-no-hands"
        )
    hands: list[HandClass] = []
    for item in items:
        if isinstance(item, HandClass):
            hands.append(item)
            continue
        if not isinstance(item, str | int) or isinstance(item, bool):
            raise refused("hands", "expected a hand such as 8,8 or hard 16", "lesson-want-hand")
        try:
            hands.append(HandClass.parse(str(item)))
        except LessonValueError as error:
            raise PydanticCustomError(
                "hands", "{message}", {"message": str(error), "refusal": error.refusal}
            ) from None
    return tuple(dict.fromkeys(hands))  # each row once, however often it is written


def _claim_ups(value: Any) -> tuple[int, ...]:
    if value == "all" or value == ["all"]:
        return ALL_UPS
    return _up_cards(value)


def _actions(value: Any) -> tuple[Action, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    if not items:
        raise refused("action", "expected an action such as split", "lesson-want-action")
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
            raise LessonValueError(
                "lesson-claim-play-or-avoid",
                "a claim gives either 'play' (the right play is this one) or 'avoid' (the right "
                "play is never this one), not both or neither",
            )
        if self.tables is not None and not self.tables:
            raise LessonValueError(
                "lesson-claim-no-tables",
                "'tables' lists at least one table, or is left out (every table)",
            )
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
                raise LessonValueError(
                    "lesson-total-or-number", "an answer is a total or a number, not both"
                )
            if "engine" in data:
                raise LessonValueError(
                    "lesson-total-engine",
                    "a total is counted from the cards: it has no 'engine' figure",
                )
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
        raise LessonValueError(
            "lesson-loss-signed",
            f"a loss is written as the amount lost, without a sign: loss: {-amount}, not {amount}",
            written=f"loss: {-amount}", found=str(amount),
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
            raise LessonValueError(
                "lesson-choice-beyond",
                f"choice {choice} is not an option: the {len(options)} options are numbered "
                f"from 0 to {len(options) - 1}",
                choice=choice, count=len(options), last=len(options) - 1,
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
        raise LessonValueError(
            "lesson-two-cards",
            f"the learner is dealt exactly two cards, not {len(player)}",
            count=len(player),
        )
    return player


def _up_and_hole(dealer: tuple[Card, ...]) -> tuple[Card, ...]:
    if len(dealer) > 2:
        raise LessonValueError(
            "lesson-dealer-cards",
            f"the dealer is dealt the up-card and at most a hole card, not {len(dealer)} "
            "cards; the dealer's later cards go in 'then'",
            count=len(dealer),
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
