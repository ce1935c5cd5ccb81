"""The live classes run for a study group, as its follow-up reads them: per class its date, the
group's members who sat in it, their score, their mistakes by kind of hand and what they cost.

Who is who: a seat is the group's member when the browser that took it is the member's (the
seat keeps its learner's token hash, the member its learner), never when the nickname typed in
class matches. A nickname is anyone's to type: a classmate sitting as « Ana » must not write
into Ana's record, and a student who typed « Ana B. » in class is still Ana in the group. So
the follow-up names each member by the group's nickname, and counts the other seats (guests, a
member on another device, a seat whose student erased their data) only as a number.

What the teacher sees is only the class they ran for the group (its ``group_id``, set when it
was created from the group's teacher handle) and, of it, only the group's members by name. A
student who erases their data leaves: their seat no longer names a learner, and their
membership is gone. A class expires as every class does (``tutor.classroom.RETENTION``), and
its results leave the group's record with it.

Costs are in bets (the judge's loss), the unit of the drills' « Mises perdues », so that a
member's homework and classes add up; a mistake is what class mode's results call one (a close
call is not).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tutor.classroom import ClassResults, Classroom, ClassroomError
from tutor.classroom.access import RETENTION
from tutor.classroom.handles import Teacher
from tutor.homework.core import GroupTeacher
from tutor.store.group_records import GroupRecords


@dataclass(frozen=True)
class ClassKind:
    """One member's mistakes of one kind of hand in one class, and what they cost in bets."""

    category: str
    missed: int
    cost: float


@dataclass(frozen=True)
class Attendance:
    """One member in one class: present or not, the hands answered out of those shown, the
    right ones, what the answers gave away (bets) and the mistakes by kind of hand."""

    nickname: str
    present: bool
    answered: int
    right: int
    cost: float
    kinds: tuple[ClassKind, ...] = ()


@dataclass(frozen=True)
class LiveClass:
    """A class run for the group: when, its title, the hands shown, each member's attendance
    (in the group's order) and the seats that are no member's."""

    code: str
    title: str
    held_at: datetime
    finished: bool
    asked: int
    members: tuple[Attendance, ...]
    guests: int


def live_classes(
    classroom: Classroom, teacher: GroupTeacher, members: Sequence[str]
) -> tuple[LiveClass, ...]:
    """The classes run for ``teacher``'s group that showed at least one hand and have not
    expired, oldest first, each with every member of ``members`` (the group's nicknames, in the
    order the follow-up reads them). A handful of queries per class: its results, as its
    teacher reads them, and the group's seats in it."""
    records = GroupRecords(classroom.engine)
    rows = records.classes(teacher.group_id, since=classroom.clock() - RETENTION)
    ids = [int(row.id) for row in rows]
    seats = records.seat_counts(ids)
    # Per class, a member's nickname in class (unique in the class) to theirs in the group.
    member_of: dict[int, dict[str, str]] = defaultdict(dict)
    for seat in records.seats_of_members(teacher.group_id, ids):
        member_of[int(seat.session_id)][str(seat.seat_nickname)] = str(seat.nickname)
    found: list[LiveClass] = []
    for row in rows:
        # The class was made for this group from its teacher's handle: the group's teacher reads
        # its results as the class's teacher does.
        try:
            results = classroom.results(Teacher(int(row.id), str(row.code)))
        except ClassroomError:  # expired between the two reads
            continue
        mine = member_of.get(int(row.id), {})
        found.append(
            LiveClass(
                code=str(row.code),
                title=str(row.title),
                held_at=row.created_at,
                finished=row.finished_at is not None,
                asked=results.info.asked,
                members=_attendance(results, mine, members),
                guests=seats.get(int(row.id), 0) - len(mine),
            )
        )
    return tuple(found)


def _attendance(
    results: ClassResults, by_class_name: dict[str, str], members: Sequence[str]
) -> tuple[Attendance, ...]:
    """Each member's line, from the class's rows of the seats they hold (``by_class_name``: a
    seat's nickname in class to its member's in the group); a member without a seat is
    absent."""
    answered: Counter[str] = Counter()
    right: Counter[str] = Counter()
    cost: defaultdict[str, float] = defaultdict(float)
    kinds: defaultdict[str, Counter[str]] = defaultdict(Counter)
    kinds_cost: defaultdict[str, defaultdict[str, float]] = defaultdict(
        lambda: defaultdict(float)
    )
    for row in results.answered:
        name = by_class_name.get(row.student)
        if name is None:
            continue
        answered[name] += 1
        right[name] += bool(row.is_right)
        cost[name] += row.loss or 0.0
        if row.is_mistake:
            kinds[name][row.topic.value] += 1
            kinds_cost[name][row.topic.value] += row.loss or 0.0
    present = set(by_class_name.values())
    return tuple(
        Attendance(
            nickname=name,
            present=name in present,
            answered=answered[name],
            right=right[name],
            cost=cost[name],
            kinds=tuple(
                ClassKind(category, count, kinds_cost[name][category])
                for category, count in sorted(kinds[name].items())
            ),
        )
        for name in members
    )
