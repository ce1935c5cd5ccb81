"""What the store hands back: frozen records of a learner, an answer, a lesson's progress and
the settings, and the conversions between them and a row.

A module of its own so that a page or a test that reads a record knows its fields without the
statements that fill it; the records carry no engine and no session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal, get_args

import sqlalchemy as sa

from tutor.srs import Grade, Review


@dataclass(frozen=True)
class Learner:
    """A handle on one learner's rows. Only the server makes one, from the learner's token: the
    browser holds the token, never an id, so nothing it sends can name another learner."""

    id: int
    #: The display name, None until the learner gives one.
    nickname: str | None


#: Where a judged answer comes from: a quiz question, a hand at the practice table, a lesson.
Origin = Literal["quiz", "table", "lesson"]
ORIGINS: frozenset[str] = frozenset(get_args(Origin))

StepKind = Literal["ask", "deal", "drill"]
STEP_KINDS: frozenset[str] = frozenset(get_args(StepKind))


@dataclass(frozen=True)
class LessonProgress:
    """A lesson as the course list shows it: the step reached and how many steps are done."""

    step: int
    completed: int
    updated_at: datetime


@dataclass(frozen=True)
class StepRecord:
    """What the learner did on one step, enough to show it again as answered.

    ``data`` by ``kind`` (the pages write it; the store only bounds its size):

    - ``ask``: ``{"answer": str, "right": bool}``, the answer given and whether it was right;
    - ``deal``: ``{"actions": [str, ...], "net": str}``, the action values played in order and
      the net result in chips (a string, so that halves stay exact);
    - ``drill``: ``{"answers": [...]}``, the answers given in order.
    """

    kind: StepKind
    data: Mapping[str, Any]
    done: bool


@dataclass(frozen=True)
class LessonRecord:
    """Everything needed to rebuild a lesson run by replay: the seed of its deals, the step
    reached, the steps seen, and each step's record by index."""

    seed: int
    step: int
    seen: frozenset[int]
    completed: int
    steps: Mapping[int, StepRecord]
    updated_at: datetime


@dataclass(frozen=True)
class Settings:
    """What a learner chose in Settings, kept with their code so that a reload, a new visit or
    another device finds it again.

    ``rules`` is a JSON object the pages write and read (``{"preset": name}`` or every option of
    an edited table, ``TableRules.as_dict``); the store only bounds its size, as a step's data.
    """

    language: str
    reference: str
    rules: Mapping[str, Any]


@dataclass(frozen=True)
class Answer:
    """One judged answer, as stored."""

    category: str
    item: str
    cards: str
    dealer_up: str
    rules: str
    chosen: str
    best: str
    grade: Grade
    ev_loss: float
    answered_at: datetime
    #: Where it was answered (``ORIGINS``): the quiz unless said otherwise.
    origin: Origin = "quiz"


def _answer_row(answer: Answer) -> dict[str, Any]:
    if answer.origin not in ORIGINS:
        raise ValueError(f"an answer comes from one of {sorted(ORIGINS)}, not {answer.origin!r}")
    row = asdict(answer)
    row["verdict"] = row.pop("grade").value
    return row


def _answer(row: sa.RowMapping) -> Answer:
    return Answer(
        category=row["category"],
        item=row["item"],
        cards=row["cards"],
        dealer_up=row["dealer_up"],
        rules=row["rules"],
        chosen=row["chosen"],
        best=row["best"],
        grade=Grade(row["verdict"]),
        ev_loss=row["ev_loss"],
        answered_at=row["answered_at"],
        origin=row["origin"],
    )


def _review(row: sa.RowMapping) -> Review:
    return Review(
        item=row["item"],
        category=row["category"],
        box=row["box"],
        due_at=row["due_at"],
        seen=row["seen"],
        missed=row["missed"],
    )
