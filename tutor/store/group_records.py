"""Every statement homework runs on its tables (``tutor.store.groups``): ``GroupRecords``.

Each method is one transaction and decides nothing; the rules live in ``tutor.homework``. Where a
bound must hold against racing requests (members in a group, groups of a teacher, work in a
group), the count and the insert share one transaction, and on PostgreSQL the group's row is
held (``FOR UPDATE``) while they run; SQLite has one writer at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from tutor.store.classes import class_questions, class_sessions, class_students
from tutor.store.groups import (
    assignment_extensions,
    assignments,
    group_answers,
    group_key_attempts,
    group_members,
    group_work,
    study_groups,
)
from tutor.store.key_turns import claim_key_turn
from tutor.store.tables import learners, lesson_progress

#: A row of the columns a statement names (SQLAlchemy's ``Row``, read by attribute).
Record = Any


class BoundReachedError(Exception):
    """An insert refused because a count reached its bound (the caller says which)."""


class GroupRecords:
    """Homework's statements on one engine (thread-safe: every call takes its own connection)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- groups --
    def insert_group(self, values: Mapping[str, Any], *, most: int) -> int:
        """A new group; its id. ``BoundReachedError`` when its creator already has ``most``;
        ``IntegrityError`` when its code is taken (the caller draws another)."""
        with self.engine.begin() as db:
            held = db.execute(
                sa.select(sa.func.count())
                .select_from(study_groups)
                .where(study_groups.c.creator_hash == values["creator_hash"])
            ).scalar_one()
            if held >= most:
                raise BoundReachedError
            return int(db.execute(study_groups.insert().values(**values)).inserted_primary_key[0])  # type: ignore[index]

    def group_by_code(self, code: str) -> Record | None:
        with self.engine.connect() as db:
            return db.execute(
                sa.select(study_groups).where(study_groups.c.code == code)
            ).one_or_none()

    def group(self, group_id: int) -> Record | None:
        with self.engine.connect() as db:
            return db.execute(
                sa.select(study_groups).where(study_groups.c.id == group_id)
            ).one_or_none()

    def groups_of(self, creator_hash: str) -> list[Record]:
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(study_groups)
                    .where(study_groups.c.creator_hash == creator_hash)
                    .order_by(study_groups.c.created_at, study_groups.c.id)
                )
            )

    def touch(self, group_id: int, now: datetime) -> None:
        with self.engine.begin() as db:
            db.execute(
                study_groups.update()
                .where(study_groups.c.id == group_id)
                .values(active_at=now)
            )

    def delete_idle(self, before: datetime) -> int:
        """Delete the groups nobody worked in since ``before`` (their rows go by cascade)."""
        with self.engine.begin() as db:
            ids = [
                row.id
                for row in db.execute(
                    sa.select(study_groups.c.id).where(study_groups.c.active_at < before)
                )
            ]
            _delete_groups(db, ids)
            return len(ids)

    # -- members --
    def insert_member(self, values: Mapping[str, Any], *, most: int) -> int:
        """A new member; its id. ``BoundReachedError`` when the group holds ``most``;
        ``IntegrityError`` when the name or the learner is already in it."""
        with self.engine.begin() as db:
            _hold(db, values["group_id"])
            count = db.execute(
                sa.select(sa.func.count())
                .select_from(group_members)
                .where(group_members.c.group_id == values["group_id"])
            ).scalar_one()
            if count >= most:
                raise BoundReachedError
            return int(db.execute(group_members.insert().values(**values)).inserted_primary_key[0])  # type: ignore[index]

    def member_of(self, group_id: int, learner_id: int) -> Record | None:
        with self.engine.connect() as db:
            return db.execute(
                sa.select(group_members).where(
                    (group_members.c.group_id == group_id)
                    & (group_members.c.learner_id == learner_id)
                )
            ).one_or_none()

    def memberships(self, learner_id: int) -> list[Record]:
        """The groups a learner belongs to, with the member's id and nickname: the nickname of
        the member it was merged into, when the teacher merged it (the same student)."""
        primary = group_members.alias("primary_member")
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(
                        study_groups.c.id.label("group_id"),
                        study_groups.c.name,
                        group_members.c.id.label("member_id"),
                        sa.func.coalesce(primary.c.nickname, group_members.c.nickname).label(
                            "nickname"
                        ),
                    )
                    .join(group_members, group_members.c.group_id == study_groups.c.id)
                    .outerjoin(primary, primary.c.id == group_members.c.merged_into)
                    .where(group_members.c.learner_id == learner_id)
                    .order_by(study_groups.c.name, study_groups.c.id)
                )
            )

    def members(self, group_id: int) -> list[Record]:
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(group_members)
                    .where(group_members.c.group_id == group_id)
                    .order_by(group_members.c.folded, group_members.c.id)
                )
            )

    def merge(self, group_id: int, member_id: int, into_id: int) -> bool:
        """Count ``member_id``'s rows as ``into_id``'s from now on (both of the group, neither
        merged already, and not one into itself); False when they are not such a pair."""
        if member_id == into_id:
            return False
        with self.engine.begin() as db:
            _hold(db, group_id)
            rows = {
                row.id: row
                for row in db.execute(
                    sa.select(group_members.c.id, group_members.c.merged_into).where(
                        (group_members.c.group_id == group_id)
                        & group_members.c.id.in_([member_id, into_id])
                    )
                )
            }
            if set(rows) != {member_id, into_id} or any(
                row.merged_into is not None for row in rows.values()
            ):
                return False
            db.execute(  # the member, and any merged into it before
                group_members.update()
                .where(
                    (group_members.c.id == member_id)
                    | (group_members.c.merged_into == member_id)
                )
                .values(merged_into=into_id)
            )
            return True

    def set_mark_scale(self, group_id: int, scale: int) -> None:
        with self.engine.begin() as db:
            db.execute(
                study_groups.update().where(study_groups.c.id == group_id).values(mark_scale=scale)
            )

    # -- extensions --
    def set_extension(self, assignment_id: int, member_id: int, due_at: datetime | None) -> None:
        """One member's own due date for one assignment (None: the group's again)."""
        key = (assignment_extensions.c.assignment_id == assignment_id) & (
            assignment_extensions.c.member_id == member_id
        )
        with self.engine.begin() as db:
            db.execute(assignment_extensions.delete().where(key))
            if due_at is not None:
                db.execute(
                    assignment_extensions.insert().values(
                        assignment_id=assignment_id, member_id=member_id, due_at=due_at
                    )
                )

    def extensions(self, assignment_ids: Iterable[int]) -> dict[tuple[int, int], datetime]:
        """The members' own due dates, by (assignment, member)."""
        wanted = list(assignment_ids)
        if not wanted:
            return {}
        with self.engine.connect() as db:
            return {
                (row.assignment_id, row.member_id): row.due_at
                for row in db.execute(
                    sa.select(assignment_extensions).where(
                        assignment_extensions.c.assignment_id.in_(wanted)
                    )
                )
            }

    # -- assignments --
    def insert_assignment(self, values: Mapping[str, Any], *, most: int) -> int:
        with self.engine.begin() as db:
            _hold(db, values["group_id"])
            count = db.execute(
                sa.select(sa.func.count())
                .select_from(assignments)
                .where(assignments.c.group_id == values["group_id"])
            ).scalar_one()
            if count >= most:
                raise BoundReachedError
            return int(db.execute(assignments.insert().values(**values)).inserted_primary_key[0])  # type: ignore[index]

    def assignments(self, group_ids: Iterable[int]) -> list[Record]:
        wanted = list(group_ids)
        if not wanted:
            return []
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(assignments)
                    .where(assignments.c.group_id.in_(wanted))
                    .order_by(assignments.c.due_at, assignments.c.id)
                )
            )

    # -- work --
    def add_work(
        self,
        assignment_id: int,
        member_id: int,
        *,
        now: datetime,
        seconds: int,
        steps_done: int | None,
        done: bool,
    ) -> None:
        """Count ``seconds`` more of a member's time on an assignment (the row made at the first
        call), the steps done so far when given, and the time it was finished (the first)."""
        key = (group_work.c.assignment_id == assignment_id) & (group_work.c.member_id == member_id)
        for attempt in range(3):
            try:
                with self.engine.begin() as db:
                    values: dict[str, Any] = {"seconds": group_work.c.seconds + seconds}
                    if steps_done is not None:
                        values["steps_done"] = sa.case(  # never fewer than before
                            (group_work.c.steps_done < steps_done, steps_done),
                            else_=group_work.c.steps_done,
                        )
                    if done:
                        values["done_at"] = sa.func.coalesce(group_work.c.done_at, now)
                    if db.execute(group_work.update().where(key).values(**values)).rowcount:
                        return
                    db.execute(
                        group_work.insert().values(
                            assignment_id=assignment_id,
                            member_id=member_id,
                            started_at=now,
                            seconds=seconds,
                            steps_done=steps_done or 0,
                            done_at=now if done else None,
                        )
                    )
                    return
            except sa.exc.IntegrityError:  # two first calls raced: the loser updates
                if attempt == 2:
                    raise

    def insert_answer(self, values: Mapping[str, Any]) -> bool:
        """A drill's answer for the group; False when that hand was already answered (a second
        tab, a double click): the first answer counts."""
        try:
            with self.engine.begin() as db:
                db.execute(group_answers.insert().values(**values))
        except sa.exc.IntegrityError:
            return False
        return True

    def answered(self, assignment_id: int, member_id: int) -> int:
        with self.engine.connect() as db:
            return int(
                db.execute(
                    sa.select(sa.func.count())
                    .select_from(group_answers)
                    .where(
                        (group_answers.c.assignment_id == assignment_id)
                        & (group_answers.c.member_id == member_id)
                    )
                ).scalar_one()
            )

    def answered_counts(
        self, assignment_ids: Iterable[int], member_ids: Iterable[int]
    ) -> dict[tuple[int, int], int]:
        """Hands answered per (assignment, member), counted by the database: a student's to-do
        reads its own counts, not the group's answers."""
        wanted, members = list(assignment_ids), list(member_ids)
        if not wanted or not members:
            return {}
        counted = (
            sa.select(group_answers.c.assignment_id, group_answers.c.member_id, sa.func.count())
            .where(
                group_answers.c.assignment_id.in_(wanted)
                & group_answers.c.member_id.in_(members)
            )
            .group_by(group_answers.c.assignment_id, group_answers.c.member_id)
        )
        with self.engine.connect() as db:
            return {(row[0], row[1]): int(row[2]) for row in db.execute(counted)}

    def work(
        self, assignment_ids: Iterable[int], member_ids: Iterable[int] | None = None
    ) -> list[Record]:
        """The time and ends of the work on these assignments (of these members only, when
        given: a student's to-do reads its own rows)."""
        wanted = list(assignment_ids)
        if not wanted:
            return []
        chosen = sa.select(group_work).where(group_work.c.assignment_id.in_(wanted))
        if member_ids is not None:
            chosen = chosen.where(group_work.c.member_id.in_(list(member_ids)))
        with self.engine.connect() as db:
            return list(db.execute(chosen))

    def answers(self, assignment_ids: Iterable[int]) -> list[Record]:
        wanted = list(assignment_ids)
        if not wanted:
            return []
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(group_answers)
                    .where(group_answers.c.assignment_id.in_(wanted))
                    .order_by(group_answers.c.assignment_id, group_answers.c.member_id,
                              group_answers.c.position)
                )
            )

    def lesson_steps_done(self, group_id: int, lesson_ids: Iterable[str]) -> list[Record]:
        """The completed steps of the group's members in the lessons given to the group, and in
        no other lesson: what the teacher may see of their lesson progress."""
        wanted = list(lesson_ids)
        if not wanted:
            return []
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(
                        group_members.c.id.label("member_id"),
                        lesson_progress.c.lesson_id,
                        lesson_progress.c.completed,
                    )
                    .join(
                        lesson_progress,
                        lesson_progress.c.learner_id == group_members.c.learner_id,
                    )
                    .where(
                        (group_members.c.group_id == group_id)
                        & lesson_progress.c.lesson_id.in_(wanted)
                    )
                )
            )

    # -- teacher keys --
    def claim_key_turn(
        self, group_id: int, guesser: str, now: datetime, locked_until: Callable[[int], datetime]
    ) -> tuple[int, datetime | None, str]:
        """Take ``guesser``'s turn to try a key on this group, before the key is weighed
        (``tutor.store.key_turns``): (failures with this one, or 0 when refused; until when the
        guesser is locked, when refused; the group's key hash)."""
        return claim_key_turn(
            self.engine,
            group_key_attempts,
            _attempts(group_id, guesser),
            sa.select(study_groups.c.key_hash).where(study_groups.c.id == group_id),
            {"group_id": group_id, "guesser": guesser},
            now,
            locked_until,
        )

    def forget_wrong_keys(self, group_id: int, guesser: str) -> None:
        with self.engine.begin() as db:
            db.execute(group_key_attempts.delete().where(_attempts(group_id, guesser)))

    # -- live classes run for a group --
    def classes(self, group_id: int, *, since: datetime) -> list[Record]:
        """The classes run for the group, created after ``since`` and shown at least one hand,
        oldest first: id, code, title, created_at, finished_at, current, question_count."""
        count = (
            sa.select(sa.func.count())
            .where(class_questions.c.session_id == class_sessions.c.id)
            .scalar_subquery()
        )
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(
                        class_sessions.c.id,
                        class_sessions.c.code,
                        class_sessions.c.title,
                        class_sessions.c.created_at,
                        class_sessions.c.finished_at,
                        class_sessions.c.current,
                        count.label("question_count"),
                    )
                    .where(
                        (class_sessions.c.group_id == group_id)
                        & (class_sessions.c.created_at > since)
                        & (class_sessions.c.current >= 0)
                    )
                    .order_by(class_sessions.c.created_at, class_sessions.c.id)
                )
            )

    def seats_of_members(self, group_id: int, session_ids: Iterable[int]) -> list[Record]:
        """The seats of these classes taken by the group's members, matched by the learner
        (the seat's learner token hash is the member's learner's), never by the nickname typed
        in class: session_id, seat_id, seat_nickname (typed in class) and the member's
        nickname in the group."""
        wanted = list(session_ids)
        if not wanted:
            return []
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(
                        class_students.c.session_id,
                        class_students.c.id.label("seat_id"),
                        class_students.c.nickname.label("seat_nickname"),
                        group_members.c.nickname,
                    )
                    .join(learners, learners.c.token_hash == class_students.c.learner_hash)
                    .join(group_members, group_members.c.learner_id == learners.c.id)
                    .where(
                        class_students.c.session_id.in_(wanted)
                        & (group_members.c.group_id == group_id)
                    )
                )
            )

    def seat_counts(self, session_ids: Iterable[int]) -> dict[int, int]:
        """The seats of each class, members or not."""
        wanted = list(session_ids)
        if not wanted:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(class_students.c.session_id, sa.func.count())
                .where(class_students.c.session_id.in_(wanted))
                .group_by(class_students.c.session_id)
            )
            return {int(row[0]): int(row[1]) for row in rows}

    def forget_creator(self, creator_hash: str) -> None:
        """A learner erased their data: the groups their browser made stay, opened by key."""
        with self.engine.begin() as db:
            db.execute(
                study_groups.update()
                .where(study_groups.c.creator_hash == creator_hash)
                .values(creator_hash=None)
            )


