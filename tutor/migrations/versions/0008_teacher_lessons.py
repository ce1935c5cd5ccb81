"""A teacher's own lessons (« Mes leçons »), kept in the database.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

- ``teacher_lessons``: one row per lesson a teacher writes in the browser: the owning browser's
  learner token hash (indexed: the teacher's list and the per-teacher bound read it), the link
  token students open it with (unique), the slow hash of the key that reopens it from another
  browser, the draft and whether it passed the checker, the published text with its id, how many
  times it was published and what changed the last time. Every process of a school's server reads
  the same rows, so a lesson published through one is played through another at once.

A new table: nothing existing is copied or changed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tutor.store.base import UTCDateTime

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "teacher_lessons",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("owner_hash", sa.String(64), nullable=True),
        sa.Column("token", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(200), nullable=False),
        sa.Column("lesson_id", sa.String(64), nullable=True),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("draft", sa.Text, nullable=False),
        sa.Column("draft_ok", sa.Boolean, nullable=False),
        sa.Column("published", sa.Text, nullable=True),
        sa.Column("published_id", sa.String(64), nullable=True),
        sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("changes", sa.Text, nullable=True),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
        sa.Column("published_at", UTCDateTime, nullable=True),
        sa.UniqueConstraint("token", name="uq_teacher_lessons_token"),
    )
    op.create_index("ix_teacher_lessons_owner_hash", "teacher_lessons", ["owner_hash"])


def downgrade() -> None:
    op.drop_index("ix_teacher_lessons_owner_hash", table_name="teacher_lessons")
    op.drop_table("teacher_lessons")
