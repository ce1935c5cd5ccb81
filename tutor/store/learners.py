"""The statements on the learners' rows: ``Store``, one database opened once, and every read and
write of a learner's answers, reviews, lessons and settings (class mode's through
``Store.classes``).

A module of its own behind the face ``tutor.store``, which re-exports it: the face says what is
stored and why (its docstring), this module says how.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tutor.identity import parse_code, token_hash
from tutor.srs import Grade, Review, next_due
from tutor.store.class_records import ClassRecords
from tutor.store.classes import (
    class_answers,
    class_key_attempts,
    class_questions,
    class_rate,
    class_sessions,
    class_students,
)
from tutor.store.database import _make_engine, default_url, migrate
from tutor.store.errors import UnknownLearnerError
from tutor.store.groups import (
    group_answers,
    group_key_attempts,
    group_members,
    group_work,
    study_groups,
)
from tutor.store.nickname import clean_nickname
from tutor.store.records import (
    STEP_KINDS,
    Answer,
    Learner,
    LessonProgress,
    LessonRecord,
    Settings,
    StepKind,
    StepRecord,
    _answer,
    _answer_row,
    _review,
)
from tutor.store.tables import (
    JSON_MAX,
    LESSON_ID_MAX,
    RATE_KINDS,
    SETTING_MAX,
    STEPS_MAX,
    answers,
    learner_settings,
    learners,
    lesson_progress,
    lesson_steps,
    reviews,
)
from tutor.store.teacher_lessons import TeacherLessonRecords, teacher_lessons


def _json(value: object, what: str) -> str:
    """``value`` as compact JSON, refused when it is not JSON or larger than ``JSON_MAX``."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must be plain JSON values: {error}") from None
    size = len(text.encode())
    if size > JSON_MAX:
        raise ValueError(f"{what} takes {size} bytes as JSON, at most {JSON_MAX}")
    return text


