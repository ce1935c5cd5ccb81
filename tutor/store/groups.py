"""Homework's tables: a teacher's study groups, their members, the work given to them (lessons
and drills with a due date), and what each member did for it.

A module of its own beside the statements that read them (``tutor.store.group_records``), as class
mode's tables sit beside theirs: the schema a migration must match reads in one page, and the
rules (who may do what, what a follow-up shows) stay in ``tutor.homework`` with no SQL in them.

Why the work is copied here rather than pointed at: a drill's answers for a group are rows of
``group_answers``, not links into the learner's own ``answers``. The teacher reads these rows and
nothing else of the student, so no query can wander from the work done for the group into the
rest of a learner's record; and a member's rows go with the member (``ON DELETE CASCADE`` from
``group_members``, itself cascading from ``learners``), so a student who erases their data leaves
every group's results at once.
"""

from __future__ import annotations

import sqlalchemy as sa

from tutor.store.base import FOLDED_MAX, NICKNAME_MAX, UTCDateTime, metadata
from tutor.store.tables import LESSON_ID_MAX

#: A group's name as the teacher types it (« 2nde B, jeudi »).
GROUP_NAME_MAX = 80
#: A drill's category (``tutor.quiz`` names them: ``hard``, ``pairs``...) and an answer's words.
WORD_MAX = 24

study_groups = sa.Table(
    "study_groups",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(8), nullable=False, unique=True),
    sa.Column("name", sa.String(GROUP_NAME_MAX), nullable=False),
    # The teacher's key, as a slow salted hash (``tutor.classroom.access.hash_key``).
    sa.Column("key_hash", sa.String(200), nullable=False),
    # The creating browser's learner token hash: its teacher finds the groups again without the
    # key. None once that learner erased their data (the group stays, opened with its key).
    sa.Column("creator_hash", sa.String(64), nullable=True, index=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    # The last time anyone worked in or on the group: a group expires after a term without it.
    sa.Column("active_at", UTCDateTime, nullable=False, index=True),
    # What a mark is out of (``tutor.homework.marks``): 20 unless the teacher picks another.
    sa.Column("mark_scale", sa.Integer, nullable=False, server_default=sa.text("20")),
)
group_members = sa.Table(
    "group_members",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "group_id",
        sa.Integer,
        sa.ForeignKey("study_groups.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column(
        "learner_id",
        sa.Integer,
        sa.ForeignKey("learners.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    # ``fold_nickname(nickname)``: one member per name as the teacher reads it.
    sa.Column("folded", sa.String(FOLDED_MAX), nullable=False),
    sa.Column("joined_at", UTCDateTime, nullable=False),
    # The member this one was merged into (the same student on another device): its rows stay
    # its own and count as the other's (``Homework.merge``), so a merge loses no answer.
    sa.Column("merged_into", sa.Integer, nullable=True),
    sa.UniqueConstraint("group_id", "folded", name="uq_group_members_group_folded"),
    sa.UniqueConstraint("group_id", "learner_id", name="uq_group_members_group_learner"),
)
assignments = sa.Table(
    "assignments",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(
        "group_id",
        sa.Integer,
        sa.ForeignKey("study_groups.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("kind", sa.String(8), nullable=False),  # "lesson" or "drill"
    # A lesson's id (built-in or a teacher's), for a lesson.
    sa.Column("lesson_id", sa.String(LESSON_ID_MAX), nullable=True),
    # A drill: its category, its number of hands and its table (JSON of ``TableRules``).
    sa.Column("category", sa.String(WORD_MAX), nullable=True),
    sa.Column("hands", sa.Integer, nullable=True),
    sa.Column("rules", sa.Text, nullable=True),
    sa.Column("due_at", UTCDateTime, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)
#: One row per member and assignment once the member has started it: the time spent and when
#: it was finished (None until then).
group_work = sa.Table(
    "group_work",
    metadata,
    sa.Column(
        "assignment_id",
        sa.Integer,
        sa.ForeignKey("assignments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column(
        "member_id",
        sa.Integer,
        sa.ForeignKey("group_members.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("seconds", sa.Integer, nullable=False),
    sa.Column("steps_done", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("done_at", UTCDateTime, nullable=True),
)
#: A later due date and time for one member of one assignment (an extension).
assignment_extensions = sa.Table(
    "assignment_extensions",
    metadata,
    sa.Column(
        "assignment_id",
        sa.Integer,
        sa.ForeignKey("assignments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column(
        "member_id",
        sa.Integer,
        sa.ForeignKey("group_members.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("due_at", UTCDateTime, nullable=False),
)
#: The answers given for the group, one per position: a drill's hand, or in an assigned lesson a
#: step's question, decision or drill hand (``LESSON_POSITIONS`` apart: step × 1000 + its
#: answer), kept only once the work was given. What the follow-up's mistakes, scores, marks and
#: costs are counted from.
group_answers = sa.Table(
    "group_answers",
    metadata,
    sa.Column(
        "assignment_id",
        sa.Integer,
        sa.ForeignKey("assignments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column(
        "member_id",
        sa.Integer,
        sa.ForeignKey("group_members.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("category", sa.String(16), nullable=False),
    sa.Column("item", sa.String(64), nullable=False),
    sa.Column("cards", sa.String(48), nullable=False),
    sa.Column("dealer_up", sa.String(4), nullable=False),
    sa.Column("chosen", sa.String(WORD_MAX), nullable=False),
    sa.Column("best", sa.String(WORD_MAX), nullable=False),
    sa.Column("verdict", sa.String(12), nullable=False),
    sa.Column("ev_loss", sa.Float, nullable=False),
    sa.Column("answered_at", UTCDateTime, nullable=False),
)
#: Wrong teacher keys per group *and per guesser* (a browser's learner token hash), as
#: ``class_key_attempts`` for classes: a stranger's guesses lock the stranger out, never the
#: group's teacher (``Homework.open_group``).
group_key_attempts = sa.Table(
    "group_key_attempts",
    metadata,
    sa.Column(
        "group_id",
        sa.Integer,
        sa.ForeignKey("study_groups.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("guesser", sa.String(64), primary_key=True),
    sa.Column("failed", sa.Integer, nullable=False),
    sa.Column("locked_until", UTCDateTime, nullable=True),
)
