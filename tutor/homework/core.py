"""Homework's rules: a teacher's study groups, the work given to them with a due date, a
student's « À faire », and what each member did for the group.

Who is who, as in class mode: a teacher is the browser that created the group (its learner
token's hash), or anyone with the group's key (shown once, kept as a slow hash); a student joins
once with the group's code and a nickname, from their own browser, with no account; the same
browser finds its groups again after a reload or on another device with its recovery code.

What a teacher sees is only the work done for the group: the answers given in an assigned drill
(stored for the group, ``tutor.store.groups``), the steps done in an assigned lesson, the time
spent on each assignment. Nothing else of a student's record is read here.

Why these bounds: a school's largest group is a lecture hall (``MAX_MEMBERS``, above the 300 of
the issue's bench); a teacher keeps a few classes a year a few groups each (``MAX_GROUPS``); a
term's work is tens of assignments (``MAX_ASSIGNMENTS``); a drill is a few minutes of hands
(``MAX_HANDS``); a due date lies within a school year (``LONGEST_NOTICE``). A group nobody worked
in or on for a term (``RETENTION``) is deleted with everything in it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import sqlalchemy as sa

from tutor.classroom.access import (
    ANONYMOUS,
    CREATES_PER_MINUTE,
    client_key,
    hash_key,
    key_matches,
    learner_hash,
    lock_for,
    new_code,
    new_key,
    normalise_code,
)
from tutor.classroom.tries import Guesser, Tries
from tutor.homework.errors import (
    GroupFullError,
    GroupKeyLockError,
    GroupsTooFastError,
    InvalidWorkError,
    MergeRefusedError,
    NameTakenError,
    TooManyGroupsError,
    TooManyTriesError,
    TooMuchWorkError,
    UnknownGroupError,
)
from tutor.identity import fold_nickname
from tutor.quiz_questions import Category
from tutor.rules import TableRules
from tutor.store import Answer, Store, clean_nickname
from tutor.store.group_records import BoundReachedError, GroupRecords, Record
from tutor.store.groups import GROUP_NAME_MAX
from tutor.store.tables import LESSON_ID_MAX

MAX_MEMBERS = 400
MAX_GROUPS = 50
MAX_ASSIGNMENTS = 100
MAX_HANDS = 50
LONGEST_NOTICE = timedelta(days=366)
RETENTION = timedelta(days=120)
#: What a mark may be out of: 20 (the French school's, and the default), 10, or 100.
MARK_SCALES = (20, 10, 100)
#: Time counted in one call: a page reports the seconds since its last report; more than this
#: is a tab left open, not work.
MAX_SECONDS_A_CALL = 600

Kind = Literal["lesson", "drill"]
#: The drill categories a group can be given: the decisions and the numbers the quiz asks.
DRILL_CATEGORIES: tuple[Category, ...] = tuple(Category)


@dataclass(frozen=True)
class GroupTeacher:
    """Proof that this browser created the group or gave its key."""

    group_id: int
    code: str
    name: str


@dataclass(frozen=True)
class Membership:
    """A student's place in a group (made only from their own learner token)."""

    group_id: int
    member_id: int
    group_name: str
    nickname: str


@dataclass(frozen=True)
class Assignment:
    """A piece of work given to a group: a lesson (its id) or a drill (category, hands, table)."""

    id: int
    group_id: int
    kind: Kind
    due_at: datetime
    created_at: datetime
    lesson_id: str | None = None
    category: Category | None = None
    hands: int | None = None
    rules: TableRules | None = None


@dataclass(frozen=True)
class Todo:
    """One line of a student's « À faire »: the work, how far they are, and by when (their own
    due date when the teacher gave them more time).

    A lesson's ``done`` counts the steps done since it was given (the group's copy of its
    answers began then); ``earlier`` says the lesson was finished before it was given, so the
    student starts it again for the group."""

    membership: Membership
    assignment: Assignment
    done: int
    total: int | None
    due_at: datetime | None = None
    finished_at: datetime | None = None
    earlier: bool = False

    @property
    def due(self) -> datetime:
        return self.due_at or self.assignment.due_at

    @property
    def finished(self) -> bool:
        return self.total is not None and self.done >= self.total

    def overdue(self, now: datetime) -> bool:
        """Not finished, and its due time is past."""
        return not self.finished and now > self.due

    @property
    def late(self) -> bool:
        """Finished after its due time."""
        return self.finished_at is not None and self.finished_at > self.due


#: The number of steps of a lesson by its id (None for a lesson the course no longer has).
StepsOf = Callable[[str], int | None]


