"""The learners' tables (learners, answers, reviews, lesson progress and steps, settings) and
the bounds on what a row may hold.

A module of its own so that the statements (``tutor.store.learners``) and the schema they write
read apart: a migration's author compares these definitions with ``tutor/migrations`` without
scrolling past the queries. Class mode's tables live beside their statements in
``tutor.store.classes``.
"""

from __future__ import annotations

import sqlalchemy as sa

from tutor.store.base import NICKNAME_MAX, UTCDateTime, metadata

#: Every column that may hold a learner's token hash (``tutor.identity.token_hash``): what
#: ``Store.delete_learner`` clears, and what its test reads back. ``class_rate.bucket`` holds it
#: after a prefix (``RATE_KINDS``).
LEARNER_HASH_COLUMNS: tuple[str, ...] = (
    "learners.token_hash",
    "class_sessions.creator_hash",
    "class_students.learner_hash",
    "class_key_attempts.guesser",
    "group_key_attempts.guesser",
    "class_rate.bucket",
    "study_groups.creator_hash",
    "teacher_lessons.owner_hash",
)
#: The rate buckets keyed by a browser's learner hash (``tutor.classroom.session``,
#: ``tutor.classroom.tries``, ``tutor.homework.core``; ``group-browser`` on older databases).
RATE_KINDS: tuple[str, ...] = (
    "create-browser",
    "join-browser",
    "group-browser",
    "class-code-b",
    "group-code-b",
    "group-create-b",
    "lesson-create-b",
    "lesson-check-b",
)

LESSON_ID_MAX = 64
#: A lesson's steps are counted in tens; a bound keeps a forged request from storing millions.
STEPS_MAX = 1000
#: The JSON of one step's record or of a lesson's seen steps, in UTF-8 bytes.
JSON_MAX = 4096
#: A language code or a grading reference's name (``fr``, ``exact``): short words only.
SETTING_MAX = 8


learners = sa.Table(
    "learners",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    # A display name, None until the learner gives one; never a key (two learners may share it).
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=True),
    # SHA-256 of the learner's token: how a learner is found. None only on rows made before
    # migration 0003, when a nickname was the key (see ``Store.learner``).
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("token_hash", name="uq_learners_token_hash"),
)
#: Only the deprecated nickname-keyed learners (no token) keep unique nicknames, so that two
#: racing first visits of ``Store.learner`` still make one row.
sa.Index(
    "ix_learners_legacy_nickname",
    learners.c.nickname,
    unique=True,
    sqlite_where=learners.c.token_hash.is_(None),
    postgresql_where=learners.c.token_hash.is_(None),
)
answers = sa.Table(
    "answers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("answered_at", UTCDateTime, nullable=False),
    sa.Column("category", sa.String(16), nullable=False),
    sa.Column("item", sa.String(64), nullable=False),
    sa.Column("cards", sa.String(48), nullable=False),
    sa.Column("dealer_up", sa.String(4), nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("chosen", sa.String(24), nullable=False),
    sa.Column("best", sa.String(24), nullable=False),
    sa.Column("verdict", sa.String(12), nullable=False),  # the answer's Grade
    sa.Column("ev_loss", sa.Float, nullable=False),
    # Where the answer was given: the quiz, the practice table, a lesson's deal (``ORIGINS``).
    sa.Column("origin", sa.String(8), nullable=False, server_default="quiz"),
)
reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("item", sa.String(64), primary_key=True),
    sa.Column("category", sa.String(16), nullable=False),
    sa.Column("box", sa.Integer, nullable=False),
    sa.Column("due_at", UTCDateTime, nullable=False, index=True),
    sa.Column("seen", sa.Integer, nullable=False),
    sa.Column("missed", sa.Integer, nullable=False),
)
# -- lessons: one row per learner and lesson, one per step the learner acted on --
lesson_progress = sa.Table(
    "lesson_progress",
    metadata,
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("lesson_id", sa.String(LESSON_ID_MAX), primary_key=True),
    # The seed the lesson's random deals were drawn from: replaying it deals the same cards.
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("seen", sa.Text, nullable=False),  # JSON list of step indexes, ascending
    sa.Column("completed", sa.Integer, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)
lesson_steps = sa.Table(
    "lesson_steps",
    metadata,
    sa.Column("learner_id", sa.Integer, primary_key=True),
    sa.Column("lesson_id", sa.String(LESSON_ID_MAX), primary_key=True),
    sa.Column("step_index", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # JSON object, shape by kind (``StepRecord``)
    sa.Column("done", sa.Boolean, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    # A step belongs to a lesson run: without its seed it could not be replayed.
    sa.ForeignKeyConstraint(
        ["learner_id", "lesson_id"],
        ["lesson_progress.learner_id", "lesson_progress.lesson_id"],
        ondelete="CASCADE",
        name="fk_lesson_steps_progress",
    ),
)

# -- a learner's settings: one row per learner, written at each change, read at each visit --
learner_settings = sa.Table(
    "learner_settings",
    metadata,
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("language", sa.String(SETTING_MAX), nullable=False),
    sa.Column("reference", sa.String(SETTING_MAX), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),  # JSON object (``Settings.rules``)
    sa.Column("updated_at", UTCDateTime, nullable=False),
)
