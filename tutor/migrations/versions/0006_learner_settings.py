"""A learner's settings kept with their code, and where each answer was given.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

- ``learner_settings``: one row per learner (its key is the learner's id, deleted with the learner
  by cascade): ``language`` (``fr`` or ``en``), ``reference`` (``chart`` or ``exact``), ``rules``
  (JSON: ``{"preset": name}`` for a named table, or every option of an edited one) and
  ``updated_at``. Before this revision a reload went back to the family table in French; the
  settings were only in the browser tab's memory.
- ``answers.origin``: where a judged answer was given, ``quiz`` (every answer before this
  revision, the column's default), ``table`` (a hand at the practice table) or ``lesson`` (a
  lesson's deal), so that *My data* can say which is which.

A new table and a column with a default: no existing row is copied, SQLite adds both in place.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learner_settings",
        sa.Column(
            "learner_id",
            sa.Integer,
            sa.ForeignKey("learners.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("reference", sa.String(8), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


    op.add_column(
        "answers", sa.Column("origin", sa.String(8), nullable=False, server_default="quiz")
    )


def downgrade() -> None:
    with op.batch_alter_table("answers") as batch:
        batch.drop_column("origin")
    op.drop_table("learner_settings")
