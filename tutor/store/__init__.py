"""Learners' progress, stored in a real database through SQLAlchemy.

Where the data lives: on the server that runs the app, in its database. By default that is a
SQLite file (``data/tutor.sqlite3`` under the working directory, or the folder named by
``TUTOR_DATA_DIR``), created on first use; any SQLAlchemy URL (PostgreSQL for a school server)
through ``TUTOR_DATABASE_URL``. Nothing is stored in the learner's browser but their token. The
schema is versioned with Alembic migrations (``tutor/migrations``), applied when a store opens, so
an old database file is brought up to date rather than rebuilt.

How long: until the learner erases it (``delete_learner``, the "My data" page) or the server's
administrator deletes the database file (or the database). Nothing expires on its own.

Who a learner is: a private random token held by their browser (``tutor.identity``), found here
by its SHA-256 only (``learner_for_token``); no password, no e-mail, no personal data. The
nickname is an optional display name, never the key to anything: two learners may share one, and
typing someone's nickname reaches none of their data. Everything stored about a learner can be
exported (``export``) and deleted (``delete_learner``), and those two touch that learner's rows
only.

What is kept: quiz answers and their review schedule (``record``), and each lesson's progress
(``save_lesson``: the seed its random deals were drawn from, the step reached, the steps seen) with
one record per answered step (``save_lesson_step``), enough to rebuild a lesson run by replaying
it; and the learner's settings (``save_settings``: the table, the language, the grading
reference), so that they follow the code to a reload, a new visit or another device.

>>> import tempfile, pathlib
>>> from tutor.identity import new_token
>>> store = Store(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'doc.sqlite3'}")
>>> token = new_token()
>>> ana = store.learner_for_token(token)
>>> store.learner_for_token(token) == ana, ana.nickname
(True, None)
>>> store.set_nickname(ana, "Ana").nickname
'Ana'
>>> store.learner_for_token(new_token(), create=False) is None
True

The rooms behind this face: ``tutor.store.learners`` (``Store``: the statements),
``tutor.store.records`` (the frozen records it returns), ``tutor.store.tables`` (the learners'
tables and bounds), ``tutor.store.database`` (the URL, the engine, the migrations),
``tutor.store.nickname`` (what a nickname may be), ``tutor.store.errors`` (the refusals),
``tutor.store.classes`` and ``tutor.store.class_records`` (class mode's tables, its
statements), ``tutor.store.teacher_lessons`` (the lessons teachers write in the browser: drafts,
published versions, links) and ``tutor.store.base`` (what every
table shares).
"""

from __future__ import annotations

from tutor.store.base import FOLDED_MAX, NICKNAME_MAX, UTCDateTime, metadata
from tutor.store.class_records import ClassRecords
from tutor.store.classes import (
    class_answers,
    class_key_attempts,
    class_questions,
    class_rate,
    class_sessions,
    class_students,
)
from tutor.store.database import default_url, migrate
from tutor.store.errors import (
    InvalidNicknameError,
    NicknameProblem,
    TeacherLessonError,
    UnknownLearnerError,
)
from tutor.store.learners import Store
from tutor.store.nickname import clean_nickname
from tutor.store.records import (
    ORIGINS,
    STEP_KINDS,
    Answer,
    Learner,
    LessonProgress,
    LessonRecord,
    Origin,
    Settings,
    StepKind,
    StepRecord,
)
from tutor.store.tables import (
    JSON_MAX,
    LEARNER_HASH_COLUMNS,
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
from tutor.store.teacher_lessons import (
    LESSONS_PER_TEACHER,
    TEXT_MAX_BYTES,
    TeacherLessonRecords,
    teacher_lessons,
)

__all__ = [
    "FOLDED_MAX",
    "JSON_MAX",
    "LEARNER_HASH_COLUMNS",
    "LESSONS_PER_TEACHER",
    "LESSON_ID_MAX",
    "NICKNAME_MAX",
    "ORIGINS",
    "RATE_KINDS",
    "SETTING_MAX",
    "STEPS_MAX",
    "STEP_KINDS",
    "TEXT_MAX_BYTES",
    "Answer",
    "ClassRecords",
    "InvalidNicknameError",
    "Learner",
    "LessonProgress",
    "LessonRecord",
    "NicknameProblem",
    "Origin",
    "Settings",
    "StepKind",
    "StepRecord",
    "Store",
    "TeacherLessonError",
    "TeacherLessonRecords",
    "UTCDateTime",
    "UnknownLearnerError",
    "answers",
    "class_answers",
    "class_key_attempts",
    "class_questions",
    "class_rate",
    "class_sessions",
    "class_students",
    "clean_nickname",
    "default_url",
    "learner_settings",
    "learners",
    "lesson_progress",
    "lesson_steps",
    "metadata",
    "migrate",
    "reviews",
    "teacher_lessons",
]
