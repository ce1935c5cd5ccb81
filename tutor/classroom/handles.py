"""What a class hands to its screens: the teacher's and the students' handles (``Teacher``,
``Student``), a seat on the roster, a student's view of the question and the reveal; and the two
readers of a stored question and a stored table.

A module of its own because these are values the pages hold and compare, with no database in
them; the session (``tutor.classroom.session``) makes them, the pages only read them.
"""


from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from tutor.cards import Card, format_cards, parse_cards
from tutor.classroom.questions import ClassQuestion, judged
from tutor.decision import Action, Grade
from tutor.rules import TableRules
from tutor.strategy.advice import Reason
from tutor.strategy.judge import Judgement


@dataclass(frozen=True)
class Teacher:
    """Proof that the key was given for this session (or that this browser created it)."""

    session_id: int
    code: str


@dataclass(frozen=True)
class Student:
    id: int
    session_id: int
    nickname: str
    token: str


@dataclass(frozen=True)
class Seat:
    """A student's seat as the teacher's roster shows it: one row per person, however many
    times their device reconnected."""

    nickname: str
    joined_at: datetime
    reconnections: int
    answered: int


@dataclass(frozen=True)
class StudentView:
    """What a student's screen may show, and nothing more."""

    title: str
    position: int
    questions: int
    question: ClassQuestion | None
    legal: tuple[Action, ...]
    answer: Action | None
    #: Only once the teacher has revealed: the play graded against, and the judge's grade of
    #: the student's answer (None without an answer).
    best: Action | None
    grade: Grade | None
    finished: bool
    #: Only once revealed: why ``best`` is the play, as the projector says it (issue 24: the
    #: phone shows the reason with the reveal, not the best play alone).
    reason: Reason | None = None
    #: ``SessionInfo.moment`` of the session this view was read from: the screen drawn from it
    #: is out of date once the class's ``Classroom.watched_moment`` differs.
    moment: tuple[int, bool, bool] = (-1, False, False)


@dataclass(frozen=True)
class FinalScore:
    """A student's own result at the end of a class, for their phone: right answers among the
    questions asked, and their place among the class (ties share a place)."""

    right: int
    asked: int
    rank: int
    students: int
    tied: bool


@dataclass(frozen=True)
class Reveal:
    question: ClassQuestion
    distribution: dict[Action, int]
    #: The judge's advice on the question: the chart's play, the exact play, EVs and reason.
    judgement: Judgement
    answered: int
    students: int

    @property
    def best(self) -> Action:
        """The play the class is graded against."""
        return self.judgement.play

    @property
    def right(self) -> int:
        """How many students answered a play the judge grades right."""
        return sum(
            count
            for action, count in self.distribution.items()
            if judged(self.judgement.point.rules, self.question, action).is_right
        )


def question_of(row: Any) -> ClassQuestion:
    """A stored question (a row with its cards, up-card and insurance flag, and its own table and
    words when it has them) as a value."""
    return ClassQuestion(
        parse_cards(row.cards),
        Card.parse(row.dealer_up),
        row.insurance,
        rules_of(row.own_rules) if row.own_rules else None,
        _texts_of(row.texts),
        frozenset(Action(name) for name in row.offered.split(",")) if row.offered else None,
        _texts_of(row.explanations),
    )


def _texts_of(stored: str | None) -> tuple[tuple[str, str], ...]:
    """Words per language from their stored JSON (``{"fr": "…", "en": "…"}``)."""
    return tuple((str(k), str(v)) for k, v in json.loads(stored).items()) if stored else ()


def question_row(question: ClassQuestion) -> dict[str, Any]:
    """What the database keeps of a question (``question_of`` reads it back)."""
    return {
        "cards": format_cards(question.cards, ascii=True),
        "dealer_up": question.dealer_up.ascii,
        "insurance": question.insurance,
        "own_rules": json.dumps(question.rules.as_dict()) if question.rules is not None else None,
        "texts": json.dumps(dict(question.texts), ensure_ascii=False) if question.texts else None,
        "offered": (
            ",".join(sorted(action.value for action in question.offered))
            if question.offered is not None
            else None
        ),
        "explanations": (
            json.dumps(dict(question.explanations), ensure_ascii=False)
            if question.explanations
            else None
        ),
    }


@lru_cache(maxsize=64)
def rules_of(stored: str) -> TableRules:
    """A session's rules from their stored JSON (cached: every answer needs them)."""
    return TableRules.from_mapping(json.loads(stored))
