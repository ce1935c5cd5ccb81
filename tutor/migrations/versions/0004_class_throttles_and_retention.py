"""Class mode's throttles: wrong teacher keys counted per guesser, joins counted per minute.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

- ``class_key_attempts``: wrong teacher keys per class and per guesser (the guessing browser's
  learner token hash), each with its own lock. Before, one counter per class let any visitor
  lock the teacher out of their own class; the class's ``failed_keys`` and ``locked_until``
  columns stay (unused) so that this revision can be undone without losing anything.
- ``class_rate``: hits per bucket (a class, a browser) and per minute, so that every server
  process limits joins alike.
- ``class_sessions.created_at`` indexed: classes expire a fixed time after their creation
  (``tutor.classroom.RETENTION``) and are found by it to be deleted.

Only new tables and an index: nothing to copy, so SQLite needs no batch mode here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "class_key_attempts",
        sa.Column(
            "session_id",
            sa.Integer,
            sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("guesser", sa.String(64), primary_key=True),
        sa.Column("failed", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "class_rate",
        sa.Column("bucket", sa.String(80), primary_key=True),
        sa.Column("window_start", sa.DateTime(timezone=True), primary_key=True),
        sa.Column("hits", sa.Integer, nullable=False),
    )
    op.create_index("ix_class_sessions_created_at", "class_sessions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_class_sessions_created_at", table_name="class_sessions")
    op.drop_table("class_rate")
    op.drop_table("class_key_attempts")
