"""Drills: one question at a time, dealt by the engine, judged by the strategy, scored.

Why a module of its own: the quiz page, the lessons' drill steps and the practice table's hints all
ask the same two things (give me a question of this category at this table; how good was this
answer) and must answer them the same way. The spaced-repetition issue will grow this module (a
scheduler choosing the next question, a store keeping the answers), so its pieces are small:
``next_question`` deals, ``judge_answer`` gives a ``Verdict`` (the strategy's judge for
decisions), ``Score`` counts.

Every decision question is dealt from a real shuffled shoe and played by a real ``Round`` up to
the decision, so its legal actions are the engine's (a table without surrender never offers it),
and the frequencies of hands are the shoe's. Totals and payouts questions are answered by the
engine too: the expected number is the hand's value or the seat's settled net, never recomputed.

The rooms: the categories, questions and verdicts in :mod:`tutor.quiz_questions`; the dealing
of a question in :mod:`tutor.quiz_deal`; here, the judge of an answer, the score and a quiz
session.

>>> import random
>>> from tutor.rules import PRESETS
>>> question = next_question(Category.SOFT, PRESETS["family"], random.Random(3))
>>> question.point is not None and question.point.value.soft
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from tutor.decision import Action
from tutor.quiz_deal import (
    _OFFERED_ATTEMPTS,
    next_question,
    offered_point,
    question_for_item,
)
from tutor.quiz_questions import (
    Category,
    Hands,
    Question,
    Verdict,
    item_key,
)
from tutor.rules import TableRules
from tutor.srs import Grade

# The quiz never grades by itself: every decision goes to the strategy's one judge.
from tutor.strategy import Reference, judge


def judge_answer(
    question: Question,
    given: Action | Fraction | int,
    *,
    reference: Reference = Reference.CHART,
) -> Verdict:
    """Judge an answer: a decision by the strategy's judge (against the chart unless the learner
    chose the exact play), a number exactly against the engine's."""
    if question.point is not None:
        if not isinstance(given, Action):
            raise TypeError("a decision question is answered with an action")
        judgement = judge(question.point, given, reference=reference, bet=question.bet)
        assert judgement.grade is not None
        return Verdict(question, given, judgement.grade, judgement)
    if isinstance(given, Action):
        raise TypeError("this question is answered with a number")
    answer = Fraction(given)
    return Verdict(question, answer, Grade.RIGHT if answer == question.expected else Grade.WRONG)


@dataclass
class Score:
    """A running score: answers by grade and category, the streak, and the EV given away.

    What a session reports: accuracy by category, the EV lost per 100 decisions (what the
    mistakes would cost at the table, in bets), and the worst hands (the items that cost most).
    """

    answered: int = 0
    right: int = 0
    acceptable: int = 0
    streak: int = 0
    ev_lost: float = 0.0
    decisions: int = 0
    by_category: dict[Category, tuple[int, int]] = field(default_factory=dict)
    #: EV lost per item (``item_key``), for the worst hands.
    lost_by_item: dict[str, float] = field(default_factory=dict)

    def record(self, verdict: Verdict) -> None:
        self.answered += 1
        category = verdict.question.category
        right, total = self.by_category.get(category, (0, 0))
        if verdict.question.point is not None:
            self.decisions += 1
        grade = verdict.grade
        if grade is Grade.RIGHT:
            self.right += 1
            self.streak += 1
            right += 1
        else:
            if grade is Grade.ACCEPTABLE:
                self.acceptable += 1
            self.streak = 0
            self.ev_lost += verdict.loss
            item = item_key(verdict.question)
            self.lost_by_item[item] = self.lost_by_item.get(item, 0.0) + verdict.loss
        self.by_category[category] = (right, total + 1)

    @property
    def accuracy(self) -> float:
        return self.right / self.answered if self.answered else 0.0

    @property
    def ev_lost_per_100(self) -> float:
        """EV given away per 100 decisions, in bets: 2.0 means two bets lost every 100 hands."""
        return 100 * self.ev_lost / self.decisions if self.decisions else 0.0

    def accuracy_by_category(self) -> dict[Category, float]:
        return {category: right / total for category, (right, total) in self.by_category.items()}

    def worst(self, count: int = 5) -> list[tuple[str, float]]:
        """The items that cost most, worst first."""
        ranked = sorted(self.lost_by_item.items(), key=lambda item: (-item[1], item[0]))
        return [(item, lost) for item, lost in ranked[:count] if lost > 0]


@dataclass
class QuizSession:
    """A drill in progress: its category and table, the question shown, the last verdict."""

    category: Category
    rules: TableRules
    seed: int = 0
    dealer_ups: tuple[int, ...] | None = None
    #: Only hands of these totals (a teacher's restriction), or any.
    totals: tuple[int, ...] | None = None
    #: Only hands of this kind (a lesson's topic, such as hands holding an Ace), or any.
    hands: Hands | None = None
    #: Leans the drill towards weak items (see ``next_question``); None deals as the shoe does.
    weight: Callable[[str], float] | None = field(default=None, repr=False, compare=False)
    #: Items to ask first, in order (the learner's items due for review), before dealing freely.
    items: list[str] = field(default_factory=list)
    #: How many questions the drill asks (None: as many as the learner likes).
    length: int | None = None
    #: What decisions are graded against: the chart (the default) or the exact play.
    reference: Reference = Reference.CHART
    #: The moves a lesson offers, or any: its decision questions offer (and are judged on) only
    #: those the table allows, and its payouts questions' hands were played with them.
    actions: frozenset[Action] | None = None
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
        while self.items:
            try:
                self.question = question_for_item(self.items.pop(0), self.rules, self._rng)
            except ValueError:
                continue  # an item no deal makes at this table: the next one, or a fresh deal
            return self.question
        for _ in range(_OFFERED_ATTEMPTS):
            question = next_question(
                self.category,
                self.rules,
                self._rng,
                dealer_ups=self.dealer_ups,
                totals=self.totals,
                hands=self.hands,
                weight=self.weight,
                actions=self.actions,
            )
            if question.point is None:
                break
            point = offered_point(question.point, self.actions)
            if len(point.legal) >= 2:  # a question leaves the learner a choice
                question = replace(question, point=point)
                break
        self.question = question
        return question

    def answer(self, given: Action | Fraction | int) -> Verdict:
        """Judge the answer to the question shown; a second answer to it is ignored."""
        if self.verdict is not None:
            return self.verdict
        assert self.question is not None
        verdict = judge_answer(self.question, given, reference=self.reference)
        self.verdict = verdict
        self.score.record(verdict)
        return verdict
