"""What a drill asks: the categories, the hands a lesson may restrict a drill to, a question
(the cards, the decision point or the expected number) and its item key, and the verdict on an
answer.

A module of its own because the dealer of questions (``tutor.quiz_deal``), the judge and the
score (``tutor.quiz``), the lessons' drill steps and the pages all name these values, and none
of them should need the others to do so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from tutor.cards import Card, Rank, hand_value, is_natural_cards
from tutor.cell import Cell
from tutor.decision import Action, DecisionPoint
from tutor.game import Money, Outcome
from tutor.rules import Surrender, TableRules
from tutor.srs import Grade

# The quiz never grades by itself: every decision goes to the strategy's one judge.
from tutor.strategy import Judgement


class Category(Enum):
    """What a drill asks about (the same names as a lesson's drill ``category``)."""

    HARD = "hard"
    SOFT = "soft"
    PAIRS = "pairs"
    INSURANCE = "insurance"
    SURRENDER = "surrender"
    DOUBLING = "doubling"
    TOTALS = "totals"
    PAYOUTS = "payouts"

    @property
    def is_decision(self) -> bool:
        return self not in (Category.TOTALS, Category.PAYOUTS)


class Hands(Enum):
    """Which hands a drill deals, within its category: a lesson's ``hands``, so that its drill
    asks about what the lesson teaches (the Ace lesson's totals hold an Ace).

    A closed vocabulary rather than a list of totals, because a teacher names a topic ("hands
    with an Ace"), and because each value is a property of the learner's cards that every
    category can test: the two cards of a decision, the hand of a totals question, the first two
    cards of a payout.
    """

    #: The hand holds at least one Ace.
    ACES = "aces"
    #: The hand holds no Ace (the first lesson adds cards before the Ace is taught).
    NO_ACES = "no-aces"
    #: An Ace and a ten-valued card as the first two cards.
    NATURALS = "naturals"
    #: A hard 12 to 16: the hands where hitting risks a bust and standing rarely wins.
    STIFF = "stiff"
    #: A hard 9 to 11: the totals doubling is about.
    DOUBLE_TOTALS = "double-totals"

    def holds(self, cards: Sequence[Card]) -> bool:
        """Whether these cards are a hand of this kind."""
        if self is Hands.ACES:
            return any(card.rank is Rank.ACE for card in cards)
        if self is Hands.NO_ACES:
            return all(card.rank is not Rank.ACE for card in cards)
        if self is Hands.NATURALS:
            return is_natural_cards(cards)
        value = hand_value(cards)
        low, high = (12, 16) if self is Hands.STIFF else (9, 11)
        return not value.soft and low <= value.total <= high

    @property
    def description(self) -> str:
        """The hands in words, for a message to a teacher."""
        return {
            Hands.ACES: "holding an Ace",
            Hands.NO_ACES: "holding no Ace",
            Hands.NATURALS: "that is a natural",
            Hands.STIFF: "of hard 12 to 16",
            Hands.DOUBLE_TOTALS: "of hard 9 to 11",
        }[self]


def unavailable_reason(category: Category, rules: TableRules) -> str | None:
    """Why this table cannot ask this category (a refusal code), or None when it can."""
    if category is Category.SURRENDER and rules.surrender is Surrender.NONE:
        return "no-surrender"
    if category is Category.PAIRS and not rules.can_split:
        return "no-split"
    if category is Category.INSURANCE and not rules.insurance:
        return "no-insurance"
    return None


def item_key(question: Question) -> str:
    """The item a question drills, as the review schedule knows it: the category, then for a
    decision on a hand its chart cell (:meth:`tutor.cell.Cell.of`, the judge's row): the hand (a
    hard total, ``s`` and a soft total, a pair) and the dealer's up-card: ``hard:16:10``,
    ``soft:s18:9``, ``pairs:8-8:A``, ``surrender:16:10``. Two deals of the same decision are the
    same item. A hand, pair or total, is filed under the table of its cell (a pair that may not
    be split here is its total), so a miss is reviewed in the row it was graded in."""
    category = question.category
    if category is Category.TOTALS:
        return f"totals:{len(question.cards)}cards"
    if category is Category.PAYOUTS:
        outcome = question.outcome.value if question.outcome is not None else "?"
        return f"payouts:{outcome}{':double' if question.doubled else ''}"
    point = question.point
    assert point is not None
    if category is Category.INSURANCE:
        return f"insurance:{'natural' if point.is_natural else 'hand'}"
    cell = Cell.of(point)
    if category in (Category.HARD, Category.SOFT, Category.PAIRS):
        return str(cell)
    return cell.item(category.value)


@dataclass(frozen=True)
class Question:
    """One quiz question. Decision questions carry a ``point``; the others an ``expected`` number
    and the ``options`` offered as buttons."""

    category: Category
    cards: tuple[Card, ...]
    dealer: tuple[Card, ...] = ()
    point: DecisionPoint | None = None
    expected: Fraction | None = None
    options: tuple[Fraction, ...] = ()
    bet: Money = 2
    outcome: Outcome | None = None
    doubled: bool = False

    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal actions in the order buttons show them."""
        if self.point is None:
            return ()
        return tuple(action for action in Action if action in self.point.legal)


@dataclass(frozen=True)
class Verdict:
    """How an answer was judged: a decision by the strategy's judge (``judgement``), a number
    exactly against the engine's (``judgement`` None)."""

    question: Question
    given: Action | Fraction
    grade: Grade
    judgement: Judgement | None = None

    @property
    def correct(self) -> bool:
        return self.grade is Grade.RIGHT

    @property
    def loss(self) -> float:
        """EV given up against the play graded against, per unit bet (0 for a non-decision)."""
        return self.judgement.loss if self.judgement is not None else 0.0
