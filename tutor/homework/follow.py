"""A teacher's follow-up of a group: per student and assignment, what is done, the score and its
mark, whether it came late, the time spent and what the mistakes cost; per assignment, who has
not started and the hands the group misses most, with the play it should have made.

Only the work done for the group counts: a drill's hands and an assigned lesson's answers are
copied for the group once the work was given (``tutor.homework.lesson_work``), so a lesson a
student finished before it was assigned is shown as such (``earlier``), with no mark. A member
the teacher merged into another (one student, two devices) is that other: both rows count, the
first answer at each position kept.

A module of its own because it only reads: it turns the group's rows (``GroupRecords``) into
frozen values the page, the spreadsheet and the printable page all show alike, so that the three
cannot disagree.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from tutor.homework.core import (
    MARK_SCALES,
    Assignment,
    GroupTeacher,
    Homework,
    StepsOf,
    _assignment,
)
from tutor.homework.in_class import LiveClass
from tutor.homework.lesson_work import QUESTION

#: "earlier": a lesson finished before it was given, and not worked on for the group since.
Status = Literal["not-started", "started", "done", "earlier"]
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
    #: Answers graded right, of ``answered`` (a lesson's questions, moves and drill hands; a
    #: drill's hands), as every page grades them (a close call is not right).
    right: int | None
    seconds: int
    #: What the mistakes gave away, in bets (expected value, the judge's figure).
    cost: float
    answered: int = 0
    #: When this student's work is due: the group's date, or their own (``extended``).
    due_at: datetime | None = None
    extended: bool = False
    finished_at: datetime | None = None
    #: Finished after it was due, or not finished and past due.
    late: bool = False
    #: The mark out of the group's scale and the share right (0 to 1), for work done only.
    mark: float | None = None
    share: float | None = None


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
    #: What a mark is out of.
    scale: int = MARK_SCALES[0]
    #: When it was read: what « late » was judged against.
    read_at: datetime | None = None


def mark_of(right: int, out_of: int, scale: int) -> float:
    """A mark as a teacher writes it: ``right`` of ``out_of`` on ``scale``, to a tenth.

    >>> mark_of(7, 9, 20), mark_of(2, 2, 20), mark_of(1, 3, 10), mark_of(0, 4, 100)
    (15.6, 20.0, 3.3, 0.0)
    """
    return round(scale * right / out_of, 1)


def _primaries(rows: Sequence[Any]) -> dict[int, int]:
    """Each member's id to the member it counts as: itself, or the one it was merged into."""
    ids = {row.id for row in rows}
    return {
        row.id: row.merged_into if row.merged_into in ids else row.id for row in rows
    }


