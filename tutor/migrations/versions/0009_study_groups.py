"""Homework: a teacher's study groups, their members, the work given to them, and what each
member did for it (``tutor.store.groups``, ``tutor.homework``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02

Five new tables, nothing copied: SQLite needs no batch mode. A member belongs to a learner
(``ON DELETE CASCADE``) and a member's work and answers to the member, so erasing a learner
leaves every group's results.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "study_groups",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(8), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("key_hash", sa.String(200), nullable=False),
        sa.Column("creator_hash", sa.String(64), nullable=True, index=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("active_at", _WHEN, nullable=False, index=True),
    )
    op.create_table(
        "group_members",
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
        sa.Column("nickname", sa.String(24), nullable=False),
        sa.Column("folded", sa.String(432), nullable=False),
        sa.Column("joined_at", _WHEN, nullable=False),
        sa.UniqueConstraint("group_id", "folded", name="uq_group_members_group_folded"),
        sa.UniqueConstraint("group_id", "learner_id", name="uq_group_members_group_learner"),
    )
    op.create_table(
        "assignments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "group_id",
            sa.Integer,
            sa.ForeignKey("study_groups.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("lesson_id", sa.String(64), nullable=True),
        sa.Column("category", sa.String(24), nullable=True),
        sa.Column("hands", sa.Integer, nullable=True),
        sa.Column("rules", sa.Text, nullable=True),
        sa.Column("due_at", _WHEN, nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_table(
        "group_work",
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
        sa.Column("started_at", _WHEN, nullable=False),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("steps_done", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("done_at", _WHEN, nullable=True),
    )
    op.create_table(
        "group_answers",
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
        sa.Column("chosen", sa.String(24), nullable=False),
        sa.Column("best", sa.String(24), nullable=False),
        sa.Column("verdict", sa.String(12), nullable=False),
        sa.Column("ev_loss", sa.Float, nullable=False),
        sa.Column("answered_at", _WHEN, nullable=False),
    )


def downgrade() -> None:
    for table in ("group_answers", "group_work", "assignments", "group_members", "study_groups"):
        op.drop_table(table)
