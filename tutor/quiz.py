"""Drills: one question at a time, dealt by the engine, judged by the strategy, scored.

Why a module of its own: the quiz page, the lessons' drill steps and the practice table's hints all
ask the same two things (give me a question of this category at this table; how good was this
answer) and must answer them the same way. The spaced-repetition issue will grow this module (a
scheduler choosing the next question, a store keeping the answers), so its pieces are small:
``next_question`` deals, ``judge`` gives a ``Verdict``, ``Score`` counts.

Every decision question is dealt from a real shuffled shoe and played by a real ``Round`` up to
the decision, so its legal actions are the engine's (a table without surrender never offers it),
and the frequencies of hands are the shoe's. Totals and payouts questions are answered by the
engine too: the expected number is the hand's value or the seat's settled net, never recomputed.

>>> import random
>>> from tutor.rules import PRESETS
>>> question = next_question(Category.SOFT, PRESETS["family"], random.Random(3))
>>> question.point is not None and question.point.value.soft
True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from tutor.cards import Card, Rank, Shoe, hand_value, is_pair
from tutor.decision import Action, DecisionPoint
from tutor.game import Money, Outcome, Phase, Round
from tutor.rules import Surrender, TableRules
from tutor.table import scripted_round


class Category(Enum):
    """What a drill asks about (the same names as a lesson's drill ``category``)."""

    HARD = "hard"
    SOFT = "soft"
    PAIRS = "pairs"
    INSURANCE = "insurance"
    SURRENDER = "surrender"
    TOTALS = "totals"
    PAYOUTS = "payouts"

    @property
    def is_decision(self) -> bool:
        return self not in (Category.TOTALS, Category.PAYOUTS)


def unavailable_reason(category: Category, rules: TableRules) -> str | None:
    """Why this table cannot ask this category (a refusal code), or None when it can."""
    if category is Category.SURRENDER and rules.surrender is Surrender.NONE:
        return "no-surrender"
    if category is Category.PAIRS and not rules.can_split:
        return "no-split"
    if category is Category.INSURANCE and not rules.insurance:
        return "no-insurance"
    return None


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
class Advice:
    """The strategy's answer for one decision: EVs per unit bet, the best action, the loss of the
    chosen one, and a reason as a key with parameters (the interface writes the sentence)."""

    evs: Mapping[Action, float]
    best: Action
    loss: float
    reason_key: str | None = None
    reason_params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """How an answer was judged."""

    question: Question
    given: Action | Fraction
    correct: bool
    advice: Advice | None = None

    @property
    def loss(self) -> float:
        """EV lost against the best play, per unit bet (0 for a right answer or a non-decision)."""
        return self.advice.loss if self.advice is not None else 0.0


# -- the strategy, as the quiz uses it ---------------------------------------------------------


def _strategy_advise() -> Callable[..., Any] | None:
    try:
        module = importlib.import_module("tutor.strategy")
    except ModuleNotFoundError:
        return None
    found = getattr(module, "advise", None)
    return found if callable(found) else None


def advise(point: DecisionPoint, chosen: Action | None = None) -> Advice | None:
    """The strategy's advice on a decision point, or None while the strategy cannot answer.

    The strategy layer (``tutor.strategy.advise``) owns every number; this only copies its answer
    into the quiz's own small record so the pages depend on one shape.
    """
    fn = _strategy_advise()
    if fn is None:
        return _advise_from_solution(point, chosen)
    raw = fn(point, chosen)
    reason = raw.reason
    return Advice(dict(raw.evs), raw.best, float(raw.loss), reason.key or None, dict(reason.params))


def _advise_from_solution(point: DecisionPoint, chosen: Action | None) -> Advice | None:
    """The EVs straight from the strategy's solved rule set, while ``advise`` is not available:
    the best legal action and the loss of the chosen one, without a reason."""
    try:
        solution_module = importlib.import_module("tutor.strategy.solution")
        solver_module = importlib.import_module("tutor.strategy.solver")
    except ModuleNotFoundError:
        return None
    if point.is_insurance_decision:
        return None
    solution = solution_module.solve(point.rules)
    hand = solver_module.hand_of(card.points for card in point.cards)
    raw = solution.action_evs(
        point.dealer_up.points,
        hand,
        hands_in_seat=point.hands_in_seat,
        from_split=point.from_split,
    )
    evs = {action: float(ev) for action, ev in raw.items() if action in point.legal}
    if not evs:
        return None
    best = max(evs, key=evs.__getitem__)
    loss = evs[best] - evs[chosen] if chosen in evs else 0.0
    return Advice(evs, best, loss)


# -- dealing questions -------------------------------------------------------------------------

_ATTEMPTS = 5000


def _fits(category: Category, cards: tuple[Card, Card], up: Card, rules: TableRules) -> bool:
    value = hand_value(cards)
    pair = is_pair(cards, by_value=rules.split_by_value)
    if category is Category.PAIRS:
        return pair
    if category is Category.SOFT:
        return value.soft and value.total < 21 and not pair
    if category is Category.HARD:
        return not value.soft and not pair and 8 <= value.total <= 17
    if category is Category.INSURANCE:
        return up.rank is Rank.ACE
    if category is Category.SURRENDER:
        return (not value.soft and 14 <= value.total <= 17 and up.points in (9, 10, 1)) or (
            pair and cards[0].points == 8 and up.points in (10, 1)
        )
    return True


def next_question(
    category: Category,
    rules: TableRules,
    rng: random.Random,
    *,
    dealer_ups: Collection[int] | None = None,
) -> Question:
    """A question of ``category`` at this table, dealt from a shuffled shoe.

    ``dealer_ups`` limits the dealer's up-card (values, 1 for an Ace), as a lesson's drill may.
    Raises ``ValueError`` when the table cannot ask the category (see ``unavailable_reason``).
    """
    why = unavailable_reason(category, rules)
    if why is not None:
        raise ValueError(f"this table cannot ask {category.value} questions ({why})")
    if category is Category.TOTALS:
        return _totals_question(rules, rng)
    if category is Category.PAYOUTS:
        return _payout_question(rules, rng)
    for _ in range(_ATTEMPTS):
        shoe = Shoe(rules.decks, rng=rng)
        first, up, second, hole = (shoe.draw() for _ in range(4))
        if dealer_ups and up.points not in dealer_ups:
            continue
        if category is Category.INSURANCE and dealer_ups and 1 not in dealer_ups:
            break
        if not _fits(category, (first, second), up, rules):
            continue
        dealer = (up, hole) if rules.dealer_peeks else (up,)
        game = scripted_round(
            rules, [(first, second)], dealer, seed=rng.randrange(2**32), strict=False
        )
        if category is not Category.INSURANCE and game.phase is Phase.INSURANCE:
            game.decline_insurance()
        if game.to_act() is None:
            continue  # a natural ended the round before any decision
        if category is Category.INSURANCE and game.phase is not Phase.INSURANCE:
            continue
        if category is Category.SURRENDER and Action.SURRENDER not in game.legal_actions():
            continue
        point = game.decision_point()
        return Question(category, (first, second), (up,), point=point)
    raise ValueError(f"could not deal a {category.value} question at this table")


def _totals_question(rules: TableRules, rng: random.Random) -> Question:
    shoe = Shoe(rules.decks, rng=rng)
    while True:
        cards = tuple(shoe.draw() for _ in range(rng.choice((2, 2, 3, 3, 4))))
        value = hand_value(cards)
        if value.total <= 21:
            break
        shoe = Shoe(rules.decks, rng=rng)
    expected = Fraction(value.total)
    hard = sum(card.points for card in cards)
    near = {hard, hard + 10, value.total - 1, value.total + 1, value.total + 2, value.total - 2}
    near.discard(value.total)
    wrong = sorted(near - {expected}, key=lambda n: (abs(n - value.total), n))
    options = sorted([expected, *(Fraction(n) for n in wrong[:3] if n > 1)])
    return Question(Category.TOTALS, cards, expected=expected, options=tuple(options))


def _payout_question(rules: TableRules, rng: random.Random) -> Question:
    """A settled hand: the learner says what the seat wins or loses (the engine's net)."""
    want = rng.choice(
        (Outcome.NATURAL, Outcome.NATURAL, Outcome.WIN, Outcome.PUSH, Outcome.LOSE, "double")
        + ((Outcome.SURRENDER,) if rules.surrender is not Surrender.NONE else ())
    )
    bet = rng.choice((2, 4, 5, 10))
    for _ in range(_ATTEMPTS):
        shoe = Shoe(rules.decks, rng=rng)
        game = Round(rules, shoe, [bet])
        action = {"double": Action.DOUBLE, Outcome.SURRENDER: Action.SURRENDER}.get(
            want, Action.STAND
        )
        while game.to_act() is not None:
            legal = game.legal_actions()
            if game.phase is Phase.INSURANCE:
                game.decline_insurance()
            elif action in legal:
                game.act(action)
            else:
                game.stand()
        result = game.results[0].hands[0]
        doubled = want == "double"
        outcome_ok = (
            result.outcome is Outcome.WIN and result.bet == 2 * bet
            if doubled
            else result.outcome is want and result.bet == bet
        )
        if not outcome_ok:
            continue
        net = Fraction(result.net)
        wrong = {net + bet, net - bet, -net, Fraction(bet), net * 2, net / 2, Fraction(0)}
        wrong.discard(net)
        choices = sorted(wrong, key=lambda n: (abs(n - net), n))[:3]
        return Question(
            Category.PAYOUTS,
            tuple(game.seats[0].hands[0].cards),
            tuple(game.dealer),
            expected=net,
            options=tuple(sorted([net, *choices])),
            bet=bet,
            outcome=result.outcome,
            doubled=doubled,
        )
    raise ValueError("could not deal a payout question at this table")


# -- judging and scoring -----------------------------------------------------------------------


def judge(question: Question, given: Action | Fraction | int) -> Verdict:
    """Judge an answer: a decision against the strategy's best play, a number exactly."""
    if question.point is not None:
        if not isinstance(given, Action):
            raise TypeError("a decision question is answered with an action")
        advice = advise(question.point, given)
        correct = advice is not None and given is advice.best
        return Verdict(question, given, correct, advice)
    if isinstance(given, Action):
        raise TypeError("this question is answered with a number")
    answer = Fraction(given)
    return Verdict(question, answer, answer == question.expected)


@dataclass
class Score:
    """A running score: answers, right answers, the current streak and the EV given away."""

    answered: int = 0
    right: int = 0
    streak: int = 0
    ev_lost: float = 0.0
    by_category: dict[Category, tuple[int, int]] = field(default_factory=dict)

    def record(self, verdict: Verdict) -> None:
        self.answered += 1
        category = verdict.question.category
        right, total = self.by_category.get(category, (0, 0))
        if verdict.correct:
            self.right += 1
            self.streak += 1
            right += 1
        else:
            self.streak = 0
            self.ev_lost += verdict.loss
        self.by_category[category] = (right, total + 1)

    @property
    def accuracy(self) -> float:
        return self.right / self.answered if self.answered else 0.0


@dataclass
class QuizSession:
    """A drill in progress: its category and table, the question shown, the last verdict."""

    category: Category
    rules: TableRules
    seed: int = 0
    dealer_ups: tuple[int, ...] | None = None
    #: How many questions the drill asks (None: as many as the learner likes).
    length: int | None = None
    question: Question | None = None
    verdict: Verdict | None = None
    score: Score = field(default_factory=Score)
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.next()

    @property
    def finished(self) -> bool:
        return (
            self.length is not None
            and self.score.answered >= self.length
            and self.verdict is not None
        )

    def next(self) -> Question:
        """Deal the next question and forget the last verdict."""
        self.verdict = None
        self.question = next_question(
            self.category, self.rules, self._rng, dealer_ups=self.dealer_ups
        )
        return self.question

    def answer(self, given: Action | Fraction | int) -> Verdict:
        """Judge the answer to the question shown; a second answer to it is ignored."""
        if self.verdict is not None:
            return self.verdict
        assert self.question is not None
        verdict = judge(self.question, given)
        self.verdict = verdict
        self.score.record(verdict)
        return verdict
