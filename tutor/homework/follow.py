"""A teacher's follow-up of a group: per student and assignment, what is done, the score, the
time spent and what the mistakes cost; per assignment, who has not started and the hands the
group misses most, with the play it should have made.

A module of its own because it only reads: it turns the group's rows (``GroupRecords``) into
frozen values the page, the spreadsheet and the printable page all show alike, so that the three
cannot disagree.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tutor.homework.core import Assignment, GroupTeacher, Homework, StepsOf, _assignment
from tutor.homework.in_class import LiveClass

Status = Literal["not-started", "started", "done"]
#: How many of an assignment's most missed hands the follow-up lists.
MOST_MISSED = 5


@dataclass(frozen=True)
class StudentWork:
    """One student's work on one assignment."""

    nickname: str
    assignment_id: int
    status: Status
    #: Steps done (a lesson) or hands answered (a drill), out of ``total``.
    done: int
    total: int | None
    #: A drill's hands graded right (None for a lesson).
    right: int | None
    seconds: int
    #: What the drill's mistakes gave away, in bets (expected value, the judge's figure).
    cost: float


@dataclass(frozen=True)
class MissedHand:
    """A hand of a drill the group missed: its item, the cards, how often it was missed out of
    how often it was asked, what that cost, and the play graded against."""

    category: str
    item: str
    cards: str
    dealer_up: str
    best: str
    missed: int
    asked: int
    cost: float


@dataclass(frozen=True)
class KindOfHand:
    """One student's mistakes of one kind (a drill's category) and their cost."""

    category: str
    missed: int
    cost: float


@dataclass(frozen=True)
class FollowUp:
    group: GroupTeacher
    members: tuple[str, ...]
    assignments: tuple[Assignment, ...]
    work: dict[tuple[str, int], StudentWork]
    not_started: dict[int, tuple[str, ...]]
    missed_hands: dict[int, tuple[MissedHand, ...]]
    mistakes: dict[str, tuple[KindOfHand, ...]]
    #: The live classes run for the group (``tutor.homework.in_class``), oldest first.
    classes: tuple[LiveClass, ...] = ()


def follow_up(
    homework: Homework,
    teacher: GroupTeacher,
    steps_of: StepsOf,
    classes: Sequence[LiveClass] = (),
) -> FollowUp:
    """Everything the teacher's follow-up page shows, read in four queries whatever the size of
    the group (members, assignments, work rows, drill answers) plus one for lesson steps; with
    the live classes run for the group (``live_classes``, read by the caller, which holds the
    classroom)."""
    records = homework.records
    members = records.members(teacher.group_id)
    names = {row.id: row.nickname for row in members}
    rows = records.assignments([teacher.group_id])
    given = tuple(_assignment(row) for row in rows)
    ids = [a.id for a in given]
    timed = {(row.assignment_id, row.member_id): row for row in records.work(ids)}
    answers = records.answers(ids)
    lessons = {a.lesson_id for a in given if a.lesson_id is not None}
    completed = {
        (row.member_id, row.lesson_id): int(row.completed)
        for row in records.lesson_steps_done(teacher.group_id, lessons)
    }
    answered: Counter[tuple[int, int]] = Counter()
    right: Counter[tuple[int, int]] = Counter()
    cost: defaultdict[tuple[int, int], float] = defaultdict(float)
    asked: dict[int, Counter[str]] = defaultdict(Counter)
    missed: dict[int, Counter[str]] = defaultdict(Counter)
    missed_cost: dict[int, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    seen_hand: dict[tuple[int, str], object] = {}
    kinds: dict[int, Counter[str]] = defaultdict(Counter)
    kinds_cost: dict[int, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in answers:
        key = (row.assignment_id, row.member_id)
        answered[key] += 1
        asked[row.assignment_id][row.item] += 1
        seen_hand.setdefault((row.assignment_id, row.item), row)
        if row.verdict == "right":
            right[key] += 1
        else:
            cost[key] += row.ev_loss
            missed[row.assignment_id][row.item] += 1
            missed_cost[row.assignment_id][row.item] += row.ev_loss
            kinds[row.member_id][row.category] += 1
            kinds_cost[row.member_id][row.category] += row.ev_loss
    work: dict[tuple[str, int], StudentWork] = {}
    not_started: dict[int, tuple[str, ...]] = {}
    # A lesson's steps, looked up once per assignment (a teacher's own lesson is read from the
    # database), not once per member.
    steps = {a.id: steps_of(a.lesson_id) for a in given if a.lesson_id is not None}
    for assignment in given:
        idle: list[str] = []
        for member_id, nickname in names.items():
            key = (assignment.id, member_id)
            timing = timed.get(key)
            if assignment.kind == "lesson":
                assert assignment.lesson_id is not None
                total = steps[assignment.id]
                done = completed.get((member_id, assignment.lesson_id), 0)
                got: int | None = None
            else:
                total = assignment.hands
                done = answered[key]
                got = right[key]
            if total is not None:
                done = min(done, total)
            finished = total is not None and done >= total
            status: Status = "done" if finished else "started" if done or timing else "not-started"
            if status == "not-started":
                idle.append(nickname)
            work[(nickname, assignment.id)] = StudentWork(
                nickname=nickname,
                assignment_id=assignment.id,
                status=status,
                done=done,
                total=total,
                right=got,
                seconds=int(timing.seconds) if timing is not None else 0,
                cost=cost[key],
            )
        not_started[assignment.id] = tuple(idle)
    hands: dict[int, tuple[MissedHand, ...]] = {}
    for assignment in given:
        order = sorted(
            missed[assignment.id].items(),
            key=lambda entry: (-entry[1], -missed_cost[assignment.id][entry[0]], entry[0]),
        )
        listed = []
        for item, count in order[:MOST_MISSED]:
            row = seen_hand[(assignment.id, item)]
            listed.append(
                MissedHand(
                    category=row.category,  # type: ignore[attr-defined]
                    item=item,
                    cards=row.cards,  # type: ignore[attr-defined]
                    dealer_up=row.dealer_up,  # type: ignore[attr-defined]
                    best=row.best,  # type: ignore[attr-defined]
                    missed=count,
                    asked=asked[assignment.id][item],
                    cost=missed_cost[assignment.id][item],
                )
            )
        hands[assignment.id] = tuple(listed)
    mistakes = {
        nickname: tuple(
            KindOfHand(category, count, kinds_cost[member_id][category])
            for category, count in sorted(kinds[member_id].items())
        )
        for member_id, nickname in names.items()
    }
    return FollowUp(
        group=teacher,
        members=tuple(names.values()),
        assignments=given,
        work=work,
        not_started=not_started,
        missed_hands=hands,
        mistakes=mistakes,
        classes=tuple(classes),
    )
