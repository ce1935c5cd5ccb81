"""The decision point: the one type that joins the engine, the quiz, the lessons and the strategy.

A decision point is what a player sees when it is their turn: their hand, the dealer's up-card,
the table's rules and which actions are legal right now. The game produces them while a round is
played, the quiz and the lessons build them, and the strategy answers each of them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tutor.cards import Card, HandValue, hand_value, is_natural_cards, is_pair
from tutor.rules import TableRules


class Action(Enum):
    """Everything a player can decide. The first five are decisions on a hand."""

    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURE = "insure"
    DECLINE_INSURANCE = "decline-insurance"
    EVEN_MONEY = "even-money"

    @property
    def is_insurance_decision(self) -> bool:
        return self in (Action.INSURE, Action.DECLINE_INSURANCE, Action.EVEN_MONEY)

    @classmethod
    def parse(cls, text: str) -> Action:
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        aliases = {
            "h": "hit",
            "s": "stand",
            "d": "double",
            "p": "split",
            "r": "surrender",
            "no-insurance": "decline-insurance",
            "decline": "decline-insurance",
            "insurance": "insure",
        }
        key = aliases.get(key, key)
        try:
            return cls(key)
        except ValueError:
            names = ", ".join(action.value for action in cls)
            raise ValueError(f"{text!r} is not an action; actions are: {names}") from None


class Grade(Enum):
    """How a move is judged (by ``tutor.strategy.judge``, the one judge of every page): as good as
    the play the learner is graded against, a close call, or a mistake."""

    RIGHT = "right"
    ACCEPTABLE = "acceptable"
    WRONG = "wrong"


HAND_ACTIONS: tuple[Action, ...] = (
    Action.HIT,
    Action.STAND,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
)
INSURANCE_ACTIONS: tuple[Action, ...] = (Action.INSURE, Action.DECLINE_INSURANCE, Action.EVEN_MONEY)


@dataclass(frozen=True)
class DecisionPoint:
    """One player decision: the hand, the dealer's up-card, the rules and the legal actions."""

    cards: tuple[Card, ...]
    dealer_up: Card
    rules: TableRules
    legal: frozenset[Action]
    #: How many hands the seat holds now (splitting again is limited by ``rules.max_hands``).
    hands_in_seat: int = 1
    #: The hand came from a split: 21 in two cards is then not a natural.
    from_split: bool = False
    #: The seat took insurance on this round.
    insured: bool = False
    #: Other cards already seen this round (other seats' cards), for composition-dependent advice.
    seen: tuple[Card, ...] = field(default=())

    @property
    def value(self) -> HandValue:
        return hand_value(self.cards)

    @property
    def is_insurance_decision(self) -> bool:
        return any(action.is_insurance_decision for action in self.legal)

    @property
    def is_pair(self) -> bool:
        return is_pair(self.cards, by_value=self.rules.split_by_value)

    @property
    def is_natural(self) -> bool:
        return not self.from_split and is_natural_cards(self.cards)
