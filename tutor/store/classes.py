"""Class mode's tables: a class session, its questions, its students (seats), their answers,
the wrong teacher keys and the rate counters.

A module of its own beside the statements that read them (``tutor.store.class_records``): the
schema a migration must match reads in one page, and class mode's rules in ``tutor.classroom``
hold no SQL.
"""

from __future__ import annotations

import sqlalchemy as sa

from tutor.store.base import FOLDED_MAX, NICKNAME_MAX, UTCDateTime, metadata

class_sessions = sa.Table(
    "class_sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(8), nullable=False, unique=True),
    sa.Column("title", sa.String(80), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("key_hash", sa.String(200), nullable=False),
    # Indexed: expired sessions are found by it (``Classroom.purge_expired``).
    sa.Column("created_at", UTCDateTime, nullable=False, index=True),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Column("current", sa.Integer, nullable=False),
    sa.Column("revealed", sa.Boolean, nullable=False),
    sa.Column("failed_keys", sa.Integer, nullable=False),
    sa.Column("locked_until", UTCDateTime, nullable=True),
    # The creating browser's learner token hash, so that its teacher finds their classes again
    # (migration 0005; None on classes created before it).
    sa.Column("creator_hash", sa.String(64), nullable=True, index=True),
    # Locked by the teacher: nobody new takes a seat (migration 0007; ``insert_student``).
    sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()),
    # The second join step's pattern as symbol indexes (``tutor.classroom.joinstep``), None when
    # the teacher did not turn it on (migration 0007).
    sa.Column("join_pattern", sa.String(8), nullable=True),
    # The language of the names the app gives (``tutor.classroom.names``), None when students
    # type their nicknames (migration 0007).
    sa.Column("given_names", sa.String(2), nullable=True),
    # The study group the class was run for (``tutor.homework.in_class``): its results join the
    # group's follow-up. None for any other class (migration 0011). No foreign key (SQLite
    # cannot add one in place); a group's deletion clears it (``GroupRecords.delete_idle``).
    sa.Column("group_id", sa.Integer, nullable=True, index=True),
    # The creating request's network client (``tutor.classroom.access.client_key``), so that the
    # classes a client holds unused are bounded (migration 0012; None before it).
    sa.Column("creator_client", sa.String(40), nullable=True, index=True),
)
class_questions = sa.Table(
    "class_questions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "session_id",
        sa.Integer,
        sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("cards", sa.String(48), nullable=False),
    sa.Column("dealer_up", sa.String(4), nullable=False),
    sa.Column("insurance", sa.Boolean, nullable=False),
    # A question's own table (its rules as JSON) when it is not the class's, and its own words
    # ({language: text} as JSON): a class from a lesson keeps each step's (migration 0010;
    # None on hands typed or drilled, and on every question before it).
    sa.Column("own_rules", sa.Text, nullable=True),
    sa.Column("texts", sa.Text, nullable=True),
    # The moves a class from a lesson offers, comma-joined (``hit,stand``), and the step's own
    # explanation ({language: text} as JSON): graded among the lesson's moves, explained in its
    # words (migration 0013; None on every other question and on those before it).
    sa.Column("offered", sa.String(120), nullable=True),
    sa.Column("explanations", sa.Text, nullable=True),
    sa.UniqueConstraint("session_id", "position"),
)
class_students = sa.Table(
    "class_students",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "session_id",
        sa.Integer,
        sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    # ``fold_nickname(nickname)``: one seat per name as the teacher reads it (case, accents).
    sa.Column("folded", sa.String(FOLDED_MAX), nullable=False),
    # The joining browser's learner token hash, so a reload finds the seat again (None on seats
    # taken before migration 0003).
    sa.Column("learner_hash", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("joined_at", UTCDateTime, nullable=False),
    sa.Column("reconnections", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.UniqueConstraint("session_id", "folded", name="uq_class_students_session_folded"),
    sa.UniqueConstraint("session_id", "learner_hash", name="uq_class_students_session_learner"),
)
class_answers = sa.Table(
    "class_answers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "question_id",
        sa.Integer,
        sa.ForeignKey("class_questions.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column(
        "student_id",
        sa.Integer,
        sa.ForeignKey("class_students.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("action", sa.String(24), nullable=False),
    sa.Column("answered_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("question_id", "student_id"),
)
#: Wrong teacher keys per class *and per guesser* (a browser's learner token hash): a stranger's
#: guesses lock the stranger out, never the teacher (``Classroom.open_as_teacher``).
class_key_attempts = sa.Table(
    "class_key_attempts",
    metadata,
    sa.Column(
        "session_id",
        sa.Integer,
        sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("guesser", sa.String(64), primary_key=True),
    sa.Column("failed", sa.Integer, nullable=False),
    sa.Column("locked_until", UTCDateTime, nullable=True),
)
#: Hits per bucket (a class, a browser) and per minute, in the database so that every server
#: process counts the same joins (``Classroom.join``).
class_rate = sa.Table(
    "class_rate",
    metadata,
    sa.Column("bucket", sa.String(80), primary_key=True),
    sa.Column("window_start", UTCDateTime, primary_key=True),
    sa.Column("hits", sa.Integer, nullable=False),
)