def _count(value: int, what: str, most: int = STEPS_MAX) -> int:
    """A step index or count: an ``int`` from 0 to ``most``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ValueError(f"{what} must be an integer from 0 to {most}, not {value!r}")
    return value


def _lesson_id(lesson_id: str) -> str:
    if not isinstance(lesson_id, str) or not 1 <= len(lesson_id) <= LESSON_ID_MAX:
        raise ValueError(f"a lesson id has 1 to {LESSON_ID_MAX} characters, not {lesson_id!r}")
    return lesson_id


class Store:
    """The learners' progress in one database. Safe to share between threads (one engine)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = _make_engine(self.url)
        with self.engine.connect() as connection:
            migrate(connection)
        #: Class mode's statements (``tutor.store.class_records``), on the same engine.
        self.classes = ClassRecords(self.engine)
        #: The teachers' own lessons (``tutor.store.teacher_lessons``), on the same engine.
        self.teacher_lessons = TeacherLessonRecords(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- learners --
    def learner_for_token(self, token: str, *, create: bool = True) -> Learner | None:
        """The learner whose browser holds ``token`` (or who typed it as a recovery code),
        created on first use unless ``create`` is false (then None for an unknown token).

        The token is read with ``parse_code`` (case, hyphens and look-alikes forgiven), so a
        malformed one raises ``InvalidRecoveryCodeError`` (a ``ValueError``). Only its hash is
        looked up or stored. Two tabs making the same learner at once make one row.
        """
        hashed = token_hash(parse_code(token))
        found = self._learner_where(learners.c.token_hash == hashed)
        if found is not None or not create:
            return found
        try:
            with self.engine.begin() as db:
                new_id = db.execute(
                    learners.insert().values(token_hash=hashed, created_at=datetime.now(UTC))
                ).inserted_primary_key
                assert new_id is not None
                return Learner(int(new_id[0]), None)
        except sa.exc.IntegrityError:
            # Another request with the same token created the learner between our read and write.
            found = self._learner_where(learners.c.token_hash == hashed)
            if found is None:  # pragma: no cover - the unique token is the only constraint
                raise
            return found

    def set_nickname(self, learner: Learner, nickname: str | None) -> Learner:
        """Give the learner a display name (``clean_nickname``'s rules), or none with None.

        Any name is allowed even if another learner uses it: the name only displays.
        """
        name = None if nickname is None else clean_nickname(nickname)
        with self.engine.begin() as db:
            updated = db.execute(
                learners.update().where(learners.c.id == learner.id).values(nickname=name)
            ).rowcount
        if not updated:
            raise UnknownLearnerError("this learner's data has been erased")
        return Learner(learner.id, name)

    def _learner_where(self, condition: sa.ColumnElement[bool]) -> Learner | None:
        with self.engine.connect() as db:
            row = db.execute(sa.select(learners.c.id, learners.c.nickname).where(condition)).first()
        return None if row is None else Learner(row.id, row.nickname)

    def learners(self) -> list[Learner]:
        """Every learner, named ones by name first (the administrator's view)."""
        query = sa.select(learners.c.id, learners.c.nickname).order_by(
            learners.c.nickname.is_(None), learners.c.nickname, learners.c.id
        )
        with self.engine.connect() as db:
            return [Learner(row.id, row.nickname) for row in db.execute(query)]

    def token_holds(self, token: str) -> int:
        """How many rows this browser's token names, a learner's row aside: seats in classes,
        classes, groups and lessons it made, wrong-key counts, rate buckets. What Settings
        counts to offer erasing to a browser used only for class mode, lessons or groups."""
        hashed = token_hash(parse_code(token))
        buckets = [f"{kind}:{hashed}" for kind in RATE_KINDS]
        counts = [
            sa.select(sa.func.count()).where(class_students.c.learner_hash == hashed),
            sa.select(sa.func.count()).where(class_sessions.c.creator_hash == hashed),
            sa.select(sa.func.count()).where(class_key_attempts.c.guesser == hashed),
            sa.select(sa.func.count()).where(group_key_attempts.c.guesser == hashed),
            sa.select(sa.func.count()).where(teacher_lessons.c.owner_hash == hashed),
            sa.select(sa.func.count()).where(class_rate.c.bucket.in_(buckets)),
            sa.select(sa.func.count()).where(study_groups.c.creator_hash == hashed),
        ]
        with self.engine.connect() as db:
            return sum(int(db.execute(count).scalar_one()) for count in counts)

    def erase_token(self, token: str) -> None:
        """Erase everything this browser's token names: its learner (``delete_learner``) when it
        has one, else the rows that hold its hash alone (a browser used only to run a class,
        write a lesson or join one)."""
        learner = self.learner_for_token(token, create=False)
        if learner is not None:
            self.delete_learner(learner)
            return
        with self.engine.begin() as db:
            _forget_hash(db, token_hash(parse_code(token)))

    def delete_learner(self, learner: Learner) -> None:
        """Forget a learner and everything stored about them, in one transaction.

        Their class seats stay in their teachers' results under the nickname typed in class, but
        nothing links those seats to this learner any more. Erasing means gone: the token's hash
        leaves every table that holds it (``LEARNER_HASH_COLUMNS``), so the old code finds
        nothing: not the seats, not the classes this browser created (a class stays, opened with
        its code and key as any other), not the wrong-key counts or the rate buckets it left, not
        the lessons it wrote (each stays for its students, reopened with its link and key).
        """
        with self.engine.begin() as db:
            hashed = db.execute(
                sa.select(learners.c.token_hash).where(learners.c.id == learner.id)
            ).scalar_one_or_none()
            if hashed is not None:
                _forget_hash(db, hashed)
            # Their homework for every group goes with them (the groups' results lose them).
            members = sa.select(group_members.c.id).where(group_members.c.learner_id == learner.id)
            db.execute(group_answers.delete().where(group_answers.c.member_id.in_(members)))
            db.execute(group_work.delete().where(group_work.c.member_id.in_(members)))
            db.execute(group_members.delete().where(group_members.c.learner_id == learner.id))
            db.execute(lesson_steps.delete().where(lesson_steps.c.learner_id == learner.id))
            db.execute(lesson_progress.delete().where(lesson_progress.c.learner_id == learner.id))
            db.execute(answers.delete().where(answers.c.learner_id == learner.id))
            db.execute(reviews.delete().where(reviews.c.learner_id == learner.id))
            db.execute(
                learner_settings.delete().where(learner_settings.c.learner_id == learner.id)
            )
            db.execute(learners.delete().where(learners.c.id == learner.id))

    # -- settings --
    def save_settings(self, learner: Learner, settings: Settings) -> None:
        """Keep the learner's settings (created or replaced), at each change."""
        for what, value in (("a language", settings.language), ("a reference", settings.reference)):
            if not isinstance(value, str) or not 1 <= len(value) <= SETTING_MAX:
                raise ValueError(f"{what} is a word of 1 to {SETTING_MAX} letters, not {value!r}")
        if not isinstance(settings.rules, Mapping):
            raise ValueError("the settings' rules are a JSON object (a mapping)")
        self._upsert(
            learner_settings,
            {"learner_id": learner.id},
            {
                "language": settings.language,
                "reference": settings.reference,
                "rules": _json(dict(settings.rules), "the settings' rules"),
                "updated_at": datetime.now(UTC),
            },
            missing="this learner's data has been erased",
        )

    def settings(self, learner: Learner) -> Settings | None:
        """The learner's saved settings; None when they never changed one."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(learner_settings).where(learner_settings.c.learner_id == learner.id)
            ).first()
        if row is None:
            return None
        return Settings(row.language, row.reference, json.loads(row.rules))

    # -- answers and reviews --
    def record(self, learner: Learner, answer: Answer, review: Review) -> None:
        """Store an answer and the item's new schedule together (one transaction).

        Race-safe: two first answers to the same item (two tabs) both find no review row and
        both insert one; the loser's transaction fails on the primary key and is run again,
        when its update finds the winner's row. Both answers are kept.
        """
        key = (reviews.c.learner_id == learner.id) & (reviews.c.item == review.item)
        values = {
            "category": review.category,
            "box": review.box,
            "due_at": review.due_at,
            "seen": review.seen,
            "missed": review.missed,
        }
        for attempt in range(3):
            try:
                with self.engine.begin() as db:
                    db.execute(
                        answers.insert().values(learner_id=learner.id, **_answer_row(answer))
                    )
                    updated = db.execute(reviews.update().where(key).values(**values)).rowcount
                    if not updated:
                        db.execute(
                            reviews.insert().values(
                                learner_id=learner.id, item=review.item, **values
                            )
                        )
                return
            except sa.exc.IntegrityError:
                if attempt == 2:
                    # No race lasts three rounds: the learner's row is gone (erased).
                    raise UnknownLearnerError("this learner's data has been erased") from None

    def review(self, learner: Learner, item: str) -> Review | None:
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(reviews).where(
                    (reviews.c.learner_id == learner.id) & (reviews.c.item == item)
                )
            ).first()
        return None if row is None else _review(row._mapping)

    def reviews(self, learner: Learner, categories: Iterable[str] | None = None) -> list[Review]:
        query = sa.select(reviews).where(reviews.c.learner_id == learner.id)
        if categories is not None:
            query = query.where(reviews.c.category.in_(list(categories)))
        with self.engine.connect() as db:
            return [_review(row._mapping) for row in db.execute(query)]

    def due(
        self, learner: Learner, now: datetime, categories: Iterable[str] | None = None
    ) -> list[Review]:
        """Items due at ``now``, the least known first."""
        return next_due(self.reviews(learner, categories), now)

    def answers(self, learner: Learner) -> list[Answer]:
        query = (
            sa.select(answers)
            .where(answers.c.learner_id == learner.id)
            .order_by(answers.c.answered_at, answers.c.id)
        )
        with self.engine.connect() as db:
            return [_answer(row._mapping) for row in db.execute(query)]

    # -- lessons --
    def lesson_progress(self, learner: Learner) -> dict[str, LessonProgress]:
        """Each lesson the learner started, by lesson id: what the course list shows."""
        query = sa.select(
            lesson_progress.c.lesson_id,
            lesson_progress.c.step,
            lesson_progress.c.completed,
            lesson_progress.c.updated_at,
        ).where(lesson_progress.c.learner_id == learner.id)
        with self.engine.connect() as db:
            return {
                row.lesson_id: LessonProgress(row.step, row.completed, row.updated_at)
                for row in db.execute(query)
            }

    def lesson_record(self, learner: Learner, lesson_id: str) -> LessonRecord | None:
        """The learner's run of one lesson, to resume it by replay; None if never started."""
        key = (lesson_progress.c.learner_id == learner.id) & (
            lesson_progress.c.lesson_id == lesson_id
        )
        step_key = (lesson_steps.c.learner_id == learner.id) & (
            lesson_steps.c.lesson_id == lesson_id
        )
        with self.engine.connect() as db:
            row = db.execute(sa.select(lesson_progress).where(key)).first()
            if row is None:
                return None
            steps = db.execute(
                sa.select(
                    lesson_steps.c.step_index,
                    lesson_steps.c.kind,
                    lesson_steps.c.data,
                    lesson_steps.c.done,
                ).where(step_key)
            ).all()
        return LessonRecord(
            seed=row.seed,
            step=row.step,
            seen=frozenset(json.loads(row.seen)),
            completed=row.completed,
            steps={
                step.step_index: StepRecord(step.kind, json.loads(step.data), step.done)
                for step in steps
            },
            updated_at=row.updated_at,
        )

    def save_lesson(
        self,
        learner: Learner,
        lesson_id: str,
        *,
        seed: int,
        step: int,
        seen: Iterable[int],
        completed: int,
    ) -> None:
        """Store where the learner is in a lesson (created or replaced)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not -(2**63) <= seed < 2**63:
            raise ValueError(f"a lesson's seed is a 64-bit integer, not {seed!r}")
        steps_seen = sorted({_count(index, "a seen step") for index in seen})
        self._upsert(
            lesson_progress,
            {"learner_id": learner.id, "lesson_id": _lesson_id(lesson_id)},
            {
                "seed": seed,
                "step": _count(step, "the step reached"),
                "seen": _json(steps_seen, "the steps seen"),
                "completed": _count(completed, "the steps completed"),
                "updated_at": datetime.now(UTC),
            },
            missing="this learner's data has been erased",
        )

    def save_lesson_step(
        self,
        learner: Learner,
        lesson_id: str,
        index: int,
        *,
        kind: StepKind,
        data: Mapping[str, Any],
        done: bool,
    ) -> None:
        """Store what the learner did on one step (created or replaced); ``save_lesson`` first.

        ``data`` is a JSON object of at most ``JSON_MAX`` bytes; its shape by kind is described
        on ``StepRecord``.
        """
        if kind not in STEP_KINDS:
            raise ValueError(f"a step's kind is one of {sorted(STEP_KINDS)}, not {kind!r}")
        if not isinstance(data, Mapping):
            raise ValueError("a step's data is a JSON object (a mapping)")
        self._upsert(
            lesson_steps,
            {
                "learner_id": learner.id,
                "lesson_id": _lesson_id(lesson_id),
                "step_index": _count(index, "a step index"),
            },
            {
                "kind": kind,
                "data": _json(dict(data), "a step's data"),
                "done": bool(done),
                "updated_at": datetime.now(UTC),
            },
            missing=f"no run of lesson {lesson_id!r} is saved for this learner: save_lesson first",
        )

    def reset_lesson(self, learner: Learner, lesson_id: str) -> None:
        """Forget the learner's run of one lesson, to restart it on purpose."""
        with self.engine.begin() as db:
            db.execute(
                lesson_steps.delete().where(
                    (lesson_steps.c.learner_id == learner.id)
                    & (lesson_steps.c.lesson_id == lesson_id)
                )
            )
            db.execute(
                lesson_progress.delete().where(
                    (lesson_progress.c.learner_id == learner.id)
                    & (lesson_progress.c.lesson_id == lesson_id)
                )
            )

    def _upsert(
        self, table: sa.Table, key: Mapping[str, Any], values: Mapping[str, Any], *, missing: str
    ) -> None:
        """Update the row at ``key``, or insert it: portable (no dialect's ON CONFLICT), and
        safe against a racing insert, which makes ours fail and the second pass update."""
        where = sa.and_(*(table.c[column] == value for column, value in key.items()))
        for attempt in range(2):
            try:
                with self.engine.begin() as db:
                    if db.execute(table.update().where(where).values(**values)).rowcount:
                        return
                    db.execute(table.insert().values(**key, **values))
                    return
            except sa.exc.IntegrityError:
                if attempt:
                    # Still refused with no race left: a foreign key names no row.
                    raise UnknownLearnerError(missing) from None

    # -- everything about one learner --
    def export(self, learner: Learner) -> dict[str, Any]:
        """Everything stored about a learner, as plain JSON-ready values."""

        def plain(record: Mapping[str, Any]) -> dict[str, Any]:
            out = {}
            for key, value in record.items():
                if isinstance(value, datetime):
                    value = value.isoformat()
                elif isinstance(value, Grade):
                    value = value.value
                out[key] = value
            return out

        with self.engine.connect() as db:
            created = db.execute(
                sa.select(learners.c.created_at, learners.c.token_hash).where(
                    learners.c.id == learner.id
                )
            ).first()
            progress = db.execute(
                sa.select(lesson_progress)
                .where(lesson_progress.c.learner_id == learner.id)
                .order_by(lesson_progress.c.lesson_id)
            ).all()
            steps = db.execute(
                sa.select(lesson_steps)
                .where(lesson_steps.c.learner_id == learner.id)
                .order_by(lesson_steps.c.lesson_id, lesson_steps.c.step_index)
            ).all()
            seats = (
                []
                if created is None or created.token_hash is None
                else db.execute(
                    sa.select(
                        class_students.c.id,
                        class_students.c.nickname,
                        class_students.c.joined_at,
                        class_sessions.c.code,
                        class_sessions.c.title,
                    )
                    .select_from(class_students.join(class_sessions))
                    .where(class_students.c.learner_hash == created.token_hash)
                    .order_by(class_students.c.joined_at)
                ).all()
            )
            seat_answers = db.execute(
                sa.select(
                    class_answers.c.student_id,
                    class_questions.c.position,
                    class_answers.c.action,
                    class_answers.c.answered_at,
                )
                .select_from(class_answers.join(class_questions))
                .where(class_answers.c.student_id.in_([seat.id for seat in seats]))
                .order_by(class_questions.c.position)
            ).all()

        saved = self.settings(learner)
        return {
            "nickname": learner.nickname,
            "created_at": None if created is None else created.created_at.isoformat(),
            "settings": None if saved is None else plain(asdict(saved)),
            "answers": [plain(asdict(answer)) for answer in self.answers(learner)],
            "reviews": [plain(asdict(review)) for review in self.reviews(learner)],
            "lessons": [
                {
                    "lesson": row.lesson_id,
                    "seed": row.seed,
                    "step": row.step,
                    "seen": json.loads(row.seen),
                    "completed": row.completed,
                    "updated_at": row.updated_at.isoformat(),
                    "steps": [
                        {
                            "index": step.step_index,
                            "kind": step.kind,
                            "data": json.loads(step.data),
                            "done": step.done,
                            "updated_at": step.updated_at.isoformat(),
                        }
                        for step in steps
                        if step.lesson_id == row.lesson_id
                    ],
                }
                for row in progress
            ],
            "class_seats": [
                {
                    "class": seat.code,
                    "title": seat.title,
                    "nickname": seat.nickname,
                    "joined_at": seat.joined_at.isoformat(),
                    "answers": [
                        {
                            "question": answer.position + 1,
                            "action": answer.action,
                            "answered_at": answer.answered_at.isoformat(),
                        }
                        for answer in seat_answers
                        if answer.student_id == seat.id
                    ],
                }
                for seat in seats
            ],
        }


def _forget_hash(db: Connection, hashed: str) -> None:
    """Take a browser's token hash out of every table that holds it (``LEARNER_HASH_COLUMNS``),
    in the caller's transaction: its seats and the classes, groups and lessons it made stay,
    linked to nobody; its wrong-key counts and rate buckets go."""
    db.execute(
        class_students.update()
        .where(class_students.c.learner_hash == hashed)
        .values(learner_hash=None)
    )
    db.execute(
        class_sessions.update()
        .where(class_sessions.c.creator_hash == hashed)
        .values(creator_hash=None)
    )
    db.execute(
        class_key_attempts.delete().where(class_key_attempts.c.guesser == hashed)
    )
    db.execute(
        group_key_attempts.delete().where(group_key_attempts.c.guesser == hashed)
    )
    db.execute(
        teacher_lessons.update()
        .where(teacher_lessons.c.owner_hash == hashed)
        .values(owner_hash=None)
    )
    db.execute(
        class_rate.delete().where(
            class_rate.c.bucket.in_([f"{kind}:{hashed}" for kind in RATE_KINDS])
        )
    )
    db.execute(
        study_groups.update()
        .where(study_groups.c.creator_hash == hashed)
        .values(creator_hash=None)
    )