def follow_up(
    homework: Homework,
    teacher: GroupTeacher,
    steps_of: StepsOf,
    classes: Sequence[LiveClass] = (),
) -> FollowUp:
    """Everything the teacher's follow-up page shows, read in a few queries whatever the size of
    the group (members, assignments, work rows, extensions, answers, lesson steps), with the live
    classes run for the group (``live_classes``, read by the caller, which holds the
    classroom)."""
    records = homework.records
    now = homework.clock()
    rows = records.members(teacher.group_id)
    primary = _primaries(rows)
    names = {row.id: row.nickname for row in rows if primary[row.id] == row.id}
    given = tuple(_assignment(row) for row in records.assignments([teacher.group_id]))
    ids = [a.id for a in given]
    timed: dict[tuple[int, int], list[Any]] = defaultdict(list)
    for row in records.work(ids):
        timed[(row.assignment_id, primary.get(row.member_id, row.member_id))].append(row)
    extended = {
        (assignment_id, primary.get(member_id, member_id)): due
        for (assignment_id, member_id), due in records.extensions(ids).items()
    }
    lessons = {a.lesson_id for a in given if a.lesson_id is not None}
    completed: dict[tuple[int, str], int] = {}
    for row in records.lesson_steps_done(teacher.group_id, lessons):
        key = (primary.get(row.member_id, row.member_id), row.lesson_id)
        completed[key] = max(completed.get(key, 0), int(row.completed))
    # Each position once per student (two devices merged may both have answered it): the first.
    first: dict[tuple[int, int, int], Any] = {}
    for row in records.answers(ids):
        place = (row.assignment_id, primary.get(row.member_id, row.member_id), row.position)
        if place not in first or row.answered_at < first[place].answered_at:
            first[place] = row
    answered: Counter[tuple[int, int]] = Counter()
    right: Counter[tuple[int, int]] = Counter()
    cost: defaultdict[tuple[int, int], float] = defaultdict(float)
    asked: dict[int, Counter[str]] = defaultdict(Counter)
    missed: dict[int, Counter[str]] = defaultdict(Counter)
    missed_cost: dict[int, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    seen_hand: dict[tuple[int, str], Any] = {}
    kinds: dict[int, Counter[str]] = defaultdict(Counter)
    kinds_cost: dict[int, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (assignment_id, member_id, _position), row in sorted(first.items()):
        key = (assignment_id, member_id)
        answered[key] += 1
        hand = row.category != QUESTION  # a lesson's question has no hand to list
        if hand:
            asked[assignment_id][row.item] += 1
            seen_hand.setdefault((assignment_id, row.item), row)
        if row.verdict == "right":
            right[key] += 1
            continue
        cost[key] += row.ev_loss
        if hand:
            missed[assignment_id][row.item] += 1
            missed_cost[assignment_id][row.item] += row.ev_loss
            kinds[member_id][row.category] += 1
            kinds_cost[member_id][row.category] += row.ev_loss
    scale = homework.mark_scale(teacher)
    work: dict[tuple[str, int], StudentWork] = {}
    not_started: dict[int, tuple[str, ...]] = {}
    # A lesson's steps, looked up once per assignment (a teacher's own lesson is read from the
    # database), not once per member.
    steps = {a.id: steps_of(a.lesson_id) for a in given if a.lesson_id is not None}
    for assignment in given:
        idle: list[str] = []
        for member_id, nickname in names.items():
            key = (assignment.id, member_id)
            timing = timed.get(key, [])
            ends = [row.done_at for row in timing if row.done_at is not None]
            finished_at = min(ends) if ends else None
            earlier = False
            if assignment.kind == "lesson":
                assert assignment.lesson_id is not None
                total = steps[assignment.id]
                done = max((int(row.steps_done) for row in timing), default=0)
                if finished_at is not None and total is not None:
                    done = total
                earlier = (
                    not timing
                    and total is not None
                    and completed.get((member_id, assignment.lesson_id), 0) >= total
                )
                out_of = answered[key]
            else:
                total = assignment.hands
                done = answered[key]
                out_of = assignment.hands or 0
            if total is not None:
                done = min(done, total)
            finished = total is not None and done >= total
            status: Status = (
                "done" if finished
                else "earlier" if earlier
                else "started" if done or timing or answered[key]
                else "not-started"
            )
            if status == "not-started":
                idle.append(nickname)
            due = extended.get(key, assignment.due_at)
            late = finished_at > due if finished_at is not None else not finished and now > due
            graded = finished and out_of > 0
            work[(nickname, assignment.id)] = StudentWork(
                nickname=nickname,
                assignment_id=assignment.id,
                status=status,
                done=done,
                total=total,
                right=right[key],
                seconds=sum(int(row.seconds) for row in timing),
                cost=cost[key],
                answered=answered[key],
                due_at=due,
                extended=key in extended,
                finished_at=finished_at,
                late=late,
                mark=mark_of(right[key], out_of, scale) if graded else None,
                share=right[key] / out_of if graded else None,
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
                    category=row.category,
                    item=item,
                    cards=row.cards,
                    dealer_up=row.dealer_up,
                    best=row.best,
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
        scale=scale,
        read_at=now,
    )
