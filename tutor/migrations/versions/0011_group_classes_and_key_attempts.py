"""Homework: a live class run for a study group, and wrong group keys counted per guesser.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02

- ``class_sessions.group_id``: the study group a class was run for (``tutor.homework.in_class``),
  None for a class run for nobody's group, and on every class before this revision. No foreign
  key: SQLite cannot add one to an existing table without copying it, and the statements clear
  it themselves when a group goes (``GroupRecords.delete_idle``). Indexed: a group's follow-up
  finds its classes by it.
- ``group_key_attempts``: wrong teacher keys per group *and per guesser* (a browser's learner
  token hash), each with its own lock, as ``class_key_attempts`` does for classes: a stranger's
  guesses lock the stranger out, never the group's teacher.

A nullable column and a new table: SQLite needs no batch mode.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("class_sessions", sa.Column("group_id", sa.Integer, nullable=True))
    op.create_index("ix_class_sessions_group_id", "class_sessions", ["group_id"])
    op.create_table(
        "group_key_attempts",
        sa.Column(
            "group_id",
            sa.Integer,
            sa.ForeignKey("study_groups.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("guesser", sa.String(64), primary_key=True),
        sa.Column("failed", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("group_key_attempts")
    op.drop_index("ix_class_sessions_group_id", table_name="class_sessions")
    with op.batch_alter_table("class_sessions") as batch:
        batch.drop_column("group_id")