def _hold(db: Connection, group_id: int) -> None:
    """Hold the group's row for the transaction (PostgreSQL), so counts and inserts of racing
    requests happen one after the other."""
    if db.dialect.name == "postgresql":
        db.execute(
            sa.select(study_groups.c.id).where(study_groups.c.id == group_id).with_for_update()
        )


def _delete_groups(db: Connection, ids: list[int]) -> None:
    """Delete groups and, explicitly, their rows (SQLite enforces ``ON DELETE CASCADE`` only with
    its foreign-key pragma on, which the store sets; this does not rely on it)."""
    if not ids:
        return
    # A class run for the group stays its teacher's, run for nobody's group any more.
    db.execute(
        class_sessions.update().where(class_sessions.c.group_id.in_(ids)).values(group_id=None)
    )
    db.execute(group_key_attempts.delete().where(group_key_attempts.c.group_id.in_(ids)))
    assignment_ids = sa.select(assignments.c.id).where(assignments.c.group_id.in_(ids))
    db.execute(group_answers.delete().where(group_answers.c.assignment_id.in_(assignment_ids)))
    db.execute(group_work.delete().where(group_work.c.assignment_id.in_(assignment_ids)))
    db.execute(
        assignment_extensions.delete().where(
            assignment_extensions.c.assignment_id.in_(assignment_ids)
        )
    )
    db.execute(assignments.delete().where(assignments.c.group_id.in_(ids)))
    db.execute(group_members.delete().where(group_members.c.group_id.in_(ids)))
    db.execute(study_groups.delete().where(study_groups.c.id.in_(ids)))


def _attempts(group_id: int, guesser: str) -> sa.ColumnElement[bool]:
    return (group_key_attempts.c.group_id == group_id) & (
        group_key_attempts.c.guesser == guesser
    )