def _now() -> datetime:
    return datetime.now(UTC)


class Homework:
    """Study groups and their work over one store (thread-safe: each call is its own
    transaction)."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] = _now) -> None:
        self.store = store
        self.records = GroupRecords(store.engine)
        self.clock = clock
        #: Wrong group codes counted per guesser, in class mode's rate table
        #: (``tutor.classroom.tries``): a right code is never refused for its network address.
        self.tries = Tries(store.classes, lambda: self.clock())

    # -- the teacher's side --
    def create_group(
        self, name: str, learner_token: str, *, client: str | None = None
    ) -> tuple[GroupTeacher, str]:
        """A new group named ``name``, owned by this browser; the group and its key (shown once).

        Created at most ``CREATES_PER_MINUTE`` a minute from one browser and from one network
        client (``client``: the request's address), as classes are, each keeping at most
        ``MAX_GROUPS``: a school's teachers behind one address on a morning all make theirs,
        and a flood from one address fills no table faster than that."""
        cleaned = " ".join(name.split())[:GROUP_NAME_MAX]
        if not cleaned:
            raise _invalid("a group needs a name", "name")
        creator = learner_hash(learner_token)
        buckets = [(f"group-create-b:{creator}", CREATES_PER_MINUTE["browser"])]
        if client is not None:
            buckets.append((f"group-create-c:{client_key(client)}", CREATES_PER_MINUTE["client"]))
        self.tries.count(buckets, GroupsTooFastError)
        self.purge_expired()  # as a class's creation does: idle groups go when a new one comes
        key = new_key()
        now = self.clock()
        for _attempt in range(8):
            code = new_code()
            values = {
                "code": code,
                "name": cleaned,
                "key_hash": hash_key(key),
                "creator_hash": creator,
                "created_at": now,
                "active_at": now,
            }
            try:
                group_id = self.records.insert_group(values, most=MAX_GROUPS)
            except BoundReachedError:
                raise TooManyGroupsError(
                    f"a browser keeps at most {MAX_GROUPS} groups", most=MAX_GROUPS
                ) from None
            except sa.exc.IntegrityError:
                continue  # the code was taken: draw another
            return GroupTeacher(group_id, code, cleaned), key
        raise RuntimeError("no free group code after 8 draws")

    def open_group(
        self,
        code: str,
        key: str,
        *,
        learner_token: str | None = None,
        client: str | None = None,
    ) -> GroupTeacher:
        """The group whose code and key were given; ``UnknownGroupError`` for either wrong.

        Guessing is slowed for the guesser alone, as a class's key is (``tutor.classroom.access``):
        a code naming no group counts in this browser's and this network client's wrong codes of
        the minute (``TooManyTriesError`` past them), and a wrong key locks
        this browser (``learner_token``; without one, the anonymous guesser) out of this group
        for a time that doubles with each failure (``GroupKeyLockError``). The try is counted,
        and the lock set, before the key is hashed, so tries sent at once cost one hash. The
        group's teacher, in their own browser, is never locked by a stranger's guesses."""
        guesser = ANONYMOUS if learner_token is None else learner_hash(learner_token)
        row = self._guessed_group(code, learner_token, client)
        now = self.clock()
        failures, locked_until, stored = self.records.claim_key_turn(
            row.id, guesser, now, lambda failures: now + lock_for(failures)
        )
        if locked_until is not None:
            wait = max(1, math.ceil((locked_until - now).total_seconds()))
            raise GroupKeyLockError(
                f"too many wrong keys for this group: try again in {wait} s", seconds=wait
            )
        if not key_matches(key, stored):
            raise UnknownGroupError(
                "no group has this code and key", code=row.code, failures=failures
            )
        self.records.forget_wrong_keys(row.id, guesser)
        return GroupTeacher(row.id, row.code, row.name)

    def _guessed_group(self, code: str, learner_token: str | None, client: str | None) -> Record:
        """The group of a code a visitor typed: refused before the lookup for a guesser past its
        wrong codes of the minute (``TooManyTriesError``), and a code naming no group counted
        as the guesser's failure (``tutor.classroom.tries``). Only failures count: a school
        behind one address joins its groups whatever their number."""
        guesser = Guesser(
            browser=None if learner_token is None else learner_hash(learner_token),
            client=None if client is None else client_key(client),
        )
        self.tries.before_code("group", guesser, TooManyTriesError)
        try:
            return self._group(code)
        except UnknownGroupError:
            self.tries.wrong_code("group", guesser)
            raise

    def groups_of(self, learner_token: str) -> list[GroupTeacher]:
        """The groups this browser created, oldest first."""
        return [
            GroupTeacher(row.id, row.code, row.name)
            for row in self.records.groups_of(learner_hash(learner_token))
            if not self._expired(row)
        ]

    def give_lesson(self, teacher: GroupTeacher, lesson_id: str, due_at: datetime) -> Assignment:
        """Give the group a lesson (by its id: built-in or a teacher's) to finish by ``due_at``."""
        if not lesson_id or len(lesson_id) > LESSON_ID_MAX:
            raise _invalid("a lesson's id is 1 to 64 characters", "lesson")
        return self._give(teacher, {"kind": "lesson", "lesson_id": lesson_id}, due_at)

    def give_drill(
        self,
        teacher: GroupTeacher,
        category: Category,
        hands: int,
        rules: TableRules,
        due_at: datetime,
    ) -> Assignment:
        """Give the group a drill: ``hands`` questions of ``category`` at ``rules``' table."""
        if not 1 <= hands <= MAX_HANDS:
            raise _invalid(f"a drill has 1 to {MAX_HANDS} hands, not {hands}", "hands")
        values = {
            "kind": "drill",
            "category": category.value,
            "hands": hands,
            "rules": json.dumps(rules.as_dict()),
        }
        return self._give(teacher, values, due_at)

    def _give(
        self, teacher: GroupTeacher, values: Mapping[str, object], due_at: datetime
    ) -> Assignment:
        now = self.clock()
        if due_at.tzinfo is None:
            raise _invalid("a due date has a time zone", "due")
        if not now <= due_at <= now + LONGEST_NOTICE:
            raise _invalid("a due date lies within the coming year", "due")
        row = {**values, "group_id": teacher.group_id, "due_at": due_at, "created_at": now}
        try:
            assignment_id = self.records.insert_assignment(row, most=MAX_ASSIGNMENTS)
        except BoundReachedError:
            raise TooMuchWorkError(
                f"a group has at most {MAX_ASSIGNMENTS} assignments", most=MAX_ASSIGNMENTS
            ) from None
        self.records.touch(teacher.group_id, now)
        return next(a for a in self.assignments(teacher) if a.id == assignment_id)

    def class_run(self, teacher: GroupTeacher) -> None:
        """A live class was made for the group (``Classroom.create``'s ``group_id``): work on the
        group, which keeps it from expiring as a new assignment does."""
        self.records.touch(teacher.group_id, self.clock())

    def assignments(self, teacher: GroupTeacher) -> list[Assignment]:
        """The group's work, the soonest due first."""
        return [_assignment(row) for row in self.records.assignments([teacher.group_id])]

    def members(self, teacher: GroupTeacher) -> list[str]:
        """The members' nicknames, in the order the teacher reads them (a member merged into
        another is that other)."""
        return [
            row.nickname
            for row in self.records.members(teacher.group_id)
            if row.merged_into is None
        ]

    def merge(self, teacher: GroupTeacher, member: str, into: str) -> None:
        """One student who joined twice (another device, another nickname): ``member``'s work
        counts as ``into``'s from now on, and ``member``'s device finds the group under
        ``into``'s name. Nothing is deleted: each answer stays in its row."""
        one, other = self._member_row(teacher, member), self._member_row(teacher, into)
        if one is None or other is None or not self.records.merge(
            teacher.group_id, one.id, other.id
        ):
            raise MergeRefusedError(f"{member!r} cannot be merged into {into!r}")
        self.records.touch(teacher.group_id, self.clock())

    def extend(
        self, teacher: GroupTeacher, assignment: Assignment, member: str, due_at: datetime | None
    ) -> None:
        """Give ``member`` until ``due_at`` for ``assignment`` (later than the group's, within
        the coming year); None gives them the group's due date again."""
        if assignment.group_id != teacher.group_id:
            raise _invalid("this work was given to another group", "group")
        row = self._member_row(teacher, member)
        if row is None or row.merged_into is not None:
            raise _invalid(f"{member!r} is not a member of the group", "member")
        if due_at is not None:
            if due_at.tzinfo is None:
                raise _invalid("a due date has a time zone", "due")
            if not assignment.due_at < due_at <= self.clock() + LONGEST_NOTICE:
                raise _invalid("an extension lies after the due date, within the year", "due")
        self.records.set_extension(assignment.id, row.id, due_at)

    def _member_row(self, teacher: GroupTeacher, nickname: str) -> Record | None:
        """The group's member of this nickname, as the teacher's forms name them (merged or
        not: the caller says what a merged one may do)."""
        return next(
            (r for r in self.records.members(teacher.group_id) if r.nickname == nickname), None
        )

    def mark_scale(self, teacher: GroupTeacher) -> int:
        """What this group's marks are out of."""
        row = self.records.group(teacher.group_id)
        scale = int(row.mark_scale) if row is not None else MARK_SCALES[0]
        return scale if scale in MARK_SCALES else MARK_SCALES[0]

    def set_mark_scale(self, teacher: GroupTeacher, scale: int) -> None:
        if scale not in MARK_SCALES:
            raise _invalid(f"a mark is out of one of {MARK_SCALES}", "scale")
        self.records.set_mark_scale(teacher.group_id, scale)

    # -- the student's side --
    def join(
        self, code: str, nickname: str, learner_token: str, *, client: str | None = None
    ) -> Membership:
        """Join the group with this code under ``nickname`` (this browser's place, if it already
        has one: a second join finds it again under its first nickname). A code naming no
        group counts in this browser's and this network client's wrong codes of the minute, so
        guessing codes is slowed for the guesser only (``TooManyTriesError``)."""
        row = self._guessed_group(code, learner_token, client)
        learner = self.store.learner_for_token(learner_token)
        assert learner is not None  # created when missing
        existing = self.records.member_of(row.id, learner.id)
        if existing is not None:
            return Membership(row.id, existing.id, row.name, existing.nickname)
        name = clean_nickname(nickname)
        values = {
            "group_id": row.id,
            "learner_id": learner.id,
            "nickname": name,
            "folded": fold_nickname(name),
            "joined_at": self.clock(),
        }
        try:
            member_id = self.records.insert_member(values, most=MAX_MEMBERS)
        except BoundReachedError:
            raise GroupFullError(
                f"the group already has {MAX_MEMBERS} members", most=MAX_MEMBERS
            ) from None
        except sa.exc.IntegrityError:
            again = self.records.member_of(row.id, learner.id)
            if again is not None:  # the same browser joined twice at once
                return Membership(row.id, again.id, row.name, again.nickname)
            raise NameTakenError(
                f"someone in the group is already called {name}", nickname=name
            ) from None
        self.records.touch(row.id, self.clock())
        return Membership(row.id, member_id, row.name, name)

    def memberships(self, learner_token: str) -> list[Membership]:
        """The groups this browser's learner belongs to (none for a token never seen)."""
        learner = self.store.learner_for_token(learner_token, create=False)
        if learner is None:
            return []
        return [
            Membership(row.group_id, row.member_id, row.name, row.nickname)
            for row in self.records.memberships(learner.id)
        ]

    def todo(self, learner_token: str, steps_of: StepsOf) -> list[Todo]:
        """The student's « À faire »: every assignment of their groups with how far they are,
        the soonest due first."""
        groups = self.memberships(learner_token)
        if not groups:
            return []
        learner = self.store.learner_for_token(learner_token, create=False)
        assert learner is not None
        progress = self.store.lesson_progress(learner)
        by_group = {m.group_id: m for m in groups}
        rows = self.records.assignments(by_group)
        ids, mine = [row.id for row in rows], [m.member_id for m in groups]
        answered = self.records.answered_counts(ids, mine)
        work = {(w.assignment_id, w.member_id): w for w in self.records.work(ids, mine)}
        extended = self.records.extensions(ids)
        items: list[Todo] = []
        for row in rows:
            assignment = _assignment(row)
            membership = by_group[row.group_id]
            key = (row.id, membership.member_id)
            timing = work.get(key)
            earlier = False
            if assignment.kind == "lesson":
                assert assignment.lesson_id is not None
                total = steps_of(assignment.lesson_id)
                seen = progress.get(assignment.lesson_id)
                done = int(timing.steps_done) if timing is not None else 0
                if timing is not None and timing.done_at is not None and total is not None:
                    done = total
                earlier = (
                    timing is None
                    and seen is not None
                    and total is not None
                    and seen.completed >= total
                )
            else:
                total = assignment.hands
                done = answered.get(key, 0)
            done = min(done, total) if total is not None else done
            finished_at = timing.done_at if timing is not None else None
            items.append(
                Todo(membership, assignment, done, total, extended.get(key), finished_at, earlier)
            )
        return items

    def record_drill_answer(
        self,
        membership: Membership,
        assignment: Assignment,
        position: int,
        answer: Answer,
        *,
        seconds: int,
    ) -> bool:
        """Keep a drill's answer for the group (its ``position``-th hand, from 0); False when that
        hand was answered already or lies past the drill's end. Counts the time too."""
        self._check_member(membership, assignment)
        if assignment.kind != "drill" or assignment.hands is None:
            raise _invalid("only a drill is answered hand by hand", "kind")
        if not 0 <= position < assignment.hands:
            return False
        now = self.clock()
        row = _answer_row(membership, assignment, position, answer, now)
        stored = self.records.insert_answer(row)
        if stored:
            count = self.records.answered(assignment.id, membership.member_id)
            self._count_time(
                membership, assignment, seconds, steps_done=count, done=count >= assignment.hands
            )
        return stored

    def record_lesson_answers(
        self,
        membership: Membership,
        assignment: Assignment,
        answers: Sequence[tuple[int, Answer]],
    ) -> int:
        """Keep an assigned lesson's graded answers for the group, each at its position
        (``tutor.homework.lesson_work.step_answers``): the first at a position is kept, and
        none once the lesson was finished for the group, so starting it again scores nothing
        twice. How many were new."""
        self._check_member(membership, assignment)
        if assignment.kind != "lesson":
            raise _invalid("only a lesson's steps give lesson answers", "kind")
        finished = self.records.work([assignment.id], [membership.member_id])
        if any(row.done_at is not None for row in finished):
            return 0
        now = self.clock()
        return sum(
            self.records.insert_answer(_answer_row(membership, assignment, position, answer, now))
            for position, answer in answers
            if position >= 0
        )

    def record_lesson_time(
        self,
        membership: Membership,
        assignment: Assignment,
        *,
        seconds: int,
        steps_done: int,
        finished: bool,
    ) -> None:
        """Count time spent on an assigned lesson, the steps done so far and its end."""
        self._check_member(membership, assignment)
        self._count_time(membership, assignment, seconds, steps_done=steps_done, done=finished)

    def _count_time(
        self, membership: Membership, assignment: Assignment, seconds: int, *,
        steps_done: int, done: bool,
    ) -> None:
        now = self.clock()
        self.records.add_work(
            assignment.id,
            membership.member_id,
            now=now,
            seconds=max(0, min(int(seconds), MAX_SECONDS_A_CALL)),
            steps_done=max(0, steps_done),
            done=done,
        )
        self.records.touch(membership.group_id, now)

    def _check_member(self, membership: Membership, assignment: Assignment) -> None:
        if membership.group_id != assignment.group_id:
            raise _invalid("this work was given to another group", "group")

    # -- expiry --
    def purge_expired(self) -> int:
        """Delete the groups nobody worked in or on for ``RETENTION``; how many."""
        return self.records.delete_idle(self.clock() - RETENTION)

    def _expired(self, row: Record) -> bool:
        active: datetime = row.active_at
        return active < self.clock() - RETENTION

    def _group(self, code: str) -> Record:
        wanted = normalise_code(code)[:8]
        row = self.records.group_by_code(wanted) if wanted else None
        if row is None or self._expired(row):
            raise UnknownGroupError("no group has this code", code=wanted)
        return row


def _invalid(message: str, what: str) -> InvalidWorkError:
    """The refusal of work that cannot be given; its sentence names the bounds, so it carries the
    drill's largest number of hands (``MAX_HANDS``) whatever field was wrong (``what``)."""
    return InvalidWorkError(message, what=what, most=MAX_HANDS)


def _answer_row(
    membership: Membership, assignment: Assignment, position: int, answer: Answer, now: datetime
) -> dict[str, object]:
    """An answer as the group keeps it, cut to its columns' sizes."""
    return {
        "assignment_id": assignment.id,
        "member_id": membership.member_id,
        "position": position,
        "category": answer.category[:16],
        "item": answer.item[:64],
        "cards": answer.cards[:48],
        "dealer_up": answer.dealer_up[:4],
        "chosen": answer.chosen[:24],
        "best": answer.best[:24],
        "verdict": answer.grade.value,
        "ev_loss": float(answer.ev_loss),
        "answered_at": now,
    }


def _assignment(row: Record) -> Assignment:
    kind: Kind = "lesson" if row.kind == "lesson" else "drill"
    return Assignment(
        id=row.id,
        group_id=row.group_id,
        kind=kind,
        due_at=row.due_at,
        created_at=row.created_at,
        lesson_id=row.lesson_id,
        category=Category(row.category) if row.category else None,
        hands=row.hands,
        rules=TableRules.from_mapping(json.loads(row.rules)) if row.rules else None,
    )
