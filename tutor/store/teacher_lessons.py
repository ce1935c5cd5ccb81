"""A teacher's own lessons (« Mes leçons »): the table, its bounds, and every statement on it
(``TeacherLessonRecords``).

Why in the database rather than in files: every process of a school's server must see a lesson
the moment it is published, with no file on the server and no restart. Who owns a lesson is the
teacher's browser (the hash of its private code, as ``class_sessions.creator_hash``); another
browser reopens it with the lesson's link token and its key (kept as a slow salted hash, as a
class's teacher key is). Students reach it by its link token only: nothing here lists a lesson
to anyone but its owner.

Two texts per lesson: the draft (what the teacher is editing, saved at every save, broken or
not) and the published version (checked before it is stored, what learners play). A draft never
reaches a learner: nothing reads ``draft`` for them.

The bounds hold against a forged request as much as a slip of the hand: a text is at most a
lesson file's bound (``tutor.lessons.source.MAX_BYTES``, the same number, said again here so
that the store imports nothing of the lessons), and a teacher keeps at most
``LESSONS_PER_TEACHER``; the count is read inside the insert's transaction, on an index, so a
thousand refused tries cost a thousand index probes and slow nobody else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tutor.store.base import UTCDateTime, metadata
from tutor.store.errors import TeacherLessonError
from tutor.store.tables import LESSON_ID_MAX, lesson_progress, lesson_steps

#: The largest text kept, in UTF-8 bytes: a lesson file's bound (``tutor.lessons.source``).
TEXT_MAX_BYTES = 256 * 1024
#: Lessons one teacher (one browser) keeps: a year's course and its variants, not a flood.
LESSONS_PER_TEACHER = 50
#: A lesson's link token: Crockford base32 characters (16 of them: 80 random bits).
TOKEN_CHARS = 16
#: A title as listed to its teacher (the lesson's own title, cut).
TITLE_MAX = 120

teacher_lessons = sa.Table(
    "teacher_lessons",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    # The owning browser's learner token hash; None once that browser's data was erased (the
    # lesson stays, reopened with its link token and key).
    sa.Column("owner_hash", sa.String(64), nullable=True, index=True),
    # What a student's link holds (``/?l=TOKEN``, the lessons page at the root): random, unique,
    # never the owner.
    sa.Column("token", sa.String(TOKEN_CHARS), nullable=False),
    # scrypt of the key that reopens the lesson from another browser (``tutor.classroom.access``).
    sa.Column("key_hash", sa.String(200), nullable=False),
    # The id the draft's text gives (None when the text has none that reads), for ``requires``.
    sa.Column("lesson_id", sa.String(LESSON_ID_MAX), nullable=True),
    sa.Column("title", sa.String(TITLE_MAX), nullable=False),
    sa.Column("draft", sa.Text, nullable=False),
    # Whether the draft passed the checker when it was last saved.
    sa.Column("draft_ok", sa.Boolean, nullable=False),
    sa.Column("published", sa.Text, nullable=True),
    sa.Column("published_id", sa.String(LESSON_ID_MAX), nullable=True),
    # How many times it was published (0: never); what changed the last time, as JSON counts.
    sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("changes", sa.Text, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Column("published_at", UTCDateTime, nullable=True),
    sa.UniqueConstraint("token", name="uq_teacher_lessons_token"),
)

#: A row of the columns a statement names (SQLAlchemy's ``Row``, read by attribute).
Record = Any


def _text(text: str) -> str:
    """``text`` when it is within ``TEXT_MAX_BYTES``; else the refusal a teacher reads."""
    if not isinstance(text, str):
        raise TypeError("a lesson's text is a str")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > TEXT_MAX_BYTES:
        raise TeacherLessonError(
            "lesson-too-large",
            f"a lesson's text is at most {TEXT_MAX_BYTES // 1024} KB, not {size // 1024} KB",
            most=TEXT_MAX_BYTES // 1024,
            size=size // 1024,
        )
    return text


def _lesson_id(lesson_id: str | None) -> str | None:
    if lesson_id is None:
        return None
    return lesson_id if 1 <= len(lesson_id) <= LESSON_ID_MAX else None


class TeacherLessonRecords:
    """The statements on ``teacher_lessons`` (thread-safe: every call takes its own connection).
    Each method is one transaction and decides nothing about what a lesson means."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def insert(
        self,
        *,
        owner_hash: str,
        token: str,
        key_hash: str,
        draft: str,
        draft_ok: bool,
        lesson_id: str | None,
        title: str,
        now: datetime,
    ) -> int:
        """A new lesson of ``owner_hash``'s; its row id. ``TeacherLessonError`` when the text is
        too large or the teacher already keeps ``LESSONS_PER_TEACHER`` lessons; the count is
        read in the insert's own transaction."""
        draft = _text(draft)
        with self.engine.begin() as db:
            kept = db.execute(
                sa.select(sa.func.count())
                .select_from(teacher_lessons)
                .where(teacher_lessons.c.owner_hash == owner_hash)
            ).scalar_one()
            if kept >= LESSONS_PER_TEACHER:
                raise TeacherLessonError(
                    "too-many-lessons",
                    f"a teacher keeps at most {LESSONS_PER_TEACHER} lessons",
                    most=LESSONS_PER_TEACHER,
                )
            inserted = db.execute(
                teacher_lessons.insert().values(
                    owner_hash=owner_hash,
                    token=token,
                    key_hash=key_hash,
                    lesson_id=_lesson_id(lesson_id),
                    title=title[:TITLE_MAX],
                    draft=draft,
                    draft_ok=draft_ok,
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
            ).inserted_primary_key
        assert inserted is not None
        return int(inserted[0])

    def save_draft(
        self,
        row_id: int,
        *,
        draft: str,
        draft_ok: bool,
        lesson_id: str | None,
        title: str,
        now: datetime,
    ) -> None:
        """Replace the draft (the published version stays as it is)."""
        draft = _text(draft)
        with self.engine.begin() as db:
            db.execute(
                teacher_lessons.update()
                .where(teacher_lessons.c.id == row_id)
                .values(
                    draft=draft,
                    draft_ok=draft_ok,
                    lesson_id=_lesson_id(lesson_id),
                    title=title[:TITLE_MAX],
                    updated_at=now,
                )
            )

    def publish(
        self,
        row_id: int,
        *,
        text: str,
        lesson_id: str,
        changes: Mapping[str, int],
        progress_key: str,
        step_map: Mapping[int, int] | None,
        now: datetime,
    ) -> int:
        """Store ``text`` as the published version, and move every learner's progress on it to
        the new steps in the same transaction: a step kept (``step_map``: old index to new) keeps
        its learners' answers at its new place, any other step's answers are dropped. Without a
        ``step_map`` (a first publication) nothing is moved. The new version number."""
        text = _text(text)
        with self.engine.begin() as db:
            if step_map is not None:
                _move_progress(db, progress_key, step_map, now)
            db.execute(
                teacher_lessons.update()
                .where(teacher_lessons.c.id == row_id)
                .values(
                    published=text,
                    published_id=_lesson_id(lesson_id),
                    version=teacher_lessons.c.version + 1,
                    changes=json.dumps(dict(changes), sort_keys=True),
                    published_at=now,
                    updated_at=now,
                )
            )
            version = db.execute(
                sa.select(teacher_lessons.c.version).where(teacher_lessons.c.id == row_id)
            ).scalar_one()
        return int(version)

    def lesson(self, *, row_id: int | None = None, token: str | None = None) -> Record | None:
        """One lesson by its row id or its link token (None when there is none)."""
        table = teacher_lessons.c
        where = table.id == row_id if row_id is not None else table.token == token
        with self.engine.connect() as db:
            return db.execute(sa.select(teacher_lessons).where(where)).first()

    def lessons_of(self, owner_hash: str) -> list[Record]:
        """The lessons this browser owns, the last changed first."""
        with self.engine.connect() as db:
            return list(
                db.execute(
                    sa.select(teacher_lessons)
                    .where(teacher_lessons.c.owner_hash == owner_hash)
                    .order_by(teacher_lessons.c.updated_at.desc(), teacher_lessons.c.id.desc())
                ).all()
            )

    def count_of(self, owner_hash: str) -> int:
        with self.engine.connect() as db:
            return int(
                db.execute(
                    sa.select(sa.func.count())
                    .select_from(teacher_lessons)
                    .where(teacher_lessons.c.owner_hash == owner_hash)
                ).scalar_one()
            )

    def delete(self, row_id: int, progress_key: str) -> None:
        """Delete a lesson and every learner's progress on it."""
        with self.engine.begin() as db:
            db.execute(lesson_steps.delete().where(lesson_steps.c.lesson_id == progress_key))
            db.execute(lesson_progress.delete().where(lesson_progress.c.lesson_id == progress_key))
            db.execute(teacher_lessons.delete().where(teacher_lessons.c.id == row_id))


def _move_progress(
    db: sa.Connection, progress_key: str, step_map: Mapping[int, int], now: datetime
) -> None:
    """Every learner's run of ``progress_key`` moved to the new steps (see ``publish``)."""
    steps = db.execute(
        sa.select(lesson_steps).where(lesson_steps.c.lesson_id == progress_key)
    ).all()
    db.execute(lesson_steps.delete().where(lesson_steps.c.lesson_id == progress_key))
    runs = db.execute(
        sa.select(lesson_progress).where(lesson_progress.c.lesson_id == progress_key)
    ).all()
    for run in runs:
        seen = sorted({step_map[i] for i in json.loads(run.seen) if i in step_map} | {0})
        # Where the learner stood: that step's new place, or the first step from there that
        # is new (the learner meets the change rather than skipping it).
        kept_before = [step_map[i] for i in range(run.step + 1) if i in step_map]
        step = max(kept_before, default=0)
        db.execute(
            lesson_progress.update()
            .where(
                (lesson_progress.c.learner_id == run.learner_id)
                & (lesson_progress.c.lesson_id == progress_key)
            )
            .values(
                step=step,
                seen=json.dumps(seen, separators=(",", ":")),
                completed=min(run.completed, len(seen)),
                updated_at=now,
            )
        )
    kept = [
        {**row._asdict(), "step_index": step_map[row.step_index]}
        for row in steps
        if row.step_index in step_map
    ]
    if kept:
        db.execute(lesson_steps.insert(), kept)
