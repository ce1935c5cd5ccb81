"""What a class's answers say, for the teacher the next morning: per student, which kinds of hand
they miss; per question, how many got it right and the wrong answer most given, with its cost.

Only the questions the class was shown count: a class finished after 5 of its 17 hands has results
about 5 hands (``SessionInfo.asked``). Costs are in chips at the class's bet (``CLASS_BET``), the
unit the live pages use, so the results, the projector and the spreadsheet agree.

Each hand belongs to one *topic*, named by the quiz's categories so the pages translate it the
same way: insurance, pairs (a pair the table lets you split), surrender (where it is the best play),
doubling (where doubling is the best play, soft or hard), soft totals and hard totals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)
from tutor.cards import format_cards, hand_value
from tutor.classroom.info import SessionInfo
from tutor.classroom.questions import ClassQuestion, judged
from tutor.decision import Action, Grade
from tutor.quiz_questions import Category
from tutor.strategy.judge import Judgement

if TYPE_CHECKING:
    import pandas as pd



def topic(question: ClassQuestion, judgement: Judgement) -> Category:
    """The kind of hand a question tests, from its cards and its best play."""
    if question.insurance:
        return Category.INSURANCE
    if Action.SPLIT in judgement.evs:
        return Category.PAIRS
    if judgement.play is Action.SURRENDER:
        return Category.SURRENDER
    if judgement.play is Action.DOUBLE:
        return Category.DOUBLING
    return Category.SOFT if hand_value(question.cards).soft else Category.HARD


@dataclass(frozen=True)
class AnswerRow:
    """One student's answer (or none) to one asked question."""

    student: str
    #: The question's number as the class saw it (1 for the first).
    number: int
    question: ClassQuestion
    answer: Action | None
    best: Action
    grade: Grade | None
    #: What the answer gives up, in bets (the judge's loss) and in chips at ``CLASS_BET``.
    loss: float | None
    cost: float | None
    topic: Category

    @property
    def is_right(self) -> bool | None:
        """Right as every page grades it (a close call is not right, nor a mistake)."""
        return None if self.grade is None else self.grade is Grade.RIGHT

    @property
    def is_mistake(self) -> bool:
        return self.grade is Grade.WRONG


@dataclass(frozen=True)
class QuestionResult:
    number: int
    question: ClassQuestion
    judgement: Judgement
    topic: Category
    answers: int
    right: int
    #: The mistake given most (None when nobody made one; a close call is not one), how many
    #: gave it, and what it costs in chips at ``CLASS_BET``.
    common_wrong: Action | None = None
    common_wrong_count: int = 0
    common_wrong_cost: float = 0.0

    @property
    def share_right(self) -> float | None:
        return self.right / self.answers if self.answers else None


@dataclass(frozen=True)
class StudentResult:
    nickname: str
    answers: int
    right: int
    #: Chips given away over the class, at ``CLASS_BET`` a hand.
    cost: float
    #: Per topic the student answered: (mistakes, answers).
    topics: dict[Category, tuple[int, int]] = field(default_factory=dict)

    @property
    def share_right(self) -> float | None:
        return self.right / self.answers if self.answers else None

    @property
    def missed(self) -> list[Category]:
        """The topics the student got wrong at least once, most missed first."""
        wrong = [(topic, counts) for topic, counts in self.topics.items() if counts[0]]
        wrong.sort(key=lambda item: (-item[1][0] / item[1][1], -item[1][0], item[0].value))
        return [topic for topic, _ in wrong]


@dataclass(frozen=True)
class ClassResults:
    info: SessionInfo
    rows: tuple[AnswerRow, ...]
    questions: tuple[QuestionResult, ...]
    students: tuple[StudentResult, ...]

    @property
    def answered(self) -> list[AnswerRow]:
        return [row for row in self.rows if row.answer is not None]

    def hardest(self) -> list[QuestionResult]:
        """The asked questions someone got wrong (a mistake), the worst share first."""
        missed = [q for q in self.questions if q.common_wrong is not None]
        return sorted(missed, key=lambda q: (q.share_right or 0.0, q.number))

    def frame(self) -> pd.DataFrame:
        """One row per student and asked question, for tables and exports."""
        import pandas as pd

        columns = [
            "student", "question", "hand", "dealer", "topic", "answer", "best", "grade",
            "correct", "ev_lost", "cost",
        ]  # fmt: skip
        return pd.DataFrame(
            [
                {
                    "student": row.student,
                    "question": row.number,
                    "hand": format_cards(row.question.cards),
                    "dealer": str(row.question.dealer_up),
                    "topic": row.topic.value,
                    "answer": None if row.answer is None else row.answer.value,
                    "best": row.best.value,
                    "grade": None if row.grade is None else row.grade.value,
                    "correct": row.is_right,
                    "ev_lost": row.loss,
                    "cost": row.cost,
                }
                for row in self.rows
            ],
            columns=columns,
        )


def class_results(
    info: SessionInfo,
    asked: Sequence[ClassQuestion],
    seats: Sequence[tuple[int, str]],
    given: Mapping[tuple[int, int], Action],
) -> ClassResults:
    """The results of the questions the class was shown (``asked``, in order), for its ``seats``
    (student id, nickname, in joining order) and the answers ``given`` (by student id and
    question position). Computed from what ``Classroom.results`` read, so this module needs
    nothing of the session's."""
    rows: list[AnswerRow] = []
    questions: list[QuestionResult] = []
    for position, question in enumerate(asked):
        advice = judged(info.rules, question)
        kind = topic(question, advice)
        wrong: Counter[Action] = Counter()
        answers = right = 0
        for seat_id, nickname in seats:
            action = given.get((seat_id, position))
            verdict = None if action is None else judged(info.rules, question, action)
            rows.append(
                AnswerRow(
                    student=nickname,
                    number=position + 1,
                    question=question,
                    answer=action,
                    best=advice.play,
                    grade=None if verdict is None else verdict.grade,
                    loss=None if verdict is None else verdict.loss,
                    cost=None if verdict is None else verdict.cost,
                    topic=kind,
                )
            )
            if verdict is not None and action is not None:
                answers += 1
                if verdict.is_mistake:
                    wrong[action] += 1
                right += verdict.is_right
        common = wrong.most_common(1)
        result = QuestionResult(position + 1, question, advice, kind, answers, right)
        if common:
            action, count = common[0]
            cost = judged(info.rules, question, action).cost
            result = QuestionResult(
                position + 1, question, advice, kind, answers, right, action, count, cost
            )
        questions.append(result)
    students = []
    for _, nickname in seats:
        mine = [row for row in rows if row.student == nickname and row.answer is not None]
        topics: dict[Category, tuple[int, int]] = {}
        for row in mine:
            missed, total = topics.get(row.topic, (0, 0))
            topics[row.topic] = (missed + row.is_mistake, total + 1)
        students.append(
            StudentResult(
                nickname=nickname,
                answers=len(mine),
                right=sum(1 for row in mine if row.is_right),
                cost=sum(row.cost or 0.0 for row in mine),
                topics=topics,
            )
        )
    return ClassResults(info, tuple(rows), tuple(questions), tuple(students))
